"""An edition 3 volley (one weapon profile fired or swung by one unit at one target) and how it becomes a
Fire Group for the chain: Firepower or Attacks, Heavy/Ordnance/Impact, the hit die, the strike, the target's
defence and the status triggers (docs/rules-hh3.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.engine.hh3.chain import PINNED, ROUTED, STUNNED, SUPPRESSED, FireGroup
from praetor_analysis.engine.hh3.hit import GIVEN_HIT, HitDie, melee_hit_die, ranged_hit_die
from praetor_analysis.engine.hh3.keys import kept_hash, state_without_hash
from praetor_analysis.engine.hh3.wound import Defence, Strike
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import BoundedMemo, DiceExpr, Dist, compound
from praetor_analysis.profiles import Hh3Unit, Hh3Weapon
from praetor_analysis.rules import TABLES, Hh3Tables, RuleRef

__all__ = [
    "MAX_DICE",
    "SHOCK_STATUSES",
    "STATUS_RULES",
    "Hh3Context",
    "Hh3Volley",
    "combat_size",
    "defence_of",
    "fire_group",
    "misfire_group",
    "one_attack",
    "outnumbered",
    "shock_positions",
    "shock_reaches",
    "snap_forced",
    "strike_of",
]


MAX_DICE = 2000
"""The most hit dice (or attacks) one volley may roll; the chain's own bound (dice x wounds) is checked after."""


@dataclass(frozen=True)
class Hh3Context:
    """The circumstances of one volley (the scenario's fields).

    Attributes:
        mode: ``shooting`` or ``melee``.
        snap_shots, stationary, charging: as the scenario says.
        range: inches to the target (None: in range).
        attacks: total hit dice or melee attacks (None: from the profiles); ``hits``: hits given, no Hit Test.
        engaged: attacking models that strike in melee (None: all).
        group_order: ``created`` or ``largest_damage_first``.
        tables: the hit tables.
        force_boost: the Willpower Check of Force (X) passed: X doubled (AP becomes 2).
        attack_x: (status rule, the largest X among the weapons of the volley's attack that carry it), which
            a Check that rule triggers takes (:func:`one_attack`); empty: the volley's own X.
    """

    mode: str = "shooting"
    snap_shots: bool = False
    stationary: bool = False
    charging: bool = False
    range: int | None = None
    attacks: DiceExpr | None = None
    hits: DiceExpr | None = None
    engaged: int | None = None
    group_order: str = "created"
    tables: Hh3Tables = TABLES
    force_boost: bool = False
    attack_x: tuple[tuple[str, int], ...] = ()

    @property
    def melee(self) -> bool:
        return self.mode == "melee"


@dataclass(frozen=True)
class Hh3Volley:
    """One weapon profile used by one attacking unit."""

    attacker: Hh3Unit
    weapon: Hh3Weapon
    context: Hh3Context

    __hash__ = kept_hash  # the key of the Fire Group memo: hashed once
    __getstate__ = state_without_hash


def _acts(weapon: Hh3Weapon, name: str, chars: str, ctx: Hh3Context) -> bool:
    """Whether Heavy/Ordnance (when Stationary, ranged), Impact (when charging, melee) or Force (its Check passed)
    changes ``chars``."""
    if name == "Force":
        on = ctx.force_boost
    else:
        on = (ctx.stationary and not ctx.melee) if name != "Impact" else (ctx.charging and ctx.melee)
    if not on:  # the circumstances first: most volleys need no look at the rules
        return False
    rule = _boost_rules(weapon).get(name)
    return rule is not None and chars in rule.characteristics()


_BOOST_NAMES = frozenset({"Heavy", "Ordnance", "Impact", "Force"})
_BOOSTS: BoundedMemo[tuple[Hh3Weapon, dict[str, RuleRef]]] = BoundedMemo(1024)


def _boost_rules(weapon: Hh3Weapon) -> dict[str, RuleRef]:
    """The weapon's first rule of each name of Heavy, Ordnance, Impact and Force (``weapon.rule`` of each), one
    scan per weapon: kept by the weapon's identity (the record held beside its rules, so the identity is never
    another's)."""
    held = _BOOSTS.peek(id(weapon))
    if held is not None and held[0] is weapon:
        return held[1]
    rules: dict[str, RuleRef] = {}
    for rule in weapon.rules:
        if rule.name in _BOOST_NAMES:
            rules.setdefault(rule.name, rule)
    _BOOSTS.put(id(weapon), (weapon, rules))
    return rules


