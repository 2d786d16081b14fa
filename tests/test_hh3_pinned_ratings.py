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
from praetor_analysis.analysis.unit_ratings import no_weapon_error, rate_roster
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


NUMBERS = ("std", "p_all", "p_any", "wounds", "share", "per_100_pts")


def _no_weapon_pin(want: list[Any], columns: list[str]) -> list[Any]:
    """A pinned row of a unit with no weapon for the phase as rows are now: no number, why in ``error`` (pinned as
    0 removed, beside the units that fire and miss; every number of it must have been 0)."""
    row = dict(zip(columns, want, strict=True))
    assert row["error"] == "" and all(row[k] == 0.0 for k in ("mean", *NUMBERS)), row
    datasheet = row["unit"].rsplit(" (", 1)[0] if row["unit"].endswith(")") else row["unit"]
    row |= {"error": no_weapon_error(datasheet, row["phase"]), "mean": None} | dict.fromkeys(NUMBERS)
    return [row[c] for c in columns]


@pytest.mark.parametrize("name", sorted(PINNED["ratings"]))
def test_a_rosters_ratings_are_as_pinned(name: str) -> None:
    frame = rate_roster(ROSTERS / name)
    columns = PINNED["rating_columns"]
    want = PINNED["ratings"][name]
    assert len(frame) == len(want) > 0
    # the rows of a unit with no weapon for the phase have no number since (they sort last, in the roster's
    # order, with the other rows without one): every other row is as pinned, in the pinned order
    key = ["unit", "target", "phase"]
    unarmed = {tuple(k) for k in frame.loc[frame["no_weapon"], key].itertuples(index=False)}
    pins = {tuple(w[:3]): w for w in want}
    got = {tuple(r[:3]): r for r in frame[columns].itertuples(index=False)}
    assert got.keys() == pins.keys()
    for k, row in got.items():
        expected = _no_weapon_pin(pins[k], columns) if k in unarmed else pins[k]
        _same([_value(v) for v in row], expected, f"{name} row {k}")
    numbered = [tuple(w[:3]) for w in want if tuple(w[:3]) not in unarmed and w[-1] is not None]
    shown = [tuple(r[:3]) for r in frame[columns].itertuples(index=False) if not math.isnan(r[-1])]
    assert shown == numbered  # the order of the rows with a number, as pinned
    assert not frame["per_100_pts"].iloc[len(shown) :].notna().any()  # and every row without one after them


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
            document = {"edition": "hh3", "firing_units": [[s.to_block() for s in shots]], "target": target.to_block()}
            door = calc_hh3_stages(document)
            mine = hh3_shooting(unit, target).outcome.to_dict()
            for key in ("hull_points", "penetrating", "wrecked") if target.is_vehicle else ("casualties", "damage"):
                assert mine[key] == door[key], (unit.datasheet, target.name, key)
            compared += 1
    assert compared > 0
