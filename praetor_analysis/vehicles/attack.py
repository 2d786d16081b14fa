"""Scenario adapter for Vehicle targets: profiles -> hits -> the hull-point chain (docs/rules.md#vehicles).

Hits come from the To Hit roll (the same ``rules.hit`` as other targets), from ``hits``, or from a marker
over the vehicle's hull (``formation.hull``). Melee attacks resolve against the target's ``facing`` (default
Front) and roll To Hit on the WS chart against the vehicle's WS (a Walker's). Our reading where the rules
leave room: a vehicle without WS is hit automatically in melee, or on 4+ when the target block says
``"moved": true``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.engine import (
    Volley,
    shot_label,
    shots_distribution,
    situation_of,
    weapon_strength,
    with_attacker_hit_rules,
)
from praetor_analysis.engine.hit_stage import hit_stage
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import BoundedMemo, Dist, probability
from praetor_analysis.profiles import Rule, Unit, Weapon, vehicle_armour
from praetor_analysis.rules import (
    HitRoll,
    Role,
    RuleReport,
    Situation,
    plays,
    roll_to_hit,
    vehicle_attack,
    with_role,
)
from praetor_analysis.rules.classify import classify
from praetor_analysis.vehicles.hull_points import (
    VehicleResult,
    VehicleVolley,
    gets_hot_on_vehicle,
    resolve_vehicle_sequence,
)
from praetor_analysis.vehicles.penetration import PenetratingWeapon, VehicleTarget, denies_cover, denies_shrouded


def vehicle_target(target: Unit) -> VehicleTarget:
    """The vehicle record of a target whose Unit Type contains Vehicle (memoised per target)."""
    return _TARGETS.get(target, lambda: _vehicle_target(target))


_TARGETS: BoundedMemo[VehicleTarget] = BoundedMemo(1024)


def _vehicle_target(target: Unit) -> VehicleTarget:
    front, side, rear, hp = vehicle_armour(target)
    shrouded = target.with_role(Role.MITIGATION_ROLL)
    return VehicleTarget(
        front=front,
        side=side,
        rear=rear,
        hp=hp,
        hp_left=hp - target.wounds_taken,
        facing=target.facing,
        invulnerable=target.invulnerable,
        cover=target.cover,
        shrouded=(shrouded.value or 6) if shrouded else None,
        ion_shield=target.plays(Role.FACING_INVULNERABLE),
        unit_type=target.unit_type,
    )


@dataclass(frozen=True)
class PenetrationReads:
    """Everything the penetration profile of a volley reads (:func:`penetration_profile` reads nothing else, so
    this record is its memo key): the weapon, its Strength resolved against the wielder (on the charge too), the
    attack's mode and whether the wielder's rules deny Shrouded."""

    weapon: Weapon
    strength: int | None
    mode: str
    no_shrouded: bool

    @classmethod
    def of(cls, volley: Volley) -> PenetrationReads:
        """What ``volley``'s penetration profile reads."""
        no_shrouded = plays(Role.DENIES_SHROUDED, volley.attacker.rules)
        return cls(volley.weapon, weapon_strength(volley), volley.mode, no_shrouded)


def penetrating_weapon(volley: Volley) -> PenetratingWeapon:
    """The penetration profile of a volley's weapon (Strength resolved against the wielder)."""
    return penetration_profile(PenetrationReads.of(volley))


def penetration_profile(reads: PenetrationReads) -> PenetratingWeapon:
    """The penetration profile of what a volley's penetration reads.

    A weapon whose penetration does not read its Strength (Haywire's D6, Graviton Collapse's 4D6) needs none;
    one that cannot penetrate (Entangle, or a Strength of "-" with neither) has harmless hits
    (docs/rules.md#vehicles)."""
    w = reads.weapon
    strength = reads.strength
    printed = w.rules  # the rules as printed (a Destroyer kind or a Template range does not add them here)
    collapse = plays(Role.FOUR_D6_PENETRATION, printed)
    haywire = plays(Role.D6_FOR_PENETRATION, printed)
    no_strength = strength is None or strength < 1  # none printed, or a Graviton footnote (never read)
    harmless = plays(Role.HARMLESS_TO_VEHICLES, printed) or (no_strength and w.strength.text == "-" and not haywire)
    if no_strength and not (harmless or collapse or haywire):
        raise ProfileError(f"weapon.Strength: {w.strength.text!r} cannot roll armour penetration")
    if strength is None or strength < 1:
        strength = 1  # never read: the roll that replaces penetration ignores it, or no roll is made
    rend, armourbane = with_role(Role.REND_PENETRATION, printed), with_role(Role.EXTRA_PENETRATION_DIE, printed)
    exo = with_role(Role.PENETRATES_AGAIN, printed)
    variant = (armourbane.variant or "").lower() if armourbane else ""
    active = (
        armourbane is not None
        and not (variant == "melee" and reads.mode != "melee")
        and not (variant == "ranged" and reads.mode == "melee")
    )
    return PenetratingWeapon(
        strength=strength,
        ap=w.ap,
        rending=rend.value if rend else None,
        armourbane=active,
        melta=variant == "melta",
        ordnance=w.type.kind == "Ordnance" or plays(Role.TWO_PENETRATION_DICE, printed),
        lance=plays(Role.ARMOUR_AT_MOST_12, printed),
        sunder=plays(Role.REROLL_PENETRATION, printed),
        haywire=haywire,
        exoshock=(exo.value or 6) if exo else None,
        destroyer=w.plays(Role.D3_HULL_POINTS),  # a Destroyer kind too
        barrage_or_megablast=plays(Role.SIDE_ARMOUR, printed),
        is_melee=reads.mode == "melee",
        gets_hot=plays(Role.GETS_HOT, printed),
        ignores_cover=plays(Role.NO_COVER, printed),
        template=w.plays(Role.TEMPLATE),  # a Template or Hellstorm range too
        no_shrouded=reads.no_shrouded,
        twin_linked=plays(Role.REROLL_FAILED_HITS, printed),
        collapse=collapse,
        harmless=harmless,
    )


