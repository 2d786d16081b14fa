"""Edition 3 chain: the dense class-step operators (engine/hh3/operators.py) against the chain they replaced.

``_reference`` is the chain as it stood before the operators (one status key at a time, the k-th power of the
sparse per-wound matrix applied one wound at a time, Deflagrate by shifts), kept here as the yardstick: the
two must agree at 1e-12 on generated Fire Groups (dice, die classes, strikes, defences, Deflagrate, status
triggers, several start states), on each of the three paths (one dense matrix, powers of a dense per-wound
matrix, powers of a sparse one). The die-by-die oracles (tests/test_hh3_vs_oracle.py,
tests/test_hh3_combinations.py) check both against the dice.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from praetor_analysis.engine.hh3 import operators
from praetor_analysis.engine.hh3.chain import (
    PINNED,
    ROUTED,
    STUNNED,
    SUPPRESSED,
    FireGroup,
    from_hit_points,
    group_classes,
    hit_points,
    resolve_group,
)
from praetor_analysis.engine.hh3.hit import HitDie
from praetor_analysis.engine.hh3.wound import Defence, Strike
from praetor_analysis.prob import Dist, binomial_matrix, binomial_pmf
from praetor_analysis.prob.memo import clear_memos


def _ref_deflagrate(part, k, p):
    out = np.zeros_like(part)
    for j, wj in enumerate(binomial_pmf(k, p).tolist()):
        if wj == 0.0:
            continue
        if j == 0:
            out += wj * part
            continue
        out[:, 1:-j] += wj * part[:, 1 + j :]
        out[:, 0] += wj * part[:, : j + 1].sum(axis=1)
    return out


def _ref_trigger(key, triggers):
    s = list(key)
    for pos, x in triggers:
        s[pos - 2] = max(s[pos - 2], x)
    return tuple(s)


_DAMAGES = (Dist.point(0), Dist.point(1), Dist.point(3), Dist([0, 1 / 3, 1 / 3, 1 / 3]))


def _reference_wound(damage, w, size):
    """T[hp, hp'] of one Unsaved Wound written out cell by cell: the damaged model takes it, a model that dies loses
    the rest (excess lost), no wound left stays none (the chain's per-wound matrix before the operators)."""
    t = np.zeros((size, size))
    t[0, 0] = 1.0
    for hp in range(1, size):
        m, c = from_hit_points(hp, w)
        for d, p in enumerate(damage.probabilities.tolist()):
            t[hp, hp if d <= 0 else (hp - d if d < c else (m - 1) * w)] += p
    return t


def _reference(states, group, wounds, no_unsaved=False):
    """The chain before the operators (no Shock: ``resolve_group`` mixes Shock the same way on both)."""
    dice = group.dice.probabilities
    classes = group_classes(group, group.die)
    if no_unsaved:
        kept = classes.miss + classes.hit_only + classes.saved
        dice = dice * kept ** np.arange(dice.size)
        classes = replace(classes, unsaved=tuple((g, 0.0, d) for g, _, d in classes.unsaved))
    steps = [classes.miss, classes.hit_only, classes.saved, *(p for _, p, _ in classes.unsaved)]
    rems = np.cumsum(steps[::-1])[::-1].tolist()
    rmax = dice.size - 1
    size = max(hit_points(s[0], s[1], wounds) for s in states) + 1
    work = {}
    for s, ps in states.items():
        first = s[2:]
        if first not in work:
            work[first] = np.zeros((rmax + 1, size))
        work[first][:, hit_points(s[0], s[1], wounds)] += ps * dice
    for i, p in enumerate(steps):
        last = i == len(steps) - 1
        q = 1.0 if last or rems[i] <= 0.0 else min(p / rems[i], 1.0)
        binom = binomial_matrix(rmax, q)
        step = _reference_wound(classes.unsaved[i - 3][2], wounds, size) if i >= 3 else None
        triggers = group.on_hit if i == 0 else group.on_wound if i == 1 else ()
        nxt = {}
        for key, a in work.items():
            raised = _ref_trigger(key, triggers)
            powered = a
            for k in range(rmax + 1):
                if k and step is not None:
                    powered = np.asarray(powered[1:] @ step)
                part = (powered if step is not None else a[k:]) * binom[k:, k][:, None]
                if not part.any():
                    continue
                if step is not None and k and classes.p_deflagrate > 0.0:
                    part = _ref_deflagrate(part, k, classes.p_deflagrate)
                rows = part.shape[0]
                if raised != key and rows > 1:
                    nxt.setdefault(raised, np.zeros((rmax + 1, size)))[1:rows] += part[1:]
                    part = part[:1]
                    rows = 1
                nxt.setdefault(key, np.zeros((rmax + 1, size)))[:rows] += part
        work = nxt
    out = defaultdict(float)
    for key, a in work.items():
        column = a.sum(axis=0)
        for hp in np.flatnonzero(column).tolist():
            m, c = from_hit_points(hp, wounds)
            out[(m, c, *key)] += float(column[hp])
    return dict(out)


def _die(draw):
    weights = [draw(st.integers(0, 4)) for _ in range(4)]
    if not any(weights):
        weights[0] = 1
    total = sum(weights)
    return HitDie(*(x / total for x in weights))


@st.composite
def cases(draw):
    """A Fire Group, the models' W and a start distribution over one to three states (several status keys)."""
    w = draw(st.integers(1, 4))
    models = draw(st.integers(1, 5))
    dice = draw(st.sampled_from([Dist.point(0), Dist.point(1), Dist.point(3), Dist.point(7), Dist([0.25, 0.5, 0.25]),
                                 Dist([0.0, 0.5, 0.0, 0.5])]))  # fmt: skip
    damage = draw(st.sampled_from([Dist.point(0), Dist.point(1), Dist.point(2), Dist([0, 1 / 3, 1 / 3, 1 / 3])]))
    strike = Strike(
        draw(st.sampled_from([None, 3, 4, 6, 8])),
        draw(st.sampled_from([None, 2, 3, 4])),
        damage,
        draw(st.sampled_from([1, 2])),
        draw(st.integers(0, 1)),
        draw(st.sampled_from([None, 5, 6])),
        draw(st.sampled_from([None, 5, 6])),
        draw(st.sampled_from([None, 4])),
    )
    defence = Defence(
        draw(st.integers(0, 8)),
        draw(st.sampled_from([None, 2, 3, 5])),
        draw(st.sampled_from([None, 4, 5])),
        draw(st.sampled_from([None, 5])),
        draw(st.sampled_from([None, 5])),
        draw(st.sampled_from([None, 5])),
        draw(st.integers(0, 1)),
        draw(st.booleans()),
    )
    triggers = st.lists(st.tuples(st.sampled_from([PINNED, SUPPRESSED, STUNNED, ROUTED]), st.integers(0, 2)),
                        max_size=2)  # fmt: skip
    group = FireGroup(
        dice,
        _die(draw),
        strike,
        defence,
        draw(st.sampled_from([None, 3, 5])),
        tuple(draw(triggers)),
        tuple(draw(triggers)),
        draw(st.sampled_from(["created", "largest_damage_first"])),
    )
    states = {}
    for _ in range(draw(st.integers(1, 3))):
        m = draw(st.integers(0, models))
        c = draw(st.integers(1, w)) if m else w
        status = tuple(draw(st.integers(-1, 1)) for _ in range(4))
        states[(m, c, *status, models)] = states.get((m, c, *status, models), 0.0) + 1.0
    total = sum(states.values())
    return group, w, {s: p / total for s, p in states.items()}, draw(st.booleans())


def _close(a, b):
    for s in set(a) | set(b):
        assert abs(a.get(s, 0.0) - b.get(s, 0.0)) <= 1e-12, (s, a.get(s), b.get(s))


@pytest.mark.parametrize("path", ["one matrix", "dense powers", "sparse powers"])
@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(case=cases())
def test_the_operators_equal_the_chain_they_replaced(path, case, monkeypatch):
    group, w, states, no_unsaved = case
    if path != "one matrix":
        monkeypatch.setattr(operators, "DENSE_PAIRS", 0)
    if path == "sparse powers":
        monkeypatch.setattr(operators, "DENSE_WOUNDS", 0)
    clear_memos()
    got = resolve_group(states, group, w, no_unsaved=no_unsaved)
    _close(got, _reference(states, group, w, no_unsaved))
    assert no_unsaved or abs(sum(got.values()) - 1.0) <= 1e-12


def test_the_dense_wound_operator_is_the_reference_one():
    """T of every W 1-4, Damage 0-3 and D3, on units of up to 12 wounds: dense = the reference, rows sum to 1."""
    for w in range(1, 5):
        for damage in _DAMAGES:
            t = operators.wound_operator(damage, w, 13)
            assert np.array_equal(t, _reference_wound(damage, w, 13))
            assert np.allclose(t.sum(axis=1), 1.0, atol=1e-15)


def test_the_sparse_wound_step_of_a_large_unit_is_the_reference_one():
    """Past DENSE_WOUNDS hit points ``apply_wound`` takes the sparse matrix: the same product as the reference's."""
    size = operators.DENSE_WOUNDS + 77
    x = np.random.default_rng(37).dirichlet(np.ones(size), size=3)
    for w in (1, 3):
        for damage in _DAMAGES:
            got = operators.apply_wound(x, damage, w)
            np.testing.assert_allclose(got, x @ _reference_wound(damage, w, size), rtol=0, atol=1e-15)
            assert np.allclose(got.sum(axis=1), 1.0, atol=1e-12)


@pytest.mark.parametrize("pairs", [operators.DENSE_PAIRS, 0])
def test_the_deflagrate_hits_follow_every_wound_of_the_group(pairs, monkeypatch):
    """Two models of W 2, three hits of S 8 D 2, Deflagrate (8): the wounds first, then their Deflagrate hits
    (a D 2 wound then a hit: 4 -> 2 -> 1 wounds left; the other way round 4 -> 3 -> 2)."""
    monkeypatch.setattr(operators, "DENSE_PAIRS", pairs)
    clear_memos()
    group = FireGroup(
        Dist.point(3), HitDie(0.0, 1.0, 0.0, 0.0), Strike(8, None, Dist.point(2)), Defence(4, None, None), 8
    )
    states = {(2, 2, -1, -1, -1, -1, 2): 1.0}
    got = resolve_group(states, group, 2)
    _close(got, _reference(states, group, 2))
    # One wound (3 * (5/6) * (1/6)^2) of D 2 and its Deflagrate hit wounding (5/6): one model left with 1 wound.
    assert got[(1, 1, -1, -1, -1, -1, 2)] == pytest.approx(3 * 5 / 6 * (1 / 6) ** 2 * 5 / 6, abs=1e-12)


def test_a_large_unit_on_the_sparse_path():
    """300 models of W 2 (601 hit points) shot by 12 dice of D2 with Deflagrate: the sparse path, exactly."""
    group = FireGroup(Dist.point(12), HitDie(0.25, 0.5, 0.125, 0.125), Strike(5, 3, Dist.point(2), breaching=6),
                      Defence(4, 3, None), 4, ((SUPPRESSED, 0),), ((PINNED, 1),))  # fmt: skip
    states = {(300, 2, -1, -1, -1, -1, 300): 0.5, (299, 1, -1, -1, -1, -1, 300): 0.5}
    _close(resolve_group(states, group, 2), _reference(states, group, 2))
