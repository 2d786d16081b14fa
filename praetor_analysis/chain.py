"""Hit -> wound -> save -> damage for attacks on units with Toughness and Wounds.

`resolve_volley` resolves one weapon's attack (shots or blows of identical profile) exactly;
`resolve_sequence` chains several weapons and firing units, carrying the damaged model over and testing
Pinning once per firing unit. Per-hit outcome tables come from ``rules/``; pooling and allocation from
``allocation``; nothing is sampled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .allocation import Allocator, Packet, UnitSpace, WoundGroup, mix_packets, single_damage, state_from_unsaved
from .dice import DiceExpr, compound, leadership_pass, thin
from .dist import Dist
from .profiles import ProfileError, Unit, Weapon
from .tables import to_hit_melee
from .rules.hit import HitRoll, gets_hot_before_firing, roll_to_hit
from .rules.names import (
    MARKER_RULES, MELEE_ROUND_RULES, NO_EFFECT_RULES, UNIT_RULES, VEHICLE_ONLY_RULES, WOUND_CHAIN_RULES,
)
from .rules.saves import SaveContext, damage_packet
from .rules.wound import WoundKind, WoundRoll, haywire_outcomes, wound_target

PINNING_EXEMPT_RULES = ("Fearless", "Pinned", "Locked in Combat", "Embarked")


@dataclass(frozen=True)
class Volley:
    """One weapon's attack: the weapon, its wielders, and how many shots or blows (or marker hits)."""

    weapon: Weapon
    attacker: Unit
    mode: str = "shooting"
    attacks: DiceExpr | Dist | None = None
    hits: DiceExpr | Dist | None = None
    snap_shots: bool = False
    half_range: bool = False
    ones: Dist | None = None  # Gets Hot natural 1s already rolled by the marker geometry, if any
    zone_hits: np.ndarray | None = field(default=None, compare=False)  # Mega-blast joint hits per zone


