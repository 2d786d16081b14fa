"""One reading of a unit's models in every phase: a model the data gives an incomplete statline is read with
its unit's profile.

Some datasheets write a model's profile without a characteristic (the Heavy Support Squad's Legionary has no
Toughness in the data, and so in every roster made from it). Left so, the model would strike in one-way melee
(which reads WS, S, I and A), yet neither strike nor die in a whole round (which reads T and W too), and the unit
would be a target of another profile. Instead, before any phase reads it, each characteristic a model lacks is
taken from the unit's other models: the group with the most models that has it (the first of them on a tie), and
the unit's ``readings`` say so (an attack lists them under ``applied``). A vehicle's statline is completed only
from another vehicle's and a non-vehicle's from a non-vehicle's (a vehicle has no Toughness, an infantry model no
Armour). A characteristic no model of the unit has stays missing, and the phase that needs it refuses or names it.
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.units.catalog_rows import Cell
from praetor_analysis.units.records import FieldedUnit, ModelGroup

__all__ = ["CHARACTERISTICS", "with_unit_profile"]

CHARACTERISTICS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save")
"""The characteristics of a non-vehicle model's profile that every phase may read."""


def _vehicle(group: ModelGroup) -> bool:
    kind = str(group.profile.unit_type or "")
    return kind.startswith("Vehicle") or any(group.profile.stat(k) is not None for k in ("Front", "Side", "Rear", "HP"))


def _has(group: ModelGroup, key: str) -> bool:
    value = group.profile.stat(key)
    return value is not None and str(value).strip() not in ("", "-")


def with_unit_profile(unit: FieldedUnit) -> FieldedUnit:
    """``unit`` with each non-vehicle model's missing characteristics read from the unit's other models (see the
    module docstring), and a reading for each."""
    groups, readings = list(unit.groups), list(unit.readings)
    for i, g in enumerate(unit.groups):
        if _vehicle(g):
            continue
        filled: dict[str, Cell] = {}
        for key in CHARACTERISTICS:
            if _has(g, key):
                continue
            donors = [d for d in unit.groups if d is not g and not _vehicle(d) and _has(d, key)]
            if not donors:
                continue
            donor = max(donors, key=lambda d: d.count)  # max keeps the first of equal counts
            filled[key] = str(donor.profile.stat(key))
            readings.append(f"{g.model}: no {key} in the data's profile; read with {donor.model}'s {key} {filled[key]}")
        if filled:
            groups[i] = replace(g, statline=g.profile.with_stats(filled))
    if len(readings) == len(unit.readings):
        return unit
    return replace(unit, groups=tuple(groups), readings=tuple(readings))
