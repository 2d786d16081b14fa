"""List against list: every pair equals `praetor calc` of the same attacker and target; the fire plan equals a
`firing_units` calculation of it; the plan search is exact on small lists and its bound holds."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fixture_files import DA_LIST, DA_TEST

from praetor_analysis import calc
from praetor_analysis.analysis.army_list import ArmyList, load_list, read_list_json
from praetor_analysis.analysis.fire_plan import fire_plan, plan_value, unit_volleys
from praetor_analysis.analysis.list_matchup import matchup, matchup_pairs
from praetor_analysis.analysis.matchup import PAIR_COLUMNS, pairs_of
from praetor_analysis.errors import ScenarioError
from praetor_analysis.views.pair_documents import pair_scenario, shot_scenario

MINE, THEIRS = DA_LIST, DA_TEST

LIST_A = {
    "name": "Mine",
    "units": [
        "Tactical Squad",
        {"name": "Heavy Support Squad", "loadout": ["Lascannon"]},
        "Rhino Transport",
        {"name": "Tactical Squad", "loadout": ["Power Fist"]},
    ],
}
LIST_B = {"name": "Theirs", "units": ["Contemptor Dreadnought Talon", "Terminator Tartaros Squad", "Praetor",
                                      "Land Raider Spartan"]}  # fmt: skip


def _measure(result: dict) -> list[float]:
    return result["hull_points" if "hull_points" in result else "casualties"]["pmf"]


def _points(result: dict, unit) -> float:  # type: ignore[no-untyped-def]
    if "hull_points" in result:
        return unit.points * result["wrecked"]
    return unit.points_per_model * float(
        np.dot(np.arange(len(result["casualties"]["pmf"])), result["casualties"]["pmf"])
    )


def _check_row(row: dict, result: dict, target) -> None:  # type: ignore[no-untyped-def]
    """A pair row's measures, recomputed from the calc result."""
    pmf = _measure(result)
    assert np.allclose(row["removed"], pmf, atol=1e-12, rtol=0)
    assert math.isclose(row["points_removed"], _points(result, target), rel_tol=1e-12, abs_tol=1e-12)
    assert math.isclose(row["per_100_pts"], 100 * row["points_removed"] / row["attacker_points"], rel_tol=1e-12)
    full = pmf[target.models] if "hull_points" not in result and len(pmf) > target.models else 0.0
    assert math.isclose(row["p_destroyed"], result["wrecked"] if "hull_points" in result else full, abs_tol=1e-12)


def test_json_list_pairs_equal_calc_of_the_datasheet_attacker() -> None:
    mine, theirs = read_list_json(LIST_A), read_list_json(LIST_B)
    frame = matchup_pairs(mine, theirs)
    assert list(frame.columns) == PAIR_COLUMNS
    pairs = pairs_of(mine, theirs)
    assert len(frame) == len(pairs) == 2 * 2 * 4 * 4
    for pair, row in zip(pairs, frame.to_dict(orient="records"), strict=True):
        doc = pair_scenario(pair)
        assert doc is not None and "attacker" in doc and isinstance(doc["attacker"], dict)
        try:
            result = calc(json.loads(json.dumps(doc)))
        except ScenarioError as exc:
            assert row["error"] == str(exc)  # a Rhino does not fight in melee, in calc as here
            continue
        assert row["error"] == ""
        _check_row(row, result, pair.target)


def _check_roster_pairs(every: int) -> dict[str, int]:
    """Every ``every``-th pair of the two Dark Angels rosters (both ways, both phases) run by ``praetor calc`` as
    the roster's units: ``{"roster": PATH, "unit": LABEL}`` as attacker and target (in melee ``"target_weapon":
    true``: the target's own groups fight back, each at its Initiative step); how many of each kind."""
    mine, theirs = load_list(MINE), load_list(THEIRS)
    frame = matchup_pairs(mine, theirs)
    pairs = pairs_of(mine, theirs)
    assert len(frame) == len(pairs) == 2 * 2 * len(mine.units) * len(theirs.units)
    kinds = {"shooting": 0, "melee": 0, "error": 0}
    for pair, row in list(zip(pairs, frame.to_dict(orient="records"), strict=True))[::every]:
        doc = pair_scenario(pair)
        assert doc is not None and doc["attacker"]["roster"] == str(MINE if pair.side == "mine" else THEIRS)
        assert doc["attacker"]["unit"] == pair.attacker.label and doc["mode"] == pair.phase
        try:
            result = calc(json.loads(json.dumps(doc)))
        except ScenarioError as exc:
            # calc names a roster's unit by its label ('Rhino Transport (1)'), the list's row by its datasheet
            assert row["error"] == str(exc).replace(pair.attacker.label, pair.attacker.loadout.datasheet)
            kinds["error"] += 1
            continue
        assert row["error"] == "", row["error"]
        _check_row(row, result, pair.target)
        kinds[pair.phase] += 1
    assert min(kinds.values()) > 0, kinds
    return kinds


@pytest.mark.slow
def test_every_roster_pair_equals_calc() -> None:
    """All 960 pairs of the two Dark Angels rosters equal ``praetor calc`` (minutes: the slow tier)."""
    kinds = _check_roster_pairs(1)
    assert sum(kinds.values()) == 960


def test_a_sample_of_roster_pairs_equals_calc() -> None:
    """Every 69th pair (14 of 960: shooting, melee and two errors) equals ``praetor calc``."""
    kinds = _check_roster_pairs(69)
    assert kinds == {"shooting": 7, "melee": 5, "error": 2}, kinds


