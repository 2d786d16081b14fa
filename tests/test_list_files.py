"""A list from a file's bytes (``analysis.army_list.list_from_bytes``, what a sweep's worker reads) and its
table of units: a JSON list takes the file's name when it has none, an oversized one is refused naming the file,
and each unit's notes stay in the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from praetor_analysis.analysis.army_list import MAX_LIST_BYTES, list_from_bytes, units_frame
from praetor_analysis.errors import ScenarioError

SMALL = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Small Game.rosz"


def test_a_json_list_is_named_by_its_file_unless_it_names_itself() -> None:
    doc = {"units": ["Tactical Squad", "Praetor"]}
    assert list_from_bytes(json.dumps(doc).encode(), "my list.json").name == "my list"
    assert list_from_bytes(json.dumps({**doc, "name": "Named"}).encode(), "x.json").name == "Named"


def test_an_oversized_json_list_is_refused_naming_the_file() -> None:
    with pytest.raises(ScenarioError, match=rf"^big\.json: larger than {MAX_LIST_BYTES} bytes$"):
        list_from_bytes(b" " * (MAX_LIST_BYTES + 1), "big.json")


def test_the_units_table_of_a_list_and_of_a_roster() -> None:
    army = list_from_bytes(json.dumps({"units": ["Tactical Squad", "Praetor"]}).encode(), "a.json")
    frame = units_frame(army)
    assert list(frame.columns) == ["unit", "datasheet", "points", "models", "target_models", "vehicle", "notes"]
    assert list(frame["unit"]) == ["Tactical Squad", "Praetor"] and list(frame["notes"]) == ["", ""]
    roster = units_frame(list_from_bytes(SMALL.read_bytes(), SMALL.name))
    # the Small Game fixture (tests/fixtures/README.md): 6 units, 747 points; the Assault Squad's Sergeant is
    # read with its squad's Legionary profile, which its notes say
    assert len(roster) == 6 and roster["points"].sum() == 747
    notes = dict(zip(roster["unit"], roster["notes"], strict=True))
    assert notes["Assault Squad"].startswith("Assault Squad: read as a target of Legionary models")
