"""Benchmark: the batch engine (issue 16). Prints figures and ratios measured in this one process; never a
pass/fail test. Times are CPU times of this process (``time.process_time``) unless said otherwise: on a shared,
loaded machine the wall time mostly measures the other processes. The load (os.getloadavg) is printed with
each figure; the ratios, measured side by side, are what to compare.

1. 600 infantry cells (5 to 60 attacks; Rending, Shred, Brutal, Breaching, Murderous Strike, Instant Death,
   Pinning; against Legionaries, Cataphractii, a Contemptor and Militia): the engine's full results
   (``resolve_many``: hits, wounds, unsaved, casualties, pinned) against icepool given each cell's per-shot
   unsaved distribution and asked only for the unsaved wounds (``n @ die``), and against numpy's direct
   convolution of the same distributions (``convolve_power``: the floor of this formulation); and the public
   path, ``calc_many`` on the same cells' JSON documents (parsing and result mappings included), cold and warm.
2. The catalog sweep: every weapon against the standard targets (``compare``), cold and warm.
3. The all-units sweep: every weapon against all 625 unit profiles (``compare``), one core.
4. A dashboard update, 20 weapons x 8 targets: the comparison alone, ``compute_view`` afresh, and widget changes
   to updated FigureWidget trace data (``dashboard_update.py``).
5. The allocation chain against attacks: Brutal (2) and Rending against 20 two-wound models, 10 to 1,000 attacks.

Run: make bench (or .venv/bin/python bench/bench_batch.py); ``--quick`` skips the all-units sweep.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one core: BLAS threads fight over a shared machine

import math
import sys
import time

import numpy as np
import pandas as pd
from timing import alternate_cpu, median_cpu

from praetor_analysis.analysis.compare import compare
from praetor_analysis.catalog import load_targets, load_units, load_weapons
from praetor_analysis.engine.batch import resolve_many
from praetor_analysis.engine.hit_stage import hit_roll_of, shots_distribution
from praetor_analysis.engine.volley import weapon_strength
from praetor_analysis.engine.wound_stage import wound_groups
from praetor_analysis.prob.convolution import convolve_power
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.scenario.calc import calc, calc_many, parse_target, parse_volley
from praetor_analysis.scenario.frame import calc_frame
from praetor_analysis.units import UnitRow

RULE_SETS = [
    "",
    ", Rending (6+)",
    ", Shred",
    ", Brutal (2)",
    ", Breaching (5+)",
    ", Murderous Strike (6+)",
    ", Instant Death",
    ", Pinning",
    ", Rending (6+), Shred",
    ", Breaching (4+), Pinning",
    ", Brutal (2), Rending (6+)",
    ", Murderous Strike (5+), Shred",
    ", Shred, Pinning",
    ", Rending (5+), Brutal (3)",
    ", Instant Death, Pinning",
]
ATTACKS = [5, 10, 15, 20, 25, 30, 40, 45, 50, 60]
TARGETS = [
    "Legionary (Tactical Squad)",
    "Cataphractii Terminator",
    "Contemptor Dreadnought",
    "Militia (Infantry Squad)",
]


def load() -> str:
    return "load {:.1f}/{:.1f}/{:.1f}".format(*os.getloadavg())


def infantry_cells() -> list[dict]:
    targets = load_targets().set_index("archetype", drop=False)
    blocks = {name: UnitRow.from_row(targets.loc[name]).to_block() for name in TARGETS}
    cells = []
    for n in ATTACKS:
        for rules in RULE_SETS:
            for name in TARGETS:
                weapon = {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": f"Heavy 1{rules}"}
                cells.append({"attacker": {"BS": 4, "S": 4}, "attacks": n, "weapon": weapon, "target": blocks[name]})
    return cells


def _gap(a: np.ndarray, b: np.ndarray) -> float:
    n = max(a.size, b.size)
    return float(np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))))


def per_shot_unsaved(volley, target) -> np.ndarray:
    """The per-shot pmf of unsaved wounds (To Hit, then the per-hit table), as the engine computes it."""
    p_hit, _ = hit_roll_of(volley, target).per_shot()
    _, _, each = wound_groups(volley, target, weapon_strength(volley), target.W or 1)
    per_shot = p_hit * each
    per_shot[0] += 1.0 - p_hit
    return per_shot


def section_cells() -> None:
    import icepool

    scenarios = infantry_cells()
    cells = [(parse_volley(s), parse_target(s)) for s in scenarios]
    shots = [int(shots_distribution(v)[0].max) for v, _ in cells]
    per_shot = [per_shot_unsaved(v, t) for v, t in cells]
    k = len(cells)
    print(f"1. {k} infantry cells (5 to 60 attacks, 15 rule sets, 4 targets); {load()}")

    def engine() -> list:
        return resolve_many(cells)

    def cold_engine() -> list:
        clear_memos()
        return resolve_many(cells)

    def floor() -> list[np.ndarray]:
        return [convolve_power(p, n) for p, n in zip(per_shot, shots, strict=True)]

    def public() -> list:  # the JSON documents through the public path: parsing, engine, result mappings
        return calc_many(scenarios)

    def cold_public() -> list:
        clear_memos()
        return calc_many(scenarios)

    table = pd.DataFrame(scenarios)  # one row a scenario: the analysts' door

    def frame() -> pd.DataFrame:  # the same documents through calc_frame: distributions as arrays
        return calc_frame(table)

    def cold_frame() -> pd.DataFrame:
        clear_memos()
        return calc_frame(table)

    scale = 6**10
    dice = [icepool.Die({u: round(p * scale) for u, p in enumerate(ps) if p > 0}) for ps in per_shot]

    def ice() -> None:  # icepool's own memo is per die and count: each run a fresh set of dice
        fresh = [icepool.Die(dict(zip(d.outcomes(), d.quantities(), strict=True))) for d in dice]
        for die, n in zip(fresh, shots, strict=True):
            (n @ die).probabilities()

    results = engine()
    assert all(isinstance(r, dict) for r in public())  # every document computed (no error)
    # side by side (the machine drifts): icepool too, so that its ratios compare medians of the same minutes;
    # each warm run right after its cold one, which built its memos again
    assert (frame()["error"] == "").all()
    times = alternate_cpu([cold_engine, engine, floor, cold_public, public, cold_frame, frame, ice], 9)
    cold, warm, t_floor, pub_cold, pub_warm, frame_cold, frame_warm, t_ice = times
    floors = floor()
    worst = max(
        float(
            np.max(
                np.abs(
                    np.pad(a, (0, max(0, r.unsaved.max + 1 - a.size)))
                    - np.pad(r.unsaved.probabilities, (0, max(0, a.size - r.unsaved.max - 1)))
                )
            )
        )
        for a, r in zip(floors, results, strict=True)
    )
    print(
        f"   engine, full results (hits, wounds, unsaved, casualties, pinned): {warm / k * 1e6:.1f} us per cell "
        f"warm, {cold / k * 1e6:.1f} us cold (memos cleared: per-hit tables built); medians of 9 runs of each, "
        f"in turn with the floor's; {load()}"
    )
    print(
        f"   icepool, unsaved only (n @ die from each cell's per-shot pmf, fresh dice each run; median of 9, in turn "
        f"with the others): {t_ice / k * 1e6:.0f} us per cell"
    )
    print(f"   numpy floor, unsaved only (direct convolution, repeated squaring): {t_floor / k * 1e6:.1f} us per cell")
    print(
        f"   ratios: icepool / engine {t_ice / warm:.0f}x warm, {t_ice / cold:.0f}x cold (target >= 50x); "
        f"engine / floor {warm / t_floor:.2f}x warm, {cold / t_floor:.2f}x cold (target <= 2 to 3x); "
        f"largest |engine unsaved - floor| {worst:.1e}"
    )
    print(
        f"   public path (calc_many on the {k} JSON documents: parsing, engine, result mappings with reasons): "
        f"{pub_warm / k * 1e6:.1f} us per cell warm, {pub_cold / k * 1e6:.1f} us cold; icepool / public "
        f"{t_ice / pub_warm:.0f}x warm, {t_ice / pub_cold:.0f}x cold (target >= 100x warm, 50x cold); public / "
        f"floor {pub_warm / t_floor:.2f}x warm, {pub_cold / t_floor:.2f}x cold (target <= 3x); {load()}"
    )
    print(
        f"   analysts' door (calc_frame on a DataFrame of the {k} documents, distributions as arrays): "
        f"{frame_warm / k * 1e6:.1f} us per cell warm, {frame_cold / k * 1e6:.1f} us cold; icepool / frame "
        f"{t_ice / frame_warm:.0f}x warm, {t_ice / frame_cold:.0f}x cold (target >= 150x); frame / floor "
        f"{frame_warm / t_floor:.2f}x warm; {load()}"
    )


def section_catalog() -> None:
    weapons, targets = load_weapons(), load_targets()
    cells = len(weapons) * len(targets)
    compare(weapons.head(5), targets)
    clear_memos()
    t0, c0 = time.perf_counter(), time.process_time()
    compare(weapons, targets)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    t0 = time.process_time()
    compare(weapons, targets)
    warm = time.process_time() - t0  # CPU
    print(
        f"2. catalog sweep, {len(weapons)} weapons x {len(targets)} standard targets = {cells} cells: "
        f"{cpu:.2f} s CPU cold ({wall:.2f} s wall), {warm:.2f} s CPU warm; {load()}"
    )


def section_units() -> None:
    weapons, units = load_weapons(), load_units()
    cells = len(weapons) * len(units)
    clear_memos()
    t0, c0 = time.perf_counter(), time.process_time()
    table = compare(weapons, units)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    ok = int((table["error"] == "").sum())
    print(
        f"3. all-units sweep, {len(weapons)} weapons x {len(units)} unit profiles = {cells} cells ({ok} computed): "
        f"{wall:.1f} s wall, {cpu:.1f} s CPU on one core, {cpu / cells * 1e6:.0f} us CPU per cell "
        f"(target < 60 s); {load()}"
    )


def section_dashboard() -> None:
    try:
        from dashboard_update import report
    except ImportError as exc:  # the viz extra is not installed
        print(f"4. dashboard update: skipped ({exc})")
        return
    report("4. ", load)


def section_growth() -> None:
    print(f"5. the allocation chain against attacks: Brutal (2), Rending (6+) vs 20 T4 W2 3+ models; {load()}")
    points = []
    for n in (10, 30, 100, 300, 1000):
        scenario = {
            "attacker": {"BS": 4, "S": 4},
            "attacks": n,
            "weapon": {
                "name": "b",
                "Range": '24"',
                "Strength": "4",
                "AP": "5",
                "Type": "Heavy 1, Rending (6+), Brutal (2)",
            },
            "target": {"models": 20, "T": 4, "W": 2, "Save": "3+"},
        }
        t = median_cpu(lambda s=scenario: calc(s), 5 if n < 300 else 3)
        points.append((n, t))
        print(f"   {n:>5} attacks: {t * 1e3:8.2f} ms")
    (n0, t0), (n1, t1) = points[2], points[-1]
    print(f"   growth from 100 to 1,000 attacks: N^{math.log(t1 / t0) / math.log(n1 / n0):.2f} (was about N^1.8)")


def main() -> None:
    print(f"bench_batch: {load()}, OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}")
    section_cells()
    section_catalog()
    if "--quick" not in sys.argv:
        section_units()
    section_dashboard()
    section_growth()


if __name__ == "__main__":
    main()
