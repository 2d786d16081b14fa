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

import itertools
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from praetor_analysis.engine.hh3.hit import HitDie
from praetor_analysis.engine.hh3.keys import kept_hash, state_without_hash
from praetor_analysis.engine.hh3.operators import class_step
from praetor_analysis.engine.hh3.wound import GROUPS, Defence, Strike, p_unsaved, wound_classes
from praetor_analysis.prob import BoundedMemo, Dist, binomial_matrix, compound_many

__all__ = [
    "HELD",
    "PINNED",
    "ROUTED",
    "STATUSES",
    "STUNNED",
    "SUPPRESSED",
    "FireGroup",
    "GroupClasses",
    "State",
    "end_attack",
    "from_hit_points",
    "group_classes",
    "group_counts",
    "hit_points",
    "resolve_group",
    "shock_mix",
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
        shock: status positions Shock (X) gives, without a Check, when any die shows a natural 5 or 6
            (``die.shock``); ``calm``: the die given a natural 1 to 4 (both set, or neither).
    """

    dice: Dist
    die: HitDie
    strike: Strike
    defence: Defence
    deflagrate: int | None = None
    on_hit: tuple[tuple[int, int], ...] = ()
    on_wound: tuple[tuple[int, int], ...] = ()
    group_order: str = "created"
    shock: tuple[int, ...] = ()
    calm: HitDie | None = None

    __hash__ = kept_hash  # a key of several memos: hashed once
    __getstate__ = state_without_hash


HELD = 100
"""A status trigger whose 'modifier' no Check can pass (the Check's target is at most 0): the status is given
without a Check (Shock (X))."""


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


def group_classes(group: FireGroup, die: HitDie | None = None) -> GroupClasses:
    """The per-die classes of ``group`` (see :class:`GroupClasses`), its die or ``die`` (memoised)."""
    die = group.die if die is None else die
    return _CLASSES.get((die, group.strike, group.defence, group.group_order, group.deflagrate),
                        lambda: _group_classes(group, die))  # fmt: skip


_CLASSES: BoundedMemo[GroupClasses] = BoundedMemo(4096)


def _group_classes(group: FireGroup, die: HitDie) -> GroupClasses:
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


def hit_points(m: int, c: int, w: int) -> int:
    """The unit's wounds left, ``(m - 1) * w + c`` (0 when no model is left): with the damaged model taken
    first, (models, current) and this total determine each other."""
    return (m - 1) * w + c if m > 0 else 0


def from_hit_points(hp: int, w: int) -> tuple[int, int]:
    """(models, wounds left on the current model) of ``hp`` wounds left (``(0, w)`` when none)."""
    if hp <= 0:
        return 0, w
    m = -(-hp // w)
    return m, hp - (m - 1) * w


def _trigger(key: tuple[int, ...], triggers: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """``key`` (the State without models and current) with ``triggers`` raised."""
    if not triggers:
        return key
    s = list(key)
    for pos, x in triggers:
        s[pos - 2] = max(s[pos - 2], x)
    return tuple(s)


def resolve_group(
    states: Mapping[State, float], group: FireGroup, wounds: int, *, no_unsaved: bool = False
) -> dict[State, float]:
    """The target's state distribution after ``group`` (``wounds``: the models' W); with ``no_unsaved``, the
    part of it where the group makes no Unsaved Wound (a sub-distribution: its total is that probability).

    With Shock (X), the attack is also resolved given that no die shows a natural 5 or 6 (each die then
    follows ``calm``, and n dice are all calm with probability (1 - shock)^n); the difference of the two
    distributions is the mass where some die did, which gains the Shock statuses.

    Memoised by the states, the (frozen) group and ``wounds``: a fire plan's orders share their first units."""

    def build() -> dict[State, float]:
        out = _resolve(states, group, group.die, group.dice.probabilities, wounds, no_unsaved)
        if not group.shock or group.calm is None:
            return out
        dice = group.dice.probabilities
        calm = _resolve(
            states, group, group.calm, dice * (1.0 - group.die.shock) ** np.arange(dice.size), wounds, no_unsaved
        )
        return shock_mix(out, calm, group.shock)

    return dict(_RESOLVED.get((frozenset(states.items()), group, wounds, no_unsaved), build))


_RESOLVED: BoundedMemo[dict[State, float]] = BoundedMemo(4096)


def shock_mix(
    states: Mapping[State, float], calm: Mapping[State, float], positions: tuple[int, ...]
) -> dict[State, float]:
    """``states`` after an attack with Shock (X), given ``calm``, the part of them where no Hit Test showed a
    natural 5 or 6 (a sub-distribution): the rest of each state's mass holds the statuses at ``positions``
    without a Check (:data:`HELD`)."""
    mixed: dict[State, float] = defaultdict(float)
    for s, p in states.items():
        quiet = min(calm.get(s, 0.0), p)
        if quiet > 0.0:
            mixed[s] += quiet
        if p - quiet > 0.0:
            raised = list(s)
            for pos in positions:
                raised[pos] = HELD
            mixed[(raised[0], raised[1], raised[2], raised[3], raised[4], raised[5], raised[6])] += p - quiet
    return dict(mixed)


def _keys(first: list[tuple[int, ...]], group: FireGroup) -> list[tuple[int, ...]]:
    """The status keys ``first`` and every key the group's triggers can raise them to (in a fixed order)."""
    keys = dict.fromkeys(first)
    for triggers in (group.on_hit, group.on_wound):
        for key in list(keys):
            keys.setdefault(_trigger(key, triggers))
    return list(keys)


def _resolve(
    states: Mapping[State, float], group: FireGroup, die: HitDie, dice: np.ndarray, wounds: int, no_unsaved: bool
) -> dict[State, float]:
    """``resolve_group`` with the die ``die`` and the weights ``dice`` of each dice count (a pmf, or less);
    ``no_unsaved``: every die kept out of the Unsaved Wound classes (n dice with probability (1 - u)^n).

    The work is one array ``a[key, r, hp]`` (status key, dice not yet classed, wounds left); each class step is
    a linear map on it (:func:`~praetor_analysis.engine.hh3.operators.class_step`), and after the miss and the
    hit-without-wound steps the mass with dice left (at least one hit, at least one wound) moves to the key
    its triggers raise."""
    classes = group_classes(group, die)
    if no_unsaved:
        kept = classes.miss + classes.hit_only + classes.saved
        dice = dice * kept ** np.arange(dice.size)
        classes = replace(classes, unsaved=tuple((g, 0.0, d) for g, _, d in classes.unsaved))
    steps = [classes.miss, classes.hit_only, classes.saved, *(p for _, p, _ in classes.unsaved)]
    rems = list(itertools.accumulate(steps[::-1]))[::-1]  # the mass of this step and the later ones
    firsts = [s[2:] for s in states]
    hps = [hit_points(s[0], s[1], wounds) for s in states]
    size = max(hps) + 1
    keys = _keys(list(dict.fromkeys(firsts)), group)
    index = {key: i for i, key in enumerate(keys)}
    start_mass = np.zeros((len(keys), size))
    for k, hp, p in zip(firsts, hps, states.values(), strict=True):
        start_mass[index[k], hp] += p
    a = start_mass[:, None, :] * dice[None, :, None]
    for i, p in enumerate(steps):
        q = 1.0 if i == len(steps) - 1 or rems[i] <= 0.0 else min(p / rems[i], 1.0)
        if i < 3:
            a = class_step(a, q, None, wounds)
        else:
            a = class_step(a, q, classes.unsaved[i - 3][2], wounds, classes.p_deflagrate)
        triggers = group.on_hit if i == 0 else group.on_wound if i == 1 else ()
        if triggers and a.shape[1] > 1:  # dice left: at least one hit (step 0) or wound (step 1)
            a = np.array(a)
            for key in keys:
                raised = _trigger(key, triggers)
                if raised != key:
                    a[index[raised], 1:] += a[index[key], 1:]
                    a[index[key], 1:] = 0.0
    out: dict[State, float] = {}
    columns = a.sum(axis=1)
    for key, column in zip(keys, columns, strict=True):
        left = np.flatnonzero(column)
        models = -(-left // wounds)  # from_hit_points of every hp at once ((0, W) at 0)
        current = left - (models - 1) * wounds
        pin, sup, stun, rout, m0 = key
        for m, c, p in zip(models.tolist(), current.tolist(), column[left].tolist(), strict=True):
            out[(m, c, pin, sup, stun, rout, m0)] = p
    return out


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
    counted whether or not a model is left; Deflagrate's Unsaved Wounds included in ``unsaved``; memoised)."""
    return dict(_COUNTS.get(group, lambda: _group_counts(group)))


_COUNTS: BoundedMemo[dict[str, Dist]] = BoundedMemo(4096)


def _group_counts(group: FireGroup) -> dict[str, Dist]:
    classes = group_classes(group)
    u = sum(p for _, p, _ in classes.unsaved)
    df = classes.p_deflagrate
    each = np.array([
        [1.0 - group.die.hits, group.die.hits, 0.0],
        [1.0 - group.die.critical, group.die.critical, 0.0],
        [1.0 - classes.p_wound, classes.p_wound, 0.0],
        [1.0 - u, u * (1.0 - df), u * df],
    ])  # fmt: skip
    dice = group.dice.probabilities
    each = np.clip(each, 0.0, None)
    if df > 0.0:  # a Deflagrate hit: an Unsaved Wound may count twice
        rows = compound_many(np.broadcast_to(dice, (4, dice.size)), each)
    else:  # every count a binomial mixture: one product with each probability's binomial matrix
        nmax = dice.size - 1
        rows = np.zeros((4, 2 * nmax + 1))
        for i, p in enumerate(each[:, 1].tolist()):
            rows[i, : nmax + 1] = dice @ binomial_matrix(nmax, min(p, 1.0))
    dists = Dist.from_trusted_rows(rows)  # the four at once
    return dict(zip(("hits", "critical_hits", "wounds", "unsaved"), dists, strict=True))
