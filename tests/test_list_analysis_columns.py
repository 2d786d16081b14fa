"""``analyse_roster`` of a 2nd-edition roster: each unit's rows carry its force and the rules its rating did not
model, in the list's columns (the fixture ``tests/fixtures/rosters/hh2/HH2 - Dark Angels.rosz``, source in
``tests/fixtures/README.md``: 16 units in one force, an Assault Squad with Warhawk jump packs)."""

from __future__ import annotations

from pathlib import Path

from praetor_analysis.analysis import analyse_roster
from praetor_analysis.analysis.list_analysis import LIST_COLUMNS
from praetor_analysis.bsdata import read_roster
from praetor_analysis.catalog import load_targets

ROSTER = Path(__file__).parent / "fixtures" / "rosters" / "hh2" / "HH2 - Dark Angels.rosz"


def test_each_units_rows_carry_its_force_and_what_was_not_modelled() -> None:
    roster = read_roster(ROSTER)
    targets = load_targets()
    targets = targets[targets["name"] == "Legionary"].drop_duplicates("name")
    frame = analyse_roster(roster, targets, phases=("shooting",))
    assert list(frame.columns) == LIST_COLUMNS
    assert list(frame.index) == list(range(len(frame)))  # the units' rows then the whole list's, numbered once
    units = frame[frame["unit"] != "Whole list"]
    assert len(units) == len(roster.units) == 16
    assert list(units["force"]) == [u.force for u in roster.units]
    assert set(units["force"]) == {"Crusade Force Organisation Chart"}
    jump = units[units["unit"] == "Assault Squad"]["not_modelled"].iloc[0]
    assert "Warhawk Jump Pack" in str(jump) and "not applied" in str(jump)
