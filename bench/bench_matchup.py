"""Benchmark: list against list (issue 25).

0. The whole rounds of melee of those pairs whose sides fight as one group each, through the round engine
   and through its predecessor (``melee/combat.py`` at commit ``BASELINE``, read from git into this process),
   alternated, after checking they give the same numbers (1e-12): cold (memos cleared) and warm. The
   predecessor's warm time is also the yardstick: the figures below are printed as multiples of it too (the
   machine's speed drifts; a ratio to work done in the same minutes drifts less).
1. The two shipped Dark Angels rosters against each other, both directions, both phases (16 x 15 units, 960
   pairs): cold (memoised parses and per-hit tables cleared; the lists read outside the timing, as a
   session holds them) and warm (the median of further runs). Goals: under 5 s cold, under 2 s warm.
2. The fire plan of each side (16 and 15 firing units) on its own, cold and warm. Goal: under 1 s.
3. One faction's datasheets (each at its minimum size with its default wargear and each single option;
   Legiones Astartes by default) against the standard targets, both phases. First a sample (every fourth
   datasheet) through the sweep layer before its shared results (``analysis/faction_sweep.py`` at commit
   ``SWEEP_BASELINE``, read from git; the same engine below it) and through today's, alternated, both cold,
   after checking the tables are equal; then the whole faction in this process, cold (goal: under 60 s on
   one core), and ``praetor sweep`` in a fresh process (imports and catalogs included; its CPU time from
   ``getrusage``). ``--quick``: the sample only, everywhere below.
4. The scaling: the same sweep on a Dask LocalCluster of 1 and of 2 worker processes (one thread each,
   loopback) and on 2 local processes (``--workers 2``), wall time (the cluster's start, each worker's imports
   and catalogs apart), each table checked equal to the one of this process.

CPU time of this process is what the figures on one core are (the machine is shared; the wall time is
printed beside it); BLAS runs on one thread (``OPENBLAS_NUM_THREADS=1`` before numpy loads: its threads
spin on a shared machine and count as CPU time). Prints figures; never a pass/fail test.

Run: make bench (or .venv/bin/python bench/bench_matchup.py [MINE THEIRS] [--faction NAME] [--quick]
[--no-scaling]).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import types
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: BLAS threads fight over a shared machine

import numpy as np
import pandas as pd
from timing import alternate_cpu, from_git, median_cpu

import praetor_analysis.units.attack as unit_attack
from praetor_analysis.analysis.army_list import load_list
from praetor_analysis.analysis.faction_sweep import datasheets_of, field_of, sweep_faction
from praetor_analysis.analysis.fire_plan import fire_plan
from praetor_analysis.analysis.matchup import pair_rows
from praetor_analysis.melee.blows import Party
from praetor_analysis.melee.combat import resolve_combat
from praetor_analysis.prob.memo import clear_memos

ROSTERS = Path(__file__).resolve().parents[2] / "shared" / "bsdata" / "rosters"
REPO = Path(__file__).resolve().parents[1]
BASELINE = "6150765"
"""The commit whose round engine (one uniform side each, a Python loop over the joint states) is the baseline."""
SWEEP_BASELINE = "6d6435f"
"""The commit whose sweep layer computes every pair of every variant on its own (the baseline of section 3)."""
QUIET: Callable[..., None] = lambda *a: None  # noqa: E731


def _baseline_engine() -> types.ModuleType | None:
    """``melee/combat.py`` as it was at ``BASELINE`` (None without git)."""
    return from_git(BASELINE, "praetor_analysis/melee/combat.py", "baseline_combat")


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


def _choices(a, t) -> dict[str, int]:  # type: ignore[no-untyped-def]
    """The profiles today's round fights with, to give the baseline (its ties on casualties went to the first
    listed; today's go to the wounds taken off: the numbers are compared for the same weapons)."""
    got = resolve_combat(a, t)
    return {"attacker_choice": a.weapons.index(got.attacker_strikes.weapon),
            "target_choice": t.weapons.index(got.target_strikes.weapon)}  # fmt: skip


