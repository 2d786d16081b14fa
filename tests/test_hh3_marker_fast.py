"""Edition 3 markers: the marker stage's fast paths (markers/hh3_units.py, markers/hh3_blast.py) against the code
they replaced.

``_ref_resolve`` is the resolution of marker hits as it stood before the speed work (each entry of the state split
on its own, one wound applied at a time per entry), kept here as the yardstick: the two must agree at 1e-12 on
generated joints of hits by class (several compositions at once, up to 6 hits of a class, several start states,
Deflagrate, Breaching and Shred), beyond what the die-by-die oracle of tests/test_markers_hh3_units.py enumerates.
The memoised Blast and Barrage laws must equal the laws computed afresh.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pytest

from praetor_analysis.engine import apply_wound, deflagrate_hits, from_hit_points, hit_points
from praetor_analysis.engine.hh3 import (
    PINNED,
    SUPPRESSED,
    Defence,
    FireGroup,
    HitDie,
    State,
    Strike,
    group_classes,
    start,
    wound_classes,
)
from praetor_analysis.markers.formation import Formation
from praetor_analysis.markers.hh3_blast import barrage_hh3, blast_hh3
from praetor_analysis.markers.hh3_units import resolve_marker_hits
from praetor_analysis.prob import Dist, binomial_pmf
from praetor_analysis.prob.memo import clear_memos

_KINDS = {"hit": "hit", "critical": "critical", "rending": "rending"}
Key = tuple[tuple[int, ...], tuple[int, ...]]


# --------------------------------------------------------------------------- the resolution as it stood
@dataclass(frozen=True)
class _RefPlan:
    """The wound groups of the Fire Group in resolution order, and what one hit of each class becomes."""

    order: tuple[str, ...]
    damage: dict[str, Dist]
    unsaved: dict[str, dict[str, float]]  # class -> group -> P(one hit of the class is an Unsaved Wound there)
    no_wound: dict[str, float]
    deflagrate: float


def _ref_plan(group: FireGroup) -> _RefPlan:
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
    return _RefPlan(order, damage, unsaved, no_wound, group_classes(group).p_deflagrate)


def _ref_raise(key: tuple[int, ...], triggers: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """The State's status entries (positions 2.. of a State) with ``triggers`` raised."""
    out = list(key)
    for pos, x in triggers:
        out[pos - 2] = max(out[pos - 2], x)
    return tuple(out)


def _ref_add(work: dict[Key, np.ndarray], key: Key, vec: np.ndarray) -> None:
    if key in work:
        work[key] = work[key] + vec
    else:
        work[key] = vec


def _ref_resolve(
    states: Mapping[State, float], classes: Sequence[str], joint: np.ndarray, group: FireGroup, wounds: int
) -> dict[State, float]:
    plan = _ref_plan(group)
    size = max(hit_points(s[0], s[1], wounds) for s in states) + 1
    work: dict[Key, np.ndarray] = {}
    for idx in zip(*np.nonzero(joint > 0.0), strict=True):
        p = float(joint[idx])
        rem = tuple(int(k) for k in idx)
        for s, q in states.items():
            vec = np.zeros(size)
            vec[hit_points(s[0], s[1], wounds)] = p * q
            key = _ref_raise(tuple(s[2:]), group.on_hit) if sum(rem) else tuple(s[2:])
            _ref_add(work, (key, rem), vec)
    # The hits that do not wound, class by class; then "at least one wound" is known.
    for i, c in enumerate(classes):
        work = _ref_split(work, i, plan.no_wound[c], None, wounds, 0.0)
    raised: dict[Key, np.ndarray] = {}
    for (key, rem), vec in work.items():
        _ref_add(raised, (_ref_raise(key, group.on_wound) if sum(rem) else key, rem), vec)
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
            work = _ref_split(work, i, p / mass[c] if mass[c] > 0 else 0.0, step, wounds, plan.deflagrate)
            mass[c] -= p
            if j == last[c]:  # the class's hits left are saved: forget them (states merge)
                merged: dict[Key, np.ndarray] = {}
                for (key, rem), vec in work.items():
                    _ref_add(merged, (key, (*rem[:i], 0, *rem[i + 1 :])), vec)
                work = merged
    out: dict[State, float] = defaultdict(float)
    for (key, _), vec in work.items():
        for hp in np.flatnonzero(vec).tolist():
            models, current = from_hit_points(hp, wounds)
            out[(models, current, *key)] += float(vec[hp])  # type: ignore[index]
    return dict(out)


