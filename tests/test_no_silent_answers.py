"""No silent answers (issue 26): every field given acts or is refused on one line naming it and the kind of
scenario; the command line's sizes and flags are checked before any work. Each reproducer of the issue is a
named test here; the generated field-by-field check is tests/test_fields_act.py."""

from __future__ import annotations

import re
from typing import Any

import pytest

from praetor_analysis.cli import main
from praetor_analysis.errors import MAX_MESSAGE_CHARS, ScenarioError
from praetor_analysis.scenario.calc import calc, calc_many

BOLTER = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"}
FIST = {"name": "Fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"}
LEGION = {"name": "Legionaries", "models": 10, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, "Save": "3+"}
FIGHTERS = {"models": 5, "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 2, "Ld": 8, "Save": "3+"}
SHOOT: dict[str, Any] = {"attacker": FIGHTERS, "weapon": BOLTER, "target": LEGION}
MELEE: dict[str, Any] = {"mode": "melee", "attacker": FIGHTERS, "weapon": FIST, "target": LEGION}


def refused(doc: Any, field: str, *words: str) -> str:
    """The one-line message ``calc`` refuses ``doc`` with; it names ``field`` and each of ``words``."""
    with pytest.raises(ScenarioError) as info:
        calc(doc)
    msg = str(info.value)
    assert msg.startswith(field) or f" {field}" in msg, msg
    assert all(w in msg for w in words), msg
    assert "\n" not in msg and len(msg) <= MAX_MESSAGE_CHARS, msg
    return msg


# --- fields that were answered as if absent ------------------------------------------------------------
def test_half_range_in_melee_is_refused_naming_the_kind():
    refused({**MELEE, "half_range": True}, "half_range", "melee")
    refused({"mode": "melee", "attacker": "Tactical Squad", "target": LEGION, "half_range": True}, "half_range")
    assert calc({**MELEE, "half_range": False})["casualties"]["mean"] > 0  # false asks for nothing


@pytest.mark.parametrize("flag", ["charging", "two_weapons", "disordered"])
def test_melee_flags_of_a_shooting_attacker_are_refused(flag):
    refused({**SHOOT, "attacker": {**FIGHTERS, flag: True, "charging": True}}, "attacker.", "shooting")
    refused({"attacker": {"name": "Tactical Squad", flag: True}, "target": LEGION}, "attacker.", "shooting")


def test_disordered_without_a_charge_is_refused():
    refused({**MELEE, "attacker": {**FIGHTERS, "disordered": True}}, "attacker.disordered", "charging")
    calm = calc({**MELEE, "attacker": {**FIGHTERS, "charging": True}})["casualties"]["mean"]
    messy = calc({**MELEE, "attacker": {**FIGHTERS, "charging": True, "disordered": True}})["casualties"]["mean"]
    assert messy < calm  # beside a charge it acts: no +1 Attack


def test_moved_on_a_vehicle_target_in_shooting_is_refused_and_acts_in_melee():
    refused({**SHOOT, "target": {"name": "Rhino", "moved": True}}, "target.moved", "shooting")
    rhino = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 11, "Side": 11, "Rear": 10, "HP": 3}
    still = calc({**MELEE, "target": rhino})["hull_points"]["mean"]
    moved = calc({**MELEE, "target": {**rhino, "moved": True}})["hull_points"]["mean"]
    assert moved < still


def test_an_empty_rule_name_is_refused():
    refused({**SHOOT, "target": {**LEGION, "rules": [""]}}, "target.rules[0]", "empty")
    refused({**SHOOT, "attacker": {**FIGHTERS, "rules": ["Fearless", "  "]}}, "attacker.rules[1]")


@pytest.mark.parametrize("doc", [{**MELEE, "weapon": {}}, {**SHOOT, "weapon": {}}], ids=["melee", "shooting"])
def test_an_empty_weapon_block_is_refused(doc):
    refused(doc, "weapon", "empty")


