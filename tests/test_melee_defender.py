"""A fielded target fights back group by group in a whole round (``"target_weapon": true``): each group with its
own statline and wargear at its own Initiative step, as the attacker's groups (docs/rules.md#units)."""

from __future__ import annotations

import pytest

from praetor_analysis import calc
from praetor_analysis.errors import ScenarioError

TACTICAL = {"name": "Tactical Squad", "charging": True}
FIST_SQUAD = {"name": "Tactical Squad", "loadout": ["Power Fist"]}


def _round(target: object, back: object = True) -> dict:
    return calc({"mode": "melee", "attacker": TACTICAL, "target": target, "target_weapon": back})


def test_the_sergeants_power_fist_strikes_back_at_initiative_one() -> None:
    got = _round(FIST_SQUAD)
    back = {(c["model"], c["count"]): (c["weapon"], c["initiative"]) for c in got["target_chosen"]}
    assert back == {("Legionaries (collective)", 9): ("unarmed", 4), ("Legion Tactical Sergeant", 1): ("Power Fist", 1)}
    groups = got["groups"]["target"]
    assert [(g["weapon"], g["initiative"]) for g in groups] == [("unarmed", 4), ("Power Fist", 1)]
    # the nine Legionaries strike back at I4 with one attack each (not charging), the Sergeant with two
    assert groups[0]["attacks"]["pmf"][9] > 0.0 and len(groups[0]["attacks"]["pmf"]) == 10
    assert max(k for k, p in enumerate(groups[1]["attacks"]["pmf"]) if p > 0) == 2
    assert not any("Sergeant" in n and "target" in n for n in got["not_modelled"])


def test_the_fist_returns_more_than_the_squad_fighting_with_the_legionaries_weapons() -> None:
    # the old reading: every model fights back with the largest group's weapons (unarmed) and statline
    own, uniform = _round(FIST_SQUAD), _round(FIST_SQUAD, [{"name": "unarmed", "Range": "-", "Strength": "User",
                                                              "AP": "-", "Type": "Melee"}])  # fmt: skip
    assert own["attacker_casualties"]["mean"] > uniform["attacker_casualties"]["mean"] + 0.1
    assert own["casualties"]["pmf"] != uniform["casualties"]["pmf"]


def test_one_group_fighting_back_equals_its_weapons_given() -> None:
    # a Praetor is one model: fighting back with its own wargear is the round with its melee weapons listed
    got = _round("Praetor")
    weapons = [c["weapon"] for c in got["target_chosen"]]
    assert len(weapons) == 1
    listed = _round("Praetor", [{"name": weapons[0]}])
    assert got["casualties"]["pmf"] == pytest.approx(listed["casualties"]["pmf"], abs=1e-12)
    assert got["attacker_casualties"]["pmf"] == pytest.approx(listed["attacker_casualties"]["pmf"], abs=1e-12)


def test_true_needs_a_fielded_target_and_no_second_weapon() -> None:
    bare = {"name": "Legionaries", "models": 5, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, "Save": "3+"}
    with pytest.raises(ScenarioError, match="target_weapon: true"):
        _round(bare)
    with pytest.raises(ScenarioError, match="target.second_weapon"):
        _round({**FIST_SQUAD, "second_weapon": {"name": "Chainsword"}})
