"""Defects a new user met following the README from a clean clone (each pinned here so it stays fixed)."""

from __future__ import annotations


def test_read_sweep_is_on_the_analysis_face() -> None:
    """README: ``praetor_analysis.analysis.read_sweep(FOLDER)`` reads a sweep's dataset."""
    from praetor_analysis.analysis import read_sweep, sweep_dataset

    assert read_sweep is sweep_dataset.read_sweep


def test_a_3rd_edition_model_without_a_ranged_weapon_is_named() -> None:
    """Daemons.rosz: Lesser Daemons carry no ranged weapon; their shooting row has no number and says why, not
    silently (a row without a number: ``mean`` empty, ``error`` and ``no_weapon`` set)."""
    from pathlib import Path

    from praetor_analysis.analysis import rate_roster

    frame = rate_roster(Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Daemons.rosz", "Rhino")
    rows = frame[(frame["unit"] == "Ruinstorm Lesser Daemons (1)") & (frame["phase"] == "shooting")]
    (notes,) = rows["notes"].tolist()
    assert rows["mean"].isna().tolist() == [True] and rows["no_weapon"].tolist() == [True]
    assert "has no weapon for the shooting phase" in rows["error"].iloc[0]
    assert [n for n in notes if n.endswith(": no ranged weapon")], notes
    armed = frame[(frame["unit"] == "Ruinstorm Lesser Daemons (3)") & (frame["phase"] == "shooting")]
    assert not [n for ns in armed["notes"] for n in ns if n.endswith(": no ranged weapon")]  # it has one
    assert armed["mean"].tolist() == [0.0] and armed["no_weapon"].tolist() == [False]
