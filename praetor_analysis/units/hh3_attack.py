"""A 3rd-edition fielded unit attacks a target: its volleys chosen as typed records and resolved through the
edition 3 stages (:func:`~praetor_analysis.units.hh3_stages.resolve_stages`, what ``praetor calc`` resolves a
document with once parsed), never through a JSON document.

:func:`hh3_shooting` and :func:`hh3_one_way` return the typed :class:`~praetor_analysis.units.result.UnitAttackResult`
the 2nd edition's unit attack returns (its :class:`Outcome`'s engine result is the stage's typed result, whose
``to_dict()`` is the door's mapping), and :func:`hh3_resolve` an :class:`Outcome`: the ratings, the matchup and the
fire plan read them as they read the 2nd edition's.

How a unit attacks (docs/editions.md, "A 3rd-edition roster rated"):

- shooting: each model fires one weapon, in one of its modes (a Vehicle or a Walker fires every weapon): the
  modes are scored one model at a time against the target (mean models removed, hull points of a vehicle; then
  the wounds taken off, as one blow rarely removes a model of several Wounds), and each group's models take the
  best weapon first, as many as the roster has of it, then the next; a weapon that removes nothing is not fired
  (named under the group's ``unused``), and one the door refuses is named with the
  refusal under ``not_modelled`` and ``reasons`` too;
- a Blast weapon at a vehicle (the unit paths give no hull): one Hit Test per point of Firepower, a hit on each
  success, as the 2nd edition reads a marker at a lone vehicle (docs/rules-hh3.md#markers-and-templates); its
  Blast and Barrage are named under ``not_modelled``;
- melee: each model strikes with one melee weapon, chosen the same way, or the basic close combat weapon
  (``IM I, AM A, SM S, AP -, D 1``); a ``Detonation`` weapon only at a vehicle; the unit charges; a Vehicle
  that is neither a Walker nor a Knight does not strike;
- every volley of the unit is one firing unit at the target, resolved in order through the stages (vehicles,
  markers and templates included); a mode is scored by :func:`mode_score` (the stages' means,
  :func:`~praetor_analysis.units.hh3_stages.stage_means`), its refusal in the door's words.

Not read yet, and named in ``not_modelled``: the unit's special rules (the roster's rule texts are not read into
the statline), range (every weapon is in range), a second Pistol, and the parts of a model with several statlines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from praetor_analysis.bsdata import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline
from praetor_analysis.engine import Hh3Context, Hh3Volley, one_attack
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Hh3Unit
from praetor_analysis.rules import parse_rules
from praetor_analysis.units.hh3_engine_records import (
    attacker_stats,
    hh3_record_of_target,
    hh3_unit_of_statline,
    hh3_unit_of_target,
    hh3_weapon_of_profile,
    profile_marks_text,
)
from praetor_analysis.units.hh3_stages import (
    EngineStage,
    Stage,
    StageResult,
    as_scenario_error,
    names_marker,
    resolve_stages,
    stage_means,
)
from praetor_analysis.units.hh3_target import Hh3Target, fights_in_melee, hh3_strikes, hh3_target_of_group
from praetor_analysis.units.hh3_vehicle import VehicleStage
from praetor_analysis.units.records import FieldedUnit, ModelGroup
from praetor_analysis.units.result import Choice, Measure, Outcome, UnitAttackResult
from praetor_analysis.vehicles import Hh3VehicleTarget

__all__ = [
    "BASIC_MELEE",
    "MARKER_AT_VEHICLE",
    "NO_MELEE",
    "UNIT_NOT_READ",
    "Hh3Shot",
    "Hh3Volleys",
    "NoAttack",
    "clear_cache",
    "hh3_one_way",
    "hh3_resolve",
    "hh3_shooting",
    "hh3_target_record",
    "hh3_volleys",
    "mode_score",
    "outcome_of",
]

BASIC_MELEE = Hh3MeleeProfile(
    "Close combat weapon", ap="-", damage="1", initiative_modifier="I", attacks_modifier="A", strength_modifier="S"
)
"""The basic close combat weapon every model has (``IM I, AM A, SM S, AP -, D 1``)."""
UNIT_NOT_READ = (
    "the unit's special rules (a 3rd-edition roster's rules are not read into its statlines yet)",
    "range (every weapon is taken to be in range)",
)


@dataclass(frozen=True)
class Hh3Shot:
    """One volley of a fielded unit: the typed volley, whether its weapon's rules, traits or range name Blast or
    Template (its target then needs the markers stage), and the typed records it was read from (not compared):
    the attacker's statline (its models are the volley's) and the weapon's profile."""

    volley: Hh3Volley
    marks: bool
    attacker: Hh3Statline = field(compare=False, repr=False)
    weapon: Hh3RangedProfile | Hh3MeleeProfile = field(compare=False, repr=False)

    def to_block(self) -> dict[str, Any]:
        """The volley as a ``praetor calc`` document's volley block (what the door parses into :attr:`volley`)."""
        ctx = self.volley.context
        attacker = {"name": self.attacker.name, **attacker_stats(self.attacker), "models": self.volley.attacker.models}
        return {"mode": ctx.mode, "attacker": attacker, "weapon": self.weapon.as_block(),
                **({"charging": True} if ctx.charging else {})}  # fmt: skip


