"""Rosters rated unit by unit in shooting and melee, every profile as a target (wargear per point: test_wargear)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from itertools import pairwise

from fixture_files import BASIC_MARINES, HH2_ROSTERS

from praetor_analysis import calc
from praetor_analysis.analysis.unit_ratings import (
    RATING_COLUMNS,
    profile_targets,
    rate_roster,
    roster_loadouts,
)
from praetor_analysis.bsdata.roster import read_roster
from praetor_analysis.catalog import load_targets, load_units

BASIC = BASIC_MARINES


def test_roster_loadouts_carry_the_roster_points() -> None:
    for path in HH2_ROSTERS:
        units = roster_loadouts(path)
        assert sum(u.points for u in units) == read_roster(path).points, path.name


def test_rate_roster_rows_sorted_by_effect_per_point() -> None:
    frame = rate_roster(BASIC)
    assert list(frame.columns) == RATING_COLUMNS
    assert len(frame) == 3 * len(load_targets()) * 2  # Centurion and two Tactical Squads, both phases
    per = frame["per_100_pts"].to_numpy()
    assert all(a >= b for a, b in pairwise(per))
    for _, r in frame.iterrows():
        assert math.isclose(r["per_100_pts"], 100 * r["mean"] / r["points"])
        assert 0 <= r["p_any"] <= 1
    squad = frame[(frame["unit"] == "Tactical Squad (1)") & (frame["target"] == "Rhino")]  # one label per unit
    assert set(squad["phase"]) == {"shooting", "melee"}


def test_a_roster_unit_is_the_datasheet_at_the_same_selections() -> None:
    # The Tactical Squads of the roster are the datasheet at its minimum with the default wargear.
    frame = rate_roster(BASIC, "Tartaros Terminator")
    row = frame[(frame["unit"] == "Tactical Squad (1)") & (frame["phase"] == "shooting")].iloc[0]
    direct = calc({"attacker": "Tactical Squad", "target": "Tartaros Terminator"})
    assert math.isclose(row["mean"], direct["casualties"]["mean"], abs_tol=1e-12)
    assert row["points"] == direct["points"] == 100


def test_cli_roster_json_and_bad_target() -> None:
    cmd = [sys.executable, "-m", "praetor_analysis.cli", "roster", str(BASIC), "--target", "Rhino", "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    keys = {"unit", "points", "target", "phase", "mean", "p_any", "per_100_pts", "wounds", "share", "measure"}
    keys |= {"not_modelled", "reasons"}  # issue 33: what was not modelled, on every row (a list, a mapping)
    keys |= {"error"}  # issue 38: why a row has no result (empty when it has one), as the CSV's column
    assert rows and all(set(r) == keys for r in rows)
    assert all(isinstance(r["points"], int) for r in rows)
    assert {r["phase"] for r in rows} == {"shooting", "melee"}
    proc = subprocess.run([*cmd[:-3], "--target", "Rhinoo"], capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "did you mean 'Rhino'" in proc.stderr
    table = subprocess.run(cmd[:-1], capture_output=True, text=True).stdout
    assert " 100 " in table and "100.000" not in table  # points print as whole numbers


def test_every_unit_profile_is_a_target_or_named_as_skipped() -> None:
    targets, skipped = profile_targets(models=3)
    assert len(targets) + len(skipped) == len(load_units())
    assert len(skipped) <= 3  # Defence Line (no armour values) and two Legionary rows without Toughness
    assert all(t.models == (1 if t.is_vehicle else 3) for _, t in targets)
