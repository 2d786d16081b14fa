"""The comparison's quick sweep path (``analysis.sweep``) and its cells (``analysis.cells.cell_results``) give what
the full ``resolve_shooting`` of the same records gives: the measure (models, or hull points off a Vehicle), the
pmf, Pinned, wrecked and the rules not modelled, for units, a Vehicle and a Dreadnought; a cell it leaves to the
full path (None) is computed there, and a cell that cannot be read is its error message."""

from __future__ import annotations

import numpy as np
import pytest

from praetor_analysis.analysis import cell_of_rows
from praetor_analysis.analysis.cells import cell_result, cell_results
from praetor_analysis.analysis.sweep import CellResult, sweep, sweep_one
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.errors import ScenarioError
from praetor_analysis.units import Measure, UnitRow, WeaponRow, resolve_shooting

WEAPONS = ["Bolter", "Lascannon", "Plasma Gun", "Heavy Bolter"]
TARGETS = ["Legionary", "Legion Rhino Transport", "Contemptor Dreadnought"]


def _cells() -> list[tuple[object, ...]]:
    weapons = load_weapons().drop_duplicates("name")
    targets = load_targets().drop_duplicates("name")
    out = []
    for w in WEAPONS:
        for t in TARGETS:
            wrow = WeaponRow.from_frame(weapons[weapons["name"] == w])[0]
            trow = UnitRow.from_frame(targets[targets["name"] == t])[0]
            shooting = cell_of_rows(wrow, trow)[0]
            out.append((shooting.firing_units[0][0], shooting.target, shooting))
    return out


def _same(mine: CellResult, full: CellResult) -> None:
    size = max(len(mine.pmf), len(full.pmf))
    assert mine.measure is full.measure
    assert np.pad(mine.pmf, (0, size - len(mine.pmf))) == pytest.approx(
        np.pad(full.pmf, (0, size - len(full.pmf))), abs=1e-12
    )
    assert mine.pinned == pytest.approx(full.pinned, abs=1e-12) if full.pinned is not None else mine.pinned is None
    assert mine.wrecked == pytest.approx(full.wrecked, abs=1e-12) if full.wrecked is not None else mine.wrecked is None
    assert tuple(mine.not_modelled) == tuple(full.not_modelled)


def test_the_sweep_gives_the_full_results_numbers() -> None:
    cells = _cells()
    swept = sweep([(v, t) for v, t, _ in cells])
    assert len(swept) == len(cells)
    left = 0
    for (volley, target, shooting), found in zip(cells, swept, strict=True):
        full = CellResult.of(resolve_shooting(shooting))
        assert full.measure is (Measure.HULL_POINTS if target.is_vehicle else Measure.MODELS)
        assert (full.wrecked is None) != target.is_vehicle and (full.pinned is None) == target.is_vehicle
        one = sweep_one(volley, target)
        assert (one is None) == (found is None)
        if one is None or found is None:
            left += 1
            continue
        assert isinstance(found, CellResult)
        _same(found, full)
        _same(one, full)
    assert 0 < left < len(cells)  # a Lascannon at the Rhino takes the full path
    assert any(r is not None and r.not_modelled for r in swept)  # Gets Hot at the Rhino


def test_the_cells_are_the_full_results_or_their_errors() -> None:
    cells = _cells()
    bad = ScenarioError("target: not a target")
    got = cell_results([*[(t, v) for v, t, _ in cells], (bad, cells[0][0])])
    assert got[-1] == "target: not a target" == cell_result(bad, cells[0][0])
    for (volley, target, shooting), found in zip(cells, got, strict=False):
        assert isinstance(found, CellResult), found
        _same(found, CellResult.of(resolve_shooting(shooting)))
        alone = cell_result(target, volley)
        assert isinstance(alone, CellResult)
        _same(alone, found)
