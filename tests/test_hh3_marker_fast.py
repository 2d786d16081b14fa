"""Edition 3 markers: the marker stage's fast paths (markers/hh3_units.py, markers/hh3_blast.py) against the code
they replaced.

``_ref_split`` is the split of marker hits as it stood before the speed work (each entry of the state split on its
own, one wound applied at a time per entry), kept here as the yardstick (``_ref_resolve``: the resolution with it): the two must agree at 1e-12 on
generated joints of hits by class (several compositions at once, up to 6 hits of a class, several start states,
Deflagrate, Breaching and Shred), beyond what the die-by-die oracle of tests/test_markers_hh3_units.py enumerates.
The memoised Blast and Barrage laws must equal the laws computed afresh.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import numpy as np
import pytest

from praetor_analysis.engine import apply_wound, deflagrate_hits
from praetor_analysis.engine.hh3 import (
    PINNED,
    SUPPRESSED,
    Defence,
    FireGroup,
    HitDie,
    State,
    Strike,
    start,
)
from praetor_analysis.markers import hh3_units
from praetor_analysis.markers.formation import Formation
from praetor_analysis.markers.hh3_blast import barrage_hh3, blast_hh3
from praetor_analysis.markers.hh3_units import resolve_marker_hits
from praetor_analysis.prob import Dist, binomial_pmf
from praetor_analysis.prob.memo import clear_memos

Key = tuple[tuple[int, ...], tuple[int, ...]]


# --------------------------------------------------------------------------- the resolution as it stood
def _ref_resolve(
    states: Mapping[State, float], classes: Sequence[str], joint: np.ndarray, group: FireGroup, w: int
) -> dict[State, float]:
    """The resolution with the split as it stood (the rest of the resolution is unchanged): unmemoised."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(hh3_units, "_split", _ref_split)
        return hh3_units._resolve_marker_hits(states, classes, joint, group, w)


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
            hh3_units._add(out, (key, rem), vec)
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
            hh3_units._add(out, (key, (*rem[:i], r - k, *rem[i + 1 :])), part)
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