@dataclass
class TargetState:
    """The running state of a target unit: a tensor over (Pinning flags, unit state).

    With Pinning in play the flag axis has ``2 * len(shell_shocks)`` entries, index ``pinned * T + t``:
    ``t`` = 0 when no Pinning weapon has caused an unsaved wound in the current firing unit, else the index
    in ``shell_shocks`` (ascending, ``shell_shocks[0]`` unused) of the highest Shell Shock among those that did.
    """

    space: UnitSpace
    probs: np.ndarray  # shape (F, S); F = 1 without Pinning
    shell_shocks: tuple[int, ...] = (0,)

    @classmethod
    def fresh(cls, target: Unit, *, shell_shocks: tuple[int, ...] | None = None) -> TargetState:
        """An intact target (its first model may already have lost ``wounds_taken``)."""
        w = target.W or 1
        taken = int(target.extra.get("wounds_taken", 0) or 0)
        if not 0 <= taken < w:
            raise ProfileError(f"target.wounds_taken: must be 0..{w - 1}, got {taken}")
        space = UnitSpace(target.models, w)
        levels = (0,) + tuple(shell_shocks) if shell_shocks is not None else (0,)
        probs = np.zeros((1 if shell_shocks is None else 2 * len(levels), space.size))
        probs[0] = space.start(taken)
        return cls(space, probs, levels)

    def kills(self) -> Dist:
        """Distribution of models removed so far."""
        per_state = self.probs.sum(axis=0)
        return Dist._trusted(np.bincount(self.space.kills_of(), weights=per_state, minlength=self.space.models + 1))

    def p_pinned(self) -> float:
        """P(the unit is Pinned)."""
        flags = self.probs.shape[0]
        return float(self.probs[flags // 2 :].sum()) if flags > 1 else 0.0


@dataclass(frozen=True)
class VolleyResult:
    """Exact distributions of one volley (or a sequence), with the rules applied and not modelled."""

    hits: Dist
    wounds: Dist
    unsaved: Dist
    casualties: Dist
    pinned: float | None
    applied: tuple[str, ...]
    not_modelled: tuple[str, ...]
    no_effect: tuple[str, ...] = ()
    gets_hot: Dist | None = None
    attack_happens: float | None = None
    perils: float | None = None
    state: TargetState | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, object]:
        """The SCENARIO.md result form."""
        out: dict[str, object] = {
            "hits": self.hits.to_dict(),
            "wounds": self.wounds.to_dict(),
            "unsaved": self.unsaved.to_dict(),
            "casualties": self.casualties.to_dict(),
            "pinned": self.pinned,
            "applied": list(self.applied),
            "not_modelled": list(self.not_modelled),
            "no_effect": list(self.no_effect),
        }
        if self.gets_hot is not None:
            out["gets_hot"] = self.gets_hot.to_dict()
        if self.attack_happens is not None:
            out["attack_happens"] = self.attack_happens
            out["perils"] = self.perils
        return out


# --- attack counts ------------------------------------------------------------------------------
def _as_dist(x: DiceExpr | Dist) -> Dist:
    return x if isinstance(x, Dist) else x.dist


def attacks_per_model(volley: Volley, notes: list[str]) -> Dist:
    """Shots (or blows) of one model by default (SCENARIO.md `attacks`)."""
    w, a = volley.weapon, volley.attacker
    if volley.mode == "melee":
        if a.A is None:
            raise ProfileError(f"attacker.A: melee needs the attacker's Attacks, got {a.A!r}")
        blows = a.A
        if a.extra.get("charging") and not a.extra.get("disordered"):
            blows += 1
            notes.append("charging (+1 A)")
        if a.extra.get("two_weapons"):
            if w.has("Two-handed"):
                notes.append("Two-handed (no extra attack for two weapons)")
            else:
                blows += 1
                notes.append("two melee weapons (+1 A)")
        return Dist.point(blows)
    shots = w.type.shots
    if w.type.kind == "Rapid Fire":
        return Dist.point(2 if volley.half_range else 1)
    if shots is None:
        if w.type.kind == "Melee":
            raise ProfileError(f"weapon.Type: {w.type.text!r} is a melee weapon; use \"mode\": \"melee\"")
        return Dist.point(1)
    return shots.dist


def _psychic(counts_per_model: Dist, models: int, ld: int | None) -> tuple[Dist, float]:
    """Shots when each psyker takes a Psychic check first: (shots, P(one model's check passes))."""
    if ld is None:
        raise ProfileError("attacker.Ld: Psychic Focus needs the psyker's Leadership, got None")
    p = leadership_pass(ld)
    passing = Dist._trusted(thin(Dist.point(models).probabilities, p))
    return Dist._trusted(compound(passing.probabilities, counts_per_model.probabilities)), p


# --- the per-hit outcome table ------------------------------------------------------------------
def _strength(volley: Volley) -> int | None:
    return volley.weapon.strength.resolve(volley.attacker.S)


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
        or (w.has("Armourbane") and _armourbane_active(w, volley) and (target.has_type("Dreadnought") or target.has_type("Automata")))
        or (melee and poisoned is not None and strength > target.T)
        or (w.has("Twin-linked") and w.range.template is not None)
    )
    rending, breaching, murderous = w.get("Rending"), w.get("Breaching"), w.get("Murderous Strike")
    instant = w.has("Instant Death") or strength >= 2 * target.T
    if target.has("Eternal Warrior"):
        instant = False
    roll = WoundRoll(
        target=target_roll,
        reroll_failed=reroll,
        rending=rending.value if rending else None,
        breaching=breaching.value if breaching else None,
        murderous=None if (murderous is None or target.has("Eternal Warrior")) else murderous.value,
        instant_death=instant,
        ap=w.ap,
        melee=melee,
    )
    return roll.outcomes()


def _armourbane_active(w: Weapon, volley: Volley) -> bool:
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
    is_blast = any(w.has(n) for n in ("Blast", "Large Blast", "Massive Blast", "Apocalyptic Blast", "Apocalyptic Mega-blast", "Barrage"))
    fnp, shr = target.get("Feel No Pain"), target.get("Shrouded")
    return SaveContext(
        armour=target.save,
        invulnerable=target.invulnerable,
        cover=target.cover,
        feel_no_pain=(fnp.value or 6) if fnp else None,
        shrouded=(shr.value or 6) if shr else None,
        heavy_reroll=target.has_type("Heavy") and (is_template or is_blast),
        cover_denied=melee or w.has("Ignores Cover") or is_template,
        shrouded_denied=melee or w.has("Ignores Cover") or target.has("Fearless"),
    )


_GROUPS: dict[tuple, tuple[list[WoundGroup], float, np.ndarray]] = {}