def test_an_empty_target_weapon_is_refused():
    refused({**MELEE, "target_weapon": {}}, "target_weapon", "empty")
    refused({**MELEE, "target_weapon": [FIST, {}]}, "target_weapon[1]", "empty")


def test_a_datasheet_attacker_whose_name_is_not_text_is_refused():
    refused({"attacker": {"name": {"x": 1}}, "target": LEGION}, "attacker.name")
    refused({"attacker": {"name": {"x": 1}, "size": 10}, "target": LEGION}, "attacker.name")


def test_a_to_hit_reroll_with_hits_given_has_no_effect_with_its_reason():
    doc = {**SHOOT, "attacker": {**FIGHTERS, "rules": ["Re-roll To Hit 1s"]}, "hits": 3}
    r = calc(doc)
    entry = "attacker: Re-roll To Hit 1s"
    assert entry in r["no_effect"] and entry not in r["applied"], r
    assert "To Hit" in r["reasons"][entry]
    assert "the hits are given, so no To Hit roll is made" in r["reasons"][entry]
    assert calc_many([doc])[0]["reasons"][entry] == r["reasons"][entry]  # the batch path says the same
    rolled = calc({**doc, "hits": None})
    assert entry in rolled["applied"]
    preferred = calc({**doc, "attacker": {**FIGHTERS, "rules": ["Preferred Enemy"]}})
    assert "attacker: Preferred Enemy" in preferred["applied"]  # its To Wound re-roll still acts


def test_rules_beside_a_target_name_are_kept():
    named = {"name": "Legionary (Tactical Squad)", "rules": ["Feel No Pain (5+)"]}
    r = calc({**SHOOT, "target": named})
    assert "target: Feel No Pain (5+)" in r["applied"]
    plain = calc({**SHOOT, "target": "Legionary (Tactical Squad)"})
    assert r["casualties"]["mean"] < plain["casualties"]["mean"]


def test_a_vehicle_target_of_several_models_is_refused():
    refused({**SHOOT, "target": {"name": "Rhino", "models": 2}}, "target.models", "Vehicle")


def test_metric_beside_a_whole_round_is_refused():
    doc = {**MELEE, "weapon": [FIST, BOLTER | {"Type": "Melee"}], "target_weapon": FIST, "metric": "wipe"}
    refused(doc, "metric", "melee round")


def test_half_range_in_a_melee_volley_of_a_sequence_is_refused():
    volley = {"mode": "melee", "attacker": FIGHTERS, "weapon": FIST, "half_range": True}
    refused({"target": LEGION, "firing_units": [[volley]]}, "firing_units[0][0].half_range", "melee")


def test_a_sweep_applies_its_options_where_they_act():
    from praetor_analysis.views.cell_documents import build_scenario

    melee, _, _ = build_scenario(FIST, LEGION, {**FIGHTERS, "charging": True}, half_range=True)
    shoot, _, _ = build_scenario(BOLTER, LEGION, {**FIGHTERS, "charging": True}, half_range=True)
    assert "half_range" not in melee and melee["attacker"]["charging"]
    assert shoot["half_range"] and "charging" not in shoot["attacker"]
    calc(melee), calc(shoot)


# --- the command line --------------------------------------------------------------------------------
def _cli(args: list[str], capsys) -> tuple[int, str]:
    rc = main(args)
    return rc, capsys.readouterr().err.strip()


@pytest.mark.parametrize(
    "spec, words",
    [
        ("Rhino:²", "digits"),
        ("Legionary (Tactical Squad):0", "1 to 1000"),
        ("Legionary (Tactical Squad):1001", "1 to 1000"),
        ("Legionary (Tactical Squad):1000000000", "1 to 1000"),
        ("Rhino:0", "1 to 1000"),
        ("Rhino:2", "Vehicle"),
        (":3", "empty target name"),
    ],
)
def test_report_target_sizes_are_refused_before_any_work(spec, words, capsys, tmp_path):
    pytest.importorskip("plotly")
    rc, err = _cli(["report", "--targets", spec, "-o", str(tmp_path / "r.html")], capsys)
    assert rc == 2 and "--targets" in err and words in err and "\n" not in err, err
    assert not (tmp_path / "r.html").exists()


