"""The ratings' targets by name and the rows of a pair that cannot be computed (issue 38 item 6: each test kills
mutants of ``analysis/unit_ratings.py`` that survived the other tests, named in docs/testing.md)."""

from __future__ import annotations

import math

import pytest

from praetor_analysis.analysis import hh3_targets_named, target_named
from praetor_analysis.analysis.unit_ratings import rate
from praetor_analysis.errors import ScenarioError
from praetor_analysis.units import fielded_unit


def test_a_datasheet_target_takes_its_size_and_refuses_one_out_of_bounds() -> None:
    label, unit = target_named("Tactical Squad", 12)
    assert (label, unit.models) == ("Tactical Squad", 12)
    # a datasheet's size is its field (the data: a Tactical Squad takes 10 to 20 models)
    with pytest.raises(ScenarioError, match=r"^--target\.size: Tactical Squad takes 10-20 models, got 7$"):
        target_named("Tactical Squad", 7)


def test_an_unknown_target_is_refused_naming_the_option() -> None:
    with pytest.raises(ScenarioError, match="^--target: no unit profile or standard target named 'Nobody'"):
        target_named("Nobody")
    with pytest.raises(ScenarioError) as info:
        hh3_targets_named("Nobody")
    labels = [label for label, _ in hh3_targets_named()]
    assert info.value.field == "--target" and f"(known: {', '.join(labels)})" in str(info.value)


def test_a_pair_of_two_editions_is_an_error_row_of_its_measure() -> None:
    """A 2nd-edition unit against 3rd-edition targets: each pair's row carries the error, NaN numbers and the
    measure of its target (models for infantry, hull points for a vehicle)."""
    unit = fielded_unit({"name": "Tactical Squad"})
    targets = [hh3_targets_named("Legionary (Tactical Squad)")[0], hh3_targets_named("Rhino")[0]]
    frame = rate(unit, targets, phases=["shooting"])
    assert list(frame["measure"]) == ["casualties", "hull_points"]
    assert frame["error"].str.contains("different editions").all()
    assert all(math.isnan(m) for m in frame["mean"])
