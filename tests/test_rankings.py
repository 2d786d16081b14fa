"""Rankings are sorted, finite and stable (issue 38 item 6, "mutants die"): a roster's ratings by effect per 100
points (highest first, rows without a number last, ties in the roster's order), a matchup's "units that matter
most" (each unit's best at any target, highest first, ties in the order met) and the wargear options by gain per
point (a free option that gains above every costed one). Each ranking is compared with an independent sort."""

from __future__ import annotations

import math
from itertools import pairwise
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from praetor_analysis.analysis.list_matchup import key_units
from praetor_analysis.analysis.unit_ratings import rate, rate_roster, standard_targets
from praetor_analysis.analysis.wargear import wargear_value
from praetor_analysis.units import read_roster_units

FIXTURES = Path(__file__).parent / "fixtures" / "rosters"
BASIC = FIXTURES / "hh2" / "Basic Marines Validate.test"  # a Centurion and two Tactical Squads


def _rank_rows(frame: pd.DataFrame) -> list[int]:
    """Row positions in the order a stable sort by ``per_100_pts`` (highest first, NaN last) gives."""
    values = list(frame["per_100_pts"])
    rated = [i for i, v in enumerate(values) if not math.isnan(v)]
    rest = [i for i, v in enumerate(values) if math.isnan(v)]
    return sorted(rated, key=lambda i: -values[i]) + rest  # sorted() is stable: ties keep the roster's order


def test_a_rosters_ratings_are_the_units_ratings_sorted_stably() -> None:
    frame = rate_roster(BASIC)
    reading = read_roster_units(BASIC)
    targets = list(standard_targets())
    unsorted = pd.concat(
        [rate(u, targets, label=label) for u, label in zip(reading.units, reading.labels, strict=True)],
        ignore_index=True,
    )
    expected = unsorted.iloc[_rank_rows(unsorted)].reset_index(drop=True)
    pd.testing.assert_frame_equal(frame, expected)
    per = frame["per_100_pts"].tolist()
    assert all(math.isfinite(p) and p >= 0 for p in per)
    assert all(a >= b for a, b in pairwise(per))
    assert set(frame["unit"]) == set(reading.labels)
    # the two Tactical Squads rate alike: their rows keep the roster's order, (1) before (2), at every tie
    ties = frame[frame["unit"].str.startswith("Tactical Squad")]
    for (_, a), (_, b) in pairwise(ties.iterrows()):
        if a["per_100_pts"] == b["per_100_pts"] and (a["target"], a["phase"]) == (b["target"], b["phase"]):
            assert (a["unit"], b["unit"]) == ("Tactical Squad (1)", "Tactical Squad (2)")


def test_a_rosters_ratings_against_one_target_put_rows_without_a_number_last() -> None:
    # a Rhino does not fight in melee: its melee row has no number
    frame = rate_roster(FIXTURES / "hh2" / "Dedicated Transport Squad Costs.test", "Tactical Squad")
    per = frame["per_100_pts"].tolist()
    numbers = [p for p in per if not math.isnan(p)]
    assert 0 < len(numbers) < len(per)
    assert numbers == sorted(numbers, reverse=True)
    assert per[: len(numbers)] == numbers  # every NaN after every number
    assert all(math.isfinite(p) and p >= 0 for p in numbers)


_ROWS = st.lists(
    st.tuples(
        st.sampled_from(["mine", "theirs"]),
        st.sampled_from(["A", "B", "C", "D", "E"]),
        st.one_of(st.just(float("nan")), st.sampled_from([0.0, 1.0, 2.5, 10.0]), st.floats(0, 500)),
    ),
    max_size=30,
)


def _key_units_oracle(rows: list[tuple[str, str, float]], side: str, n: int) -> list[tuple[str, float]]:
    best: dict[str, float] = {}
    for s, unit, points in rows:
        if s == side and not math.isnan(points):
            best[unit] = max(best.get(unit, -math.inf), points)
    ranked = sorted(best.items(), key=lambda kv: -kv[1])  # stable: ties in the order the units are first met
    return ranked[:n]


@settings(max_examples=100, deadline=None)
@given(rows=_ROWS, side=st.sampled_from(["mine", "theirs"]), n=st.integers(1, 6))
def test_the_units_that_matter_most_are_each_units_best_sorted_stably(
    rows: list[tuple[str, str, float]], side: str, n: int
) -> None:
    frame = pd.DataFrame(rows, columns=["side", "attacker", "points_removed"])
    frame["points_removed"] = frame["points_removed"].astype(float)
    got = key_units(frame, side, n)
    assert got == _key_units_oracle(rows, side, n)
    assert all(math.isfinite(v) for _, v in got)
    assert [v for _, v in got] == sorted((v for _, v in got), reverse=True)


def test_the_units_that_matter_most_default_to_three() -> None:
    rows = [("mine", u, float(p)) for u, p in (("A", 1), ("B", 5), ("C", 3), ("D", 4), ("A", 9))]
    frame = pd.DataFrame(rows, columns=["side", "attacker", "points_removed"])
    assert key_units(frame, "mine") == [("A", 9.0), ("B", 5.0), ("D", 4.0)]
    assert key_units(frame, "theirs") == []


def _gain_key(gain: float, cost: float) -> float:
    """The wargear ranking, written again: gain per point; a free option above every costed one when it
    gains, below when it loses, level when it changes nothing; a row without a number last."""
    if math.isnan(gain):
        return -math.inf
    if cost > 0:
        return gain / cost
    return math.inf if gain > 1e-12 else -math.inf if gain < -1e-12 else 0.0


@pytest.mark.parametrize(
    ("sheet", "target"),
    [("Heavy Support Squad", "Rhino"), ("Heavy Support Squad", "Tactical Squad"), ("Tactical Squad", "Praetor")],
)
def test_wargear_options_are_ranked_by_gain_per_point(sheet: str, target: str) -> None:
    frame = wargear_value(sheet, target)
    keys = [(_gain_key(g, c), p) for g, c, p in zip(frame["gain"], frame["points"], frame["phase"], strict=True)]
    assert len(keys) > 1
    for (ka, pa), (kb, pb) in pairwise(keys):  # by the key, highest first; ties by phase name
        assert ka > kb or (ka == kb and pa <= pb)
    rated = frame[frame["phase"] != ""]
    assert rated["mean"].map(math.isfinite).all() and rated["base_mean"].map(math.isfinite).all()
    free_gain = rated[(rated["points"] <= 0) & (rated["gain"] > 1e-12)]
    if sheet == "Heavy Support Squad" and target == "Tactical Squad":  # a free Heavy Flamer gains: first of all
        assert len(free_gain) == 1 and frame.index[frame["option"] == "Heavy Flamer"][0] == 0
    costed = rated[rated["points"] > 0]
    assert (costed["gain_per_100_pts"] - 100 * costed["gain"] / costed["points"]).abs().max() < 1e-9
    assert rated[rated["points"] <= 0]["gain_per_100_pts"].isna().all()
    assert (rated["gain"] - (rated["mean"] - rated["base_mean"])).abs().max() < 1e-9
