"""A 3rd-edition fielded unit attacks a target: its volleys chosen and resolved through the edition 3 door.

:func:`hh3_shooting` and :func:`hh3_one_way` return the typed :class:`~praetor_analysis.units.result.UnitAttackResult`
the 2nd edition's unit attack returns (its :class:`Outcome`'s engine result is the door's mapping,
:class:`Hh3DoorResult`), and :func:`hh3_resolve` an :class:`Outcome`: the ratings, the matchup and the fire plan
read them as they read the 2nd edition's.

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
- every volley of the unit is one firing unit at the target, resolved in order by the door
  (:func:`~praetor_analysis.scenario.hh3_door.calc_hh3_stages`: vehicles, markers and templates included).

Not read yet, and named in ``not_modelled``: the unit's special rules (the roster's rule texts are not read into
the statline), range (every weapon is in range), a second Pistol, and the parts of a model with several statlines.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import HH3_UNIT_FIELDS as UNIT_FIELDS
from praetor_analysis.profiles import read_weapon
from praetor_analysis.rules import parse_rules
from praetor_analysis.scenario.hh3_door import calc_hh3_stages
from praetor_analysis.units import (
    WEAPON_KEYS,
    Choice,
    FieldedUnit,
    Hh3Target,
    Measure,
    ModelGroup,
    Outcome,
    UnitAttackResult,
    fights_in_melee,
    hh3_strikes,
    hh3_target_of_group,
)

__all__ = [
    "BASIC_MELEE",
    "MARKER_AT_VEHICLE",
    "NO_MELEE",
    "UNIT_NOT_READ",
    "Hh3DoorResult",
    "clear_cache",
    "hh3_one_way",
    "hh3_outcome",
    "hh3_resolve",
    "hh3_shooting",
    "hh3_volleys",
]

BASIC_MELEE: Mapping[str, str] = {"name": "Close combat weapon", "IM": "I", "AM": "A", "SM": "S", "AP": "-", "D": "1"}
"""The basic close combat weapon every model has."""
UNIT_NOT_READ = (
    "the unit's special rules (a 3rd-edition roster's rules are not read into its statlines yet)",
    "range (every weapon is taken to be in range)",
)


def _attacker(group: ModelGroup, models: int) -> dict[str, Any]:
    keys = UNIT_FIELDS - {"models", "rules"}
    block = {k: v for k, v in group.statline.items() if k in keys and v not in ("", None)}
    if "T" not in block and "WS" not in block:  # a vehicle's WS counts as 1 (it cannot strike: see hh3_one_way)
        block["WS"] = "1"
    return {**block, "models": models}


def _profile(block: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in block.items() if k not in WEAPON_KEYS}


def _fires_all(group: ModelGroup) -> bool:
    kind = str(group.statline.get("Type", "")).lower()
    return hh3_target_of_group(group).is_vehicle or kind.startswith("walker") or "walker" in kind


def _strikes(group: ModelGroup) -> bool:
    return hh3_strikes(group)


@lru_cache(maxsize=8192)
def _door(document: str) -> dict[str, Any]:
    return calc_hh3_stages(json.loads(document))


def _calc(document: Mapping[str, Any]) -> dict[str, Any]:
    return _door(json.dumps(document, sort_keys=True))


MARKER_AT_VEHICLE = (
    "a marker at a vehicle without its hull: one Hit Test per point of Firepower, a hit on each success (a missed "
    "marker scattering onto the hull is not counted: the hull's size is not in the data)"
)
"""Why a Blast weapon's Blast and Barrage are named under ``not_modelled`` when it fires at a vehicle."""
_MARKER_RULES = ("Blast", "Barrage")


def _at_vehicle(profile: Mapping[str, Any], target: Hh3Target) -> tuple[Mapping[str, Any], tuple[str, ...]]:
    """A ranged Blast (not Template) weapon's profile at a vehicle read without its marker rules, and their labels
    (:data:`MARKER_AT_VEHICLE`); any other profile as it is, with no labels."""
    if not target.is_vehicle or "IM" in profile:
        return profile, ()
    try:
        weapon = read_weapon(profile)
    except PraetorError:
        return profile, ()  # the door refuses it and the refusal is named
    if weapon.rule("Blast") is None or weapon.rule("Template") is not None:
        return profile, ()
    out: dict[str, Any] = dict(profile)
    dropped: list[str] = []
    for key in ("Special Rules", "Traits"):
        refs = parse_rules(profile.get(key), field=f"weapon.{key}")
        kept = [r.text for r in refs if r.name not in _MARKER_RULES]
        if len(kept) < len(refs):
            dropped.extend(r.label for r in refs if r.name in _MARKER_RULES)
            out[key] = ", ".join(kept)
    return out, tuple(dropped)


