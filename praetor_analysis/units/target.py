"""A fielded unit as a target: the one reading of ``calc``, ``praetor roster``, ``matchup`` and the lists.

The engine's targets are uniform, so a unit is shot at as one profile of models: the defensive profile (T, W,
Save, Invulnerable; armour for vehicles) that most of its models share among the complete ones, with the
statline of the largest group of it (not a Character, on a tie), as many models as the unit has. A model of
another profile is named in the notes; a missing T, W or Save is read from another group and said so; a
vehicle squadron is one of its vehicles (at its share of the points). Each group's statline already carries
the saves and rules of the wargear its models hold (:mod:`praetor_analysis.scenario.wargear_saves`).

A roster's unit is named in a scenario as ``{"roster": PATH, "unit": LABEL}``
(:func:`roster_unit`): its label as ``praetor roster`` prints it (the selection's name, ``(2)`` after a
repeated one), or its datasheet's name when that names one unit of the roster.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from praetor_analysis.catalog import load_units
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.profiles import Unit
from praetor_analysis.units.catalog_rows import UnitRow
from praetor_analysis.units.engine_records import target_unit
from praetor_analysis.units.fielded import FieldedUnit, roster_units
from praetor_analysis.units.names import fold, suggestions
from praetor_analysis.units.roster_units import unique_labels

__all__ = ["ROSTER_FIELDS", "UnitTarget", "as_target", "roster_unit", "statlines", "unique_labels"]

ROSTER_FIELDS = frozenset({"roster", "unit"})
"""The fields naming a roster's unit in a scenario."""
_DEFENCE = ("T", "W", "Save")
_ARMOUR = ("Front", "Side", "Rear", "HP")
_FIGHTS = ("WS", "I", "A")


@dataclass(frozen=True)
class UnitTarget:
    """How a fielded unit stands as a target.

    Attributes:
        profile: The chosen profile, named as the target (its characteristics completed from the unit's).
        fighter: The index of the group whose melee weapons it fights back with (None: a vehicle, or no WS,
            I or A).
        notes: What the reading changed or left out, one line each (``target: ...``).
        models: Models in the unit (a squadron's vehicles too).
    """

    profile: UnitRow
    fighter: int | None
    notes: tuple[str, ...]
    models: int

    @property
    def size(self) -> int:
        """The target's models: the unit's (a vehicle: one, a squadron rated as one of its vehicles)."""
        return 1 if self.profile.is_vehicle else self.models

    def to_block(self) -> dict[str, Any]:
        """The target block it stands for (``docs/scenario.md``; the JSON door's and the documents')."""
        return self.profile.to_block(models=self.size)

    def record(self) -> Unit:
        """The engine's target (:func:`~praetor_analysis.units.engine_records.target_unit`)."""
        return target_unit(self.profile, self.size)


@cache
def _unit_rows() -> dict[tuple[str, str], list[UnitRow]]:
    out: dict[tuple[str, str], list[UnitRow]] = {}
    for row in UnitRow.from_frame(load_units()):
        out.setdefault((row.name, row.faction), []).append(row)
    return out


def statlines(unit: FieldedUnit) -> list[tuple[str, int, UnitRow]]:
    """The (model, count, profile) of a unit's groups; a vehicle's armour and hull points as its own statline
    gives them (a roster's, edited or not), else from its catalog profile (a datasheet's statline carries
    none)."""
    out: list[tuple[str, int, UnitRow]] = []
    for g in unit.groups:
        chars = g.profile.row()
        name = chars.name or g.model
        rows = _unit_rows().get((name, unit.faction)) or [
            r for (n, _), rs in _unit_rows().items() if n == name for r in rs
        ]
        match = next((r for r in rows if r.T == chars.T), rows[0] if rows else None)
        if match is not None and match.is_vehicle:  # a roster's statline carries its own
            armour = {k: match.stat(k) for k in _ARMOUR if chars.stat(k) is None and match.stat(k) is not None}
            chars = chars.with_stats(armour)
        out.append((g.model, g.count, chars))
    return out


def _complete(chars: UnitRow) -> bool:
    keys = _ARMOUR if chars.is_vehicle else _DEFENCE
    return all(chars.stat(k) is not None for k in keys)


def _profile(chars: UnitRow) -> tuple[Any, ...]:
    return (*(chars.stat(k) for k in (*_DEFENCE, "Invulnerable", *_ARMOUR)), tuple(sorted(chars.rules)))