def _doubling(weapon: Hh3Weapon, chars: str, ctx: Hh3Context) -> int:
    """The factor of ``chars`` from the rules that double it (Ordnance when Stationary, Force when boosted)."""
    return (2 if _acts(weapon, "Ordnance", chars, ctx) else 1) * (2 if _acts(weapon, "Force", chars, ctx) else 1)


def _ap(weapon: Hh3Weapon, ctx: Hh3Context) -> int | None:
    ap = weapon.ap
    if _doubling(weapon, "AP", ctx) > 1:
        ap = 2 if ap is None else min(ap, 2)
    for name in ("Heavy", "Impact"):
        if _acts(weapon, name, "AP", ctx):
            ap = 6 if ap is None else max(ap - 1, 2)
    return ap


def strike_of(volley: Hh3Volley, side: str = "attacker") -> Strike:
    """The strike of a volley's hits: Strength (RS, or S after SM), AP and Damage after Heavy, Ordnance, Impact
    (``side`` names the striking unit's block in errors)."""
    w, ctx, att = volley.weapon, volley.context, volley.attacker
    if w.melee:
        if att.s is None:
            raise ProfileError(f"{side}.S: required in melee", field=f"{side}.S")
        assert w.sm is not None
        strength: int | None = w.sm.apply(att.s) * _doubling(w, "SM", ctx) + (1 if _acts(w, "Impact", "SM", ctx) else 0)
    else:
        strength = w.strength
        if strength is not None:
            strength *= _doubling(w, "RS", ctx)
        if strength is not None and _acts(w, "Heavy", "RS", ctx):
            strength += 1
    mul = _doubling(w, "D", ctx)
    add = sum(1 for n in ("Heavy", "Impact") if _acts(w, n, "D", ctx))
    return Strike(
        strength,
        _ap(w, ctx),
        w.damage.dist if w.damage is not None else Dist.point(0),
        mul,
        add,
        w.rule_number("Breaching"),
        w.rule_number("Shred"),
        w.rule_number("Poisoned"),
    )


def defence_of(unit: Hh3Unit, *, shooting: bool, field: str = "target") -> Defence:
    """A unit's side of the chain (cover and Shrouded only against shooting)."""
    if unit.t is None:
        raise ProfileError(f"{field}.T: required", field=f"{field}.T")
    return Defence(
        unit.t,
        unit.sav,
        unit.inv,
        unit.cover if shooting else None,
        unit.rule_number("Feel No Pain"),
        unit.rule_number("Shrouded") if shooting else None,
        unit.rule_number("Eternal Warrior") or 0,
        unit.has_type("Walker", "Automata", "Artifica"),
    )


def _ranged_dice(volley: Hh3Volley) -> Dist:
    w, ctx = volley.weapon, volley.context
    if ctx.attacks is not None:
        return ctx.attacks.dist
    assert w.firepower is not None
    per = w.firepower.dist
    factor = _doubling(w, "FP", ctx)
    if factor > 1:
        p = per.probabilities
        scaled = np.zeros(factor * (p.size - 1) + 1)
        scaled[::factor] = p
        per = Dist.from_trusted(scaled)
    if _acts(w, "Heavy", "FP", ctx):
        per = Dist.from_trusted(np.concatenate(([0.0], per.probabilities)))
    if per.max * volley.attacker.models > MAX_DICE:
        raise ProfileError(
            f"weapon.FP: up to {per.max} dice per weapon for {volley.attacker.models} models is beyond the edition 3 "
            f"bound of {MAX_DICE} hit dice per volley",
            field="weapon.FP",
        )
    models = volley.attacker.models
    if models == 1:  # one model's dice are its weapon's (no copy to build)
        return per
    return _POWERS.get((per, models), lambda: per.power(models))


_POWERS: BoundedMemo[Dist] = BoundedMemo(1024)


def _in_range(volley: Hh3Volley) -> bool:
    w, ctx = volley.weapon, volley.context
    if ctx.range is None or w.range is None:
        return True
    reach = w.range * (2 if _acts(w, "Ordnance", "R", ctx) else 1) + (1 if _acts(w, "Heavy", "R", ctx) else 0)
    return ctx.range <= reach


