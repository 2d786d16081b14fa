"""The sweep path (analysis/sweep.py: the engine's batch for units, hull points only for vehicles) equals the
full engine on every shipped weapon against every shipped target (a marker weapon's volley laid over the
target's default formation first, as calc and compare lay it)."""

from __future__ import annotations

import numpy as np
import pytest

from praetor_analysis.analysis.sweep import CellResult, sweep
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.scenario.calc import ScenarioError, calc, parse_target, parse_volley
from praetor_analysis.units.marker_volley import placed
from praetor_analysis.views.cell_documents import scenario_for


def _pmf(result: dict | CellResult) -> np.ndarray:
    if isinstance(result, CellResult):
        return np.asarray(result.pmf, dtype=float)
    key = "hull_points" if "hull_points" in result else "casualties"
    return np.asarray(result[key]["pmf"], dtype=float)


@pytest.mark.slow
def test_quick_path_equals_calc_on_the_whole_catalog():
    checked, quick = _check_quick_path(1)
    assert checked > 7000 and quick > 0.8 * checked


def test_quick_path_equals_calc_on_a_slice_of_the_catalog():
    """Every 12th weapon against every target (the whole catalog is the slow tier's: 12 CPU-s)."""
    checked, quick = _check_quick_path(12)
    assert checked > 7000 / 12 and quick > 0.8 * checked


def _check_quick_path(every: int) -> tuple[int, int]:
    """The sweep path against ``calc`` for every ``every``-th weapon of the catalog at every standard target:
    (cells checked, cells the sweep answered itself)."""
    weapons, targets = load_weapons().iloc[::every], load_targets()
    cells, fulls, names = [], [], []
    checked = quick = 0
    for _, w in weapons.iterrows():
        for _, t in targets.iterrows():
            scenario = scenario_for(w, t)
            try:
                full = calc(scenario)
            except ScenarioError as exc:
                parsed = None
                try:
                    parsed = (parse_volley(scenario), parse_target(scenario))
                except ScenarioError as got:
                    assert str(got) == str(exc)
                if parsed is not None:
                    cells.append(parsed)
                    fulls.append(exc)
                    names.append((w["name"], t["name"]))
                continue
            target = parse_target(scenario)  # a marker weapon laid over the default formation, as calc lays it
            cells.append((placed(parse_volley(scenario), target)[0], target))
            fulls.append(full)
            names.append((w["name"], t["name"]))
    for fast, full, name in zip(sweep(cells), fulls, names, strict=True):
        if isinstance(full, ScenarioError):
            assert isinstance(fast, ScenarioError) and str(fast) == str(full), name
            continue
        checked += 1
        if fast is None:
            continue
        quick += 1
        assert not isinstance(fast, ScenarioError), (name, fast)
        a, b = _pmf(fast), _pmf(full)
        n = max(a.size, b.size)
        assert np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))) <= 1e-12, name
        assert (fast.pinned is None) == (full["pinned"] is None)
        if fast.pinned is not None:
            assert fast.pinned == pytest.approx(full["pinned"], abs=1e-12)
        if fast.wrecked is not None:
            assert fast.wrecked == pytest.approx(full["wrecked"], abs=1e-12)
        assert sorted(fast.not_modelled) == sorted(full["not_modelled"]), name
    return checked, quick
