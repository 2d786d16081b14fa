"""Blocks (a catalog row's or a roster profile's, :mod:`praetor_analysis.units.blocks`) -> checked, typed records.

A block is parsed once (:func:`~praetor_analysis.units.blocks.parse_cached`: the records are immutable); a
target is refused on one line when it could not be one (no model, a squadron of vehicles, no Toughness or
Wounds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.errors import ScenarioError
from praetor_analysis.profiles import Unit, Weapon, unit_from_mapping
from praetor_analysis.units.blocks import parse_cached

__all__ = ["STRIKING", "check_target", "check_weapon_given", "parse_unit_block", "parse_weapon_block", "target_record"]

STRIKING = frozenset({"charging", "two_weapons", "disordered"})
"""Fields of an attacker that act in melee alone (how it strikes)."""


def parse_weapon_block(data: Any, field_name: str = "weapon") -> Weapon:
    """A weapon block of a scenario (a profile mapping) -> Weapon; an empty block is refused (it would be
    read as an unarmed blow or shot, which nothing asked for)."""
    check_weapon_given(data, field_name)
    return parse_cached("weapon", data, field_name, lambda: Weapon.from_mapping(data, field_name=field_name))


def check_weapon_given(data: Any, field_name: str) -> None:
    """Refuse a weapon block with no characteristic and no name (``{}``)."""
    if isinstance(data, Mapping) and not data:
        raise ScenarioError(
            f"{field_name}: an empty weapon block; give a profile (Range, Strength, AP, Type) or a weapon name",
            field=field_name,
            value={},
        )


def parse_unit_block(data: Any, field_name: str) -> Unit:
    """An attacker or target block of a scenario (a profile mapping) -> Unit."""
    return parse_cached("unit", data, field_name, lambda: unit_from_mapping(data, field_name=field_name))


def check_target(target: Unit) -> Unit:
    """``target`` when it can be shot or struck: at least one model, one Vehicle, Toughness and Wounds for any
    other unit; else refused naming the field."""
    if target.models < 1:
        raise ScenarioError(f"target.models: must be at least 1, got {target.models}")
    if target.is_vehicle and target.models != 1:
        raise ScenarioError(
            f"target.models: a Vehicle target is one vehicle (squadrons are not modelled), got {target.models}",
            field="target.models",
            value=target.models,
        )
    if not target.is_vehicle:
        for key in ("T", "W"):
            if getattr(target, key) is None:
                raise ScenarioError(f"target.{key}: required for a unit that is not a Vehicle, got None")
        if target.W is not None and target.W < 1:
            raise ScenarioError(f"target.W: must be at least 1, got {target.W}")
    return target


def target_record(block: Any) -> Unit:
    """The target Unit of a target block (:func:`check_target`'s checks)."""
    return check_target(parse_unit_block(block, "target"))
