"""The analysts' door: a DataFrame of scenarios in, a DataFrame of results out (:func:`calc_frame`).

One row a scenario: each column a field of the docs/scenario.md document (``attacker``, ``weapon``,
``attacks``, ``target``...; a missing value, ``None`` or NaN, is a field left out). One row a result, on the
same index: each distribution of the result mapping as two columns, ``hits`` (its pmf, a read-only float
array over 0..max) and ``hits_mean``; every other field of the mapping (``pinned``, ``applied``, ``reasons``,
``attacker``, ``target``...) as it is there; ``error``, the refusal's one-line message (``""`` when the row
was computed). The numbers are :func:`~praetor_analysis.scenario.calc.calc_many`'s, row by row: the
single-volley rows are computed by the engine's batch together and their columns filled from its typed
results, without the contract's mappings in between. pandas is imported when the door is called.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from praetor_analysis.engine import BatchResult, BlockResult, Volley, VolleyResult
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.prob import MISSING, Unkeyed, probability, token_rows
from praetor_analysis.profiles import Unit
from praetor_analysis.scenario.calc import calc_results, cell_reasons, unit_echo_once
from praetor_analysis.scenario.collector import collector_paused
from praetor_analysis.scenario.work import document_keys

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["DISTRIBUTIONS", "calc_frame", "frame_documents", "frame_keys"]

DISTRIBUTIONS = ("hits", "wounds", "unsaved", "casualties", "gets_hot")
"""The distributions of a volley's result, in the order their columns come."""


