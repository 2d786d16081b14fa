"""A datasheet attacks as a unit: its models' volleys against the same engine calls written by hand."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from praetor_analysis import calc
from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario import calc as scenario_calc
from praetor_analysis.scenario.datasheet import build_loadout
from praetor_analysis.scenario.names import resolve_unit, resolve_weapon
from praetor_analysis.scenario.unit_attack import UNARMED, shooting

SERGEANT = {"name": "Legion Tactical Sergeant", "Unit Type": "Infantry (Character, Line)", "WS": 4, "BS": 4, "S": 4,
            "T": 4, "W": 1, "I": 4, "A": 2, "Ld": 8, "Save": "3+"}  # fmt: skip
LEGIONARY = {**SERGEANT, "name": "Legionary", "Unit Type": "Infantry (Line)", "A": 1, "Ld": 7}
TERMINATORS = {"name": "Tartaros Terminator", "models": 5}


def _same(unit: dict, by_hand: dict) -> None:
    """The same distributions to 1e-12 (merging volleys of the same weapon only reorders the sums)."""
    keep = ("hits", "wounds", "unsaved", "casualties", "hull_points", "penetrating", "glancing")
    assert [k for k in keep if k in unit] == [k for k in keep if k in by_hand]
    for k in keep:
        if k in unit:
            assert unit[k]["pmf"] == pytest.approx(by_hand[k]["pmf"], abs=1e-12), k
    assert unit["pinned"] == by_hand["pinned"]


def test_shooting_is_the_firing_unit_written_out() -> None:
    # Tactical Squad at its minimum (Legiones Astartes datasheet): a Sergeant and 9 Legionaries with Bolt
    # Pistol and Bolter; at half range the Bolter (Rapid Fire: two shots) is each model's best.
    unit = calc({"attacker": "Tactical Squad", "target": TERMINATORS, "half_range": True})
    assert [c["weapon"] for c in unit["chosen"]] == ["Bolter", "Bolter"]
    bolter = resolve_weapon("Bolter")
    by_hand = scenario_calc.calc(
        {
            "target": resolve_unit(TERMINATORS),
            "firing_units": [
                [
                    {"attacker": {**SERGEANT, "models": 1}, "weapon": bolter, "half_range": True},
                    {"attacker": {**LEGIONARY, "models": 9}, "weapon": bolter, "half_range": True},
                ]
            ],
        }
    )
    _same(unit, by_hand)
    assert unit["points"] == 100.0 and unit["size"] == 10


def test_melee_blows_are_the_sequence_written_out() -> None:
    # Charging: the Sergeant's Power Fist (A 2 +1; a Bolt Pistol is no second melee weapon) strikes at
    # Initiative 1 (Unwieldy) after the 9 Legionaries, who carry no melee weapon (A 1 +1 each, unarmed), at 4.
    attacker = {"name": "Tactical Squad", "loadout": ["Power Fist"], "charging": True}
    unit = calc({"attacker": attacker, "mode": "melee", "target": TERMINATORS})
    assert [(c["weapon"], c["initiative"]) for c in unit["chosen"]] == [("Power Fist", 1), ("unarmed", 4)]
    by_hand = scenario_calc.calc(
        {
            "target": resolve_unit(TERMINATORS),
            "firing_units": [
                [
                    {"mode": "melee", "attacker": {**LEGIONARY, "models": 9}, "weapon": UNARMED,
                     "attacks": 18},
                    {"mode": "melee", "attacker": {**SERGEANT, "models": 1}, "weapon": resolve_weapon("Power Fist"),
                     "attacks": 3},
                ]
            ],
        }
    )  # fmt: skip
    _same(unit, by_hand)
    assert unit["points"] == 115.0
    assert unit["casualties"]["mean"] * 2 <= unit["wounds_caused"]["mean"] + 1e-12
    assert unit["wounds_caused"]["mean"] <= 2 * unit["unsaved"]["mean"] + 1e-12  # Instant Death: a whole model


def test_whole_round_of_a_one_model_unit_is_resolve_combat() -> None:
    dread = build_loadout("Contemptor Dreadnought Talon").groups[0]
    unit = calc(
        {
            "attacker": "Contemptor Dreadnought Talon",
            "mode": "melee",
            "target": TERMINATORS,
            "target_weapon": "Power Fist",
        }
    )
    melee_weapons = [w for w in dread.weapons if "Melee" in w["Type"]]
    by_hand = scenario_calc.calc(
        {
            "mode": "melee",
            "attacker": {**dread.statline, "models": 1},
            "weapon": melee_weapons if len(melee_weapons) > 1 else melee_weapons[0],
            "target": resolve_unit(TERMINATORS),
            "target_weapon": resolve_weapon("Power Fist"),
        }
    )
    assert unit["casualties"] == by_hand["casualties"]
    assert unit["attacker_casualties"] == by_hand["attacker_casualties"]
    assert unit["not_modelled"] == by_hand["not_modelled"]


def test_the_chosen_weapon_is_the_best_single_choice() -> None:
    target = scenario_calc.parse_target({"target": resolve_unit({"name": "Rhino"})})
    loadout = build_loadout({"name": "Tactical Squad", "loadout": [{"option": "Heavy Bolter"}]})
    best = shooting(loadout, target)["hull_points"]["mean"]
    for g_idx, g in enumerate(loadout.groups):
        for k in range(len(g.weapons)):
            alt = [*loadout.groups]
            alt[g_idx] = type(g)(g.model, g.count, g.statline, (g.weapons[k],))
            other = shooting(type(loadout)(**{**loadout.__dict__, "groups": tuple(alt)}), target)
            assert other["hull_points"]["mean"] <= best + 1e-12


def test_vehicles_fire_every_weapon_and_fortifications_are_targets() -> None:
    unit = calc({"attacker": "Land Raider Spartan", "target": "Imperial Bunker"})
    assert {c["weapon"] for c in unit["chosen"]} == {"Lascannon Array", "Twin-linked Heavy Bolter"}
    assert "hull_points" in unit


@pytest.mark.parametrize(
    ("attacker", "needle"),
    [
        ({"name": "Tactical Squad", "size": 25}, "attacker.size: Tactical Squad takes 10-20 models, got 25"),
        ({"name": "Tactical Squad", "loadout": ["Power Fsit"]}, "has no option 'Power Fsit'; did you mean"),
        ({"name": "Tactical Squad", "loadout": [{"option": "Power Fist", "count": 2}]}, "loadout[0].count"),
        ({"name": "Tactical Squad", "frobnicate": 1}, "attacker.frobnicate"),
    ],
)
def test_bad_datasheet_input(attacker: dict, needle: str) -> None:
    with pytest.raises(ScenarioError) as err:
        calc({"attacker": attacker, "target": "Rhino"})
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_weapon_beside_a_datasheet_is_refused_and_cli_exits_2() -> None:
    doc = json.dumps({"attacker": {"name": "Tactical Squad", "size": 21}, "target": "Rhino"})
    proc = subprocess.run(
        [sys.executable, "-m", "praetor_analysis.cli", "calc", "-"], input=doc, capture_output=True, text=True
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "attacker.size" in proc.stderr


def test_squad_weapons_go_to_the_models_not_the_sergeant() -> None:
    # Heavy Support Squad (Legiones Astartes): the squad's Heavy Bolters, taken for the whole unit, are the
    # four Legionaries', not the Sergeant's; an option priced per Legionary (Tactical Support Squad's
    # Plasma Guns: 10 + 10 per counted Legionary) equips the models it counts.
    heavy = build_loadout("Heavy Support Squad")
    carried = {g.model: [w["name"] for w in g.weapons] for g in heavy.groups}
    assert "Heavy Bolter" not in carried["Legion Support Sergeant"]
    assert "Heavy Bolter" in carried["Legionaries (collective)"]
    support = build_loadout({"name": "Tactical Support Squad", "loadout": ["Plasma Gun"]})
    assert support.points == 85 + 10 + 10 * 4
    assert [g.count for g in support.groups if "Plasma Gun" in [w["name"] for w in g.weapons]] == [4]


def test_a_weapon_that_only_wounds_still_counts_against_multi_wound_models() -> None:
    # One plasma pistol cannot remove a two-wound Terminator alone, but its wound adds to the squad's: it
    # is chosen over the Bolter (scored by wounds taken off the models), and the squad does more.
    base = calc({"attacker": "Tactical Squad", "target": TERMINATORS})
    armed = calc({"attacker": {"name": "Tactical Squad", "loadout": ["Plasma Pistol"]}, "target": TERMINATORS})
    assert armed["chosen"][0] == {"model": "Legion Tactical Sergeant", "count": 1, "weapon": "Plasma Pistol"}
    assert armed["casualties"]["mean"] > base["casualties"]["mean"]
    assert armed["wounds_caused"]["mean"] > base["wounds_caused"]["mean"]
