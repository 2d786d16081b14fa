"""Per-hit wound, save and damage tables of a volley against a unit with Toughness and Wounds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from praetor_analysis.engine.allocation import (
    Packet,
    WoundGroup,
    count_damage,
    mix_packets,
)
from praetor_analysis.engine.damage import damage_packet
from praetor_analysis.engine.hit_stage import attacker_rules_with, hit_roll_of, hits_automatically
from praetor_analysis.engine.volley import Volley
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import BoundedMemo, Dist, binomial_pmf
from praetor_analysis.profiles import Rule, Unit, Weapon
from praetor_analysis.rules import (
    DAMAGE,
    MULTIPLIED,
    PSYCHIC_WEAPONS,
    SAVE,
    WOUND,
    WOUND_STAGE_SLOTS,
    Role,
    RuleDecl,
    SaveContext,
    SaveSituation,
    TargetReads,
    WoundKind,
    WoundRoll,
    WoundSituation,
    lookup,
    ranked_hooks,
    reads_of,
    share_at_least,
    stage_hooks,
    to_wound,
)


def wound_table_for(volley: Volley, target: Unit, strength: int) -> dict[WoundKind, float]:
    """P(each wound kind) for one hit of ``volley`` on ``target``: the wound table, then the ``wound`` hook of
    each of the weapon's rules (by ``RuleDecl.precedence``, the highest last), then the attacker's (re-rolls
    of 1, modifiers), then the target's."""
    w = volley.weapon
    if target.T is None:
        raise ProfileError(f"target.T: a unit without Toughness needs the vehicle rules, got {target.T!r}")
    situation = WoundSituation(
        strength=strength,
        toughness=target.T,
        melee=volley.mode == "melee",
        half_range=volley.half_range,
        template=w.plays(Role.TEMPLATE),  # a Template or Hellstorm rule, or such a Range
        unit_type=target.unit_type,
        target_strength=target.S,
        hit_six=hit_six_share(volley, target) if reads_hit_sixes(w) else 0.0,
        target_name=target.name,
        target_wounds=target.W,
    )
    roll = WoundRoll(
        target=to_wound(strength, target.T),
        strength_death=strength >= 2 * target.T,
        ap=w.ap,
        melee=situation.melee,
    )
    # the weapon's own rules by precedence (one that replaces the wound roll after one that changes it: the
    # Type's order changes nothing), then the attacker's, then the target's
    weapon_hooks = ranked_hooks(WOUND, w.stage_rules)
    for token, decl, hook in (
        *weapon_hooks,
        *stage_hooks(WOUND, (*attacker_rules_with(volley.attacker, WOUND), *target.rules)),
    ):
        if decl.wound_targets is None or situation.target_is(*decl.wound_targets):
            roll = hook(roll, token.value, token.variant, situation)
    return roll.outcomes()


def damage_per_wound(volley: Volley, target: Unit) -> tuple[float, ...] | None:
    """The pmf of the damage one unsaved wound does (index = wounds lost), from the weapon's rule of highest
    ``RuleDecl.precedence`` (the first printed among equals) whose ``damage`` hook gives one here (Destroyer
    D3, Destructor D6...), times what the target's rules multiply it by (Swarm: two against Blast and Template
    weapons); None for one wound."""
    w = volley.weapon
    situation = WoundSituation(
        strength=0,
        toughness=target.T or 0,
        melee=volley.mode == "melee",
        unit_type=target.unit_type,
        template=w.plays(Role.TEMPLATE),  # a Template or Hellstorm rule, or such a Range
        blast=w.plays(Role.MARKER),
    )
    base: tuple[float, ...] | None = None
    for token, _, hook in ranked_hooks(DAMAGE, w.stage_rules, winner_first=True):
        pmf = hook(token.value, token.variant, situation)
        if pmf is not None:
            base = tuple(pmf)
            break
    for token, _, multiplier in stage_hooks(MULTIPLIED, target.rules):
        times = multiplier(token.value, token.variant, situation)
        if times is not None:
            base = _multiplied(base or (0.0, 1.0), times)
    return base


def _multiplied(damage: tuple[float, ...], times: tuple[float, ...]) -> tuple[float, ...]:
    """The pmf of ``k x d`` for independent ``d ~ damage`` and ``k ~ times``."""
    out = [0.0] * ((len(damage) - 1) * (len(times) - 1) + 1)
    for d, p in enumerate(damage):
        for k, q in enumerate(times):
            out[d * k] += p * q
    return tuple(out)


