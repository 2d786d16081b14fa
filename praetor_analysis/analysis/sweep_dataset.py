"""A sweep as a partitioned Parquet dataset: one part per datasheet, written as it completes, resumable.

The folder holds ``part-NNNN-TOKEN.parquet`` (NNNN: the datasheet's place in the table; TOKEN: a token of
the part's inputs, :attr:`~praetor_analysis.analysis.faction_sweep.SweepTask.token`), ``_manifest.json``
(the sweep and its parts, done or not) and ``_failures.parquet`` (one row per part whose task failed:
datasheet, faction, token, failure). Each file is written whole or not at all
(:func:`~praetor_analysis.io.atomic_write_with`), so a sweep stopped at any moment leaves whole parts; run
again with the same inputs, it keeps the parts whose token it finds and computes the others. A part written
for other inputs (another field, Legion, roster file, catalog or package version) is removed, never reused.

``pd.read_parquet(folder)`` reads the parts in the table's order (names starting with ``_`` or ``.`` are
skipped); :func:`read_sweep` also checks that every part is there.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from praetor_analysis.analysis.faction_sweep import SWEEP_COLUMNS, SweepTask
from praetor_analysis.errors import ScenarioError
from praetor_analysis.io import OutputError, atomic_write_text, atomic_write_with

__all__ = ["FAILURES", "FAILURE_COLUMNS", "MANIFEST", "SweepReport", "check_folder", "read_sweep", "write_sweep"]

MANIFEST = "_manifest.json"
FAILURES = "_failures.parquet"
FAILURE_COLUMNS = ["datasheet", "faction", "token", "failure"]
"""Columns of the failures table."""

_PART = re.compile(r"^part-(\d{4,})-([0-9a-f]{20})\.parquet$")
_FLOATS = {"mean_per_100_pts", "attacker_points", "target_points", "target_models", "mean", "wounds_mean", "p_any",
           "p_destroyed", "points_removed", "points_removed_per_100_pts", "per_100_pts", "returned",
           "unsaved_mean"}  # fmt: skip
_LISTS = {"removed", "wounds"}


@dataclass(frozen=True)
class SweepReport:
    """What a run of :func:`write_sweep` did: parts in the sweep, kept from an earlier run, written now,
    failed (see ``_failures.parquet``), removed (written for other inputs), rows in the parts written, and rows
    in every part of the dataset now (the kept ones counted from their Parquet metadata, not read)."""

    folder: Path
    parts: int
    kept: int
    written: int
    failed: int
    removed: int
    rows: int
    dataset_rows: int


def _rows_in(path: Path) -> int:
    """The rows of a Parquet file, from its footer."""
    import pyarrow.parquet as pq

    return int(pq.read_metadata(path).num_rows)


def check_folder(path: str | Path) -> Path:
    """``path`` as a folder a sweep may write into (it need not exist; its parent must).

    Raises:
        OutputError: ``path`` is a file, a pipe or a device, or its parent is no folder.
    """
    out = Path(path)
    if str(path) == "":
        raise OutputError(path, "no folder name given")
    if out.is_file():
        raise OutputError(path, "it is a file, not a folder (a sweep writes a folder of Parquet parts)")
    if out.exists() and not out.is_dir():
        raise OutputError(path, "it is a pipe or a device, not a folder (a sweep writes a folder of Parquet parts)")
    if not out.exists() and not out.parent.is_dir():
        raise OutputError(path, f"no such folder: {str(out.parent)!r}")
    return out


def _part_name(index: int, task: SweepTask) -> str:
    return f"part-{index:04d}-{task.token}.parquet"


def _schema() -> Any:
    import pyarrow as pa

    def kind(column: str) -> Any:
        if column in _LISTS:
            return pa.list_(pa.float64())
        if column == "notes":  # what was not modelled, one string a note
            return pa.list_(pa.string())
        return pa.float64() if column in _FLOATS else pa.string()

    return pa.schema([(c, kind(c)) for c in SWEEP_COLUMNS])


def _write_frame(path: Path, frame: pd.DataFrame, schema: Any) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, schema=schema, preserve_index=False)
    atomic_write_with(path, lambda fh: pq.write_table(table, fh))


def _need_pyarrow() -> None:
    try:
        import pyarrow  # noqa: F401
    except ImportError as exc:
        raise ScenarioError(
            f"-o: writing Parquet needs pyarrow (pip install 'praetor_analysis[sweep]'): {exc}"
        ) from None


def write_sweep(
    tasks: Sequence[SweepTask],
    folder: str | Path,
    *,
    workers: int = 1,
    scheduler: Any = None,
    progress: Callable[[int, int, float], None] | None = None,
    about: Mapping[str, str] | None = None,
) -> SweepReport:
    """Write (or resume) the dataset of ``tasks`` in ``folder`` (see the module docstring).

    Args:
        tasks: The parts, in the table's order (:func:`~praetor_analysis.analysis.faction_sweep.sweep_tasks`).
        folder: The dataset's folder (made if absent).
        workers, scheduler: Where the tasks run (:func:`~praetor_analysis.analysis.sweep_run.run_tasks`).
        progress: Called as ``progress(done, total, started)``: once with the parts kept, then per part.
        about: What the manifest records of the sweep (faction, Legion, field).
    """
    from praetor_analysis.analysis.sweep_run import run_tasks

    _need_pyarrow()
    out = check_folder(folder)
    out.mkdir(exist_ok=True)
    schema = _schema()
    names = [_part_name(i, t) for i, t in enumerate(tasks)]
    found = {m.group(2): p for p in out.iterdir() if (m := _PART.match(p.name))}
    wanted = {t.token: n for t, n in zip(tasks, names, strict=True)}
    removed = 0
    for token, path in found.items():
        if token not in wanted:  # written for other inputs
            path.unlink()
            removed += 1
        elif path.name != wanted[token]:  # the same part at another place of the table
            path.replace(out / wanted[token])
    state = {t.token: (out / n).is_file() for t, n in zip(tasks, names, strict=True)}
    kept = sum(state.values())
    kept_rows = sum(_rows_in(out / n) for t, n in zip(tasks, names, strict=True) if state[t.token])
    failures: list[dict[str, str]] = []
    rows = 0
    started = time.monotonic()
    report = progress or (lambda *a: None)

    def manifest() -> None:
        parts = [{"datasheet": t.datasheet, "faction": t.faction, "token": t.token, "file": n,
                  "done": state[t.token]} for t, n in zip(tasks, names, strict=True)]  # fmt: skip
        atomic_write_text(out / MANIFEST, json.dumps({"sweep": dict(about or {}), "parts": parts}, indent=1) + "\n")

    def failures_table() -> None:
        frame = pd.DataFrame(failures, columns=FAILURE_COLUMNS).astype(str)
        atomic_write_with(out / FAILURES, lambda fh: frame.to_parquet(fh, engine="pyarrow", index=False))

    def done(task: SweepTask, frame: pd.DataFrame | None, failure: str | None) -> None:
        nonlocal rows
        if frame is None:
            failures.append({"datasheet": task.datasheet, "faction": task.faction, "token": task.token,
                             "failure": str(failure)})  # fmt: skip
            failures_table()
        else:
            _write_frame(out / wanted[task.token], frame, schema)
            state[task.token] = True
            rows += len(frame)
            manifest()
        report(sum(state.values()) + len(failures), len(tasks), started)

    manifest()
    failures_table()
    report(kept, len(tasks), started)
    todo = [t for t in tasks if not state[t.token]]
    run_tasks(todo, done, workers=workers, scheduler=scheduler)
    written = len(todo) - len(failures)
    return SweepReport(out, len(tasks), kept, written, len(failures), removed, rows, kept_rows + rows)


def read_sweep(folder: str | Path) -> pd.DataFrame:
    """The sweep table of a dataset folder, its parts in the table's order.

    Raises:
        ScenarioError: No manifest, or a part not written yet (run the sweep again to resume it).
    """
    out = Path(folder)
    try:
        manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ScenarioError(f"{str(out)!r}: no sweep manifest ({MANIFEST}): {exc}") from None
    parts = manifest["parts"]
    missing = [p["datasheet"] for p in parts if not (out / p["file"]).is_file()]
    if missing:
        raise ScenarioError(
            f"{str(out)!r}: {len(missing)} of {len(parts)} parts not written (first: {missing[0]!r}); run the "
            "sweep again to resume it"
        )
    frames = [pd.read_parquet(out / p["file"]) for p in parts]
    frames = [f for f in frames if not f.empty]
    if not frames:
        return pd.DataFrame(columns=SWEEP_COLUMNS)
    return pd.concat(frames, ignore_index=True)
