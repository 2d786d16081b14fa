"""Blast hits on a unit in the 3rd edition: every hit of a marker in its test's class, resolved through the
edition 3 chain, against a die-by-die enumeration of every wound, save, mitigation and Deflagrate die."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict

import numpy as np
import pytest

from praetor_analysis.engine.hh3 import (
    GIVEN_HIT,
    PINNED,
    SUPPRESSED,
    Defence,
    FireGroup,
    HitDie,
    Strike,
    resolve_group,
    start,
)
from praetor_analysis.markers.hh3_units import marker_counts, resolve_marker_hits
from praetor_analysis.prob.dist import Dist

ORDER = ("plain", "critical", "rending", "breaching", "shred", "breaching+shred")


def _saves(ap: int | None, d: Defence) -> int | None:
    armour = d.sav if d.sav is not None and (ap is None or ap > d.sav) else None
    found = [s for s in (armour, d.inv) if s is not None]
    return min(found) if found else None


def _passes(target: int | None, die: int) -> bool:
    return target is not None and die != 1 and die >= target


def _deflagrate_die(x: int | None, d: Defence) -> list[tuple[float, int]]:
    """One Deflagrate hit (S X, AP -, D 1) rolled die by die: (probability, 1 if an Unsaved Wound)."""
    if x is None:
        return [(1.0, 0)]
    diff = x - d.toughness
    target = 2 if diff >= 2 else (4 - diff if diff >= -1 else (6 if diff >= -3 else 7))
    out: list[tuple[float, int]] = []
    for w, s, f in itertools.product(range(1, 7), repeat=3):
        wounds = w != 1 and w >= target
        unsaved = wounds and not _passes(_saves(None, d), s) and not _passes(d.feel_no_pain, f)
        out.append((1 / 216, int(unsaved)))
    return out


def _hit_outcomes(kind: str, st: Strike, d: Defence, deflagrate: int | None) -> dict[tuple, float]:
    """Every die of one hit of a class: wound, save, mitigation, Deflagrate -> (group, damage, wounded,
    deflagrate wounds)."""
    out: dict[tuple, float] = defaultdict(float)
    diff = (st.strength or 0) - d.toughness
    target = 2 if diff >= 2 else (4 - diff if diff >= -1 else (6 if diff >= -3 else 7))
    base = int(st.damage.max)
    for w in range(1, 7):
        if kind == "hit":
            if w == 1 or w < target:
                out[(None, 0, False, 0)] += 1 / 6
                continue
            natural = w
        else:
            natural = 6
            if w > 1:
                continue  # no wound roll: one outcome of weight 1
        p_w = 1 / 6 if kind == "hit" else 1.0
        breach = st.breaching is not None and natural >= st.breaching
        shred = st.shred is not None and natural >= st.shred
        group = (
            kind
            if kind != "hit"
            else {(0, 0): "plain", (1, 0): "breaching", (0, 1): "shred", (1, 1): "breaching+shred"}[(breach, shred)]
        )
        ap = (2 if st.ap is None else min(st.ap, 2)) if breach else st.ap
        dmg = base + (kind == "critical") + shred
        dmg = max(dmg - d.eternal_warrior, 1) if d.eternal_warrior else dmg
        for s, f in itertools.product(range(1, 7), repeat=2):
            if _passes(_saves(ap, d), s) or _passes(d.feel_no_pain, f):
                out[(None, 0, True, 0)] += p_w / 36
                continue
            for q, extra in _deflagrate_die(deflagrate, d):
                out[(group, dmg, True, extra)] += p_w / 36 * q
    return dict(out)


def _apply(m: int, c: int, d: int, w: int) -> tuple[int, int]:
    if m == 0 or d <= 0:
        return m, c
    return (m - 1, w) if d >= c else (m, c - d)


def _oracle(counts: dict[str, int], st: Strike, d: Defence, deflagrate: int | None, models: int, w: int) -> dict:
    per = [list(_hit_outcomes(k, st, d, deflagrate).items()) for k, n in counts.items() for _ in range(n)]
    out: dict[tuple[int, int, bool], float] = defaultdict(float)
    for combo in itertools.product(*per):
        p = float(np.prod([q for _, q in combo]))
        m, c = models, w
        wounded = any(k[2] for k, _ in combo)
        for g in ORDER:  # the groups in order; each wound then its Deflagrate wounds (D 1)
            for (group, dmg, _, extra), _ in combo:
                if group != g:
                    continue
                m, c = _apply(m, c, dmg, w)
            for (group, _, _, extra), _ in combo:
                if group == g:
                    for _ in range(extra):
                        m, c = _apply(m, c, 1, w)
        out[(m, c, wounded)] += p
    return dict(out)


def _group(st: Strike, d: Defence, deflagrate: int | None) -> FireGroup:
    return FireGroup(Dist.point(1), GIVEN_HIT, st, d, deflagrate, on_hit=((SUPPRESSED, 1),), on_wound=((PINNED, 2),))


def _case(rng: random.Random) -> tuple[dict[str, int], Strike, Defence, int | None, int, int]:
    st = Strike(
        rng.randint(3, 6),
        rng.choice([None, 2, 4, 5]),
        Dist.point(rng.choice([1, 2])),
        breaching=rng.choice([None, 5, 6]),
        shred=rng.choice([None, 5, 6]),
    )
    d = Defence(
        4, rng.choice([None, 3, 4]), rng.choice([None, 5]), None, rng.choice([None, 5]), None, rng.choice([0, 0, 1])
    )
    counts = {"hit": rng.randint(0, 2), "critical": rng.randint(0, 1), "rending": rng.randint(0, 1)}
    return counts, st, d, rng.choice([None, None, 4]), rng.randint(1, 3), rng.choice([1, 2, 3])


@pytest.mark.parametrize("seed", range(30))
def test_one_composition_matches_the_dice(seed: int) -> None:
    counts, st, d, deflagrate, models, w = _case(random.Random(seed))
    classes = tuple(counts)
    joint = np.zeros(tuple(counts[c] + 1 for c in classes))
    joint[tuple(counts[c] for c in classes)] = 1.0
    got = resolve_marker_hits(start(models, w), classes, joint, _group(st, d, deflagrate), w)
    want = _oracle(counts, st, d, deflagrate, models, w)
    proj: dict[tuple[int, int, bool], float] = defaultdict(float)
    for s, p in got.items():
        assert s[SUPPRESSED] == (1 if sum(counts.values()) else -1)  # the hit trigger: at least one hit
        proj[(s[0], s[1], s[PINNED] >= 0)] += p
    for key in set(proj) | set(want):
        assert proj.get(key, 0.0) == pytest.approx(want.get(key, 0.0), abs=1e-12), key


def test_plain_hits_alone_equal_the_chain_with_given_hits() -> None:
    # A joint of plain hits only is the engine's own Fire Group of given hits, mixed over the count.
    st = Strike(4, 4, Dist.point(2), breaching=6, shred=5)
    d = Defence(4, 3, None, None, 6)
    group = _group(st, d, 4)
    joint = np.array([0.2, 0.5, 0.3])
    got = resolve_marker_hits(start(3, 2), ("hit",), joint, group, 2)
    want: dict = defaultdict(float)
    for n, p in enumerate(joint):
        for s, q in resolve_group(start(3, 2), FireGroup(Dist.point(n), HitDie(0.0, 1.0, 0.0, 0.0), st, d, 4,
                                                         on_hit=group.on_hit, on_wound=group.on_wound), 2).items():  # fmt: skip
            want[s] += p * q
    for key in set(got) | set(want):
        assert got.get(key, 0.0) == pytest.approx(want.get(key, 0.0), abs=1e-12)


def test_counts_by_hand() -> None:
    # One marker's joint: 1 Critical hit (p 0.25) or 2 plain hits (0.75). S 4 vs T 4: wound 1/2; no saves.
    # hits: 1 w.p. 0.25, 2 w.p. 0.75; wounds: crit always 1; plain 2 hits: Bin(2, 1/2).
    st, d = Strike(4, None, Dist.point(1)), Defence(4, None, None)
    joint = np.zeros((3, 2))
    joint[0, 1] = 0.25
    joint[2, 0] = 0.75
    c = marker_counts(("hit", "critical"), joint, _group(st, d, None))
    assert c.hits.pmf(1) == pytest.approx(0.25) and c.hits.pmf(2) == pytest.approx(0.75)
    assert c.critical_hits.pmf(1) == pytest.approx(0.25)
    assert c.wounds.pmf(1) == pytest.approx(0.25 + 0.75 * 0.5, abs=1e-15)
    assert c.unsaved.isclose(c.wounds)


def test_set_aside_order_is_visible() -> None:
    # W 2, D 1: a Critical wound does 2, a plain Breaching wound 1. Plain wounds go first, then the Critical
    # group, then Breaching: with one wound of each, 1 + 2 = a dead model and 1 more wound (order
    # critical, breaching) or, the other way, a wound of 1 then a Critical of 2 losing 1 of excess.
    st, d = Strike(4, None, Dist.point(1), breaching=5), Defence(4, None, None)
    counts = {"hit": 2, "critical": 1}
    joint = np.zeros((3, 2))
    joint[2, 1] = 1.0
    got = resolve_marker_hits(start(2, 2), ("hit", "critical"), joint, _group(st, d, None), 2)
    want = _oracle(counts, st, d, None, 2, 2)
    proj: dict[tuple[int, int, bool], float] = defaultdict(float)
    for s, p in got.items():
        proj[(s[0], s[1], s[PINNED] >= 0)] += p
    for key in set(proj) | set(want):
        assert proj.get(key, 0.0) == pytest.approx(want.get(key, 0.0), abs=1e-12), key