def _rounds_bench(mine, theirs) -> float | None:  # type: ignore[no-untyped-def]
    """Section 0; returns the baseline's warm CPU time (the yardstick), None without git."""
    old = _baseline_engine()
    if old is None:
        print("round engine: no git history here, baseline skipped")
        return None
    rounds = _uniform_rounds(mine, theirs)
    worst = max(_same(old.resolve_combat(a, t, **_choices(a, t)), resolve_combat(a, t)) for a, t in rounds)
    clear_memos()
    _, new_cold, _ = _timed(lambda: [resolve_combat(a, t) for a, t in rounds])
    old_t, new_t = alternate_cpu(
        [lambda: [old.resolve_combat(a, t) for a, t in rounds], lambda: [resolve_combat(a, t) for a, t in rounds]], 3
    )
    print(
        f"round engine, {len(rounds)} rounds of uniform sides: baseline {old_t:.2f} s, now cold {new_cold:.2f} s, "
        f"warm {new_t:.2f} s CPU (warm/baseline {new_t / old_t:.2f}); largest difference {worst:.1e}; load {_load()}"
    )
    return float(old_t)


def _timed(fn):  # type: ignore[no-untyped-def]
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - t0


def _load() -> str:
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def _per(cpu: float, yardstick: float | None) -> str:
    return f", {cpu / yardstick:.1f}x the yardstick" if yardstick else ""


def _pairs_and_plans(mine, theirs, yardstick: float | None) -> None:  # type: ignore[no-untyped-def]
    clear_memos()
    frame, cpu, wall = _timed(lambda: pair_rows(mine, theirs))
    print(
        f"pairs, both ways, both phases: {len(frame)} rows  cold CPU {cpu:.2f} s (wall {wall:.2f} s"
        f"{_per(cpu, yardstick)}; goal 5 s)  load {_load()}"
    )
    warm = median_cpu(lambda: pair_rows(mine, theirs), repeat=3)
    print(f"pairs warm: CPU {warm:.2f} s (median of 3{_per(warm, yardstick)}; goal 2 s)  load {_load()}")
    for a, b in ((mine, theirs), (theirs, mine)):
        clear_memos()
        plan, cpu, wall = _timed(lambda a=a, b=b: fire_plan(a, b))
        warm = median_cpu(lambda a=a, b=b: fire_plan(a, b), repeat=3)
        print(
            f"fire plan {len(a.units)} units at {len(b.units)}: cold CPU {cpu:.2f} s (wall {wall:.2f} s"
            f"{_per(cpu, yardstick)}), warm CPU {warm:.2f} s{_per(warm, yardstick)} (goal 1 s); "
            f"{plan.evaluations} exact compositions; {plan.expected:.1f} pts (bound {plan.bound:.1f}); load {_load()}"
        )


def _cold_sweep(fn: Callable[[], pd.DataFrame]) -> Callable[[], pd.DataFrame]:
    def run() -> pd.DataFrame:
        clear_memos()
        return fn()

    return run


