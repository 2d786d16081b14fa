"""The records of a unit as fielded: groups of identical models with their statline, wargear and weapons.

Built by :func:`praetor_analysis.units.fielded.fielded_unit` (from a datasheet and a loadout, or from a
roster selection); read by the unit attack (``units.attack``), the roster ratings, the wargear
rankings, the dashboard and the list-against-list analysis. Records are frozen: a change is a new record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from praetor_analysis.units.modifiers import NO_MODIFIERS, Modifiers

__all__ = ["FieldedUnit", "Loadout", "ModelGroup"]


@dataclass(frozen=True)
class ModelGroup:
    """Identical models of a unit.

    Attributes:
        model: The model slot's (or roster selection's) name.
        count: How many models.
        statline: The unit block of one model (``WS``, ``BS``, ``T``... and ``rules``), without ``models``.
        weapons: The weapon blocks each model carries (``name``, ``Range``, ``Strength``, ``AP``, ``Type``).
        wargear: The names of the other wargear each model carries (armour, grenades, items), as the data
            names them; what of it the engine reads is in the statline (saves) and ``rules``.
    """

    model: str
    count: int
    statline: Mapping[str, Any]
    weapons: tuple[Mapping[str, Any], ...]
    wargear: tuple[str, ...] = ()


@dataclass(frozen=True)
class FieldedUnit:
    """A unit as it stands on the table.

    Attributes:
        datasheet: The datasheet's name (a roster unit: its selection's name).
        faction: The datasheet's faction ("" for a roster unit whose entry the catalog does not know).
        size: Models in the unit.
        points: What the unit costs at this loadout (a roster unit: the roster's own total).
        groups: Its models, by groups of identical ones.
        options: The loadout items taken, as given (a roster unit: the costed selections).
        source: ``"datasheet"`` or ``"roster"``.
        notes: What the reading left out and why (a weapon without a usable profile, say): one line each.
        force: The roster force holding it (``""`` for a datasheet).
        modifiers: The attacker's modifiers (re-rolls, +/-1 to hit and to wound...), applied to every model's
            statline and weapons when the unit attacks.
        legion: The Legion the datasheet was fielded for (``"Dark Angels"``; ``""`` when none was given or
            implied), which decided the options the data shows only to some Legions.
        edition: ``"hh2"`` or ``"hh3"``: the rules its statlines and weapon blocks are written for (a 3rd-edition
            unit's blocks use that edition's characteristic names, :mod:`praetor_analysis.units.hh3_roster`).
        readings: How the reading completed what the data leaves out (a characteristic taken from a unit-mate's
            profile): one line each, listed under ``applied`` when the unit attacks; nothing is left out.
    """

    datasheet: str
    faction: str
    size: int
    points: float
    groups: tuple[ModelGroup, ...]
    options: tuple[str, ...] = ()
    source: str = "datasheet"
    notes: tuple[str, ...] = ()
    force: str = ""
    modifiers: Modifiers = NO_MODIFIERS
    legion: str = ""
    edition: str = "hh2"
    readings: tuple[str, ...] = ()

    def with_flags(self, **flags: Any) -> FieldedUnit:
        """The same unit with ``charging``, ``disordered`` or ``two_weapons`` set on every model's statline."""
        if not flags:
            return self
        return replace(self, groups=tuple(replace(g, statline={**g.statline, **flags}) for g in self.groups))


Loadout = FieldedUnit
"""The former name of :class:`FieldedUnit` (a datasheet at one size and loadout)."""
