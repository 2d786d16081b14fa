"""The quick sweep path equals the full engine on every shipped weapon against every shipped target."""

from __future__ import annotations

import numpy as np
import pytest

from praetor_analysis.analysis.compare import scenario_for
from praetor_analysis.analysis.quick import quick_result
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.scenario.calc import ScenarioError, calc


def _pmf(result: dict) -> np.ndarray:
    key = "hull_points" if "hull_points" in result else "casualties"
    return np.asarray(result[key]["pmf"], dtype=float)


def test_quick_path_equals_calc_on_the_whole_catalog():
    weapons, targets = load_weapons(), load_targets()
    checked = quick = 0
    for _, w in weapons.iterrows():
        for _, t in targets.iterrows():
            scenario = scenario_for(w, t)
            try:
                full = calc(scenario)
            except ScenarioError as exc:
                with pytest.raises(ScenarioError) as got:
                    quick_result(scenario)
                assert str(got.value) == str(exc)
                continue
            fast = quick_result(scenario)
            checked += 1
            if fast is None:
                continue
            quick += 1
            a, b = _pmf(fast), _pmf(full)
            n = max(a.size, b.size)
            assert np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))) <= 1e-12, (
                w["name"],
                t["name"],
            )
            assert (fast["pinned"] is None) == (full["pinned"] is None)
            if fast["pinned"] is not None:
                assert fast["pinned"] == pytest.approx(full["pinned"], abs=1e-12)
            if "wrecked" in fast:
                assert fast["wrecked"] == pytest.approx(full["wrecked"], abs=1e-12)
            assert sorted(fast["not_modelled"]) == sorted(full["not_modelled"]), (w["name"], t["name"])
    assert checked > 7000 and quick > 0.8 * checked
