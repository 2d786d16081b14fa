"""What a result says it computed: the attacker and target as resolved, in the form of a scenario block.

Every result of ``praetor calc`` carries ``attacker`` and ``target`` (docs/scenario.md#results): the name,
model count, Unit Type, characteristics (``"-"`` where the statline has none), saves as ``"3+"``, rules as
printed, a vehicle's armour, hull points and facing, and the wounds already taken; the target's
``formation`` when marker hits came from one. They are read back from the typed records the engine used,
so a name, a default or a ``profile_id`` shows what it resolved to (how many models, which statline).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.profiles import Unit

__all__ = ["unit_echo"]

_STATS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld")
_SAVES = (("Save", "save"), ("Invulnerable", "invulnerable"), ("Cover", "cover"))


def _save(value: int | None) -> str:
    return "-" if value is None else f"{value}+"


def unit_echo(unit: Unit, formation: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A unit record as a scenario block (see the module docstring); ``formation`` added when given."""
    out: dict[str, Any] = {"name": unit.name, "models": unit.models, "Unit Type": unit.unit_type}
    for key in _STATS:
        value = getattr(unit, key)
        out[key] = "-" if value is None else value
    for key, attr in _SAVES:
        out[key] = _save(getattr(unit, attr))
    out["rules"] = [str(r) for r in unit.rules]
    if unit.is_vehicle:
        armour = unit.armour
        for key, attr in (("Front", "front"), ("Side", "side"), ("Rear", "rear"), ("HP", "hp")):
            value = getattr(armour, attr) if armour is not None else None
            out[key] = "-" if value is None else value
        out["facing"] = unit.facing
    out["wounds_taken"] = unit.wounds_taken
    if formation is not None:
        out["formation"] = dict(formation)
    return out
