"""``per_100_pts`` meant two things: models or hull points per 100 points in ``roster``/``wargear`` rows, points
removed per 100 points in ``matchup`` pair rows and the sweep. The points are now also under a name that says so,
``points_removed_per_100_pts``, beside the old key (kept, the same value: fields are added, never renamed), and
the screens' headers name the unit."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from praetor_analysis.analysis.army_list import read_list_json
from praetor_analysis.analysis.faction_sweep import SWEEP_COLUMNS
from praetor_analysis.analysis.list_matchup import matchup_pairs
from praetor_analysis.analysis.matchup import PAIR_COLUMNS
from praetor_analysis.cli import main
from praetor_analysis.views.text.matchup_text import pair_table
from praetor_analysis.views.text.wargear_text import wargear_screen

ROOT = Path(__file__).resolve().parents[1]
MINE = {"name": "Mine", "units": ["Tactical Squad"]}
THEIRS = {"name": "Theirs", "units": ["Rhino Transport", "Tactical Squad"]}


@pytest.fixture(scope="module")
def pairs():  # type: ignore[no-untyped-def]
    return matchup_pairs(read_list_json(MINE), read_list_json(THEIRS))


def test_a_pair_row_names_its_points_per_100_points_and_keeps_the_old_key(pairs) -> None:  # type: ignore[no-untyped-def]
    assert "points_removed_per_100_pts" in PAIR_COLUMNS and "per_100_pts" in PAIR_COLUMNS
    rated = pairs[pairs["error"] == ""]
    assert len(rated) >= 4
    for row in rated.to_dict(orient="records"):
        want = 100 * row["points_removed"] / row["attacker_points"]  # points, not models
        assert math.isclose(row["points_removed_per_100_pts"], want, rel_tol=1e-12, abs_tol=1e-12)
        assert row["per_100_pts"] == row["points_removed_per_100_pts"]


def test_the_matchup_json_carries_both_keys(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    mine, theirs = tmp_path / "mine.json", tmp_path / "theirs.json"
    mine.write_text(json.dumps(MINE), encoding="utf-8")
    theirs.write_text(json.dumps({"name": "Theirs", "units": ["Rhino Transport"]}), encoding="utf-8")
    assert main(["matchup", str(mine), str(theirs), "--json", "--phase", "shooting"]) == 0
    rows = json.loads(capsys.readouterr().out)["pairs"]
    assert rows and all(r["points_removed_per_100_pts"] == r["per_100_pts"] for r in rows)


def test_the_sweep_schema_has_the_named_column_as_a_float() -> None:
    from praetor_analysis.analysis.sweep_dataset import _schema

    pa = pytest.importorskip("pyarrow")
    assert {"mean_per_100_pts", "points_removed_per_100_pts", "per_100_pts"} <= set(SWEEP_COLUMNS)
    schema = _schema()
    assert schema.field("points_removed_per_100_pts").type == pa.float64()
    assert schema.field("per_100_pts").type == pa.float64()


def test_the_pair_table_header_says_points(pairs) -> None:  # type: ignore[no-untyped-def]
    header = pair_table(pairs, {"mine": "Mine", "theirs": "Theirs"}, width=200)[0]
    assert "pts removed/100 pts" in header


def test_the_wargear_screen_headers_say_the_unit() -> None:
    import pandas as pd

    frame = pd.DataFrame(
        [
            {"option": "(as fielded)", "model": "", "group": "", "points": 0.0, "phase": "shooting", "mean": 0.5,
             "gain": 0.0, "gain_per_100_pts": math.nan, "per_100_pts": 0.4, "measure": "hull_points", "note": ""},
            {"option": "Gun", "model": "Sergeant", "group": "g", "points": 5.0, "phase": "shooting", "mean": 0.6,
             "gain": 0.1, "gain_per_100_pts": 2.0, "per_100_pts": 0.46, "measure": "hull_points", "note": ""},
        ]
    )  # fmt: skip
    header = wargear_screen(frame, "t", width=200, top=None, show_all=True)[1]
    assert "HP gain/100 pts" in header and "unit HP/100 pts" in header


def test_the_readme_says_what_each_per_100_pts_is() -> None:
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    assert "`points_removed_per_100_pts`" in readme
    assert "older name, kept for compatibility" in readme
