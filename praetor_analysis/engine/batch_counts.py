"""What a batch cell's target is after each count of its state-changing wounds (``engine.batch``): the models
removed and wounds left (``kills_after``) and the casualties they give a block's rows (``casualties_of``),
P(pinned) (``pin_map``, ``pin_vector``) and the final state (``final_state``); each map made once per target
and kept in the batch's caches (``BatchShared``).
"""

from __future__ import annotations

import numpy as np

from praetor_analysis.engine.allocation import after_count
from praetor_analysis.engine.batch_cell import BatchCell
from praetor_analysis.engine.batch_shared import BatchShared
from praetor_analysis.engine.pinning import pinning_test
from praetor_analysis.engine.volley import TargetState
from praetor_analysis.profiles import Unit

__all__ = ["MAPS_AT_LEAST", "casualties_of", "final_state", "kills_after", "pin_map", "pin_vector"]


MAPS_AT_LEAST = 64
"""The kill and Pinning maps (after 0, 1, ... state-changing wounds) are made for at least this many counts and
kept for the longest asked: each count's entry is its own, so a block of short hits reads the first entries of
a wide block's maps (the batch's widest blocks are 64 wide or more)."""


def kills_after(cell: BatchCell, size: int, shared: BatchShared) -> tuple[np.ndarray, np.ndarray]:
    """Models removed and wounds left after 0..size-1 state-changing wounds of the cell."""
    key = (id(cell.target), cell.wounds.damage)
    found = shared.kills.get(key)
    if found is None or found[0].size < size:
        space = cell.fresh.space
        left = cell.target_facts.left or 1
        counts = np.arange(max(size, MAPS_AT_LEAST))
        found = shared.kills[key] = after_count(counts, left, space.wounds, space.models, cell.wounds.damage or 1)
    return found[0][:size], found[1][:size]


def casualties_of(
    change_rows: np.ndarray, kill_cells: list[BatchCell], kill_groups: list[list[int]], shared: BatchShared
) -> np.ndarray:
    """Row j: the pmf of models removed in cell j (padded to the largest unit of the group): the rows
    ``kill_groups[i]`` take the kill map of ``kill_cells[i]`` (one per target and damage), each group one
    product with the map's 0/1 matrix (direct sums of the non-negative pmf entries that remove each number)."""
    k, size = change_rows.shape
    kills = [kills_after(c, size, shared)[0] for c in kill_cells]
    width = max(max(int(m.max(initial=0)) for m in kills), max(c.fresh.space.models for c in kill_cells)) + 1
    out = np.empty((k, width))
    counts = np.arange(size)
    for removed, rows in zip(kills, kill_groups, strict=True):
        onehot = np.zeros((size, width))
        onehot[counts, removed] = 1.0
        if len(rows) == k:
            np.matmul(change_rows, onehot, out=out)
        else:
            out[rows] = change_rows[rows] @ onehot
    return out


def pin_map(cell: BatchCell, size: int, shared: BatchShared) -> np.ndarray:
    """``resolve``'s P(pinned) for a Pinning weapon after each of 0..size-1 state-changing wounds (the target
    not exempt): the Pinning test of the final state, a linear map of the state (its value from each state
    reached computed once per target, Shell Shock and damage, for the most counts asked)."""
    target = cell.target
    shock = cell.volley_facts.shock
    key = (id(target), shock, cell.wounds.damage)
    found = shared.pinning.get(key)
    if found is None or found.size < size:
        n = max(size, MAPS_AT_LEAST)
        index = cell.fresh.space.indices(*kills_after(cell, n, shared))
        flag = np.where(np.arange(n) >= 1, 1, 0)  # level 1: the volley's own Shell Shock
        found = shared.pinning[key] = pin_vector(target, shock, shared)[flag, index]
    return found[:size]


def final_state(cell: BatchCell, counts: np.ndarray, pre: np.ndarray | None, shared: BatchShared) -> TargetState:
    """The unit's final state after the cell, its Pinning test taken (the exact path's): from the unit state each
    count of state-changing wounds leads to, or the chain's state before the test (``pre``); the Pinning flags
    those of a firing unit with this one weapon (row 1: its trigger raised, by any such wound)."""
    space = cell.fresh.space
    if pre is None:
        index = space.indices(*kills_after(cell, counts.size, shared))
        flag = np.arange(counts.size) >= 1
        pre = np.bincount(flag * space.size + index, weights=counts, minlength=2 * space.size).reshape(2, -1)
    if not cell.volley_facts.pinning:
        return TargetState(space, pre.sum(axis=0)[None])
    state = TargetState(space, np.concatenate((pre, np.zeros_like(pre))), (0, cell.volley_facts.shock))
    return state if cell.exempt else pinning_test(state, cell.target)


def pin_vector(target: Unit, shock: int, shared: BatchShared) -> np.ndarray:
    """P(pinned) after ``pinning_test`` from each (trigger, unit state) of a target hit by one Pinning weapon
    of Shell Shock ``shock``: row 0 no unsaved wound, row 1 the volley's trigger raised. The test acts on each
    unit state alone, so one probe per trigger gives every state's value."""
    key = (id(target), shock)
    if key not in shared.pin_vectors:
        base = TargetState.fresh(target, shell_shocks=(shock,))
        out = np.zeros((2, base.space.size))
        for flag in (0, 1):
            probe = np.zeros_like(base.probs)
            probe[flag] = 1.0
            tested = pinning_test(TargetState(base.space, probe, base.shell_shocks), target).probs
            out[flag] = tested[tested.shape[0] // 2 :].sum(axis=0)
        shared.pin_vectors[key] = out
    return shared.pin_vectors[key]
