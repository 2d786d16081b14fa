"""Edition 3 Wound Tests, saves, Damage Mitigation and Damage per hit (docs/rules-hh3.md).

A hit of one class (ordinary, Critical, Rending) becomes one of: no wound, a saved wound, or an Unsaved Wound
of a *set-aside group* (``plain``, ``critical``, ``rending``, ``breaching``, ``shred``, ``breaching+shred``)
whose wounds share their save and their Damage distribution. Variable rules read the natural wound roll;
Critical and Rending hits wound automatically as a natural 6.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from praetor_analysis.engine.hh3.keys import kept_hash, state_without_hash
from praetor_analysis.prob import BoundedMemo, Dist
from praetor_analysis.rules import wound_target

__all__ = [
    "GROUPS",
    "Defence",
    "GroupOutcome",
    "Strike",
    "WoundClasses",
    "breaching_ap",
    "damage_dist",
    "p_unsaved",
    "wound_classes",
]

GROUPS = ("plain", "critical", "rending", "breaching", "shred", "breaching+shred")
"""The groups of one Fire Group's wounds in the order they are set aside (hit step, then wound step)."""


@dataclass(frozen=True)
class Strike:
    """What a hit carries into the wound chain.

    Attributes:
        strength: RS (or S after SM); None or 0: every Wound Test fails.
        ap: AP number (None: ``-``).
        damage: the base Damage per Unsaved Wound (a distribution: D3 rolls per wound).
        damage_mul: Ordnance (D) x2; ``damage_add``: Heavy (D) +1 (and Impact (D)).
        breaching, shred, poisoned: the X of those rules (natural wound roll X+), or None.
    """

    strength: int | None
    ap: int | None
    damage: Dist
    damage_mul: int = 1
    damage_add: int = 0
    breaching: int | None = None
    shred: int | None = None
    poisoned: int | None = None

    __hash__ = kept_hash  # a key of the class and Damage memos: hashed once
    __getstate__ = state_without_hash


@dataclass(frozen=True)
class Defence:
    """The target's side of the chain: majority Toughness, saves and mitigation.

    Attributes:
        toughness: the majority Toughness.
        sav, inv, cover: armour, invulnerable and cover save target numbers (None: none; cover None in melee).
        feel_no_pain, shrouded: Damage Mitigation target numbers (Shrouded None in melee).
        eternal_warrior: X of Eternal Warrior (X) (0: none).
        poison_needs_six: Walker, Automata or Artifica models (Poisoned needs a natural 6).
    """

    toughness: int
    sav: int | None
    inv: int | None
    cover: int | None = None
    feel_no_pain: int | None = None
    shrouded: int | None = None
    eternal_warrior: int = 0
    poison_needs_six: bool = False


@dataclass(frozen=True)
class GroupOutcome:
    """The wounds of one set-aside group made by one hit: P(wound in the group), P(it goes unsaved), its
    Damage distribution."""

    group: str
    p_wound: float
    p_unsaved: float
    damage: Dist


@dataclass(frozen=True)
class WoundClasses:
    """What one hit of a class becomes: ``p_no_wound`` and one GroupOutcome per group it can wound in."""

    p_no_wound: float
    groups: tuple[GroupOutcome, ...]


def _p_test(target: int | None) -> float:
    """P(a D6 Test at ``target``+ passes), a natural 1 always failing."""
    if target is None or target > 6:
        return 0.0
    return (7 - max(target, 2)) / 6.0


def breaching_ap(ap: int | None) -> int:
    """The AP of a Breaching wound: 2, or the weapon's if better."""
    return 2 if ap is None else min(ap, 2)


