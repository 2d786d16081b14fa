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
from praetor_analysis.prob import MISSING, Unkeyed, frozen_rows, probability
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
    return _frame_cells(frame)[0]


def frame_keys(frame: pd.DataFrame) -> tuple[list[dict[str, Any]], list[Hashable]]:
    """:func:`frame_documents` and their keys (``scenario.work.document_keys`` of them), the keys made column by
    column from the cells (``prob.frozen_rows``) when the frame's column names are distinct."""
    documents, names, columns = _frame_cells(frame)
    if len(set(names)) < len(names):  # a later column of a repeated name wins: keyed as documents
        return documents, document_keys(documents)
    keys = frozen_rows(names, columns, len(documents))
    return documents, [Unkeyed(id(d)) if k is None else k for d, k in zip(documents, keys, strict=True)]


def _frame_cells(frame: pd.DataFrame) -> tuple[list[dict[str, Any]], list[str], list[list[Any]]]:
    """The frame's documents, its column names as text and its columns' cells (``MISSING`` for a field left
    out, numpy scalars as Python numbers)."""
    import pandas as pd

    na = pd.NA
    documents: list[dict[str, Any]] = [{} for _ in range(len(frame))]
    names = [str(name) for name in frame.columns]
    columns: list[list[Any]] = []
    for position, key in enumerate(names):
        cells = frame.iloc[:, position].tolist()
        for i, (document, v) in enumerate(zip(documents, cells, strict=True)):
            if v is None or v is na or (type(v) is float and math.isnan(v)):
                cells[i] = MISSING
                continue
            if isinstance(v, np.generic):
                v = cells[i] = v.item()
            document[key] = v
        columns.append(cells)
    return documents, names, columns


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

    documents, keys = frame_keys(frame)
    rows = calc_results(documents, _typed_rows, keys)
    data: dict[str, Any] = {}
    for name, values in _columns(rows).items():  # object columns filled one by one: arrays stay cells
        data[name] = values if isinstance(values, np.ndarray) else np.fromiter(values, dtype=object, count=len(rows))
    data["error"] = [str(r) if isinstance(r, ScenarioError) else "" for r in rows]
    return pd.DataFrame(data, index=frame.index)


_Typed = tuple[BlockResult | VolleyResult, int, dict[str, Any], dict[str, Any], dict[str, str]]
"""A batch row: where its result is (row ``j`` of a block's arrays, or its own ``VolleyResult``), ``j``, the
echoes of its units and its reasons (shared by equal ones)."""


def _typed_rows(cells: Sequence[tuple[Volley, Unit]], batch: BatchResult) -> list[Any]:
    """The batch's rows as typed results (``calc_results``' build): each unit's echo and each set of reasons
    made once, as ``result_mappings`` makes them."""
    echoes: dict[int, dict[str, Any]] = {}
    why: dict[tuple, dict[str, str]] = {}
    out: list[Any] = [None] * batch.size

    def typed(i: int, found: BlockResult | VolleyResult, j: int, no_effect: Any, not_modelled: Any) -> _Typed:
        volley, target = cells[i]
        attacker, target_echo = unit_echo_once(volley.attacker, echoes), unit_echo_once(target, echoes)
        return (found, j, attacker, target_echo, cell_reasons(volley, no_effect, not_modelled, why))

    for block in batch.blocks:
        for j, (i, rules) in enumerate(zip(block.cells, block.rules, strict=True)):
            out[i] = typed(i, block, j, rules[1], rules[2])
    for i, result in batch.others.items():
        if isinstance(result, PraetorError):
            out[i] = ScenarioError(str(result), field=result.field, value=result.value)
            continue
        assert isinstance(result, VolleyResult)
        out[i] = typed(i, result, 0, result.no_effect, result.not_modelled)
    return out


_MATRICES = ("wounds", "unsaved", "casualties")
"""The distributions a ``BlockResult`` holds as matrices over its cells (the others one ``Dist`` a cell)."""

_SCALARS = ("pinned", "applied", "not_modelled", "no_effect", "attack_happens", "perils")
"""The result's fields other than distributions, in their columns' order."""


