"""Shots or blows, the Psychic check and the To Hit roll of a volley."""

from __future__ import annotations

from typing import TypeVar

import numpy as np

from praetor_analysis.engine.two_weapons import denial_note, pair_attacks, pair_denial, pair_note
from praetor_analysis.engine.volley import Volley
from praetor_analysis.errors import ProfileError, counted_noun
from praetor_analysis.prob import BoundedMemo, DiceExpr, Dist, binomial_pmf, compound, leadership_pass, thin
from praetor_analysis.profiles import Rule, Unit, Weapon
from praetor_analysis.rules import (
    BLOWS,
    HIT,
    HIT_AGAIN,
    SNAPS,
    WIELDER_WS,
    HitRoll,
    HitSituation,
    Role,
    Slot,
    SnapsHook,
    gets_hot_given_hits,
    hits_again,
    lookup,
    master_crafted_hits,
    roll_to_hit,
    share_at_least,
    stage_hooks,
    tables,
    to_hit_melee,
)

H = TypeVar("H")


# --- attack counts ------------------------------------------------------------------------------
def _as_dist(x: DiceExpr | Dist) -> Dist:
    return x if isinstance(x, Dist) else x.dist


def attacks_per_model(volley: Volley, notes: list[str]) -> Dist:
    """Shots (or blows) of one model by default (docs/scenario.md `attacks`)."""
    w, a = volley.weapon, volley.attacker
    if volley.mode == "melee":
        if a.A is None:
            raise ProfileError(f"attacker.A: melee needs the attacker's Attacks, got {a.A!r}")
        charging = a.charging and not a.disordered
        charge = other = 0
        if charging:
            charge = 1
            notes.append("charging (+1 A)")
        if a.two_weapons:  # a pair of the weapon used (docs/rules.md#two-melee-weapons)
            denial = pair_denial(w, w)
            if denial is not None:
                notes.append(denial_note(denial))
            else:
                other = pair_attacks(w, w)
                notes.append(pair_note(other))
        return Dist.point(set_blows(volley, charge, other, notes))
    shots = w.type.shots
    if w.type.kind == "Rapid Fire":
        return Dist.point(2 if volley.half_range else 1)
    if shots is None:
        if w.type.kind == "Melee":
            raise ProfileError(f'weapon.Type: {w.type.text!r} is a melee weapon; use "mode": "melee"')
        return Dist.point(1)
    return shots.dist


def set_blows(volley: Volley, charge: int, other: int, notes: list[str]) -> int:
    """A model's melee attacks: its A, ``charge`` (+1 on the charge) and ``other`` (+1 for a second weapon),
    then the rules of the weapon and the wielder that set them (Detonation, Measured Strike, Rage...)."""
    a = volley.attacker
    base = int(a.A or 0)
    blows = base + charge + other
    charging = a.charging and not a.disordered
    for token, hook in wielder_hooks(volley, BLOWS):
        was, blows = blows, hook(base, charge, other, charging, token.value)
        if blows != was:
            notes.append(f"{token.text}: {counted_noun(blows, 'attack')}")
    return blows


def wielder_hooks(volley: Volley, slot: Slot[H]) -> list[tuple[Rule, H]]:
    """The weapon's rules, then the attacker's unit rules acting from its side, with a hook for ``slot``
    (a name given by both counts once: the weapon's)."""
    out: list[tuple[Rule, H]] = []
    seen: set[str] = set()
    tokens = (
        *((t, h) for t, _, h in stage_hooks(slot, volley.weapon.rules)),
        *((t, h) for t, _, h in stage_hooks(slot, volley.attacker.rules, side="attacker")),
    )
    for token, hook in tokens:
        if token.name not in seen:
            seen.add(token.name)
            out.append((token, hook))
    return out


def _default_shots(volley: Volley) -> Dist:
    """The unit's shots by default (the weapon's shots per model, every model firing)."""
    return attacks_per_model(volley, []).power(volley.attacker.models)