def _fires_all(group: ModelGroup) -> bool:
    kind = group.hh3_statline.unit_type.lower()
    return hh3_target_of_group(group).is_vehicle or kind.startswith("walker") or "walker" in kind


_SHOTS: dict[tuple[object, ...], Hh3Shot] = {}
"""The shots read, by their records, models, mode and field prefix (a warm run reads none again)."""
_RECORDS: dict[int, tuple[Hh3Target, Hh3Unit | Hh3VehicleTarget]] = {}
"""The targets' records, by the target (kept with it: an id is only reused once the target is gone; a sweep
reads one target's record once per weapon mode, and hashing the target's statline each time costs more)."""
_MOST = 16384


def _shot(
    attacker: Hh3Statline, models: int, weapon: Hh3RangedProfile | Hh3MeleeProfile, mode: str, prefix: str
) -> Hh3Shot:
    """``models`` models of ``attacker`` with ``weapon`` in ``mode``: a volley read as the door reads a volley block
    at ``prefix`` (its refusals in the door's words)."""
    key = (attacker, models, weapon, mode, prefix)
    hit = _SHOTS.get(key)
    if hit is not None:
        return hit
    read = hh3_weapon_of_profile(weapon, f"{prefix}weapon")
    if read.melee != (mode == "melee"):
        raise ScenarioError(f"{prefix}weapon: a {'melee' if read.melee else 'ranged'} profile in a {mode} volley",
                            field=f"{prefix}weapon")  # fmt: skip
    unit = hh3_unit_of_statline(attacker, models, f"{prefix}attacker")
    volley = Hh3Volley(unit, read, Hh3Context(mode, charging=mode == "melee"))
    shot = Hh3Shot(volley, names_marker(profile_marks_text(weapon)), attacker, weapon)
    if len(_SHOTS) >= _MOST:
        _SHOTS.clear()
    _SHOTS[key] = shot
    return shot


def hh3_target_record(target: Hh3Target) -> Hh3Unit | Hh3VehicleTarget:
    """The target's record, read from its statline as the door reads its block (a vehicle's when it prints armour
    or HP; refusals in the door's words)."""
    hit = _RECORDS.get(id(target))
    if hit is not None and hit[0] is target:
        return hit[1]
    with as_scenario_error():
        record = hh3_record_of_target(target)
    if len(_RECORDS) >= _MOST:
        _RECORDS.clear()
    _RECORDS[id(target)] = (target, record)
    return record


def _stage(record: Hh3Unit | Hh3VehicleTarget, shots: Sequence[Hh3Shot]) -> Stage:
    if isinstance(record, Hh3VehicleTarget):
        return Stage.VEHICLE
    return Stage.MARKERS if any(s.marks and s.volley.context.hits is None for s in shots) else Stage.ENGINE


MARKER_AT_VEHICLE = (
    "a marker at a vehicle without its hull: one Hit Test per point of Firepower, a hit on each success (a missed "
    "marker scattering onto the hull is not counted: the hull's size is not in the data)"
)
"""Why a Blast weapon's Blast and Barrage are named under ``not_modelled`` when it fires at a vehicle."""
_MARKER_RULES = ("Blast", "Barrage")


Profile = Hh3RangedProfile | Hh3MeleeProfile