def _score(
    attacker: Mapping[str, Any], weapon: Mapping[str, Any], target: Hh3Target, mode: str
) -> tuple[float, float] | str:
    """Mean models removed (hull points) by one model's attack with ``weapon``, then the mean wounds it takes off
    (one blow rarely removes a model of several Wounds: the wounds rank what removes none), or the door's refusal.
    The names are left out (they name, never count): units of one statline and weapon share one door result."""
    unnamed = {k: v for k, v in attacker.items() if k != "name"}
    profile = {k: v for k, v in weapon.items() if k != "name"}
    volley = {"mode": mode, "attacker": {**unnamed, "models": 1}, "weapon": profile, "charging": mode == "melee"}
    try:
        result = _calc({"edition": "hh3", **volley, "target": dict(target.block)})
    except PraetorError as e:
        return str(e)
    if target.is_vehicle:
        return (float(result["hull_points"]["mean"]), 0.0)
    return (float(result["casualties"]["mean"]), float(result["damage"]["mean"]))


@dataclass(frozen=True)
class _Choices:
    """What a group attacks with: ``picks`` ``(models, weapon profile, weapon name)``; ``unused`` weapon -> why it
    is not used; ``notes`` ``(note, why)`` for ``not_modelled`` and ``reasons``."""

    picks: list[tuple[int, Mapping[str, Any], str]]
    unused: dict[str, str]
    notes: list[tuple[str, str]]


def _choices(group: ModelGroup, target: Hh3Target, mode: str) -> _Choices:
    """What the group attacks with (see the module docstring)."""
    melee = mode == "melee"
    attacker = _attacker(group, group.count)
    weapons: dict[str, tuple[int, list[tuple[Mapping[str, Any], tuple[str, ...]]]]] = {}
    unused: dict[str, str] = {}
    for block in group.weapons:
        if ("IM" in block) != melee:
            continue
        name = str(block.get("weapon", block.get("name", "")))
        if melee and not target.is_vehicle and "detonation" in str(block.get("Special Rules", "")).lower():
            unused[name] = "Detonation: it strikes only at a vehicle"
            continue
        count = int(block.get("count", group.count))
        weapons.setdefault(name, (count, []))[1].append(_at_vehicle(_profile(block), target))
    if melee:
        weapons.setdefault(BASIC_MELEE["name"], (group.count, [(dict(BASIC_MELEE), ())]))
    ranked, notes = [], []
    for name, (count, modes) in weapons.items():
        scores = [_score(attacker, m, target, mode) for m, _ in modes]
        means = [(s, i) for i, s in enumerate(scores) if not isinstance(s, str)]
        for (m, _), s in zip(modes, scores, strict=True):
            if isinstance(s, str):  # a mode the door refuses is named with the refusal, never scored 0
                notes.append((f"{group.model}: {m.get('name', name)} not {'used' if melee else 'fired'}", s))
                unused[name] = f"refused: {s}"
        best, i = max(means) if means else ((0.0, 0.0), -1)
        if max(best) > 0:
            ranked.append((best, name, count, modes[i]))
        elif name not in unused:
            unused[name] = f"removes nothing from {target.name}"
    ranked.sort(key=lambda r: (-r[0][0], -r[0][1]))
    picks, left = [], group.count
    for _, name, count, (profile, dropped) in ranked:
        n = count if _fires_all(group) and not melee else min(count, left)
        if n <= 0:
            unused[name] = f"every model already {'strikes' if melee else 'fires'} with a better weapon"
            continue
        picks.append((n, profile, name))
        unused.pop(name, None)
        left -= 0 if _fires_all(group) and not melee else n
        notes.extend((f"{name}: {label}", MARKER_AT_VEHICLE) for label in dropped)
    return _Choices(picks, unused, notes)


def _empty(target: Hh3Target) -> dict[str, Any]:
    zero = {"pmf": [1.0], "mean": 0.0}
    if target.is_vehicle:
        return {"hull_points": zero, "glancing": zero, "penetrating": zero, "wrecked": 0.0}
    return {"casualties": zero, "damage": zero, "unsaved": zero}