def _psychic(counts_per_model: Dist, models: int, ld: int | None) -> tuple[Dist, float]:
    """Shots when each psyker takes a Psychic check first: (shots, P(one model's check passes))."""
    if ld is None:
        raise ProfileError("attacker.Ld: Psychic Focus needs the psyker's Leadership, got None")
    p = leadership_pass(ld)
    passing = Dist.from_trusted(thin(Dist.point(models).probabilities, p))
    return Dist.from_trusted(compound(passing.probabilities, counts_per_model.probabilities)), p


def hits_automatically(weapon: Weapon) -> bool:
    """True when a rule of the weapon makes every shot or blow hit (``RuleDecl.auto_hit``: Retaliation)."""
    return any((d := lookup(t.name)) is not None and d.auto_hit for t in weapon.rules)


def has_focus(weapon: Weapon) -> bool:
    """True when the wielder must pass a check before To Hit or not attack (Psychic or Cybertheurgic Focus)."""
    return weapon.plays(Role.FOCUS_CHECK)


MAX_SHOTS = 1000


"""The most shots, blows or marker hits one volley may have."""


def shots_distribution(volley: Volley) -> tuple[Dist, float | None]:
    """The shots or blows of a volley (or its marker hits), and P(the Psychic check passes) if any.

    Raises:
        ProfileError: when the volley could have more than ``MAX_SHOTS`` shots.
    """
    shots, p_pass = _shots_distribution(volley)
    if shots.max > MAX_SHOTS:
        field_name = "hits" if volley.hits is not None else "attacks"
        raise ProfileError(
            f"{field_name}: at most {MAX_SHOTS} shots or blows in one volley, got up to {shots.max} "
            f"({counted_noun(volley.attacker.models, 'model')})"
        )
    return shots, p_pass


def _shots_distribution(volley: Volley) -> tuple[Dist, float | None]:
    w, a = volley.weapon, volley.attacker
    if volley.hits is not None:
        hits = _as_dist(volley.hits)
        if volley.check_pass is not None or not has_focus(w):  # checked already (marker geometry), or no check
            return hits, volley.check_pass
        return checked_hits(hits, a.models, leadership_pass(a.Ld if a.Ld is not None else -1))
    if volley.attacks is not None:
        shots = _as_dist(volley.attacks)
        if not has_focus(w):
            return shots, None
        p_pass = leadership_pass(a.Ld if a.Ld is not None else -1)
        return Dist.mixture([1 - p_pass, p_pass], [Dist.point(0), shots]), p_pass
    per_model = attacks_per_model(volley, [])
    if has_focus(w):
        shots, p_pass = _psychic(per_model, a.models, a.Ld)
        return shots, p_pass**a.models
    if per_model.max * a.models > MAX_SHOTS:
        return Dist.point(per_model.max * a.models), None  # refused by the caller, without the convolution
    return per_model.power(a.models), None


def checked_hits(hits: Dist, models: int, p: float) -> tuple[Dist, float]:
    """Given hits of psykers who each take a Psychic check first (pass ``p``): the hits are dealt round-robin
    among the ``models``, each model with a hit takes its check, and a failed check loses that model's hits.
    Returns (the hits that stand, P(every check taken passes))."""
    probs = hits.probabilities
    out = np.zeros(probs.size)
    all_pass = 0.0
    for h, ph in enumerate(probs):
        if ph == 0.0:
            continue
        q, r = divmod(h, models)  # r models hold q + 1 hits, the others q
        more = binomial_pmf(r, p)
        fewer = binomial_pmf(models - r, p) if q > 0 else np.ones(1)
        for k1, p1 in enumerate(more):
            for k2, p2 in enumerate(fewer):
                out[(q + 1) * k1 + q * k2] += ph * p1 * p2
        all_pass += ph * p ** min(h, models)
    return Dist.from_trusted(out), all_pass


def hit_roll_of(volley: Volley, target: Unit) -> HitRoll:
    """The To Hit roll of a volley that rolls To Hit (shooting BS table or melee WS chart), then the ``hit``
    hook of each of the attacker's unit rules (re-rolls of 1, modifiers: rules/modifier_rules.py)."""
    return with_attacker_hit_rules(_table_roll(volley, target), volley, target)


