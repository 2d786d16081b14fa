"""The 3rd edition's datasheets of the shipped catalogs fielded, and the commands that read them: ``praetor wargear
--edition hh3``, ``praetor sweep --edition hh3``, ``praetor report --edition hh3``; and the refusals of mixed
editions. Two datasheets throughout: an infantry squad (Solar Auxilia's Lasrifle Section; the Daemons of the
Ruinstorm's Daemon Beasts) and a vehicle (Solar Auxilia's Leman Russ Strike Tank)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from praetor_analysis.analysis import AS_FIELDED, edition_wargear, hh3_per_point_table
from praetor_analysis.cli import main
from praetor_analysis.errors import ScenarioError
from praetor_analysis.units import (
    hh3_datasheet_row,
    hh3_fielded_datasheet,
    hh3_option_named,
    hh3_options,
    hh3_standard_targets,
    hh3_volleys,
    read_roster_units,
)

FIXTURES = Path(__file__).parent / "fixtures" / "rosters" / "hh3"
DAEMONS = FIXTURES / "Daemons.rosz"
INFANTRY = "Lasrifle Section"
VEHICLE = "Leman Russ Strike Tank"
BEASTS = "Ruinstorm Daemon Beasts"
LEGIONARY = "Legionary (Tactical Squad)"


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> Any:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    return captured.err


def _row(rows: list[dict[str, Any]], option: str, phase: str) -> dict[str, Any]:
    return next(r for r in rows if r["option"] == option and r["phase"] == phase)


# --- the datasheet fielded ---------------------------------------------------------------------------------
def test_a_datasheet_fields_as_the_roster_that_took_it() -> None:
    """Daemons.rosz's Daemon Beasts (10 models, 320 points, their default weapon) and the catalog's datasheet at 10
    models: the same points (20 + 10 x 30), statline and weapon blocks."""
    reading = read_roster_units(DAEMONS)
    roster_unit = next(u for u, label in zip(reading.units, reading.labels, strict=True) if label == BEASTS)
    mine = hh3_fielded_datasheet({"name": BEASTS, "size": 10})
    assert mine.edition == roster_unit.edition == "hh3"
    assert mine.points == roster_unit.points == 320.0
    assert [g.count for g in mine.groups] == [g.count for g in roster_unit.groups] == [10]
    assert mine.groups[0].hh3_statline.as_block() == roster_unit.groups[0].hh3_statline.as_block()
    assert [(a.profile.as_block(), a.weapon, a.count) for a in mine.groups[0].arms] == [
        (a.profile.as_block(), a.weapon, a.count) for a in roster_unit.groups[0].arms
    ]


def test_sizes_points_and_the_slot_that_grows() -> None:
    """Lasrifle Section: 1 Sergeant and 9 Auxiliaries for 50 points; 15 models add 5 Auxiliaries at 4 points."""
    unit = hh3_fielded_datasheet({"name": INFANTRY, "size": 15})
    assert [(g.model, g.count) for g in unit.groups] == [("Auxilia Sergeant", 1), ("Auxiliary", 14)]
    assert unit.points == 50 + 5 * 4
    with pytest.raises(ScenarioError, match="takes 10 to 20 models, got 25"):
        hh3_fielded_datasheet(INFANTRY, size=25)


def test_an_option_takes_the_place_of_its_groups_default() -> None:
    """Leman Russ Strike Tank: a turret weapon replaces the Battlecannon, a hull weapon the Heavy bolter, a pintle
    weapon is added; each at its cost."""
    sheet = hh3_datasheet_row(VEHICLE)
    options = hh3_options(sheet)

    def weapons(label: str | None) -> tuple[set[str], float]:
        option = hh3_option_named(options, label) if label else None
        unit = hh3_fielded_datasheet(VEHICLE, option=option)
        return {a.weapon for g in unit.groups for a in g.arms}, unit.points

    assert weapons(None) == ({"Battlecannon", "Heavy bolter"}, 140.0)
    assert weapons("Twin lascannon") == ({"Twin lascannon", "Heavy bolter"}, 140.0)
    lascannon = next(o for o in options if o.option == "Lascannon")
    assert weapons("Lascannon") == ({"Battlecannon", "Lascannon"}, 140.0 + lascannon.points)
    assert weapons("Heavy Stubber") == ({"Battlecannon", "Heavy bolter", "Heavy Stubber"}, 145.0)


# --- praetor wargear --edition hh3 -------------------------------------------------------------------------
def test_wargear_pinned_infantry_in_melee(capsys: pytest.CaptureFixture[str]) -> None:
    """Daemon Beasts (3 models, A 3, Maw & talon: S 5, AP 4, D 2, Breaching (6+)) charging 10 Legionaries (WS 4, T 4,
    W 1, Sv 3+). By hand: 9 attacks x P(hit, WS 4 v WS 4: 4+) 1/2 x P(unsaved) (a 6 to wound breaches, 1/6; a 3-5
    wounds and the 3+ save fails 1/3: 3/6 x 1/3) = 9 x 1/2 x 1/3 = 1.5 Legionaries (at most 9 of 10: no cap)."""
    rows = _json(capsys, ["wargear", BEASTS, "--edition", "hh3", "--target", LEGIONARY, "--json"])
    melee = _row(rows, AS_FIELDED, "melee")
    assert melee["mean"] == pytest.approx(9 * (1 / 2) * (1 / 6 + 3 / 6 * 1 / 3), abs=1e-12)
    assert melee["unit_points"] == 110.0  # 20 for the unit + 3 x 30


def test_wargear_pinned_vehicle_equals_calc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The Strike Tank's hull Lascannon at a Rhino (Front 12): by hand P(hit, BS 3: 4+) 1/2 x P(9 + D6 >= 12,
    Armourbane: equal penetrates) 4/6 x 1 hull point (D 1) = 1/3, plus the Battlecannon (RS 8, D 2, its Blast one
    Hit Test at a vehicle: docs/rules-hh3.md#markers-and-templates) 1/2 x P(8 + D6 > 12) 2/6 x 2 = 1/3: 2/3 in
    all (at most 3 of the Rhino's 5 hull points, so the means add); the Heavy bolter it replaces (RS 5) never
    penetrates, so the gain is the Lascannon's 1/3; and ``praetor calc`` of the volleys the unit fires gives the
    same number."""
    rows = _json(capsys, ["wargear", VEHICLE, "--edition", "hh3", "--target", "Rhino", "--json"])
    lascannon = next(r for r in rows if r["option"] == "Lascannon" and r["group"] == "Auxilia Hull Weapons")
    assert lascannon["mean"] == pytest.approx(1 / 2 * 4 / 6 + 1 / 2 * 2 / 6 * 2, abs=1e-12)
    assert lascannon["points"] == 10.0 and lascannon["gain_per_100_pts"] == pytest.approx(100 * (1 / 3) / 10)
    label, target = hh3_standard_targets()[4]
    assert label == "Rhino"
    option = hh3_option_named(hh3_options(hh3_datasheet_row(VEHICLE)), "Lascannon")
    volleys = [s.to_block() for s in hh3_volleys(hh3_fielded_datasheet(VEHICLE, option=option), target).shots]
    doc = tmp_path / "lascannon.json"
    doc.write_text(json.dumps({"edition": "hh3", "firing_units": [volleys], "target": dict(target.block)}))
    result = _json(capsys, ["calc", str(doc)])
    assert result["hull_points"]["mean"] == pytest.approx(lascannon["mean"], abs=1e-12)


