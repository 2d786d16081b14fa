"""Every 3rd-edition fixture roster's ratings, and a matchup of two of them, pinned to the numbers main gave before
the unit attack was typed (issue 37: the attack's volleys were JSON documents sent through the door; now typed
records through the same stages): ``tests/fixtures/pinned/hh3_ratings_before_typed.json.gz``, written from main
65a8f75 by ``rate_roster`` of each roster and ``matchup(Real List, All Comers)``. Numbers to 1e-12, names, weapons
and errors exactly."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import pytest

from praetor_analysis.analysis.list_matchup import matchup
from praetor_analysis.analysis.unit_ratings import rate_roster
from praetor_analysis.scenario.hh3_door import calc_hh3_stages
from praetor_analysis.units import hh3_shooting, hh3_standard_targets, hh3_volleys
from praetor_analysis.units.fielded import read_roster_units

FIXTURES = Path(__file__).parent / "fixtures"
ROSTERS = FIXTURES / "rosters" / "hh3"
with gzip.open(FIXTURES / "pinned" / "hh3_ratings_before_typed.json.gz", "rt") as _f:
    PINNED: dict[str, Any] = json.load(_f)


def _same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, float) or isinstance(got, float):
        if want is None:
            assert got is None or math.isnan(got), where
        else:
            assert got == pytest.approx(want, abs=1e-12, rel=0), where
    elif isinstance(want, list):
        assert len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert got == want, where


def _value(v: Any) -> Any:
    if hasattr(v, "tolist"):
        return v.tolist()
    return v.item() if hasattr(v, "item") else v


@pytest.mark.parametrize("name", sorted(PINNED["ratings"]))
def test_a_rosters_ratings_are_as_pinned(name: str) -> None:
    frame = rate_roster(ROSTERS / name)
    columns = PINNED["rating_columns"]
    want = PINNED["ratings"][name]
    assert len(frame) == len(want) > 0
    for i, row in enumerate(frame[columns].itertuples(index=False)):
        _same([_value(v) for v in row], want[i], f"{name} row {i}")


@pytest.mark.slow
def test_a_matchup_is_as_pinned() -> None:
    m = matchup(ROSTERS / "Real List.rosz", ROSTERS / "All Comers.rosz")
    columns = PINNED["pair_columns"]
    assert len(m.pairs) == len(PINNED["pairs"]) > 0
    for i, row in enumerate(m.pairs[columns].itertuples(index=False)):
        _same([_value(v) for v in row], PINNED["pairs"][i], f"pair {i}")
    for plan, want in zip((p.to_dict() for p in m.plans), PINNED["plans"], strict=True):
        _same(plan["expected_points"], want["expected_points"], "expected_points")
        _same([[s["target"], s["units"], s["expected_points"]] for s in plan["shots"]], want["shots"], "shots")
        assert plan["idle"] == want["idle"]


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PINNED["ratings"]))
def test_calc_of_a_units_volleys_is_its_attack(name: str) -> None:
    """``praetor calc`` of the volleys a unit chose (written out as a document, ``Hh3Shot.to_block``) gives the
    unit's own result mapping: the door parses the document into the records the unit built and resolves them
    through the same stages (vehicles, markers and templates included), so the two are equal, not close."""
    compared = 0
    for unit in read_roster_units(ROSTERS / name).units:
        for _, target in hh3_standard_targets():
            shots = hh3_volleys(unit, target).shots
            if not shots:
                continue
            document = {"edition": "hh3", "firing_units": [[s.to_block() for s in shots]], "target": dict(target.block)}
            door = calc_hh3_stages(document)
            mine = hh3_shooting(unit, target).outcome.to_dict()
            for key in ("hull_points", "penetrating", "wrecked") if target.is_vehicle else ("casualties", "damage"):
                assert mine[key] == door[key], (unit.datasheet, target.name, key)
            compared += 1
    assert compared > 0
