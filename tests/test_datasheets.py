"""Datasheets from the BattleScribe selection tree: model counts, points, wargear, and the roster check."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from fixture_files import HH2_ROSTERS

import praetor_analysis as pa
from praetor_analysis.bsdata.roster import read_roster
from praetor_analysis.bsdata.roster_costs import price_roster
from praetor_analysis.catalog import load_datasheet_models, load_weapons

ROSTER_FILES = HH2_ROSTERS


@pytest.fixture(scope="module")
def tables() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    return pa.load_datasheets(), load_datasheet_models(), pa.load_wargear_options()


def test_columns_and_counts(tables: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]) -> None:
    sheets, models, options = tables
    for col in ("name", "faction", "min_models", "max_models", "base_points", "points_per_model"):
        assert col in sheets.columns
    assert len(sheets) > 400
    assert (sheets["min_models"] >= 1).all()
    assert (sheets["max_models"] >= sheets["min_models"]).all()
    assert (sheets["base_points"] >= 0).all()
    assert sheets["name"].str.strip().ne("").all()
    assert set(models["datasheet"]) <= set(sheets["name"])
    assert {"option", "replaces", "points", "weapons"} <= set(options.columns)


def test_tactical_squad(tables: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]) -> None:
    # Values from 2022 - Legiones Astartes.cat, entry aa72-63e4-bc60-4611: unit cost 10, a Sergeant
    # at 0 and a Legionaries group of 9-19 at 10 each; the Sergeant's Power Fist option costs 15.
    sheets, models, options = tables
    row = sheets[(sheets["name"] == "Tactical Squad") & (sheets["faction"] == "Legiones Astartes")].iloc[0]
    assert (row["min_models"], row["max_models"]) == (10, 20)
    assert (row["base_points"], row["points_per_model"]) == (100.0, 10.0)
    sarge = models[(models["datasheet"] == "Tactical Squad") & (models["model"] == "Legion Tactical Sergeant")]
    assert "Bolter" in sarge.iloc[0]["default_weapons"].split("; ")
    fist = options[
        (options["datasheet"] == "Tactical Squad")
        & (options["model"] == "Legion Tactical Sergeant")
        & (options["option"] == "Power Fist")
    ]
    assert fist.iloc[0]["points"] == 15.0
    assert fist.iloc[0]["weapons"] == "Power Fist"
    pistol = options[(options["datasheet"] == "Tactical Squad") & (options["option"] == "Plasma Pistol")]
    assert pistol.iloc[0]["replaces"] == "Bolt Pistol"


def test_weapon_keys_resolve(tables: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]) -> None:
    _, models, options = tables
    weapons = load_weapons()
    keys = set(weapons["source"] + ":" + weapons["profile_id"])
    used = {k for text in [*models["default_weapon_ids"], *options["weapon_ids"]] for k in text.split(";") if k}
    assert used and used <= keys


@pytest.mark.parametrize("path", ROSTER_FILES, ids=lambda p: p.name)
def test_roster_totals_reproduced(path: Path, tables: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]) -> None:
    priced = price_roster(path, *tables)
    assert len(priced) > 0
    assert (priced["unmatched"] == "").all()
    pd.testing.assert_series_equal(priced["datasheet_points"], priced["roster_points"], check_names=False)
    assert priced["datasheet_points"].sum() == read_roster(path).points