def with_attacker_hit_rules(roll: HitRoll, volley: Volley, target: Unit) -> HitRoll:
    """``roll`` after the ``hit`` hook of each of the attacker's unit rules."""
    situation = HitSituation(melee=volley.mode == "melee", target_name=target.name, unit_type=target.unit_type)
    for token, _, hook in stage_hooks(HIT, volley.attacker.rules, side="attacker"):
        roll = hook(roll, token.value, token.variant, situation)
    return roll


def attacker_rules_with(attacker: Unit, slot: Slot) -> tuple[Rule, ...]:
    """The attacker's unit rules that act from the attacker's side and give the stage of ``slot`` a hook."""
    return tuple(token for token, _, _ in stage_hooks(slot, attacker.rules, side="attacker"))


def reads_target_name(attacker: Unit) -> bool:
    """True when a rule of the attacker reads the target's name (Preferred Enemy (X))."""
    return any(t.variant and "name" in d.reads.fields for t, d, _ in stage_hooks(HIT, attacker.rules, side="attacker"))


def _table_roll(volley: Volley, target: Unit) -> HitRoll:
    w, a = volley.weapon, volley.attacker
    twin = w.plays(Role.REROLL_FAILED_HITS)
    mc = 1 if w.plays(Role.ONE_REROLL_PER_MODEL) else 0  # one re-roll per model (see master_crafted_hits)
    if volley.mode == "melee":
        if a.WS is None or target.WS is None:
            raise ProfileError("attacker.WS/target.WS: melee To Hit needs both Weapon Skills")
        if a.WS < 1:
            raise ProfileError(f"attacker.WS: must be 1..10, got {a.WS}")
        ws = a.WS
        for _, hook in wielder_hooks(volley, WIELDER_WS):  # the WS it strikes with (Cumbersome)
            ws = hook(ws)
        return HitRoll(to_hit_melee(ws, target.WS), None, twin, mc)
    if a.BS is None or not 1 <= a.BS <= 10:
        raise ProfileError(f"attacker.BS: must be 1..10 to shoot, got {a.BS!r}")
    if volley.snap_shots and w.plays(Role.MARKER):
        raise ProfileError(
            f'snap_shots: {w.name!r} uses a marker or template and cannot fire Snap Shots; give "hits" instead'
        )
    return HitRoll.shooting(a.BS, snap=volley.snap_shots or forced_snap(volley, target), twin=twin, mc=mc)


def _snap_rules(volley: Volley) -> list[tuple[Rule, SnapsHook]]:
    """The rules of the weapon and the attacker with a ``snaps`` hook (Skyfire), with it."""
    return wielder_hooks(volley, SNAPS)


def forced_snap(volley: Volley, target: Unit) -> bool:
    """True when a rule of the weapon or the firer allows only Snap Shots at this target (Skyfire)."""
    return volley.mode != "melee" and any(hook(target.unit_type) for _, hook in _snap_rules(volley))


_HITS: BoundedMemo[tuple[Dist, Dist, float | None, list[str]]] = BoundedMemo(8192)


def hit_stage_reads_target(volley: Volley) -> bool:
    """False when ``hit_stage_target_part`` is None whatever the target: a shooting volley whose weapon may
    attack any target, with no rule reading the target's name or making Snap Shots (Skyfire)."""
    return (
        volley.mode == "melee"
        or attack_limit(volley.weapon) is not None
        or _hit_rules_read_name(volley)
        or bool(_snap_rules(volley))
    )


def _hit_rules_read_name(volley: Volley) -> bool:
    """True when a ``hit`` hook of the attacker's rules reads the target's name (Preferred Enemy (X))."""
    return any("name" in d.reads.fields for _, d, _ in stage_hooks(HIT, volley.attacker.rules, side="attacker"))


def hit_stage_target_part(volley: Volley, target: Unit) -> tuple | None:
    """What the hit stage reads of the target: nothing when shooting; in melee its WS, and the chart; its
    name and Unit Type when the attacker has Preferred Enemy (X)."""
    part: tuple | None = (target.WS, tables.MELEE_CHART) if volley.mode == "melee" else None
    if attack_limit(volley.weapon) is not None:
        part = (part, may_attack(volley.weapon, target))
    if _hit_rules_read_name(volley):
        return (part, target.name, target.unit_type)
    if _snap_rules(volley):
        return (part, forced_snap(volley, target))
    return part


