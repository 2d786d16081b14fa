"""The capped allocation chain of many cells at once: the batch's path for Brutal, Instant Death and
Murderous Strike against multi-wound models (``Allocator.resolve`` when every group has an effective step).

Only the wounds that change the unit's state count (``effective_step``). With G priority groups in allocation
order, the final state is ``sum over (b_1..b_G) P(b_1..b_G) s T_1^b_1 ... T_G^b_G``, each count capped at
``models x wounds`` (after that many the unit is wiped out, a fixed point of every later wound: the tail is
lumped into the cap, as ``Allocator._resolve_capped`` does). The split:

- ``effective_counts``: the joint pmf of the capped counts, from the cell's hits only: the counts after each
  number of hits once per distinct rates (``count_maps``), then one product with the hits of the block's cells
  that share them (their hits have one length);
- ``count_states_many``: the unit states ``s T_1^b_1 ... T_G^b_G`` for every count, from the per-hit table and
  the unit only; computed once per table and shared by every cell that uses it (a block's missing tables
  together).

A cell's casualties (and P(pinned)) are then one product of its counts with a per-table matrix. Every
effective wound is unsaved, so the volley's Pinning trigger is raised exactly when a count is not zero.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from praetor_analysis.engine.allocation import Allocator, UnitSpace, WoundGroup, effective_step, merge_groups
from praetor_analysis.prob import binomial_tables

__all__ = ["MAX_COUNT_STATES", "chain_steps", "count_maps", "count_states_many", "effective_counts"]

MAX_COUNT_STATES = 200_000
"""The most (count, unit state) entries ``count_states_many`` may hold for one table; larger cells go through the
one-cell engine."""


def chain_steps(groups: list[WoundGroup], space: UnitSpace) -> tuple[np.ndarray, list[np.ndarray]] | None:
    """(P(one hit yields an effective wound of each group), their dense transition matrices), the groups merged
    and the empty ones dropped as ``Allocator.resolve`` does; None when a group has no effective step (the
    uncapped programme is needed) or the unit is too large for dense matrices."""
    steps = [effective_step(g) for g in merge_groups(groups, space.wounds)]
    if any(step is None for step in steps):
        return None
    kept = [step for step in steps if step is not None and step[0] > 0.0]
    alloc = Allocator(space, pinning=False)
    matrices = [alloc.step_matrix(packet) for _, packet in kept]
    if not all(isinstance(m, np.ndarray) for m in matrices):
        return None
    return np.array([a for a, _ in kept]), matrices


def effective_counts(hits: np.ndarray, rates: np.ndarray, cap: int) -> np.ndarray:
    """The joint pmf of the effective wounds of each group, capped at ``cap``, for every cell: ``hits`` (K, R)
    the cells' hit pmfs, ``rates`` (K, G) P(one hit yields an effective wound of group g); shape (K, B, ..., B),
    B = min(cap, R - 1) + 1 (the count at B - 1 holds every count beyond).

    Up to two groups: the pmf of the counts after each number of hits once per distinct rates (``count_maps``),
    then one product with the hits of the cells that share them. More groups: the counts group by group over
    all the cells (``_stepwise``), whose arrays grow by a factor B less."""
    k, size = hits.shape
    groups = rates.shape[1]
    if groups > 2:
        return _stepwise(hits, rates, cap)
    seen: dict[tuple[float, ...], int] = {}
    where = [seen.setdefault(row, len(seen)) for row in map(tuple, rates.tolist())]
    maps = count_maps(np.array(list(seen)).reshape(len(seen), groups), size, cap)
    b = min(cap, size - 1) + 1
    if len(seen) == 1:
        return (hits @ maps[0]).reshape(k, *(b,) * groups)
    out = np.empty((k, b**groups))
    by_rates: dict[int, list[int]] = {}
    for j, t in enumerate(where):
        by_rates.setdefault(t, []).append(j)
    for t, rows in by_rates.items():
        out[rows] = hits[rows] @ maps[t]
    return out.reshape(k, *(b,) * groups)


def count_maps(rates: np.ndarray, size: int, cap: int) -> np.ndarray:
    """Row t, r: the joint pmf of the capped effective wounds of each group (flattened, as ``effective_counts``
    gives them) after r hits (r below ``size``) of the rates ``rates[t]``: shape (T, size, B ** G).

    Group g takes b of the r hits left (a binomial of its share of what the earlier groups left), r - b are
    left to the later groups; past the cap (B - 1) the unit is gone, so the hits left count for nothing."""
    t_count, groups = rates.shape
    b_max = min(cap, size - 1)
    tables, tails = _group_tables(rates, size, b_max, binomial_tables)
    if not groups:
        return np.ones((t_count, size, 1))
    maps = tables[-1]
    maps[:, :, b_max] += tails[-1]  # the last group: the hits left beyond the cap do not matter
    left = np.maximum(np.arange(size)[:, None] - np.arange(b_max + 1)[None, :], 0)  # r - b (table zero past r)
    for g in range(groups - 2, -1, -1):
        maps = tables[g][..., None] * maps[:, left]  # (T, R, B, B ** later groups)
        maps[:, :, b_max, 0] += tails[g]  # past the cap: no hit left for the later groups
        maps = maps.reshape(t_count, size, -1)
    return maps


def _stepwise(hits: np.ndarray, rates: np.ndarray, cap: int) -> np.ndarray:
    """``effective_counts`` group by group over the cells: the joint pmf of the hits left and the counts so far."""
    k, size = hits.shape
    b_max = min(cap, size - 1)
    joint = hits  # (K, hits still to allocate, counts so far...)
    for g, (table, tail) in enumerate(zip(*_group_tables(rates, size, b_max, _tables), strict=True)):
        if g == rates.shape[1] - 1:  # the last group: the hits left do not matter
            counts = joint.reshape(k, size, -1).transpose(0, 2, 1)  # (K, counts so far, R)
            out = np.matmul(counts, table).reshape(*joint.shape[:1], *joint.shape[2:], b_max + 1)  # sum over r
            out[..., b_max] += np.einsum("kr,kr...->k...", tail, joint)
            return out
        extra = (...,) + (None,) * (joint.ndim - 2)  # table rows (K, hits) against joint's count axes
        out = np.zeros((*joint.shape, b_max + 1))
        for b in range(b_max + 1):
            out[:, : size - b, ..., b] = table[:, b:, b][extra] * joint[:, b:]
        out[:, 0, ..., b_max] += np.einsum("kr,kr...->k...", tail, joint)
        joint = out
    return joint.sum(axis=1)


def _group_tables(
    rates: np.ndarray, size: int, b_max: int, tables: Callable[[int, np.ndarray, int], np.ndarray]
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Of each group g, for each row of ``rates``: P(b of r hits are effective in g) for r below ``size`` and b up
    to ``b_max`` (its share of what the earlier groups left, ``tables``: ``binomial_tables`` or ``_tables``), and
    P(more than b_max of r) (zero for r up to b_max)."""
    remaining = np.ones(rates.shape[0])
    out: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
    for g in range(rates.shape[1]):
        a = rates[:, g]
        q = np.minimum(np.divide(a, remaining, out=np.zeros(a.size), where=remaining > 0.0), 1.0)
        remaining = remaining - a
        table = tables(size - 1, q, b_max)  # (K, R, B)
        tail = np.maximum(1.0 - table.sum(axis=2), 0.0)
        tail[:, : b_max + 1] = 0.0  # rows with at most b_max hits have no tail
        out[0].append(table)
        out[1].append(tail)
    return out


def _tables(nmax: int, qs: np.ndarray, kmax: int) -> np.ndarray:
    """``binomial_tables(nmax, qs, kmax)``, computed once per distinct probability (cells of one per-hit table
    share theirs)."""
    seen: dict[float, int] = {}
    where = [seen.setdefault(q, len(seen)) for q in qs.tolist()]
    if len(seen) == qs.size:
        return binomial_tables(nmax, qs, kmax)
    return binomial_tables(nmax, np.array(list(seen)), kmax)[where]


def count_states_many(starts: np.ndarray, matrices: list[np.ndarray], size: int) -> np.ndarray:
    """``starts[t] T_1^b_1 ... T_G^b_G`` (``T_g`` = ``matrices[g][t]``) of every table t and every count
    0 <= b_g < ``size``, the counts flattened (b_1 slowest): shape (T, size ** G, S); ``starts`` (T, S), each
    of ``matrices`` (T, S, S)."""
    states = starts[:, None, :]
    for matrix in matrices:
        powers = [states]
        for _ in range(size - 1):
            powers.append(powers[-1] @ matrix)
        states = np.stack(powers, axis=2).reshape(starts.shape[0], -1, starts.shape[1])
    return states
