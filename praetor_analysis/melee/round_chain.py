"""The Markov chain of one whole round of combat for fixed profiles, vectorised (docs/rules.md#melee).

Each side is a :class:`Fighters`: the groups of its models that strike (one :class:`Striker` each, its own
statline, profile and Initiative step) and one body that the enemy's blows act on (a ``UnitSpace`` of all its
models). Casualties leave each group's models in a fixed order (:func:`removal_order`), so the models alive of
every group follow from the side's state. The chain is over ``p[a, d, x]``: the attacker's state, the
target's, and the tracked count ``x`` (the difference of the unsaved wounds caused, attacker minus target).

At an Initiative step the striking groups of a side act on the enemy through one composed transition
``R[s, s', u]`` per class of the side's states (the same models alive in the striking groups), its rows
chosen by Reaping Blow (the enemy's models left at the step). Strikes of both sides at one step are
simultaneous: both use the states before the step, so the update is ``new[a', d', x + ua - ut] = sum p[a, d,
x] RA_a[d, d', ua] RT_d[a, a', ut]``, computed as two batched contractions (the target's classes looped)
with the shifts of ``x`` done by one ``bincount`` each. Nothing is sampled.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from praetor_analysis.engine import TargetState, UnitSpace
from praetor_analysis.melee.strikers import Striker
from praetor_analysis.prob import BoundedMemo
from praetor_analysis.profiles import Unit

__all__ = ["Chain", "Fighters", "removal_order", "run_chain"]

_ROWS: BoundedMemo[tuple[np.ndarray, np.ndarray]] = BoundedMemo(1024)

#: A transition for a striker: (striker, models alive, Reaping Blow on) -> T[s, s', u].
Transition = Callable[[Striker, int, bool], np.ndarray]


@dataclass
class Fighters:
    """One side of a round for fixed profiles: its body and its striking groups.

    Attributes:
        body: the models as the enemy strikes them (one statline for all, ``models`` of them).
        strikers: one per group, in the side's order; each group's ``side.unit.models`` is its count.
        order: the groups in the order their models are removed (see :func:`removal_order`).
    """

    body: Unit
    strikers: list[Striker]
    order: list[int]
    space: UnitSpace = field(init=False)
    start: np.ndarray = field(init=False)
    alive: np.ndarray = field(init=False)
    alive_by_kills: np.ndarray = field(init=False)
    kills: np.ndarray = field(init=False)
    left: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        fresh = TargetState.fresh(self.body)
        self.space, self.start = fresh.space, fresh.probs[0]
        kills = self.space.kills_of()
        self.kills = np.minimum(kills, self.body.models)
        self.left = self.body.models - kills
        counts = [s.side.unit.models for s in self.strikers]
        alive = np.zeros((len(counts), self.body.models + 1), dtype=int)
        for k in range(self.body.models + 1):  # k models removed, group by group in the removal order
            rest = k
            for g in self.order:
                gone = min(rest, counts[g])
                alive[g, k] = counts[g] - gone
                rest -= gone
        self.alive_by_kills = alive
        self.alive = alive[:, self.kills]


def removal_order(mine: Sequence[Striker], foe_steps: Sequence[int], value: Callable[[Striker], float]) -> list[int]:
    """The order casualties leave a side's groups (a reading: the owner removes them, docs/rules.md#melee):
    first the groups that strike at or above every enemy step (their blows are in before any casualty
    counts), then the others from the least ``value`` (expected unsaved wounds of one model's blows) up;
    ties keep the side's order."""
    top = max(foe_steps, default=0)
    return sorted(range(len(mine)), key=lambda g: (mine[g].blows.initiative < top, value(mine[g]) if
                                                    mine[g].blows.initiative < top else 0.0, g))  # fmt: skip


def _compose(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The transition of ``a`` then ``b`` (the unsaved counts added)."""
    z = np.tensordot(a, b, axes=(1, 0))  # (s, ua, s'', ub)
    return _skew(z, +1, width=a.shape[2] + b.shape[2] - 1)


def _side_rows(
    me: Fighters,
    foe: Fighters,
    groups: list[int],
    trans: Transition,
    track: bool,
    held: np.ndarray,
    foe_held: np.ndarray,
) -> tuple[np.ndarray, np.ndarray] | None:
    """(class of each of my states, R[class, s, s', u]) for my groups striking at one step (None: none);
    only the classes of the states ``held`` (with some mass) are computed, the others share class 0."""
    if not groups:
        return None
    key = (
        tuple(me.strikers[g].base for g in groups),
        me.alive_by_kills[groups].tobytes(),
        me.kills.tobytes(),
        held.tobytes(),
        foe_held.tobytes(),
        foe.left.tobytes(),
        track,
    )
    if trans is not _own:
        return _build_rows(me, foe, groups, trans, track, held, foe_held)
    return _ROWS.get(key, lambda: _build_rows(me, foe, groups, trans, track, held, foe_held))


def _own(s: Striker, n: int, r: bool) -> np.ndarray:
    return s.joint(n, r)


def _build_rows(
    me: Fighters,
    foe: Fighters,
    groups: list[int],
    trans: Transition,
    track: bool,
    held: np.ndarray,
    foe_held: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    size = foe.space.size
    by_kills: dict[tuple[int, ...], int] = {}
    needed = np.zeros(me.body.models + 1, dtype=bool)
    needed[me.kills[held]] = True
    rows_by_kills = me.alive_by_kills[groups].T.tolist()
    of_kills = np.array(
        [by_kills.setdefault(tuple(row), len(by_kills)) if needed[k] else -1 for k, row in enumerate(rows_by_kills)]
    )
    inverse = np.maximum(of_kills[me.kills], 0)
    reap = foe.left >= 2
    mats = []
    for ns in by_kills:
        per_reap = {}
        for r in {bool(x) for x in reap[foe_held]}:
            total: np.ndarray | None = None
            for g, n in zip(groups, ns, strict=True):
                t = trans(me.strikers[g], int(n), r)
                total = t if total is None else _compose(total, t)
            assert total is not None
            per_reap[r] = total if track else total.sum(axis=2, keepdims=True)
        width = max(m.shape[2] for m in per_reap.values())
        rows = np.zeros((size, size, width))
        for r, m in per_reap.items():
            rows[reap == r, :, : m.shape[2]] = m[reap == r]
        mats.append(rows)
    width = max(m.shape[2] for m in mats)
    out = np.zeros((len(mats), size, size, width))
    for c, m in enumerate(mats):
        out[c, :, :, : m.shape[2]] = m
    return inverse, out


_INDEX: dict[tuple[int, int, int, int, int], np.ndarray] = {}


def _skew(z: np.ndarray, sign: int, width: int | None = None) -> np.ndarray:
    """out[r, b, x] = sum_u z[r, x - sign * u, b, u] for z of shape (R, X, B, U): the tracked count moved by
    ``sign * u`` (mass never leaves the axis: its width bounds every reachable count); ``width`` keeps more
    of the axis when moving up (a composition's summed counts)."""
    r, x, b, u = z.shape
    if u == 1 and width is None:
        return np.ascontiguousarray(z[..., 0].transpose(0, 2, 1))
    key = (r, x, b, u, sign)
    idx = _INDEX.get(key)
    wide = x + u - 1
    if idx is None:
        rows = (np.arange(r)[:, None, None, None] * b + np.arange(b)[None, None, :, None]) * wide
        shift = np.arange(u) if sign > 0 else (u - 1) - np.arange(u)
        idx = (rows + np.arange(x)[None, :, None, None] + shift[None, None, None, :]).ravel()
        if len(_INDEX) > 256:
            _INDEX.clear()
        _INDEX[key] = idx
    out = np.bincount(idx, weights=z.ravel(), minlength=r * b * wide).reshape(r, b, wide)
    return out[:, :, : (x if width is None else width)] if sign > 0 else out[:, :, u - 1 :]


def _step(
    p: np.ndarray, rows_a: tuple[np.ndarray, np.ndarray] | None, rows_t: tuple[np.ndarray, np.ndarray] | None
) -> np.ndarray:
    """One Initiative step: the attacker's strikes on the target and the target's on the attacker, both
    from the states before the step (None: that side does not strike here)."""
    sa, st, x = p.shape
    stacked = None
    if rows_a is not None:
        cls_a, ra = rows_a
        stacked = ra[cls_a]  # (sa, st, st', ua)
    if rows_t is None:
        cls_t, rt = np.zeros(st, dtype=int), None
    else:
        cls_t, rt = rows_t
    new = np.zeros_like(p) if rt is not None else p
    for c in range(1 if rt is None else rt.shape[0]):
        cols = np.flatnonzero(cls_t == c)
        if stacked is not None:
            part = p[:, cols, :].transpose(0, 2, 1)  # (sa, x, cols)
            z = np.matmul(part, stacked[:, cols].reshape(sa, cols.size, -1)).reshape(sa, x, st, stacked.shape[3])
            y = _skew(z, +1)  # (sa, st', x)
        elif rt is None:
            return p
        else:  # only the target strikes: its class's columns stay where they are
            w = np.tensordot(rt[c], p[:, cols, :], axes=(0, 0))  # (sa', ut, cols, x)
            new[:, cols, :] += _skew(w.transpose(0, 3, 2, 1), -1)
            continue
        if rt is None:
            return y
        w = np.tensordot(rt[c], y, axes=(0, 0))  # (sa', ut, st', x)
        new += _skew(w.transpose(0, 3, 2, 1), -1)
    return new


@dataclass
class Chain:
    """The chain's end: ``p[a, d, x]`` (``x`` offset by ``offset``) and each group's weights of (models
    alive, Reaping Blow) at its step."""

    p: np.ndarray
    offset: int
    weights: tuple[list[dict[tuple[int, bool], float]], list[dict[tuple[int, bool], float]]]


def run_chain(att: Fighters, tgt: Fighters, *, track: bool, trans: Transition | None = None) -> Chain:
    """Walk the Initiative steps from the highest down; ``track`` carries the difference of unsaved wounds
    (else ``x`` has one entry); ``trans`` replaces the strikers' own transitions (the Concussive pass)."""
    get: Transition = trans if trans is not None else _own
    if track:
        tops = [
            sum(max(s.u_max(s.side.unit.models, r) for r in {False, s.blows.reaping > 0}) for s in side.strikers)
            for side in (att, tgt)
        ]
    else:
        tops = [0, 0]
    width = tops[0] + tops[1] + 1
    p = np.zeros((att.space.size, tgt.space.size, width))
    p[:, :, tops[1]] = np.outer(att.start, tgt.start)
    weights: tuple[list[dict[tuple[int, bool], float]], list[dict[tuple[int, bool], float]]] = (
        [{} for _ in att.strikers],
        [{} for _ in tgt.strikers],
    )
    steps = sorted({s.blows.initiative for side in (att, tgt) for s in side.strikers}, reverse=True)
    for step in steps:
        mass = p.sum(axis=2)
        rows = []
        for k, (me, foe) in enumerate(((att, tgt), (tgt, att))):
            groups = [g for g, s in enumerate(me.strikers) if s.blows.initiative == step]
            m = mass if k == 0 else mass.T  # (my states, foe states)
            for g in groups:
                s = me.strikers[g]
                reap = (foe.left >= 2) & (s.blows.reaping > 0)
                for r in (False, True):
                    per_state = m[:, reap == r].sum(axis=1)
                    sums = np.bincount(me.alive[g], weights=per_state)
                    for n in np.flatnonzero(sums):
                        key = s.key(int(n), r)
                        weights[k][g][key] = weights[k][g].get(key, 0.0) + float(sums[n])
            rows.append(_side_rows(me, foe, groups, get, track, m.sum(axis=1) > 0, m.sum(axis=0) > 0))
        p = _step(p, rows[0], rows[1])
    return Chain(p, tops[1], weights)
