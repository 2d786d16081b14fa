"""A 3rd-edition roster's units as fielded: each :class:`~praetor_analysis.bsdata.roster_hh3.Hh3RosterUnit` read
into the same :class:`FieldedUnit` the 2nd edition's analysis reads, with ``edition="hh3"``.

The roster embeds every profile, so no catalog is read (a faction the shipped data lacks fields the same):

- a model group's ``statline`` is its statline profile under the data's names (``Type``, ``M``, ``WS``... or a
  vehicle's ``Front Armour``, ``HP``), :meth:`~praetor_analysis.bsdata.hh3_profiles.Hh3Statline.as_block`;
- its ``weapons`` are one block per firing mode of each weapon selection (``R``, ``FP``, ``RS``, ``AP``, ``D``,
  ``Special Rules``, ``Traits``; melee: ``IM``, ``AM``, ``SM``...), each with two more keys, ``weapon`` (the
  selection's name: the modes of one weapon share it) and ``count`` (how many of that weapon the group has, as the
  roster writes it: a total);
- a weapon selected on the unit itself: a single one in a unit of several models (``1x Frag grenades``) is the
  whole unit's, so every group has one per model; others go to the unit's largest group with their count;
- other selections under a model (``Vexilla``) are its ``wargear``: a save their text grants outright is the
  model's where better than its statline's (``SAV``, ``INV``); what else they grant (a save of one phase, a rule,
  a save under a condition) is named in the unit's notes; points are the roster's.
"""

from __future__ import annotations

from typing import Any

from praetor_analysis.bsdata import Defences, Hh3Roster, Hh3RosterUnit, Hh3Weapon, best_save
from praetor_analysis.units.records import FieldedUnit, ModelGroup

__all__ = ["WEAPON_KEYS", "hh3_fielded", "hh3_reading_parts"]

WEAPON_KEYS = ("weapon", "count")
"""The keys a 3rd-edition fielded unit's weapon blocks carry besides the profile (the profile readers take the
block without them)."""


def _weapon_blocks(weapon: Hh3Weapon, count: int) -> tuple[dict[str, Any], ...]:
    """One block per firing mode of ``weapon`` (ranged modes first), ``count`` of it."""
    return tuple({**p.as_block(), "weapon": weapon.name, "count": count} for p in (*weapon.ranged, *weapon.melee))


def _with_saves(statline: dict[str, str], readings: tuple[Defences, ...]) -> dict[str, str]:
    """``statline`` (the data's names: ``SAV``, ``INV``) with the better of its saves and those its wargear grants
    outright (saves do not add up)."""
    out = dict(statline)
    for reading in readings:
        for key, value in (("SAV", reading.armour), ("INV", reading.invulnerable)):
            own = out.get(key, "")
            own = own if own[:1] in "23456" and own[:1] else ""
            if value and best_save(own, value) != own:
                out[key] = value
    return out


def hh3_fielded(unit: Hh3RosterUnit) -> FieldedUnit | None:
    """The unit as fielded (None when it has no model with a statline)."""
    if not unit.groups:
        return None
    size = sum(g.count for g in unit.groups)
    worn = unit.unit_wargear_reading()
    largest = max(range(len(unit.groups)), key=lambda i: unit.groups[i].count)
    groups = []
    for i, g in enumerate(unit.groups):
        blocks = [b for w in g.weapons for b in _weapon_blocks(w, w.count)]
        for w in unit.unit_weapons:
            if w.count == 1 and size > 1:
                blocks.extend(_weapon_blocks(w, g.count))
            elif i == largest:
                blocks.extend(_weapon_blocks(w, w.count))
        wargear = tuple(name for name, _ in g.wargear) + (tuple(n for n, _ in unit.unit_wargear) if i == 0 else ())
        statline = _with_saves(g.statline.as_block(), (g.wargear_reading, worn))
        groups.append(ModelGroup(g.name, g.count, statline, tuple(blocks), wargear))
    notes = [f"{g.name}: the {p.kind} profile {p.name!r} is not read" for g in unit.groups for p in g.parts]
    for reading in (*(g.wargear_reading for g in unit.groups), worn):
        notes += [f"{line} (not applied)" for line in reading.not_modelled]
        notes += [f"{rule}: a rule of its wargear, not applied (3rd edition unit rules)" for rule in reading.rules]
    notes = list(dict.fromkeys(notes))
    return FieldedUnit(
        unit.name, "", size, float(unit.points), tuple(groups), source="roster", notes=tuple(notes), force=unit.force,
        edition="hh3",
    )  # fmt: skip


def hh3_reading_parts(
    roster: Hh3Roster,
) -> tuple[list[FieldedUnit], list[tuple[str, float, str]]]:
    """The fielded units of a 3rd-edition roster and ``(name, points, why)`` of what is not rated: the selections
    outside every unit (Allegiance, Rite of War) and the units with no model to field."""
    not_rated = [(n.name, n.points, "outside every unit") for n in roster.not_read if n.points]
    units = []
    for read in roster.units:
        assert isinstance(read, Hh3RosterUnit)
        unit = hh3_fielded(read)
        if unit is not None:
            units.append(unit)
        elif read.points:
            not_rated.append((read.name, read.points, "no model with a statline"))
    return units, not_rated
