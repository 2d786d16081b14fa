"""The per-point table's rows say what they are (issue 38 item 6, "mutants die": the row kind survived): an
iconic weapon's row is a ``weapon`` row, a datasheet as fielded a ``unit`` row; each row names its datasheet,
its loadout ("N models, options" or "as fielded"), the catalog weapons it prices, and is rated in its phases only;
a row the data refuses keeps its label with the error."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from praetor_analysis.analysis.per_point import ICONIC_UNITS, PER_POINT_COLUMNS, Fielded, per_point_table
from praetor_analysis.analysis.unit_ratings import target_named

LASCANNON = Fielded("Lascannon", {"name": "Heavy Support Squad", "loadout": ["Lascannon"]}, weapons=("Lascannon",))
PRAETOR = Fielded("Praetor", {"name": "Praetor", "size": 1}, ("melee",))
TACTICAL = ICONIC_UNITS[0]


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return per_point_table([target_named("Rhino")], rows=[LASCANNON, TACTICAL, PRAETOR])


def test_each_row_says_its_kind_loadout_and_weapons(frame: pd.DataFrame) -> None:
    assert list(frame.columns) == PER_POINT_COLUMNS
    got = {
        (r["label"], r["phase"]): (r["kind"], r["datasheet"], r["loadout"], r["weapon_names"])
        for _, r in frame.iterrows()
    }
    assert got == {
        ("Lascannon", "shooting"): ("weapon", "Heavy Support Squad", "5 models, Lascannon", "Lascannon"),
        ("Tactical Squad", "shooting"): ("unit", "Tactical Squad", "10 models, as fielded", ""),
        ("Tactical Squad", "melee"): ("unit", "Tactical Squad", "10 models, as fielded", ""),
        ("Praetor", "melee"): ("weapon", "Praetor", "1 model, as fielded", ""),
    }
    assert (frame["target"] == "Rhino").all() and frame["error"].eq("").all()
    for _, r in frame.iterrows():
        assert r["points"] > 0 and math.isclose(r["per_100_pts"], 100 * r["mean"] / r["points"], rel_tol=1e-12)


def test_a_refused_row_keeps_its_label_and_says_why() -> None:
    bad = Fielded("Nothing", {"name": "Tactical Squad", "loadout": ["No Such Option"]}, weapons=("Bolter",))
    out = per_point_table([target_named("Rhino")], rows=[bad])
    assert list(out.columns) == PER_POINT_COLUMNS and len(out) == 1
    row = out.iloc[0]
    assert (row["kind"], row["label"], row["datasheet"], row["weapon_names"], row["loadout"]) == (
        "weapon",
        "Nothing",
        "Tactical Squad",
        "Bolter",
        "",
    )
    assert math.isnan(row["points"]) and "No Such Option" in row["error"]


def test_no_rows_is_an_empty_table_with_the_columns() -> None:
    out = per_point_table([target_named("Rhino")], rows=[])
    assert out.empty and list(out.columns) == PER_POINT_COLUMNS


def test_a_refused_row_does_not_stop_the_rows_after_it_and_names_the_field() -> None:
    bad = Fielded("Nothing", {"name": "Tactical Squad", "loadout": ["No Such Option"]}, weapons=("A", "B"))
    out = per_point_table([target_named("Rhino")], rows=[bad, LASCANNON])
    assert list(out["label"]) == ["Nothing", "Lascannon"]
    assert out.index.tolist() == list(range(len(out)))
    assert out["weapon_names"].iloc[0] == "A; B"
    assert out["error"].iloc[0].startswith("datasheet")


def test_a_loadout_of_options_given_as_blocks_is_named() -> None:
    row = Fielded("Two", {"name": "Heavy Support Squad", "loadout": [{"option": "Lascannon"}]})
    out = per_point_table([target_named("Rhino")], rows=[row])
    assert out["loadout"].iloc[0] == "5 models, Lascannon"


def test_half_range_is_passed_to_every_row_and_the_standard_targets_are_the_default() -> None:
    bolters = Fielded("Bolter", {"name": "Tactical Squad", "size": 10}, weapons=("Bolter",))
    target = [target_named("Legionary (Tactical Squad)")]
    far = per_point_table(target, rows=[bolters])
    near = per_point_table(target, rows=[bolters], half_range=True)
    assert near["mean"].iloc[0] > far["mean"].iloc[0]  # Rapid Fire: two shots at half range
    default = per_point_table(rows=[bolters])
    from praetor_analysis.analysis.unit_ratings import standard_targets

    assert list(default["target"]) == [label for label, _ in standard_targets()]
