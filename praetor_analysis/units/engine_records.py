"""Typed rows -> the engine's records: a 2nd-edition statline (or a target row) to a
:class:`~praetor_analysis.profiles.Unit` of some models, a weapon row to a :class:`~praetor_analysis.profiles.Weapon`,
and the two to a :class:`~praetor_analysis.engine.Volley`, directly (no block between them).

The readings and refusals are those of the door's block readers (``profiles.unit_from_mapping``,
``profiles.Weapon.from_mapping``): the same checks of each characteristic as printed, the same one-line errors
naming ``attacker.<field>`` (or ``target.<field>``). Records are immutable, so each is built once (a bounded
memo keyed by the frozen rows).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import cast

from praetor_analysis.engine import Volley
from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError, scenario_error_of, show_value
from praetor_analysis.prob import parse_dice
from praetor_analysis.profiles import (
    MAX_MODELS,
    Armour,
    Unit,
    Weapon,
    check_text,
    is_vehicle_type,
    parse_rules,
    parse_save,
    parse_stat,
    with_type_rules,
)
from praetor_analysis.rules import Role
from praetor_analysis.units.block_records import check_target
from praetor_analysis.units.catalog_rows import Cell, UnitRow, WeaponRow
from praetor_analysis.units.modifiers import NO_MODIFIERS, Modifiers
from praetor_analysis.units.records import Statline

__all__ = ["check_weapon_mode", "clear_records", "target_unit", "unit_record", "volley_record", "weapon_record"]

#: The characteristics of a statline and their bounds (lowest, highest), as the door reads them.
_BOUNDS = {"WS": (0, 10), "BS": (0, 10), "S": (0, 10), "T": (1, 10), "W": (0, 20), "I": (0, 10), "A": (0, 20),
           "Ld": (0, 12)}  # fmt: skip
#: What a target row gives a target (a Vehicle's, any other unit's): ``UnitRow.to_block``'s keys.
_VEHICLE_TARGET = frozenset({"WS", "BS", "S", "I", "A", "Front", "Side", "Rear", "HP", "Invulnerable", "Cover"})
_TARGET = frozenset({"WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Invulnerable", "Cover"})
#: A vehicle's armour: the record's attribute and bounds of each.
_ARMOUR = {"Front": ("front", 9, 15), "Side": ("side", 9, 15), "Rear": ("rear", 9, 15), "HP": ("hp", 1, 30)}


@lru_cache(maxsize=8192)
def weapon_record(row: WeaponRow, field: str = "weapon") -> Weapon:
    """The engine's weapon of a profile row (an empty name is ``weapon``, an empty characteristic ``-``)."""
    return Weapon.from_profile(
        row.name or "weapon",
        "-" if row.range is None else row.range,
        "-" if row.strength is None else row.strength,
        "-" if row.ap is None else row.ap,
        row.type,
        field_name=field,
    )


def unit_record(statline: Statline, models: int, field: str = "attacker") -> Unit:
    """The engine's unit of ``models`` models of ``statline``, read as ``field`` (a target's Wounds are at least 1).

    Raises:
        ProfileError: A characteristic the door would refuse, naming ``field.<characteristic>``.
    """
    try:
        return _unit_record(statline, models, field)
    except TypeError:  # a value that is no characteristic (a list): read, and refused, without the memo
        return _unit_record.__wrapped__(statline, models, field)


@lru_cache(maxsize=8192)
def _unit_record(statline: Statline, models: int, field: str) -> Unit:
    stats = {k: statline.stat(k) for k in (*_BOUNDS, "Save", "Invulnerable", *_ARMOUR)}
    unit = _unit(statline.unit_type, statline.name or field, models, stats, statline.rules, field)
    if statline.charging or statline.two_weapons or statline.disordered:
        return replace(
            unit, charging=statline.charging, two_weapons=statline.two_weapons, disordered=statline.disordered
        )
    return unit


@lru_cache(maxsize=4096)
def target_unit(row: UnitRow, models: int | None = None) -> Unit:
    """The engine's target of a unit or standard-target row, as the door reads the row's ``target`` block
    (:meth:`~praetor_analysis.units.UnitRow.to_block`): a Vehicle with its armour, hull points and the WS, BS, S, I
    and A it may have, any other unit its statline; ``models`` default the row's, else 1; checked as a target
    (:func:`~praetor_analysis.units.check_target`).

    Raises:
        ProfileError, ScenarioError: A characteristic the door would refuse, or no target (naming ``target.<field>``).
    """
    if models is None:
        models = 1 if row.models is None else int(row.models)
    keys = _VEHICLE_TARGET if row.is_vehicle else _TARGET
    stats = {k: row.stat(k) if k in keys else None for k in (*_BOUNDS, "Save", "Invulnerable", "Cover", *_ARMOUR)}
    unit = _unit(row.unit_type or "Infantry", row.target_name, models, stats, row.rules, "target")
    return check_target(unit)


