"""Blast hits on a unit of identical models in the 3rd edition, through the edition 3 wound chain, exactly
(docs/rules-hh3.md#markers-and-templates).

Every hit of one marker shares its Hit Test's class, so a marker attack's hits are not independent dice: they
come as a joint distribution of counts per class (:func:`~praetor_analysis.markers.hh3_blast.marker_hits_by_class`).
For each composition (so many plain hits, so many Critical, so many Rending) the wounds are resolved in the
Fire Group's order of set-aside groups (plain wounds first, then the Critical and Rending groups, then the
Breaching and Shred groups of the plain hits; ``largest_damage_first`` as the engine orders it), each wound
applied one at a time to the target's state with excess Damage lost, each group followed by its Deflagrate hits;
all compositions are carried at once (the state keeps the hits of each class not yet resolved), the unit's
wounds left moved by the engine's per-wound matrix, so nothing is sampled and nothing is enumerated hit by hit.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.engine import (
    FireGroup,
    HitDie,
    State,
    apply_wound,
    deflagrate_hits,
    from_hit_points,
    group_classes,
    hit_points,
    wound_classes,
)
from praetor_analysis.prob import BoundedMemo, Dist, binomial_pmf, convolve_power

__all__ = ["MarkerCounts", "marker_counts", "resolve_marker_hits"]

_KINDS = {"hit": "hit", "critical": "critical", "rending": "rending"}
Key = tuple[tuple[int, ...], tuple[int, ...]]
"""(the State's status entries and models at the start, hits of each class not yet resolved)."""


@dataclass(frozen=True)
class _Plan:
    """The wound groups of the Fire Group in resolution order, and what one hit of each class becomes."""

    order: tuple[str, ...]
    damage: dict[str, Dist]
    unsaved: dict[str, dict[str, float]]  # class -> group -> P(one hit of the class is an Unsaved Wound there)
    no_wound: dict[str, float]
    deflagrate: float


def _plan(group: FireGroup) -> _Plan:
    """The group's :class:`_Plan` (memoised on the frozen group: the stage asks it for the hits and the counts)."""
    return _PLANS.get(group, lambda: _build_plan(group))


_PLANS: BoundedMemo[_Plan] = BoundedMemo(2048)


def _build_plan(group: FireGroup) -> _Plan:
    order = tuple(g for g, _, _ in group_classes(replace(group, die=HitDie(0.0, 1 / 3, 1 / 3, 1 / 3))).unsaved)
    damage: dict[str, Dist] = {}
    unsaved: dict[str, dict[str, float]] = {}
    no_wound: dict[str, float] = {}
    for cls, kind in _KINDS.items():
        wc = wound_classes(kind, group.strike, group.defence)
        no_wound[cls] = wc.p_no_wound
        unsaved[cls] = {}
        for g in wc.groups:
            unsaved[cls][g.group] = g.p_wound * g.p_unsaved
            damage[g.group] = g.damage
    return _Plan(order, damage, unsaved, no_wound, group_classes(group).p_deflagrate)


def _raise(key: tuple[int, ...], triggers: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The State's status entries (positions 2.. of a State) with ``triggers`` raised."""
    out = list(key)
    for pos, x in triggers:
        out[pos - 2] = max(out[pos - 2], x)
    return tuple(out)


def _add(work: dict[Key, np.ndarray], key: Key, vec: np.ndarray) -> None:
    if key in work:
        work[key] = work[key] + vec
    else:
        work[key] = vec


def resolve_marker_hits(
    states: Mapping[State, float], classes: Sequence[str], joint: np.ndarray, group: FireGroup, wounds: int
) -> dict[State, float]:
    """The target's states after the marker hits of ``joint`` (axes: ``classes``, of ``hit``, ``critical``,
    ``rending``), the wounds resolved as ``group``'s (its strike, defence, Deflagrate, triggers, group order).

    The state is kept as a distribution over the unit's wounds left (the engine's hit points) for each value of
    the status entries and each count of hits not yet resolved per class; a step splits one class's hits with a
    binomial and applies ``k`` wounds as the ``k``-th power of the engine's per-wound matrix. Memoised on the
    states, the joint's bytes and the (frozen) group: a fire plan's orders put one marker volley after the same
    volleys again and again."""
    unknown = [c for c in classes if c not in _KINDS]
    if unknown:
        raise ValueError(f"unknown hit class {unknown[0]!r}")
    key = (frozenset(states.items()), tuple(classes), joint.shape, joint.tobytes(), group, wounds)
    return dict(_RESOLVED.get(key, lambda: _resolve_marker_hits(states, classes, joint, group, wounds)))


_RESOLVED: BoundedMemo[dict[State, float]] = BoundedMemo(2048)


def _resolve_marker_hits(
    states: Mapping[State, float], classes: Sequence[str], joint: np.ndarray, group: FireGroup, wounds: int
) -> dict[State, float]:
    plan = _plan(group)
    size = max(hit_points(s[0], s[1], wounds) for s in states) + 1
    work: dict[Key, np.ndarray] = {}
    for idx in zip(*np.nonzero(joint > 0.0), strict=True):
        p = float(joint[idx])
        rem = tuple(int(k) for k in idx)
        for s, q in states.items():
            vec = np.zeros(size)
            vec[hit_points(s[0], s[1], wounds)] = p * q
            key = _raise(tuple(s[2:]), group.on_hit) if sum(rem) else tuple(s[2:])
            _add(work, (key, rem), vec)
    # The hits that do not wound, class by class; then "at least one wound" is known.
    for i, c in enumerate(classes):
        work = _split(work, i, plan.no_wound[c], None, wounds, 0.0)
    raised: dict[Key, np.ndarray] = {}
    for (key, rem), vec in work.items():
        _add(raised, (_raise(key, group.on_wound) if sum(rem) else key, rem), vec)
    work = raised
    mass = {c: 1.0 - plan.no_wound[c] for c in classes}
    last = {c: max((j for j, g in enumerate(plan.order) if plan.unsaved[c].get(g, 0.0) > 0.0), default=-1)
            for c in classes}  # fmt: skip
    for j, g in enumerate(plan.order):
        step = plan.damage[g]
        for i, c in enumerate(classes):
            p = plan.unsaved[c].get(g, 0.0)
            if p == 0.0:
                continue
            work = _split(work, i, p / mass[c] if mass[c] > 0 else 0.0, step, wounds, plan.deflagrate)
            mass[c] -= p
            if j == last[c]:  # the class's hits left are saved: forget them (states merge)
                merged: dict[Key, np.ndarray] = {}
                for (key, rem), vec in work.items():
                    _add(merged, (key, (*rem[:i], 0, *rem[i + 1 :])), vec)
                work = merged
    out: dict[State, float] = defaultdict(float)
    for (key, _), vec in work.items():
        for hp in np.flatnonzero(vec).tolist():
            models, current = from_hit_points(hp, wounds)
            out[(models, current, *key)] += float(vec[hp])  # type: ignore[index]
    return dict(out)


def _split(
    work: dict[Key, np.ndarray], i: int, q: float, damage: Dist | None, wounds: int, deflagrate: float
) -> dict[Key, np.ndarray]:
    """Of the hits of class ``i`` left, Binomial(r, ``q``) fall into this step: with a ``damage`` each applies one
    Unsaved Wound of it (models of W ``wounds``) and then its Deflagrate hit, without one they are set aside
    (no wound). The entries with hits left are stacked: the k-th wound is one product for all of them."""
    if q <= 0.0:
        return work
    out: dict[Key, np.ndarray] = {}
    keys: list[Key] = []
    rows: list[np.ndarray] = []
    for (key, rem), vec in work.items():
        if rem[i] == 0:
            _add(out, (key, rem), vec)
        else:
            keys.append((key, rem))
            rows.append(vec)
    if not keys:
        return out
    order = sorted(range(len(keys)), key=lambda e: -keys[e][1][i])  # most hits left first: a prefix goes on
    keys = [keys[e] for e in order]
    left = [rem[i] for _, rem in keys]
    pmfs = [binomial_pmf(r, min(q, 1.0)).tolist() for r in left]
    stack = np.stack([rows[e] for e in order])
    powered = stack
    p_def = min(max(deflagrate, 0.0), 1.0)
    for k in range(left[0] + 1):
        live = sum(1 for r in left if r >= k)  # the entries with k hits or more left: a prefix
        if k and damage is not None:
            powered = apply_wound(powered[:live], damage, wounds)
        parts = powered[:live] if damage is not None else stack[:live]
        if damage is not None and k and deflagrate > 0.0:
            parts = deflagrate_hits(parts, k, p_def)
        for e in range(live):
            pk = pmfs[e][k]
            if pk != 0.0:
                key, rem = keys[e]
                _add(out, (key, (*rem[:i], rem[i] - k, *rem[i + 1 :])), pk * parts[e])
    return out


@dataclass(frozen=True)
class MarkerCounts:
    """The counts of a marker attack: hits, critical hits, wounds and Unsaved Wounds (Deflagrate's included)."""

    hits: Dist
    critical_hits: Dist
    wounds: Dist
    unsaved: Dist


def marker_counts(classes: Sequence[str], joint: np.ndarray, group: FireGroup) -> MarkerCounts:
    """The count distributions of the marker hits of ``joint`` (every hit counted, as for dice; memoised)."""
    key = (tuple(classes), joint.shape, joint.tobytes(), group)
    return _COUNTS.get(key, lambda: _marker_counts(classes, joint, group))


_COUNTS: BoundedMemo[MarkerCounts] = BoundedMemo(2048)


def _marker_counts(classes: Sequence[str], joint: np.ndarray, group: FireGroup) -> MarkerCounts:
    plan = _plan(group)
    df = plan.deflagrate
    size = sum(s - 1 for s in joint.shape) + 1
    hits, crits, wounds = np.zeros(size), np.zeros(size), np.zeros(size)
    unsaved = np.zeros(2 * size)
    for idx in zip(*np.nonzero(joint > 0.0), strict=True):
        p = float(joint[idx])
        counts = {c: int(k) for c, k in zip(classes, idx, strict=True)}
        hits[sum(counts.values())] += p
        crits[counts.get("critical", 0)] += p
        w = np.ones(1)
        u = np.ones(1)
        for c, n in counts.items():
            pw = 1.0 - plan.no_wound[c]
            pu = sum(plan.unsaved[c].values())
            w = np.convolve(w, convolve_power(np.array([1.0 - pw, pw]), n))
            u = np.convolve(u, convolve_power(np.array([1.0 - pu, pu * (1.0 - df), pu * df]), n))
        wounds[: w.size] += p * w
        unsaved[: u.size] += p * u
    return MarkerCounts(*(Dist.from_trusted(a) for a in (hits, crits, wounds, unsaved)))
