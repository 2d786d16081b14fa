"""A cell of the batch engine (``engine.batch``) and what its target's state is after each count of its
state-changing wounds: ``BatchCell`` (its records, per-hit tables and facts, kept from one batch to the next),
``Block`` (the cells of one hit width), ``merge_short``; the kill maps (``kills_after``) and the casualties they
give (``casualties_of``), P(pinned) after each count (``pin_map``, ``pin_vector``) and the final state
(``final_state``), each map once per target.
"""

from __future__ import annotations

import numpy as np

from praetor_analysis.engine.allocation import after_count
from praetor_analysis.engine.batch_facts import TargetFacts, VolleyFacts, Wounds
from praetor_analysis.engine.batch_results import RuleLists
from praetor_analysis.engine.batch_shared import BatchShared
from praetor_analysis.engine.pinning import pinning_test
from praetor_analysis.engine.volley import TargetState, Volley
from praetor_analysis.prob import THIN_MANY_TERMS
from praetor_analysis.profiles import Unit

__all__ = [
    "MAPS_AT_LEAST",
    "BatchCell",
    "Block",
    "casualties_of",
    "final_state",
    "kills_after",
    "merge_short",
    "pin_map",
    "pin_vector",
]


class BatchCell:
    """One vectorised (volley, target): its records, fresh state, per-hit tables and the facts of its volley and
    target; ``steps``: the allocation chain's (rates, matrices) when it needs the chain; ``exempt``: whether the
    target takes no Pinning test (its own exemptions, or locked in combat by a melee volley); ``rules``: its
    rule lists once asked (``cell_rules``). Kept from one batch to the next (``BatchShared.plans``)."""

    __slots__ = ("exempt", "fresh", "rules", "steps", "target", "target_facts", "volley", "volley_facts", "wounds")

    def __init__(
        self,
        volley: Volley,
        target: Unit,
        fresh: TargetState,
        wounds: Wounds,
        facts: tuple[VolleyFacts, TargetFacts],
        steps: tuple[np.ndarray, list[np.ndarray]] | None = None,
    ) -> None:
        self.volley, self.target, self.fresh, self.wounds = volley, target, fresh, wounds
        self.steps = steps
        self.rules: RuleLists | None = None
        self.volley_facts, self.target_facts = facts
        self.exempt = facts[1].exempt or facts[0].locks


class Block:
    """Cells whose hits fit one block width: their indices in the batch, each with its cell and hit stage."""

    __slots__ = ("entries", "indices")

    def __init__(self) -> None:
        self.indices: list[int] = []
        self.entries: list[tuple[BatchCell, tuple]] = []


def merge_short(blocks: dict[int, Block]) -> dict[int, Block]:
    """The blocks to compute: those of short hits (up to ``THIN_MANY_TERMS`` entries, each its own width) joined
    to the narrowest wider block, or to one another when there is none: a block's numpy calls cost about the
    same for 60 cells as for 600. Their rows keep their own thinning (``BlockCore``: by the binomial terms of
    their length, as the one-cell engine's)."""
    short = [width for width in blocks if width <= THIN_MANY_TERMS]
    if len(short) < 2 and (not short or len(blocks) == 1):
        return blocks
    wide = [width for width in blocks if width > THIN_MANY_TERMS]
    into = min(wide) if wide else max(short)
    out = {width: block for width, block in blocks.items() if width not in short}
    joined = out[into] = Block()
    for width in sorted(blocks):
        if width in short or width == into:
            joined.indices.extend(blocks[width].indices)
            joined.entries.extend(blocks[width].entries)
    return out


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