def hit_stage(volley: Volley, target: Unit) -> tuple[Dist, Dist, float | None, list[str]]:
    """Shots or blows and To Hit: (hits, natural 1s that stand for Gets Hot, P(the Psychic check passes)
    or None, notes on what was applied). Memoised on the volley and ``hit_stage_target_part``."""
    key = (
        volley.weapon,
        volley.attacker,
        volley.mode,
        volley.attacks,
        volley.hits,
        volley.snap_shots,
        volley.half_range,
        volley.ones,
        volley.check_pass,
        hit_stage_target_part(volley, target),
    )
    hits, ones, p_pass, notes = _HITS.get(key, lambda: _hit_stage(volley, target))
    return hits, ones, p_pass, list(notes)


def attack_limit(weapon: Weapon) -> tuple[Rule, tuple[str, ...]] | None:
    """The weapon's rule that lets it attack only some targets, and their Unit Type words (Detonation)."""
    for token in weapon.rules:
        decl = lookup(token.name)
        if decl is not None and decl.only_targets is not None:
            return token, decl.only_targets
    return None


def may_attack(weapon: Weapon, target: Unit) -> bool:
    """False when a rule of the weapon forbids attacking ``target`` (Detonation: docs/rules.md#detonation)."""
    limit = attack_limit(weapon)
    return limit is None or any(target.has_type(word) for word in limit[1])


def _hit_stage(volley: Volley, target: Unit) -> tuple[Dist, Dist, float | None, list[str]]:
    w = volley.weapon
    notes: list[str] = []
    limit = attack_limit(w)
    if limit is not None and not may_attack(w, target):
        notes.append(f"{limit[0].name}: no attack on this target (Unit Type {target.unit_type})")
        return Dist.point(0), Dist.point(0), None, notes
    marker = volley.hits is not None or hits_automatically(w)
    shots, p_pass = shots_distribution(volley)
    if not marker and volley.attacks is None:
        attacks_per_model(volley, notes)  # records charging / two weapons in the notes
    if marker:
        if volley.ones is not None:
            return shots, volley.ones, p_pass, notes
        if w.plays(Role.GETS_HOT):  # one die per shot, the given hits dealt among the shots
            fired = _as_dist(volley.attacks) if volley.attacks is not None else _default_shots(volley)
            hits, ones = gets_hot_given_hits(shots, fired)
            return hits, ones, p_pass, notes
        return shots, Dist.point(0), p_pass, notes
    roll = _roll_with_notes(volley, target, notes)
    hits, ones = hits_from_shots(volley, shots, roll)
    return hits, ones, p_pass, notes


def _roll_with_notes(volley: Volley, target: Unit, notes: list[str]) -> HitRoll:
    """The To Hit roll of a volley that rolls To Hit, its Snap Shots noted in ``notes``."""
    if volley.snap_shots:
        notes.append("Snap Shots (BS 1)")
    elif forced_snap(volley, target):
        names = ", ".join(t.text for t, _ in _snap_rules(volley))
        notes.append(f"Snap Shots (BS 1): {names} against a target that is not a Flyer or Skimmer")
    return hit_roll_of(volley, target)


_HIT_ROLES = frozenset({Role.REROLL_FAILED_HITS, Role.ONE_REROLL_PER_MODEL, Role.FOCUS_CHECK, Role.MARKER})
"""The roles of a weapon's rules that ``shared_roll`` and ``hits_from_shots`` read."""

_HIT_SLOTS = (SNAPS, WIELDER_WS, HIT_AGAIN, BLOWS)
"""The hooks of a weapon's rules that they read (and the attacks per model, for each model's own re-roll)."""