def _plan_checked(attackers: ArmyList, targets: ArmyList, **kw) -> float:  # type: ignore[no-untyped-def]
    plan = fire_plan(attackers, targets, **kw)
    by_label = {u.label: u for u in attackers.units}
    total = 0.0
    for shot in plan.shots:
        target = next(t for t in targets.units if t.label == shot.target)
        result = calc(json.loads(json.dumps(shot_scenario([by_label[n] for n in shot.units], target))))
        assert math.isclose(_points(result, target), shot.expected, rel_tol=1e-12, abs_tol=1e-12)
        total += shot.expected
    assert math.isclose(total, plan.expected, rel_tol=1e-12)
    pmf = plan.pmf()
    assert math.isclose(sum(pmf.values()), 1.0, abs_tol=1e-12)
    assert math.isclose(sum(k * p for k, p in pmf.items()), plan.expected, rel_tol=1e-9)
    assert plan.bound >= plan.expected - 1e-9
    return plan.expected


def test_fire_plan_equals_a_firing_units_calculation_of_it() -> None:
    mine, theirs = load_list(MINE), load_list(THEIRS)
    for a, b in ((mine, theirs), (theirs, mine)):
        value = _plan_checked(a, b)
        assert value > 0
        plan = fire_plan(a, b)
        assignment = {u: s.target for s in plan.shots for u in s.units}
        assert math.isclose(plan_value(a.units, b.units, assignment)[0], value, rel_tol=1e-12)


def test_plan_search_exact_on_small_lists_and_bound_holds() -> None:
    mine, theirs = read_list_json(LIST_A), read_list_json(LIST_B)
    for a, b in ((mine, theirs), (theirs, mine)):
        exact = fire_plan(a, b)
        assert exact.method.startswith("exhaustive")
        greedy = fire_plan(a, b, exhaustive_limit=0)
        assert greedy.method.startswith("greedy")
        assert greedy.expected <= exact.expected + 1e-9
        assert greedy.bound >= exact.expected - 1e-9  # the bound is above the best plan
        _plan_checked(a, b)
        _plan_checked(a, b, exhaustive_limit=0)


def test_a_unit_carried_over_composes_exactly() -> None:
    """Two units at one multi-wound target remove more than the sum of each alone can when wounds carry over;
    the composed value is the calc of both as firing_units."""
    mine = read_list_json({"units": ["Tactical Squad", "Tactical Squad"]})
    theirs = read_list_json({"units": ["Terminator Tartaros Squad"]})
    both, _results = plan_value(mine.units, theirs.units, {u.label: theirs.units[0].label for u in mine.units})
    one, _ = plan_value(mine.units[:1], theirs.units, {mine.units[0].label: theirs.units[0].label})
    result = calc(json.loads(json.dumps(shot_scenario(list(mine.units), theirs.units[0]))))
    assert math.isclose(both, _points(result, theirs.units[0]), rel_tol=1e-12)
    assert both != pytest.approx(2 * one, rel=1e-6)


def test_bad_lists_are_refused_naming_the_field(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"units\[1\]"):
        read_list_json({"units": ["Tactical Squad", "No Such Sheet"]})
    with pytest.raises(ScenarioError, match="units"):
        read_list_json({"units": []})
    with pytest.raises(ScenarioError, match="colour"):
        read_list_json({"units": ["Tactical Squad"], "colour": "red"})
    bad = tmp_path / "list.txt"
    bad.write_text("[]")
    with pytest.raises(ScenarioError, match="expected a .ros"):
        load_list(bad)


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "praetor_analysis.cli", *args], capture_output=True, text=True,
                          timeout=300, check=False)  # fmt: skip


def test_cli_matchup_json_lists(tmp_path: Path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(LIST_A))
    b.write_text(json.dumps(LIST_B))
    out = _run("matchup", str(a), str(b), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert set(doc) == {"lists", "pairs", "plans", "not_modelled"}
    assert len(doc["pairs"]) == 64 and len(doc["plans"]) == 2
    row = doc["pairs"][0]
    assert {"attacker_list", "attacker", "target", "phase", "points_removed", "p_destroyed", "removed"} <= set(row)
    assert doc["plans"][0]["attacker_list"] == "Mine" and doc["plans"][1]["attacker_list"] == "Theirs"
    text = _run("matchup", str(a), str(b))
    assert (
        text.returncode == 0 and "Mine shooting at Theirs" in text.stdout and "Theirs shooting at Mine" in text.stdout
    )
    missing = _run("matchup", str(a), str(tmp_path / "none.ros"))
    assert missing.returncode == 2 and "THEIRS" in missing.stderr and "Traceback" not in missing.stderr


def test_matchup_on_the_shipped_rosters() -> None:
    result = matchup(MINE, THEIRS)
    assert result.mine.points == 2795 and result.theirs.points == 2638
    assert {p.attacker_list for p in result.plans} == {result.mine.name, result.theirs.name}
    assert all(p.shots for p in result.plans)
    assert set(result.pairs["side"]) == {"mine", "theirs"}


def test_exhaustive_plan_with_a_unit_that_cannot_shoot() -> None:
    """A unit with no ranged weapon is left out of the search; the plan's shots are still the right units'."""
    mine = read_list_json({"units": ["Dreadclaw Drop Pod", "Terminator Tartaros Squad", "Tactical Squad"]})
    assert not any(unit_volleys(mine.units[0], t) for t in read_list_json({"units": ["Praetor"]}).units)
    theirs = read_list_json({"units": ["Tactical Squad", "Praetor"]})
    plan = fire_plan(mine, theirs)
    assert plan.method.startswith("exhaustive")
    _plan_checked(mine, theirs)
    assert math.isclose(
        plan_value(mine.units, theirs.units, {u: s.target for s in plan.shots for u in s.units})[0], plan.expected
    )
