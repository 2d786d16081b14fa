"""Names in a ``praetor calc`` document: every catalog name a scenario gives turned into the block it names.

The names themselves are looked up in :mod:`praetor_analysis.units.names`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.units import UNIT_STAT_KEYS, WEAPON_STAT_KEYS, resolve_unit, resolve_weapon

__all__ = ["names_nothing", "resolve_names"]


def _volley_names(data: Mapping[str, Any], prefix: str) -> Mapping[str, Any]:
    """A volley's (or a scenario's) weapon and attacker names replaced by their blocks; ``data`` itself when it
    names neither."""
    named = {}
    if "weapon" in data:
        weapon = resolve_weapon(data["weapon"], f"{prefix}weapon")
        if weapon is not data["weapon"]:
            named["weapon"] = weapon
    if "attacker" in data:
        attacker = resolve_unit(data["attacker"], f"{prefix}attacker")
        if attacker is not data["attacker"]:
            named["attacker"] = attacker
    return {**data, **named} if named else data


def _profile(value: Any, stat_keys: frozenset[str]) -> bool:
    """True when ``value`` is no name to resolve for certain: None, or a dict without a ``name`` or with one of
    ``stat_keys`` (the block's own profile)."""
    return value is None or (type(value) is dict and ("name" not in value or not stat_keys.isdisjoint(value)))


def names_nothing(data: Mapping[str, Any]) -> bool:
    """True when the document names nothing for certain (:func:`resolve_names` returns it itself): its weapon,
    attacker and target profiles or left out (``units.names.is_name_block``'s test), no ``target_weapon`` or
    ``firing_units``."""
    return (
        _profile(data.get("weapon"), WEAPON_STAT_KEYS)
        and _profile(data.get("attacker"), UNIT_STAT_KEYS)
        and _profile(data.get("target"), UNIT_STAT_KEYS)
        and "target_weapon" not in data
        and "firing_units" not in data
    )


def resolve_names(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A scenario with every name (weapon, target, attacker, target_weapon, the firing units' volleys)
    replaced by the block it names; the document itself is not changed, and is returned itself when it names
    nothing.

    Raises:
        ScenarioError: An unknown or ambiguous name, naming the field.
    """
    if names_nothing(data):
        return data
    out = _volley_names(data, "")
    named: dict[str, Any] = {}
    if "target" in out:
        target = resolve_unit(out["target"], "target")
        if target is not out["target"]:
            named["target"] = target
    if "target_weapon" in out:
        named["target_weapon"] = resolve_weapon(out["target_weapon"], "target_weapon")
    units = out.get("firing_units")
    if isinstance(units, list):
        named["firing_units"] = [
            [_volley_names(v, f"firing_units[{i}][{j}].") if isinstance(v, Mapping) else v for j, v in enumerate(u)]
            if isinstance(u, list)
            else u
            for i, u in enumerate(units)
        ]
    return {**out, **named} if named else out
