"""The 3rd edition's importer on libraries that lack what the shipped data always has: no unit at all, a model
outside any unit (issue 38 item 6: each test kills a mutant of ``bsdata/importer_hh3.py`` that survived the other
tests, named in docs/testing.md). The JSON documents are written here, in the BSData JSON shape."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from praetor_analysis.bsdata.game_system import HH3_SYSTEM_ID
from praetor_analysis.bsdata.importer_hh3 import HH3_UNIT_COLUMNS, build_hh3_catalog

BOLTER = {
    "id": "w-bolter",
    "name": "Bolter",
    "type": "upgrade",
    "profiles": [
        {
            "id": "p-bolter",
            "name": "Bolter",
            "typeName": "Ranged Weapon",
            "characteristics": [{"name": k, "$text": v} for k, v in (("R", "24"), ("FP", "2"), ("RS", "4"),
                                                                      ("AP", "5"), ("D", "1"), ("Traits", "Bolt"))],
        }
    ],
}  # fmt: skip
LONE_MODEL = {
    "id": "m-lone",
    "name": "Lone Sentry",
    "type": "model",
    "profiles": [
        {
            "id": "p-lone",
            "name": "Lone Sentry",
            "typeName": "Profile",
            "characteristics": [{"name": k, "$text": v} for k, v in (("Type", "Infantry"), ("M", "7"), ("WS", "4"),
                                                                      ("BS", "4"), ("S", "4"), ("T", "4"), ("W", "1"),
                                                                      ("I", "4"), ("A", "1"), ("LD", "7"))],
        }
    ],
}  # fmt: skip


def _library(folder: Path, *entries: dict[str, Any]) -> Path:
    doc = {"catalogue": {"id": "lib", "name": "Library", "gameSystemId": HH3_SYSTEM_ID, "library": True,
                         "sharedSelectionEntries": list(entries)}}  # fmt: skip
    folder.mkdir(parents=True)
    (folder / "Library.json").write_text(json.dumps(doc), encoding="utf-8")
    return folder


def _rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames or []), list(reader)


def test_a_library_without_units_writes_the_units_table_with_its_columns(tmp_path: Path) -> None:
    report = build_hh3_catalog(_library(tmp_path / "in", BOLTER), tmp_path / "out")
    assert report.weapon_profiles == 1 and report.unit_profiles == 0
    columns, rows = _rows(tmp_path / "out" / "units.csv")
    assert columns == HH3_UNIT_COLUMNS and rows == []


def test_a_model_outside_any_unit_has_no_unit_named(tmp_path: Path) -> None:
    build_hh3_catalog(_library(tmp_path / "in", LONE_MODEL, BOLTER), tmp_path / "out")
    _, rows = _rows(tmp_path / "out" / "units.csv")
    assert [(r["name"], r["entry"], r["unit"]) for r in rows] == [("Lone Sentry", "Lone Sentry", "")]


def test_a_model_slot_linked_without_limits_takes_its_targets(tmp_path: Path) -> None:
    """A unit's link to a shared model entry carries no constraint: the slot's min and max are the entry's own
    (2 to 5 here)."""
    trooper = {**LONE_MODEL, "id": "m-trooper", "name": "Trooper", "constraints": [
        {"type": "min", "value": 2, "field": "selections", "scope": "parent", "id": "c-min"},
        {"type": "max", "value": 5, "field": "selections", "scope": "parent", "id": "c-max"},
    ]}  # fmt: skip
    squad = {
        "id": "u-squad",
        "name": "Squad",
        "type": "unit",
        "entryLinks": [{"id": "l-trooper", "name": "Trooper", "type": "selectionEntry", "targetId": "m-trooper"}],
    }
    faction = {"catalogue": {"id": "cat", "name": "Test Faction", "gameSystemId": HH3_SYSTEM_ID,
                             "sharedSelectionEntries": [squad, trooper]}}  # fmt: skip
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "Test Faction.json").write_text(json.dumps(faction), encoding="utf-8")
    build_hh3_catalog(tmp_path / "in", tmp_path / "out")
    _, rows = _rows(tmp_path / "out" / "datasheet_models.csv")
    assert [(r["datasheet"], r["model"], float(r["min"]), float(r["max"])) for r in rows] == [
        ("Squad", "Trooper", 2.0, 5.0)
    ]
