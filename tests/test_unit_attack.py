"""A datasheet attacks as a unit: its models' volleys against the same engine calls written by hand."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

import pytest
from group_blocks import hh2_group

from praetor_analysis import calc
from praetor_analysis.engine.chain import resolve_sequence
from praetor_analysis.errors import ScenarioError
from praetor_analysis.melee.combat import Party, Side, resolve_combat
from praetor_analysis.profiles.records import Weapon, unit_from_mapping
from praetor_analysis.scenario import calc as scenario_calc
from praetor_analysis.scenario.document import Shooting, parse_scenario
from praetor_analysis.units.attack import UNARMED, melee, shooting
from praetor_analysis.units.datasheet import build_loadout
from praetor_analysis.units.fielded import FieldedUnit, ModelGroup
from praetor_analysis.units.names import resolve_unit, resolve_weapon
from praetor_analysis.units.volleys import wounds_caused

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
    assert [(c["weapon"], c["initiative"]) for c in unit["chosen"]] == [("unarmed", 4), ("Power Fist", 1)]
    by_hand = scenario_calc.calc(
        {
            "target": resolve_unit(TERMINATORS),
            "firing_units": [
                [
                    {"mode": "melee", "attacker": {**LEGIONARY, "models": 9}, "weapon": UNARMED.to_block(),
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
    melee_weapons = [w.to_block() for w in dread.rows if "Melee" in w.type]
    by_hand = scenario_calc.calc(
        {
            "mode": "melee",
            "attacker": {**dread.profile.to_dict(), "models": 1},
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
    # the data offers the Heavy Bolter exchange to the Imperial Fists' Inductii only
    loadout = build_loadout(
        {"name": "Tactical Squad", "legion": "Imperial Fists", "loadout": [{"option": "Heavy Bolter"}]}
    )
    best = shooting(loadout, target).to_dict()["hull_points"]["mean"]
    for g_idx, g in enumerate(loadout.groups):
        for k in range(len(g.weapons)):
            alt = [*loadout.groups]
            alt[g_idx] = type(g)(g.model, g.count, g.statline, (g.weapons[k],))
            other = shooting(type(loadout)(**{**loadout.__dict__, "groups": tuple(alt)}), target).to_dict()
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
    carried = {g.model: [w.name for w in g.rows] for g in heavy.groups}
    assert "Heavy Bolter" not in carried["Legion Support Sergeant"]
    assert "Heavy Bolter" in carried["Legionaries (collective)"]
    support = build_loadout({"name": "Tactical Support Squad", "loadout": ["Plasma Gun"]})
    assert support.points == 85 + 10 + 10 * 4
    assert [g.count for g in support.groups if "Plasma Gun" in [w.name for w in g.rows]] == [4]


def test_a_weapon_that_only_wounds_still_counts_against_multi_wound_models() -> None:
    # One plasma pistol cannot remove a two-wound Terminator alone, but its wound adds to the squad's: it
    # is chosen over the Bolter (scored by wounds taken off the models), and the squad does more.
    base = calc({"attacker": "Tactical Squad", "target": TERMINATORS})
    armed = calc({"attacker": {"name": "Tactical Squad", "loadout": ["Plasma Pistol"]}, "target": TERMINATORS})
    first = armed["chosen"][0]
    assert {k: first[k] for k in ("model", "count", "weapon")} == {
        "model": "Legion Tactical Sergeant", "count": 1, "weapon": "Plasma Pistol"
    }  # fmt: skip
    assert first["unused"]["Bolter"].startswith("one weapon per model: Plasma Pistol takes more wounds")
    assert armed["casualties"]["mean"] > base["casualties"]["mean"]
    assert armed["wounds_caused"]["mean"] > base["wounds_caused"]["mean"]


# --- every model and weapon accounted for (issue 24, item 2) ---------------------------------------------
def test_the_tactical_support_squad_fires_its_flamers_on_the_targets_formation() -> None:
    # Tactical Support Squad (Legiones Astartes): 4 Legionaries with the squad's Flamers (a template over the
    # ten Legionaries standing in formation's default grid) and the Sergeant's Bolt Pistol
    target = {"name": "Legionary (Tactical Squad)", "models": 10}
    unit = calc({"attacker": "Tactical Support Squad", "target": target})
    assert [(c["model"], c["count"], c["weapon"]) for c in unit["chosen"]] == [
        ("Legion Tactical Support Sergeant", 1, "Bolt Pistol"),
        ("Legionaries (collective)", 4, "Flamer"),
    ]
    assert unit["chosen"][1]["unused"]["Bolt Pistol"].startswith("one weapon per model: Flamer takes more")
    flamers = scenario_calc.calc(
        {"attacker": {**LEGIONARY, "models": 4}, "weapon": "Flamer", "target": target, "formation": {"models": 10}}
    )
    pistol = scenario_calc.calc({"attacker": {**SERGEANT, "models": 1}, "weapon": "Bolt Pistol", "target": target})
    assert unit["hits"]["mean"] == pytest.approx(flamers["hits"]["mean"] + pistol["hits"]["mean"], abs=1e-12)
    assert unit["chosen"][1]["formation"].startswith("default formation: 10 models")
    assert unit["chosen"][1]["formation"] in unit["applied"]


@pytest.mark.parametrize("name", ["Heavy Support Squad", "Tactical Support Squad"])
def test_support_squads_legionaries_fight_in_melee(name: str) -> None:
    # their Legionaries' statline has no Toughness in the data: one-way blows do not need it
    unit = calc({"attacker": name, "mode": "melee", "target": "Legionary (Tactical Squad)"})
    legionaries = [c for c in unit["chosen"] if c["model"] == "Legionaries (collective)"]
    assert [(c["count"], c["weapon"], c["initiative"]) for c in legionaries] == [(4, "unarmed", 4)]
    assert "strikes unarmed" in legionaries[0]["why"]
    assert "a pistol: not a Melee weapon" in legionaries[0]["unused"]["Bolt Pistol"]
    assert unit["reasons"] is not None and not unit["not_modelled"]


def test_a_grenade_launcher_is_no_grenade() -> None:
    launcher = resolve_weapon({"name": "Grenade launcher - Krak", "faction": "Horus Heresy"})
    grenade = {"name": "Krak Grenades", "Range": '6"', "Strength": "6", "AP": "4", "Type": "Assault 1"}
    unit = FieldedUnit("Grenadiers", "", 2, 0.0, (hh2_group("Legionary", 2, LEGIONARY, (grenade, launcher)),))
    result = shooting(unit, scenario_calc.parse_target({"target": resolve_unit(TERMINATORS)})).to_dict()
    assert result["chosen"][0]["weapon"] == "Grenade launcher - Krak"
    assert result["chosen"][0]["unused"]["Krak Grenades"].startswith("a grenade")


def test_a_whole_round_fights_every_group() -> None:
    unit = calc(
        {"attacker": {"name": "Tactical Squad", "loadout": ["Power Fist"]}, "mode": "melee", "target": TERMINATORS,
         "target_weapon": "Power Fist"}
    )  # fmt: skip
    by_model = {c["model"]: c for c in unit["chosen"]}
    assert (
        by_model["Legionaries (collective)"]["count"] == 9 and by_model["Legionaries (collective)"]["initiative"] == 4
    )
    fist = by_model["Legion Tactical Sergeant"]
    assert (fist["weapon"], fist["initiative"]) == ("Power Fist", 1)  # Unwieldy: at step 1, after the enemy
    assert not any("mixed unit" in n for n in unit["not_modelled"])
    groups = unit["groups"]["attacker"]
    assert len(groups) == 2
    assert abs(sum(g["unsaved"]["mean"] for g in groups) - unit["unsaved"]["mean"]) < 1e-12


def _fighter(name: str, count: int, stats: dict, weapons: tuple) -> ModelGroup:  # type: ignore[type-arg]
    return hh2_group(name, count, stats, weapons)


def test_a_round_of_a_mixed_unit_is_the_round_of_its_party() -> None:
    """The unit's round is resolve_combat of its groups as a Party (the largest group's statline struck), and
    five models in groups of one with the same melee weapons are one group of five."""
    blade = {"name": "Blade", "Range": "-", "Strength": "User", "AP": "3", "Type": "Melee"}
    fist = {"name": "Fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee, Unwieldy"}
    bolter = {"name": "Bolter", "Range": "24", "Strength": "4", "AP": "5", "Type": "Rapid Fire"}
    flamer = {"name": "Flamer", "Range": "Template", "Strength": "4", "AP": "5", "Type": "Assault 1, Template"}
    sarge = {**LEGIONARY, "WS": 5, "A": 2, "Ld": 9}
    target = scenario_calc.parse_target({"target": {**LEGIONARY, "name": "Foes", "models": 4}})
    enemy = Side(target, (Weapon.from_mapping(blade),))
    mixed = FieldedUnit(
        "Mixed", "", 4, 0.0, (_fighter("Fists", 3, LEGIONARY, (fist,)), _fighter("Sarge", 1, sarge, (blade,)))
    )
    got = melee(mixed, target, target_weapon=[Weapon.from_mapping(blade)]).to_dict()
    models = [
        unit_from_mapping({**LEGIONARY, "models": 3}, field_name="a"),
        unit_from_mapping({**sarge, "models": 1}, field_name="a"),
    ]
    party = Party(
        (Side(models[0], (Weapon.from_mapping(fist),)), Side(models[1], (Weapon.from_mapping(blade),))),
        replace(models[0], models=4),
    )
    want = resolve_combat(party, enemy).to_dict()
    assert got["casualties_joint"] == want["casualties_joint"]
    assert got["combat"] == want["combat"]
    assert "attacker: 1 Sarge struck with the statline of Fists" in got["not_modelled"]
    ones = tuple(_fighter(f"M{k}", 1, LEGIONARY, (blade, bolter if k % 2 else flamer)) for k in range(5))
    five = melee(FieldedUnit("Ones", "", 5, 0.0, ones), target, target_weapon=[Weapon.from_mapping(blade)]).to_dict()
    uniform = resolve_combat(
        Side(unit_from_mapping({**LEGIONARY, "models": 5}, field_name="a"), (Weapon.from_mapping(blade),)), enemy
    )
    assert five["casualties_joint"] == uniform.to_dict()["casualties_joint"]
    assert [c["count"] for c in five["chosen"]] == [1] * 5 and {c["weapon"] for c in five["chosen"]} == {"Blade"}


def test_blows_strike_in_initiative_order() -> None:
    # Against three-wound models a Brutal (2) blow after a plain one loses the wound it overflows: the order
    # changes the wounds taken off the models. The quick group (I 5), listed second, strikes first.
    brutal = {"name": "Maul", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee, Brutal (2)"}
    plain = {"name": "Blade", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"}
    slow, quick = {**LEGIONARY, "I": 1, "A": 2}, {**LEGIONARY, "I": 5, "A": 2}
    unit = FieldedUnit(
        "Pair", "", 4, 0.0, (hh2_group("Slow", 1, slow, (brutal,)), hh2_group("Quick", 3, quick, (plain,)))
    )
    target = {"name": "Ogres", "models": 3, "WS": 4, "T": 4, "W": 3, "I": 4, "Save": "-"}
    result = melee(unit, scenario_calc.parse_target({"target": target})).to_dict()
    assert [c["initiative"] for c in result["chosen"]] == [5, 1]
    first = {"mode": "melee", "attacker": {**quick, "models": 3}, "weapon": plain, "attacks": 6}
    then = {"mode": "melee", "attacker": {**slow, "models": 1}, "weapon": brutal, "attacks": 2}
    in_order = {"target": target, "firing_units": [[first, then]]}
    reverse = {"target": target, "firing_units": [[then, first]]}
    assert result["casualties"]["pmf"] == pytest.approx(scenario_calc.calc(in_order)["casualties"]["pmf"], abs=1e-12)
    assert result["wounds_removed"] == pytest.approx(_wounds(in_order), abs=1e-12)
    assert abs(_wounds(in_order) - _wounds(reverse)) > 1e-3


def _wounds(doc: dict) -> float:
    """Mean wounds taken off the target's models by a sequence scenario, from its final state."""
    scenario = parse_scenario(doc)
    assert isinstance(scenario, Shooting)
    res = resolve_sequence(scenario.target, [list(u) for u in scenario.firing_units])
    assert res.state is not None
    return wounds_caused(res.state, scenario.target).mean()


