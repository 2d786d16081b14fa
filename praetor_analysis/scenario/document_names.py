"""Names in a ``praetor calc`` document: every catalog name a scenario gives turned into the block it names.

The names themselves are looked up in :mod:`praetor_analysis.units.names`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.units import resolve_unit, resolve_weapon

__all__ = ["resolve_names"]


def _volley_names(data: Mapping[str, Any], prefix: str) -> dict[str, Any]:
    out = dict(data)
    if "weapon" in out:
        out["weapon"] = resolve_weapon(out["weapon"], f"{prefix}weapon")
    if "attacker" in out:
        out["attacker"] = resolve_unit(out["attacker"], f"{prefix}attacker")
    return out


def resolve_names(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """A scenario with every name (weapon, target, attacker, target_weapon, the firing units' volleys)
    replaced by the block it names; the document itself is not changed.

    Raises:
        ScenarioError: An unknown or ambiguous name, naming the field.
    """
    out = _volley_names(data, "")
    if "target" in out:
        out["target"] = resolve_unit(out["target"], "target")
    if "target_weapon" in out:
        out["target_weapon"] = resolve_weapon(out["target_weapon"], "target_weapon")
    units = out.get("firing_units")
    if isinstance(units, list):
        out["firing_units"] = [
            [_volley_names(v, f"firing_units[{i}][{j}].") if isinstance(v, Mapping) else v for j, v in enumerate(u)]
            if isinstance(u, list)
            else u
            for i, u in enumerate(units)
        ]
    return out
