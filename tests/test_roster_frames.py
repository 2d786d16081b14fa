"""The tables a roster is shown in (issue 38 item 6, "mutants die": their columns and defaults survived the
fast tests): ``roster_units_frame`` and ``roster_weapons_frame`` row by row against the roster records, the
ratings' plain-text table, and the 3rd edition's targets by name."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from defusedxml import ElementTree as SafeET

from praetor_analysis.analysis.unit_ratings import hh3_targets_named, rate_roster, roster_table
from praetor_analysis.bsdata.roster import read_roster, read_roster_bytes, roster_units_frame, roster_weapons_frame
from praetor_analysis.errors import ScenarioError

FIXTURES = Path(__file__).parent / "fixtures" / "rosters"
BASIC = FIXTURES / "hh2" / "Basic Marines Validate.test"
STATS = ["Unit Type", "Move", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Front", "Side", "Rear", "HP"]


@pytest.mark.parametrize("path", [*sorted((FIXTURES / "hh2").glob("*.ros*")), BASIC], ids=lambda p: p.name)
def test_the_units_frame_is_the_roster_row_by_row(path: Path) -> None:
    roster = read_roster(path)
    frame = roster_units_frame(roster)
    assert list(frame.columns) == ["unit_index", "unit", "force", "parent", "unit_points", "model", "count", *STATS]
    expected = [
        (i, u.name, u.force, u.parent, u.points, m.name, m.count, *(m.statline.get(c, "") for c in STATS))
        for i, u in enumerate(roster.units)
        for m in u.models or [None]
        if m is not None
    ]
    got = [tuple(r) for r in frame.itertuples(index=False) if r.model != ""]
    assert got == expected
    empty = frame[frame["model"] == ""]
    assert all(not roster.units[i].models for i in empty["unit_index"])
    assert (empty["count"] == 0).all() and (empty[STATS] == "").all().all()
    weapons = roster_weapons_frame(roster)
    assert list(weapons.columns[:3]) == ["unit_index", "unit", "count"]
    assert [(r.unit_index, r.name, r.count) for r in weapons.itertuples(index=False)] == [
        (i, w.profile["name"], w.count) for i, u in enumerate(roster.units) for w in u.weapons
    ]


def test_a_unit_without_models_is_one_empty_row() -> None:
    root = SafeET.fromstring(read_roster(BASIC).document)
    ns = "{http://www.battlescribe.net/schema/rosterSchema}"
    unit = next(s for s in root.iter(f"{ns}selection") if s.get("type") == "unit")
    for profiles in list(unit.iter(f"{ns}profiles")):
        profiles.clear()
    frame = roster_units_frame(read_roster_bytes(SafeET.tostring(root), "empty.ros"))
    row = frame[frame["unit"] == unit.get("name")].iloc[0]
    assert (row["model"], row["count"]) == ("", 0) and all(row[c] == "" for c in STATS)


def test_the_ratings_table_shows_each_row_with_its_columns() -> None:
    frame = rate_roster(FIXTURES / "hh2" / "Dedicated Transport Squad Costs.test", "Tactical Squad")
    text = roster_table(frame)
    lines = text.splitlines()
    assert len(lines) == len(frame) + 1
    assert lines[0].split() == ["unit", "points", "target", "phase", "mean", "P(any)", "per", "100", "pts", "weapons"]
    for line, (_, row) in zip(lines[1:], frame.iterrows(), strict=True):
        assert line.lstrip().startswith(row["unit"])  # no index column
        assert f" {row['points']:.0f} " in line and f" {row['phase']} " in line
        cell = "-" if math.isnan(row["per_100_pts"]) else f"{row['per_100_pts']:.3f}"
        assert f" {cell} " in line
    assert any(math.isnan(p) for p in frame["per_100_pts"])


def test_the_ratings_charge_by_default() -> None:
    path = FIXTURES / "hh2" / "Basic Marines Validate.test"
    default = rate_roster(path, "Tactical Squad")
    charging = rate_roster(path, "Tactical Squad", charging=True)
    standing = rate_roster(path, "Tactical Squad", charging=False)
    pd.testing.assert_frame_equal(default, charging)
    melee = default["phase"] == "melee"
    assert default[melee]["mean"].sum() > standing[standing["phase"] == "melee"]["mean"].sum()


def test_the_3rd_editions_targets_by_name_and_size() -> None:
    every = hh3_targets_named()
    assert every and len({label for label, _ in every}) == len(every)
    for label, target in every:
        by_label = hh3_targets_named(label.upper())
        by_name = hh3_targets_named(str(target.to_block().get("name", label)).lower())
        assert [t[0] for t in by_label] == [t[0] for t in by_name] == [label]
        ((_, sized),) = hh3_targets_named(label, 3)
        want = target.models if target.is_vehicle else 3
        assert sized.models == want and sized.to_block()["models"] == want and sized.is_vehicle == target.is_vehicle
        ((_, same),) = hh3_targets_named(label)
        assert same.models == target.models and same.to_block()["models"] == target.models
    with pytest.raises(ScenarioError, match="no 3rd-edition standard target 'Nope'") as info:
        hh3_targets_named("Nope")
    assert info.value.field == "--target"


def test_the_weapons_frame_has_every_profile_field() -> None:
    roster = read_roster(BASIC)
    weapons = roster_weapons_frame(roster)
    fields = ["name", "Range", "Strength", "AP", "Type", "Type_clean", "profile_type", "profile_id"]
    assert list(weapons.columns) == ["unit_index", "unit", "count", *fields]
    rows = [tuple(r) for r in weapons[fields].itertuples(index=False)]
    assert rows == [tuple(w.profile[f] for f in fields) for u in roster.units for w in u.weapons]


def test_a_rosters_ratings_take_the_targets_size() -> None:
    frame = rate_roster(BASIC, "Legionary (Tactical Squad)", models=5)
    assert set(frame["target_models"]) == {5}


def test_a_roster_priced_from_the_datasheets_names_each_unit() -> None:
    from praetor_analysis.bsdata.roster_costs import ROSTER_PRICE_COLUMNS, price_roster
    from praetor_analysis.catalog import load_datasheet_models, load_datasheets, load_wargear_options

    roster = read_roster(BASIC)
    priced = price_roster(BASIC, load_datasheets(), load_datasheet_models(), load_wargear_options())
    assert list(priced.columns) == ROSTER_PRICE_COLUMNS
    assert list(priced["unit"]) == [u.name for u in roster.units]
    assert list(priced["roster_points"]) == [u.points for u in roster.units]
    assert (priced["datasheet_points"] == priced["roster_points"]).all() and (priced["unmatched"] == "").all()
    sheets = load_datasheets()
    for _, row in priced.iterrows():
        assert ((sheets["name"] == row["datasheet"]) & (sheets["faction"] == row["faction"])).any()
