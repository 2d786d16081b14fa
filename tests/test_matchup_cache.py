"""A matchup computes equal pairs once and never shares a result between pairs that differ (issue 38 item 6,
"mutants die": the cache key without the attacker's modifiers survived): every row of ``pair_rows`` equals the
row of its pair computed alone; and no infinite or NaN value reaches the pairs' JSON."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from pairs_json import pairs_json

from praetor_analysis.analysis.army_list import read_list_json
from praetor_analysis.analysis.matchup import PAIR_COLUMNS, pair_result, pair_row, pair_rows, pairs_of
from praetor_analysis.errors import ProfileError, ScenarioError

MINE = read_list_json(
    {
        "name": "mine",
        "units": [
            "Tactical Squad",
            {"name": "Tactical Squad", "modifiers": {"reroll_hits": "all"}},
            "Tactical Squad",
            {"name": "Tactical Squad", "size": 15},
        ],
    }
)
THEIRS = read_list_json({"name": "theirs", "units": ["Praetor", "Terminator Tartaros Squad"]})


def _alone(pair):  # type: ignore[no-untyped-def]
    try:
        return pair_row(pair, pair_result(pair)).to_dict()
    except (ScenarioError, ProfileError) as exc:
        return pair_row(pair, None, str(exc)).to_dict()


@pytest.mark.parametrize("half_range", [False, True])
def test_every_row_is_its_pair_computed_alone(half_range: bool) -> None:
    rows = pair_rows(MINE, THEIRS, ("shooting",), half_range=half_range)
    pairs = pairs_of(MINE, THEIRS, ("shooting",), half_range=half_range)
    assert list(rows.columns) == PAIR_COLUMNS and len(rows) == len(pairs)
    for (_, row), pair in zip(rows.iterrows(), pairs, strict=True):
        alone = _alone(pair)
        for column in ("attacker", "target", "phase", "mean", "removed", "points_removed"):
            a, b = row[column], alone[column]
            assert a == b or (isinstance(a, float) and math.isnan(a) and math.isnan(b)), (column, a, b)
    means = rows[(rows["side"] == "mine") & (rows["target"] == "Praetor")]["mean"].tolist()
    assert means[0] == means[2] != means[1]  # equal squads alike; the re-rolls change the answer
    assert means[3] > means[0]  # fifteen bolters above ten


def test_melee_rows_are_their_pairs_computed_alone() -> None:
    rows = pair_rows(MINE, THEIRS, ("melee",))
    for (_, row), pair in zip(rows.iterrows(), pairs_of(MINE, THEIRS, ("melee",)), strict=True):
        assert row["mean"] == pytest.approx(_alone(pair)["mean"], rel=1e-12, nan_ok=True)


def test_no_infinite_value_reaches_the_json() -> None:
    frame = pd.DataFrame(
        {"a": [1.0, math.inf, -math.inf, math.nan], "b": ["x", "y", "z", "w"], "c": [1, 2, 3, 4]},
    )
    out = pairs_json(frame)
    assert [r["a"] for r in out] == [1.0, None, None, None]
    assert [r["c"] for r in out] == [1, 2, 3, 4] and all(type(r["c"]) is int for r in out)
    json.dumps(out, allow_nan=False)  # strict JSON