def test_sized_name_reads_ascii_digits_only():
    from praetor_analysis.views.report.exports import sized_name

    assert sized_name("Rhino", "f") == ("Rhino", None)
    assert sized_name("  Legionary  (Tactical Squad) : 12 ", "f") == ("Legionary (Tactical Squad)", 12)
    assert sized_name("Odd: name", "f") == ("Odd: name", None)


def test_roster_models_without_target_is_refused(capsys):
    rc, err = _cli(["roster", "tests/fixtures/tiny.ros", "--models", "3"], capsys)
    assert rc == 2 and "--models" in err and "--target" in err, err
    for bad in ("0", "1001"):
        rc, err = _cli(["roster", "tests/fixtures/tiny.ros", "--target", "Legionary", "--models", bad], capsys)
        assert rc == 2 and "--models" in err, err


def test_import_show_must_not_be_negative(capsys, tmp_path):
    rc, err = _cli(["import", str(tmp_path), "--show", "-1"], capsys)
    assert rc == 2 and "--show" in err, err


# --- bounded before work, by an estimate of the work ----------------------------------------------------
def test_an_array_of_copies_is_counted_once_and_answered():
    import json

    from praetor_analysis.scenario.calc import calc_json

    out = calc_json(json.dumps([SHOOT] * 20_000))
    assert len(out) == 20_000 and out[0] == out[-1]


def test_an_array_of_heavy_scenarios_is_refused_by_its_estimate():
    import json

    from praetor_analysis.scenario.calc import calc_json

    docs = [{**SHOOT, "attacks": i % 900 + 1, "target": {**LEGION, "models": 100, "W": 5}} for i in range(20_000)]
    with pytest.raises(ScenarioError, match=r"^scenario: .*estimated at .* s of work \(limit 10 s\)"):
        calc_json(json.dumps(docs))


def test_an_array_of_datasheet_scenarios_is_counted_by_their_models_and_weapons():
    import json

    from praetor_analysis.catalog import load_datasheets
    from praetor_analysis.scenario.calc import calc_json
    from praetor_analysis.scenario.work import DATASHEET_S, datasheet_seconds

    sheets = load_datasheets()
    docs = [{"attacker": {"name": r.name, "faction": r.faction}, "target": LEGION} for r in sheets.itertuples()]
    with pytest.raises(ScenarioError, match="estimated at"):
        calc_json(json.dumps(docs * 3))
    assert datasheet_seconds({"name": "Tactical Squad"}) > DATASHEET_S  # its weapons count
    loaded = {"name": "Tactical Squad", "loadout": ["Power Fist"] * 10}
    assert datasheet_seconds(loaded) > datasheet_seconds({"name": "Tactical Squad"})


@pytest.mark.parametrize("item", ["Power Fist", {"option": "Power Fist", "count": 1}], ids=["name", "count"])
def test_a_long_loadout_is_refused_before_it_is_read(item):
    doc = {"attacker": {"name": "Tactical Squad", "loadout": [item] * 20_000}, "target": LEGION}
    refused(doc, "attacker.loadout", "limit 200")
    refused({**doc, "attacker": {**doc["attacker"], "loadout": [item] * 5_000}}, "attacker.loadout")


PACKED = {"models": 35, "columns": 10, "gap": 0}
BARRAGE = {"name": "Barrage", "Range": '48"', "Strength": "6", "AP": "4", "Type": "Heavy 3, Barrage, Large Blast"}


@pytest.mark.parametrize(
    "kind", ["Heavy 3, Barrage, Large Blast", "Heavy 10, Barrage, Large Blast", "Destroyer 50, Apocalyptic Barrage"]
)
def test_barrages_on_a_packed_formation_are_refused_by_their_estimate(kind):
    doc = {
        "attacker": {"BS": 4},
        "weapon": {**BARRAGE, "Type": kind},
        "target": {**LEGION, "models": 35},
        "formation": PACKED,
        "indirect": True,
    }
    refused(doc, "", "estimated CPU seconds", "limit 10")