def snap_forced(volley: Hh3Volley, target: Hh3Unit) -> bool:
    """Snap Shots: asked for, or forced by Macro-auspex against a target that is not a Titan, Knight,
    Super-heavy or of base W 10+."""
    if volley.context.snap_shots:
        return True
    if volley.weapon.rule("Macro-auspex") is None:  # the weapon first: the target's types only matter with it
        return False
    return not (target.has_type("Titan", "Knight", "Super-heavy") or (target.w or 0) >= 10)


def _hit_die(volley: Hh3Volley, target: Hh3Unit, sides: tuple[str, str], *, calm: bool = False) -> HitDie:
    w, ctx, att = volley.weapon, volley.context, volley.attacker
    critical, rending = w.rule_number("Critical Hit"), w.rule_number("Rending")
    precision = w.rule_number("Precision")
    if w.melee:
        if att.ws is None or target.ws is None:
            miss = f"{sides[0]}.WS" if att.ws is None else f"{sides[1]}.WS"
            raise ProfileError(f"{miss}: required in melee", field=miss)
        if att.ws == 0:
            return HitDie(1.0, 0.0, 0.0, 0.0)
        return melee_hit_die(
            att.ws, target.ws, critical=critical, rending=rending, precision=precision, calm=calm, tables=ctx.tables
        )
    if att.bs is None:
        raise ProfileError(f"{sides[0]}.BS: required for shooting", field=f"{sides[0]}.BS")
    if att.bs == 0:
        return HitDie(1.0, 0.0, 0.0, 0.0)
    return ranged_hit_die(
        att.bs,
        snap=snap_forced(volley, target),
        critical=critical,
        rending=rending,
        precision=precision,
        overload=w.rule_number("Overload"),
        calm=calm,
        tables=ctx.tables,
    )


#: Shock (X)'s value words -> the status position they name.
SHOCK_STATUSES = {
    "pinned": PINNED, "pinning": PINNED, "suppressed": SUPPRESSED, "suppressive": SUPPRESSED,
    "stunned": STUNNED, "stun": STUNNED,
}  # fmt: skip


def shock_reaches(target: Hh3Unit) -> bool:
    """Whether Shock (X) can give ``target`` a status: Walker and Vehicle models (Knights too), never a Flyer."""
    return target.has_type("Walker", "Vehicle") and not target.has_type("Flyer")


def shock_positions(volley: Hh3Volley, target: Hh3Unit) -> tuple[int, ...]:
    """The statuses Shock (X) gives this target (a unit with Walker or Vehicle models, a Hit Test rolled): every
    status its value names (``Shock (Pinning, Stunned, Suppressed)`` names three); none otherwise, and none to a
    Flyer (it never gains a status)."""
    rule = volley.weapon.rule("Shock")
    if rule is None or volley.context.hits is not None or not shock_reaches(target):
        return ()
    words = [p.strip().lower() for p in (rule.value or "").split(",")]
    return tuple(dict.fromkeys(SHOCK_STATUSES[w] for w in words if w in SHOCK_STATUSES))


def combat_size(unit: Hh3Unit) -> int:
    """How many models a unit counts for outnumbering: a model with Bulky (X) counts X."""
    return unit.models * (unit.rule_number("Bulky") or 1)


def outnumbered(volley: Hh3Volley, target: Hh3Unit) -> bool:
    """Whether the attacking unit is outnumbered in the combat (the scenario's two units, Bulky (X) counted)."""
    return volley.context.melee and combat_size(volley.attacker) < combat_size(target)


def _dice(volley: Hh3Volley, side: str, target: Hh3Unit) -> Dist:
    """The number of hit dice (or melee attacks) of the volley."""
    w, ctx, att = volley.weapon, volley.context, volley.attacker
    if not w.melee:
        return _ranged_dice(volley) if _in_range(volley) else Dist.point(0)
    if ctx.attacks is not None:
        return ctx.attacks.dist
    if att.a is None:
        raise ProfileError(f"{side}.A: required in melee", field=f"{side}.A")
    assert w.am is not None
    each = w.am.apply(att.a) * _doubling(w, "AM", ctx) + (1 if _acts(w, "Impact", "AM", ctx) else 0)
    if outnumbered(volley, target):
        each += w.rule_number("Reaping Blow") or 0
    strikers = att.models if ctx.engaged is None else min(ctx.engaged, att.models)
    return Dist.point(each * strikers)


