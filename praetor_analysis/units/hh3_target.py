"""3rd-edition targets: a target block of that edition with its size, from the standard targets
(:func:`praetor_analysis.catalog.load_targets` ``("hh3")``), a row of them, or a 3rd-edition fielded unit
(:mod:`praetor_analysis.units.hh3_roster`). Read by the ratings, the matchup and the fire plan; attacked through the
edition 3 stages (:mod:`praetor_analysis.units.hh3_attack`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from praetor_analysis.bsdata import Hh3Statline
from praetor_analysis.catalog import load_targets
from praetor_analysis.profiles import HH3_UNIT_FIELDS as _UNIT_FIELDS
from praetor_analysis.profiles import Hh3Unit
from praetor_analysis.units.records import FieldedUnit, ModelGroup
from praetor_analysis.vehicles import Hh3VehicleTarget

if TYPE_CHECKING:  # pandas is loaded by the first catalog read
    import pandas as pd

__all__ = [
    "TARGET_KEYS",
    "Hh3Target",
    "fights_in_melee",
    "hh3_standard_targets",
    "hh3_strikes",
    "hh3_target_of_characteristics",
    "hh3_target_of_group",
    "hh3_target_of_row",
    "hh3_target_of_unit",
]

_VEHICLE_FIELDS = ("Front Armour", "Side Armour", "Rear Armour", "HP", "Front", "Rear", "Side")
TARGET_KEYS = frozenset(_UNIT_FIELDS) | {"Cover"} | set(_VEHICLE_FIELDS) | {"INV", "Transport Capacity"}


@dataclass(frozen=True)
class Hh3Target:
    """A 3rd-edition target: its label, its statline as printed, its models and whether it is a vehicle (``models``
    and ``is_vehicle`` are what the ratings read of any target; a vehicle is one model); ``given``: the record the
    door read of a target block given whole (a document's profile, read as it is, not from :attr:`statline`)."""

    name: str
    statline: Hh3Statline
    models: int
    is_vehicle: bool
    given: Hh3Unit | Hh3VehicleTarget | None = field(default=None, repr=False)

    @property
    def W(self) -> int | None:  # the name the 2nd edition's Unit gives it (the fire plan reads it)
        """The Wounds of one model (None: not given, or a vehicle)."""
        text = self.statline.wounds.strip()
        return int(text) if text.isdigit() else None

    def to_block(self) -> dict[str, Any]:
        """The target as a ``praetor calc`` document's target block (its printed characteristics a target reads,
        ``name`` and ``models``): what the door reads into the records the unit paths build from :attr:`statline`."""
        return {**printed(self.statline), "models": self.models}

    def sized(self, models: int, label: str | None = None) -> Hh3Target:
        """The target at ``models`` models (a vehicle stays one), renamed ``label`` when given (read from its
        statline: a record :attr:`given` is not kept)."""
        return Hh3Target(label or self.name, self.statline, 1 if self.is_vehicle else models, self.is_vehicle)


def printed(statline: Hh3Statline) -> dict[str, str]:
    """``name`` and the characteristics of ``statline`` a target reads (:data:`TARGET_KEYS`), as printed."""
    return {k: v for k, v in statline.as_block().items() if k in TARGET_KEYS or k == "name"}


def _is_vehicle(block: Mapping[str, Any]) -> bool:
    return any(block.get(k) not in (None, "") for k in _VEHICLE_FIELDS)


@lru_cache(maxsize=4096)
def _prints_vehicle(statline: Hh3Statline) -> bool:
    """Whether ``statline`` prints armour or HP (kept: a group is read as a target once per cell)."""
    return _is_vehicle(printed(statline))


def hh3_target_of_group(group: ModelGroup, models: int | None = None, label: str | None = None) -> Hh3Target:
    """A model group of a 3rd-edition fielded unit as a target (``models``: its size, default the group's; a
    vehicle is one model)."""
    statline = group.hh3_statline
    vehicle = _prints_vehicle(statline)
    n = 1 if vehicle else (group.count if models is None else models)
    return Hh3Target(label or statline.name, statline, n, vehicle)


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
    chars = {k: str(row[k]) for k in row.index if str(row[k]).strip() not in ("", "nan")}
    name = str(row.get("name") or row.get("archetype"))
    label = str(row.get("archetype") or name)
    return label, hh3_target_of_characteristics(name, chars, int(row.get("models") or 1), label)


def hh3_target_of_characteristics(
    name: str, chars: Mapping[str, object], models: int, label: str | None = None, *, vehicle: bool | None = None
) -> Hh3Target:
    """A target of ``models`` models (a vehicle: one) from its characteristics as printed (those of
    :data:`TARGET_KEYS` are kept, ``name`` and ``models`` aside); ``vehicle`` None: one when it prints armour or HP."""
    kept = {k: str(v) for k, v in chars.items() if k in TARGET_KEYS - {"name", "models"}}
    vehicle = _is_vehicle(kept) if vehicle is None else vehicle
    statline = Hh3Statline.from_characteristics(name, "Profile", kept)
    return Hh3Target(label or name, statline, 1 if vehicle else models, vehicle)


def fights_in_melee(unit: FieldedUnit) -> bool:
    """Whether a model of a 3rd-edition ``unit`` strikes in melee (:func:`hh3_strikes`)."""
    return any(hh3_strikes(g) for g in unit.groups)