def save_context(volley: Volley, target: Unit) -> SaveContext:
    """What the target may roll against this volley's wounds: its statline, then the ``save`` hook of each
    of the weapon's rules (markers and templates included), then the target's."""
    melee = volley.mode == "melee"
    names = frozenset(t.name for t in volley.weapon.stage_rules)
    situation = SaveSituation(melee=melee, unit_type=target.unit_type, weapon_rules=names)
    ctx = SaveContext(
        armour=target.save,
        invulnerable=target.invulnerable,
        cover=target.cover,
        cover_denied=melee,
        shrouded_denied=melee,
    )
    # the attacker's rules acting on the enemy's saves (Night Vision); not those of its own saving throw that it
    # also carries as a target (Feel No Pain: the firer's, against Gets Hot)
    mine = (t for t in attacker_rules_with(volley.attacker, SAVE) if "target" not in _sides(t))
    attacking = (*volley.weapon.stage_rules, *mine)
    return apply_save_hooks(ctx, attacking, target.rules, situation)


def _sides(token: Rule) -> frozenset[str]:
    decl = lookup(token.name)
    return decl.sides if decl is not None else frozenset()


def apply_save_hooks(
    ctx: SaveContext, weapon_rules: Sequence[Rule], unit_rules: Sequence[Rule], situation: SaveSituation
) -> SaveContext:
    """``ctx`` after the ``save`` hooks of the weapon's rules, then of the saving unit's."""
    for token, _, hook in stage_hooks(SAVE, (*weapon_rules, *unit_rules)):
        ctx = hook(ctx, token.value, token.variant, situation)
    return ctx


_GROUPS: BoundedMemo[tuple[list[WoundGroup], float, np.ndarray]] = BoundedMemo(8192)


def wound_groups(
    volley: Volley, target: Unit, strength: int, wounds: int
) -> tuple[list[WoundGroup], float, np.ndarray]:
    """Per-hit allocation groups, P(wound) per hit, and the per-hit pmf of unsaved wounds (memoised on what
    they depend on: the weapon's Type, AP and template, Strength, the target, mode and range)."""
    key = wound_groups_key(volley, target, strength, wounds)
    groups, p_wound, unsaved_each = _GROUPS.get(key, lambda: build_wound_groups(volley, target, strength, wounds))
    return list(groups), p_wound, unsaved_each.copy()


def volley_reads(volley: Volley) -> TargetReads:
    """What the rules of a volley read of the target in the wound, save and damage stages beyond Toughness,
    saves and cover: the weapon's rules (those a Template or Destroyer profile implies included) and the
    attacker's rules with a ``wound`` hook, as each declaration says (``RuleDecl.reads``)."""
    mine = (*attacker_rules_with(volley.attacker, WOUND), *attacker_rules_with(volley.attacker, SAVE))
    return reads_of(t.name for t in (*volley.weapon.stage_rules, *mine))


def wound_stage_target(target: Unit, reads: TargetReads, *, keep_ws: bool = False) -> Unit:
    """The part of a target that the wound, save and damage stages read when the volley's rules read
    ``reads`` (``volley_reads``): its Toughness, saves and cover; its rules with a hook in those stages; and
    only what those rules and the volley's read of the rest (its Strength, name, and the Unit Type words
    tested: ``TargetReads.unit_type``). Keep it in step with ``wound_table_for``, ``save_context`` and
    ``damage_per_wound``: targets these stages cannot tell apart share their per-hit tables in a sweep.
    ``keep_ws``: its Weapon Skill too, for a melee volley whose rules read the To Hit sixes (the melee To Hit
    roll compares the Weapon Skills)."""
    rules = tuple(t for t in target.rules if _has_stage_hook(t))
    reads |= reads_of(t.name for t in rules)
    return Unit(
        name=target.name if "name" in reads.fields else "",
        WS=target.WS if keep_ws else 4,  # the default Weapon Skill of a Unit
        unit_type=reads.unit_type(target.unit_type),
        T=target.T,
        S=target.S if "S" in reads.fields else None,
        W=target.W if "W" in reads.fields else 1,
        save=target.save,
        invulnerable=target.invulnerable,
        cover=target.cover,
        rules=rules,
    )


def _has_stage_hook(token: Rule) -> bool:
    decl = lookup(token.name)
    return decl is not None and (decl.reads_hit_six or any(s.of(decl.hooks) for s in WOUND_STAGE_SLOTS))


def wound_groups_key(volley: Volley, target: Unit, strength: int, wounds: int) -> tuple:
    """What ``wound_groups`` depends on: the volley's part (``volley_wound_key``), the target and the wounds per
    model (and the To Hit roll, for a rule that reads its sixes)."""
    six = hit_six_share(volley, target) if reads_hit_sixes(volley.weapon) else None
    return (*volley_wound_key(volley, strength), target, wounds, six)


