"""A scenario's ``target`` that names a unit as fielded: a datasheet (with its size and loadout) or a roster's unit,
read as the target block it stands for (:func:`target_of`), with the notes of how it was read.

The block is read by :func:`~praetor_analysis.units.target.as_target` (one profile stands for the unit) and
carries the unit's points; the fields any target takes (:data:`TARGET_EXTRA_FIELDS`) are kept beside it.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.prob import BoundedMemo, frozen_key
from praetor_analysis.units.datasheet import DATASHEET_FIELDS, is_datasheet
from praetor_analysis.units.fielded import fielded_unit
from praetor_analysis.units.names import resolve_unit
from praetor_analysis.units.records import FieldedUnit
from praetor_analysis.units.target import ROSTER_FIELDS, as_target, roster_unit

__all__ = [
    "TARGET_EXTRA_FIELDS",
    "TARGET_UNIT_FIELDS",
    "datasheet_unit",
    "hh2_roster_unit",
    "is_roster_block",
    "is_unit_target",
    "target_fielded",
    "target_of",
]

TARGET_EXTRA_FIELDS = frozenset({"wounds_taken", "second_weapon", "rules", "facing", "moved"})
"""Fields of any target that a fielded target keeps beside its own."""
TARGET_UNIT_FIELDS = frozenset({"name", "faction", "legion", "size", "models", "loadout"}) | TARGET_EXTRA_FIELDS
"""Fields of a datasheet target (``models`` read as ``size``, as for a datasheet attacker; ``wounds_taken``,
``second_weapon``, ``rules``, ``facing``, ``moved`` as for any target)."""

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


def is_roster_block(value: Any) -> bool:
    """A block naming a roster's unit: ``{"roster": PATH, "unit": LABEL}``."""
    return isinstance(value, Mapping) and "roster" in value


def is_unit_target(value: Any) -> bool:
    """A roster's unit, a datasheet name that names no standard target or unit profile, or a datasheet block
    with ``size``/``loadout``."""
    if is_roster_block(value):
        return True
    if isinstance(value, Mapping) and ("size" in value or "loadout" in value):
        return is_datasheet({k: v for k, v in value.items() if k in ("name", "faction")})
    if not is_datasheet(value):
        return False
    try:
        resolve_unit(value if isinstance(value, str) else {"name": value["name"]}, "target")
    except ScenarioError:
        return True
    return False


def _roster_edition(path: Any) -> str:
    """The edition of the roster file at ``path`` (``""`` when it cannot be read)."""
    from praetor_analysis.bsdata import read_roster

    try:
        return read_roster(Path(str(path))).edition
    except (OSError, PraetorError):
        return ""


def hh2_roster_unit(block: Any, field: str) -> tuple[str, FieldedUnit]:
    """A roster's unit in a 2nd-edition scenario (a 3rd-edition roster's is refused in one line naming the file)."""
    try:
        label, unit = roster_unit(block.get("roster"), block.get("unit"), field)
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


def target_fielded(value: Any, field: str = "target") -> tuple[str | None, FieldedUnit] | None:
    """(its label, the fielded unit) when a scenario's ``target`` is a datasheet or a roster's unit, else None.

    Raises:
        ScenarioError: A field a datasheet or roster target does not take, or a bad block.
    """
    if not is_unit_target(value):
        return None
    block: Mapping[str, Any] = {"name": value} if isinstance(value, str) else value
    label = None
    if is_roster_block(block):
        allowed_fields = ROSTER_FIELDS | TARGET_EXTRA_FIELDS | {"name"}
        unknown = sorted(set(block) - allowed_fields)
        if unknown:
            allowed = ", ".join(sorted(allowed_fields))
            raise ScenarioError(f"{field}.{unknown[0]}: not a field of a roster's unit as target ({allowed})")
        label, unit = hh2_roster_unit(block, field)
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
    own_block = reading.to_block()
    own = own_block.get("rules", [])
    if isinstance(extra.get("rules"), list) and own:  # rules given are added to the unit's own
        extra["rules"] = [*own, *(r for r in extra["rules"] if r not in own)]
    why = "the engine resolves a target of one profile: the one most of its models share stands for all"
    notes = [(n, why) for n in reading.notes]
    return {**own_block, "points": unit.points, **extra}, notes
