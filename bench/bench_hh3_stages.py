"""The edition 3 stages beyond one Fire Group: Blast markers on a unit, volleys at a vehicle, a whole round of
combat; each timed (CPU, median) beside a plain edition 3 volley at the same target in the same process.

    python bench/bench_hh3_stages.py
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: BLAS threads fight over shared cores

from timing import alternate_cpu

from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.scenario.calc import calc

LEGIONARY = {"Type": "Infantry", "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 2, "LD": 7, "CL": 7,
             "SAV": "3+"}  # fmt: skip
RHINO = {"Type": "Vehicle", "Front Armour": 11, "Side Armour": 11, "Rear Armour": 10, "HP": 3}
BOLTER = {"R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1}


def plain(models: int, w: int) -> dict:
    return {"edition": "hh3", "attacker": {**LEGIONARY, "models": 5}, "weapon": BOLTER,
            "target": {**LEGIONARY, "models": models, "W": w}}  # fmt: skip


def blasts(models: int, w: int, rules: str) -> dict:
    weapon = {"R": 48, "FP": 1, "RS": 5, "AP": 4, "D": 1, "Special Rules": f'Blast (5"){rules}'}
    return {**plain(models, w), "weapon": weapon, "formation": {"models": models, "base_mm": 32, "gap": 1}}


def vehicle(volleys: int) -> dict:
    volley = {"attacker": {"BS": 4, "models": 2}, "weapon": {"R": 48, "FP": 1, "RS": 9, "AP": 2, "D": "D3"}}
    return {"edition": "hh3", "target": {**RHINO, "rules": "Void Shields (1)"}, "firing_units": [[volley]] * volleys}


def melee_round(models: int) -> dict:
    sword = {"IM": "I", "AM": "A", "SM": "S", "AP": None, "D": 1, "Special Rules": "Shred (6+)"}
    axe = {"IM": "-1", "AM": "A", "SM": "+1", "AP": 2, "D": 1}
    unit = {**LEGIONARY, "models": models}
    return {"edition": "hh3", "mode": "melee", "attacker": unit, "weapon": sword, "target": unit, "target_weapon": axe}


def cold(doc: dict) -> object:
    clear_memos()
    return calc(doc)


def main() -> None:
    every_class = ", Rending (5+), Critical Hit (6+), Breaching (5+)"
    cases = [
        ('5 Blast (5") at 20 W1', blasts(20, 1, ""), plain(20, 1)),
        ('5 Blast (5"), Rending, Critical, Breaching at 20 W2', blasts(20, 2, every_class), plain(20, 2)),
        ("3 volleys of 2 lascannons (D3) at a shielded Rhino", vehicle(3), plain(10, 1)),
        ("whole round, 10 against 10", melee_round(10), plain(10, 1)),
    ]
    for name, doc, base in cases:
        stage, ref = alternate_cpu([lambda d=doc: cold(d), lambda d=base: cold(d)], repeat=3)
        print(f"{name:55s} {stage * 1000:8.1f} ms CPU   plain volley {ref * 1000:7.1f} ms   ratio {stage / ref:6.1f}")


if __name__ == "__main__":
    main()