def volley_wound_key(volley: Volley, strength: int) -> tuple:
    """What ``wound_groups`` reads of the volley: the weapon's rules, AP and template, Strength, mode, range and
    the attacker's rules with a ``wound`` or ``save`` hook (not the attack count: volleys of one weapon share
    tables)."""
    w = volley.weapon
    mine = (*attacker_rules_with(volley.attacker, WOUND), *attacker_rules_with(volley.attacker, SAVE))
    return (wound_stage_rules(w), w.ap, w.range.template, strength, volley.mode, volley.half_range, mine)


_WOUND_STAGE_ROLES = frozenset({Role.TEMPLATE, Role.MARKER, Role.WOUNDS_EACH})
"""The roles of a weapon's rules that the wound, save and damage stages read (``wound_table_for``,
``damage_per_wound``, ``build_wound_tables``)."""


def wound_stage_rules(weapon: Weapon) -> tuple[tuple[str, int | None, str | None], ...]:
    """What the wound, save and damage stages read of the weapon's rules (those its profile implies included):
    (name, value, variant) of each rule with a hook in those stages (``WOUND_STAGE_SLOTS``), a role they read
    (template, marker, wounds each), that reads the To Hit sixes, or whose name a save hook reads
    (``SaveSituation.weapon_rules``: ``PSYCHIC_WEAPONS``), in the weapon's order (the stages rank the hooks
    by ``RuleDecl.precedence``, so the order no longer changes the tables; kept in the key all the same).
    Weapons that differ only in other rules (Pinning, Gets Hot...) share their per-hit tables."""
    return tuple(
        (token.name, token.value, token.variant)
        for token in weapon.stage_rules
        if token.name in PSYCHIC_WEAPONS or _read_by_wound_stages(lookup(token.name))
    )


def _read_by_wound_stages(decl: RuleDecl | None) -> bool:
    """True when the wound, save or damage stages read a weapon's rule declared ``decl``."""
    return decl is not None and (
        decl.reads_hit_six
        or not _WOUND_STAGE_ROLES.isdisjoint(decl.roles)
        or any(s.of(decl.hooks) is not None for s in WOUND_STAGE_SLOTS)
    )


def reads_hit_sixes(weapon: Weapon) -> bool:
    """True when a rule of the weapon reads the To Hit die of its hits (``RuleDecl.reads_hit_six``)."""
    return any((d := lookup(t.name)) is not None and d.reads_hit_six for t in weapon.rules)


def extra_hits_volley(volley: Volley) -> Volley | None:
    """The volley Deflagrate's extra hits are resolved as, or None when it is the volley itself.

    The extra hits are automatic (no To Hit die for a rule that reads it: Molecular Dissonance wounds none of
    them) and made with the weapon's profile and rules only, none of the attacking model's own (Preferred Enemy,
    re-rolls and modifiers given as its rules, Night Vision); docs/rules.md#deflagrate."""
    sixes = reads_hit_sixes(volley.weapon)
    own = attacker_rules_with(volley.attacker, WOUND) or attacker_rules_with(volley.attacker, SAVE)
    if not sixes and not own:
        return None
    bare = replace(volley, attacker=replace(volley.attacker, rules=())) if own else volley
    return replace(bare, hits=Dist.point(0)) if sixes else bare


def hit_six_share(volley: Volley, target: Unit) -> float:
    """P(a hit's standing To Hit die shows 6): each hitting die is uniform over the faces that hit it
    (Twin-linked and Master-crafted re-roll at the same target); at BS 6+ a natural 1's second roll
    hits on its own target. 0 when the hits are given or automatic (no To Hit roll)."""
    if volley.hits is not None or hits_automatically(volley.weapon):
        return 0.0
    return share_at_least(hit_roll_of(volley, target), 6)


def build_wound_groups(
    volley: Volley, target: Unit, strength: int, wounds: int
) -> tuple[list[WoundGroup], float, np.ndarray]:
    """``wound_groups`` built afresh (not memoised, new arrays)."""
    groups, p_wound, unsaved_pmf, _ = build_wound_tables(volley, target, strength, wounds)
    return groups, p_wound, unsaved_pmf


