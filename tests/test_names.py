"""Names wherever a profile is accepted: weapon, target and attacker names in calc."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from praetor_analysis import calc
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.blocks import target_block, weapon_block
from praetor_analysis.scenario.names import resolve_unit, resolve_weapon

ATTACKER = {"BS": 4, "S": 4, "WS": 4}


def _row(frame, col, value):
    return frame[frame[col] == value].iloc[0]


def test_weapon_name_gives_the_profile_result() -> None:
    by_name = calc({"attacker": ATTACKER, "weapon": "lascannon", "target": "Rhino"})
    block = weapon_block(_row(load_weapons(), "name", "Lascannon"))
    target = target_block(_row(load_targets(), "archetype", "Rhino"))
    by_profile = calc({"attacker": ATTACKER, "weapon": block, "target": target})
    assert by_name == by_profile


def test_target_name_with_a_size_and_fields_kept() -> None:
    block = resolve_unit({"name": "TARTAROS terminator", "models": 3, "wounds_taken": 0})
    assert block["models"] == 3
    assert block["wounds_taken"] == 0
    attacker = {**ATTACKER, "models": 30}
    result = calc({"attacker": attacker, "weapon": "Bolter", "target": {"name": "Tartaros Terminator", "models": 3}})
    assert len(result["casualties"]["pmf"]) == 4


def test_unit_profile_name_beyond_the_standard_targets() -> None:
    block = resolve_unit({"name": "Legion Tactical Sergeant", "models": 1})
    assert block["name"] == "Legion Tactical Sergeant"
    assert block["models"] == 1


def test_profiles_pass_through_untouched() -> None:
    profile = {"name": "Lascannon", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1"}
    assert resolve_weapon(profile) is profile


def test_miss_suggests_on_one_line() -> None:
    with pytest.raises(ScenarioError) as err:
        resolve_weapon("Lascanon")
    text = str(err.value)
    assert text.startswith("weapon: no weapon named 'Lascanon'; did you mean ")
    assert "'Lascannon'" in text and "\n" not in text
    assert text.count("'") <= 2 + 3 * 2


def test_shared_name_lists_choices_and_how_to_pick() -> None:
    with pytest.raises(ScenarioError) as err:
        resolve_unit("Legionary")
    text = str(err.value)
    assert "different statlines" in text and "pick one with" in text
    assert "\n" not in text


def test_faction_pick_narrows() -> None:
    weapons = load_weapons()
    name, faction = weapons.iloc[0]["name"], weapons.iloc[0]["faction"]
    assert resolve_weapon({"name": name, "faction": faction.upper()})["name"] == name
    with pytest.raises(ScenarioError, match=r"weapon\.faction: "):
        resolve_weapon({"name": name, "faction": "No Such Faction"})


def test_cli_exits_2_on_one_line() -> None:
    doc = json.dumps({"attacker": ATTACKER, "weapon": "Lascanon", "target": "Rhino"})
    proc = subprocess.run(
        [sys.executable, "-m", "praetor_analysis.cli", "calc", "-"], input=doc, capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "did you mean" in proc.stderr


def test_report_takes_the_same_names() -> None:
    pytest.importorskip("plotly")
    from praetor_analysis.views.exports import select_targets, select_weapons

    chosen = select_targets(["rhino", "Legion Tactical Sergeant:3", "Tartaros Terminator:3"])
    assert list(chosen["archetype"]) == ["Rhino", "Legion Tactical Sergeant", "Tartaros Terminator"]
    assert list(chosen["models"]) == [1, 3, 3]
    with pytest.raises(ValueError, match=r"^--targets: no unit profile or standard target named 'Terminatr'; did you"):
        select_targets(["Terminatr"])
    with pytest.raises(ValueError, match=r"^--weapons: no weapon named 'Lascanon' in the catalog; did you mean"):
        select_weapons(["Lascanon"])
