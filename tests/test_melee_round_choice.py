"""The weapon a group strikes with in a whole round: the most expected casualties, then the most expected
wounds taken off the enemy's models, then the first listed (docs/rules.md#grenade-attack)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from praetor_analysis import calc
from praetor_analysis.melee.blows import Party, Side
from praetor_analysis.melee.combat import resolve_combat
from praetor_analysis.profiles.records import Unit, Weapon, unit_from_mapping

UNARMED = Weapon.from_mapping({"name": "unarmed", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"})
KRAK = Weapon.from_mapping(
    {"name": "Krak Grenades", "Range": "-", "Strength": "6", "AP": "3", "Type": "Melee, Grenade Attack"}
)
FIST = Weapon.from_mapping({"name": "fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"})
DREAD_FIST = {"name": "fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"}


def _legionaries(models: int, a: int) -> Unit:
    return unit_from_mapping(
        {
            "name": "l",
            "Unit Type": "Infantry",
            "models": models,
            "WS": 4,
            "S": 4,
            "T": 4,
            "W": 1,
            "I": 4,
            "A": a,
            "Ld": 7,
            "Save": "3+",
        },
        field_name="attacker",
    )


CONTEMPTOR = unit_from_mapping(
    {
        "name": "c",
        "Unit Type": "Dreadnought",
        "models": 1,
        "WS": 5,
        "S": 7,
        "T": 7,
        "W": 6,
        "I": 4,
        "A": 3,
        "Ld": 8,
        "Save": "2+",
    },
    field_name="target",
)


def _squad() -> Party:
    groups = (Side(_legionaries(9, 1), (UNARMED, KRAK)), Side(_legionaries(1, 2), (UNARMED, KRAK)))
    return Party(groups, _legionaries(10, 1))


def test_the_sergeant_strikes_unarmed_at_i4_against_a_contemptor_and_that_is_the_better_choice() -> None:
    # the Sergeant's unarmed blows (S4 against T7: 6s to wound) land beside the Contemptor's at step 4, so he is
    # the first casualty and the nine Legionaries keep their grenades; with his own grenade at step 1 he would
    # be removed after them. Both measures favour unarmed (casualties 2.30e-6 against 1.49e-6; wounds taken
    # off 0.486 against 0.463), so it is a choice, not a tie
    chosen = resolve_combat(_squad(), Side(CONTEMPTOR, (FIST,)))
    assert chosen.groups is not None
    assert [g.weapon.name for g in chosen.groups[0]] == ["Krak Grenades", "unarmed"]
    both_krak = resolve_combat(_squad(), Side(CONTEMPTOR, (FIST,)), attacker_choice=1)
    assert chosen.target_casualties.mean() > both_krak.target_casualties.mean() > 0.0
    assert chosen.attacker_wounds.mean() == pytest.approx(0.4858633667, abs=1e-9)
    assert both_krak.attacker_wounds.mean() == pytest.approx(0.4629629246, abs=1e-9)
    # both with grenades: one hit a model alive at step 1, 10 - E[casualties] = 10 - 5/3 models, each
    # 1/3 x 1/6; 25/54 = 0.46296296 less the wounds a sixth and later unsaved cannot take off a W6 model
    assert both_krak.attacker_wounds.mean() < 25 / 54 < both_krak.attacker_wounds.mean() + 1e-7


def test_a_tie_on_casualties_goes_to_the_wounds_taken_off() -> None:
    # a W6 model that two W1 blows cannot kill: casualties tie at 0 whatever the choice; the second profile
    # wounds more (S8 against T7) and is taken though it is listed last
    weak = Weapon.from_mapping({"name": "weak", "Range": "-", "Strength": "4", "AP": "-", "Type": "Melee"})
    strong = Weapon.from_mapping({"name": "strong", "Range": "-", "Strength": "8", "AP": "-", "Type": "Melee"})
    one = replace(_legionaries(1, 1), models=1)
    got = resolve_combat(Side(one, (weak, strong)), Side(CONTEMPTOR, (FIST,)))
    assert got.attacker_strikes.weapon.name == "strong"
    assert got.target_casualties.mean() == 0.0


def test_calc_of_a_tactical_squad_against_a_contemptor() -> None:
    got = calc({"attacker": {"name": "Tactical Squad"}, "mode": "melee", "target": "Contemptor Dreadnought",
                "target_weapon": DREAD_FIST})  # fmt: skip
    weapons = {c["model"]: (c["weapon"], c["initiative"]) for c in got["chosen"]}
    assert weapons == {"Legion Tactical Sergeant": ("unarmed", 4), "Legionaries (collective)": ("Krak Grenades", 1)}