def fire_group(volley: Hh3Volley, target: Hh3Unit, *, sides: tuple[str, str] = ("attacker", "target")) -> FireGroup:
    """The Fire Group (or Strike Group) of ``volley`` against ``target``; ``sides`` name the two units' blocks
    in errors (a whole round strikes from the target's side too). Memoised on the frozen records."""
    return _GROUPS.get((volley, target, sides), lambda: _fire_group(volley, target, sides))


_GROUPS: BoundedMemo[FireGroup] = BoundedMemo(4096)


def _fire_group(volley: Hh3Volley, target: Hh3Unit, sides: tuple[str, str]) -> FireGroup:
    w, ctx = volley.weapon, volley.context
    shooting = not w.melee
    if ctx.hits is not None:
        dice, die = ctx.hits.dist, GIVEN_HIT
    else:
        dice, die = _dice(volley, sides[0], target), _hit_die(volley, target, sides)
    shock = shock_positions(volley, target)
    calm = _hit_die(volley, target, sides, calm=True) if shock and ctx.hits is None else None
    on_hit: list[tuple[int, int]] = []
    on_wound: list[tuple[int, int]] = []
    if shooting:
        largest = dict(ctx.attack_x)
        for name, pos, trigger in STATUS_RULES:
            x = w.rule_number(name)
            if x is not None:
                (on_hit if trigger == "hit" else on_wound).append((pos, max(x, largest.get(name, x))))
    return FireGroup(
        dice,
        die,
        strike_of(volley, sides[0]),
        defence_of(target, shooting=shooting, field=sides[1]),
        w.rule_number("Deflagrate"),
        tuple(on_hit),
        tuple(on_wound),
        ctx.group_order,
        shock if calm is not None else (),
        calm,
    )


#: The status rules of shooting weapons: (rule, status position, what triggers its Check: a hit or a wound).
STATUS_RULES = (
    ("Suppressive", SUPPRESSED, "hit"),
    ("Stun", STUNNED, "hit"),
    ("Pinning", PINNED, "wound"),
    ("Panic", ROUTED, "wound"),
)


def one_attack(volleys: Sequence[Hh3Volley]) -> tuple[Hh3Volley, ...]:
    """The volleys of one firing unit's attack, each told the largest X of every status rule among the attack's
    shooting weapons that can fire (in range): within one attack a Check triggered by any weapon with the rule
    takes that X (docs/rules-hh3.md#statuses)."""
    largest: dict[str, int] = {}
    for v in volleys:
        if v.weapon.melee or not _in_range(v):
            continue
        for name, _, _ in STATUS_RULES:
            x = v.weapon.rule_number(name)
            if x is not None:
                largest[name] = max(x, largest.get(name, x))
    attack_x = tuple(sorted(largest.items()))
    return tuple(
        v if v.context.attack_x == attack_x else replace(v, context=replace(v.context, attack_x=attack_x))
        for v in volleys
    )


def misfire_group(volley: Hh3Volley, group: FireGroup) -> FireGroup | None:
    """The Misfire Group of an Overload (X) volley against its own unit: one hit with the weapon's profile per
    Misfire (no hit-roll rule, no status); Templates (no Hit Test) roll their FP dice for Misfires. None when
    the weapon has no Overload or the firer has no T."""
    x = volley.weapon.rule_number("Overload")
    if x is None or volley.attacker.t is None:
        return None
    p = group.die.misfire
    if volley.context.hits is not None or volley.weapon.rule("Template") is not None:
        p = min(max(x, 0), 6) / 6.0
        dice = _ranged_dice(volley) if not volley.weapon.melee else group.dice
    else:
        dice = group.dice
    count = Dist.from_trusted(compound(dice.probabilities, np.array([1.0 - p, p])))
    return replace(
        group,
        dice=count,
        die=GIVEN_HIT,
        defence=defence_of(volley.attacker, shooting=True, field="attacker"),
        on_hit=(),
        on_wound=(),
        shock=(),
        calm=None,
    )