def wound_groups(volley: Volley, target: Unit, strength: int, wounds: int) -> tuple[list[WoundGroup], float, np.ndarray]:
    """Per-hit allocation groups, P(wound) per hit, and the per-hit pmf of unsaved wounds (memoised on what
    they depend on: the weapon's Type, AP and template, Strength, the target, mode and range)."""
    w = volley.weapon
    try:
        key = (w.type.signature, w.ap, w.range.template, strength, target, volley.mode, volley.half_range, wounds)
        hit = _GROUPS.get(key)
    except TypeError:
        return _wound_groups(volley, target, strength, wounds)
    if hit is None:
        if len(_GROUPS) > 8192:
            _GROUPS.clear()
        hit = _GROUPS[key] = _wound_groups(volley, target, strength, wounds)
    groups, p_wound, unsaved_each = hit
    return list(groups), p_wound, unsaved_each.copy()


def _wound_groups(volley: Volley, target: Unit, strength: int, wounds: int) -> tuple[list[WoundGroup], float, np.ndarray]:
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


def _gets_hot_unsaved(volley: Volley) -> float:
    """P(one Gets Hot wound on the firer is not saved): armour, invulnerable and Feel No Pain only."""
    a = volley.attacker
    fnp = a.get("Feel No Pain")
    ctx = SaveContext(armour=a.save, invulnerable=a.invulnerable, feel_no_pain=(fnp.value or 6) if fnp else None)
    return ctx.p_unsaved(WoundKind(volley.weapon.ap))


