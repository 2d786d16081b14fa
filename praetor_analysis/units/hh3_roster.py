"""A 3rd-edition roster's units as fielded: each :class:`~praetor_analysis.bsdata.roster_hh3.Hh3RosterUnit` read
into the same :class:`FieldedUnit` the 2nd edition's analysis reads, with ``edition="hh3"``.

The roster embeds every profile, so no catalog is read (a faction the shipped data lacks fields the same):

- a model group's ``statline`` is its statline profile (:class:`~praetor_analysis.bsdata.Hh3Statline`);
- its ``weapons`` are one :class:`~praetor_analysis.units.hh3_arms.Hh3Arm` per firing mode of each weapon
  selection (ranged modes first), with the selection's name (the modes of one weapon share it) and how many of
  that weapon the group has, as the roster writes it (a total);
- a weapon selected on the unit itself: a single one in a unit of several models (``1x Frag grenades``) is the
  whole unit's, so every group has one per model; others go to the unit's largest group with their count;
- other selections under a model (``Vexilla``) are its ``wargear``: a save their text grants outright is the
  model's where better than its statline's (``SAV``, ``INV``); what else they grant (a save of one phase, a rule,
  a save under a condition) is named in the unit's notes; points are the roster's.
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.bsdata import (
    Defences,
    Hh3MeleeProfile,
    Hh3RangedProfile,
    Hh3Roster,
    Hh3RosterUnit,
    Hh3Statline,
    Hh3Weapon,
    best_save,
)
from praetor_analysis.units.hh3_arms import Hh3Arm
from praetor_analysis.units.records import FieldedUnit, ModelGroup

__all__ = ["hh3_fielded", "hh3_reading_parts"]


def _arms(weapon: Hh3Weapon, count: int) -> tuple[Hh3Arm, ...]:
    """One record per firing mode of ``weapon`` (ranged modes first), ``count`` of it."""
    profiles: tuple[Hh3RangedProfile | Hh3MeleeProfile, ...] = (*weapon.ranged, *weapon.melee)
    return tuple(Hh3Arm(p, weapon.name, count) for p in profiles)


def _better(own: str, given: str) -> bool:
    """Whether a save ``given`` (``""``: none) is better than ``own`` (a save the data prints, or none)."""
    own = own if own[:1] in "23456" and own[:1] else ""
    return bool(given) and best_save(own, given) != own


def _with_saves(statline: Hh3Statline, readings: tuple[Defences, ...]) -> Hh3Statline:
    """``statline`` with the better of its saves and those its wargear grants outright (saves do not add up)."""
    out = statline
    for reading in readings:
        if _better(out.save, reading.armour):
            out = replace(out, save=reading.armour)
        if _better(out.invulnerable, reading.invulnerable):
            out = replace(out, invulnerable=reading.invulnerable)
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
        arms = [a for w in g.weapons for a in _arms(w, w.count)]
        for w in unit.unit_weapons:
            if w.count == 1 and size > 1:
                arms.extend(_arms(w, g.count))
            elif i == largest:
                arms.extend(_arms(w, w.count))
        wargear = tuple(name for name, _ in g.wargear) + (tuple(n for n, _ in unit.unit_wargear) if i == 0 else ())
        statline = _with_saves(g.statline, (g.wargear_reading, worn))
        groups.append(ModelGroup(g.name, g.count, statline, tuple(arms), wargear))
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