def _at_vehicle(profile: Profile, target: Hh3Target) -> tuple[Profile, tuple[str, ...]]:
    """A ranged Blast (not Template) weapon's profile at a vehicle read without its marker rules, and their labels
    (:data:`MARKER_AT_VEHICLE`); any other profile as it is, with no labels."""
    if not target.is_vehicle or (isinstance(profile, Hh3MeleeProfile) and profile.initiative_modifier):
        return profile, ()
    try:
        weapon = hh3_weapon_of_profile(profile)
    except PraetorError:
        return profile, ()  # the stages refuse it and the refusal is named
    if weapon.rule("Blast") is None or weapon.rule("Template") is not None:
        return profile, ()
    dropped: list[str] = []

    def without_markers(names: tuple[str, ...], key: str) -> tuple[str, ...]:
        refs = parse_rules(", ".join(names) or None, field=f"weapon.{key}")
        kept = tuple(r.text for r in refs if r.name not in _MARKER_RULES)
        if len(kept) == len(refs):
            return names
        dropped.extend(r.label for r in refs if r.name in _MARKER_RULES)
        return kept

    rules = without_markers(profile.special_rules, "Special Rules")
    traits = without_markers(profile.traits, "Traits")
    return replace(profile, special_rules=rules, traits=traits), tuple(dropped)


@lru_cache(maxsize=16384)
def _mean(shot: Hh3Shot, record: Hh3Unit | Hh3VehicleTarget) -> tuple[float, float] | str:
    try:
        return stage_means(record, [one_attack((shot.volley,))], _stage(record, (shot,)))
    except PraetorError as e:
        return str(e)


def mode_score(shot: Hh3Shot, target: Hh3Target) -> tuple[float, float] | str:
    """Mean models removed (hull points) by one model's attack (``shot``: one model, unnamed), then the mean wounds
    it takes off (one blow rarely removes a model of several Wounds: the wounds rank what removes none; 0 at a
    vehicle), or the refusal in the door's words: :func:`~praetor_analysis.units.hh3_stages.stage_means`."""
    try:
        record = hh3_target_record(target)
    except PraetorError as e:
        return str(e)
    return _mean(shot, record)


def _score(attacker: Hh3Statline, weapon: Profile, target: Hh3Target, mode: str) -> tuple[float, float] | str:
    """The score of one model of ``attacker`` with ``weapon`` in ``mode``: its volley read under the default names
    (they name, never count: units of one statline and weapon share one score)."""
    try:
        hh3_target_record(target)
    except PraetorError as e:
        return str(e)
    shot = _unnamed_shot(attacker, weapon, mode)
    return shot if isinstance(shot, str) else mode_score(shot, target)


@lru_cache(maxsize=16384)
def _unnamed_shot(attacker: Hh3Statline, weapon: Profile, mode: str) -> Hh3Shot | str:
    """One model of ``attacker`` with ``weapon`` in ``mode`` under the default names, or the refusal (kept: the
    renamed records are built once per statline and weapon, not once per target and cell)."""
    try:
        return _shot(replace(attacker, name="attacker"), 1, replace(weapon, name="weapon"), mode, "")
    except PraetorError as e:
        return str(e)


NO_RANGED = "no ranged weapon"
"""Why a group of models fires nothing (its :class:`Choice`'s ``why``, as in the 2nd edition)."""


def _has_ranged(group: ModelGroup) -> bool:
    """Whether the group carries a ranged weapon (a profile that is not a melee one)."""
    return any(not arm.melee for arm in group.arms)


@dataclass(frozen=True)
class _Choices:
    """What a group attacks with: ``picks`` ``(models, weapon profile, weapon name)``; ``unused`` weapon -> why it
    is not used; ``notes`` ``(note, why)`` for ``not_modelled`` and ``reasons``."""

    picks: list[tuple[int, Profile, str]]
    unused: dict[str, str]
    notes: list[tuple[str, str]]