# --- rule bookkeeping ---------------------------------------------------------------------------
def classify_rules(volley: Volley, target: Unit, notes: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(applied, no_effect, not_modelled) for every rule in the weapon, attacker and target."""
    applied: list[str] = []
    no_effect: list[str] = []
    missing: list[str] = []
    w = volley.weapon
    if w.type.kind and w.type.kind != "Melee":
        applied.append(f"{w.type.kind} {w.type.shots}" if w.type.shots and w.type.kind != "Rapid Fire" else w.type.kind)
    if w.strength.kind == "unknown":
        missing.append(f"Strength {w.strength.text}")
    haywire_target = target.has_type("Dreadnought") or target.has_type("Automata")
    for r in w.rules:
        name = r.name
        if not r.known:
            missing.append(r.text)
        elif name == "Haywire":
            (applied if haywire_target else no_effect).append(r.text)
        elif name == "Armourbane":
            (applied if haywire_target and _armourbane_active(w, volley) else no_effect).append(r.text)
        elif name in {"Sniper", "Precision Shots", "Precision Strikes"}:
            no_effect.append(r.text)  # only who is allocated the wound: nothing on a uniform unit
        elif name in WOUND_CHAIN_RULES:
            applied.append(r.text)
        elif name in MARKER_RULES:
            (applied if volley.hits is not None else missing).append(r.text)
        elif name in VEHICLE_ONLY_RULES or name in NO_EFFECT_RULES:
            no_effect.append(r.text)
        elif name in {"Two-handed", "Specialist Weapon"} and volley.mode == "melee":
            applied.append(r.text)
        elif name in MELEE_ROUND_RULES:
            no_effect.append(r.text) if name in {"Unwieldy", "Reach"} else missing.append(r.text)
        else:
            missing.append(r.text)
    for who, unit in (("target", target), ("attacker", volley.attacker)):
        for r in unit.rules:
            if not r.known or r.name not in UNIT_RULES:
                missing.append(f"{who}: {r.text}")
            elif who == "target" or r.name == "Feel No Pain":
                applied.append(f"{who}: {r.text}")
            else:
                no_effect.append(f"{who}: {r.text}")
    applied.extend(notes)
    return applied, no_effect, missing


# --- resolution ---------------------------------------------------------------------------------
def sum_of_iid(counts: np.ndarray, each: np.ndarray) -> np.ndarray:
    """pmf of the sum of N iid copies of ``each``, N having pmf ``counts`` (direct convolution; repeated
    squaring when N is fixed)."""
    if each.size == 2:  # one success or none: a binomial thinning
        return thin(counts, float(each[1]))
    nz = np.flatnonzero(counts)
    if nz.size == 1:
        return Dist._trusted(each).power(int(nz[0])).probabilities
    return compound(counts, each)


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
        raise ProfileError(f"{field_name}: at most {MAX_SHOTS} shots or blows in one volley, got up to {shots.max} "
                           f"({volley.attacker.models} models)")
    return shots, p_pass


def _shots_distribution(volley: Volley) -> tuple[Dist, float | None]:
    w, a = volley.weapon, volley.attacker
    if volley.hits is not None:
        return _as_dist(volley.hits), None
    if volley.attacks is not None:
        shots = _as_dist(volley.attacks)
        if not w.has("Psychic Focus"):
            return shots, None
        p_pass = leadership_pass(a.Ld if a.Ld is not None else -1)
        return Dist.mixture([1 - p_pass, p_pass], [Dist.point(0), shots]), p_pass
    per_model = attacks_per_model(volley, [])
    if w.has("Psychic Focus"):
        shots, p_pass = _psychic(per_model, a.models, a.Ld)
        return shots, p_pass ** a.models
    if per_model.max * a.models > MAX_SHOTS:
        return Dist.point(per_model.max * a.models), None  # refused by the caller, without the convolution
    return per_model.power(a.models), None


def unsaved_distribution(volley: Volley, target: Unit) -> Dist:
    """Only the unsaved wounds of a volley (no allocation): the quick path for sweeps and benchmarks.

    Equal to ``resolve_volley(...).unsaved`` for weapons without Master-crafted, Gets Hot or Deflagrate
    (those fall back to the full resolution).
    """
    w = volley.weapon
    if w.has("Master-crafted") or w.has("Gets Hot") or w.has("Deflagrate") or volley.hits is not None:
        return resolve_volley(volley, target).unsaved
    shots, _ = shots_distribution(volley)
    strength = _strength(volley)
    if strength is None:
        return Dist.point(0)
    roll = _hit_roll(volley, target)
    p_hit, _ = roll.per_shot()
    _, _, unsaved_each = wound_groups(volley, target, strength, target.W or 1)
    per_shot = p_hit * unsaved_each
    per_shot[0] += 1.0 - p_hit
    return Dist._trusted(sum_of_iid(shots.probabilities, per_shot))


def _hit_roll(volley: Volley, target: Unit) -> HitRoll:
    """The To Hit roll of a volley that rolls To Hit (shooting BS table or melee WS chart)."""
    w, a = volley.weapon, volley.attacker
    twin = w.has("Twin-linked")
    mc = a.models if w.has("Master-crafted") else 0
    if volley.mode == "melee":
        if a.WS is None or target.WS is None:
            raise ProfileError("attacker.WS/target.WS: melee To Hit needs both Weapon Skills")
        if a.WS < 1:
            raise ProfileError(f"attacker.WS: must be 1..10, got {a.WS}")
        return HitRoll(to_hit_melee(a.WS, target.WS), None, twin, mc)
    if a.BS is None or not 1 <= a.BS <= 10:
        raise ProfileError(f"attacker.BS: must be 1..10 to shoot, got {a.BS!r}")
    if volley.snap_shots and (w.range.template or any(w.has(n) for n in MARKER_RULES)):
        raise ProfileError(f"snap_shots: {w.name!r} uses a marker or template and cannot fire Snap Shots; give \"hits\" instead")
    return HitRoll.shooting(a.BS, snap=volley.snap_shots, twin=twin, mc=mc)


_HITS: dict[tuple, tuple[Dist, Dist, float | None, list[str]]] = {}


def hit_stage(volley: Volley, target: Unit) -> tuple[Dist, Dist, float | None, list[str]]:
    """Shots or blows and To Hit: (hits, natural 1s that stand for Gets Hot, P(the Psychic check passes)
    or None, notes on what was applied). Memoised: only melee reads the target (its WS)."""
    try:
        key = (volley.weapon, volley.attacker, volley.mode, volley.attacks, volley.hits, volley.snap_shots,
               volley.half_range, volley.ones, target.WS if volley.mode == "melee" else None)
        hit = _HITS.get(key)
    except TypeError:
        return _hit_stage(volley, target)
    if hit is None:
        if len(_HITS) > 8192:
            _HITS.clear()
        hit = _HITS[key] = _hit_stage(volley, target)
    hits, ones, p_pass, notes = hit
    return hits, ones, p_pass, list(notes)


def _hit_stage(volley: Volley, target: Unit) -> tuple[Dist, Dist, float | None, list[str]]:
    w = volley.weapon
    notes: list[str] = []
    marker = volley.hits is not None
    shots, p_pass = shots_distribution(volley)
    if not marker and volley.attacks is None:
        attacks_per_model(volley, notes)  # records charging / two weapons in the notes
    if marker:
        if volley.ones is not None:
            return shots, volley.ones, p_pass, notes
        if w.has("Gets Hot"):
            hits, ones = gets_hot_before_firing(shots, twin=w.has("Twin-linked"))
            return hits, ones, p_pass, notes
        return shots, Dist.point(0), p_pass, notes
    if volley.snap_shots:
        notes.append("Snap Shots (BS 1)")
    hits, ones = roll_to_hit(shots, _hit_roll(volley, target))
    return hits, ones, p_pass, notes


def resolve_volley(volley: Volley, target: Unit, state: TargetState | None = None) -> VolleyResult:
    """Resolve one weapon's attack on a unit with Toughness and Wounds, exactly.

    Args:
        volley: the weapon, attacker, mode, and optional attack count or marker hits.
        target: the target unit (not a Vehicle).
        state: the target's state left by earlier volleys (a fresh unit when None).

    Returns:
        The distributions of hits, wounds, unsaved wounds and casualties (models removed from the unit so
        far: by this volley when ``state`` is None),
        the new target state, and the rules applied / not modelled. ``pinned`` is left to the sequence.
    """
    if target.is_vehicle:
        raise ProfileError("target.Unit Type: vehicles are resolved by the vehicle engine")
    if volley.zone_hits is not None:
        from .zones import resolve_zoned_volley

        return resolve_zoned_volley(volley, target, state)
    w = volley.weapon
    if state is None:
        state = TargetState.fresh(target, shell_shocks=(_shell_shock(w),) if w.has("Pinning") else None)
    tracks_pinning = w.has("Pinning") and state.probs.shape[0] > 1  # a state without flags ignores Pinning
    if tracks_pinning and _shell_shock(w) not in state.shell_shocks[1:]:
        raise ValueError(f"state: built without Shell Shock level {_shell_shock(w)} of {w.name!r}; use resolve_sequence")
    strength = _strength(volley)

    # 1. shots or blows; 2. To Hit
    hits, ones, attack_happens, notes = hit_stage(volley, target)
    perils = None if attack_happens is None else 1.0 - attack_happens

    # 3. To Wound, saves, allocation
    if strength is None:
        groups, p_wound, unsaved_each = [], 0.0, np.ones(1)
    else:
        groups, p_wound, unsaved_each = wound_groups(volley, target, strength, state.space.wounds)
    deflagrate = w.has("Deflagrate")
    level = state.shell_shocks.index(_shell_shock(w), 1) if tracks_pinning else 0
    unsaved_main = sum_of_iid(hits.probabilities, unsaved_each)
    unsaved = sum_of_iid(unsaved_main, np.concatenate(([0.0], unsaved_each))) if deflagrate else unsaved_main
    fresh = _fresh_wounds_left(state)
    if fresh is not None and all(single_damage(g.packet) for g in groups):
        # every wound does one damage: the state is a function of the unsaved count (exact shortcut)
        final = state_from_unsaved(state.space, fresh, unsaved, flags=state.probs.shape[0], level=level)
    else:
        alloc = Allocator(state.space, pinning=tracks_pinning, level=level)
        x = hits.probabilities[:, None, None] * state.probs[None]
        max_unsaved = unsaved_each.size - 1
        first = alloc.resolve(x, groups, track=deflagrate, u_max=hits.max * max_unsaved)
        final = alloc.resolve(first, groups, track=False)[0] if deflagrate else first[0]
    new_state = TargetState(state.space, final, state.shell_shocks)

    # 4. marginals
    wounds = Dist._trusted(thin(hits.probabilities, p_wound))
    casualties = new_state.kills()
    gets_hot = None
    if w.has("Gets Hot"):
        gets_hot = Dist._trusted(thin(ones.probabilities, _gets_hot_unsaved(volley)))
    applied, no_effect, missing = classify_rules(volley, target, notes)
    return VolleyResult(
        hits=hits,
        wounds=wounds,
        unsaved=Dist._trusted(unsaved),
        casualties=casualties,
        pinned=None,
        applied=tuple(applied),
        not_modelled=tuple(missing),
        no_effect=tuple(no_effect),
        gets_hot=gets_hot,
        attack_happens=attack_happens,
        perils=perils,
        state=new_state,
    )


def pinning_exempt(target: Unit) -> bool:
    """True when the target never takes Pinning tests (Vehicles, Fearless, already Pinned, locked, embarked)."""
    return target.is_vehicle or any(target.has(n) for n in PINNING_EXEMPT_RULES)


def _fresh_wounds_left(state: TargetState) -> int | None:
    """Wounds left on the first model when the state is a fresh, unflagged unit (a point mass), else None."""
    nz = np.flatnonzero(state.probs)
    if nz.size != 1 or nz[0] >= state.probs.shape[1]:
        return None
    kills, w = divmod(int(nz[0]), state.space.wounds)
    return w + 1 if kills == 0 and state.space.models > 0 else None


def _shell_shock(w: Weapon) -> int:
    rule = w.get("Shell Shock")
    return (rule.value or 0) if rule else 0


def pinning_test(state: TargetState, target: Unit) -> TargetState:
    """End of a firing unit: a unit with models left that suffered an unsaved wound from a Pinning weapon
    tests Ld, minus the highest Shell Shock among the Pinning weapons that caused one.

    An already Pinned unit stays Pinned and takes no test; a unit with no models left takes none either.
    """
    flags = state.probs.shape[0]
    if flags == 1:
        return state
    levels = flags // 2
    p = state.probs
    alive = state.space.kills_of() < state.space.models
    out = np.zeros_like(p)
    out[0] = p[0]
    out[levels] = p[levels:].sum(axis=0)  # already Pinned: stays Pinned, trigger reset
    for t in range(1, levels):
        fail = 1.0 - leadership_pass((target.Ld if target.Ld is not None else 0) - state.shell_shocks[t])
        tested = p[t] * alive
        out[0] += (p[t] - tested) + tested * (1.0 - fail)
        out[levels] += tested * fail
    return TargetState(state.space, out, state.shell_shocks)


def resolve_sequence(target: Unit, firing_units: Sequence[Sequence[Volley]]) -> VolleyResult:
    """Several firing units in turn, each a list of volleys, carrying the damaged model over.

    Pinning is tested once after each firing unit that used a Pinning weapon (MECHANICS.md section 7).
    The result's hits, wounds and unsaved are totals over all volleys (independent sums); casualties are
    the models removed by the whole sequence.
    """
    any_pinning = any(v.weapon.has("Pinning") for unit in firing_units for v in unit)
    shocks = sorted({_shell_shock(v.weapon) for unit in firing_units for v in unit if v.weapon.has("Pinning")})
    state = TargetState.fresh(target, shell_shocks=tuple(shocks) if any_pinning else None)
    totals: dict[str, Dist | None] = {"hits": None, "wounds": None, "unsaved": None}
    applied: list[str] = []
    no_effect: list[str] = []
    missing: list[str] = []
    gets_hot: Dist | None = None
    psychic: tuple[float | None, float | None] = (None, None)
    for unit in firing_units:
        pin_here = False
        for volley in unit:
            res = resolve_volley(volley, target, state)
            state = res.state  # type: ignore[assignment]
            for key, total in totals.items():
                totals[key] = getattr(res, key) if total is None else total + getattr(res, key)
            for src, dst in ((res.applied, applied), (res.no_effect, no_effect), (res.not_modelled, missing)):
                dst.extend(x for x in src if x not in dst)
            if res.attack_happens is not None:
                psychic = (res.attack_happens, res.perils)
            if res.gets_hot is not None:
                gets_hot = res.gets_hot if gets_hot is None else gets_hot + res.gets_hot
            if volley.weapon.has("Pinning"):
                pin_here = True
        if pin_here and not pinning_exempt(target):
            state = pinning_test(state, target)
    kills = state.kills()
    pinned: float | None
    if not any_pinning:
        pinned = 0.0
    elif pinning_exempt(target):
        pinned = None
    else:
        pinned = state.p_pinned()
    zero = Dist.point(0)
    return VolleyResult(
        hits=totals["hits"] or zero, wounds=totals["wounds"] or zero, unsaved=totals["unsaved"] or zero,
        casualties=kills,
        pinned=pinned, applied=tuple(applied), not_modelled=tuple(missing), no_effect=tuple(no_effect),
        gets_hot=gets_hot, attack_happens=psychic[0], perils=psychic[1], state=state,
    )


def resolve(volley: Volley, target: Unit) -> VolleyResult:
    """One volley as a whole firing unit: ``resolve_volley`` plus its Pinning test."""
    return resolve_sequence(target, [[volley]])