def frame_documents(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The scenario document of each row: its cells that hold a value (``None``, NaN and ``pd.NA`` are a field
    left out), numpy scalars as Python numbers; read column by column (a later column of a repeated name wins,
    as in ``to_dict("records")``)."""
    rows = _RowDocuments(*_frame_columns(frame), len(frame))
    return [rows[i] for i in range(len(rows))]


def frame_keys(frame: pd.DataFrame) -> tuple[list[dict[str, Any]], list[Hashable]]:
    """:func:`frame_documents` and their keys (``scenario.work.document_keys`` of them), the keys made column by
    column from the cells (``prob.token_rows``: each distinct object of a column keyed once) when the frame's
    column names are distinct."""
    rows, keys = _row_keys(frame)
    return [rows[i] for i in range(len(rows))], keys


def _row_keys(frame: pd.DataFrame) -> tuple[_RowDocuments, list[Hashable]]:
    """The frame's rows as documents made when read, and their keys (:func:`frame_keys`)."""
    names, columns = _frame_columns(frame)
    rows = _RowDocuments(names, columns, len(frame))
    if len(set(names)) < len(names):  # a later column of a repeated name wins: keyed as documents
        return rows, document_keys([rows[i] for i in range(len(rows))])
    keys = token_rows(names, columns, len(rows))
    return rows, [Unkeyed(-1 - i) if k is None else k for i, k in enumerate(keys)]  # no key: the row's own


class _RowDocuments:
    """The documents of a frame's rows, each made when it is read (row ``i``: the fields ``names`` whose cell
    of ``columns`` is not ``MISSING``, a later column of a repeated name winning)."""

    def __init__(self, names: list[str], columns: list[list[Any]], n: int) -> None:
        self.names, self.columns, self.n = names, columns, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, cells in zip(self.names, self.columns, strict=True):
            if cells[i] is not MISSING:
                out[name] = cells[i]
        return out


_AS_READ = frozenset({dict, list, str, int, bool})
"""Cell types that are neither a missing value nor a numpy scalar: a column of only these is read as it is."""


def _frame_columns(frame: pd.DataFrame) -> tuple[list[str], list[list[Any]]]:
    """The frame's column names as text and its columns' cells (``MISSING`` for a field left out, numpy scalars
    as Python numbers)."""
    import pandas as pd

    na = pd.NA
    names = [str(name) for name in frame.columns]
    columns: list[list[Any]] = []
    for position in range(len(names)):
        cells = frame.iloc[:, position].tolist()
        if not _AS_READ.issuperset(map(type, cells)):  # missing values or numpy scalars: read cell by cell
            for i, v in enumerate(cells):
                if v is None or v is na or (type(v) is float and math.isnan(v)):
                    cells[i] = MISSING
                elif isinstance(v, np.generic):
                    cells[i] = v.item()
        columns.append(cells)
    return names, columns


def calc_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The result of every row's scenario (see the module docstring), on the frame's index.

    A row that is refused has its message under ``error`` and no other value. Object cells of one unit echo or
    one set of reasons are one object shared by the rows that have them: copy one before changing it.

    Example::

        frame = pd.DataFrame({"attacker": [{"BS": 4}] * 2, "weapon": ["Lascannon", "Bolter"], "attacks": [1, 10],
                              "target": ["Legionary (Tactical Squad)"] * 2})
        calc_frame(frame)[["casualties_mean", "pinned"]]
    """
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise ScenarioError(f"frame: expected a pandas DataFrame, got {type(frame).__name__}")
    with collector_paused():  # many short-lived records: see scenario.collector
        return _result_frame(frame)  # its locals (documents, keys, records) dropped before the collector runs


def _result_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """``calc_frame`` itself, once the frame is checked."""
    import pandas as pd

    documents, keys = _row_keys(frame)
    held: list[tuple[Sequence[tuple[Volley, Unit]], BatchResult]] = []

    def build(cells: Sequence[tuple[Volley, Unit]], batch: BatchResult) -> list[Any]:
        """Each cell its place in the batch (the columns read the batch's arrays), or its error."""
        held.append((cells, batch))
        out: list[Any] = list(range(batch.size))
        for i, result in batch.others.items():
            if isinstance(result, PraetorError):
                out[i] = ScenarioError(str(result), field=result.field, value=result.value)
        return out

    rows = calc_results(documents, build, keys)
    columns = _Columns(len(rows))
    if held:
        _batch_columns(columns, [r if type(r) is int else -1 for r in rows], *held[0])
    _mapping_columns(columns, rows)
    data: dict[str, Any] = columns.done()
    data["error"] = [str(r) if isinstance(r, ScenarioError) else "" for r in rows]
    return pd.DataFrame(data, index=frame.index, copy=False)  # the columns are this call's own: not copied


class _Columns:
    """The result's columns as they are filled (object arrays; a ``_mean`` column a float array, NaN where a row
    has none), in the order they are first asked for; a column no row filled is left out."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.arrays: dict[str, np.ndarray] = {}
        self.filled: set[str] = set()

    def objects(self, name: str) -> np.ndarray:
        found = self.arrays.get(name)
        if found is None:
            found = self.arrays[name] = np.empty(self.n, dtype=object)  # every cell None
        return found

    def means(self, name: str) -> np.ndarray:
        found = self.arrays.get(name)
        if found is None:
            found = self.arrays[name] = np.full(self.n, math.nan)
        return found

    def put(self, name: str, rows: np.ndarray, values: list[Any]) -> None:
        """Cells ``rows`` of object column ``name`` are ``values`` (arrays and lists kept as cells)."""
        self.objects(name)[rows] = np.fromiter(values, dtype=object, count=len(values))
        if name not in self.filled and any(v is not None for v in values):
            self.filled.add(name)

    def put_one(self, name: str, row: int, value: Any) -> None:
        self.objects(name)[row] = value
        if value is not None:
            self.filled.add(name)

    def done(self) -> dict[str, np.ndarray]:
        return {
            name: values
            for name, values in self.arrays.items()
            if (not np.isnan(values).all() if values.dtype.kind == "f" else name in self.filled)
        }


_MATRICES = ("wounds", "unsaved", "casualties")
"""The distributions a ``BlockResult`` holds as matrices over its cells (the others one ``Dist`` a cell)."""

_SCALARS = ("pinned", "applied", "not_modelled", "no_effect", "attack_happens", "perils")
"""The result's fields other than distributions, in their columns' order."""


def _batch_columns(
    columns: _Columns, places: list[int], cells: Sequence[tuple[Volley, Unit]], batch: BatchResult
) -> None:
    """The columns of the rows the batch computed (``places``: each row's cell in the batch, -1 for the others):
    a block's rows from its arrays, taken together (the means by index, each pmf a read-only row of its
    matrix), a cell of the one-cell engine from its ``VolleyResult``."""
    place = np.asarray(places, dtype=np.intp)
    at = np.flatnonzero(place >= 0)  # the rows the batch computed
    if not at.size:
        return
    for name in DISTRIBUTIONS:  # the columns' order
        columns.objects(name), columns.means(f"{name}_mean")
    for name in (*_SCALARS, "attacker", "target", "reasons"):
        columns.objects(name)
    cell = place[at]
    block_of, j_of = np.full(batch.size, -1, dtype=np.intp), np.zeros(batch.size, dtype=np.intp)
    for b, block in enumerate(batch.blocks):
        found = np.asarray(block.cells, dtype=np.intp)
        block_of[found], j_of[found] = b, np.arange(found.size)
    row_block, row_j = block_of[cell], j_of[cell]
    echoes: dict[int, dict[str, Any]] = {}
    why: dict[tuple, dict[str, str]] = {}
    for b, block in enumerate(batch.blocks):
        picked = np.flatnonzero(row_block == b)
        if picked.size:
            rows, js = at[picked], row_j[picked]
            _block_columns(columns, block, rows, js)
            rules = [block.rules[j] for j in js.tolist()]
            _unit_columns(columns, rows, [cells[c] for c in cell[picked].tolist()], rules, echoes, why)
    alone = np.flatnonzero(row_block < 0)
    for row, c in zip(at[alone].tolist(), cell[alone].tolist(), strict=True):
        result = batch.others[c]
        assert isinstance(result, VolleyResult)  # the errors are the rows' values
        for name in DISTRIBUTIONS:
            dist = getattr(result, name)
            if dist is not None:
                columns.put_one(name, row, dist.probabilities)
                columns.means(f"{name}_mean")[row] = dist.mean()
        for name in _SCALARS:
            value = getattr(result, name)
            columns.put_one(name, row, list(value) if isinstance(value, tuple) else value)
        rules = [(result.applied, result.no_effect, result.not_modelled)]
        _unit_columns(columns, np.array([row]), [cells[c]], rules, echoes, why)


def _block_columns(columns: _Columns, block: BlockResult, rows: np.ndarray, js: np.ndarray) -> None:
    """Rows ``rows`` of the columns from rows ``js`` of a block's arrays."""
    at = js.tolist()
    for name in _MATRICES:  # rows of the block's matrix: read-only views
        found = getattr(block, name)
        matrix, ends = found.pmfs, found.ends
        columns.means(f"{name}_mean")[rows] = np.asarray(found.means)[js]
        columns.put(name, rows, [matrix[j, : ends[j]] for j in at])
    means: dict[int, float] = {}  # by distribution: the cells of one hit stage share theirs
    for name in ("hits", "gets_hot"):
        dists = [getattr(block, name)[j] for j in at]
        if name == "gets_hot" and not any(d is not None for d in dists):
            continue
        pmfs: list[np.ndarray | None] = []
        values: list[float] = []
        for dist in dists:
            if dist is None:
                pmfs.append(None)
                values.append(math.nan)
                continue
            mean = means.get(id(dist))
            if mean is None:
                mean = means[id(dist)] = dist.mean()
            pmfs.append(dist.probabilities)
            values.append(mean)
        columns.put(name, rows, pmfs)
        columns.means(f"{name}_mean")[rows] = values
    rules = [block.rules[j] for j in at]
    columns.put("pinned", rows, [block.pinned[j] for j in at])
    for name, k in (("applied", 0), ("not_modelled", 2), ("no_effect", 1)):
        columns.put(name, rows, [list(r[k]) for r in rules])
    passed = [block.attack_happens[j] for j in at]
    if any(p is not None for p in passed):
        columns.put("attack_happens", rows, passed)
        columns.put("perils", rows, [None if p is None else probability(1.0 - p) for p in passed])


def _unit_columns(
    columns: _Columns,
    rows: np.ndarray,
    cells: Sequence[tuple[Volley, Unit]],
    rules: Sequence[tuple[Sequence[str], Sequence[str], Sequence[str]]],
    echoes: dict[int, dict[str, Any]],
    why: dict[tuple, dict[str, str]],
) -> None:
    """The echoes of the rows' units and their reasons (each made once and shared, as ``result_mappings`` makes
    them); ``cells`` and ``rules`` (applied, no effect, not modelled) the rows' own."""
    attackers, targets, reasons = [], [], []
    for (volley, target), r in zip(cells, rules, strict=True):
        attacker = echoes.get(id(volley.attacker))
        attackers.append(attacker if attacker is not None else unit_echo_once(volley.attacker, echoes))
        found = echoes.get(id(target))
        targets.append(found if found is not None else unit_echo_once(target, echoes))
        reasons.append(cell_reasons(volley, r[1], r[2], why))
    columns.put("attacker", rows, attackers)
    columns.put("target", rows, targets)
    columns.put("reasons", rows, reasons)


def _mapping_columns(columns: _Columns, rows: Sequence[Any]) -> None:
    """The columns of the rows ``calc`` computed, field by field from their mappings."""
    for i, row in enumerate(rows):
        if type(row) is not int and isinstance(row, Mapping):  # a batch row is its cell's place
            for name, value in row.items():
                if isinstance(value, Mapping) and set(value) == {"pmf", "mean"}:
                    columns.put_one(name, i, np.asarray(value["pmf"], dtype=np.float64))
                    columns.means(f"{name}_mean")[i] = math.nan if value["mean"] is None else value["mean"]
                elif name.endswith("_mean"):  # a number (NaN in the rows without it), as a distribution's mean
                    columns.means(name)[i] = math.nan if value is None else value
                else:
                    columns.put_one(name, i, value)