def vehicle_hits(volley: Volley, target: Unit) -> tuple[Dist, Dist]:
    """(hits, natural 1s of Gets Hot) of a volley against a vehicle."""
    if volley.mode == "melee" and target.WS is None:
        shots, _ = shots_distribution(volley)
        return roll_to_hit(
            shots, with_attacker_hit_rules(HitRoll(4 if target.moved else 1, None, False, 0), volley, target)
        )
    if template_over_hull(volley):  # each template laid over the vehicle hits it: no To Hit roll
        volley = replace(volley, hits=shots_distribution(volley)[0])
    hits, ones, _, _ = hit_stage(volley, target)  # the same To Hit as any target (memoised)
    return hits, ones


#: What a result says of a template shot at a vehicle without ``hits`` or a marker (docs/rules.md#vehicles).
TEMPLATE_ON_VEHICLE = "Template: each template covers the vehicle and hits it once (no To Hit roll)"


def template_over_hull(volley: Volley) -> bool:
    """Whether a volley is a template shot at a vehicle with no hits given: each template hits it once."""
    return volley.mode != "melee" and volley.hits is None and volley.weapon.plays(Role.TEMPLATE)


@dataclass(frozen=True)
class VehicleAttackResult:
    """Exact distributions of every volley against one vehicle, in turn (docs/scenario.md's vehicle result):
    what :class:`~praetor_analysis.engine.volley.VolleyResult` is for a unit.

    Attributes:
        hits: hits of all volleys together.
        glancing: unsaved Glancing Hits.
        penetrating: unsaved Penetrating Hits.
        hull_points: hull points removed over the sequence (capped at those left).
        wrecked: P(no hull point left at the end).
        damage_results: P(at least one) of each damage table result (per volley when several fire).
        applied, not_modelled, no_effect: the rule lists, in the order met.
        gets_hot: Gets Hot wounds (or Glancing Hits on a vehicle firer); None when no weapon Gets Hot.
    """

    hits: Dist
    glancing: Dist
    penetrating: Dist
    hull_points: Dist
    wrecked: float
    damage_results: Mapping[str, float]
    applied: tuple[str, ...] = ()
    not_modelled: tuple[str, ...] = ()
    no_effect: tuple[str, ...] = ()
    gets_hot: Dist | None = None

    def __post_init__(self) -> None:  # docs/rules.md#what-a-result-reports
        object.__setattr__(self, "wrecked", probability(self.wrecked))
        object.__setattr__(self, "damage_results", {k: probability(v) for k, v in self.damage_results.items()})

    @property
    def pinned(self) -> None:
        """Always None: vehicles take no Pinning test."""
        return None

    def to_dict(self) -> dict[str, object]:
        """The docs/scenario.md result form (``pinned`` null)."""
        out: dict[str, object] = {
            "hits": self.hits.to_dict(),
            "glancing": self.glancing.to_dict(),
            "penetrating": self.penetrating.to_dict(),
            "hull_points": self.hull_points.to_dict(),
            "wrecked": self.wrecked,
            "damage_results": dict(self.damage_results),
            "pinned": None,
            "applied": list(self.applied),
            "not_modelled": list(self.not_modelled),
            "no_effect": list(self.no_effect),
        }
        if self.gets_hot is not None:
            out["gets_hot"] = self.gets_hot.to_dict()
        return out