def _choices(group: ModelGroup, target: Hh3Target, mode: str) -> _Choices:
    """What the group attacks with (see the module docstring)."""
    melee = mode == "melee"
    attacker = group.hh3_statline
    weapons: dict[str, tuple[int, list[tuple[Profile, tuple[str, ...]]]]] = {}
    unused: dict[str, str] = {}
    for arm in group.arms:
        if arm.melee != melee:
            continue
        name = arm.weapon
        if melee and not target.is_vehicle and "detonation" in arm.special_rules.lower():
            unused[name] = "Detonation: it strikes only at a vehicle"
            continue
        weapons.setdefault(name, (arm.count, []))[1].append(_at_vehicle(arm.profile, target))
    notes: list[tuple[str, str]] = []
    if melee:
        weapons.setdefault(BASIC_MELEE.name, (group.count, [(BASIC_MELEE, ())]))
    elif not _has_ranged(group):  # said, never a silent 0 (the 2nd edition says it too)
        notes.append((f"{group.model}: {NO_RANGED}", "it carries none, so it does not fire"))
    ranked = []
    for name, (count, modes) in weapons.items():
        scores = [_score(attacker, m, target, mode) for m, _ in modes]
        means = [(s, i) for i, s in enumerate(scores) if not isinstance(s, str)]
        for (m, _), s in zip(modes, scores, strict=True):
            if isinstance(s, str):  # a mode the stages refuse is named with the refusal, never scored 0
                notes.append((f"{group.model}: {m.name} not {'used' if melee else 'fired'}", s))
                unused[name] = f"refused: {s}"
        best, i = max(means) if means else ((0.0, 0.0), -1)
        if max(best) > 0:
            ranked.append((best, name, count, modes[i]))
        elif name not in unused:
            unused[name] = f"removes nothing from {target.name}"
    ranked.sort(key=lambda r: (-r[0][0], -r[0][1]))
    picks, left = [], group.count
    every = _fires_all(group) and not melee
    for _, name, count, (profile, dropped) in ranked:
        n = count if every else min(count, left)
        if n <= 0:
            unused[name] = f"every model already {'strikes' if melee else 'fires'} with a better weapon"
            continue
        picks.append((n, profile, name))
        unused.pop(name, None)
        left -= 0 if every else n
        notes.extend((f"{name}: {label}", MARKER_AT_VEHICLE) for label in dropped)
    return _Choices(picks, unused, notes)


@dataclass(frozen=True)
class Hh3Volleys:
    """The volleys of a unit at a target (one firing unit), what each group chose (:class:`Choice`: the first of
    a group's carries its ``unused``) and the notes ``(note, why)`` for ``not_modelled`` and ``reasons``."""

    shots: tuple[Hh3Shot, ...]
    chosen: tuple[Choice, ...]
    notes: tuple[tuple[str, str], ...]


def hh3_volleys(unit: FieldedUnit, target: Hh3Target, mode: str = "shooting") -> Hh3Volleys:
    """The volleys of ``unit`` at ``target`` and what each group chose (see the module docstring)."""
    if unit.edition != "hh3":
        raise ScenarioError(f"attacker: {unit.datasheet!r} is a {unit.edition} unit, not a 3rd-edition one")
    shots: list[Hh3Shot] = []
    chosen: list[Choice] = []
    notes: list[tuple[str, str]] = []
    for group in unit.groups:
        if mode == "melee" and not hh3_strikes(group):
            chosen.append(Choice(group.model, group.count, None, {}, why="a vehicle: it does not strike"))
            continue
        made = _choices(group, target, mode)
        first = len(chosen)
        for n, profile, name in made.picks:
            with as_scenario_error():
                shots.append(_shot(group.hh3_statline, n, profile, mode, f"firing_units[0][{len(shots)}]."))
            chosen.append(Choice(group.model, n, name, {}))
        if not made.picks:
            why = NO_RANGED if mode == "shooting" and not _has_ranged(group) else ""
            chosen.append(Choice(group.model, group.count, None, {}, why=why))
        head = chosen[first]
        chosen[first] = Choice(head.model, head.count, head.weapon, made.unused, why=head.why)
        notes.extend(made.notes)
    return Hh3Volleys(tuple(shots), tuple(chosen), tuple(notes))


@dataclass(frozen=True)
class NoAttack:
    """No volley at the target: nothing removed (:meth:`to_dict` is the zero result of its measure)."""

    measure: Measure

    def to_dict(self) -> dict[str, Any]:
        """The zero result at a unit (``casualties``, ``damage``, ``unsaved``) or a vehicle."""
        zero = Dist.point(0).to_dict()
        if self.measure is Measure.HULL_POINTS:
            return {"hull_points": zero, "glancing": zero, "penetrating": zero, "wrecked": 0.0}
        return {"casualties": zero, "damage": zero, "unsaved": zero}