def p_unsaved(ap: int | None, defence: Defence) -> float:
    """P(a wound at ``ap`` survives the best save and then the best Damage Mitigation)."""
    armour = defence.sav if defence.sav is not None and (ap is None or ap > defence.sav) else None
    saves = [s for s in (armour, defence.cover, defence.inv) if s is not None]
    p_save = _p_test(min(saves)) if saves else 0.0
    mitigations = [m for m in (defence.feel_no_pain, defence.shrouded) if m is not None]
    p_mitigate = _p_test(min(mitigations)) if mitigations else 0.0
    return (1.0 - p_save) * (1.0 - p_mitigate)


def damage_dist(strike: Strike, extra: int, eternal_warrior: int) -> Dist:
    """The Damage of one Unsaved Wound: base x mul, + add + ``extra`` (Critical, Shred), - Eternal Warrior (X)
    never below 1; a Damage of 0 stays 0 (memoised: a Dist is immutable)."""
    key = (strike.damage, strike.damage_mul, strike.damage_add, extra, eternal_warrior)
    return _DAMAGE.get(key, lambda: _damage_dist(strike, extra, eternal_warrior))


_DAMAGE: BoundedMemo[Dist] = BoundedMemo(1024)


def _damage_dist(strike: Strike, extra: int, eternal_warrior: int) -> Dist:
    base = strike.damage.probabilities
    out = np.zeros(base.size * max(strike.damage_mul, 1) + strike.damage_add + extra + 1)
    for d, p in enumerate(base):
        if p == 0.0:
            continue
        value = d * strike.damage_mul + strike.damage_add + extra
        if value > 0 and eternal_warrior:
            value = max(value - eternal_warrior, 1)
        out[max(value, 0)] += p
    return Dist.from_trusted(out)


def _natural_wound_groups(strike: Strike, defence: Defence) -> dict[tuple[bool, bool], float]:
    """P(each (breaching, shred) pair of a wounding natural roll) for an ordinary hit."""
    out: dict[tuple[bool, bool], float] = {}
    s = strike.strength
    if s is None or s <= 0:
        return out
    if defence.toughness <= 0:
        faces: tuple[int, ...] = (6,) * 6  # every roll wounds; variable rules count as triggered
        target: int | None = 1
    else:
        faces, target = (1, 2, 3, 4, 5, 6), wound_target(s, defence.toughness)
    poison = strike.poisoned
    if poison is not None and defence.poison_needs_six:
        poison = 6
    for v in faces:
        wounds = defence.toughness <= 0 or (
            v != 1 and ((target is not None and v >= target) or (poison is not None and v >= poison))
        )
        if not wounds:
            continue
        key = (strike.breaching is not None and v >= strike.breaching, strike.shred is not None and v >= strike.shred)
        out[key] = out.get(key, 0.0) + 1.0 / 6.0
    return out


def wound_classes(kind: str, strike: Strike, defence: Defence) -> WoundClasses:
    """What one hit of ``kind`` (``hit``, ``critical`` or ``rending``) becomes against ``defence``."""
    if kind in ("critical", "rending"):
        breach, shred = strike.breaching is not None, strike.shred is not None
        extra = (1 if kind == "critical" else 0) + (1 if shred else 0)
        ap = breaching_ap(strike.ap) if breach else strike.ap
        outcome = GroupOutcome(kind, 1.0, p_unsaved(ap, defence), damage_dist(strike, extra, defence.eternal_warrior))
        return WoundClasses(0.0, (outcome,))
    groups = []
    pairs = _natural_wound_groups(strike, defence)
    names = {
        (False, False): "plain",
        (True, False): "breaching",
        (False, True): "shred",
        (True, True): "breaching+shred",
    }
    for key in ((False, False), (True, False), (False, True), (True, True)):
        p = pairs.get(key, 0.0)
        if p == 0.0:
            continue
        breach, shred = key
        outcome = GroupOutcome(
            names[key],
            p,
            p_unsaved(breaching_ap(strike.ap) if breach else strike.ap, defence),
            damage_dist(strike, 1 if shred else 0, defence.eternal_warrior),
        )
        groups.append(outcome)
    return WoundClasses(1.0 - sum(g.p_wound for g in groups), tuple(groups))
