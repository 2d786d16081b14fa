"""Benchmark: list against list (issue 25).

0. The whole rounds of melee of those pairs whose sides fight as one group each, through the round engine
   and through its predecessor (``melee/combat.py`` at commit ``BASELINE``, read from git into this process),
   alternated, after checking they give the same numbers (1e-12): cold (memos cleared) and warm.
1. The two shipped Dark Angels rosters against each other, both directions, both phases (16 x 15 units, 960
   pairs): cold (memoised parses and per-hit tables cleared; the lists read outside the timing, as a
   session holds them) and warm (the median of further runs). Goals: under 5 s cold, under 2 s warm.
2. The fire plan of each side (16 and 15 firing units) on its own, cold and warm. Goal: under 1 s.
3. One faction's datasheets (each at its minimum size with its default wargear and each single option;
   Legiones Astartes by default) against the standard targets, both phases, in this process (goal: under
   60 s on one core); then the same on 1 and 2 local worker processes (wall time: the scaling).

CPU time of this process is what the figures on one core are (the machine is shared; the wall time is
printed beside it); BLAS runs on one thread (``OPENBLAS_NUM_THREADS=1`` before numpy loads: its threads
spin on a shared machine and count as CPU time). Prints figures; never a pass/fail test.

Run: make bench (or .venv/bin/python bench/bench_matchup.py [MINE THEIRS] [--faction NAME] [--no-scaling]).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import types
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: BLAS threads fight over a shared machine

import numpy as np
from timing import alternate_cpu, median_cpu

import praetor_analysis.scenario.unit_attack as unit_attack
from praetor_analysis.analysis.army_list import load_list
from praetor_analysis.analysis.faction_sweep import sweep_faction
from praetor_analysis.analysis.fire_plan import fire_plan
from praetor_analysis.analysis.matchup import pair_rows
from praetor_analysis.melee.blows import Party
from praetor_analysis.melee.combat import resolve_combat
from praetor_analysis.prob.memo import clear_memos

ROSTERS = Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "rosters"
REPO = Path(__file__).resolve().parents[1]
BASELINE = "6150765"
"""The commit whose round engine (one uniform side each, a Python loop over the joint states) is the baseline."""


def _baseline_engine() -> types.ModuleType | None:
    """``melee/combat.py`` as it was at ``BASELINE``, as a module of this process (None without git)."""
    try:
        source = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{BASELINE}:praetor_analysis/melee/combat.py"],
            capture_output=True, text=True, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return None
    module = types.ModuleType("baseline_combat")
    sys.modules[module.__name__] = module  # its dataclasses look their module up
    exec(compile(source, f"{BASELINE}:melee/combat.py", "exec"), module.__dict__)  # our own history, not input
    return module


def _uniform_rounds(mine, theirs) -> list[tuple]:  # type: ignore[no-untyped-def]
    """The (attacker, target) sides of every round of the pairs in which both sides fight as one group."""
    seen: list[tuple] = []
    real = unit_attack.resolve_combat

    def spy(attacker, target, **kw):  # type: ignore[no-untyped-def]
        if not isinstance(attacker, Party) and not isinstance(target, Party):
            seen.append((attacker, target))
        return real(attacker, target, **kw)

    unit_attack.resolve_combat = spy  # type: ignore[assignment]
    try:
        pair_rows(mine, theirs)
    finally:
        unit_attack.resolve_combat = real  # type: ignore[assignment]
    return seen


def _same(a, b) -> float:  # type: ignore[no-untyped-def]
    """The largest difference between two round results' numbers."""
    da, db = a.to_dict(), b.to_dict()
    worst = float(np.max(np.abs(np.array(da["casualties_joint"]) - np.array(db["casualties_joint"]))))
    for key in ("hits", "wounds", "unsaved", "casualties", "attacker_casualties"):
        x, y = np.array(da[key]["pmf"]), np.array(db[key]["pmf"])
        worst = max(worst, float(np.max(np.abs(x - y))) if x.shape == y.shape else float("inf"))
    for key in ("attacker_wins", "target_wins", "draw"):
        worst = max(worst, abs(da["combat"][key] - db["combat"][key]))
    return worst


def _rounds_bench(mine, theirs) -> None:  # type: ignore[no-untyped-def]
    old = _baseline_engine()
    if old is None:
        print("round engine: no git history here, baseline skipped")
        return
    rounds = _uniform_rounds(mine, theirs)
    worst = max(_same(old.resolve_combat(a, t), resolve_combat(a, t)) for a, t in rounds)
    clear_memos()
    _, new_cold, _ = _timed(lambda: [resolve_combat(a, t) for a, t in rounds])
    old_t, new_t = alternate_cpu(
        [lambda: [old.resolve_combat(a, t) for a, t in rounds], lambda: [resolve_combat(a, t) for a, t in rounds]], 3
    )
    print(
        f"round engine, {len(rounds)} rounds of uniform sides: baseline {old_t:.2f} s, now cold {new_cold:.2f} s, "
        f"warm {new_t:.2f} s CPU (warm/baseline {new_t / old_t:.2f}); largest difference {worst:.1e}; load {_load()}"
    )


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
    parser.add_argument("--faction", default="Legiones Astartes")
    parser.add_argument("--no-scaling", action="store_true")
    args = parser.parse_args()
    mine, theirs = (load_list(p) for p in args.lists)
    print(f"{mine.name}: {len(mine.units)} units; {theirs.name}: {len(theirs.units)} units (load {_load()})")
    _rounds_bench(mine, theirs)

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