def _unit(
    unit_type: str | None,
    name: str,
    models: int,
    stats: dict[str, Cell | None],
    rules: tuple[str, ...],
    field: str,
) -> Unit:
    """A unit of ``models`` models of characteristics as printed, read and checked as the door reads a unit block
    (``profiles.unit_from_mapping``) under ``field``."""
    count = int(parse_stat(models, f"{field}.models", lo=0, hi=MAX_MODELS) or 0)
    kind = "Infantry" if unit_type is None else unit_type
    check_text(kind, f"{field}.Unit Type")
    check_text(name, f"{field}.name")
    given = [k for k in _ARMOUR if stats.get(k) is not None]
    if given and not is_vehicle_type(kind):
        raise ProfileError(f"{field}.{given[0]}: only a Vehicle has {given[0]!r}, got Unit Type {show_value(kind)}")
    armour = None
    if given:
        armour = Armour(**{attr: parse_stat(stats.get(key), f"{field}.{key}", lo=lo, hi=hi, allow_none=True)
                           for key, (attr, lo, hi) in _ARMOUR.items()})  # fmt: skip
    low_w = 1 if field.endswith("target") else 0
    read = {
        key: parse_stat(stats.get(key), f"{field}.{key}", lo=low_w if key == "W" else lo, hi=hi, allow_none=True)
        for key, (lo, hi) in _BOUNDS.items()
    }
    return Unit(
        name=name,
        unit_type=kind,
        models=count,
        WS=read["WS"],
        BS=read["BS"],
        S=read["S"],
        T=read["T"],
        W=read["W"],
        I=read["I"],
        A=read["A"],
        Ld=read["Ld"],
        save=parse_save(stats.get("Save"), f"{field}.Save"),
        invulnerable=parse_save(stats.get("Invulnerable"), f"{field}.Invulnerable"),
        cover=parse_save(stats.get("Cover"), f"{field}.Cover"),
        rules=with_type_rules(parse_rules(list(rules), field_name=f"{field}.rules"), kind),
        armour=armour,
    )


def clear_records() -> None:
    """Forget the records built (a test that changes the rule tables)."""
    weapon_record.cache_clear()
    _unit_record.cache_clear()
    target_unit.cache_clear()
    _volley_record.cache_clear()


def volley_record(
    weapon: Weapon,
    attacker: Unit,
    *,
    mode: str = "shooting",
    attacks: str | int | float | None = None,
    half_range: bool = False,
    modifiers: Modifiers = NO_MODIFIERS,
) -> Volley:
    """The volley of ``weapon`` fired (or struck with) by ``attacker`` with its ``modifiers``, built from the
    records with the checks the door makes of a volley block's (:func:`~praetor_analysis.units.volley_of_blocks`)
    that records can fail: at least one model, an attack count, a weapon of the mode.

    Raises:
        ScenarioError: One line naming the field, as ``praetor calc`` of that volley's block says it.
    """
    try:
        try:
            return _volley_record(weapon, attacker, mode, attacks, half_range, modifiers)
        except TypeError:  # an attack count that is no dice text (a list): read, and refused, without the memo
            return _volley_record.__wrapped__(weapon, attacker, mode, attacks, half_range, modifiers)
    except ScenarioError:
        raise
    except PraetorError as exc:
        raise scenario_error_of(exc) from None


@lru_cache(maxsize=8192)
def _volley_record(
    weapon: Weapon, attacker: Unit, mode: str, attacks: str | int | float | None, half_range: bool, modifiers: Modifiers
) -> Volley:
    weapon, attacker = modifiers.apply_weapon(weapon), modifiers.apply_unit(attacker)
    if attacker.models < 1:
        raise ScenarioError(f"attacker.models: must be at least 1, got {attacker.models}")
    # a number of attacks as the door reads it (a whole float is a count; any other is refused there)
    shots = parse_dice(cast("str | int", attacks), field="attacks") if attacks is not None else None
    check_weapon_mode(weapon, mode)
    return Volley(weapon=weapon, attacker=attacker, mode=mode, attacks=shots, half_range=half_range)


def check_weapon_mode(weapon: Weapon, mode: str, prefix: str = "") -> None:
    """Refuse a weapon fired or struck in a mode it has no part in (a melee weapon shot, a ranged one but a
    pistol struck, a template struck), naming ``prefix + weapon.<field>``."""
    if mode == "melee" and not weapon.is_melee and weapon.type.kind not in {None, "Pistol"}:
        raise ScenarioError(f'{prefix}weapon.Type: {weapon.type.text!r} is not a melee weapon for "mode": "melee"')
    if mode == "shooting" and weapon.is_melee:
        raise ScenarioError(f'{prefix}weapon.Type: {weapon.type.text!r} is a melee weapon; use "mode": "melee"')
    if mode == "melee" and weapon.plays(Role.TEMPLATE):
        raise ScenarioError(
            f"{prefix}weapon.Range: a {weapon.range.template} range is fired, never struck with in melee",
            field=f"{prefix}weapon.Range",
            value=weapon.range.template,
        )