def test_wargear_and_roster_give_the_same_number_for_the_same_unit(capsys: pytest.CaptureFixture[str]) -> None:
    """``praetor roster Daemons.rosz`` and ``praetor wargear 'Ruinstorm Daemon Beasts' --size 10`` (the roster's
    loadout is the datasheet's default) rate the unit alike, under the same name, in both phases."""
    roster = _json(capsys, ["roster", str(DAEMONS), "--json", "--target", LEGIONARY])
    mine = _json(capsys, ["wargear", BEASTS, "--edition", "hh3", "--size", "10", "--target", LEGIONARY, "--json"])
    for phase in ("shooting", "melee"):
        theirs = next(r for r in roster if r["unit"] == BEASTS and r["phase"] == phase)
        assert _row(mine, AS_FIELDED, phase)["mean"] == pytest.approx(theirs["mean"], abs=1e-12)
        assert _row(mine, AS_FIELDED, phase)["unit_points"] == theirs["points"]


def test_wargear_names_every_option_it_does_not_rate() -> None:
    """A dangling link, an option without a weapon and an option the data hides are named, never dropped; the
    defaults are the as-fielded rows."""
    frame, target = edition_wargear(INFANTRY, LEGIONARY, edition="hh3")
    assert target == LEGIONARY
    notes = dict(zip(frame["option"], frame["note"], strict=False))
    assert "resolves nowhere" in notes["Prime Unit"]
    assert "carries no weapon" in notes["Auxilia vexilla"]
    offered = {o.option for o in hh3_options(hh3_datasheet_row(INFANTRY)) if not o.in_default_loadout}
    assert offered <= set(frame["option"])
    hidden, _ = edition_wargear("Infantry Troop", LEGIONARY, edition="hh3")
    assert hidden["note"].astype(str).str.contains("hidden in the data").any()


