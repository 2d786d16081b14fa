"""Scalar probabilities of results are clipped to [0, 1] where the result records are built
(``prob.clip.probability``; docs/rules.md#what-a-result-reports)."""

from __future__ import annotations

import math

from praetor_analysis.prob.clip import probability
from praetor_analysis.scenario.calc import calc, calc_many

#: Ld 12 passes every 2D6 roll: the Psychic check never fails (attack_happens 1, perils 0) and the Pinning
#: test never fails (pinned 0). Summed in floating point these came out as 1.0000000000000002 and -1.2e-16.
PSYCHIC_PINNING = {
    "attacker": {"BS": 4, "Ld": 12},
    "weapon": {"Strength": 4, "AP": "-", "Type": "Heavy 2, Psychic Focus, Pinning"},
    "target": {"models": 3, "T": 4, "W": 1, "Save": "-", "Ld": 12},
}


def test_probability_clips_to_the_unit_interval() -> None:
    assert probability(1.0000000000000002) == 1.0
    assert probability(-1.2e-16) == 0.0
    assert probability(0.25) == 0.25
    assert probability(None) is None


def test_psychic_pinning_at_leadership_12_stays_in_the_unit_interval() -> None:
    for r in (calc(PSYCHIC_PINNING), calc_many([PSYCHIC_PINNING])[0]):
        assert r["attack_happens"] == 1.0 and r["perils"] == 0.0
        assert r["pinned"] == 0.0 and not math.copysign(1.0, r["pinned"]) < 0
        for key in ("attack_happens", "perils", "pinned"):
            assert 0.0 <= r[key] <= 1.0
