"""Wargear per point (issue 24, item 7): every option of every group ranked by what it adds per point.

The figures against a Rhino were worked by hand in the issue from calc with loadouts (hull points per 100
points of the unit: Autocannon 1.838, Lascannon 1.672, Heavy Bolter as fielded 1.652, Multi-melta 1.645);
here each row is also checked against calc of the same loadout, and the ranking against its own numbers.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from itertools import pairwise

import pytest

from praetor_analysis import calc
from praetor_analysis.analysis.unit_ratings import target_named
from praetor_analysis.analysis.wargear import AS_FIELDED, wargear_table, wargear_value
from praetor_analysis.catalog import load_wargear_options

HEAVY_WEAPONS = ("Lascannon", "Autocannon", "Multi-Melta", "Missile Launcher", "Plasma Cannon")


@pytest.fixture(scope="module")
def heavy_support() -> object:
    return wargear_value("Heavy Support Squad", "Rhino")


def _shooting(frame, option: str):
    return frame[(frame["option"] == option) & (frame["phase"] == "shooting")].iloc[0]


def test_the_squads_heavy_weapons_are_ranked_against_a_rhino(heavy_support) -> None:
    frame = heavy_support
    for option in HEAVY_WEAPONS:
        row = _shooting(frame, option)
        fielded = calc({"attacker": {"name": "Heavy Support Squad", "loadout": [option]}, "target": "Rhino"})
        assert row["unit_points"] == fielded["points"] and row["points"] == fielded["points"] - 100
        assert math.isclose(row["mean"], fielded["hull_points"]["mean"], abs_tol=1e-12)
        assert math.isclose(row["per_100_pts"], 100 * row["mean"] / row["unit_points"], rel_tol=1e-12)
        assert row["measure"] == "hull_points"
    by_hand = {"Autocannon": 1.838, "Lascannon": 1.672, "Multi-Melta": 1.645}  # the figures, 3 decimals
    for option, per_100 in by_hand.items():
        assert round(_shooting(frame, option)["per_100_pts"], 3) == per_100
    as_fielded = _shooting(frame, AS_FIELDED)  # four Heavy Bolters
    assert round(as_fielded["per_100_pts"], 3) == 1.652 and as_fielded["unit_points"] == 100
    order = list(frame.loc[frame["phase"] == "shooting", "option"])
    assert order.index("Autocannon") < order.index("Lascannon") < order.index("Multi-Melta")
    assert order.index("Missile Launcher") < order.index(AS_FIELDED) < order.index("Plasma Cannon")  # a loss


def test_the_ranking_is_by_gain_per_point_and_free_options_sit_at_the_ends(heavy_support) -> None:
    rated = heavy_support[heavy_support["phase"] != ""]
    costed = rated[rated["points"] > 0]
    assert all(a >= b - 1e-15 for a, b in pairwise(costed["gain_per_point"]))
    for _, r in costed.iterrows():
        assert math.isclose(r["gain"], r["mean"] - r["base_mean"], abs_tol=1e-12)
        assert math.isclose(r["gain_per_100_pts"], 100 * r["gain"] / r["points"], rel_tol=1e-12)
    free = rated[(rated["points"] == 0) & (rated["option"] != AS_FIELDED)]
    assert len(free) and free["gain_per_point"].isna().all()
    losing = free[free["gain"] < 0].index
    assert all(i > costed.index.max() for i in losing)  # a free option that loses ranks below every costed one


def test_every_option_of_every_group_has_a_row(heavy_support) -> None:
    opts = load_wargear_options()
    opts = opts[
        (opts["datasheet"] == "Heavy Support Squad") & (opts["faction"] == "Legiones Astartes") & ~opts["hidden"]
    ]
    wanted = set(zip(opts["option"], opts["model"], strict=True))
    have = set(zip(heavy_support["option"], heavy_support["model"], strict=True))
    assert wanted <= have
    notes = heavy_support[heavy_support["phase"] == ""]
    assert notes["note"].str.len().gt(0).all()  # each option not rated says why
    assert "Artificer Armour" in set(notes["option"])


def test_cli_wargear_table_json_and_bad_names() -> None:
    run = [sys.executable, "-m", "praetor_analysis.cli", "wargear", "Heavy Support Squad", "--target", "Rhino"]
    out = subprocess.run([*run, "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    lascannon = next(r for r in rows if r["option"] == "Lascannon" and r["phase"] == "shooting")
    assert round(lascannon["per_100_pts"], 3) == 1.672 and lascannon["points"] == 50
    table = subprocess.run(run, capture_output=True, text=True, timeout=300)
    assert table.returncode == 0 and "Autocannon" in table.stdout and "100 pts as fielded" in table.stdout
    for bad, needle in ((["Heavy Support Sqaud", "--target", "Rhino"], "did you mean 'Heavy Support Squad'"),
                        (["Heavy Support Squad", "--target", "Knight"], "--target: no unit profile"),
                        (["Heavy Support Squad", "--target", "Rhino", "--size", "30"], "datasheet.size")):  # fmt: skip
        p = subprocess.run([*run[:4], *bad], capture_output=True, text=True, timeout=300)
        assert p.returncode == 2 and p.stderr.count("\n") == 1 and needle in p.stderr, p.stderr


def test_wargear_table_names_what_is_not_rated(heavy_support) -> None:
    text = wargear_table(heavy_support)
    assert "Lascannon" in text and "not rated, carries no weapon" in text


def test_wargear_value_is_the_difference_of_two_loadouts() -> None:
    frame = wargear_value("Tactical Squad", "Tartaros Terminator", phases=["melee"])
    fist = frame[(frame["option"] == "Power Fist") & (frame["model"] == "Legion Tactical Sergeant")].iloc[0]
    assert fist["points"] == 15
    with_fist = calc(
        {"attacker": {"name": "Tactical Squad", "loadout": ["Power Fist"], "charging": True}, "mode": "melee",
         "target": "Tartaros Terminator"}
    )  # fmt: skip
    base = calc(
        {"attacker": {"name": "Tactical Squad", "charging": True}, "mode": "melee", "target": "Tartaros Terminator"}
    )
    assert math.isclose(fist["mean"], with_fist["casualties"]["mean"], abs_tol=1e-12)
    assert math.isclose(fist["gain"], with_fist["casualties"]["mean"] - base["casualties"]["mean"], abs_tol=1e-12)
    assert math.isclose(fist["gain_per_point"], fist["gain"] / 15)
    per = frame["gain_per_point"].dropna().to_numpy()
    assert all(a >= b for a, b in pairwise(per))
    assert set(frame["phase"]) == {"melee", ""}  # "": the options that carry no weapon, each with its note


def test_wargear_figure() -> None:
    pytest.importorskip("plotly")
    from praetor_analysis.views.figures.wargear import wargear_figure

    frame = wargear_value("Tactical Squad", target_named("Tartaros Terminator"))
    fig = wargear_figure(frame)
    assert {t.name for t in fig.data} <= {"shooting", "melee"} and fig.data
    assert max(max(t.x) for t in fig.data) == pytest.approx(frame["gain_per_100_pts"].max())


def test_wargear_figure_draws_rated_options_only(heavy_support) -> None:
    pytest.importorskip("plotly")
    from praetor_analysis.views.figures.wargear import wargear_figure

    fig = wargear_figure(heavy_support)
    drawn = {y for t in fig.data for y in t.y}
    assert not any(y.startswith(("(as fielded)", "Artificer Armour")) for y in drawn)
    assert any(y.startswith("Lascannon") for y in drawn) and "hull points added" in fig.layout.title.text
    assert "(as fielded)" not in fig.layout.title.text
