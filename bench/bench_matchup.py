"""Benchmark: list against list (issue 25).

1. The two shipped Dark Angels rosters against each other, both directions, both phases (16 x 15 units, 960
   pairs): cold (memoised parses and per-hit tables cleared; the lists read outside the timing, as a
   session holds them) and warm (the median of further runs). Goals: under 5 s cold, under 2 s warm.
2. The fire plan of each side (16 and 15 firing units) on its own, cold and warm. Goal: under 1 s.
3. One faction's datasheets (each at its minimum size with its default wargear and each single option)
   against the standard targets, both phases, in this process (goal: under 60 s on one core); then the
   same on 1 and 2 local worker processes (wall time: the scaling).

CPU time of this process is what the figures on one core are (the machine is shared; the wall time is
printed beside it). Prints figures; never a pass/fail test.

Run: make bench (or .venv/bin/python bench/bench_matchup.py [MINE THEIRS] [--faction NAME] [--no-scaling]).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from timing import median_cpu

from praetor_analysis.analysis.army_list import load_list
from praetor_analysis.analysis.faction_sweep import sweep_faction
from praetor_analysis.analysis.fire_plan import fire_plan
from praetor_analysis.analysis.matchup import pair_rows
from praetor_analysis.prob.memo import clear_memos

ROSTERS = Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "rosters"


def _timed(fn):  # type: ignore[no-untyped-def]
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - t0


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("lists", nargs="*", default=[str(ROSTERS / "HH2 - Dark Angels.rosz"),
                                                      str(ROSTERS / "Dark Angels - HH2 - Test.ros")])  # fmt: skip
    parser.add_argument("--faction", default="Dark Angels")
    parser.add_argument("--no-scaling", action="store_true")
    args = parser.parse_args()
    mine, theirs = (load_list(p) for p in args.lists)
    print(f"{mine.name}: {len(mine.units)} units; {theirs.name}: {len(theirs.units)} units (load {_load()})")

    clear_memos()
    frame, cpu, wall = _timed(lambda: pair_rows(mine, theirs))
    print(f"pairs, both ways, both phases: {len(frame)} rows  cold CPU {cpu:.2f} s (wall {wall:.2f} s)  load {_load()}")
    warm = median_cpu(lambda: pair_rows(mine, theirs), repeat=3)
    print(f"pairs warm: CPU {warm:.2f} s (median of 3)  load {_load()}")

    for a, b in ((mine, theirs), (theirs, mine)):
        clear_memos()
        plan, cpu, wall = _timed(lambda a=a, b=b: fire_plan(a, b))
        warm = median_cpu(lambda a=a, b=b: fire_plan(a, b), repeat=3)
        print(
            f"fire plan {len(a.units)} units at {len(b.units)}: cold CPU {cpu:.2f} s (wall {wall:.2f} s), warm CPU "
            f"{warm:.2f} s; {plan.evaluations} exact compositions; {plan.expected:.1f} pts (bound {plan.bound:.1f}); "
            f"load {_load()}"
        )

    clear_memos()
    table, cpu, wall = _timed(lambda: sweep_faction(args.faction, "standard", progress=lambda *a: None))
    print(
        f"sweep {args.faction} vs standard targets: {len(table)} rows, {table['datasheet'].nunique()} datasheets, "
        f"{table['variant'].nunique()} variants  one process: CPU {cpu:.2f} s (wall {wall:.2f} s)  load {_load()}"
    )
    if args.no_scaling:
        return
    for workers in (1, 2):
        _, cpu, wall = _timed(
            lambda w=workers: sweep_faction(args.faction, "standard", workers=w, progress=lambda *a: None)
        )
        where = "this process" if workers == 1 else "local processes"
        print(f"sweep on {workers} worker(s) ({where}): wall {wall:.2f} s  load {_load()}")


if __name__ == "__main__":
    main()