@pytest.mark.parametrize("datasheet", [INFANTRY, VEHICLE])
def test_every_command_on_a_3rd_edition_datasheet(
    datasheet: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """wargear (screen, --all, --json, --csv), sweep of the datasheet (and its options): exit 0, the same rows."""
    argv = ["wargear", datasheet, "--edition", "hh3", "--target", "Rhino"]
    assert main(argv) == 0
    screen = capsys.readouterr().out
    assert screen.startswith(f"{datasheet} against Rhino:") and "3rd edition" in screen
    assert main([*argv, "--all"]) == 0
    assert "Not rated" in capsys.readouterr().out
    rows = _json(capsys, [*argv, "--json", "--csv", str(tmp_path / "w.csv")])
    with (tmp_path / "w.csv").open(encoding="utf-8") as fh:
        assert len(list(csv.DictReader(fh))) == len(rows)
    out = tmp_path / "sweep"
    assert (
        main(["sweep", "--edition", "hh3", "Solar Auxilia", "--datasheets", datasheet, "-o", str(out), "--quiet"]) == 0
    )
    capsys.readouterr()
    table = pd.read_parquet(out)
    assert set(table["datasheet"]) == {datasheet} and table["error"].isna().all()
    default = table[(table["variant"] == "default") & (table["target"] == "Rhino") & (table["phase"] == "shooting")]
    assert default["mean"].iloc[0] == pytest.approx(_row(rows, AS_FIELDED, "shooting")["mean"], abs=1e-12)


# --- praetor sweep --edition hh3 ---------------------------------------------------------------------------
def test_sweep_of_3rd_edition_datasheets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Both datasheets and every single option against the 3rd edition's standard targets; the vehicle's melee rows
    have the reason 'no melee weapon' (no error); the Lascannon variant's figure is wargear's; a second run keeps
    every part."""
    out = tmp_path / "sweep"
    argv = ["sweep", "--edition", "hh3", "Solar Auxilia", "--datasheets", INFANTRY, VEHICLE, "-o", str(out), "--quiet"]
    assert main(argv) == 0
    assert "2 parts (0 kept" in capsys.readouterr().out
    table = pd.read_parquet(out)
    assert set(table["target"]) == {label for label, _ in hh3_standard_targets()}
    assert table["error"].isna().all()
    tank_melee = table[(table["datasheet"] == VEHICLE) & (table["phase"] == "melee")]
    assert (tank_melee["reason"] == "no melee weapon").all() and tank_melee["mean"].isna().all()
    squad_melee = table[(table["datasheet"] == INFANTRY) & (table["phase"] == "melee")]
    assert squad_melee["reason"].isna().all() and squad_melee["mean"].notna().all()
    variants = set(table.loc[table["datasheet"] == VEHICLE, "variant"])
    assert {"default", "Lascannon", "Heavy flamer", "Heavy flamer [Auxilia Pintle Weapons]"} <= variants
    lascannon = table[(table["variant"] == "Lascannon") & (table["target"] == "Rhino")]
    assert lascannon["mean"].iloc[0] == pytest.approx(2 / 3, abs=1e-12)  # wargear's figure (above)
    assert lascannon["attacker_points"].iloc[0] == 150.0
    assert main(argv) == 0
    assert f"all 2 parts already written; {len(table)} rows" in capsys.readouterr().out  # nothing left to do


def test_a_legions_sweep_and_its_refusals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A Legion named without its numeral is its catalogue; another Legion's --legion, or a faction of the other
    edition, is refused in one line naming it."""
    from praetor_analysis.analysis import sweep_tasks

    tasks = sweep_tasks("Alpha Legion", edition="hh3")
    assert {t.faction for t in tasks} == {"XX - Alpha Legion"} and {t.legion for t in tasks} == {"Alpha Legion"}
    assert all(t.edition == "hh3" for t in tasks) and tasks[0].token != sweep_tasks("Alpha Legion")[0].token
    out = str(tmp_path / "x")
    err = _one_line_error(capsys, ["sweep", "--edition", "hh3", "Alpha Legion", "--legion", "Dark Angels", "-o", out])
    assert "'Dark Angels'" in err and "not 'Alpha Legion'" in err
    err = _one_line_error(capsys, ["sweep", "--edition", "hh3", "Legiones Astartes", "-o", out])
    assert "'Legiones Astartes' is not a faction of edition 3; it is one of edition 2" in err
    err = _one_line_error(capsys, ["sweep", "Legio Custodes", "-o", out])
    assert "is not a faction of edition 2; it is one of edition 3" in err


# --- mixed editions ----------------------------------------------------------------------------------------
def test_mixed_editions_are_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _one_line_error(capsys, ["wargear", INFANTRY, "--target", "Legionary"])
    assert f"datasheet: {INFANTRY!r} is not a datasheet of edition 2; it is one of edition 3" in err
    err = _one_line_error(capsys, ["wargear", "Tactical Squad", "--edition", "hh3", "--target", "Rhino"])
    assert "'Tactical Squad' is not a datasheet of edition 3; it is one of edition 2" in err
    err = _one_line_error(capsys, ["wargear", INFANTRY, "--edition", "hh3", "--target", "Rhino", "--half-range"])
    assert "--half-range" in err
    err = _one_line_error(capsys, ["wargear", "Armillus Dynat", "--edition", "hh3", "--target", "Rhino",
                                   "--legion", "Dark Angels"])  # fmt: skip
    assert "XX - Alpha Legion, not of I - Dark Angels" in err
    own, _ = edition_wargear({"name": "Armillus Dynat", "legion": "Alpha Legion"}, "Rhino", edition="hh3")
    assert (own["option"] == AS_FIELDED).any()  # its own Legion: offered
    html = str(tmp_path / "r.html")
    err = _one_line_error(capsys, ["report", "--edition", "hh2", "--roster", str(DAEMONS), "-o", html])
    assert "Daemons.rosz is a roster of edition 3" in err
    err = _one_line_error(capsys, ["report", "--edition", "hh3", "--weapons", "Bolter", "-o", html])
    assert "--weapons" in err
    sweep_dir = str(tmp_path / "s")
    hh2 = Path(__file__).parent / "fixtures" / "rosters" / "hh2" / "HH2 - Dark Angels.rosz"
    err = _one_line_error(
        capsys, ["sweep", "--edition", "hh3", "Solar Auxilia", "--targets", str(hh2), "-o", sweep_dir]
    )
    assert hh2.name in err and "edition 2" in err


# --- praetor report --edition hh3 --------------------------------------------------------------------------
def test_the_3rd_editions_default_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With no roster: the iconic datasheets per 100 points at the targets asked for; the Lascannon row is
    wargear's figure (2/3 hull point of a Rhino for 150 points: the Lascannon's 1/3 and the Battlecannon's 1/3)."""
    out = tmp_path / "r.html"
    assert main(["report", "--edition", "hh3", "--targets", "Rhino", LEGIONARY, "-o", str(out)]) == 0
    capsys.readouterr()
    page = out.read_text(encoding="utf-8")
    assert "3rd edition" in page and INFANTRY in page and VEHICLE in page
    assert "best datasheet per target" in page
    table = hh3_per_point_table()
    row = table[(table["label"] == "Lascannon") & (table["target"] == "Rhino")].iloc[0]
    assert row["mean"] == pytest.approx(2 / 3, abs=1e-12) and row["points"] == 150.0
    assert row["per_100_pts"] == pytest.approx(100 * 2 / 3 / 150, abs=1e-12)
    # every row computed but the melee rows of a datasheet none of whose models strikes (a tank), and the shooting
    # rows of one none of whose models carries a ranged weapon (the Lesser Daemons), which say so
    said = table["error"].fillna("").astype(bool)
    why = {(str(r.label), str(r.phase)): str(r.error) for r in table[said].itertuples()}
    assert set(why) == {("Leman Russ Strike Tank", "melee"), ("Ruinstorm Lesser Daemons", "shooting")}
    assert "has no weapon for the shooting phase" in why["Ruinstorm Lesser Daemons", "shooting"]
    melee = said & (table["phase"] == "melee")
    assert table.loc[melee, "error"].str.contains("has no model that fights in melee").all()
    assert table.loc[said & ~melee, "error"].str.contains("has no weapon for the shooting phase").all()


def test_a_3rd_edition_sweep_against_a_faction_and_a_roster_of_its_edition() -> None:
    """The field may be a faction of the 3rd edition (its datasheets as fielded, each read as a target at its points)
    or a 3rd-edition roster; the points removed are counted against the target's points."""
    from praetor_analysis.analysis import sweep_faction

    field = sweep_faction("Alpha Legion", "faction:Knights-Errant", datasheets=["Saboteur"], edition="hh3")
    assert set(field["target"]) == {"Nathaniel Garro", "Tylos Rubio"} and field["error"].isna().all()
    assert (field["target_points"] > 0).all() and field["points_removed"].notna().all()
    small = FIXTURES / "Small Game.rosz"
    roster = sweep_faction("Alpha Legion", f"roster:{small}", datasheets=["Saboteur"], edition="hh3")
    assert set(roster["target"]) == set(read_roster_units(small).labels) and roster["error"].isna().all()
