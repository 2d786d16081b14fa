"""Which fields of a unit block (an attacker's or a target's) act in which kind of scenario; any other given is
refused, naming it and the kind.

A unit's statline (:data:`STATLINE`) is accepted everywhere, since players paste statlines whole; the other
fields act by (kind, role) (:data:`UNIT_ACTS`; a datasheet attacker's block: :data:`DATASHEET_ACTS`). A field
given its neutral value (``false``, ``null``, ``0`` wounds taken) asks for nothing and is accepted; any other
value of a field that does not act is refused on one line (docs/scenario.md#fields-by-kind is the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.errors import ScenarioError, show_value
from praetor_analysis.units.block_records import STRIKING

__all__ = ["DATASHEET_ACTS", "STATLINE", "UNIT_ACTS", "check_unit_fields", "is_neutral", "why_unused"]

#: A unit's label, size and statline: accepted in every kind and role (armour values only on a Vehicle).
STATLINE = frozenset(
    {
        "name", "points", "models", "Unit Type", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save",
        "Invulnerable", "Cover", "Move", "M", "rules", "Front", "Side", "Rear", "HP",
    }
)  # fmt: skip
#: Flags that change a unit's melee attacks only.
_SIDE = STRIKING | {"wounds_taken", "second_weapon"}

#: Unit fields (beside :data:`STATLINE`) that act, by (kind, role). A sequence's volleys are shooting or
#: melee volleys; a datasheet attacker's own block is checked by ``units.datasheet``.
UNIT_ACTS: dict[tuple[str, str], frozenset[str]] = {
    ("shooting", "attacker"): STATLINE | {"modifiers"},
    ("shooting", "target"): STATLINE | {"wounds_taken", "facing"},
    ("marker", "attacker"): STATLINE | {"modifiers"},
    ("marker", "target"): STATLINE | {"wounds_taken", "facing"},
    ("melee", "attacker"): STATLINE | STRIKING | {"modifiers"},
    ("melee", "target"): STATLINE | {"wounds_taken", "facing", "moved"},
    ("melee round", "attacker"): STATLINE | _SIDE | {"modifiers"},
    ("melee round", "target"): STATLINE | _SIDE,
    ("datasheet shooting", "target"): STATLINE | {"wounds_taken", "facing"},
    ("datasheet melee", "target"): STATLINE | {"wounds_taken", "facing", "moved"},
    ("datasheet melee round", "target"): STATLINE | _SIDE,
}

#: Fields of a datasheet attacker block that act, by kind (``units.datasheet`` reads the block).
DATASHEET_ACTS: dict[str, frozenset[str]] = {
    "datasheet shooting": frozenset({"name", "faction", "legion", "size", "models", "loadout", "modifiers"})
    | {"roster", "unit"},
    "datasheet melee": frozenset({"name", "faction", "legion", "size", "models", "loadout", "modifiers"})
    | {"roster", "unit"}
    | STRIKING,
}

_NEUTRAL: dict[str, Any] = {"wounds_taken": 0}


def is_neutral(key: str, value: Any) -> bool:
    """True when ``value`` asks for nothing: ``null``, ``false``, or the field's own default."""
    return value is None or value is False or (key in _NEUTRAL and value == _NEUTRAL[key] and value is not True)


def why_unused(key: str) -> str:
    """Why a field does not act where it was given (the refusal's reason)."""
    if key in STRIKING:
        return "it changes melee attacks only"
    if key == "moved":
        return "it changes how a vehicle is hit in melee only"
    if key in {"half_range", "snap_shots"}:
        return "it changes shooting only"
    if key == "options":
        return "options are taken in a single attack or a volley, not in a whole round of combat yet"
    return "nothing reads it there"


def check_unit_fields(block: Any, kind: str, role: str, field_name: str) -> None:
    """Refuse a field of an attacker or target block that does not act for ``role`` in ``kind``; a
    Disordered Charge without a charge (it only takes the charge's bonus away)."""
    acts = DATASHEET_ACTS[kind] if role == "datasheet" else UNIT_ACTS.get((kind, role))
    if acts is None or not isinstance(block, Mapping):
        return
    for key in () if acts.issuperset(block) else sorted(block, key=str):  # every field acting: none refused
        if key not in acts and not is_neutral(key, block[key]):
            raise ScenarioError(
                f"{field_name}.{key}: not used for the {'attacker' if role == 'datasheet' else role} of a {kind} "
                f"scenario ({why_unused(key)}), got {show_value(block[key])}",
                field=f"{field_name}.{key}",
                value=block[key],
            )
    if block.get("disordered") is True and block.get("charging") is not True:
        raise ScenarioError(
            f'{field_name}.disordered: only used beside "charging": true (it takes the charge\'s bonus away)',
            field=f"{field_name}.disordered",
            value=True,
        )
