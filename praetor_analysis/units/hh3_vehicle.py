"""Edition 3 attacks on a vehicle: a target with ``Front Armour``/``HP`` (docs/rules-hh3.md#vehicles).

Volleys (shooting or melee) against one vehicle model: the volley's dice, Strength and Damage come from the
edition 3 engine (``fire_group``: Firepower, Heavy, Ordnance, Impact, range); its Hit Test is read face by face
(Shock reads natural 5-6, hit or miss); a Blast marker hits the hull where it lies on a successful test and
after its D6" scatter otherwise (the hull from ``formation``); a Template hits it FP times. The hits go to
:func:`~praetor_analysis.vehicles.hh3.resolve_vehicle_sequence_hh3` (several volleys in order: the vehicle's hull
points, shields and statuses carried over). Every rule of the weapon and the vehicle is filed
under ``applied``, ``no_effect`` or ``not_modelled`` with a reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from praetor_analysis.engine import (
    FLYER_IMMUNE,
    PINNED,
    Hh3Volley,
    MisfireResult,
    RuleReport,
    damage_dist,
    fire_group,
    misfire_result,
    shock_positions,
    snap_forced,
    stationary_verdict,
)
from praetor_analysis.errors import ScenarioError
from praetor_analysis.markers import Edges, Hull, barrage_hh3, blast_hh3, hull_hit_probability
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Hh3Unit
from praetor_analysis.rules import declaration
from praetor_analysis.units.hh3_limits import check_shielded
from praetor_analysis.vehicles import (
    STATUSES,
    DieOutcomes,
    HH3Vehicle,
    HH3VehicleResult,
    Hh3VehicleTarget,
    PenetratingAttack,
    VehicleShot,
    resolve_vehicle_sequence_hh3,
)

__all__ = [
    "VehicleOptions",
    "VehicleStage",
    "VehicleVolley",
    "resolve_vehicle_volleys",
    "stub_unit",
    "vehicle_body",
    "vehicle_shot",
]

_NOTHING_VS_VEHICLES = "does nothing against Vehicles (no Wound Tests)"
_NO_CHECKS = "Vehicles make no Checks: their statuses come from the Vehicle Damage Table and Shock"


@dataclass(frozen=True)
class VehicleOptions:
    """The vehicle options (``apt_natural_one_fails``, ``critical_vs_vehicle``; docs/rules-hh3.md#vehicles)."""

    apt_natural_one_fails: bool = True
    critical_vs_vehicle: str = "damage"


@dataclass(frozen=True)
class VehicleVolley:
    """One volley at a vehicle: the parsed volley, the marker kind (None, ``blast``, ``barrage``, ``template``),
    the blast's diameter and the Barrage's dice, and the hull the markers fall on."""

    volley: Hh3Volley
    marker: str | None = None
    diameter: float = 3.0
    barrage_dice: int = 0
    hull: Hull | None = None
    indirect: bool = False
    edges: Edges | None = None


def stub_unit(vehicle: Hh3VehicleTarget) -> Hh3Unit:
    """The vehicle as an edition 3 unit for the engine's volley arithmetic (its type, WS, HP as W; T unused)."""
    return Hh3Unit(
        vehicle.name, vehicle.type, vehicle.subtypes, None, vehicle.ws, None, None, 1, vehicle.hp, None, None,
        None, None, None, None, None, vehicle.inv, vehicle.cover, 1, vehicle.rules,
    )  # fmt: skip


def _test(v: VehicleVolley, vehicle: Hh3VehicleTarget, stub: Hh3Unit) -> DieOutcomes:
    """The volley's Hit Test against the vehicle, face by face (the WS chart against its WS in melee; the BS
    table with its critical band, or Snap Shots, when shooting)."""
    w, att, ctx = v.volley.weapon, v.volley.attacker, v.volley.context
    crit = w.rule_number("Critical Hit")
    if w.melee:
        if att.ws is None:
            raise ScenarioError("attacker.WS: required in melee", field="attacker.WS")
        return DieOutcomes.from_test(None if att.ws == 0 else ctx.tables.melee(att.ws, vehicle.ws), crit)
    if att.bs is None:
        raise ScenarioError("attacker.BS: required for shooting", field="attacker.BS")
    if att.bs == 0:
        return DieOutcomes.from_test(None)
    target, band = ctx.tables.ranged(att.bs, snap=snap_forced(v.volley, stub))
    return DieOutcomes.from_test(target, min((x for x in (band, crit) if x is not None), default=None))


def vehicle_shot(
    v: VehicleVolley, vehicle: Hh3VehicleTarget, options: VehicleOptions, report: RuleReport | None
) -> VehicleShot:
    """One volley at the vehicle as the chain takes it; ``report`` receives the verdict on every rule (None: no
    verdicts, what a mean is read from)."""
    volley = v.volley
    w, ctx = volley.weapon, volley.context
    stub = stub_unit(vehicle)
    group = fire_group(volley, stub)
    strike = group.strike
    melta = w.rule_number("Melta")
    in_melta = melta is not None and ctx.range is not None and ctx.range <= melta
    shock = tuple(STATUSES[pos - PINNED] for pos in shock_positions(volley, stub))
    source = "melee" if w.melee else ("indirect" if v.indirect else "shooting")
    armour = vehicle.armour.for_hit(source, vehicle.facing)  # type: ignore[arg-type]
    attack = PenetratingAttack(
        strength=strike.strength or 0,
        damage=damage_dist(strike, 0, 0),
        armourbane=w.rule("Armourbane") is not None,
        melta=in_melta,
        armour_breaker=w.rule_number("Armour-breaker"),
        shooting=not w.melee,
        shock=shock,
        critical_vs_vehicle=options.critical_vs_vehicle,  # type: ignore[arg-type]
        apt_natural_one_fails=options.apt_natural_one_fails,
    )
    dice: Dist = group.dice
    check_shielded(dice.max, vehicle.rule_number("Void Shields") or 0)
    if ctx.hits is not None or v.marker == "template":
        die = DieOutcomes.certain_hit()
    elif v.marker == "barrage":
        assert v.hull is not None
        under = float(barrage_hh3(v.hull, v.diameter, v.barrage_dice, edges=v.edges).on_hit[1:].sum())
        die = DieOutcomes.without_test(under)
    else:
        die = _test(v, vehicle, stub)
        if v.marker == "blast":
            assert v.hull is not None
            _, scattered = hull_hit_probability(blast_hh3(v.hull, v.diameter, edges=v.edges))
            die = DieOutcomes.marker(die, scattered)
    if report is not None:
        _report(v, vehicle, options, in_melta, report)
    return VehicleShot(dice, die, attack, armour)


def vehicle_body(vehicle: Hh3VehicleTarget) -> HH3Vehicle:
    """The vehicle as the chain meets it (its Front armour; each volley names the armour its hits meet)."""
    return HH3Vehicle(
        armour=vehicle.armour.front,
        hp=vehicle.hp,
        hp_left=vehicle.hp_left,
        invulnerable=vehicle.inv,
        cover=vehicle.cover,
        feel_no_pain=vehicle.rule_number("Feel No Pain"),
        shrouded=vehicle.rule_number("Shrouded"),
        void_shields=vehicle.rule_number("Void Shields") or 0,
        glance_costs_hp=vehicle.glance_costs_hp,
        explodes=vehicle.rule_number("Explodes"),
    )


def resolve_vehicle_volleys(
    volleys: list[tuple[int, int, VehicleVolley]],
    vehicle: Hh3VehicleTarget,
    options: VehicleOptions,
    report: RuleReport | None,
) -> tuple[HH3VehicleResult, list[MisfireResult]]:
    """The exact outcome of the volleys (firing unit, index, volley) in order on the vehicle, and the Overload
    Misfires of each on its own unit; ``report`` receives the verdict on every rule."""
    shots = [vehicle_shot(v, vehicle, options, report) for _, _, v in volleys]
    misfires = [
        misfire_result(u, i, v.volley, fire_group(v.volley, stub_unit(vehicle)))
        for u, i, v in volleys
        if v.volley.weapon.rule("Overload") is not None  # none without the rule
    ]
    result = resolve_vehicle_sequence_hh3(shots, vehicle_body(vehicle))
    return result, [m for m in misfires if m is not None]


def _report(
    v: VehicleVolley, vehicle: Hh3VehicleTarget, options: VehicleOptions, in_melta: bool, out: RuleReport
) -> None:
    w, ctx = v.volley.weapon, v.volley.context
    for rule in w.rules:
        label, name = rule.label, rule.name
        kind = declaration(name).kind
        if name in ("Armourbane", "Armour-breaker"):
            out.add("applied", label)
        elif name == "Melta":
            if in_melta:
                out.add("applied", label)
            else:
                why = (
                    "give `range`: Melta acts within X inches" if ctx.range is None else "the target is beyond X inches"
                )
                out.add("no_effect", label, why)
        elif name == "Critical Hit" and options.critical_vs_vehicle == "wasted":
            out.add(
                "no_effect",
                label,
                "critical_vs_vehicle is 'wasted': a Critical Hit is a wound, which a vehicle discards",
            )
        elif name in ("Critical Hit", "Overload") and ctx.hits is not None:
            out.add("no_effect", label, "the hits are given: no Hit Test is rolled")
        elif name == "Critical Hit":
            out.add("applied", label)
        elif name in ("Rending", "Breaching", "Shred", "Poisoned"):
            out.add("no_effect", label, _NOTHING_VS_VEHICLES)
        elif name == "Precision":
            out.add("no_effect", label, "one model: the attacker's choice of model changes nothing")
        elif kind == "status":
            out.add("no_effect", label, _NO_CHECKS)
        elif name == "Shock" and vehicle.has("Flyer"):
            out.add("no_effect", label, FLYER_IMMUNE)
        elif name == "Shock":
            rolled = ctx.hits is None and v.marker not in ("template", "barrage")
            out.add("applied" if rolled else "no_effect", label, "no Hit Test is rolled, so no natural 5-6")
        elif kind == "profile":
            on = ctx.charging and ctx.melee if name == "Impact" else ctx.stationary and not ctx.melee
            why = "acts after a successful charge in melee" if name == "Impact" else "acts only when Stationary"
            out.add("applied" if on else "no_effect", label, why)
        elif kind == "marker":
            placed = v.marker is not None or ctx.hits is not None
            out.add("applied" if placed else "not_modelled", label, "a marker against a vehicle needs formation.hull")
        elif name == "Overload":
            firer = v.volley.attacker
            if firer.t is None or firer.w is None:
                out.add("not_modelled", label, "the firer's Misfires need its T, W and saves")
            else:
                out.add("applied", label)
        elif name == "Deflagrate":
            out.add("not_modelled", label, "extra hits per Unsaved Wound: a vehicle takes Penetrating Hits instead")
        elif name == "Shield-breaker" and not vehicle.rule_number("Void Shields"):
            out.add("no_effect", label, "the vehicle has no void shields")
        elif kind == "snap":
            forced = snap_forced(v.volley, stub_unit(vehicle)) and not ctx.snap_shots
            out.add("applied" if forced else "no_effect", label, "does not force Snap Shots against this target")
        elif kind == "no_effect":
            out.add("no_effect", label, declaration(name).reason)
        else:
            out.add("not_modelled", label, declaration(name).reason or "not read against vehicles yet")
    for trait in w.traits:
        out.add("no_effect", trait.label, declaration(trait.name, trait=True).reason)
    stationary_verdict(v.volley, out)
    for rule in v.volley.attacker.rules:
        out.add("not_modelled", rule.label, "an attacker's special rule: not read by the edition 3 engine yet")
    for rule in vehicle.rules:
        if rule.name in ("Void Shields", "Explodes", "Feel No Pain"):
            out.add("applied", rule.label)
        elif rule.name == "Shrouded":
            out.add("no_effect" if w.melee else "applied", rule.label, "Shrouded acts against shooting only")
        else:
            out.add("not_modelled", rule.label, "a vehicle's special rule: not read by the edition 3 engine yet")
    if vehicle.cover is not None and w.melee:
        out.add("no_effect", f"Cover {vehicle.cover}+", "no cover saves in melee")
    if w.melee:
        out.add(
            "applied", "hits on the Rear armour, the vehicle at WS 1" if vehicle.ws == 1 else "hits on the Rear armour"
        )


@dataclass(frozen=True)
class VehicleStage:
    """What the volleys did to a vehicle: the chain's result, the vehicle, the verdict on every rule and the
    Overload Misfires (:meth:`to_dict` is SCENARIO's Edition 3 keys)."""

    result: HH3VehicleResult
    vehicle: Hh3VehicleTarget
    report: RuleReport
    misfires: tuple[MisfireResult, ...]

    def to_dict(self) -> dict[str, Any]:
        """The JSON view of a vehicle result (SCENARIO's Edition 3 keys)."""
        result, vehicle, report = self.result, self.vehicle, self.report
        out: dict[str, Any] = {
            "edition": "hh3",
            "hits": result.hits.to_dict(),
            "critical_hits": result.critical_hits.to_dict(),
            "glancing": result.glancing.to_dict(),
            "penetrating": result.penetrating.to_dict(),
            "hull_points": result.hull_points.to_dict(),
            "wrecked": result.wrecked,
            "statuses": dict(result.statuses),
        }
        if result.explodes is not None:
            out["explodes"] = result.explodes
        if self.misfires:
            out["misfires"] = [m.to_dict() for m in self.misfires]
        out.update(
            report.to_dict(),
            target={"name": vehicle.name, "models": 1, "HP": vehicle.hp, "hp_left": vehicle.hp_left},
        )
        return out
