"""3rd-edition targets: a target block of that edition with its size, from the standard targets
(:func:`praetor_analysis.catalog.load_targets` ``("hh3")``), a row of them, or a 3rd-edition fielded unit
(:mod:`praetor_analysis.units.hh3_roster`). Read by the ratings, the matchup and the fire plan; attacked through the
edition 3 stages (:mod:`praetor_analysis.units.hh3_attack`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from praetor_analysis.catalog import load_targets
from praetor_analysis.profiles import HH3_UNIT_FIELDS as _UNIT_FIELDS
from praetor_analysis.units.records import FieldedUnit, ModelGroup

if TYPE_CHECKING:  # pandas is loaded by the first catalog read
    import pandas as pd

__all__ = [
    "TARGET_KEYS",
    "Hh3Target",
    "fights_in_melee",
    "hh3_standard_targets",
    "hh3_strikes",
    "hh3_target_of_group",
    "hh3_target_of_row",
    "hh3_target_of_unit",
]

_VEHICLE_FIELDS = ("Front Armour", "Side Armour", "Rear Armour", "HP", "Front", "Rear", "Side")
TARGET_KEYS = frozenset(_UNIT_FIELDS) | {"Cover"} | set(_VEHICLE_FIELDS) | {"INV", "Transport Capacity"}


@dataclass(frozen=True)
class Hh3Target:
    """A 3rd-edition target: its label, its block as the door reads it, its models and whether it is a vehicle
    (``models`` and ``is_vehicle`` are what the ratings read of any target)."""

    name: str
    block: Mapping[str, Any]
    models: int
    is_vehicle: bool

    @property
    def W(self) -> int | None:  # the name the 2nd edition's Unit gives it (the fire plan reads it)
        """The Wounds of one model (None: not given, or a vehicle)."""
        text = str(self.block.get("W", "")).strip()
        return int(text) if text.isdigit() else None


def _is_vehicle(block: Mapping[str, Any]) -> bool:
    return any(block.get(k) not in (None, "") for k in _VEHICLE_FIELDS)


def hh3_target_of_group(group: ModelGroup, models: int | None = None, label: str | None = None) -> Hh3Target:
    """A model group of a 3rd-edition fielded unit as a target (``models``: its size, default the group's; a
    vehicle is one model)."""
    block: dict[str, Any] = {k: v for k, v in group.hh3_statline.as_block().items() if k in TARGET_KEYS or k == "name"}
    vehicle = _is_vehicle(block)
    n = 1 if vehicle else (group.count if models is None else models)
    block["models"] = n
    return Hh3Target(label or str(block.get("name", group.model)), block, n, vehicle)


def hh3_strikes(group: ModelGroup) -> bool:
    """Whether a 3rd-edition model group strikes in melee: any model but a Vehicle, which strikes only when it is a
    Walker or a Knight."""
    kind = group.hh3_statline.unit_type.lower()
    return not hh3_target_of_group(group).is_vehicle or "knight" in kind or "walker" in kind


def hh3_target_of_unit(unit: FieldedUnit, label: str) -> tuple[Hh3Target, tuple[str, ...]]:
    """A 3rd-edition fielded unit as a target: the statline most of its models share, at the unit's size (a
    vehicle: one of them), and notes naming the models of other statlines read as that one."""
    main = max(unit.groups, key=lambda g: g.count)
    target = hh3_target_of_group(main, unit.size, label)
    shown = main.hh3_statline.as_block()  # the statline as printed (its profile's kind aside)
    others = sorted({g.model for g in unit.groups if g.hh3_statline.as_block() != shown})
    notes = (f"{label}: read as a target of {main.model} models ({', '.join(others)} alike)",) if others else ()
    return target, notes


def hh3_standard_targets() -> list[tuple[str, Hh3Target]]:
    """The 3rd edition's standard targets (:func:`praetor_analysis.catalog.load_targets` ``("hh3")``)."""
    return [hh3_target_of_row(row) for _, row in load_targets("hh3").iterrows()]


def hh3_target_of_row(row: pd.Series) -> tuple[str, Hh3Target]:
    """``(label, target)`` of a row of the 3rd edition's targets (``archetype``, ``models``, characteristics)."""
    block: dict[str, Any] = {k: str(row[k]) for k in row.index if k in TARGET_KEYS and str(row[k]).strip() not in
                             ("", "nan")}  # fmt: skip
    block["name"] = str(row.get("name") or row.get("archetype"))
    models = int(row.get("models") or 1)
    vehicle = _is_vehicle(block)
    block["models"] = 1 if vehicle else models
    label = str(row.get("archetype") or block["name"])
    return label, Hh3Target(label, block, int(block["models"]), vehicle)


def fights_in_melee(unit: FieldedUnit) -> bool:
    """Whether a model of a 3rd-edition ``unit`` strikes in melee (:func:`hh3_strikes`)."""
    return any(hh3_strikes(g) for g in unit.groups)
