"""The edition 3 chain of one Fire Group against a unit of identical models, exactly.

The target's state is ``(models, wounds left on the current model, Pinned, Suppressed, Stunned, Routed, models
at the start of the attack)``, the four status entries being the harshest Check modifier triggered so far (-1:
not triggered). A Fire Group's dice are independent; each ends in one class: miss, hit without wound, saved
wound, or an Unsaved Wound of one set-aside group. The counts of the classes are multinomial, drawn class by
class (a binomial of the dice left), so the groups are applied in their order, each wound one at a time
(excess Damage lost on a dying model), each group followed by its Deflagrate hits, and the triggers read off
"at least one hit" and "at least one wound". Nothing is sampled.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from praetor_analysis.engine.hh3.hit import HitDie
from praetor_analysis.engine.hh3.wound import GROUPS, Defence, Strike, p_unsaved, wound_classes
from praetor_analysis.prob.convolution import compound
from praetor_analysis.prob.dice import binomial_pmf
from praetor_analysis.prob.dist import Dist
from praetor_analysis.prob.memo import BoundedMemo

__all__ = [
    "PINNED",
    "ROUTED",
    "STATUSES",
    "STUNNED",
    "SUPPRESSED",
    "FireGroup",
    "GroupClasses",
    "State",
    "end_attack",
    "group_classes",
    "group_counts",
    "resolve_group",
    "start",
]

STATUSES = ("Pinned", "Suppressed", "Stunned", "Routed")
PINNED, SUPPRESSED, STUNNED, ROUTED = 2, 3, 4, 5  # positions in a State
State = tuple[int, int, int, int, int, int, int]
"""(models, wounds left on the current model, Pinned, Suppressed, Stunned, Routed, models at the attack's start)."""


def start(models: int, wounds: int) -> dict[State, float]:
    """The state of a fresh unit of ``models`` models of ``wounds`` W, no trigger yet."""
    return {(models, wounds, -1, -1, -1, -1, models): 1.0}


@dataclass(frozen=True)
class FireGroup:
    """One Fire Group (or Strike Group) ready for the chain.

    Attributes:
        dice: the distribution of the number of hit dice (or of hits given without a Hit Test).
        die: the classes of one die (:mod:`praetor_analysis.engine.hh3.hit`).
        strike: what each hit carries; ``defence``: the target's side.
        deflagrate: X of Deflagrate (X) (None: none): after each group, one hit at S X, AP -, D 1 per Unsaved Wound.
        on_hit: (status position, modifier) triggered by at least one hit (Suppressive, Stun).
        on_wound: (status position, modifier) triggered by at least one wound (Pinning, Panic).
        group_order: ``created`` or ``largest_damage_first`` (docs/rules-hh3.md).
    """

    dice: Dist
    die: HitDie
    strike: Strike
    defence: Defence
    deflagrate: int | None = None
    on_hit: tuple[tuple[int, int], ...] = ()
    on_wound: tuple[tuple[int, int], ...] = ()
    group_order: str = "created"


@dataclass(frozen=True)
class GroupClasses:
    """The classes of one die of a Fire Group: P(miss), P(hit, no wound), P(saved wound), and per set-aside group
    (in resolution order) P(Unsaved Wound of that group) with its Damage; ``p_deflagrate``: P(one Deflagrate hit
    becomes an Unsaved Wound); ``p_wound``: P(a successful Wound Test)."""

    miss: float
    hit_only: float
    saved: float
    unsaved: tuple[tuple[str, float, Dist], ...]
    p_deflagrate: float
    p_wound: float = field(default=0.0)


def group_classes(group: FireGroup) -> GroupClasses:
    """The per-die classes of ``group`` (see :class:`GroupClasses`)."""
    die = group.die
    hit_only = saved = p_wound = 0.0
    by_group: dict[str, list] = {}
    for kind, p_kind in (("hit", die.hit), ("critical", die.critical), ("rending", die.rending)):
        if p_kind == 0.0:
            continue
        wc = wound_classes(kind, group.strike, group.defence)
        hit_only += p_kind * wc.p_no_wound
        for g in wc.groups:
            p_wound += p_kind * g.p_wound
            saved += p_kind * g.p_wound * (1.0 - g.p_unsaved)
            entry = by_group.setdefault(g.group, [0.0, g.damage])
            entry[0] += p_kind * g.p_wound * g.p_unsaved
    order = [g for g in GROUPS if g in by_group]
    if group.group_order == "largest_damage_first":
        rest = sorted(order[1:] if order[:1] == ["plain"] else order, key=lambda g: -by_group[g][1].mean())
        order = (["plain"] if order[:1] == ["plain"] else []) + rest
    unsaved = tuple((g, by_group[g][0], by_group[g][1]) for g in order)
    p_df = 0.0
    if group.deflagrate is not None:
        df = Strike(group.deflagrate, None, Dist.point(1))
        wc = wound_classes("hit", df, group.defence)
        p_df = sum(g.p_wound for g in wc.groups) * p_unsaved(None, group.defence)
    return GroupClasses(die.miss, hit_only, saved, unsaved, p_df, p_wound)


_APPLY: BoundedMemo[dict[tuple[int, int], float]] = BoundedMemo(1 << 16)


def _step(m: int, c: int, d: int, w: int) -> tuple[int, int]:
    """One Unsaved Wound of Damage ``d`` on the current model: a casualty loses the rest (excess lost)."""
    if m == 0 or d <= 0:
        return m, c
    if c - d <= 0:
        return m - 1, w
    return m, c - d


def _apply(m: int, c: int, k: int, damage: Dist, w: int) -> dict[tuple[int, int], float]:
    """The distribution of (models, current) after ``k`` Unsaved Wounds of ``damage`` each, one at a time."""
    if k == 0 or m == 0:
        return {(m, c): 1.0}

    def build() -> dict[tuple[int, int], float]:
        out: dict[tuple[int, int], float] = defaultdict(float)
        for d, p in enumerate(damage.probabilities.tolist()):
            if p == 0.0:
                continue
            m2, c2 = _step(m, c, d, w)
            for key, q in _apply(m2, c2, k - 1, damage, w).items():
                out[key] += p * q
        return dict(out)

    return _APPLY.get((m, c, k, damage, w), build)


def _ones(m: int, c: int, j: int, w: int) -> tuple[int, int]:
    """``j`` wounds of Damage 1 (no excess can be lost)."""
    total = max((m - 1) * w + c - j, 0) if m else 0
    if total == 0:
        return 0, w
    models = -(-total // w)
    return models, total - (models - 1) * w


def _trigger(state: State, triggers: tuple[tuple[int, int], ...]) -> State:
    if not triggers:
        return state
    s = list(state)
    for pos, x in triggers:
        s[pos] = max(s[pos], x)
    return (s[0], s[1], s[2], s[3], s[4], s[5], s[6])


def resolve_group(states: Mapping[State, float], group: FireGroup, wounds: int) -> dict[State, float]:
    """The target's state distribution after ``group`` (``wounds``: the models' W)."""
    classes = group_classes(group)
    steps = [classes.miss, classes.hit_only, classes.saved, *(p for _, p, _ in classes.unsaved)]
    rems = np.cumsum(steps[::-1])[::-1].tolist()
    work: dict[tuple[int, State], float] = defaultdict(float)
    for n, pn in enumerate(group.dice.probabilities.tolist()):
        if pn == 0.0:
            continue
        for s, ps in states.items():
            work[(n, s)] += pn * ps
    for i, p in enumerate(steps):
        last = i == len(steps) - 1
        q = 1.0 if last or rems[i] <= 0.0 else min(p / rems[i], 1.0)
        nxt: dict[tuple[int, State], float] = defaultdict(float)
        for (r, s), ps in work.items():
            pmf = binomial_pmf(r, q).tolist() if r else [1.0]
            for k, pk in enumerate(pmf):
                if pk == 0.0:
                    continue
                left = r - k
                s2 = s
                if i == 0 and left > 0:
                    s2 = _trigger(s2, group.on_hit)
                elif i == 1 and left > 0:
                    s2 = _trigger(s2, group.on_wound)
                if i < 3 or k == 0:
                    nxt[(left, s2)] += ps * pk
                    continue
                _, _, damage = classes.unsaved[i - 3]
                for (m2, c2), pa in _apply(s2[0], s2[1], k, damage, wounds).items():
                    if classes.p_deflagrate > 0.0:
                        for j, pj in enumerate(binomial_pmf(k, classes.p_deflagrate).tolist()):
                            m3, c3 = _ones(m2, c2, j, wounds)
                            nxt[(left, (m3, c3, *s2[2:]))] += ps * pk * pa * pj
                    else:
                        nxt[(left, (m2, c2, *s2[2:]))] += ps * pk * pa
        work = nxt
    out: dict[State, float] = defaultdict(float)
    for (_, s), p in work.items():
        out[s] += p
    return dict(out)


def end_attack(states: Mapping[State, float], *, casualty_check: bool = True) -> dict[State, float]:
    """Close one shooting attack: casualties of at least a quarter of the models it began with (rounded up)
    trigger the Routed Check at plain LD (modifier 0) on a unit not wiped out; the next attack starts here."""
    out: dict[State, float] = defaultdict(float)
    for s, p in states.items():
        m, m0 = s[0], s[6]
        rout = s[ROUTED]
        if casualty_check and m > 0 and m0 - m >= -(-m0 // 4):
            rout = max(rout, 0)
        out[(m, s[1], s[2], s[3], s[4], rout, m)] += p
    return dict(out)


def group_counts(group: FireGroup) -> dict[str, Dist]:
    """The distributions of ``hits``, ``critical_hits``, ``wounds`` and ``unsaved`` of one Fire Group (each die
    counted whether or not a model is left; Deflagrate's Unsaved Wounds included in ``unsaved``)."""
    classes = group_classes(group)
    u = sum(p for _, p, _ in classes.unsaved)
    df = classes.p_deflagrate
    each = {
        "hits": np.array([1.0 - group.die.hits, group.die.hits]),
        "critical_hits": np.array([1.0 - group.die.critical, group.die.critical]),
        "wounds": np.array([1.0 - classes.p_wound, classes.p_wound]),
        "unsaved": np.array([1.0 - u, u * (1.0 - df), u * df]),
    }
    dice = group.dice.probabilities
    return {k: Dist.from_trusted(compound(dice, np.clip(v, 0.0, None))) for k, v in each.items()}
