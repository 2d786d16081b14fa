"""The vehicle half of the sweep path (vehicles/sweep.py: per-hit outcomes shared by statlines that differ only
in hull points, rule lists shared by volleys) equals ``calc`` on vehicle unit profiles of the catalog: hull points
removed, P(wrecked) and the rules not modelled, to 1e-12."""

from __future__ import annotations

import numpy as np
import pytest

from praetor_analysis.analysis.sweep import sweep
from praetor_analysis.catalog import load_units, load_weapons
from praetor_analysis.errors import PraetorError
from praetor_analysis.scenario.calc import calc, parse_target, parse_volley
from praetor_analysis.views.cell_documents import scenario_for

SPECIAL = "Sunder|Haywire|Destroyer|Exoshock|Lance|Armourbane|Rending|Ordnance|Barrage|Twin-linked"


def _vehicles():
    """One vehicle profile per (Front, Side, Rear, HP) and several hull points per armour."""
    units = load_units()
    rows = units[units["Unit Type"].astype(str).str.contains("Vehicle")]
    keys = [c for c in ("Front", "Side", "Rear", "HP") if c in rows.columns]
    return rows.groupby(keys, dropna=False, group_keys=False).head(1)


@pytest.mark.slow
def test_vehicle_sweep_equals_calc_on_vehicle_profiles():
    assert _check_vehicle_sweep(15, 5) > 1500


def test_vehicle_sweep_equals_calc_on_fewer_weapons():
    """The fast tier's slice of the test above: every 60th weapon and every 20th of the special ones."""
    assert _check_vehicle_sweep(60, 20) > 400


def _check_vehicle_sweep(every: int, every_special: int) -> int:
    """The vehicle sweep against ``calc`` for every ``every``-th weapon of the catalog and every ``every_special``-th
    weapon with a special vehicle rule, at one vehicle profile per hull points and armour: how many cells it
    answered itself."""
    weapons = load_weapons()
    special = weapons[weapons["Type"].astype(str).str.contains(SPECIAL)]
    chosen = weapons.iloc[::every].combine_first(special.iloc[::every_special])
    assert chosen["Type"].astype(str).str.contains("Sunder").any()
    vehicles = _vehicles()
    assert vehicles["HP"].nunique() >= 3
    cells, fulls = [], []
    for _, w in chosen.iterrows():
        for _, t in vehicles.iterrows():
            scenario = scenario_for(w, t)
            try:
                cell = (parse_volley(scenario), parse_target(scenario))
            except PraetorError:
                continue
            try:
                full = calc(scenario)
            except PraetorError as exc:
                full = exc
            cells.append(cell)
            fulls.append(full)
    compared = 0
    for fast, full, (volley, target) in zip(sweep(cells), fulls, cells, strict=True):
        where = (volley.weapon.name, target.name)
        if isinstance(full, PraetorError):
            assert isinstance(fast, PraetorError) and str(fast) == str(full), where
            continue
        if fast is None:  # the full chain is needed (Sunder at few hull points left)
            continue
        compared += 1
        a, b = np.asarray(fast.pmf), np.asarray(full["hull_points"]["pmf"], dtype=float)
        n = max(a.size, b.size)
        assert np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))) <= 1e-12, where
        assert fast.wrecked == pytest.approx(full["wrecked"], abs=1e-12), where
        assert sorted(fast.not_modelled) == sorted(full["not_modelled"]), where
    return compared


def test_sweeps_one_after_another_reuse_only_what_the_attacker_does_not_change():
    """The penetration profiles and rule lists are kept across sweeps by what they read: sweeps of the same
    weapons by attackers of other BS, Strength and rules (a dashboard's changes) still equal ``calc``."""
    weapons = load_weapons()
    chosen = weapons[weapons["Type"].astype(str).str.contains("Melta|Rending|Lance")].head(6)
    chosen = chosen.combine_first(weapons[weapons["Strength"].astype(str) == "User"].head(3))
    vehicles = _vehicles().head(4)
    attackers = (
        {"BS": 4, "S": 4, "WS": 4, "A": 2},
        {"BS": 2, "S": 6, "WS": 4, "A": 3},
        {"BS": 4, "S": 4, "WS": 4, "A": 2, "rules": ["Preferred Enemy (Rhino)"]},
    )
    compared = 0
    for attacker in attackers:
        cells, fulls = [], []
        for _, w in chosen.iterrows():
            for _, t in vehicles.iterrows():
                scenario = {**scenario_for(w, t), "attacker": attacker}
                try:
                    cell, full = (parse_volley(scenario), parse_target(scenario)), calc(scenario)
                except PraetorError:
                    continue
                cells.append(cell)
                fulls.append(full)
        for fast, full in zip(sweep(cells), fulls, strict=True):
            if fast is None:
                continue
            a, b = np.asarray(fast.pmf), np.asarray(full["hull_points"]["pmf"], dtype=float)
            n = max(a.size, b.size)
            assert np.max(np.abs(np.pad(a, (0, n - a.size)) - np.pad(b, (0, n - b.size)))) <= 1e-12
            assert sorted(fast.not_modelled) == sorted(full["not_modelled"])
            compared += 1
    assert compared > 40
