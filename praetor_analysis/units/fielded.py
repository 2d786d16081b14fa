"""One reading of a unit as fielded, wherever a unit is read: the face of the unit records.

API (what ``calc``, ``praetor roster``, the roster report, ``wargear_value``, the dashboard and the
list-against-list analysis call):

- :func:`fielded_unit` ``(source, field="attacker") -> FieldedUnit``: ``source`` is a datasheet name or
  block (``{"name", "faction", "size", "loadout", "charging", ...}``: the loadout checked against the
  data's limits and priced as the data prices it, :mod:`praetor_analysis.units.datasheet`) or a
  :class:`RosterSelection` (its models, statlines, wargear and the roster's points,
  :mod:`praetor_analysis.units.roster_units`). Bad input raises ``ScenarioError`` naming ``field``.
- :func:`roster_units` ``(path) -> list[FieldedUnit]``: every unit of a ``.ros``/``.rosz`` file;
  :func:`read_roster_units` ``(path) -> RosterReading``: the same with each unit's label and the points not
  rated (``account()``: the one line every command prints).
- :class:`FieldedUnit` (``datasheet``, ``faction``, ``size``, ``points``, ``groups``, ``options``,
  ``source``, ``notes``; ``with_flags(charging=True)``) and :class:`ModelGroup` (``model``, ``count``,
  ``statline``, ``weapons``, ``wargear``).

Both read each model whose profile lacks a characteristic with its unit's profile
(:mod:`praetor_analysis.units.unit_profile`), so every phase reads the same models. The unit attacks with
:func:`praetor_analysis.units.attack.shooting` and ``melee``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from praetor_analysis.errors import ScenarioError
from praetor_analysis.units.datasheet import build_loadout, is_datasheet
from praetor_analysis.units.records import FieldedUnit, ModelGroup
from praetor_analysis.units.roster_units import (
    RosterReading,
    RosterSelection,
    from_selection,
    unique_labels,
)
from praetor_analysis.units.roster_units import read_roster_units as _read_roster_units
from praetor_analysis.units.unit_profile import with_unit_profile

__all__ = [
    "FieldedUnit",
    "ModelGroup",
    "RosterReading",
    "RosterSelection",
    "fielded_unit",
    "is_datasheet",
    "read_roster_units",
    "roster_units",
    "unique_labels",
]


def fielded_unit(source: Any, field: str = "attacker") -> FieldedUnit:
    """The unit a datasheet block or a roster selection fields (see the module docstring).

    Raises:
        ScenarioError: A bad datasheet block or loadout, or a roster selection with no model to field.
    """
    if isinstance(source, RosterSelection):
        unit = from_selection(source)
        if unit is None:
            name = source.element.get("name") or ""
            raise ScenarioError(f"{field}: roster unit {name[:80]!r} has no model with a statline")
        return with_unit_profile(unit)
    return with_unit_profile(build_loadout(source, field))


def roster_units(source: str | Path | bytes, name: str = "roster") -> list[FieldedUnit]:
    """Every unit of a roster file (or of its bytes) that has models with a statline (a nested transport is
    its own unit)."""
    return list(read_roster_units(source, name).units)  # either edition (read_roster_units decides)


def read_roster_units(source: str | Path | bytes, name: str = "roster") -> RosterReading:
    """A roster read whole (:func:`~praetor_analysis.units.roster_units.read_roster_units`), each unit read
    with its unit's profile where a model's lacks a characteristic, as :func:`roster_units` reads it."""
    reading = _read_roster_units(source, name)
    return replace(reading, units=tuple(with_unit_profile(u) if u.edition == "hh2" else u for u in reading.units))
