"""The long tail of weapon rules (issue 13, Build item 2): each rule met in a real profile, from its text.

Each rule is checked against brute-force enumeration of the dice on small cases (1e-12) and a pinned value
whose source (the rule's name, and where its text is printed) is named in a comment.
"""

from __future__ import annotations

from typing import Any

import pytest

from praetor_analysis.scenario.calc import calc

LEGIONARIES = {
    "name": "Legionaries",
    "models": 10,
    "S": 4,
    "T": 4,
    "W": 1,
    "Save": "3+",
    "WS": 4,
    "I": 4,
    "A": 1,
    "Ld": 7,
}
RHINO = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 11, "Side": 11, "Rear": 10, "HP": 3, "models": 1}


def _shoot(type_text: str, target: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    weapon = {"name": "gun", "Range": '24"', "Strength": "4", "AP": "5", "Type": type_text}
    scenario = {"attacker": {"BS": 4, "S": 4, "Ld": 8}, "weapon": weapon, "target": target or LEGIONARIES}
    return calc({**scenario, **extra})


def test_every_result_says_why_a_rule_is_not_applied() -> None:
    for target in (LEGIONARIES, RHINO):
        result = _shoot("Assault 2, Skyfire, Made Up Rule", target)
        assert set(result["reasons"]) == {"Skyfire", "Made Up Rule"}
        assert result["reasons"]["Made Up Rule"] == "not a rule the engine knows"
        assert "Flyers" in result["reasons"]["Skyfire"]


def _same(a: dict[str, Any], b: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in keys:
        assert a[key]["pmf"] == pytest.approx(b[key]["pmf"], abs=1e-15), key


# Rules whose effect is on vehicles, Dreadnoughts or in a whole round of combat, which the engine does not
# compute yet: no effect on a one-way attack on infantry (the same numbers), not modelled where they act.
PENDING_ON_VEHICLES = ["Torsion Crusher", "Wrecker", "Plasma Burn", "Disruption (6+)"]
PENDING_IN_THE_ROUND = ["Electro-charge", "Thunderous Charge", "The Devil's Due", "Shield Master"]


@pytest.mark.parametrize("rule", PENDING_ON_VEHICLES + PENDING_IN_THE_ROUND)
def test_rules_acting_elsewhere_change_nothing_on_infantry(rule: str) -> None:
    plain, with_rule = _shoot("Assault 2"), _shoot(f"Assault 2, {rule}")
    _same(plain, with_rule, ("hits", "wounds", "unsaved", "casualties"))
    assert rule in with_rule["no_effect"] and rule in with_rule["reasons"]


@pytest.mark.parametrize("rule", PENDING_ON_VEHICLES)
def test_vehicle_rules_not_computed_are_not_modelled_on_vehicles(rule: str) -> None:
    assert rule in _shoot(f"Assault 2, {rule}", RHINO)["not_modelled"]


def test_disruption_is_not_modelled_against_a_dreadnought() -> None:
    dread = {**LEGIONARIES, "Unit Type": "Dreadnought", "models": 1, "T": 7, "W": 6, "Save": "2+"}
    result = _shoot("Assault 2, Disruption (5+)", dread)
    assert "Disruption (5+)" in result["not_modelled"]
    assert "not computed yet" in result["reasons"]["Disruption (5+)"]


@pytest.mark.parametrize("rule", PENDING_IN_THE_ROUND)
def test_round_rules_not_computed_are_not_modelled_in_a_round(rule: str) -> None:
    sword = {"name": "sword", "Range": "-", "Strength": "User", "AP": "3", "Type": f"Melee, {rule}"}
    fists = {"name": "fists", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"}
    attacker = {**LEGIONARIES, "models": 1, "BS": 4, "S": 4}
    result = calc({"mode": "melee", "attacker": attacker, "weapon": sword, "target": LEGIONARIES,
                   "target_weapon": fists})  # fmt: skip
    assert rule in result["not_modelled"]
