"""Benchmark: the two costs that grew faster than their work (issue 37 item 6), before and after, in one process.

1. The fire plan (``analysis/fire_plan.py``): lists of datasheet units against each other, from 4 against 4 to
   20 against 20, and the 12 and 13 against 2 of the issue (12 against 2 took 29 s: its search counted
   assignments, 2^12 = 4,096 within the limit, while it paid for the subsets). The code before is
   ``fire_plan.py`` at :data:`BASELINE`, loaded from git beside today's (it fires each target's units in list
   order); the figures are the points it plans, its bound and its CPU time.
2. Brutal and Murderous Strike against multi-wound models (the capped allocation chain,
   ``engine/allocation.py``): 10 to 1,000 attacks at 20 to 1,000 models; the code before is ``allocation.py``
   at :data:`BASELINE` put in place of today's for its run (the chain with a dense state-by-state product,
   refused beyond its work estimate). Each pair is timed in turn (``alternate_cpu``), memos cleared.

Run: ``.venv/bin/python bench/bench_cliffs.py`` (``--quick``: fewer cases). CPU times of one core.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from timing import alternate_cpu, from_git

import praetor_analysis.engine.batch_block as batch  # where the batch asks check_work
import praetor_analysis.engine.exact as exact
from praetor_analysis import calc
from praetor_analysis.analysis.army_list import ArmyList, read_list_json
from praetor_analysis.analysis.fire_plan import fire_plan
from praetor_analysis.engine.allocation import capped_seconds
from praetor_analysis.errors import PraetorError
from praetor_analysis.prob.memo import clear_memos

BASELINE = "ef7f15d"
"""The commit before this work (main when it started)."""

MOVED = {"praetor_analysis.scenario.unit_attack": "praetor_analysis.units.attack"}
"""Modules the code before imports under names they have left."""

SHOOTERS: list[Any] = [
    "Tactical Squad",
    {"name": "Heavy Support Squad", "loadout": ["Lascannon"]},
    "Terminator Tartaros Squad",
    "Praetor",
    "Land Raider Spartan",
    "Contemptor Dreadnought Talon",
    {"name": "Tactical Squad", "loadout": ["Power Fist"]},
    "Rhino Transport",
]


def army(n: int, name: str, shift: int = 0) -> ArmyList:
    return read_list_json({"name": name, "units": [SHOOTERS[(i + shift) % len(SHOOTERS)] for i in range(n)]})


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    clear_memos()
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def section_plan(quick: bool) -> None:
    old = from_git(BASELINE, "praetor_analysis/analysis/fire_plan.py", "fire_plan_before", MOVED)
    print("1. fire plan: points planned (bound), CPU seconds; before = list order, its own search and limit")
    print(
        f"   {'lists':>9} {'before pts':>11} {'(bound)':>9} {'s':>7} {'after pts':>10} {'(bound)':>9} {'s':>6}  method"
    )
    cases = [(4, 4), (6, 2), (12, 2), (13, 2), (8, 8), (20, 2), (2, 20), (20, 20)]
    if quick:
        cases = [(4, 4), (12, 2), (20, 20)]
    for na, nt in cases:
        mine, theirs = army(na, "mine"), army(nt, "theirs", shift=3)
        new, t_new = _timed(lambda m=mine, t=theirs: fire_plan(m, t))
        b = f"{'-':>11} {'-':>9} {'-':>7}"
        if old is not None:
            before, t_old = _timed(lambda m=mine, t=theirs: old.fire_plan(m, t))
            b = f"{before.expected:11.1f} {before.bound:9.1f} {t_old:7.2f}"
        print(f"   {na:>4} x {nt:<3} {b} {new.expected:10.1f} {new.bound:9.1f} {t_new:6.2f}  {new.method[:60]}")


def _brutal(attacks: int, models: int, wounds: int, rules: str) -> dict[str, Any]:
    return {
        "attacker": {"BS": 4, "S": 4},
        "attacks": attacks,
        "weapon": {"name": "b", "Range": '24"', "Strength": "4", "AP": "5", "Type": f"Heavy 1, {rules}"},
        "target": {"models": models, "T": 4, "W": wounds, "Save": "3+"},
    }


class _Before:
    """Today's engine with ``allocation.py`` of :data:`BASELINE` in its place (for a ``with`` block)."""

    def __init__(self) -> None:
        self.old = from_git(BASELINE, "praetor_analysis/engine/allocation.py", "allocation_before")

    def __enter__(self) -> None:
        if self.old is None:
            return
        old_alloc = self.old.Allocator

        class Shim(old_alloc):  # type: ignore[misc,valid-type]
            def resolve(self, x: Any, groups: Any, *, track: bool, u_max: int = 0, factors: Any = None) -> Any:
                return super().resolve(x, groups, track=track, u_max=u_max)

        old_check = self.old.check_work
        self.saved = (exact.Allocator, batch.check_work)
        exact.Allocator = Shim  # type: ignore[misc]
        batch.check_work = lambda shape, powers, groups, **kw: old_check(shape, powers, groups)  # type: ignore[assignment]

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            exact.Allocator, batch.check_work = self.saved  # type: ignore[misc]


def _run(scenario: dict[str, Any]) -> str:
    try:
        calc(scenario)
    except PraetorError as err:
        return "refused" if "too large" in str(err) else str(err)[:40]
    return "ok"


def section_brutal(quick: bool) -> None:
    before = _Before()
    print("2. Brutal / Murderous Strike vs multi-wound models: ms before -> after (estimate of the cost model, s)")
    cases = [(1000, 20, 2), (1000, 40, 2), (1000, 60, 2), (1000, 80, 2), (300, 100, 2), (1000, 200, 3),
             (100, 100, 2), (1000, 1000, 3)]  # fmt: skip
    if quick:
        cases = cases[:4]
    for rules in ("Brutal (2)", "Rending (6+), Brutal (2)", "Murderous Strike (6+)"):
        print(f"   {rules}")
        for attacks, models, wounds in cases:
            doc = _brutal(attacks, models, wounds, rules)
            outcome: dict[str, str] = {}

            def old(d: dict[str, Any] = doc) -> None:
                clear_memos()
                with before:
                    outcome["before"] = _run(d)

            def new(d: dict[str, Any] = doc) -> None:
                clear_memos()
                outcome["after"] = _run(d)

            t_old, t_new = alternate_cpu([old, new], 3 if attacks * models < 100_000 else 1)
            groups = 1 if rules in ("Brutal (2)",) else 2
            est = capped_seconds(
                (attacks + 1, 1, (models + 1) * wounds), min(models * wounds, attacks) + 1, groups, factored=True
            )
            print(
                f"   {attacks:>6} attacks x {models:>4} W{wounds}: {t_old * 1e3:8.1f} ({outcome['before']:>7}) -> "
                f"{t_new * 1e3:7.1f} ms ({outcome['after']}; estimate {est:.3f} s)"
            )


def main() -> None:
    quick = "--quick" in sys.argv
    print(f"bench_cliffs: load {os.getloadavg()[0]:.1f}")
    section_brutal(quick)
    section_plan(quick)


if __name__ == "__main__":
    main()
