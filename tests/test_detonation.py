"""Detonation (Meltabombs): one attack, and only against vehicles, Dreadnoughts, Automata and fortifications
(docs/rules.md#detonation; the rule's text is in the game system file)."""

from __future__ import annotations

import pytest

from praetor_analysis.scenario.calc import calc

ATTACKER = {"WS": 4, "BS": 4, "S": 4, "I": 4, "A": 3, "models": 2, "charging": True}
CONTEMPTOR = {"name": "Contemptor", "Unit Type": "Dreadnought", "models": 1, "WS": 5, "T": 7, "W": 6, "Ld": 9,
              "Save": "2+", "Invulnerable": "5+"}  # fmt: skip
RHINO = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 11, "Side": 11, "Rear": 10, "HP": 3}
LEGIONARIES = {"name": "Legionaries", "models": 10, "WS": 4, "T": 4, "W": 1, "Save": "3+"}


def melee(type_: str, target: dict, **attacker) -> dict:
    weapon = {"name": "bomb", "Range": "-", "Strength": "8", "AP": "1", "Type": type_}
    return calc({"mode": "melee", "attacker": {**ATTACKER, **attacker}, "weapon": weapon, "target": target})


def test_one_attack_each_against_a_dreadnought_pinned() -> None:
    # Two charging models with A 3 strike once each: WS 4 vs WS 5 hits on 4+ (1/2), S8 vs T7 wounds on 3+
    # (2/3), AP1 beats the 2+ armour and the 5+ invulnerable save fails 2/3: 2/9 unsaved per model.
    got = melee("Melee, Detonation", CONTEMPTOR)
    p = 2 / 9
    assert got["unsaved"]["pmf"] == pytest.approx([(1 - p) ** 2, 2 * p * (1 - p), p * p], abs=1e-12)
    assert got["hits"]["mean"] == pytest.approx(1.0, abs=1e-12)
    assert "Detonation" in got["applied"]


@pytest.mark.parametrize("target", [CONTEMPTOR, RHINO], ids=["dreadnought", "vehicle"])
def test_same_as_a_single_attack_without_the_rule(target) -> None:
    with_rule = melee("Melee, Detonation", target)
    single = melee("Melee", target, A=1, charging=False)
    for key in ("hits", "unsaved", "casualties", "hull_points"):
        if key in single:
            assert with_rule[key]["pmf"] == pytest.approx(single[key]["pmf"], abs=1e-12), key
    assert "Detonation" in with_rule["applied"]


def test_no_attack_on_infantry() -> None:
    got = melee("Melee, Detonation, Instant Death", LEGIONARIES)
    assert got["hits"]["pmf"] == [1.0] and got["casualties"]["pmf"] == [1.0]
    assert "Detonation: no attack on this target (Unit Type Infantry)" in got["applied"]
    assert not got["not_modelled"]
