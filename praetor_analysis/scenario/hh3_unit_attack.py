"""A 3rd-edition fielded unit attacks a target: its volleys chosen and resolved through the edition 3 door.

:func:`hh3_shooting` and :func:`hh3_melee` return the typed :class:`~praetor_analysis.units.result.UnitAttackResult`
the 2nd edition's unit attack returns (its :class:`Outcome`'s engine result is the door's mapping,
:class:`Hh3DoorResult`), and :func:`hh3_resolve` an :class:`Outcome`: the ratings, the matchup and the fire plan
read them as they read the 2nd edition's.

How a unit attacks (docs/editions.md, "A 3rd-edition roster rated"):

- shooting: each model fires one weapon, in one of its modes (a Vehicle or a Walker fires every weapon): the
  modes are scored one model at a time against the target (mean models removed, hull points of a vehicle), and
  each group's models take the best weapon first, as many as the roster has of it, then the next; a weapon that
  removes nothing is not fired;
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

from praetor_analysis.catalog import load_targets
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.prob.dist import Dist
from praetor_analysis.profiles.hh3 import UNIT_FIELDS
from praetor_analysis.scenario.hh3_door import calc_hh3_stages
from praetor_analysis.units.hh3_roster import WEAPON_KEYS
from praetor_analysis.units.records import FieldedUnit, ModelGroup
from praetor_analysis.units.result import Choice, Measure, Outcome, UnitAttackResult
from praetor_analysis.vehicles.hh3.target import VEHICLE_FIELDS

__all__ = [
    "BASIC_MELEE",
    "UNIT_NOT_READ",
    "Hh3DoorResult",
    "Hh3Target",
    "clear_cache",
    "hh3_melee",
    "hh3_outcome",
    "hh3_resolve",
    "hh3_shooting",
    "hh3_standard_targets",
    "hh3_target_of_group",
    "hh3_target_of_row",
    "hh3_target_of_unit",
    "hh3_volleys",
]

BASIC_MELEE: Mapping[str, str] = {"name": "Close combat weapon", "IM": "I", "AM": "A", "SM": "S", "AP": "-", "D": "1"}
"""The basic close combat weapon every model has."""
UNIT_NOT_READ = (
    "the unit's special rules (a 3rd-edition roster's rules are not read into its statlines yet)",
    "range (every weapon is taken to be in range)",
)
_TARGET_KEYS = frozenset(UNIT_FIELDS) | {"Cover"} | set(VEHICLE_FIELDS) | {"INV", "Transport Capacity"}


@dataclass(frozen=True)
class Hh3Target:
    """A 3rd-edition target: its label, its block as the door reads it, its models and whether it is a vehicle
    (``models`` and ``is_vehicle`` are what the ratings read of any target)."""

    name: str
    block: Mapping[str, Any]
    models: int
    is_vehicle: bool

    @property
    def W(self) -> int | None:  # the name the 2nd edition's Unit gives it (the fire plan reads it)
        """The Wounds of one model (None: not given, or a vehicle)."""
        text = str(self.block.get("W", "")).strip()
        return int(text) if text.isdigit() else None


def _is_vehicle(block: Mapping[str, Any]) -> bool:
    return any(block.get(k) not in (None, "") for k in VEHICLE_FIELDS)


def hh3_target_of_group(group: ModelGroup, models: int | None = None, label: str | None = None) -> Hh3Target:
    """A model group of a 3rd-edition fielded unit as a target (``models``: its size, default the group's; a
    vehicle is one model)."""
    block = {k: v for k, v in group.statline.items() if k in _TARGET_KEYS or k == "name"}
    vehicle = _is_vehicle(block)
    n = 1 if vehicle else (group.count if models is None else models)
    block["models"] = n
    return Hh3Target(label or str(block.get("name", group.model)), block, n, vehicle)


def hh3_target_of_unit(unit: FieldedUnit, label: str) -> tuple[Hh3Target, tuple[str, ...]]:
    """A 3rd-edition fielded unit as a target: the statline most of its models share, at the unit's size (a
    vehicle: one of them), and notes naming the models of other statlines read as that one."""
    main = max(unit.groups, key=lambda g: g.count)
    target = hh3_target_of_group(main, unit.size, label)
    others = sorted({g.model for g in unit.groups if g.statline != main.statline})
    notes = (f"{label}: read as a target of {main.model} models ({', '.join(others)} alike)",) if others else ()
    return target, notes


def hh3_standard_targets() -> list[tuple[str, Hh3Target]]:
    """The 3rd edition's standard targets (:func:`praetor_analysis.catalog.load_targets` ``("hh3")``)."""
    return [hh3_target_of_row({str(k): v for k, v in row.items()}) for _, row in load_targets("hh3").iterrows()]


def hh3_target_of_row(row: Mapping[str, Any]) -> tuple[str, Hh3Target]:
    """``(label, target)`` of a row of the 3rd edition's targets (``archetype``, ``models``, characteristics)."""
    block: dict[str, Any] = {k: str(row[k]) for k in row if k in _TARGET_KEYS and str(row[k]).strip() not in
                             ("", "nan")}  # fmt: skip
    block["name"] = str(row.get("name") or row.get("archetype"))
    models = int(row.get("models") or 1)
    vehicle = _is_vehicle(block)
    block["models"] = 1 if vehicle else models
    label = str(row.get("archetype") or block["name"])
    return label, Hh3Target(label, block, int(block["models"]), vehicle)


def _attacker(group: ModelGroup, models: int) -> dict[str, Any]:
    keys = UNIT_FIELDS - {"models", "rules"}
    block = {k: v for k, v in group.statline.items() if k in keys and v not in ("", None)}
    if "T" not in block and "WS" not in block:  # a vehicle's WS counts as 1 (it cannot strike: see hh3_melee)
        block["WS"] = "1"
    return {**block, "models": models}


