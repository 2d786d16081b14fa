"""Per-hit wound, save and damage tables of a volley against a unit with Toughness and Wounds."""

from __future__ import annotations

import numpy as np

from praetor_analysis.engine.allocation import (
    Packet,
    WoundGroup,
    mix_packets,
)
from praetor_analysis.engine.damage import damage_packet
from praetor_analysis.engine.volley import Volley
from praetor_analysis.prob.memo import BoundedMemo
from praetor_analysis.profiles.records import ProfileError, Unit, Weapon
from praetor_analysis.rules.saves import SaveContext
from praetor_analysis.rules.wound import WoundKind, WoundRoll, haywire_outcomes, wound_target


def wound_table_for(volley: Volley, target: Unit, strength: int) -> dict[WoundKind, float]:
    """P(each wound kind) for one hit of ``volley`` on ``target``."""
    w = volley.weapon
    melee = volley.mode == "melee"
    if target.T is None:
        raise ProfileError(f"target.T: a unit without Toughness needs the vehicle rules, got {target.T!r}")
    if w.has("Haywire") and (target.has_type("Dreadnought") or target.has_type("Automata")):
        return haywire_outcomes()
    poisoned = w.get("Poisoned")
    fleshbane = w.has("Fleshbane")
    target_roll = wound_target(
        strength, target.T, fleshbane=fleshbane, poisoned=(poisoned.value or 4) if poisoned else None
    )
    reroll = (
        w.has("Shred")
        or (
            w.has("Armourbane")
            and armourbane_active(w, volley)
            and (target.has_type("Dreadnought") or target.has_type("Automata"))
        )
        or (melee and poisoned is not None and strength > target.T)
        or (w.has("Twin-linked") and w.range.template is not None)
    )
    rending, breaching, murderous = w.get("Rending"), w.get("Breaching"), w.get("Murderous Strike")
    roll = WoundRoll(
        target=target_roll,
        reroll_failed=reroll,
        rending=rending.value if rending else None,
        breaching=breaching.value if breaching else None,
        murderous=murderous.value if murderous else None,
        instant_death=w.has("Instant Death") or strength >= 2 * target.T,
        ap=w.ap,
        melee=melee,
        eternal_warrior=target.has("Eternal Warrior"),
    )
    return roll.outcomes()


def armourbane_active(w: Weapon, volley: Volley) -> bool:
    rule = w.get("Armourbane")
    if rule is None:
        return False
    variant = (rule.variant or "").lower()
    if variant == "melta":
        return volley.half_range
    if variant == "melee":
        return volley.mode == "melee"
    if variant == "ranged":
        return volley.mode != "melee"
    return True


def save_context(volley: Volley, target: Unit) -> SaveContext:
    """What the target may roll against this volley's wounds."""
    w = volley.weapon
    melee = volley.mode == "melee"
    is_template = w.range.template is not None or w.has("Template") or w.has("Hellstorm")
    is_blast = any(
        w.has(n)
        for n in ("Blast", "Large Blast", "Massive Blast", "Apocalyptic Blast", "Apocalyptic Mega-blast", "Barrage")
    )
    fnp, shr = target.get("Feel No Pain"), target.get("Shrouded")
    return SaveContext(
        armour=target.save,
        invulnerable=target.invulnerable,
        cover=target.cover,
        feel_no_pain=(fnp.value or 6) if fnp else None,
        shrouded=(shr.value or 6) if shr else None,
        heavy_reroll=target.has_type("Heavy") and (is_template or is_blast),
        cover_denied=melee or w.has("Ignores Cover") or is_template,
        # Template weapons have Ignores Cover, which denies Shrouded too (docs/rules.md#template)
        shrouded_denied=melee or w.has("Ignores Cover") or is_template or target.has("Fearless"),
    )


_GROUPS: BoundedMemo[tuple[list[WoundGroup], float, np.ndarray]] = BoundedMemo(8192)


def wound_groups(
    volley: Volley, target: Unit, strength: int, wounds: int
) -> tuple[list[WoundGroup], float, np.ndarray]:
    """Per-hit allocation groups, P(wound) per hit, and the per-hit pmf of unsaved wounds (memoised on what
    they depend on: the weapon's Type, AP and template, Strength, the target, mode and range)."""
    w = volley.weapon
    key = (w.type.signature, w.ap, w.range.template, strength, target, volley.mode, volley.half_range, wounds)
    groups, p_wound, unsaved_each = _GROUPS.get(key, lambda: _wound_groups(volley, target, strength, wounds))
    return list(groups), p_wound, unsaved_each.copy()


def _wound_groups(
    volley: Volley, target: Unit, strength: int, wounds: int
) -> tuple[list[WoundGroup], float, np.ndarray]:
    kinds = wound_table_for(volley, target, strength)
    ctx = save_context(volley, target)
    brutal_rule = volley.weapon.get("Brutal")
    brutal = (brutal_rule.value or 1) if brutal_rule else 1
    destroyer = volley.weapon.has("Destroyer")
    by_priority: dict[int, list[tuple[float, Packet]]] = {}
    unsaved_pmf = np.zeros(brutal + 1)
    p_wound = 0.0
    for kind, p in kinds.items():
        u = ctx.p_unsaved(kind)
        packet = damage_packet(kind, u, wounds=wounds, brutal=brutal, destroyer=destroyer)
        by_priority.setdefault(kind.priority, []).append((p, packet))
        unsaved_pmf += p * packet.probs.sum(axis=1)
        p_wound += p
    unsaved_pmf[0] += 1.0 - p_wound
    groups = []
    for prio in sorted(by_priority):
        items = by_priority[prio]
        total = sum(p for p, _ in items)
        groups.append(WoundGroup(total, mix_packets([p / total for p, _ in items], [pk for _, pk in items])))
    return groups, p_wound, unsaved_pmf


def gets_hot_unsaved(volley: Volley) -> float:
    """P(one Gets Hot wound on the firer is not saved): armour, invulnerable and Feel No Pain only."""
    a = volley.attacker
    fnp = a.get("Feel No Pain")
    ctx = SaveContext(armour=a.save, invulnerable=a.invulnerable, feel_no_pain=(fnp.value or 6) if fnp else None)
    return ctx.p_unsaved(WoundKind(volley.weapon.ap))
