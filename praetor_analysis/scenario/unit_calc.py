"""A scenario with a fielded unit in it: a datasheet attacker, or a datasheet or a roster's unit as the target.

``{"attacker": {"name": "Tactical Squad", "loadout": [...]}, "target": ..., "mode": ...}``: the unit
shoots or fights with its own wargear (:mod:`praetor_analysis.units.attack`). A target may be a
datasheet too, ``{"name": "Tactical Squad", "size": 10, "loadout": [...]}``, or a roster's unit,
``{"roster": PATH, "unit": LABEL}``: it is fielded like an attacker and shot at as its models, read as
:func:`~praetor_analysis.units.target.as_target` reads it (the profile most of its models share),
with the unit's points (:func:`target_of`).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError, show_value
from praetor_analysis.prob import BoundedMemo, frozen_key
from praetor_analysis.profiles import Weapon, unit_from_mapping
from praetor_analysis.scenario.document import target_of_block
from praetor_analysis.scenario.document_names import resolve_names
from praetor_analysis.scenario.echo import unit_echo
from praetor_analysis.scenario.fields import check_scenario_fields, check_unit_fields
from praetor_analysis.units import (
    DATASHEET_FIELDS,
    ROSTER_FIELDS,
    FieldedUnit,
    as_target,
    fielded_unit,
    is_datasheet,
    melee,
    read_roster_units,
    resolve_weapon,
    roster_unit,
    shooting,
    split_modifiers,
)

__all__ = [
    "ROSTER_ATTACKER_FIELDS",
    "TARGET_EXTRA_FIELDS",
    "TARGET_UNIT_FIELDS",
    "UNIT_FIELDS",
    "add_notes",
    "attacker_unit",
    "datasheet_unit",
    "fielded_target",
    "has_fielded_unit",
    "is_unit_attacker",
    "loadout_echo",
    "target_fielded",
    "target_of",
    "unit_calc",
]

UNIT_FIELDS = frozenset({"mode", "attacker", "target", "half_range", "target_weapon", "name"})
"""Fields of a scenario with a datasheet attacker."""
TARGET_EXTRA_FIELDS = frozenset({"wounds_taken", "second_weapon", "rules", "facing", "moved"})
"""Fields of any target that a fielded target keeps beside its own."""
TARGET_UNIT_FIELDS = frozenset({"name", "faction", "legion", "size", "models", "loadout"}) | TARGET_EXTRA_FIELDS
"""Fields of a datasheet target (``models`` read as ``size``, as for a datasheet attacker; ``wounds_taken``,
``second_weapon``, ``rules``, ``facing``, ``moved`` as for any target)."""


def _is_roster_block(value: Any) -> bool:
    """A block naming a roster's unit: ``{"roster": PATH, "unit": LABEL}``."""
    return isinstance(value, Mapping) and "roster" in value


def _is_unit_target(value: Any) -> bool:
    """A roster's unit, a datasheet name that names no standard target or unit profile, or a datasheet block
    with ``size``/``loadout``."""
    if _is_roster_block(value):
        return True
    if isinstance(value, Mapping) and ("size" in value or "loadout" in value):
        return is_datasheet({k: v for k, v in value.items() if k in ("name", "faction")})
    if not is_datasheet(value):
        return False
    try:
        resolve_names({"target": value if isinstance(value, str) else {"name": value["name"]}})
    except ScenarioError:
        return True
    return False


def is_unit_attacker(data: Any) -> bool:
    """Whether a scenario's attacker is a datasheet or a roster's unit attacking with its own wargear (no
    ``weapon``)."""
    return (
        isinstance(data, Mapping)
        and "weapon" not in data
        and "firing_units" not in data
        and (is_datasheet(data.get("attacker")) or _is_roster_block(data.get("attacker")))
    )


ROSTER_ATTACKER_FIELDS = ROSTER_FIELDS | {"name", "charging", "disordered", "two_weapons", "modifiers"}
"""Fields of a roster's unit as the attacker (its models and wargear are the roster's)."""


def _roster_edition(path: Any) -> str:
    """The edition of the roster file at ``path`` (``""`` when it cannot be read)."""
    from praetor_analysis.bsdata import read_roster

    try:
        return read_roster(Path(str(path))).edition
    except (OSError, PraetorError):
        return ""


def _hh2_roster_unit(block: Mapping[str, Any], field: str) -> tuple[str, FieldedUnit]:
    """A roster's unit in a 2nd-edition scenario (a 3rd-edition roster's is refused in one line naming the file)."""
    try:
        label, unit = roster_unit(block, field)
        edition = unit.edition
    except ScenarioError:
        if _roster_edition(block.get("roster")) != "hh3":
            raise
        edition = "hh3"  # a label the 3rd-edition roster lacks: the edition is the first thing wrong
    if edition != "hh2":
        name = Path(str(block.get("roster"))).name
        raise ScenarioError(
            f"{field}.roster: {name}: a 3rd-edition (hh3) roster's unit in a 2nd-edition scenario "
            '(add "edition": "hh3")',
            field=f"{field}.roster",
        )
    return label, unit


