"""Each floor does its own work (issue 22, item 4): one Vehicle test, typed vehicle results, comparison cells
built as records from the rows and equal to calc of their documents."""

from __future__ import annotations

import ast
import dataclasses
import re
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from praetor_analysis.analysis import AttackerProfile
from praetor_analysis.analysis.compare import (
    DEFAULT_ATTACKER,
    compare,
    row_ids,
    summarise,
)
from praetor_analysis.analysis.sweep import CellResult
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.scenario.document import parse_scenario
from praetor_analysis.units import Measure, UnitRow, WeaponRow
from praetor_analysis.vehicles.attack import VehicleAttackResult, resolve_vehicle_scenario
from praetor_analysis.vehicles.sweep import HullPointsOnly, hull_points_only
from praetor_analysis.views.cell_documents import build_scenario, scenario_for
from praetor_analysis.views.report.page import wound_distributions

PACKAGE = Path(__file__).resolve().parents[1] / "praetor_analysis"
RHINO = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 11, "Side": 11, "Rear": 10, "HP": 3}
LASCANNON = {"name": "Lascannon", "Range": 48, "Strength": 9, "AP": 2, "Type": "Heavy 1"}


def _cell(result: dict[str, Any]) -> CellResult:
    """What a comparison reads of a calc result (the cell of its measure)."""
    vehicle = "hull_points" in result
    pmf = result["hull_points" if vehicle else "casualties"]["pmf"]
    measure = Measure.HULL_POINTS if vehicle else Measure.MODELS
    return CellResult(measure, np.asarray(pmf, dtype=float), result.get("pinned"), result.get("wrecked"),
                      tuple(result["not_modelled"]))  # fmt: skip