def resolve_vehicle_scenario(target: Unit, firing_units: Sequence[Sequence[Volley]]) -> VehicleAttackResult:
    """Every volley in turn against one vehicle, hull points carried over."""
    vt = vehicle_target(target)
    volleys = []
    hits_total = Dist.point(0)
    report = RuleReport()
    gets_hot: Dist | None = None
    for unit in firing_units:
        for v in unit:
            hits, ones = vehicle_hits(v, target)
            hits_total = hits_total + hits
            volleys.append(VehicleVolley(hits, penetrating_weapon(v), v.half_range))
            if plays(Role.GETS_HOT, v.weapon.rules):
                firer_is_vehicle = v.attacker.is_vehicle
                g = gets_hot_on_vehicle(ones) if firer_is_vehicle else ones
                gets_hot = g if gets_hot is None else gets_hot + g
            classify_vehicle_rules(v, target, report)
    results = resolve_vehicle_sequence(volleys, vt)
    glancing = Dist.point(0)
    penetrating = Dist.point(0)
    for r in results:
        glancing = glancing + r.glancing
        penetrating = penetrating + r.penetrating
        for x in r.not_modelled:
            report.add("not_modelled", x)
    last = results[-1]
    return VehicleAttackResult(
        hits=hits_total,
        glancing=glancing,
        penetrating=penetrating,
        hull_points=_hull_points_removed(vt.left, last.state),
        wrecked=float(last.state[0]) if last.state.size else 1.0,
        damage_results=_damage_any(results),
        applied=tuple(report.applied),
        not_modelled=tuple(report.not_modelled),
        no_effect=tuple(report.no_effect),
        gets_hot=gets_hot,
    )


def _hull_points_removed(hp_left: int, state: np.ndarray) -> Dist:
    """HP removed over the whole sequence, from the final hull-points-left pmf."""
    removed = np.zeros(hp_left + 1)
    for left, p in enumerate(state):
        if p > 0:
            removed[hp_left - left] += p
    return Dist.from_trusted(removed)


def _damage_any(results: Sequence[VehicleResult]) -> dict[str, float]:
    """P(at least one) of each damage result over the sequence (volleys independent given the chain is
    not: combine as 1 - prod(1 - p) only for a single volley; several volleys report each volley's value)."""
    if len(results) == 1:
        return dict(results[0].damage_results)
    out: dict[str, float] = {}
    for i, r in enumerate(results):
        for k, p in r.damage_results.items():
            out[f"{k} (volley {i + 1})"] = p
    return out


@dataclass(frozen=True)
class VehicleRuleReads:
    """Everything the sorting of a volley's rules against a vehicle reads (:func:`classify_vehicle_reads` reads
    nothing else, so this record is its memo key)."""

    label: str | None
    taken: tuple[str, ...]
    no_strength: bool
    situation: Situation
    hits_given: bool
    weapon_rules: tuple[Rule, ...]
    attacker_rules: tuple[Rule, ...]
    target_rules: tuple[Rule, ...]
    denies_shrouded: bool
    template_on_hull: bool
    denied_cover: int | None  # the target's cover save when no hit of the volley allows it

    @classmethod
    def of(cls, v: Volley, target: Unit, weapon: PenetratingWeapon | None = None) -> VehicleRuleReads:
        """What sorting ``v``'s rules against ``target`` reads (``weapon``: its penetration profile, when known)."""
        weapon = weapon or penetrating_weapon(v)
        return cls(
            label=shot_label(v),
            taken=v.taken,
            no_strength=v.weapon.strength.text == "-" and not plays(Role.D6_FOR_PENETRATION, v.weapon.rules),
            situation=situation_of(v, target),
            hits_given=v.hits is not None,
            weapon_rules=v.weapon.rules,
            attacker_rules=v.attacker.rules,
            target_rules=target.rules,
            denies_shrouded=denies_shrouded(weapon),  # what the saves read (rules.md#shrouded)
            template_on_hull=template_over_hull(v),
            denied_cover=target.cover if denies_cover(weapon) else None,
        )


def classify_vehicle_rules(v: Volley, target: Unit, report: RuleReport) -> None:
    """Sort a volley's weapon rules and both units' rules against a vehicle into ``report``."""
    classify_vehicle_reads(VehicleRuleReads.of(v, target), report)


def classify_vehicle_reads(reads: VehicleRuleReads, report: RuleReport) -> None:
    """:func:`classify_vehicle_rules` of what it reads."""
    if reads.label is not None:
        report.add("applied", reads.label)
    for note in reads.taken:  # the options taken (docs/scenario.md#options)
        report.add("applied", note)
    if reads.template_on_hull:
        report.add("applied", TEMPLATE_ON_VEHICLE)
    if reads.no_strength:
        report.add("no_effect", "Strength -")
    units = {"target": reads.target_rules, "attacker": reads.attacker_rules}
    situation = reads.situation  # its placement and whether the attack is a melee one
    resolution = vehicle_attack(marker_hits=reads.hits_given, placement=situation.placement, melee=situation.melee)
    classify(resolution, situation, reads.weapon_rules, units, report)
    roll = with_role(Role.MITIGATION_ROLL, reads.target_rules) if reads.denies_shrouded else None
    if roll is not None:  # the save context the numbers use takes the target's Shrouded away
        report.demote(f"target: {roll.text}")
    if reads.denied_cover is not None:  # the field acts on nothing: say so (rule_report.ENTRY_REASONS)
        report.add("no_effect", f"target: Cover {reads.denied_cover}+")
