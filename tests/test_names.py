"""Names wherever a profile is accepted: weapon, target and attacker names in calc."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from praetor_analysis import calc
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.errors import ScenarioError
from praetor_analysis.units import UnitRow, WeaponRow
from praetor_analysis.units.names import resolve_unit, resolve_weapon

ATTACKER = {"BS": 4, "S": 4, "WS": 4}


def _row(frame, col, value):
    return frame[frame[col] == value].iloc[0]


def test_weapon_name_gives_the_profile_result() -> None:
    by_name = calc({"attacker": ATTACKER, "weapon": "lascannon", "target": "Rhino"})
    block = WeaponRow.from_row(_row(load_weapons(), "name", "Lascannon")).to_block()
    target = UnitRow.from_row(_row(load_targets(), "archetype", "Rhino")).to_block()
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
        resolve_unit("Legion Praetor")
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
    from praetor_analysis.views.report.exports import select_targets, select_weapons

    chosen = select_targets(["rhino", "Legion Tactical Sergeant:3", "Tartaros Terminator:3"])
    assert list(chosen["archetype"]) == ["Rhino", "Legion Tactical Sergeant", "Tartaros Terminator"]
    assert list(chosen["models"]) == [1, 3, 3]
    with pytest.raises(ValueError, match=r"^--targets: no unit profile or standard target named 'Terminatr'; did you"):
        select_targets(["Terminatr"])
    with pytest.raises(ValueError, match=r"^--weapons: no weapon named 'Lascanon'; did you mean 'Lascannon'"):
        select_weapons(["Lascanon"])


# --- one resolver everywhere (issue 24, item 4) ------------------------------------------------------------
def _refusal(fn, *args) -> str:
    with pytest.raises(ScenarioError) as err:
        fn(*args)
    return str(err.value).split(": ", 1)[1]


def test_an_ambiguous_or_partial_weapon_name_is_refused_alike_by_calc_and_report() -> None:
    """``report --weapons "Missile Launcher"`` used to expand silently to every profile containing the words
    (32); it now reads the name as calc does: no weapon of that name, the close names offered."""
    pytest.importorskip("plotly")
    from praetor_analysis.views.report.exports import select_weapons

    by_calc = _refusal(resolve_weapon, "Missile Launcher")
    by_report = _refusal(select_weapons, ["Missile Launcher"])
    assert by_calc == by_report
    assert "no weapon named 'Missile Launcher'" in by_report and "'Missile Launcher - Krak'" in by_report
    shared = "Paragon Bolter"  # two statlines in the shipped catalog
    assert "different statlines" in _refusal(select_weapons, [shared]) == _refusal(resolve_weapon, shared)
    assert len(select_weapons(["Missile Launcher - Krak"])) == 1


def test_roster_target_and_report_targets_read_a_name_alike() -> None:
    pytest.importorskip("plotly")
    from praetor_analysis.analysis.unit_ratings import target_named
    from praetor_analysis.views.report.exports import select_targets

    for name in ("Knight", "Legion Praetor"):  # a part of a name; a name of two statlines
        by_roster = _refusal(target_named, name)
        assert by_roster == _refusal(select_targets, [name]) == _refusal(resolve_unit, name)
    assert "did you mean 'Knight Questoris (ion shield)'" in _refusal(target_named, "Knight")  # standard targets first
    label, unit = target_named("Knight Questoris (ion shield)")
    assert list(select_targets([label])["archetype"]) == [label] and unit.is_vehicle


def test_a_misspelt_attacker_suggests_the_datasheet_first() -> None:
    for scenario in ({"attacker": {"name": "Tactical Sqaud"}, "target": "Rhino"},
                     {"attacker": "Tactical Sqaud", "weapon": "Bolter", "target": "Rhino"}):  # fmt: skip
        with pytest.raises(ScenarioError, match=r"^attacker: no datasheet, .* did you mean 'Tactical Squad', "):
            calc(scenario)
    with pytest.raises(ScenarioError, match=r"^target: no unit profile or standard target named 'Tactical Sqaud'"):
        calc({"attacker": ATTACKER, "weapon": "Bolter", "target": "Tactical Sqaud"})  # no datasheet offered


def test_every_result_echoes_the_attacker_and_target_it_resolved() -> None:
    one = calc({"attacker": ATTACKER, "weapon": "Lascannon", "target": {"name": "Rhino", "facing": "Side"}})
    assert one["target"]["name"] == "Rhino" and one["target"]["facing"] == "Side"
    assert (one["target"]["Side"], one["target"]["HP"], one["target"]["models"]) == (11, 3, 1)
    assert one["attacker"]["BS"] == 4 and one["attacker"]["models"] == 1
    sergeant = {"name": "Legion Tactical Sergeant", "profile_id": "cf03-e706-59c3-3ea6"}
    by_id = calc({"attacker": ATTACKER, "weapon": "Bolter", "target": sergeant})
    # a bare unit profile is its datasheet (Tactical Squad) at its minimum size: 10 models of that statline
    assert by_id["target"]["models"] == 10 and by_id["target"]["T"] == 4 and by_id["target"]["Save"] == "3+"
    batch = pa_calc_json([{"attacker": ATTACKER, "weapon": "Bolter", "target": "Tartaros Terminator"}])[0]
    assert (
        batch["target"] == calc({"attacker": ATTACKER, "weapon": "Bolter", "target": "Tartaros Terminator"})["target"]
    )
    assert batch["target"]["models"] == 5 and batch["target"]["Invulnerable"] == "5+"
    squad = calc({"attacker": {"name": "Tactical Squad", "size": 10}, "target": "Rhino"})
    assert squad["attacker"]["name"] == "Tactical Squad" and squad["attacker"]["models"] == 10
    assert sum(g["models"] for g in squad["attacker"]["groups"]) == 10 and squad["target"]["name"] == "Rhino"
    second = {"attacker": {"BS": 3, "models": 2}, "weapon": "Lascannon"}
    seq = calc(
        {"firing_units": [[{"attacker": ATTACKER, "weapon": "Bolter"}, second]], "target": "Tartaros Terminator"}
    )
    assert [(a["BS"], a["models"]) for a in seq["attacker"][0]] == [(4, 1), (3, 2)]
    round_ = calc({"mode": "melee", "attacker": {**ATTACKER, "T": 4, "W": 1, "I": 4, "A": 1, "Save": "3+"},
                   "weapon": "Chainsword", "target": "Tartaros Terminator", "target_weapon": "Power Fist"})  # fmt: skip
    assert round_["target"]["name"] == "Tartaros Terminator" and round_["attacker"]["A"] == 1


def pa_calc_json(items: list) -> list:
    from praetor_analysis.scenario.calc import calc_json

    return calc_json(json.dumps(items))


def test_junk_profiles_are_not_offered_and_a_bare_profile_is_its_datasheet_at_minimum() -> None:
    # "Legionary": three statlines in the data, two of them (the support squads' collective Legionaries)
    # without Toughness; the complete one is the target, at its Tactical Squad's minimum of 10 models
    block = resolve_unit("Legionary")
    assert (block["T"], block["models"]) == ("4", 10)
    assert resolve_unit({"name": "Legionary", "models": 3})["models"] == 3
    assert resolve_unit("Rhino")["models"] == 1  # a standard target keeps its size


# --- NAME@FACTION: the one-string pick of the command line ------------------------------------------------
def test_a_faction_picks_an_ambiguous_weapon_on_the_command_line(tmp_path) -> None:
    pytest.importorskip("plotly")
    from praetor_analysis.views.report.exports import select_weapons

    # "Needle Pistol" is two statlines in the shipped catalog (Horus Heresy's; the Sisters of Silence's
    # Master-crafted one): refused alike by calc and report, naming both factions and the NAME@FACTION form
    by_calc, by_report = _refusal(resolve_weapon, "Needle Pistol"), _refusal(select_weapons, ["Needle Pistol"])
    assert by_calc == by_report
    assert (
        "'Horus Heresy'" in by_report and "'Sisters Of Silence'" in by_report and "'Needle Pistol@FACTION'" in by_report
    )
    picked = select_weapons(["Needle Pistol@sisters of silence"])
    assert len(picked) == 1 and "Master-crafted" in picked["Type"].iloc[0]
    assert resolve_weapon("Needle Pistol@Horus Heresy") == resolve_weapon(
        {"name": "Needle Pistol", "faction": "Horus Heresy"}
    )
    with pytest.raises(ScenarioError, match=r"^--weapons\.faction: 'Needle Pistol' has no faction 'Nope' \(choices: "):
        select_weapons(["Needle Pistol@Nope"])
    proc = subprocess.run(
        [sys.executable, "-m", "praetor_analysis.cli", "report", "--weapons", "Needle Pistol", "-o", str(tmp_path / "r.html")],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "Needle Pistol@FACTION" in proc.stderr


def test_name_at_faction_reads_as_the_block_everywhere() -> None:
    assert resolve_unit("Legion Praetor@bd27-5640-b8a7-fbb3") == resolve_unit(
        {"name": "Legion Praetor", "profile_id": "bd27-5640-b8a7-fbb3"}
    )
    got = calc({"attacker": "Nathaniel Garro@Assassins", "target": "Rhino"})
    assert got["faction"] == "Assassins"
    with pytest.raises(ScenarioError, match="'Nathaniel Garro@FACTION'"):
        calc({"attacker": "Nathaniel Garro", "target": "Rhino"})


def test_a_profile_without_toughness_or_armour_is_no_target_anywhere() -> None:
    # the data's "Defence Line" (a fortification with neither Toughness nor armour values) and the support
    # squads' collective "Legionary" rows: refused or passed over by every reader of a target
    from praetor_analysis.analysis.unit_ratings import profile_targets, target_named
    from praetor_analysis.catalog import load_units

    units = load_units()
    junk = [i for i, r in units.iterrows() if not UnitRow.from_row(r).is_target_profile]
    assert {units.loc[i, "name"] for i in junk} == {"Defence Line", "Legionary"}
    for value in ("Defence Line", {"name": "Defence Line", "size": 1}):
        with pytest.raises(ScenarioError, match="not a target"):
            calc({"attacker": {"BS": 4}, "weapon": "Lascannon", "target": value})
    with pytest.raises(ScenarioError, match=r"^--target: 'Defence Line' .*not a target"):
        target_named("Defence Line")
    targets, _ = profile_targets()
    assert not any(label.startswith("Defence Line") for label, _ in targets)
    pytest.importorskip("plotly")
    from praetor_analysis.views.report.exports import select_targets

    with pytest.raises(ScenarioError, match=r"^--targets: 'Defence Line' is a unit profile without Toughness"):
        select_targets(["Defence Line"])
    pytest.importorskip("ipywidgets")
    from praetor_analysis.views.dashboard.app import Dashboard

    board = Dashboard()
    offered = {i for _, i in board.setup.unit_pick.options}
    assert not offered & set(junk)
    with pytest.raises(ScenarioError, match="not a target"):
        board.setup.add_target_unit(junk[0], 1)


@pytest.mark.parametrize(
    "target", [{"name": "Rhino", "faction": "Legiones Astartes", "size": 1}, "Rhino@Legiones Astartes"]
)
def test_a_standard_target_given_a_faction_is_refused_naming_the_field(target: object) -> None:
    # 'Rhino' is a standard target; with a faction it used to be "no unit profile named 'Rhino'; did you mean 'Rhino'"
    with pytest.raises(ScenarioError, match=r"target\.faction: 'Rhino' is a standard target") as info:
        calc({"attacker": {"BS": 4}, "weapon": "Lascannon", "target": target})
    assert "'Legion Rhino Transport'" in str(info.value) and "mean 'Rhino'," not in str(info.value)