def _sweep_bench(faction: str, quick: bool) -> tuple[list[str], pd.DataFrame]:
    """Section 3; returns the datasheets swept and this process's table (for the scaling's checks)."""
    names = datasheets_of(faction)
    sample = names[::4]
    old = from_git(SWEEP_BASELINE, "praetor_analysis/analysis/faction_sweep.py", "baseline_sweep")
    new_fn = _cold_sweep(lambda: sweep_faction(faction, "standard", datasheets=sample, progress=QUIET))
    table = new_fn()
    if old is None:
        print("sweep layer: no git history here, baseline skipped")
    else:
        old_fn = _cold_sweep(lambda: old.sweep_faction(faction, "standard", datasheets=sample, progress=QUIET))
        pd.testing.assert_frame_equal(old_fn(), table, check_exact=True)
        old_t, new_t = alternate_cpu([old_fn, new_fn], 1 if quick else 2)
        print(
            f"sweep {faction}, every fourth datasheet ({len(sample)} of {len(names)}, {len(table)} rows), cold: "
            f"the sweep layer of {SWEEP_BASELINE} {old_t:.2f} s, now {new_t:.2f} s CPU (now/before "
            f"{new_t / old_t:.2f}); the tables equal (exact); load {_load()}"
        )
    if quick:
        return sample, table
    table, cpu, wall = _timed(_cold_sweep(lambda: sweep_faction(faction, "standard", progress=QUIET)))
    variants = table[["datasheet", "variant"]].drop_duplicates()
    print(
        f"sweep {faction} vs standard targets, one process, cold: {len(table)} rows, {len(names)} datasheets, "
        f"{len(variants)} variants  CPU {cpu:.2f} s (wall {wall:.2f} s; goal 60 s)  load {_load()}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "praetor_analysis.cli", "sweep", faction, "-o", str(Path(tmp) / "s.parquet"),
             "--workers", "1"],
            capture_output=True, text=True, check=False, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
        )  # fmt: skip
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        child = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        same = run.returncode == 0 and len(pd.read_parquet(Path(tmp) / "s.parquet")) == len(table)
    print(
        f"praetor sweep {faction!r} --workers 1, a fresh process: CPU {child:.2f} s (wall {wall:.2f} s; "
        f"exit {run.returncode}, {'the same rows' if same else 'NOT the same rows'})  load {_load()}"
    )
    return names, table


def _scaling(faction: str, names: list[str], table: pd.DataFrame) -> None:
    """Section 4."""
    import distributed

    what = f"{len(names)} datasheets"
    _, cpu, wall = _timed(_cold_sweep(lambda: sweep_faction(faction, "standard", datasheets=names, progress=QUIET)))
    print(f"sweep ({what}) in this process, cold: CPU {cpu:.2f} s, wall {wall:.2f} s  load {_load()}")
    for workers in (1, 2):
        t0 = time.perf_counter()
        with (
            distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                     dashboard_address=None, env={"OPENBLAS_NUM_THREADS": "1"}) as cluster,
            distributed.Client(cluster) as client,
        ):  # fmt: skip
            client.run(datasheets_of, faction)  # each worker imports the package and reads the catalogs first
            client.run(field_of, "standard")
            start = time.perf_counter() - t0
            cpu0 = client.run(time.process_time)
            got, _, wall = _timed(
                lambda c=client: sweep_faction(faction, "standard", datasheets=names, scheduler=c, progress=QUIET)
            )
            cpu1 = client.run(time.process_time)
        pd.testing.assert_frame_equal(got, table, check_exact=True)
        cpus = ", ".join(f"{cpu1[w] - cpu0[w]:.2f}" for w in sorted(cpu1))
        print(
            f"sweep ({what}) on a LocalCluster of {workers} worker(s): wall {wall:.2f} s, the workers' CPU {cpus} s "
            f"(apart: the cluster's start, imports and catalogs {start:.2f} s); the table equal to this process's  "
            f"load {_load()}"
        )
    got, _, wall = _timed(lambda: sweep_faction(faction, "standard", datasheets=names, workers=2, progress=QUIET))
    pd.testing.assert_frame_equal(got, table, check_exact=True)
    print(
        f"sweep ({what}) on 2 local processes (--workers 2, forked from this process: its memos warm): wall "
        f"{wall:.2f} s; the table equal  load {_load()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("lists", nargs="*", default=[str(ROSTERS / "HH2 - Dark Angels.rosz"),
                                                      str(ROSTERS / "Dark Angels - HH2 - Test.ros")])  # fmt: skip
    parser.add_argument("--faction", default="Legiones Astartes")
    parser.add_argument("--quick", action="store_true", help="the faction sweep on every fourth datasheet only")
    parser.add_argument("--no-scaling", action="store_true")
    args = parser.parse_args()
    mine, theirs = (load_list(p) for p in args.lists)
    print(f"{mine.name}: {len(mine.units)} units; {theirs.name}: {len(theirs.units)} units (load {_load()})")
    yardstick = _rounds_bench(mine, theirs)
    _pairs_and_plans(mine, theirs, yardstick)
    names, table = _sweep_bench(args.faction, args.quick)
    if not args.no_scaling:
        _scaling(args.faction, names, table)


if __name__ == "__main__":
    main()
