"""A comparison that remembers its cells: each call computes only the (weapon, target) cells it has not seen.

A dashboard asks for the same weapons x targets table again and again with one thing changed: a target added
(one new column of cells), a weapon added (one new row), the colour measure (no new cell at all). A cell's
numbers depend only on the weapon row, the target row, the attacker block and half range, so
:class:`ComparisonCache` keys each cell on exactly those and sends the cells it lacks to
:func:`~praetor_analysis.analysis.compare.comparison_cells` (the batch engine, in one sweep). The table it returns
equals :func:`~praetor_analysis.analysis.compare.compare_with_distributions` on the same frames (tests).
"""

from __future__ import annotations

import itertools
import weakref
from dataclasses import replace

import numpy as np
import pandas as pd

from praetor_analysis.analysis.attacker import DEFAULT_ATTACKER, AttackerProfile
from praetor_analysis.analysis.compare import (
    ComparisonRow,
    check_frame,
    check_options,
    comparison_cells,
    comparison_frame,
    row_ids,
)
from praetor_analysis.units import UnitRow, WeaponRow

__all__ = ["ComparisonCache"]

_FRAMES_REMEMBERED = 8
Setting = tuple[AttackerProfile, bool]
"""What a cell depends on beside its rows: the attacker and half range."""


class ComparisonCache:
    """:func:`~praetor_analysis.analysis.compare.compare_with_distributions` with every cell remembered.

    The keys of a frame's rows are read once per frame object (the last few frames are remembered), so change
    a frame by making a new one, as pandas operations do, not in place.

    Args:
        max_cells: Cells kept; beyond, the memory is cleared and starts again.

    Attributes:
        computed: Cells sent to the engine since creation (a cell seen before is not sent again).
    """

    def __init__(self, max_cells: int = 20_000) -> None:
        self.max_cells = max_cells
        self.computed = 0
        self._cells: dict[tuple[str, str, Setting], tuple[ComparisonRow, np.ndarray | None]] = {}
        self._frames: dict[int, tuple[weakref.ref[pd.DataFrame], list[str], list[str]]] = {}
        self._last: tuple[list[str], list[str], Setting, tuple[pd.DataFrame, dict[tuple[str, str], np.ndarray]]] | None
        self._last = None

    def clear(self) -> None:
        """Forget every cell."""
        self._cells.clear()
        self._last = None

    def compare_with_distributions(
        self,
        weapons: pd.DataFrame,
        targets: pd.DataFrame,
        *,
        attacker: AttackerProfile | None = None,
        half_range: bool = False,
    ) -> tuple[pd.DataFrame, dict[tuple[str, str], np.ndarray]]:
        """The table and the pmfs of ``compare_with_distributions(weapons, targets, ...)``; only the cells not
        seen before (with this attacker and half range) are computed. The pmfs are read-only arrays; a call
        with the same frames and setting as the last one returns the same table object (do not modify it)."""
        check_frame(weapons, "weapons")
        check_frame(targets, "targets")
        check_options(attacker, half_range)
        wkeys, wids = self._keys(weapons, weapon=True)
        tkeys, tids = self._keys(targets, weapon=False)
        setting = (attacker or DEFAULT_ATTACKER, half_range)  # the frozen record's own hash: nothing listed
        last = self._last
        if last is not None and last[0] is wkeys and last[1] is tkeys and last[2] == setting:
            return last[3]  # the same frames and setting as the last call: the same answer
        missing = [
            (i, j) for i, wk in enumerate(wkeys) for j, tk in enumerate(tkeys) if (wk, tk, setting) not in self._cells
        ]
        if missing:
            self._compute(weapons, targets, missing, (wkeys, tkeys, setting), attacker, half_range)
        rows: list[ComparisonRow] = []
        pmfs: dict[tuple[str, str], np.ndarray] = {}
        for wk, wid in zip(wkeys, wids, strict=True):
            for tk, tid in zip(tkeys, tids, strict=True):
                record, pmf = self._cells[(wk, tk, setting)]
                rows.append(replace(record, weapon_id=wid, target_id=tid))
                if pmf is not None:
                    pmfs[(wid, tid)] = pmf
        answer = comparison_frame(rows), pmfs
        self._last = (wkeys, tkeys, setting, answer)
        return answer

    def _compute(
        self,
        weapons: pd.DataFrame,
        targets: pd.DataFrame,
        missing: list[tuple[int, int]],
        keys: tuple[list[str], list[str], Setting],
        attacker: AttackerProfile | None,
        half_range: bool,
    ) -> None:
        """The rows and columns that miss a cell, as one comparison (one sweep of the engine)."""
        wkeys, tkeys, setting = keys
        wi = sorted({i for i, _ in missing})
        tj = sorted({j for _, j in missing})
        if len(self._cells) + len(wi) * len(tj) > self.max_cells:
            self._cells.clear()  # the cells this table had are gone too: compute all of it
            wi, tj = list(range(len(wkeys))), list(range(len(tkeys)))
        cells = comparison_cells(weapons.iloc[wi], targets.iloc[tj], attacker, None, half_range)
        for (i, j), (record, pmf) in zip(itertools.product(wi, tj), cells, strict=True):
            if pmf is not None:
                pmf = pmf.copy()  # shared by every later table of this cell: read-only
                pmf.flags.writeable = False
            self._cells[(wkeys[i], tkeys[j], setting)] = (record, pmf)
        self.computed += len(wi) * len(tj)

    def _keys(self, frame: pd.DataFrame, *, weapon: bool) -> tuple[list[str], list[str]]:
        """What each row's cells depend on (as text) and the rows' ids, once per frame object."""
        known = self._frames.get(id(frame))
        if known is not None and known[0]() is frame:
            return known[1], known[2]
        if weapon:
            keys = [repr((sorted(r.to_block().items()), r.faction, r.points)) for r in WeaponRow.from_frame(frame)]
        else:
            keys = [repr((sorted(r.to_block().items()), r.is_vehicle)) for r in UnitRow.from_frame(frame)]
        ids = row_ids(frame)
        if len(self._frames) >= _FRAMES_REMEMBERED:
            self._frames.clear()
        self._frames[id(frame)] = (weakref.ref(frame), keys, ids)
        return keys, ids