def test_one_vehicle_test() -> None:
    """Only ``profiles.records.is_vehicle_type`` reads "vehicle" out of a Unit Type."""
    pattern = re.compile(r"""["']vehicle["']\s+in\b|contains\(\s*["']Vehicle""", re.IGNORECASE)
    found = [
        f"{p.relative_to(PACKAGE)}:{i}"
        for p in sorted(PACKAGE.rglob("*.py"))
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert found == ["profiles/records.py:39"]


def test_marker_work_lives_in_markers() -> None:
    """Wall of Death and the Mega-blast's zones are computed in ``markers/``; the contract layer calls them."""
    marker_work = {"wall_of_death_hits", "mega_blast_hits", "mega_blast_joint", "zone_total"}
    for path in sorted((PACKAGE / "scenario").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert not defined & marker_work, path.name
    from praetor_analysis.markers import attack

    assert all(callable(getattr(attack, name)) for name in marker_work)


def test_mypy_checks_every_layer() -> None:
    """``[tool.mypy]`` checks the whole package, every function annotated."""
    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == ["praetor_analysis"]
    assert any(
        o["module"] == ["praetor_analysis.*"] and o.get("disallow_untyped_defs") and o.get("disallow_incomplete_defs")
        for o in config["overrides"]
    )


def test_vehicle_result_is_a_frozen_record_calc_prints() -> None:
    doc = {"attacker": {"BS": 4, "models": 2}, "weapon": {**LASCANNON, "Type": "Heavy 1, Gets Hot"}, "target": RHINO}
    scenario = parse_scenario(doc)
    result = resolve_vehicle_scenario(scenario.target, scenario.firing_units)
    assert isinstance(result, VehicleAttackResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.wrecked = 0.0  # type: ignore[misc]
    assert result.pinned is None and result.gets_hot is not None
    printed = calc(doc)
    assert {k: printed[k] for k in result.to_dict()} == result.to_dict()
    # 2 lascannons at BS 4 on armour 11: a hit is 2/3, a glance or better on 2+ (9 + D6 >= 11): 5/6
    assert result.hull_points.mean() > 0 and abs(result.hits.mean() - 4 / 3) < 1e-12


def test_hull_points_only_is_a_record_equal_to_calc() -> None:
    doc = {"attacker": {"BS": 4}, "weapon": {**LASCANNON, "Type": "Heavy 2"}, "target": RHINO}
    scenario = parse_scenario(doc)
    (volley,) = scenario.firing_units[0]
    found = hull_points_only(volley, scenario.target)
    assert isinstance(found, HullPointsOnly)
    printed = calc(doc)
    assert found.hull_points.tolist() == pytest.approx(printed["hull_points"]["pmf"], abs=1e-12)
    assert found.wrecked == pytest.approx(printed["wrecked"], abs=1e-12)
    assert list(found.not_modelled) == printed["not_modelled"]


@pytest.mark.parametrize(
    ("step", "options"),
    [
        (7, {}),
        (11, {"attacker": {"BS": 3, "WS": 5, "S": 4, "A": 2, "models": 3, "charging": True}, "half_range": True}),
        (13, {"attacker": {"BS": 4, "modifiers": {"to_hit": 1}}, "shots_per_weapon": "D3"}),
    ],
)
def test_compare_cells_equal_calc_of_their_scenarios(step: int, options: dict[str, Any]) -> None:
    """The comparison builds its records from the rows (no document); each row equals ``calc`` of the
    document ``scenario_for`` writes for it: the same numbers, lists and errors."""
    weapons, targets = load_weapons().iloc[::step], load_targets()
    profile = AttackerProfile.from_mapping(options["attacker"]) if "attacker" in options else None
    table = compare(weapons, targets, **{**options, "attacker": profile})
    cells = [(w, t) for w in weapons.to_dict("records") for t in targets.to_dict("records")]
    assert len(table) == len(cells)
    kw = {"attacker": profile, "half_range": options.get("half_range", False)}
    for row, (w, t) in zip(table.to_dict("records"), cells, strict=True):
        try:
            scenario, notes, _ = build_scenario(
                WeaponRow.from_row(w).to_block(), UnitRow.from_row(t).to_block(),
                (kw["attacker"] or DEFAULT_ATTACKER).to_block(),
                attacks=options.get("shots_per_weapon"), half_range=kw["half_range"],
            )  # fmt: skip
            result = calc(scenario)
        except ScenarioError as exc:
            assert row["error"] == str(exc), (row["weapon"], row["target"])
            continue
        assert row["error"] == "", (row["weapon"], row["target"], row["error"])
        vehicle = row["measure"] == "hull_points"
        s = summarise(_cell(result), models=int(row["models"]), vehicle=vehicle, pinning="Pinning" in row["Type"])
        assert row["mean"] == pytest.approx(s.mean, abs=1e-12), (row["weapon"], row["target"])
        assert row["p_all"] == pytest.approx(s.p_all, abs=1e-12, nan_ok=True)
        assert row["p_pinned"] == pytest.approx(s.p_pinned, abs=1e-12, nan_ok=True)
        laid = [a for a in result["applied"] if a.startswith("default formation: ")]  # a marker cell's layout
        assert row["not_modelled"] == "; ".join([*laid, *notes, *result["not_modelled"]])


def test_report_wounds_from_the_rows_equal_calc() -> None:
    """The report's unsaved-wound pmfs come from the rows' records; each equals calc of scenario_for."""
    weapons, targets = load_weapons().iloc[::20], load_targets()
    attacker = AttackerProfile(BS=3, WS=5, A=2, models=3, charging=True)
    found = wound_distributions(weapons, targets, attacker=attacker, half_range=True)
    expected = {}
    for wid, w in zip(row_ids(weapons), weapons.to_dict("records"), strict=True):
        for tid, t in zip(row_ids(targets), targets.to_dict("records"), strict=True):
            if "Vehicle" in t["Unit Type"]:
                continue
            try:
                result = calc(scenario_for(w, t, attacker=attacker, half_range=True))
            except ScenarioError:
                continue
            expected[(wid, tid)] = result["unsaved"]["pmf"]
    assert found.keys() == expected.keys() and len(found) > 100
    for key, pmf in expected.items():
        assert found[key].tolist() == pmf, key
