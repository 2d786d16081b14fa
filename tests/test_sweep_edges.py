"""The sweep's paths that the other tests do not reach (docs/testing.md, "Left" of the fourth mutation run): the
batch engine raising (each cell computed alone), a Vehicle cell the batch answers with an error, a sweep dataset
whose parts are all empty, and the start time handed to the progress callback. Each test kills a mutant that
survived the others."""

from __future__ import annotations

import time
from pathlib import Path

import pandas as pd
import pytest

from praetor_analysis.analysis import cell_of_rows, read_sweep, sweep_run, sweep_tasks, write_sweep
from praetor_analysis.analysis import cells as cells_module
from praetor_analysis.analysis import sweep as sweep_module
from praetor_analysis.analysis.cells import cell_result, cell_results
from praetor_analysis.analysis.faction_sweep import SWEEP_COLUMNS
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.units import UnitRow, WeaponRow


def _cell(weapon: str, target: str) -> tuple[object, object]:
    weapons, targets = load_weapons().drop_duplicates("name"), load_targets().drop_duplicates("name")
    wrow = WeaponRow.from_frame(weapons[weapons["name"] == weapon])[0]
    trow = UnitRow.from_frame(targets[targets["name"] == target])[0]
    shooting = cell_of_rows(wrow, trow)[0]
    return shooting.target, shooting.firing_units[0][0]


def test_when_the_batch_raises_each_cell_is_computed_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    cells = [_cell("Bolter", "Legionary"), _cell("Lascannon", "Legion Rhino Transport")]
    want = [cell_result(t, v) for t, v in cells]

    def broken(_: object) -> list[object]:
        raise RuntimeError("an engine defect")

    monkeypatch.setattr(cells_module, "sweep", broken)
    got = cell_results(cells)
    assert [type(g) for g in got] == [type(w) for w in want] and len(got) == 2
    for g, w in zip(got, want, strict=True):
        assert not isinstance(g, str) and not isinstance(w, str)
        assert list(g.pmf) == pytest.approx(list(w.pmf), abs=1e-12)


def test_a_vehicle_cell_the_batch_refuses_is_its_error(monkeypatch: pytest.MonkeyPatch) -> None:
    target, volley = _cell("Lascannon", "Legion Rhino Transport")
    assert target.is_vehicle  # type: ignore[attr-defined]
    monkeypatch.setattr(sweep_module, "hull_points_many", lambda cells: [PraetorError("weapon: no such profile")])
    (found,) = sweep_module.sweep([(volley, target)])  # type: ignore[list-item]
    assert isinstance(found, ScenarioError) and str(found) == "weapon: no such profile"


def test_a_marker_cell_carries_the_default_formation_it_is_laid_over() -> None:
    # the report reads the setup of a Blast or Template cell; a plain shot has none
    weapons, targets = load_weapons(), load_targets().drop_duplicates("name")
    trow = UnitRow.from_frame(targets[targets["name"] == "Legionary"])[0]
    blast = weapons[weapons["Type"].str.contains("Blast", na=False) & ~weapons["Type"].str.contains("Melee")]
    marker = cell_of_rows(WeaponRow.from_frame(blast.head(1))[0], trow)[0]
    plain = cell_of_rows(WeaponRow.from_frame(weapons[weapons["name"] == "Bolter"].head(1))[0], trow)[0]
    assert marker.marker is not None and plain.marker is None


def test_a_sweep_of_empty_parts_reads_as_an_empty_table_of_its_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = sweep_tasks("Dark Angels", datasheets=["Corswain"])
    monkeypatch.setattr(sweep_run, "run_task", lambda task: pd.DataFrame(columns=SWEEP_COLUMNS))
    report = write_sweep(tasks, tmp_path / "ds")
    assert (report.written, report.rows, report.dataset_rows) == (1, 0, 0)
    table = read_sweep(tmp_path / "ds")
    assert table.empty and list(table.columns) == SWEEP_COLUMNS


def test_the_progress_callback_is_given_the_start_of_the_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = sweep_tasks("Dark Angels", datasheets=["Corswain"])
    monkeypatch.setattr(sweep_run, "run_task", lambda task: pd.DataFrame(columns=SWEEP_COLUMNS))
    seen: list[tuple[int, int, float]] = []
    before = time.monotonic()
    write_sweep(tasks, tmp_path / "ds", progress=lambda done, total, started: seen.append((done, total, started)))
    after = time.monotonic()
    assert [(d, t) for d, t, _ in seen] == [(0, 1), (1, 1)]
    starts = {s for _, _, s in seen}
    assert len(starts) == 1 and before <= starts.pop() <= after  # one start, taken in the run (time.monotonic)
