"""The main job per point (issue 24, item 8): iconic weapons fielded on the datasheets that carry them, and
iconic datasheets as fielded, per 100 points against the standard targets; the default report ranks them."""

from __future__ import annotations

import math
import re

import pytest

from praetor_analysis import calc
from praetor_analysis.analysis.per_point import ICONIC_OPTIONS, ICONIC_UNITS, Fielded, per_point_table
from praetor_analysis.analysis.unit_ratings import target_named


@pytest.fixture(scope="module")
def table():
    return per_point_table([target_named("Rhino"), target_named("Legionary (Tactical Squad)")])


def _row(frame, label: str, target: str, phase: str = "shooting"):
    part = frame[(frame["label"] == label) & (frame["target"] == target) & (frame["phase"] == phase)]
    assert len(part) == 1, (label, target, phase)
    return part.iloc[0]


def test_every_iconic_row_is_fielded_and_priced(table) -> None:
    assert not table["error"].fillna("").astype(str).str.len().any(), table[table["error"] != ""][["label", "error"]]
    assert set(table["label"]) == {f.label for f in (*ICONIC_OPTIONS, *ICONIC_UNITS)}
    assert (table["points"] > 0).all() and table["per_100_pts"].notna().all()


@pytest.mark.parametrize(
    ("label", "block", "target", "per_100"),
    [
        # the hand figures against a Rhino (hull points per 100 points, 3 decimals)
        ("Lascannon", {"name": "Heavy Support Squad", "loadout": ["Lascannon"]}, "Rhino", 1.672),
        ("Autocannon", {"name": "Heavy Support Squad", "loadout": ["Autocannon"]}, "Rhino", 1.838),
        ("Heavy Bolter", {"name": "Heavy Support Squad"}, "Rhino", 1.652),
        ("Multi-Melta", {"name": "Heavy Support Squad", "loadout": ["Multi-Melta"]}, "Rhino", 1.645),
        ("Bolter", {"name": "Tactical Squad", "size": 10}, "Legionary (Tactical Squad)", None),
        ("Praetor Launcher", {"name": "Legion Praetor Armoured Assault Launcher"}, "Legionary (Tactical Squad)", None),
    ],
)
def test_a_row_is_the_fielded_unit_as_calc_reads_it(table, label, block, target, per_100) -> None:
    row = _row(table, label, target)
    result = calc({"attacker": block, "target": target})
    measure = "hull_points" if "hull_points" in result else "casualties"
    assert row["points"] == result["points"] and row["measure"] == measure
    assert math.isclose(row["mean"], result[measure]["mean"], abs_tol=1e-12)
    assert math.isclose(row["per_100_pts"], 100 * result[measure]["mean"] / result["points"], rel_tol=1e-12)
    if per_100 is not None:
        assert round(row["per_100_pts"], 3) == per_100


def test_the_power_fist_is_rated_as_a_sergeants_option_in_melee(table) -> None:
    row = _row(table, "Power Fist", "Legionary (Tactical Squad)", "melee")
    block = {"name": "Tactical Squad", "size": 10, "loadout": ["Power Fist"], "charging": True}
    result = calc({"attacker": block, "mode": "melee", "target": "Legionary (Tactical Squad)"})
    assert row["points"] == 115 == result["points"]  # 100 for ten, 15 for the fist
    assert math.isclose(row["mean"], result["casualties"]["mean"], abs_tol=1e-12)
    assert "Power Fist" in row["weapons"]


def test_the_praetor_launcher_is_laid_over_the_default_formation(table) -> None:
    row = _row(table, "Praetor Launcher", "Legionary (Tactical Squad)")
    assert "Praetor Launcher" in row["weapons"]
    alone = calc({"attacker": {"BS": 4}, "weapon": "Praetor Launcher", "target": "Legionary (Tactical Squad)"})
    assert row["mean"] > alone["casualties"]["mean"] > 1.3  # the launcher over the formation, and a heavy bolter


def test_a_row_the_data_refuses_says_why() -> None:
    bad = Fielded("Nothing", {"name": "Tactical Squad", "loadout": ["No Such Option"]})
    frame = per_point_table([target_named("Rhino")], rows=[bad])
    assert len(frame) == 1 and "No Such Option" in frame["error"].iloc[0]


def test_the_default_report_answers_per_point() -> None:
    pytest.importorskip("plotly")
    from praetor_analysis.views.report import page as R

    page = R.default_report()
    assert "points cost of its own" not in page
    assert "best weapon per 100 pts, as fielded" in page and "<h2>Per 100 points, as fielded</h2>" in page
    row = re.search(r"<tr><td>Rhino</td>(?:<td[^>]*>[^<]*</td>){3}<td[^>]*>([^<]+)</td><td[^>]*>([^<]+)</td>", page)
    assert row is not None and row.group(2).endswith("hull points")
    # a charging Tactical Squad's ten Krak Grenades (ten automatic S6 hits on the rear armour 10 of a Rhino, which
    # has no WS) take more hull points per 100 points than the Heavy Support Squad's lascannons (1.67)
    assert "Tactical Squad" in row.group(1) and "melee" in row.group(1)
    order = [page.index("The answer: the best weapon per target"), page.index("Per 100 points, as fielded</h2>"),
             page.index("Raw tables")]  # fmt: skip
    assert order == sorted(order)
