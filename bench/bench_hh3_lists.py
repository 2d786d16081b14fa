"""Benchmark: the 2nd edition's list benchmarks run for the 3rd edition too, in the same process (issue 35 item 5).

1. A roster rated (``rate_roster``: every unit, shooting and melee, at the edition's standard targets): the 2nd
   edition's ``HH2 - Dark Angels.rosz`` (2,795 points, 16 units, 11 targets) and the 3rd edition's
   ``All Comers.rosz`` (2,998 points, 20 units, 7 targets), cold (memos and the door's cache cleared) and warm.
2. A matchup of two lists (both fire plans and the pair table): the 2nd edition's two shipped Dark Angels rosters
   (2,795 and 2,638 points) and the 3rd edition's ``Real List.rosz`` against ``All Comers.rosz`` (2,977 and 2,998
   points: the public 3rd-edition fixtures have no 2,000-point pair), cold and warm.
3. A faction sweep (``sweep_faction``, every datasheet and each single option against the edition's standard targets,
   both phases, one process, cold): Solar Auxilia, a faction both editions' shipped data hold (the 3rd edition's
   lacks the generic Legion catalogue); ``--quick`` takes every fourth datasheet of each.
4. The weapon modes of ``All Comers.rosz`` scored (``hh3_volleys`` of every unit at every standard target, both
   phases, cold): through the door (each mode's one-model volley written as a document, ``calc_hh3_stages``, its
   result mapping read: the reference) and typed (``units.hh3_attack.mode_score``, what the unit paths use); the
   door's figure is the yardstick of that row.

CPU times of this process (the machine is shared); the 2nd edition's figure is the yardstick of each row
(ratio printed). Fixtures: tests/fixtures/rosters (their sources in its README). Never a pass/fail test.

Run: .venv/bin/python bench/bench_hh3_lists.py [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from praetor_analysis.analysis.faction_sweep import datasheets_of, sweep_faction
from praetor_analysis.analysis.list_matchup import matchup
from praetor_analysis.analysis.unit_ratings import rate_roster
from praetor_analysis.errors import ScenarioError
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.scenario.hh3_door import calc_hh3_stages
from praetor_analysis.units import Hh3Shot, Hh3Target, hh3_attack
from praetor_analysis.units.fielded import read_roster_units
from praetor_analysis.units.hh3_target import hh3_standard_targets

ROSTERS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "rosters"
HH2_A = ROSTERS / "hh2" / "HH2 - Dark Angels.rosz"
HH2_B = ROSTERS / "hh2" / "Dark Angels - HH2 - Test.ros"
HH3_A = ROSTERS / "hh3" / "All Comers.rosz"
HH3_B = ROSTERS / "hh3" / "Real List.rosz"
FACTION = "Solar Auxilia"


def _cold() -> None:
    clear_memos()
    hh3_attack.clear_cache()


def _cpu(fn: Callable[[], object], cold: bool, runs: int = 3) -> float:
    """Median CPU seconds of ``fn`` (each run cold: memos cleared first)."""
    times = []
    for _ in range(runs):
        if cold:
            _cold()
        t0 = time.process_time()
        fn()
        times.append(time.process_time() - t0)
    return sorted(times)[len(times) // 2]


def _row(what: str, hh2: float, hh3: float) -> None:
    print(f"| {what} | {hh2:.2f} s | {hh3:.2f} s | {hh3 / hh2:.2f}x |")


def _by_door(shot: Hh3Shot, target: Hh3Target) -> tuple[float, float] | str:
    """A mode's score through the door: its one-model volley as a document, the result mapping read."""
    block = shot.to_block()
    try:
        result = calc_hh3_stages({"edition": "hh3", **block, "charging": block["mode"] == "melee",
                                  "target": target.to_block()})  # fmt: skip
    except ScenarioError as e:
        return str(e)
    if target.is_vehicle:
        return float(result["hull_points"]["mean"]), 0.0
    return float(result["casualties"]["mean"]), float(result["damage"]["mean"])


def _score_modes(scorer: Callable[..., object]) -> None:
    """Every unit of ``All Comers.rosz`` choosing its weapons at every standard target, both phases, the modes
    scored by ``scorer``."""
    units = read_roster_units(HH3_A).units
    saved = hh3_attack.mode_score
    hh3_attack.mode_score = scorer  # type: ignore[assignment]
    try:
        for unit in units:
            for _, target in hh3_standard_targets():
                for mode in ("shooting", "melee"):
                    with contextlib.suppress(ScenarioError):  # a unit none of whose models strikes
                        hh3_attack.hh3_volleys(unit, target, mode)
    finally:
        hh3_attack.mode_score = saved  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="one run each (not the median of three)")
    args = parser.parse_args()
    runs = 1 if args.quick else 3
    print(f"load average {os.getloadavg()[0]:.1f}")
    print("| what | 2nd edition | 3rd edition | 3rd / 2nd |")
    print("|---|---|---|---|")
    for cold in (True, False):
        label = "cold" if cold else "warm"
        if not cold:
            rate_roster(HH2_A), rate_roster(HH3_A)
        _row(
            f"a roster rated ({label})",
            _cpu(lambda: rate_roster(HH2_A), cold, runs),
            _cpu(lambda: rate_roster(HH3_A), cold, runs),
        )
    for cold in (True, False):
        label = "cold" if cold else "warm"
        if not cold:
            matchup(HH2_A, HH2_B), matchup(HH3_A, HH3_B)
        _row(
            f"a matchup, both fire plans and the pairs ({label})",
            _cpu(lambda: matchup(HH2_A, HH2_B), cold, runs),
            _cpu(lambda: matchup(HH3_A, HH3_B), cold, runs),
        )
    sweeps = {}
    for edition in ("hh2", "hh3"):
        sheets = datasheets_of(FACTION, edition)[:: 4 if args.quick else 1]
        _cold()
        t0 = time.process_time()
        frame = sweep_faction(FACTION, "standard", workers=1, datasheets=sheets, edition=edition)
        sweeps[edition] = (time.process_time() - t0, len(sheets), len(frame))
    (t2, n2, r2), (t3, n3, r3) = sweeps["hh2"], sweeps["hh3"]
    _row(f"a faction sweep, {FACTION} (cold): the whole faction", t2, t3)
    print(f"| the same, per datasheet | {t2 / n2:.2f} s ({n2} datasheets) | {t3 / n3:.2f} s ({n3} datasheets) | "
          f"{(t3 / n3) / (t2 / n2):.2f}x |")  # fmt: skip
    print(f"| the same, per 1,000 rows | {1000 * t2 / r2:.2f} s ({r2} rows) | {1000 * t3 / r3:.2f} s ({r3} rows) | "
          f"{(t3 / r3) / (t2 / r2):.2f}x |")  # fmt: skip
    door = _cpu(lambda: _score_modes(_by_door), True, runs)
    mean = _cpu(lambda: _score_modes(hh3_attack.mode_score), True, runs)
    print(f"| All Comers' weapon modes scored (cold): the door's documents, then typed | {door:.2f} s | "
          f"{mean:.2f} s | {mean / door:.2f}x |")  # fmt: skip


if __name__ == "__main__":
    main()