def test_master_crafted_volleys_of_two_groups_stay_apart() -> None:
    # One re-roll per model: a 3-attack and a 1-attack model (3 + 1 blows) are not two 2-blow models
    blade = {"name": "Blade", "Range": "-", "Strength": "User", "AP": "3", "Type": "Melee, Master-crafted"}
    champion = {**LEGIONARY, "A": 3}
    unit = FieldedUnit(
        "Duo",
        "",
        2,
        0.0,
        (hh2_group("Champion", 1, champion, (blade,)), hh2_group("Legionary", 1, LEGIONARY, (blade,))),
    )
    target = {"name": "Veterans", "models": 5, "WS": 4, "T": 4, "W": 1, "I": 4, "Save": "3+"}
    result = melee(unit, scenario_calc.parse_target({"target": target})).to_dict()
    by_hand = scenario_calc.calc(
        {"target": target, "firing_units": [[
            {"mode": "melee", "attacker": {**champion, "models": 1}, "weapon": blade, "attacks": 3},
            {"mode": "melee", "attacker": {**LEGIONARY, "models": 1}, "weapon": blade, "attacks": 1},
        ]]}
    )  # fmt: skip
    pooled = scenario_calc.calc(
        {"target": target, "mode": "melee", "attacker": {**LEGIONARY, "models": 2}, "weapon": blade, "attacks": 4}
    )
    assert result["hits"]["pmf"] == pytest.approx(by_hand["hits"]["pmf"], abs=1e-12)
    assert abs(by_hand["hits"]["mean"] - pooled["hits"]["mean"]) > 1e-3  # 2.6875 against 2.75


def test_datasheet_results_carry_reasons_and_measures() -> None:
    unit = calc({"attacker": "Tactical Squad", "target": TERMINATORS})
    assert isinstance(unit["reasons"], dict)
    assert unit["share_removed"] == pytest.approx(unit["casualties"]["mean"] / 5, abs=1e-12)
    assert unit["wounds_removed"] == pytest.approx(unit["wounds_caused"]["mean"], abs=1e-12)
    rhino = calc({"attacker": {"name": "Heavy Support Squad", "loadout": ["Lascannon"]}, "target": "Rhino"})
    assert rhino["wounds_removed"] == rhino["hull_points"]["mean"] and rhino["share_removed"] == rhino["wrecked"]