def _ref_split(
    work: dict[Key, np.ndarray], i: int, q: float, damage: Dist | None, wounds: int, deflagrate: float
) -> dict[Key, np.ndarray]:
    """Of the hits of class ``i`` left, Binomial(r, ``q``) fall into this step: with a ``damage`` each applies one
    Unsaved Wound of it (models of W ``wounds``) and then its Deflagrate hit, without one they are set aside
    (no wound)."""
    if q <= 0.0:
        return work
    out: dict[Key, np.ndarray] = {}
    for (key, rem), vec in work.items():
        r = rem[i]
        if r == 0:
            _ref_add(out, (key, rem), vec)
            continue
        pmf = binomial_pmf(r, min(q, 1.0)).tolist()
        powered = vec
        for k, pk in enumerate(pmf):
            if k and damage is not None:
                powered = apply_wound(powered, damage, wounds)
            if pk == 0.0:
                continue
            part = pk * (powered if damage is not None else vec)
            if damage is not None and k and deflagrate > 0.0:
                part = deflagrate_hits(part, k, min(max(deflagrate, 0.0), 1.0))
            _ref_add(out, (key, (*rem[:i], r - k, *rem[i + 1 :])), part)
    return out


# --------------------------------------------------------------------------- generated cases
def _group(rng: random.Random) -> FireGroup:
    strike = Strike(
        rng.randint(3, 8),
        rng.choice([None, 2, 3, 4, 5]),
        Dist.point(rng.choice([1, 1, 2, 3])) if rng.random() < 0.8 else Dist([0.0, 1 / 3, 1 / 3, 1 / 3]),
        rng.choice([1, 1, 2]),
        rng.choice([0, 0, 1]),
        breaching=rng.choice([None, None, 5, 6]),
        shred=rng.choice([None, None, 5, 6]),
    )
    defence = Defence(
        rng.randint(3, 6),
        rng.choice([None, 2, 3, 4]),
        rng.choice([None, 4, 5]),
        rng.choice([None, 5]),
        rng.choice([None, 5, 6]),
        None,
        rng.choice([0, 0, 1]),
    )
    on_hit = rng.choice([(), ((SUPPRESSED, 1),)])
    on_wound = rng.choice([(), ((PINNED, 2),)])
    return FireGroup(Dist.point(1), HitDie(0.5, 0.3, 0.1, 0.1), strike, defence, rng.choice([None, None, 4]),
                     on_hit, on_wound)  # fmt: skip


def _joint(rng: random.Random) -> tuple[tuple[str, ...], np.ndarray]:
    classes = rng.choice([("hit",), ("hit", "critical"), ("hit", "critical", "rending"), ("critical", "hit")])
    shape = tuple(rng.randint(1, 7) for _ in classes)
    joint = np.array([rng.random() if rng.random() < 0.6 else 0.0 for _ in range(int(np.prod(shape)))])
    joint[0] += 1e-3
    return classes, (joint / joint.sum()).reshape(shape)