def test_a_blob_under_three_barrages_is_bounded_and_answered():
    from praetor_analysis.scenario.document import parse_scenario

    doc = {
        "attacker": {"BS": 4},
        "weapon": BARRAGE,
        "target": {**LEGION, "models": 20},
        "formation": {"models": 20, "gap": 2},
        "indirect": True,
    }
    parse_scenario(doc)  # 48 triples: inside the bound (computed in about a second: bench figures in limits)


# --- the Python API: bad values of the right type are PraetorErrors ---------------------------------------
def _praetor_error(fn):
    import praetor_analysis as pa

    with pytest.raises(pa.PraetorError) as info:
        fn()
    assert "\n" not in str(info.value) and ":" in str(info.value)
    return str(info.value)


def test_wargear_value_phases_are_checked():
    import praetor_analysis as pa

    assert "phases" in _praetor_error(lambda: pa.wargear_value("Tactical Squad", "Rhino", phases="x"))
    assert "phases" in _praetor_error(lambda: pa.wargear_value("Tactical Squad", "Rhino", phases="x" * 100_000))
    assert "phases" in _praetor_error(lambda: pa.wargear_value("Tactical Squad", "Rhino", phases=[]))
    frame = pa.wargear_value("Tactical Squad", "Rhino", phases="shooting")  # one phase by its name
    assert len(frame) and set(frame["phase"]) - {""} == {"shooting"}  # "": options without a weapon


@pytest.mark.parametrize("path", [".", "x" * 100_000, "\ud800", "a\x00b"], ids=["folder", "long", "surrogate", "nul"])
def test_roster_paths_are_checked(path):
    import praetor_analysis as pa

    _praetor_error(lambda: pa.rate_roster(path))
    _praetor_error(lambda: pa.read_roster(path))


def test_records_check_their_values():
    import praetor_analysis as pa

    weapon = pa.Weapon.from_mapping(BOLTER)
    assert pa.Volley(weapon, pa.Unit(models=2), attacks=5).attacks == pa.Dist.point(5)  # a whole number of attacks
    assert "models" in _praetor_error(lambda: pa.Unit(models=1.5))
    assert "models" in _praetor_error(lambda: pa.Unit(models=-1))
    assert "pmf" in _praetor_error(lambda: pa.Dist([float("nan")]))
    assert "attacks" in _praetor_error(lambda: pa.Volley(weapon, pa.Unit(), attacks=-1))
    assert "mode" in _praetor_error(lambda: pa.Volley(weapon, pa.Unit(), mode="ranged"))
    with pytest.raises(TypeError):
        pa.Volley(weapon, pa.Unit(), attacks=1.5)  # a wrong type: TypeError (README, Python)


def test_matchup_table_with_json_is_refused(capsys):
    rc, err = _cli(["matchup", "tests/fixtures/tiny.ros", "tests/fixtures/tiny.ros", "--json", "--table"], capsys)
    assert rc == 2 and "--table" in err and "--json" in err, err


def test_filter_weapons_refuses_text_that_is_not_valid_unicode():
    # found by the typed fuzz once pyarrow (the sweep extra) made pandas' strings Arrow strings: a lone
    # surrogate raised UnicodeEncodeError from inside pandas
    import praetor_analysis as pa

    with pytest.raises(pa.PraetorError, match="name: not valid Unicode"):
        pa.filter_weapons(pa.load_weapons(), name="\ud800")
    assert len(pa.filter_weapons(pa.load_weapons(), name="Lascannon")) > 0


