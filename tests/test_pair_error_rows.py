"""A matchup pair that cannot be computed keeps its row: every column of the pair table, the pair's names and
points, NaN numbers and the certain "nothing removed" distributions (issue 38 item 6: each assertion kills a
mutant of ``analysis/matchup.py``'s ``pair_row`` that survived the other tests, named in docs/testing.md)."""

from __future__ import annotations

import math

from praetor_analysis.analysis.army_list import read_list_json
from praetor_analysis.analysis.matchup import PAIR_COLUMNS, pair_row, pairs_of

MINE = read_list_json({"name": "mine", "units": ["Tactical Squad"]})
THEIRS = read_list_json({"name": "theirs", "units": ["Praetor", "Terminator Tartaros Squad"]})


def test_an_error_row_has_every_column_and_no_number() -> None:
    for pair in pairs_of(MINE, THEIRS):
        row = pair_row(pair, None, "boom").to_dict()
        assert set(row) == set(PAIR_COLUMNS)
        assert row["error"] == "boom" and row["measure"] == "" and row["weapons"] == ""
        assert row["target_points"] == float(pair.target.points) and row["target"] == pair.target.label
        assert row["removed"] == [1.0] and row["wounds"] == [1.0]  # nothing removed, for certain
        for column in ("mean", "wounds_mean", "p_any", "p_destroyed", "points_removed", "per_100_pts", "returned",
                       "unsaved_mean"):  # fmt: skip
            assert math.isnan(row[column]), column