def attacker_unit(value: Any, field: str = "attacker") -> FieldedUnit:
    """The unit a datasheet attacker block fields (:func:`~praetor_analysis.units.fielded.fielded_unit`), or a
    roster's unit ``{"roster", "unit"}`` with its flags and ``modifiers``, labelled as ``praetor roster`` labels it.

    Raises:
        ScenarioError: A bad block; a field a roster's unit does not take (its size and loadout are the roster's).
    """
    if not _is_roster_block(value):
        return datasheet_unit(value, field)
    unknown = sorted(set(value) - ROSTER_ATTACKER_FIELDS)
    if unknown:
        raise ScenarioError(
            f"{field}.{unknown[0]}: not a field of a roster's unit ({', '.join(sorted(ROSTER_ATTACKER_FIELDS))}: "
            "its models and wargear are the roster's)",
            field=f"{field}.{unknown[0]}",
        )
    label, unit = _hh2_roster_unit(value, field)
    if isinstance(value.get("name"), str):
        label = value["name"]
    unit = replace(unit, datasheet=label, modifiers=split_modifiers(value, field)[1])
    return unit.with_flags(**{k: value[k] for k in ("charging", "disordered", "two_weapons") if k in value})


_FIELDED: BoundedMemo[FieldedUnit] = BoundedMemo(1024)


def datasheet_unit(value: Any, field: str) -> FieldedUnit:
    """``fielded_unit(value, field)`` of a datasheet block, memoised by the block's own key (``frozen_key``):
    the unit is an immutable record of the block and the shipped catalog alone, so an array of named units
    fields each distinct one once (a refusal is never held)."""
    key = frozen_key(value)
    if key is None:
        return fielded_unit(value, field)
    # fielded from a copy: the unit held keeps nothing of the caller's block (its loadout list, say)
    return _FIELDED.get((key, field), lambda: fielded_unit(copy.deepcopy(value), field))


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
    return is_unit_attacker(data) or (
        isinstance(data, Mapping) and "target" in data and _is_unit_target(data["target"])
    )


def fielded_target(unit: FieldedUnit, label: str | None = None, **extra: Any) -> dict[str, Any]:
    """A fielded unit as a target block (:func:`~praetor_analysis.units.target.as_target`), with its
    points; ``extra`` target fields added."""
    return {**as_target(unit, label).block, "points": unit.points, **extra}


def target_fielded(value: Any, field: str = "target") -> tuple[str | None, FieldedUnit] | None:
    """(its label, the fielded unit) when a scenario's ``target`` is a datasheet or a roster's unit, else None.

    Raises:
        ScenarioError: A field a datasheet or roster target does not take, or a bad block.
    """
    if not _is_unit_target(value):
        return None
    block: Mapping[str, Any] = {"name": value} if isinstance(value, str) else value
    label = None
    if _is_roster_block(block):
        allowed_fields = ROSTER_FIELDS | TARGET_EXTRA_FIELDS | {"name"}
        unknown = sorted(set(block) - allowed_fields)
        if unknown:
            allowed = ", ".join(sorted(allowed_fields))
            raise ScenarioError(f"{field}.{unknown[0]}: not a field of a roster's unit as target ({allowed})")
        label, unit = _hh2_roster_unit(block, field)
        if isinstance(block.get("name"), str):
            label = block["name"]
    else:
        unknown = sorted(set(block) - TARGET_UNIT_FIELDS)
        if unknown:
            allowed = ", ".join(sorted(TARGET_UNIT_FIELDS))
            raise ScenarioError(f"{field}.{unknown[0]}: not a field of a datasheet target ({allowed})")
        unit = datasheet_unit({k: v for k, v in block.items() if k in DATASHEET_FIELDS or k == "models"}, field)
    return label, unit


def target_of(value: Any, field: str = "target") -> tuple[Any, list[tuple[str, str]]]:
    """The target block a scenario's ``target`` stands for (a datasheet or a roster's unit fielded and read
    by :func:`~praetor_analysis.units.target.as_target`; any other value as given), and the notes of
    how a fielded target was read: ``(entry, why)``."""
    fielded = target_fielded(value, field)
    if fielded is None:
        return value, []
    label, unit = fielded
    block: Mapping[str, Any] = {"name": value} if isinstance(value, str) else value
    extra = {k: block[k] for k in TARGET_EXTRA_FIELDS if k in block}
    reading = as_target(unit, label, field)
    own = reading.block.get("rules", [])
    if isinstance(extra.get("rules"), list) and own:  # rules given are added to the unit's own
        extra["rules"] = [*own, *(r for r in extra["rules"] if r not in own)]
    why = "the engine resolves a target of one profile: the one most of its models share stands for all"
    notes = [(n, why) for n in reading.notes]
    return {**reading.block, "points": unit.points, **extra}, notes


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
        raise ScenarioError(
            f"{unknown[0]}: not used with a datasheet attacker (its wargear attacks; change it with attacker.loadout)"
        )
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
    if isinstance(attacker, Mapping) and _is_roster_block(attacker):  # the list's points: rated + not rated
        out["roster"] = read_roster_units(str(attacker["roster"])).account()
    return add_notes(out, notes)


def loadout_echo(unit: FieldedUnit) -> dict[str, Any]:
    """The result's ``attacker`` for a fielded unit: its name, faction, size and points, and each group of models
    (:func:`~praetor_analysis.scenario.echo.unit_echo` of its statline, with ``model`` and ``weapons``)."""
    groups = []
    for g in unit.groups:
        record = unit_from_mapping({**g.statline, "models": g.count}, field_name="attacker")
        groups.append({"model": g.model, **unit_echo(record), "weapons": [str(w.get("name")) for w in g.weapons]})
    legion = {"legion": unit.legion} if unit.legion else {}
    return {"name": unit.datasheet, "faction": unit.faction, **legion, "models": unit.size, "points": unit.points,
            "groups": groups}  # fmt: skip
