"""Wargear per point at its edges, in both editions: which rows an option has, their notes, the baseline rows, the
refusals, and the plain-text table (issue 38 item 6: each test kills mutants of ``analysis/wargear.py`` that
survived the other tests, named in docs/testing.md).

The facts read from the shipped data are named where they are used (a Hand Flamer is a shooting weapon; the
Armiger Moirax is a datasheet of two factions).
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from praetor_analysis.analysis import (
    AS_FIELDED,
    edition_wargear,
    hh3_targets_named,
    hh3_wargear_value,
    wargear_table,
    wargear_value,
)
from praetor_analysis.catalog import load_datasheets
from praetor_analysis.errors import ScenarioError


@pytest.fixture(scope="module")
def tactical_at_a_rhino() -> pd.DataFrame:
    return wargear_value("Tactical Squad", "Rhino", phases=["shooting"])


def test_a_shooting_option_that_changes_nothing_keeps_its_row(tactical_at_a_rhino: pd.DataFrame) -> None:
    """A Hand Flamer (S 3) cannot hurt a Rhino (AV 11): its row stays, gain 0, saying the unit fires another
    weapon; nothing offered is dropped. A weapon the unit fires has no note."""
    rows = tactical_at_a_rhino.set_index("option")
    flamer = rows.loc["Hand Flamer"]
    assert flamer["phase"] == "shooting" and flamer["gain"] == 0.0
    assert flamer["note"] == "carried but not used here: another weapon does more"
    melta = rows.loc["Magna Combi-Weapon - Meltagun"]
    assert melta["gain"] > 0 and melta["note"] == ""
    assert all(isinstance(n, str) for n in tactical_at_a_rhino["note"])


def test_edition_wargear_names_the_target_as_target_named_does(tactical_at_a_rhino: pd.DataFrame) -> None:
    frame, label = edition_wargear("Tactical Squad", "Rhino", phases=["shooting"])
    assert label == "Rhino"
    pd.testing.assert_frame_equal(frame, tactical_at_a_rhino)


def test_a_3rd_edition_name_is_refused_by_the_2nd_editions_wargear() -> None:
    with pytest.raises(ScenarioError) as info:
        wargear_value("Lasrifle Section", "Rhino")
    assert info.value.field == "datasheet" and info.value.value == "Lasrifle Section"
    assert "(--edition hh3)" in str(info.value)


@pytest.fixture(scope="module")
def lasrifles() -> pd.DataFrame:
    return edition_wargear("Lasrifle Section", "Legionary (Tactical Squad)", edition="hh3")[0]


def test_a_3rd_edition_option_has_rows_only_where_it_acts(lasrifles: pd.DataFrame) -> None:
    """A Hand flamer (a pistol: shooting only) is rated in shooting and a Power fist in melee; neither has a row in
    the other phase, where it changes nothing."""
    assert set(lasrifles.loc[lasrifles["option"] == "Hand flamer", "phase"]) == {"shooting"}
    assert set(lasrifles.loc[lasrifles["option"] == "Power fist", "phase"]) == {"melee"}


def test_the_3rd_editions_baseline_rows_and_notes(lasrifles: pd.DataFrame) -> None:
    fielded = lasrifles[lasrifles["option"] == AS_FIELDED]
    assert sorted(fielded["phase"]) == ["melee", "shooting"]
    assert set(fielded["replaces"]) == {""} and set(fielded["note"]) == {"the datasheet's default wargear"}
    assert set(fielded["gain"]) == {0.0} and set(fielded["points"]) == {0.0}
    # Melta bombs: a cost the data changes by a condition, named beside the row's own note
    bombs = lasrifles.loc[lasrifles["option"] == "Melta bombs", "note"].iloc[0]
    assert bombs.endswith("cost as written (the data changes it by a condition)")


def test_a_3rd_edition_datasheet_of_two_factions_is_rated_with_its_faction() -> None:
    sheets = load_datasheets("hh3")
    factions = sorted(sheets.loc[sheets["name"] == "Armiger Moirax", "faction"])
    assert len(factions) == 2  # the shipped data has it in two factions
    target = hh3_targets_named("Rhino")[0]
    with pytest.raises(ScenarioError, match="several factions"):
        hh3_wargear_value("Armiger Moirax", target)
    frame = hh3_wargear_value({"name": "Armiger Moirax", "faction": factions[0]}, target, phases=["shooting"])
    assert (frame["option"] == AS_FIELDED).sum() == 1 and not frame["note"].str.startswith("not taken").any()


def test_an_unknown_3rd_edition_datasheet_is_refused_naming_the_field() -> None:
    with pytest.raises(ScenarioError) as info:
        hh3_wargear_value("Nobody", hh3_targets_named("Rhino")[0])
    assert info.value.field == "datasheet" and str(info.value).startswith("datasheet: ")


def test_the_wargear_table_shows_three_decimals_and_names_the_unrated() -> None:
    frame = pd.DataFrame(
        [
            {"option": "Gun", "model": "Sergeant", "points": 5.0, "phase": "shooting", "mean": 0.5, "gain": 0.25,
             "gain_per_100_pts": 5.0, "per_100_pts": 1.0 / 3.0, "note": ""},
            {"option": AS_FIELDED, "model": "", "points": 0.0, "phase": "shooting", "mean": 0.25, "gain": 0.0,
             "gain_per_100_pts": math.nan, "per_100_pts": 0.25, "note": ""},
            {"option": "Banner", "model": "Legionary", "points": math.nan, "phase": "", "mean": math.nan,
             "gain": math.nan, "gain_per_100_pts": math.nan, "per_100_pts": math.nan, "note": "carries no weapon"},
        ]
    )  # fmt: skip
    lines = wargear_table(frame).splitlines()
    assert lines[0].split() == ["option", "model", "pts", "phase", "mean", "gain", "gain/100", "pts", "unit/100",
                                "pts"]  # fmt: skip
    assert lines[1].split() == ["Gun", "Sergeant", "+5", "shooting", "0.500", "0.250", "5.000", "0.333"]
    assert lines[2].split()[-2:] == ["free", "0.250"]  # no gain per point for a free option
    assert lines[3] == "not rated, carries no weapon (1): Banner (Legionary)"


def test_an_option_on_a_unit_with_no_ranged_weapon_gains_all_it_removes() -> None:
    # a Ruinstorm Daemon Sovereign carries no ranged weapon (the shipped 2nd-edition data): its own shooting row has
    # no number and says why; a power it may take (Dark Flame) gains all it removes, from 0, not from "no number"
    frame = wargear_value("Ruinstorm Daemon Sovereign", "Legionary", phases=["shooting"])
    base = frame[frame["option"] == AS_FIELDED].iloc[0]
    assert math.isnan(base["mean"]) and "has no weapon for the shooting phase" in base["note"]
    flame = frame[frame["option"] == "Dark Flame"].iloc[0]
    assert flame["base_mean"] == 0.0 and flame["gain"] == flame["mean"] > 0
