"""Defects a new user met following the README from a clean clone (each pinned here so it stays fixed)."""

from __future__ import annotations


def test_read_sweep_is_on_the_analysis_face() -> None:
    """README: ``praetor_analysis.analysis.read_sweep(FOLDER)`` reads a sweep's dataset."""
    from praetor_analysis.analysis import read_sweep, sweep_dataset

    assert read_sweep is sweep_dataset.read_sweep