def as_target(unit: FieldedUnit, label: str | None = None, field: str = "target") -> UnitTarget:
    """The target a fielded unit stands as (see the module docstring); ``label`` names it (default its
    datasheet).

    Raises:
        ScenarioError: The unit has no model with a statline, or none with a Toughness or armour values (a
            fortification's junk profile): ``field`` names it.
    """
    label = unit.datasheet if label is None else label
    lines = statlines(unit)
    notes: list[str] = []
    if not lines:
        raise ScenarioError(f"{label}: no model with a statline to be a target")
    pool = [s for s in lines if _complete(s[2])] or list(lines)
    shares: dict[tuple[Any, ...], int] = {}
    for s in pool:
        shares[_profile(s[2])] = shares.get(_profile(s[2]), 0) + s[1]
    best = max(shares, key=lambda k: shares[k])  # the first of equal shares
    main_name, _, chosen = max(
        (s for s in pool if _profile(s[2]) == best),
        key=lambda s: (s[1], not s[2].is_character),
    )
    chars = chosen
    if not any(s[2].is_target_profile for s in lines):
        raise ScenarioError(
            f"{field}: {label!r} has no model with Toughness or armour values in the data: not a target"
        )
    for key in _ARMOUR if chars.is_vehicle else _DEFENCE:
        if chars.stat(key) is None:
            donor = next((s for s in lines if s[2].stat(key) is not None), None)
            if donor is not None:
                chars = chars.with_stats({key: donor[2].stat(key)})
                notes.append(f"target: {main_name} has no {key}; read as {donor[0]}'s {chars.stat(key)}")
    total = sum(s[1] for s in lines)
    vehicle = chars.is_vehicle
    if vehicle and total > 1:
        notes.append(f"target: a squadron of {total} vehicles rated as one {main_name} at its share of the points")
    for name, count, other in lines:
        if not vehicle and _profile(other) != _profile(chars):
            notes.append(f"target: {count} {name} read with the profile of {main_name}")
    fighter = None
    if not vehicle and all(chars.stat(k) is not None for k in _FIGHTS):
        by_count = sorted(range(len(unit.groups)), key=lambda i: -unit.groups[i].count)
        fighter = next((i for i in by_count if unit.groups[i].model == main_name), by_count[0] if by_count else None)
    return UnitTarget(replace(chars, name=label, archetype=""), fighter, tuple(notes), total)


@lru_cache(maxsize=8)
def _roster_units(path: str, mtime_ns: int, size: int) -> tuple[FieldedUnit, ...]:
    """The units of a roster file, read once while the file stays the same (a scenario array naming it)."""
    return tuple(roster_units(path))


def roster_unit(path: object, name: object, field: str = "target") -> tuple[str, FieldedUnit]:
    """The unit of the roster file ``path`` labelled ``name``, with its label: the fields of ``{"roster": PATH,
    "unit": LABEL}`` (see the module docstring), given as read (each is checked).

    Raises:
        ScenarioError: A missing or bad field, a roster that cannot be read, or a label naming no unit or
            several (the message lists the labels).
    """
    if not isinstance(path, str) or not path.strip():
        raise ScenarioError(f"{field}.roster: expected the path of a .ros or .rosz file, got {path!r}")
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"{field}.unit: expected the label of one of the roster's units, got {name!r}")
    try:
        stat = Path(path).stat()
        units = _roster_units(str(Path(path).resolve()), stat.st_mtime_ns, stat.st_size)
    except OSError as exc:
        raise ScenarioError(
            f"{field}.roster: cannot read {path!r} ({exc.strerror or exc})", field=f"{field}.roster"
        ) from None
    except PraetorError as exc:
        raise ScenarioError(f"{field}.roster: {exc}", field=f"{field}.roster") from None
    labels = unique_labels([u.datasheet for u in units])
    hits = [i for i, x in enumerate(labels) if fold(x) == fold(name)]
    if not hits:
        hits = [i for i, u in enumerate(units) if fold(u.datasheet) == fold(name)]
    if len(hits) == 1:
        return labels[hits[0]], units[hits[0]]
    if hits:
        have = ", ".join(repr(labels[i]) for i in hits)
        raise ScenarioError(f"{field}.unit: {name!r} names {len(hits)} units of the roster ({have}); give one label")
    raise ScenarioError(f"{field}.unit: the roster has no unit {name!r}{suggestions(name, labels)}")