def hh3_volleys(
    unit: FieldedUnit, target: Hh3Target, mode: str = "shooting"
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The volleys of ``unit`` at ``target`` as edition 3 volley blocks, and what each group chose
    (``model``, ``count``, ``weapon``, ``unused``: weapon -> why it is not used, and ``notes``: ``[note, why]``
    for ``not_modelled``; ``weapon`` None for models that do not attack)."""
    if unit.edition != "hh3":
        raise ScenarioError(f"attacker: {unit.datasheet!r} is a {unit.edition} unit, not a 3rd-edition one")
    volleys, chosen = [], []
    for group in unit.groups:
        if mode == "melee" and not _strikes(group):
            why = "a vehicle: it does not strike"
            chosen.append({"model": group.model, "count": group.count, "weapon": None, "why": why})
            continue
        made = _choices(group, target, mode)
        first = len(chosen)
        for n, profile, name in made.picks:
            volleys.append({"mode": mode, "attacker": _attacker(group, n), "weapon": profile,
                            **({"charging": True} if mode == "melee" else {})})  # fmt: skip
            chosen.append({"model": group.model, "count": n, "weapon": name})
        if not made.picks:
            chosen.append({"model": group.model, "count": group.count, "weapon": None})
        chosen[first] = {**chosen[first], "unused": made.unused, "notes": made.notes}
    return volleys, chosen


@dataclass(frozen=True)
class Hh3DoorResult:
    """The edition 3 door's result mapping standing as a unit attack's engine result (``to_dict()`` gives it)."""

    data: Mapping[str, Any]

    def to_dict(self) -> dict[str, Any]:
        """The door's result as ``praetor calc`` gives it."""
        return dict(self.data)


def _dist(value: Mapping[str, Any]) -> Dist:
    return Dist.from_trusted(np.asarray(value["pmf"], dtype=float))


def hh3_outcome(target: Hh3Target, data: Mapping[str, Any]) -> Outcome:
    """The typed outcome of the door's result at ``target`` (the records the 2nd edition's analysis reads)."""
    full = {**_empty(target), **data}
    engine: Any = Hh3DoorResult(full)  # the door's mapping: read through to_dict() like the engine's results
    if target.is_vehicle:
        hp = _dist(full["hull_points"])
        return Outcome(engine, Measure.HULL_POINTS, hp, hp, _dist(full["penetrating"]), float(full["wrecked"]))
    removed = _dist(full["casualties"])
    wiped = float(removed.sf(target.models - 1))
    return Outcome(engine, Measure.MODELS, removed, _dist(full["damage"]), _dist(full["unsaved"]), wiped)


def hh3_resolve(target: Hh3Target, firing_units: Sequence[Sequence[Mapping[str, Any]]]) -> Outcome:
    """The outcome of ``firing_units`` (lists of volley blocks, one per unit, in order) at ``target`` through the
    door (nothing removed when no unit has a volley)."""
    firing = [list(u) for u in firing_units if u]
    if not firing:
        return hh3_outcome(target, {})
    return hh3_outcome(target, _calc({"edition": "hh3", "firing_units": firing, "target": dict(target.block)}))


NO_MELEE = "has no model that fights in melee (a vehicle that is neither a Walker nor a Knight does not strike)"
"""Why a 3rd-edition unit has no melee result (the roster screen shows it as "no melee")."""


def _attack(unit: FieldedUnit, target: Hh3Target, mode: str) -> UnitAttackResult:
    if mode == "melee" and not fights_in_melee(unit):
        raise ScenarioError(f"attacker: {unit.datasheet} {NO_MELEE}", field="attacker")
    volleys, chosen = hh3_volleys(unit, target, mode)
    result = _calc({"edition": "hh3", "firing_units": [volleys], "target": dict(target.block)}) if volleys else {}
    notes = [(n, why) for c in chosen for n, why in c.get("notes", [])]
    not_modelled = tuple(dict.fromkeys([*UNIT_NOT_READ, *unit.notes, *result.get("not_modelled", []), *dict(notes)]))
    reasons = result.get("reasons", {})
    reasons = {**(dict(reasons) if isinstance(reasons, Mapping) else {}), **dict(notes)}
    return UnitAttackResult(
        unit.datasheet,
        unit.faction,
        unit.size,
        unit.points,
        mode,
        hh3_outcome(target, result),
        target.models,
        tuple(Choice(c["model"], c["count"], c["weapon"], c.get("unused", {}), why=c.get("why", "")) for c in chosen),
        tuple(result.get("applied", [])),
        not_modelled,
        reasons,
    )


def hh3_shooting(unit: FieldedUnit, target: Hh3Target) -> UnitAttackResult:
    """A 3rd-edition unit's shooting at ``target`` (see the module docstring)."""
    return _attack(unit, target, "shooting")


def hh3_one_way(unit: FieldedUnit, target: Hh3Target) -> UnitAttackResult:
    """A 3rd-edition unit's strikes at ``target`` in one round, charging, the target not striking back (the whole
    round: :func:`~praetor_analysis.scenario.hh3_unit_round.hh3_melee`)."""
    return _attack(unit, target, "melee")


def clear_cache() -> None:
    """Forget the door's results kept for repeated volleys (a benchmark's cold run)."""
    _door.cache_clear()