def _profile(block: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in block.items() if k not in WEAPON_KEYS}


def _fires_all(group: ModelGroup) -> bool:
    kind = str(group.statline.get("Type", "")).lower()
    return _is_vehicle(group.statline) or kind.startswith("walker") or "walker" in kind


def _strikes(group: ModelGroup) -> bool:
    kind = str(group.statline.get("Type", "")).lower()
    return not _is_vehicle(group.statline) or "knight" in kind or "walker" in kind


@lru_cache(maxsize=8192)
def _door(document: str) -> dict[str, Any]:
    return calc_hh3_stages(json.loads(document))


def _calc(document: Mapping[str, Any]) -> dict[str, Any]:
    return _door(json.dumps(document, sort_keys=True))


def _score(attacker: Mapping[str, Any], weapon: Mapping[str, Any], target: Hh3Target, mode: str) -> float:
    """Mean models removed (hull points) by one model's attack with ``weapon`` (0 when the door refuses it)."""
    volley = {"mode": mode, "attacker": {**attacker, "models": 1}, "weapon": weapon, "charging": mode == "melee"}
    try:
        result = _calc({"edition": "hh3", **volley, "target": dict(target.block)})
    except PraetorError:
        return 0.0
    return float(result["hull_points" if target.is_vehicle else "casualties"]["mean"])


def _choices(group: ModelGroup, target: Hh3Target, mode: str) -> list[tuple[int, Mapping[str, Any], str]]:
    """``(models, weapon profile, weapon name)`` of what the group attacks with (see the module docstring)."""
    melee = mode == "melee"
    attacker = _attacker(group, group.count)
    weapons: dict[str, tuple[int, list[Mapping[str, Any]]]] = {}
    for block in group.weapons:
        if ("IM" in block) != melee:
            continue
        if melee and not target.is_vehicle and "detonation" in str(block.get("Special Rules", "")).lower():
            continue  # a Detonation weapon strikes only when every enemy is a Vehicle (or immobile)
        name = str(block.get("weapon", block.get("name", "")))
        count = int(block.get("count", group.count))
        weapons.setdefault(name, (count, []))[1].append(_profile(block))
    if melee:
        weapons.setdefault(BASIC_MELEE["name"], (group.count, [dict(BASIC_MELEE)]))
    ranked = []
    for name, (count, modes) in weapons.items():
        scores = [(_score(attacker, m, target, mode), i) for i, m in enumerate(modes)]
        best, i = max(scores)
        if best > 0:
            ranked.append((best, name, count, modes[i]))
    ranked.sort(key=lambda r: -r[0])
    out, left = [], group.count
    for _, name, count, profile in ranked:
        if _fires_all(group) and not melee:
            out.append((count, profile, name))
            continue
        n = min(count, left)
        if n > 0:
            out.append((n, profile, name))
            left -= n
    return out


def _empty(target: Hh3Target) -> dict[str, Any]:
    zero = {"pmf": [1.0], "mean": 0.0}
    if target.is_vehicle:
        return {"hull_points": zero, "glancing": zero, "penetrating": zero, "wrecked": 0.0}
    return {"casualties": zero, "damage": zero, "unsaved": zero}


def hh3_volleys(
    unit: FieldedUnit, target: Hh3Target, mode: str = "shooting"
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The volleys of ``unit`` at ``target`` as edition 3 volley blocks, and what each group chose
    (``model``, ``count``, ``weapon``; ``weapon`` None for models that do not attack)."""
    if unit.edition != "hh3":
        raise ScenarioError(f"attacker: {unit.datasheet!r} is a {unit.edition} unit, not a 3rd-edition one")
    volleys, chosen = [], []
    for group in unit.groups:
        if mode == "melee" and not _strikes(group):
            chosen.append({"model": group.model, "count": group.count, "weapon": None})
            continue
        picks = _choices(group, target, mode)
        for n, profile, name in picks:
            volleys.append({"mode": mode, "attacker": _attacker(group, n), "weapon": profile,
                            **({"charging": True} if mode == "melee" else {})})  # fmt: skip
            chosen.append({"model": group.model, "count": n, "weapon": name})
        if not picks:
            chosen.append({"model": group.model, "count": group.count, "weapon": None})
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


def _attack(unit: FieldedUnit, target: Hh3Target, mode: str) -> UnitAttackResult:
    volleys, chosen = hh3_volleys(unit, target, mode)
    result = _calc({"edition": "hh3", "firing_units": [volleys], "target": dict(target.block)}) if volleys else {}
    not_modelled = tuple(dict.fromkeys([*UNIT_NOT_READ, *unit.notes, *result.get("not_modelled", [])]))
    reasons = result.get("reasons", {})
    return UnitAttackResult(
        unit.datasheet,
        unit.faction,
        unit.size,
        unit.points,
        mode,
        hh3_outcome(target, result),
        target.models,
        tuple(Choice(c["model"], c["count"], c["weapon"], {}) for c in chosen),
        tuple(result.get("applied", [])),
        not_modelled,
        dict(reasons) if isinstance(reasons, Mapping) else {},
    )


def hh3_shooting(unit: FieldedUnit, target: Hh3Target) -> UnitAttackResult:
    """A 3rd-edition unit's shooting at ``target`` (see the module docstring)."""
    return _attack(unit, target, "shooting")


def hh3_melee(unit: FieldedUnit, target: Hh3Target) -> UnitAttackResult:
    """A 3rd-edition unit's strikes at ``target`` in one round, charging, the target not striking back."""
    return _attack(unit, target, "melee")


def clear_cache() -> None:
    """Forget the door's results kept for repeated volleys (a benchmark's cold run)."""
    _door.cache_clear()
