"""Dice primitives of the brute-force oracle: distributions are dicts {outcome: probability}.

Every D6 is enumerated face by face (1/6 each).  Probabilities are Fractions (exact) or floats (faster,
about 1e-15); `arithmetic(exact)` chooses, and the rest of the oracle only touches the numbers through
these functions.
"""

from __future__ import annotations

from collections import defaultdict
from contextlib import contextmanager
from fractions import Fraction

from .parse import DiceExpr

# The arithmetic: Fractions (exact) or floats (about 1e-15, much faster).  `arithmetic` switches them.
ZERO, ONE, SIXTH = Fraction(0), Fraction(1), Fraction(1, 6)
FACES = range(1, 7)


@contextmanager
def arithmetic(exact: bool):
    global ZERO, ONE, SIXTH
    saved = ZERO, ONE, SIXTH
    ZERO, ONE, SIXTH = (Fraction(0), Fraction(1), Fraction(1, 6)) if exact else (0.0, 1.0, 1.0 / 6.0)
    try:
        yield
    finally:
        ZERO, ONE, SIXTH = saved


def merge_paths(paths) -> list:
    """Sum the probabilities of face paths that end in the same outcome (same as merging states)."""
    out: dict = {}
    for p, outcome in paths:
        out[outcome] = out.get(outcome, ZERO) + p
    return [(p, outcome) for outcome, p in out.items()]


def each_state(dist: dict, step) -> dict:
    """Apply `step(state) -> [(probability, new_state), ...]` to every state, merging equal results."""
    out: dict = defaultdict(lambda: ZERO)
    for state, p in dist.items():
        for q, new in step(state):
            out[new] += p * q
    return dict(out)


def stay(state):
    return [(ONE, state)]


def d6_faces():
    """One D6: [(1/6, 1), ..., (1/6, 6)]."""
    return [(SIXTH, face) for face in FACES]


def d6(on_face):
    """Roll one D6: the six faces, 1/6 each, each mapped by `on_face`."""
    return [(p, on_face(face)) for p, face in d6_faces()]


def certain(outcome) -> dict:
    return {outcome: ONE}


def marginal(dist: dict, key) -> dict:
    """Distribution of key(outcome)."""
    out: dict = defaultdict(lambda: ZERO)
    for outcome, p in dist.items():
        out[key(outcome)] += p
    return dict(out)


def probability(dist: dict, event) -> object:
    return sum((p for outcome, p in dist.items() if event(outcome)), ZERO)


def pmf_list(dist: dict) -> list:
    """{k: p} -> [p0, p1, ...] without trailing zeros (at least [p0])."""
    top = max((k for k, p in dist.items() if p != 0), default=0)
    return [dist.get(k, ZERO) for k in range(top + 1)]


def succeeds(face: int, need: int | None) -> bool:
    """A roll of `need`+ on one die; a natural 1 always fails; need None = cannot succeed."""
    return need is not None and face != 1 and face >= need


def dice_total(expr: DiceExpr) -> dict:
    """Distribution of a dice expression, rolling its dice one at a time (a D3 is a D6 halved up)."""
    dist = {expr.plus: ONE}
    for _ in range(expr.n):
        if expr.faces == 3:
            dist = each_state(dist, lambda t: d6(lambda f: t + (f + 1) // 2))
        else:
            dist = each_state(dist, lambda t: d6(lambda f: t + f))
    return marginal(dist, lambda t: max(t, 0))


def leadership_test(ld: int) -> list[tuple[object, bool]]:
    """2D6 <= Ld passes; Ld below 2 always fails.  The 36 face pairs, one by one."""
    return merge_paths((SIXTH * SIXTH, ld >= 2 and a + b <= ld) for a in FACES for b in FACES)


def save_outcomes(
    save_need, reroll_failed_save, mitigation_need, reroll_passed_save=False
) -> list[tuple[object, bool]]:
    """Roll one save (re-rolled once if failed and allowed, or once if passed and the attacker makes it
    re-roll a pass), then one mitigation roll.  Returns (probability, unsaved) for every face path."""
    out = []

    def after_save(p, saved):
        if saved:
            out.append((p, False))
        elif mitigation_need is None:
            out.append((p, True))
        else:
            for face in FACES:
                out.append((p * SIXTH, not succeeds(face, mitigation_need)))

    if save_need is None:
        after_save(ONE, False)
    else:
        for face in FACES:
            if succeeds(face, save_need) and reroll_passed_save:
                for again in FACES:
                    after_save(SIXTH * SIXTH, succeeds(again, save_need))
            elif succeeds(face, save_need):
                after_save(SIXTH, True)
            elif reroll_failed_save:
                for again in FACES:
                    after_save(SIXTH * SIXTH, succeeds(again, save_need))
            else:
                after_save(SIXTH, False)
    return out


def chance_saved(save_need, reroll, reroll_passed=False):
    return sum(p for p, unsaved in save_outcomes(save_need, reroll, None, reroll_passed) if not unsaved)
