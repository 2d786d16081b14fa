"""Benchmark: one datasheet against every unit profile of the catalog, both phases (issue 14).

Times, on one core, a datasheet (at its minimum size, default wargear) shooting at and charging each of
the 625 unit profiles (those that can be a target: 622), full distributions, with the weapon choice
made per target. Cold: memoised parses and per-hit tables cleared first (the catalogs are loaded once,
outside the timing, as a session would have them). Warm: the median of further runs. The CPU time of
the process is printed beside the wall time (the machine may be shared). Prints figures; never a
pass/fail test (the goal is under 2 s cold).

Run: make bench (or .venv/bin/python bench/bench_units.py [DATASHEET ...]).
"""

from __future__ import annotations

import sys
import time

from timing import median_time

from praetor_analysis.analysis.unit_ratings import profile_targets, rate
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.units.datasheet import build_loadout

DEFAULT = ("Tactical Squad", "Terminator Cataphractii Squad", "Contemptor Dreadnought Talon", "Land Raider Spartan")


def main(names: list[str]) -> None:
    targets, skipped = profile_targets(models=5)
    print(f"{len(targets)} unit profiles as targets of 5 models ({len(skipped)} cannot be targets)")
    for name in names:
        clear_memos()
        t0, c0 = time.perf_counter(), time.process_time()
        loadout = build_loadout(name)
        frame = rate(loadout, targets)
        cold, cpu = time.perf_counter() - t0, time.process_time() - c0
        warm = median_time(lambda loadout=loadout: rate(loadout, targets), repeat=3)
        errors = int((frame["error"] != "").sum())
        print(
            f"{name:30s} {len(frame):5d} cells  cold {cold:5.2f} s (CPU {cpu:5.2f} s)  warm {warm:5.2f} s  "
            f"({errors} cells not computed: a phase the unit cannot attack in)"
        )


if __name__ == "__main__":
    main(sys.argv[1:] or list(DEFAULT))