_HEAVY_2 = {"name": "w", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Heavy 2"}
_SQUAD = {"name": "t", "models": 10, "T": 4, "W": 1, "Save": "3+", "Ld": 7}


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"attacks": 3}, "attacks: not used when hits are given, but for a Gets Hot weapon's dice"),
        ({"snap_shots": True}, "snap_shots: not used when hits are given (no To Hit roll)"),
    ],
)
def test_fields_that_given_hits_make_idle_are_refused(extra: dict[str, Any], message: str) -> None:
    # given hits replace the To Hit roll and the shots: attacks and Snap Shots did nothing beside them
    with pytest.raises(ScenarioError, match=re.escape(message)):
        calc({"attacker": {"BS": 4}, "weapon": _HEAVY_2, "hits": 2, "target": _SQUAD, **extra})


def test_attacks_beside_hits_act_for_gets_hot() -> None:
    # docs/rules.md#gets-hot: one die per shot, the given hits dealt among the shots
    weapon = {**_HEAVY_2, "Type": "Heavy 2, Gets Hot"}
    three = calc({"attacker": {"BS": 4}, "weapon": weapon, "hits": 2, "attacks": 3, "target": _SQUAD})
    two = calc({"attacker": {"BS": 4}, "weapon": weapon, "hits": 2, "attacks": 2, "target": _SQUAD})
    # a die per shot: three dice can wound the firer three times, two twice (the hits, dealt round-robin to
    # the first shots, stay those of two dice)
    assert len(three["gets_hot"]["pmf"]) == 4 and len(two["gets_hot"]["pmf"]) == 3


def test_a_whole_rounds_attacker_needs_its_save() -> None:
    # the contract asks T, W and Save of the attacker of a whole round; a missing Save was read as none
    attacker = {"WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "models": 5}
    sword = {"name": "s", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"}
    target = {"models": 5, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Save": "3+"}
    doc = {"mode": "melee", "attacker": attacker, "weapon": sword, "target": target, "target_weapon": sword}
    with pytest.raises(
        ScenarioError, match=re.escape('attacker.Save: required for a whole round of melee ("-" for none)')
    ):
        calc(doc)
    assert calc({**doc, "attacker": {**attacker, "Save": "-"}})["combat"]


_HULL = {"name": "V", "Unit Type": "Vehicle", "Front": 12, "Side": 10, "Rear": 10, "HP": 3}
_ONE = {"name": "X", "Unit Type": "Infantry", "models": 1, "WS": 4, "T": 7, "W": 1, "I": 4, "Ld": 7, "Save": "-"}


@pytest.mark.parametrize(
    ("kind", "strength", "target", "formation", "entry"),
    [
        ('Heavy 2, Blast (3"), Barrage', "8", _HULL, {"hull": [4.5, 3.5]}, "Multiple Barrages against a hull"),
        ("Heavy 2, Apocalyptic Mega-blast, Barrage", "10/8/6", _ONE, {"models": 1, "base_mm": 32}, "Mega-blast markers"),
        ('Heavy 2, Blast (3"), Barrage, Twin-linked', "6", _ONE, {"models": 1, "base_mm": 32}, "for Multiple Barrages"),
        ("Heavy 1, Apocalyptic Barrage, Twin-linked", "6", _ONE, {"models": 1, "base_mm": 32}, "the Apocalyptic Barrage"),
        ("Heavy 1, Apocalyptic Mega-blast, Barrage", "10/8/6", _HULL, {"hull": [4.5, 3.5]}, "zones against a hull"),
    ],
)  # fmt: skip
def test_marker_geometry_that_falls_back_says_so(kind, strength, target, formation, entry):
    # the geometry computes these cases more simply than the rules say (each marker on its own, no
    # re-roll of the scatter): the result lists that under not_modelled, with a reason of its own
    weapon = {"name": "M", "Range": '48"', "Strength": strength, "AP": "-", "Type": kind}
    doc = {"attacker": {"BS": 4}, "weapon": weapon, "target": target, "formation": formation, "indirect": True}
    result = calc(doc)
    (found,) = [n for n in result["not_modelled"] if entry in n]
    assert result["reasons"][found] != "not a rule the engine knows"
