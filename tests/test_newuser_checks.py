"""Defects a new user met following the README from a clean clone (each pinned here so it stays fixed)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "rosters"
SMALL_GAME = FIXTURES / "hh3" / "Small Game.rosz"  # 3rd edition: two Rhinos, which do not strike in melee
DAEMONS = FIXTURES / "hh3" / "Daemons.rosz"  # 3rd edition: Lesser Daemons carry no ranged weapon


def test_read_sweep_is_on_the_analysis_face() -> None:
    """README: ``praetor_analysis.analysis.read_sweep(FOLDER)`` reads a sweep's dataset."""
    from praetor_analysis.analysis import read_sweep, sweep_dataset

    assert read_sweep is sweep_dataset.read_sweep


def test_a_row_without_a_result_says_why_in_roster_json() -> None:
    """``praetor roster --json``: a null row (a Rhino in melee) names why in ``not_modelled`` and ``reasons``."""
    from praetor_analysis.analysis import rate_roster
    from praetor_analysis.views import json_rows
    from praetor_analysis.views.text.json_out import NO_RESULT

    rows = json_rows(rate_roster(SMALL_GAME, "Rhino"))
    empty = [r for r in rows if r["mean"] is None]
    assert {r["unit"] for r in empty} == {"Rhino (1)", "Rhino (2)"}
    assert {r["phase"] for r in empty} == {"melee"}
    for row in empty:
        (note,) = [n for n in row["not_modelled"] if "fights in melee" in n]
        assert note.startswith("attacker: Rhino has no model that fights in melee")
        assert row["reasons"][note] == NO_RESULT
    rated = [r for r in rows if r["mean"] is not None]
    assert rated and not any(NO_RESULT in r["reasons"].values() for r in rated)


@pytest.mark.parametrize("unit", ["Ruinstorm Lesser Daemons (1)", "Ruinstorm Daemon Hierarch (1)"])
def test_a_3rd_edition_unit_without_a_ranged_weapon_says_so(unit: str) -> None:
    """A 3rd-edition unit with nothing to shoot is rated 0 with the note the 2nd edition gives, not silently."""
    from praetor_analysis.analysis import rate_roster

    frame = rate_roster(DAEMONS, "Rhino")
    row = frame[(frame["unit"] == unit) & (frame["phase"] == "shooting")].iloc[0]
    note = f"{unit.rsplit(' (', 1)[0]}: no weapon for the shooting phase"
    assert row["mean"] == 0.0
    assert note in row["notes"]
    assert note in row["reasons"]