@pytest.mark.parametrize("seed", range(60))
def test_marker_hits_match_the_resolution_they_replaced(seed: int) -> None:
    rng = random.Random(4400 + seed)
    group, (classes, joint) = _group(rng), _joint(rng)
    models, w = rng.randint(1, 10), rng.choice([1, 1, 2, 3])
    states: dict[State, float] = dict(start(models, w))
    if rng.random() < 0.5 and models > 1:  # a state carried over: some models already lost, a status held
        ((first, _),) = states.items()
        states = {first: 0.6, (models - 1, w, *first[2:]): 0.3, (models, max(w - 1, 1), *first[2:-1], 1): 0.1}
    clear_memos()
    got = resolve_marker_hits(states, classes, joint, group, w)
    want = _ref_resolve(states, classes, joint, group, w)
    for key in set(got) | set(want):
        assert got.get(key, 0.0) == pytest.approx(want.get(key, 0.0), abs=1e-12), key
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("diameter", [3.0, 5.0, 7.0])
def test_memoised_laws_equal_laws_computed_afresh(diameter: float) -> None:
    rng = random.Random(int(diameter))
    formation = Formation(np.array([[rng.uniform(0, 12), rng.uniform(0, 6)] for _ in range(6)]), 0.5)
    clear_memos()
    first = blast_hh3(formation, diameter, p_test=0.5)
    again = blast_hh3(Formation(formation.positions.copy(), 0.5), diameter, p_test=0.5)
    assert again is first  # the memo hits on an equal formation
    clear_memos()
    fresh = blast_hh3(formation, diameter, p_test=0.5)
    assert fresh is not first
    for a, b in ((first.on_hit, fresh.on_hit), (first.on_miss, fresh.on_miss)):
        assert np.array_equal(a, b)
    assert first.aim == fresh.aim
    other = blast_hh3(formation, diameter, p_test=0.9)  # another test is another key
    assert other is not fresh
    barrage = barrage_hh3(formation, diameter, 2)
    assert barrage is barrage_hh3(formation, diameter, 2) and barrage is not barrage_hh3(formation, diameter, 1)
    assert not first.on_miss.flags.writeable and not barrage.on_hit.flags.writeable


def _ref_tables(target, radius: float, center: np.ndarray, max_distance: int, edges) -> tuple[np.ndarray, np.ndarray]:
    """scatter_tables as it stood: every distance's breaks, cells and classification one after the other."""
    from praetor_analysis.markers.blasts import circle_cells, edge_breaks, hit_matrix, target_breaks

    def codes(pts: np.ndarray) -> np.ndarray:
        counts = hit_matrix(target, radius, pts).sum(axis=1)
        return counts if edges is None else np.where(edges.contains(pts), counts, 0)

    size = target.n + 1
    at_aim = np.bincount(codes(center[None, :]), minlength=size).astype(np.float64)
    arrow = np.zeros((max_distance + 1, size))
    arrow[0] = at_aim
    for d in range(1, max_distance + 1):
        br = np.concatenate([target_breaks(target, radius, center, float(d)), edge_breaks(center, float(d), edges)])
        pts, w = circle_cells(center, float(d), br)
        arrow[d] = np.bincount(codes(pts), weights=w, minlength=size)
    return at_aim, arrow


@pytest.mark.parametrize("seed", range(20))
def test_scatter_tables_match_the_distances_one_by_one(seed: int) -> None:
    from praetor_analysis.markers.formation import Edges, Hull
    from praetor_analysis.markers.hh3_blast import scatter_tables

    rng = random.Random(300 + seed)
    n = rng.randint(1, 12)
    target = (
        Hull(rng.uniform(2, 8), rng.uniform(2, 5))
        if seed % 5 == 0
        else Formation(np.array([[rng.uniform(-6, 6), rng.uniform(-4, 4)] for _ in range(n)]), rng.choice([0.5, 0.8]))
    )
    edges = Edges(-3.0, 8.0, -2.0, 5.0) if rng.random() < 0.4 else None
    center = np.array([rng.uniform(-3, 3), rng.uniform(-2, 2)])
    radius, reach = rng.choice([1.5, 2.5, 3.5]), rng.choice([6, 12])
    clear_memos()
    got = scatter_tables(target, radius, center, reach, edges)
    want = _ref_tables(target, radius, center, reach, edges)
    assert np.array_equal(got[0], want[0])
    assert np.abs(got[1] - want[1]).max() <= 1e-12
