"""Benchmark: the engine against icepool computing the same unsaved-wound distributions.

Scenario (issue 2): N shots at BS 4, S4 AP5, Rending (6+) and Shred, against T4 Sv 3+, for N = 10, 50, 200.
Both sides start from the rule description and end with the exact pmf of unsaved wounds:
- icepool: builds the per-shot die by enumerating its four D6 (hit, wound, wound re-roll, save) with
  ``icepool.map``, then sums N copies (``N @ die``), exactly in fractions;
- praetor_analysis: ``unsaved_distribution`` (per-shot outcome table, then N-fold direct convolution);
  the full resolution (``resolve``: hits, wounds, unsaved, casualties on a 10-model unit, a batch of one) is
  timed beside it.
Prints both times, their ratio and the largest absolute difference between the pmfs. Run: make bench.
"""

from __future__ import annotations

import numpy as np
from timing import median_time

from praetor_analysis.engine.chain import resolve, unsaved_distribution
from praetor_analysis.engine.volley import Volley
from praetor_analysis.prob.dice import parse_dice
from praetor_analysis.profiles.records import Weapon, unit_from_mapping


def icepool_unsaved(n: int) -> np.ndarray:
    """The same distribution with icepool: per-shot die from four D6, then the sum of n copies."""
    import icepool

    d6 = icepool.d6

    def shot(hit: int, wound: int, reroll: int, save: int) -> int:
        if hit < 3:  # BS 4 hits on 3+
            return 0
        w = wound if wound >= 4 else reroll  # S4 vs T4 wounds on 4+; Shred re-rolls the failure
        if w < 4:
            return 0
        if w >= 6:  # Rending (6+): AP 2 negates the 3+ armour save
            return 1
        return 1 if save < 3 else 0  # AP5: the 3+ save stands

    die = icepool.map(shot, d6, d6, d6, d6)
    total = n @ die
    probs = total.probabilities()
    out = np.zeros(max(total.outcomes()) + 1)
    for k, p in zip(total.outcomes(), probs, strict=False):
        out[k] = float(p)
    return out


def main() -> None:
    weapon = Weapon.from_mapping(
        {"name": "bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Heavy 1, Rending (6+), Shred"}
    )
    attacker = unit_from_mapping({"BS": 4, "S": 4}, field_name="attacker")
    target = unit_from_mapping({"models": 10, "T": 4, "W": 1, "Save": "3+"}, field_name="target")
    print("engine vs icepool: unsaved wounds, BS4 S4 AP5 Rending (6+) Shred vs T4 3+")
    print(f"{'shots':>6} {'icepool ms':>11} {'engine ms':>10} {'ratio':>8} {'full ms':>8} {'max |diff|':>11}")
    for n in (10, 50, 200):
        volley = Volley(weapon, attacker, attacks=parse_dice(n))
        ours = unsaved_distribution(volley, target).probabilities
        theirs = icepool_unsaved(n)
        size = max(ours.size, theirs.size)
        diff = np.max(np.abs(np.pad(ours, (0, size - ours.size)) - np.pad(theirs, (0, size - theirs.size))))
        t_ice = median_time(lambda: icepool_unsaved(n), 5 if n < 200 else 3)
        t_eng = median_time(lambda: unsaved_distribution(volley, target), 200)
        t_full = median_time(lambda: resolve(volley, target), 50)
        print(
            f"{n:>6} {t_ice * 1e3:>11.3f} {t_eng * 1e3:>10.4f} {t_ice / t_eng:>7.0f}x "
            f"{t_full * 1e3:>8.3f} {diff:>11.2e}"
        )
    print("targets: ratio >= 20x at 10 shots and >= 100x at 200; agreement <= 1e-12")


if __name__ == "__main__":
    main()
