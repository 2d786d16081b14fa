"""The edition 3 chain's speed: a bolter squad, a heavy weapon squad with every wound rule, and attacks near
the exact chain's bound, each against the 2nd edition's engine on the matching scenario in the same process.

    python bench/bench_hh3.py
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: BLAS threads fight over shared cores

from timing import alternate_cpu

from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.scenario.calc import calc

LEGIONARY = {"Type": "Infantry", "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "LD": 7, "CL": 7,
             "SAV": "3+", "INV": "-"}  # fmt: skip
RULES = "Breaching (5+), Shred (6+), Critical Hit (6+), Rending (5+), Deflagrate (4), Pinning (1), Panic (1)"


def hh3(models: int, fp: int, target_models: int, w: int, rules: str = "") -> dict:
    return {
        "edition": "hh3",
        "attacker": {**LEGIONARY, "models": models},
        "weapon": {"R": 24, "FP": fp, "RS": 5, "AP": 4, "D": "D3" if rules else 1, "Special Rules": rules},
        "target": {**LEGIONARY, "W": w, "models": target_models},
    }


def hh2(shots: int, target_models: int, w: int) -> dict:
    return {
        "attacker": {"BS": 4},
        "weapon": {"Strength": 5, "AP": 4, "Type": "Assault 1, Rending (6+), Shred"},
        "attacks": shots,
        "target": {"T": 4, "W": w, "Save": "3+", "models": target_models},
    }


CASES = [
    ("10 bolters (20 dice) vs 10 W1", hh3(10, 2, 10, 1), hh2(20, 10, 1)),
    ("10 heavy bolters, every rule (30 dice) vs 10 W2", hh3(10, 3, 10, 2, RULES), hh2(30, 10, 2)),
    ("20 x FP3, every rule (60 dice) vs 20 W3", hh3(20, 3, 20, 3, RULES), hh2(60, 20, 3)),
    ("50 x FP2, every rule (100 dice) vs 20 W10 (at the bound)", hh3(50, 2, 20, 10, RULES), hh2(100, 20, 10)),
]


def main() -> None:
    print(f"load average {os.getloadavg()[0]:.2f}; CPU times, median of 5 alternated runs (cold: memos cleared)")
    for label, third, second in CASES:

        def cold_hh3(doc: dict = third) -> None:
            clear_memos()
            calc(doc)

        def cold_hh2(doc: dict = second) -> None:
            clear_memos()
            calc(doc)

        t3, t2 = alternate_cpu([cold_hh3, cold_hh2], 5)
        print(f"{label}: hh3 {1000 * t3:.1f} ms, hh2 (same dice, Rending and Shred) {1000 * t2:.1f} ms, "
              f"ratio {t3 / t2:.1f}x")  # fmt: skip


if __name__ == "__main__":
    main()