def hit_roll_rules(weapon: Weapon) -> tuple[tuple[str, int | None, str | None, str], ...]:
    """What ``shared_roll``, ``hit_stage_target_part`` and ``hits_from_shots`` read of the weapon's rules (those
    its profile implies included): (name, value, variant, text) of each rule, in order, that plays a role they
    read (re-rolls, a check, a marker), makes every shot hit, limits the targets, or gives them a hook (Snap
    Shots, the wielder's WS, hits rolled again, attacks). Weapons of one such tuple, attacker and volley fields
    roll alike (``engine/batch_shared.BatchShared.hit``); the weapon's name is read only by the errors, which
    the shared roll does not keep."""
    out = []
    for token in weapon.stage_rules:
        decl = lookup(token.name)
        if decl is not None and (
            decl.auto_hit
            or decl.only_targets is not None
            or not _HIT_ROLES.isdisjoint(decl.roles)
            or any(s.of(decl.hooks) is not None for s in _HIT_SLOTS)
        ):
            out.append((token.name, token.value, token.variant, token.text))
    return tuple(out)


def shared_roll(volley: Volley, target: Unit) -> tuple[HitRoll, tuple[str, ...]] | None:
    """The To Hit roll and notes of a volley whose hit stage is ``hits_from_shots`` of its given attack count
    and them (attacks given, no hits, no check, no automatic hits, a target it may attack), else None: volleys
    that differ only in their attack count share them (``engine/batch_shared.BatchShared.hit``)."""
    w = volley.weapon
    if volley.hits is not None or volley.attacks is None or has_focus(w) or hits_automatically(w):
        return None
    if attack_limit(w) is not None and not may_attack(w, target):
        return None
    notes: list[str] = []
    return _roll_with_notes(volley, target, notes), tuple(notes)


def hits_from_shots_key(volley: Volley, roll: HitRoll) -> tuple | None:
    """What ``hits_from_shots`` reads beyond the shots: the roll, and the value and hook of each of the weapon's
    rules that rolls hits again; None when each model's own Master-crafted re-roll reads more of the volley.
    Volleys of one key and one distribution of shots (other weapons, attackers or targets) have the same hits
    and 1s."""
    if _per_model_mc(volley, roll):
        return None
    return (roll, tuple((token.value, hook) for token, _, hook in stage_hooks(HIT_AGAIN, volley.weapon.rules)))


def _per_model_mc(volley: Volley, roll: HitRoll) -> bool:
    """True when each model of the volley re-rolls its own shots (Master-crafted, not Twin-linked)."""
    return bool(roll.master_crafted) and not roll.reroll_failed and volley.attacker.models > 1


def hits_from_shots(volley: Volley, shots: Dist, roll: HitRoll) -> tuple[Dist, Dist]:
    """(hits, natural 1s that stand) of ``shots`` rolled To Hit with ``roll`` (Master-crafted per model, then
    the hits that roll again: Lightning Blows)."""
    if _per_model_mc(volley, roll):
        hits, ones = _master_crafted(volley, shots, roll)
    else:
        hits, ones = roll_to_hit(shots, roll)
    for token, _, hook in stage_hooks(HIT_AGAIN, volley.weapon.rules):  # hits on a high die that roll again
        hits = hits_again(hits, share_at_least(roll, hook(token.value)), roll.per_shot()[0])
    return hits, ones


def _master_crafted(volley: Volley, shots: Dist, roll: HitRoll) -> tuple[Dist, Dist]:
    """Each model's own Master-crafted re-roll for its own shots (docs/rules.md#master-crafted)."""
    a = volley.attacker
    if volley.attacks is not None:  # a total for the unit: dealt round-robin among the models
        return master_crafted_hits(shots, roll, a.models, per_model=False)
    per_model = attacks_per_model(volley, [])
    if not has_focus(volley.weapon):
        return master_crafted_hits(per_model, roll, a.models, per_model=True)
    hits_one, ones_one = master_crafted_hits(per_model, roll, 1, per_model=True)
    passing = thin(Dist.point(a.models).probabilities, leadership_pass(a.Ld if a.Ld is not None else -1))
    return (
        Dist.from_trusted(compound(passing, hits_one.probabilities)),
        Dist.from_trusted(compound(passing, ones_one.probabilities)),
    )
