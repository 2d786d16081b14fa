"""``attacker.modifiers``: one typed record of an attacker's modifiers, the same numbers as the rules it stands for.

Each modifier is the rule the engine already computes exactly (and the oracle checks): re-rolling every failed
hit is Twin-linked, every failed wound Shred, rolls of 1 "Re-roll To Hit 1s"..., so a scenario with
``modifiers`` must equal, to 1e-12, the same scenario with those rules spelled out; alone and in arrays (the
batch path), for a statline attacker, a datasheet and a whole round of melee. Pinned values by hand.
"""

from __future__ import annotations

import itertools
import json

import pytest

from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.calc import calc, calc_json
from praetor_analysis.units.modifiers import NO_MODIFIERS, Modifiers

BOLTER = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"}
LEGIONARIES = {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Save": "3+", "Unit Type": "Infantry"}
GRID = [
    Modifiers(reroll_hits=h, reroll_wounds=w, to_hit=th, to_wound=tw, preferred_enemy=pe)
    for h, w, th, tw, pe in itertools.product(
        ("none", "ones", "all"), ("none", "all"), (-1, 0, 1), (0, 1), (False, True)
    )
]


def _spelled(m: Modifiers, weapon: dict, attacker: dict) -> dict:
    """The scenario with the modifiers written as the rules they stand for."""
    rules = [*attacker.get("rules", []), *m.unit_rules()]
    extra = ", ".join(m.weapon_rules())
    return {
        "attacker": {**attacker, "rules": rules},
        "weapon": {**weapon, "Type": f"{weapon['Type']}, {extra}" if extra else weapon["Type"]},
        "target": LEGIONARIES,
    }


def _close(a: dict, b: dict) -> None:
    for key in ("hits", "wounds", "unsaved", "casualties"):
        assert a[key]["pmf"] == pytest.approx(b[key]["pmf"], abs=1e-12), key


@pytest.mark.parametrize("m", GRID, ids=lambda m: json.dumps(m.to_block()))
def test_modifiers_are_the_rules_they_stand_for(m):
    attacker = {"BS": 4, "models": 5}
    with_mods = {"attacker": {**attacker, "modifiers": m.to_block()}, "weapon": BOLTER, "target": LEGIONARIES}
    _close(calc(with_mods), calc(_spelled(m, BOLTER, attacker)))


def test_in_an_array_too():
    attacker = {"BS": 3, "models": 4}
    docs = [
        {"attacker": {**attacker, "modifiers": m.to_block()}, "weapon": BOLTER, "target": LEGIONARIES} for m in GRID
    ]
    spelled = [_spelled(m, BOLTER, attacker) for m in GRID]
    for a, b in zip(calc_json(json.dumps(docs)), calc_json(json.dumps(spelled)), strict=True):
        _close(a, b)


def test_pinned_by_hand():
    one = {"attacker": {"BS": 4, "models": 10}, "weapon": BOLTER, "target": LEGIONARIES}
    # Preferred Enemy: hits 7/9, wounds 7/12, unsaved 1/3 of 10 shots: 490/324
    pe = calc({**one, "attacker": {**one["attacker"], "modifiers": {"preferred_enemy": True}}})
    assert pe["unsaved"]["mean"] == pytest.approx(490 / 324, abs=1e-12)
    # every failed hit re-rolled: 1 - (1/3)^2 = 8/9; +1 to wound: 4+ becomes 3+, 2/3
    both = calc({**one, "attacker": {**one["attacker"], "modifiers": {"reroll_hits": "all", "to_wound": 1}}})
    assert both["unsaved"]["mean"] == pytest.approx(10 * 8 / 9 * 2 / 3 * 1 / 3, abs=1e-12)
    assert "Twin-linked" in both["applied"] and "attacker: To Wound modifier (+1)" in both["applied"]


def test_a_rule_already_there_is_not_doubled():
    weapon = {**BOLTER, "Type": "Rapid Fire, Twin-linked"}
    a = calc({"attacker": {"BS": 4, "modifiers": {"reroll_hits": "all"}}, "weapon": weapon, "target": LEGIONARIES})
    b = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": LEGIONARIES})
    _close(a, b)


def test_a_datasheet_takes_them_on_every_model():
    base = {"name": "Tactical Squad", "size": 10}
    target = {"name": "Tartaros Terminator", "models": 5}
    plain = calc({"attacker": base, "target": target})
    twin = calc({"attacker": {**base, "modifiers": {"reroll_hits": "all"}}, "target": target})
    # ten bolters (the sergeant's too): hits 2/3 -> 8/9 on every shot, nothing else changes
    assert twin["hits"]["mean"] == pytest.approx(plain["hits"]["mean"] * (8 / 9) / (2 / 3), abs=1e-12)
    assert twin["unsaved"]["mean"] == pytest.approx(plain["unsaved"]["mean"] * (8 / 9) / (2 / 3), abs=1e-12)
    fc = calc({"attacker": {**base, "charging": True, "modifiers": {"furious_charge": True}}, "mode": "melee",
               "target": target})  # fmt: skip
    assert "attacker: Furious Charge (1)" in fc["applied"]


def test_a_whole_round_modifies_the_attacker_only():
    chainsword = {"name": "Chainsword", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee, Shred"}
    fist = {"name": "Power Fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee, Unwieldy"}
    side = {"models": 5, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Save": "3+"}
    doc = {"mode": "melee", "weapon": chainsword, "target_weapon": fist, "attacker": side, "target": side}
    m = Modifiers(to_hit=1, preferred_enemy=True)
    a = calc({**doc, "attacker": {**side, "modifiers": m.to_block()}})
    b = calc({**doc, "attacker": {**side, "rules": list(m.unit_rules())}})
    assert a["casualties"]["pmf"] == pytest.approx(b["casualties"]["pmf"], abs=1e-12)
    assert a["attacker_casualties"]["pmf"] == pytest.approx(b["attacker_casualties"]["pmf"], abs=1e-12)


@pytest.mark.parametrize(
    ("block", "field"),
    [
        ({"reroll_hits": "twice"}, "attacker.modifiers.reroll_hits"),
        ({"to_hit": 2}, "attacker.modifiers.to_hit"),
        ({"to_wound": True}, "attacker.modifiers.to_wound"),
        ({"preferred_enemy": "yes"}, "attacker.modifiers.preferred_enemy"),
        ({"cover": "4+"}, "attacker.modifiers.cover"),
        ("all", "attacker.modifiers"),
    ],
)
def test_bad_modifiers_are_refused_naming_the_field(block, field):
    with pytest.raises(ScenarioError, match=field.replace(".", r"\.")):
        calc({"attacker": {"BS": 4, "modifiers": block}, "weapon": BOLTER, "target": LEGIONARIES})


def test_record_round_trip():
    for m in GRID:
        assert Modifiers.from_block(m.to_block()) == m
    assert NO_MODIFIERS.to_block() == {} and NO_MODIFIERS.unit_rules() == () == NO_MODIFIERS.weapon_rules()
