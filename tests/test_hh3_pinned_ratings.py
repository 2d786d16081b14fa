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
