"""Catalog and roster rows -> docs/scenario.md blocks (``weapon``, ``target``, ``attacker``).

A row is a :class:`pandas.Series` of :func:`~praetor_analysis.catalog.load_weapons`,
:func:`~praetor_analysis.catalog.load_units` or :func:`~praetor_analysis.catalog.load_targets`, or any
mapping with the same characteristic names (a roster statline from
:class:`~praetor_analysis.bsdata.roster.ModelCount` works too). Values are passed on as printed; empty cells are
left out, so the scenario parser applies its own defaults and reports bad values by field name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from praetor_analysis.prob import BoundedMemo, frozen_key
from praetor_analysis.profiles import is_vehicle_type

__all__ = [
    "attacker_block",
    "frame_rows",
    "is_vehicle_row",
    "parse_cached",
    "row_id",
    "target_block",
    "weapon_block",
]

_UNIT_STATS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Invulnerable")
_TARGET_STATS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Invulnerable", "Cover")
_VEHICLE_STATS = ("WS", "BS", "S", "I", "A", "Front", "Side", "Rear", "HP", "Invulnerable", "Cover")


def row_value(row: Mapping[str, Any] | Any, key: str) -> Any:
    """``row[key]`` with empty strings, None and NaN read as missing (None)."""
    try:
        value = row[key]
    except (KeyError, IndexError):
        return None
    if value is None:
        return None
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, str) and not value.strip():
        return None
    return value.strip() if isinstance(value, str) else value


def frame_rows(frame: Any) -> list[dict[str, Any]]:
    """A DataFrame's rows as dicts of Python values: ``frame.to_dict("records")``, column by column (faster)."""
    columns = list(frame.columns)
    if not columns:
        return [{} for _ in range(len(frame))]
    values = zip(*(frame[c].tolist() for c in columns), strict=True)
    return [dict(zip(columns, row, strict=True)) for row in values]


def _plain(value: Any) -> Any:
    """numpy scalars -> Python numbers (the blocks must be JSON-serialisable)."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def row_id(row: Mapping[str, Any] | Any, fallback: Any = "") -> str:
    """The profile id of a catalog row (``profile_id``), else ``fallback`` as text."""
    pid = row_value(row, "profile_id")
    return str(pid) if pid is not None else str(fallback)


def is_vehicle_row(row: Mapping[str, Any] | Any) -> bool:
    """True when the row's ``Unit Type`` contains Vehicle (Vehicles and Knights: armour and hull points)."""
    return is_vehicle_type(row_value(row, "Unit Type"))


def weapon_block(row: Mapping[str, Any] | Any) -> dict[str, Any]:
    """A docs/scenario.md ``weapon`` block from a weapon row.

    Args:
        row: A row of :func:`~praetor_analysis.catalog.load_weapons` or a roster weapon profile
            (``name``, ``Range``, ``Strength``, ``AP``, ``Type``; ``Type_clean`` is preferred when present).

    Returns:
        ``{"name", "Range", "Strength", "AP", "Type"}`` with the values as printed (``AP`` ``"-"`` when empty).
    """
    type_text = row_value(row, "Type_clean")
    if type_text is None:
        type_text = row_value(row, "Type")
    block: dict[str, Any] = {"name": str(row_value(row, "name") or "weapon")}
    for key in ("Range", "Strength", "AP"):
        value = row_value(row, key)
        block[key] = "-" if value is None else _plain(value)
    block["Type"] = "" if type_text is None else str(type_text)
    return block


def _models(row: Mapping[str, Any] | Any, models: int | None) -> int:
    if models is not None:
        return int(models)
    value = row_value(row, "models")
    return 1 if value is None else int(value)


def _rules(row: Mapping[str, Any] | Any) -> list[str] | None:
    rules = row_value(row, "rules")
    if rules is None:
        return None
    if isinstance(rules, str):
        return [r.strip() for r in rules.split(";") if r.strip()]
    return list(rules)


def target_block(row: Mapping[str, Any] | Any, models: int | None = None) -> dict[str, Any]:
    """A docs/scenario.md ``target`` block from a unit or target row.

    A row whose ``Unit Type`` contains Vehicle gives ``Front``, ``Side``, ``Rear``, ``HP`` (and
    ``Invulnerable``/``Cover``, and a Walker's or Knight's ``WS BS S I A``, when present: it is hit on the
    Weapon Skill chart in melee); any other row its statline ``WS BS S T W I A Ld Save Invulnerable``
    (``Cover`` when present). ``rules`` is copied from a ``rules`` column (a list, or a
    ``;``-separated string) when there is one.

    Args:
        row: A row of :func:`~praetor_analysis.catalog.load_targets` / ``load_units``, or a statline mapping.
        models: Model count; default the row's ``models`` column, else 1.

    Returns:
        The block, values as printed (``"3+"``), empty cells left out.
    """
    label = row_value(row, "archetype") or row_value(row, "name") or "target"
    block: dict[str, Any] = {
        "name": str(label),
        "Unit Type": str(row_value(row, "Unit Type") or "Infantry"),
        "models": _models(row, models),
    }
    for key in _VEHICLE_STATS if is_vehicle_row(row) else _TARGET_STATS:
        value = row_value(row, key)
        if value is not None:
            block[key] = _plain(value)
    rules = _rules(row)
    if rules:
        block["rules"] = rules
    return block


def attacker_block(row: Mapping[str, Any] | Any, models: int = 1) -> dict[str, Any]:
    """A docs/scenario.md ``attacker`` block from a unit row or a statline mapping.

    Carries ``WS BS S T W I A Ld Save Invulnerable`` where given (T, W and Save matter for Gets Hot and
    a round of melee), the ``Unit Type``, and ``rules`` when the row has them.

    Args:
        row: A row of :func:`~praetor_analysis.catalog.load_units`, a roster ``ModelCount.statline``, or
            a plain mapping such as ``{"BS": 4, "WS": 4, "S": 4}``.
        models: Number of models firing or striking with the weapon.

    Returns:
        The block, values as printed, empty cells left out.
    """
    block: dict[str, Any] = {"models": int(models)}
    name = row_value(row, "name")
    if name is not None:
        block["name"] = str(name)
    unit_type = row_value(row, "Unit Type")
    if unit_type is not None:
        block["Unit Type"] = str(unit_type)
    for key in _UNIT_STATS:
        value = row_value(row, key)
        if value is not None:
            block[key] = _plain(value)
    rules = _rules(row)
    if rules:
        block["rules"] = rules
    return block


_PARSED: BoundedMemo[Any] = BoundedMemo(8192)


def parse_cached(kind: str, data: Any, field_name: str, build: Callable[[], Any]) -> Any:
    """Parse a weapon or unit block once: records are immutable, so sweeps reuse them (bounded memo)."""
    if not isinstance(data, Mapping):
        return build()
    frozen = frozen_key(data)  # equal JSON-like blocks share a key
    if frozen is None:
        return build()
    return _PARSED.get((kind, field_name, frozen), build)