def build_wound_tables(
    volley: Volley, target: Unit, strength: int, wounds: int
) -> tuple[list[WoundGroup], float, np.ndarray, int | None]:
    """``build_wound_groups``, and ``count_damage`` of its groups: for a caller that memoises them by
    ``wound_groups``' key (``engine/batch_facts.TABLES``); without the general packets when each unsaved wound
    does one damage (``one_damage_tables``)."""
    kinds = wound_table_for(volley, target, strength)
    ctx = save_context(volley, target)
    brutal_rule = volley.weapon.with_role(Role.WOUNDS_EACH)
    brutal = (brutal_rule.value or 1) if brutal_rule else 1
    per_wound = damage_per_wound(volley, target)
    if per_wound is None:
        return one_damage_tables(kinds, ctx, wounds, brutal)
    return packet_tables(kinds, ctx, wounds, brutal, per_wound)


def packet_tables(
    kinds: dict[WoundKind, float], ctx: SaveContext, wounds: int, brutal: int, per_wound: tuple[float, ...] | None
) -> tuple[list[WoundGroup], float, np.ndarray, int | None]:
    """``build_wound_tables`` from the wound kinds and save context by the general packets (``damage_packet``
    of each kind, ``mix_packets`` of each priority group, ``count_damage``)."""
    by_priority: dict[int, list[tuple[float, Packet]]] = {}
    unsaved_pmf = np.zeros(brutal + 1)
    p_wound = 0.0
    for kind, p in kinds.items():
        u = ctx.p_unsaved(kind)
        packet = damage_packet(kind, u, wounds=wounds, brutal=brutal, per_wound=per_wound)
        by_priority.setdefault(kind.priority, []).append((p, packet))
        unsaved_pmf += p * packet.probs.sum(axis=1)
        p_wound += p
    unsaved_pmf[0] += 1.0 - p_wound
    groups = []
    for prio in sorted(by_priority):
        items = by_priority[prio]
        total = sum(p for p, _ in items)
        groups.append(WoundGroup(total, mix_packets([p / total for p, _ in items], [pk for _, pk in items])))
    return groups, p_wound, unsaved_pmf, count_damage(groups, wounds)


def one_damage_tables(
    kinds: dict[WoundKind, float], ctx: SaveContext, wounds: int, brutal: int = 1
) -> tuple[list[WoundGroup], float, np.ndarray, int | None]:
    """``build_wound_tables`` when each unsaved wound does one damage (or, Instant Death, takes the whole
    model): a wound's packet has one entry a row, P(u of its ``brutal`` saves fail) at (u, its damage), so it is
    built without the general packets (``damage_packet``, ``mix_packets``: the same products and sums, in the
    same order; adding a packet's zeros changes none) and its damage read off its kinds (``count_damage``)."""
    by_priority: dict[int, list[tuple[float, tuple[float, ...] | np.ndarray, bool]]] = {}
    unsaved = [0.0] * (brutal + 1)
    p_wound = 0.0
    for kind, p in kinds.items():
        u = ctx.p_unsaved(kind)
        # the saves as damage_packet rolls them
        rows: tuple[float, ...] | np.ndarray = (1.0 - u, u) if brutal == 1 else binomial_pmf(brutal, u)
        by_priority.setdefault(kind.priority, []).append((p, rows, kind.instant_death))
        for n in range(brutal + 1):  # the packet's row sums: one entry each
            unsaved[n] += p * rows[n]
        p_wound += p
    unsaved_pmf = np.array(unsaved)
    unsaved_pmf[0] += 1.0 - p_wound
    groups = []
    damages: set[int] = set()
    for prio in sorted(by_priority):
        items = by_priority[prio]
        total = sum(p for p, _, _ in items)
        probs = np.zeros((brutal + 1, wounds + 1))
        for p, rows, instant in items:
            w = p / total
            probs[0, 0] += w * rows[0]
            for n in range(1, brutal + 1):
                damage = wounds if instant else min(n, wounds)
                probs[n, damage] += w * rows[n]
                if p > 0.0 and w * rows[n] > 0.0:  # count_damage: a wound that changes the unit's state
                    damages.add(damage)
        groups.append(WoundGroup(total, Packet(probs)))
    found = damages.pop() if len(damages) == 1 else (1 if not damages else None)
    return groups, p_wound, unsaved_pmf, found if found in (1, wounds) else None


def gets_hot_unsaved(volley: Volley) -> float:
    """P(one Gets Hot wound on the firer is not saved): armour, invulnerable and Feel No Pain only."""
    a = volley.attacker
    ctx = SaveContext(armour=a.save, invulnerable=a.invulnerable)
    situation = SaveSituation(unit_type=a.unit_type)
    for token, decl, hook in stage_hooks(SAVE, a.rules):  # the firer's own roll (Feel No Pain)
        if Role.SAVES_GETS_HOT in decl.roles:
            ctx = hook(ctx, token.value, token.variant, situation)
    return ctx.p_unsaved(WoundKind(volley.weapon.ap))
