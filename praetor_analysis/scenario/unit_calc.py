"""A scenario with a fielded unit in it: a datasheet attacker, or a datasheet or a roster's unit as the target.

``{"attacker": {"name": "Tactical Squad", "loadout": [...]}, "target": ..., "mode": ...}``: the unit
shoots or fights with its own wargear (:mod:`praetor_analysis.units.attack`). A target may be a
datasheet too, ``{"name": "Tactical Squad", "size": 10, "loadout": [...]}``, or a roster's unit,
``{"roster": PATH, "unit": LABEL}``: it is fielded like an attacker and shot at as its models, read as
:func:`~praetor_analysis.units.target.as_target` reads it (the profile most of its models share),
with the unit's points (:func:`~praetor_analysis.units.target_of`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from praetor_analysis.errors import ProfileError, ScenarioError, show_value
from praetor_analysis.prob import BoundedMemo, frozen_key
from praetor_analysis.profiles import Weapon
from praetor_analysis.scenario.document import target_of_block
from praetor_analysis.scenario.document_names import resolve_names
from praetor_analysis.scenario.echo import unit_echo
from praetor_analysis.scenario.fields import check_scenario_fields, check_unit_fields
from praetor_analysis.units import (
    ROSTER_FIELDS,
    FieldedUnit,
    as_target,
    datasheet_unit,
    hh2_roster_unit,
    is_datasheet,
    is_roster_block,
    is_unit_target,
    melee,
    read_roster_units,
    resolve_weapon,
    shooting,
    split_modifiers,
    target_fielded,
    target_of,
    unit_record,
)

__all__ = [
    "ROSTER_ATTACKER_FIELDS",
    "UNIT_FIELDS",
    "add_notes",
    "attacker_unit",
    "fielded_target",
    "has_fielded_unit",
    "is_unit_attacker",
    "loadout_echo",
    "unit_calc",
]

UNIT_FIELDS = frozenset({"mode", "attacker", "target", "half_range", "target_weapon", "name"})
"""Fields of a scenario with a datasheet attacker."""
_INSTEAD = {"phase": '; its phase is "mode": write "mode": "melee" instead (or "shooting", the default)'}
"""What to write instead of a field a scenario with a datasheet or roster attacker does not use."""


def is_unit_attacker(data: Any) -> bool:
    """Whether a scenario's attacker is a datasheet or a roster's unit attacking with its own wargear (no
    ``weapon``)."""
    return (
        isinstance(data, Mapping)
        and "weapon" not in data
        and "firing_units" not in data
        and (is_datasheet(data.get("attacker")) or is_roster_block(data.get("attacker")))
    )


ROSTER_ATTACKER_FIELDS = ROSTER_FIELDS | {"name", "charging", "disordered", "two_weapons", "modifiers"}
"""Fields of a roster's unit as the attacker (its models and wargear are the roster's)."""


def attacker_unit(value: Any, field: str = "attacker") -> FieldedUnit:
    """The unit a datasheet attacker block fields (:func:`~praetor_analysis.units.fielded.fielded_unit`), or a
    roster's unit ``{"roster", "unit"}`` with its flags and ``modifiers``, labelled as ``praetor roster`` labels it.

    Raises:
        ScenarioError: A bad block; a field a roster's unit does not take (its size and loadout are the roster's).
    """
    if not is_roster_block(value):
        return datasheet_unit(value, field)
    unknown = sorted(set(value) - ROSTER_ATTACKER_FIELDS)
    if unknown:
        raise ScenarioError(
            f"{field}.{unknown[0]}: not a field of a roster's unit ({', '.join(sorted(ROSTER_ATTACKER_FIELDS))}: "
            "its models and wargear are the roster's)",
            field=f"{field}.{unknown[0]}",
        )
    label, unit = hh2_roster_unit(value, field)
    if isinstance(value.get("name"), str):
        label = value["name"]
    unit = replace(unit, datasheet=label, modifiers=split_modifiers(value, field)[1])
    return unit.with_flags(**{k: value[k] for k in ("charging", "disordered", "two_weapons") if k in value})


_TARGETS: BoundedMemo[Any] = BoundedMemo(1024)


def _named_target(block: Any) -> Any:
    """``resolve_names`` of a target block (a unit profile's name replaced by its block), memoised by the block's
    key: the catalog's row is read once per distinct block (the block returned is only read)."""
    key = frozen_key(block)
    if key is None:
        return resolve_names({"target": block})["target"]
    # resolved from a copy: the block held shares nothing with the caller's (its rules list, say)
    return _TARGETS.get(key, lambda: resolve_names({"target": copy.deepcopy(block)})["target"])


def has_fielded_unit(data: Any) -> bool:
    """Whether a scenario has a datasheet attacker (no ``weapon``) or a datasheet target."""
    return is_unit_attacker(data) or (isinstance(data, Mapping) and "target" in data and is_unit_target(data["target"]))


def fielded_target(unit: FieldedUnit, label: str | None = None, **extra: Any) -> dict[str, Any]:
    """A fielded unit as a target block (:func:`~praetor_analysis.units.target.as_target`), with its
    points; ``extra`` target fields added."""
    return {**as_target(unit, label).to_block(), "points": unit.points, **extra}


def add_notes(result: dict[str, Any], notes: list[tuple[str, str]]) -> dict[str, Any]:
    """``result`` with ``notes`` (``(entry, why)``) under ``not_modelled`` and ``reasons``."""
    if notes:
        result["not_modelled"] = [*result.get("not_modelled", []), *(n for n, _ in notes)]
        result["reasons"] = {**result.get("reasons", {}), **dict(notes)}
    return result


def unit_calc(data: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario whose ``attacker`` is a datasheet (the unit shoots or fights), or whose ``target`` is one.

    Fields with a datasheet attacker: ``attacker`` (the datasheet block), ``target``, ``mode``,
    ``half_range``, ``target_weapon`` (melee: the target fights back; ``target.second_weapon`` as in a
    round of melee). A scenario with a weapon and a datasheet target is the usual one, shot at the unit.

    Raises:
        ScenarioError: A field that is not used with a datasheet attacker, or any bad value.
    """
    attacker = data.get("attacker")
    unknown = sorted(set(data) - UNIT_FIELDS)
    if unknown:
        why = _INSTEAD.get(unknown[0], " (its wargear attacks; change it with attacker.loadout)")
        raise ScenarioError(f"{unknown[0]}: not used with a datasheet or roster attacker{why}", field=unknown[0])
    mode = data.get("mode", "shooting")
    if mode not in ("shooting", "melee"):
        raise ScenarioError(f'mode: expected "shooting" or "melee", got {mode!r}')
    if "target_weapon" in data and mode != "melee":
        raise ScenarioError(f'target_weapon: only used with "mode": "melee", got mode {mode!r}')
    kind = f"datasheet {mode}"
    check_scenario_fields(data, kind)
    check_unit_fields(attacker, kind, "datasheet", "attacker")
    target_value = data.get("target")
    if (
        isinstance(target_value, Mapping)
        and target_value.get("second_weapon") is not None
        and "target_weapon" not in data
    ):
        raise ScenarioError(
            f"target.second_weapon: not used for the target of a {kind} scenario (the target strikes back only "
            "with target_weapon)",
            field="target.second_weapon",
        )
    unit = attacker_unit(attacker)
    try:
        tvalue = data.get("target")
        second = tvalue.get("second_weapon") if isinstance(tvalue, Mapping) else None
        if isinstance(tvalue, Mapping) and "second_weapon" in tvalue:
            tvalue = {k: v for k, v in tvalue.items() if k != "second_weapon"}
        if tvalue is None:
            raise ScenarioError("target: required")
        block, notes = target_of(tvalue)
        resolved = _named_target(block)
        check_unit_fields(resolved, kind + (" round" if "target_weapon" in data else ""), "target", "target")
        target = target_of_block(resolved)
        if mode == "shooting":
            half = data.get("half_range", False)
            if not isinstance(half, bool):
                raise ScenarioError(f"half_range: expected true or false, got {half!r}")
            answer = shooting(unit, target, half_range=half)
        elif "target_weapon" not in data:
            answer = melee(unit, target)
        elif data["target_weapon"] is True:  # the target's own models fight back, group by group
            fielded = target_fielded(tvalue)
            if fielded is None:
                raise ScenarioError(
                    "target_weapon: true (the target fights back with its own wargear) needs a datasheet or a "
                    f"roster's unit as the target, got {show_value(data['target'])}",
                    field="target_weapon",
                )
            if second is not None:
                raise ScenarioError(
                    "target.second_weapon: not used when the target fights back with its own wargear "
                    "(target_weapon: true)",
                    field="target.second_weapon",
                )
            answer = melee(unit, target, target_unit=fielded[1])
        else:
            tw = resolve_weapon(data["target_weapon"], "target_weapon")
            weapons = [
                Weapon.from_mapping(w, field_name="target_weapon") for w in (tw if isinstance(tw, list) else [tw])
            ]
            second_w = None if second is None else Weapon.from_mapping(resolve_weapon(second, "target.second_weapon"))
            answer = melee(unit, target, target_weapon=weapons, target_second=second_w)
    except ProfileError as exc:
        raise ScenarioError(str(exc)) from None
    out = answer.to_dict()
    out["attacker"], out["target"] = loadout_echo(unit), unit_echo(target)
    if isinstance(attacker, Mapping) and is_roster_block(attacker):  # the list's points: rated + not rated
        out["roster"] = read_roster_units(str(attacker["roster"])).account()
    return add_notes(out, notes)


def loadout_echo(unit: FieldedUnit) -> dict[str, Any]:
    """The result's ``attacker`` for a fielded unit: its name, faction, size and points, and each group of models
    (:func:`~praetor_analysis.scenario.echo.unit_echo` of its statline, with ``model`` and ``weapons``)."""
    groups = []
    for g in unit.groups:
        record = unit_record(g.profile, g.count)
        groups.append({"model": g.model, **unit_echo(record), "weapons": [w.name for w in g.rows]})
    legion = {"legion": unit.legion} if unit.legion else {}
    return {"name": unit.datasheet, "faction": unit.faction, **legion, "models": unit.size, "points": unit.points,
            "groups": groups}  # fmt: skip