def outcome_of(target: Hh3Target, result: StageResult | None) -> Outcome:
    """The typed outcome of a stage's result at ``target`` (None: no volley; the records the 2nd edition's
    analysis reads)."""
    zero = Dist.point(0)
    measure = Measure.HULL_POINTS if target.is_vehicle else Measure.MODELS
    engine: Any = NoAttack(measure) if result is None else result  # read through to_dict() like the engine's results
    if isinstance(result, VehicleStage):
        hp, pen, wrecked = result.result.hull_points, result.result.penetrating, float(result.result.wrecked)
        removed, wounds, unsaved = hp, hp, pen
    elif isinstance(result, EngineStage):
        removed, wounds, unsaved = result.result.casualties, result.result.damage, result.result.unsaved
    elif result is not None:
        removed, wounds, unsaved = result.casualties, result.damage, result.totals["unsaved"]
    if result is None or (target.is_vehicle != isinstance(result, VehicleStage)):
        removed, wounds, unsaved, wrecked = zero, zero, zero, 0.0
    if target.is_vehicle:
        return Outcome(engine, Measure.HULL_POINTS, removed, wounds, unsaved, wrecked)
    return Outcome(engine, Measure.MODELS, removed, wounds, unsaved, float(removed.sf(target.models - 1)))


@lru_cache(maxsize=8192)
def _resolved(record: Hh3Unit | Hh3VehicleTarget, units: tuple[tuple[Hh3Shot, ...], ...]) -> StageResult:
    stage = _stage(record, [s for u in units for s in u])
    return resolve_stages(record, [one_attack([s.volley for s in u]) for u in units], stage)


def _resolve(target: Hh3Target, units: tuple[tuple[Hh3Shot, ...], ...]) -> StageResult:
    return _resolved(hh3_target_record(target), units)


def hh3_resolve(target: Hh3Target, firing_units: Sequence[Sequence[Hh3Shot]]) -> Outcome:
    """The outcome of ``firing_units`` (each a unit's volleys, :func:`hh3_volleys`, in order) at ``target``
    (nothing removed when no unit has a volley)."""
    firing = tuple(tuple(u) for u in firing_units if u)
    return outcome_of(target, _resolve(target, firing) if firing else None)


NO_MELEE = "has no model that fights in melee (a vehicle that is neither a Walker nor a Knight does not strike)"
"""Why a 3rd-edition unit has no melee result (the roster screen shows it as "no melee")."""


def _report(result: StageResult | None) -> tuple[tuple[str, ...], tuple[str, ...], dict[str, str]]:
    """(applied, not_modelled, reasons) of a stage's result."""
    if result is None:
        return (), (), {}
    if isinstance(result, EngineStage):
        return result.result.applied, result.result.not_modelled, dict(result.result.reasons)
    report = result.report
    return tuple(report.applied), tuple(report.not_modelled), dict(report.reasons)


def _attack(unit: FieldedUnit, target: Hh3Target, mode: str) -> UnitAttackResult:
    if mode == "melee" and not fights_in_melee(unit):
        raise ScenarioError(f"attacker: {unit.datasheet} {NO_MELEE}", field="attacker")
    made = hh3_volleys(unit, target, mode)
    result = _resolve(target, (made.shots,)) if made.shots else None
    applied, not_modelled, reasons = _report(result)
    notes = list(made.notes)
    no_weapon = mode == "shooting" and not any(_has_ranged(g) for g in unit.groups)
    if no_weapon:  # the unit's own line, as the 2nd edition's (each group's is in made.notes)
        notes.append(("no weapon for the shooting phase", "no model carries one that acts"))
    return UnitAttackResult(
        unit.datasheet,
        unit.faction,
        unit.size,
        unit.points,
        mode,
        outcome_of(target, result),
        target.models,
        made.chosen,
        applied,
        tuple(dict.fromkeys([*UNIT_NOT_READ, *unit.notes, *not_modelled, *dict(notes)])),
        {**reasons, **dict(notes)},
        no_weapon,
    )


def hh3_shooting(unit: FieldedUnit, target: Hh3Target) -> UnitAttackResult:
    """A 3rd-edition unit's shooting at ``target`` (see the module docstring)."""
    return _attack(unit, target, "shooting")


def hh3_one_way(unit: FieldedUnit, target: Hh3Target) -> UnitAttackResult:
    """A 3rd-edition unit's strikes at ``target`` in one round, charging, the target not striking back (the whole
    round: :func:`~praetor_analysis.units.hh3_round.hh3_melee`)."""
    return _attack(unit, target, "melee")


def clear_cache() -> None:
    """Forget the stages' results, the modes' scores and the targets read, kept for repeated volleys (a
    benchmark's cold run)."""
    _resolved.cache_clear()
    _mean.cache_clear()
    _unnamed_shot.cache_clear()
    hh3_record_of_target.cache_clear()
    hh3_unit_of_target.cache_clear()
    hh3_unit_of_statline.cache_clear()
    hh3_weapon_of_profile.cache_clear()
    _SHOTS.clear()
    _RECORDS.clear()