def _columns(rows: Sequence[Any]) -> dict[str, list[Any] | np.ndarray]:
    """Every column's values, row by row (None where a row has no such field; a ``_mean`` column a float array,
    NaN there): the batch's rows block by block from the batch's arrays (or their own typed results), the
    others field by field from their mappings."""
    n = len(rows)
    columns: dict[str, list[Any] | np.ndarray] = {}

    def column(name: str) -> list[Any]:
        found = columns.get(name)
        if found is None:
            found = columns[name] = [None] * n
        assert isinstance(found, list)
        return found

    def means_of(name: str) -> np.ndarray:
        found = columns.get(name)
        if found is None:
            found = columns[name] = np.full(n, math.nan)
        assert isinstance(found, np.ndarray)
        return found

    typed: list[tuple[int, _Typed]] = [(i, row) for i, row in enumerate(rows) if type(row) is tuple]
    if typed:
        blocks: dict[int, tuple[BlockResult, list[int], list[int]]] = {}  # by block: its rows and their places
        alone: list[tuple[int, VolleyResult]] = []
        for i, (found, j, *_) in typed:
            if isinstance(found, VolleyResult):
                alone.append((i, found))
                continue
            entry = blocks.get(id(found))
            if entry is None:
                entry = blocks[id(found)] = (found, [], [])
            entry[1].append(i)
            entry[2].append(j)
        hit_means: dict[int, float] = {}  # by distribution: the cells of one hit stage share theirs
        for name in DISTRIBUTIONS:
            pmfs, means = column(name), means_of(f"{name}_mean")
            for block, at, js in blocks.values():
                if name in _MATRICES:  # rows of the block's matrix: read-only views
                    rows_of = getattr(block, name)
                    matrix, ends, block_means = rows_of.pmfs, rows_of.ends, rows_of.means
                    for i, j in zip(at, js, strict=True):
                        pmfs[i], means[i] = matrix[j, : ends[j]], block_means[j]
                    continue
                dists = getattr(block, name)
                for i, j in zip(at, js, strict=True):
                    dist = dists[j]
                    if dist is not None:
                        mean = hit_means.get(id(dist))
                        if mean is None:
                            mean = hit_means[id(dist)] = dist.mean()
                        pmfs[i], means[i] = dist.probabilities, mean
            for i, result in alone:
                dist = getattr(result, name)
                if dist is not None:
                    pmfs[i], means[i] = dist.probabilities, dist.mean()
        scalars = [column(name) for name in _SCALARS]
        pinned, applied, not_modelled, no_effect, happens, perils = scalars
        for block, at, js in blocks.values():
            for i, j in zip(at, js, strict=True):
                rules, passed = block.rules[j], block.attack_happens[j]
                pinned[i], applied[i], not_modelled[i], no_effect[i] = (
                    block.pinned[j],
                    list(rules[0]),
                    list(rules[2]),
                    list(rules[1]),
                )
                happens[i], perils[i] = passed, (None if passed is None else probability(1.0 - passed))
        for i, result in alone:
            for name, values in zip(_SCALARS, scalars, strict=True):
                value = getattr(result, name)
                values[i] = list(value) if isinstance(value, tuple) else value
        for place, name in enumerate(("attacker", "target", "reasons"), start=2):
            values = column(name)
            for i, row in typed:
                values[i] = row[place]
    for i, row in enumerate(rows):
        if isinstance(row, Mapping):
            for name, value in row.items():
                if isinstance(value, Mapping) and set(value) == {"pmf", "mean"}:
                    column(name)[i] = np.asarray(value["pmf"], dtype=np.float64)
                    means_of(f"{name}_mean")[i] = math.nan if value["mean"] is None else value["mean"]
                elif name.endswith("_mean"):  # a number (NaN in the rows without it), as a distribution's mean
                    means_of(name)[i] = math.nan if value is None else value
                else:
                    column(name)[i] = value
    return {
        name: values
        for name, values in columns.items()
        if (not np.isnan(values).all() if isinstance(values, np.ndarray) else any(v is not None for v in values))
    }
