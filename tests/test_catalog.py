"""Tests for the shipped catalogs (praetor_analysis.catalog) and their reproducibility (importer)."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pandas as pd
import pytest
from fixture_files import COMMUNITY_DATA

from praetor_analysis.bsdata import PROFILE_KEY, distinct_profiles
from praetor_analysis.bsdata.importer import build_catalog
from praetor_analysis.catalog import (
    load_provenance,
    load_rule_names,
    load_targets,
    load_units,
    load_weapons,
)

BSDATA = COMMUNITY_DATA / "bsdata"
WEAPON_KEY = ["name", "Range", "Strength", "AP", "Type"]


def test_weapons_columns_and_count() -> None:
    weapons = load_weapons()
    for col in [*WEAPON_KEY, "source", "profile_id", "faction", "points"]:
        assert col in weapons.columns
    assert len(weapons[WEAPON_KEY].drop_duplicates()) >= 740
    assert not weapons[["source", "profile_id"]].duplicated().any()


def test_praetor_launcher() -> None:
    weapons = load_weapons()
    rows = weapons[weapons["name"] == "Praetor Launcher"]
    assert len(rows) >= 1
    for _, row in rows.iterrows():
        assert (row["Range"], row["Strength"], row["AP"]) == ('72"', "7", "4")
        assert row["Type"] == 'Ordnance 1, Barrage, Massive Blast (7"), Pinning, Rending (6+)'


def test_tactical_legionary_statline() -> None:
    units = load_units()
    row = units[
        (units["name"] == "Legionary")
        & (units["unit"] == "Tactical Squad")
        & (units["source"] == "2022 - Legiones Astartes")
    ].iloc[0]
    stats = [row[c] for c in ["WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save"]]
    assert stats == ["4", "4", "4", "4", "1", "4", "1", "7", "3+"]
    assert row["Invulnerable"] == ""


def test_rhino_armour() -> None:
    units = load_units()
    rhinos = units[units["name"] == "Legion Rhino Transport"]
    assert len(rhinos) >= 1
    for _, row in rhinos.iterrows():
        assert [row[c] for c in ["Front", "Side", "Rear", "HP"]] == ["11", "11", "10", "3"]


def test_profile_types_present() -> None:
    kinds = set(load_units()["profile_type"])
    assert {"Unit", "Vehicle", "Knights and Titans", "Fortification"} <= kinds


def test_targets_trace_to_unit_profiles() -> None:
    targets, units = load_targets(), load_units()
    assert len(targets) >= 10 and (targets["models"] >= 1).all()
    keyed = units.set_index(["source", "profile_id"])
    for _, row in targets.iterrows():
        source = keyed.loc[(row["source"], row["profile_id"])]
        source = source.iloc[0] if isinstance(source, pd.DataFrame) else source
        assert row["name"] == source["name"]
    by_name = targets.set_index("archetype")
    assert by_name.loc["Cataphractii Terminator", "Save"] == "2+"
    assert by_name.loc["Cataphractii Terminator", "Invulnerable"] == "4+"
    # The Ion Shield is mandatory wargear of the Knight Questoris (Mech Library catalogue): shipped as the
    # rule (4+ Front, 5+ Side, shooting only), not as a plain 4+ invulnerable save.
    knight = by_name.loc["Knight Questoris (ion shield)"]
    assert pd.isna(knight["Invulnerable"]) or knight["Invulnerable"] == ""
    assert knight["rules"] == "Ion Shield"
    assert by_name.loc["Militia (Infantry Squad)", "models"] == 20
    assert by_name.loc["Rhino", "Front"] == "11"


def test_no_rules_text_shipped() -> None:
    """Figures only: no long prose in any shipped column."""
    for frame in (load_weapons(), load_units(), load_targets()):
        for col in frame.select_dtypes(exclude="number").columns:
            if col == "note":
                continue
            assert frame[col].astype(str).str.len().max() < 130, col
            assert not frame[col].astype(str).str.contains("\n").any(), col


def test_provenance() -> None:
    prov = load_provenance()
    assert prov["commit"] == "068ff339b5e97c79c44b77522862da7941eb5315"
    assert prov["exception"]["file"] == "2022 - Legiones Astartes.cat"
    assert prov["counts"]["unresolved_links"] == 89 == len(prov["unresolved_links"])
    assert prov["counts"]["weapon_profiles"] == len(load_weapons())
    assert len(prov["files"]) == 34


def test_the_distinct_profiles_are_counted_one_way() -> None:
    # the import's "(N distinct)" (recorded in the provenance) and the README's coverage figure ("717 of the N
    # distinct weapon profiles", tests/test_coverage.py) count the same thing: rows of one Range, Strength, AP, Type
    distinct = len(distinct_profiles(load_weapons()))
    assert load_provenance()["counts"]["distinct_weapons"] == distinct
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    claimed = re.search(r"of the (\d+)\s+distinct weapon profiles", readme)
    assert claimed is not None and int(claimed.group(1)) == distinct
    weapons = load_weapons()
    assert len(weapons.drop_duplicates(["name", *PROFILE_KEY])) > distinct  # a name alone makes no new profile


def test_rule_names_are_names_only() -> None:
    names = load_rule_names()
    assert {"Rending", "Brutal", "Deflagrate", "Ordnance", "Assault", "Large Blast"} <= set(names["name"])
    assert names["name"].str.len().max() < 40


@pytest.mark.full_data
def test_shipped_catalog_is_reproducible(tmp_path: Path) -> None:
    report = build_catalog(BSDATA, tmp_path)
    assert report.files == 34 and len(report.unresolved) == 89
    # distinct profiles: Range, Strength, AP and Type, the name aside (767 counted with the names; bsdata.columns)
    assert report.distinct_weapons == len(distinct_profiles(load_weapons())) == 724
    data = resources.files("praetor_analysis.data")
    tables = ["datasheets.csv", "datasheet_models.csv", "wargear_options.csv"]  # the datasheet tables too
    for name in ["weapons.csv", "units.csv", "targets.csv", "rule_names.csv", *tables]:
        assert (tmp_path / name).read_bytes() == data.joinpath(name).read_bytes(), name
    # the provenance too, byte for byte (its layout, one key a line, is part of what is shipped)
    assert (tmp_path / "provenance.json").read_bytes() == data.joinpath("provenance.json").read_bytes()
    fresh = json.loads((tmp_path / "provenance.json").read_text(encoding="utf-8"))
    shipped = load_provenance()
    for key in ("files", "counts", "unresolved_links", "commit"):
        assert fresh[key] == shipped[key], key


@pytest.mark.full_data
def test_file_hashes_match_manifest() -> None:
    manifest = (BSDATA / "MANIFEST.md").read_text(encoding="utf-8")
    for name, info in load_provenance()["files"].items():
        assert f"`{name}` | {info['bytes']} | {info['sha256']}" in manifest, name


def test_shipped_knight_carries_its_ion_shield() -> None:
    """The Knight target named in a scenario gets the Ion Shield reading (docs/rules.md#ion-shield): the same
    result as its statline with ``"rules": ["Ion Shield"]``, and no plain invulnerable save on the Rear."""
    from praetor_analysis.scenario.calc import calc

    weapon = {"name": "Lascannon", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1"}
    statline = {"name": "Knight", "Unit Type": "Vehicle (Knight)", "Front": 13, "Side": 12, "Rear": 12, "HP": 7}
    for facing in ("Front", "Side", "Rear"):
        named = calc(
            {
                "mode": "shooting",
                "attacker": {"BS": 4},
                "weapon": weapon,
                "target": {"name": "Knight Questoris (ion shield)", "facing": facing},
            }
        )
        explicit = calc(
            {
                "mode": "shooting",
                "attacker": {"BS": 4},
                "weapon": weapon,
                "target": {**statline, "facing": facing, "rules": ["Ion Shield"]},
            }
        )
        bare = calc(
            {"mode": "shooting", "attacker": {"BS": 4}, "weapon": weapon, "target": {**statline, "facing": facing}}
        )
        assert "target: Ion Shield" in named["applied"]
        assert named["hull_points"]["pmf"] == explicit["hull_points"]["pmf"]
        shielded = facing != "Rear"
        assert (named["hull_points"]["mean"] < bare["hull_points"]["mean"]) is shielded
