"""An army list for list-against-list work: its name, points and units, each unit both an attacker and a target.

Every unit is read as fielded (:func:`~praetor_analysis.units.fielded.fielded_unit`): from a roster
(``.ros``, ``.rosz``: :func:`~praetor_analysis.units.fielded.roster_units`) or from JSON:
``{"name": ..., "units": [datasheet block, ...]}`` or a bare list of datasheet blocks (the ``attacker``
blocks of ``praetor calc``: ``{"name", "faction", "size", "loadout"}``).

As a target a unit is read as ``praetor calc`` reads a fielded target
(:func:`~praetor_analysis.units.target.as_target`: the defensive profile most of its models share, a
model of another profile named in the unit's ``notes``; a vehicle squadron rated as one of its vehicles at its
share of the points). In melee the target fights back, every group with its own statline and wargear
(:func:`~praetor_analysis.units.attack.defender_groups`), unless it is a vehicle or that profile
lacks WS, I or A.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.io import parse_json
from praetor_analysis.profiles import Unit
from praetor_analysis.units import (
    FieldedUnit,
    Hh3Target,
    RosterReading,
    as_target,
    fielded_unit,
    fights_in_melee,
    hh3_target_of_unit,
    read_roster_units,
    unique_labels,
)

__all__ = [
    "MAX_LIST_BYTES",
    "MAX_LIST_UNITS",
    "NOT_IN_LISTS",
    "ArmyList",
    "ListUnit",
    "list_from_bytes",
    "load_list",
    "make_list",
    "read_list_json",
    "target_unit",
    "units_frame",
]

MAX_LIST_UNITS = 200
"""Most units in one list (a larger list is refused)."""
MAX_LIST_BYTES = 4 * 1024 * 1024
"""Largest JSON list file read."""
NOT_IN_LISTS: dict[str, str] = {
    "charging": "not a unit's own: in a matchup's melee every attacker charges and every target is charged",
    "disordered": "not a unit's own: a matchup's melee starts each pair fresh",
}
"""Fields of a datasheet block a list's unit may not give, and why (a list's pairs decide them)."""


@dataclass(frozen=True)
class ListUnit:
    """One unit of a list: a unique ``label``, its loadout (as attacker), its target block and target."""

    label: str
    loadout: FieldedUnit
    points: float
    target_block: Mapping[str, Any]
    target: Unit | Hh3Target
    fighter: int | None
    """Index of the loadout group of the profile it is read with (None: it does not fight back; else all its
    groups fight back, each with its own wargear)."""
    notes: tuple[str, ...] = ()
    source: Mapping[str, Any] | None = None
    """The calc block the unit was built from: its datasheet block (a JSON list) or ``{"roster", "unit"}``
    (a roster file); None for units made in code."""

    @property
    def models(self) -> int:
        return self.target.models

    @property
    def body(self) -> Unit:
        """The 2nd-edition target (:class:`Unit`) of this unit.

        Raises:
            ScenarioError: for a 3rd-edition unit (its target is an :class:`Hh3Target`, read by the 3rd
                edition's door only).
        """
        if not isinstance(self.target, Unit):
            raise ScenarioError(f"{self.label}: a 3rd-edition unit where the 2nd edition's engine was asked")
        return self.target

    @property
    def points_per_model(self) -> float:
        return self.points / max(1, self.target.models)


@dataclass(frozen=True)
class ArmyList:
    """A named list of units."""

    name: str
    units: tuple[ListUnit, ...]
    account: str = ""
    """A roster's points: declared = the units rated + the points not rated (``""`` for a JSON list)."""

    @property
    def points(self) -> float:
        return float(sum(u.loadout.points for u in self.units))

    @property
    def edition(self) -> str:
        """``"hh2"`` or ``"hh3"``: the edition of its units (a list holds one)."""
        return self.units[0].loadout.edition if self.units else "hh2"


def _make(
    name: str,
    entries: list[FieldedUnit],
    sources: Sequence[Mapping[str, Any] | None] | None = None,
) -> ArmyList:
    if len(entries) > MAX_LIST_UNITS:
        raise ScenarioError(f"units: at most {MAX_LIST_UNITS} units in a list, got {len(entries)}")
    labels = unique_labels([e.datasheet for e in entries])
    units = []
    editions = sorted({e.edition for e in entries})
    if len(editions) > 1:
        raise ScenarioError(f"{name}: units of two editions ({', '.join(editions)}) in one list")
    for i, (label, loadout) in enumerate(zip(labels, entries, strict=True)):
        source = sources[i] if sources is not None else None
        if loadout.edition == "hh3":  # the 3rd edition: a target block of that edition; its models fight back
            hh3, notes = hh3_target_of_unit(loadout, label)
            share = loadout.points / max(1, loadout.size) if hh3.is_vehicle else loadout.points
            main = max(range(len(loadout.groups)), key=lambda i: loadout.groups[i].count)
            fighter = main if not hh3.is_vehicle and fights_in_melee(loadout) else None
            units.append(ListUnit(label, loadout, share, hh3.block, hh3, fighter, notes, source))
            continue
        reading = as_target(loadout, label)
        target = reading.record()
        share = loadout.points / max(1, reading.models) if target.is_vehicle else loadout.points
        units.append(
            ListUnit(label, loadout, share, reading.to_block(), target, reading.fighter, reading.notes, source)
        )
    return ArmyList(name, tuple(units))


def make_list(name: str, units: Sequence[FieldedUnit]) -> ArmyList:
    """A list of fielded units made in code (labels made unique: ``Tactical Squad (1)``, ``(2)``); a list read
    from a file also keeps each unit's source (:func:`load_list`)."""
    return _make(name, list(units))


def target_unit(label: str, target: Unit | Hh3Target) -> ListUnit:
    """A bare target (a standard target or unit profile of either edition, no loadout and no points) as a list
    unit: it does not fight back, and its points removed are NaN."""
    if isinstance(target, Hh3Target):
        empty = FieldedUnit(label, "", target.models, float("nan"), (), edition="hh3")
        return ListUnit(label, empty, float("nan"), dict(target.block), target, None)
    empty = FieldedUnit(label, "", target.models, float("nan"), ())
    return ListUnit(label, empty, float("nan"), {"name": label}, target, None)


def read_list_json(data: Any, name: str = "list") -> ArmyList:
    """A list from a JSON document (see the module docstring).

    Raises:
        ScenarioError: Not a list of datasheet blocks, or a bad block (the field names its index).
    """
    if isinstance(data, Mapping):
        unknown = sorted(set(data) - {"name", "units"})
        if unknown:
            raise ScenarioError(f"{unknown[0]}: not a field of a list (name, units)")
        name = str(data.get("name", name))
        data = data.get("units")
    if not isinstance(data, list) or not data:
        raise ScenarioError(f"units: expected a non-empty list of datasheet blocks, got {data!r}")
    if len(data) > MAX_LIST_UNITS:
        raise ScenarioError(f"units: at most {MAX_LIST_UNITS} units in a list, got {len(data)}")
    entries = []
    sources = []
    for i, block in enumerate(data):
        for key in sorted(set(block) & set(NOT_IN_LISTS) if isinstance(block, Mapping) else ()):
            raise ScenarioError(f"units[{i}].{key}: {NOT_IN_LISTS[key]}", field=f"units[{i}].{key}", value=block[key])
        loadout = fielded_unit(block, f"units[{i}]")
        entries.append(loadout)
        sources.append({"name": block} if isinstance(block, str) else dict(block))
    return _make(name, entries, sources)


def load_list(path: str | Path) -> ArmyList:
    """A list from a roster file (``.ros``, ``.rosz``) or a JSON file of datasheet blocks (``.json``).

    Raises:
        ScenarioError: An unknown file kind, bad JSON, or a bad unit.
        RosterError: A roster that cannot be read.
    """
    path = Path(path)
    suffix = path.suffix.casefold()
    if suffix == ".json":
        with path.open("rb") as fh:
            raw = fh.read(MAX_LIST_BYTES + 1)
        return list_from_bytes(raw, path.name)
    if suffix not in (".ros", ".rosz", ".test"):  # .test: a New Recruit roster renamed, as praetor roster reads it
        raise ScenarioError(f"{path.name}: expected a .ros, .rosz (or .test) roster or a .json list")
    return _from_roster(read_roster_units(path), path)


def list_from_bytes(raw: bytes, filename: str) -> ArmyList:
    """A list from the bytes of a file named ``filename`` (its suffix tells the kind, as :func:`load_list`):
    a file read on one machine and sent to another (a sweep's workers)."""
    path = Path(filename)
    suffix = path.suffix.casefold()
    if suffix == ".json":
        if len(raw) > MAX_LIST_BYTES:
            raise ScenarioError(f"{path.name}: larger than {MAX_LIST_BYTES} bytes")
        try:
            doc = parse_json(raw, path.name)
        except PraetorError as exc:
            raise ScenarioError(str(exc), field=exc.field) from None
        return read_list_json(doc, path.stem)
    if suffix not in (".ros", ".rosz", ".test"):
        raise ScenarioError(f"{path.name}: expected a .ros, .rosz (or .test) roster or a .json list")
    return _from_roster(read_roster_units(raw, path.name), path)


def _from_roster(reading: RosterReading, path: Path) -> ArmyList:
    if not reading.units:
        raise ScenarioError(f"{path.name}: no unit with models")
    sources = [{"roster": str(path), "unit": label} for label in reading.labels]
    army = _make(reading.name or path.stem, list(reading.units), sources)
    return replace(army, account=reading.account())


def units_frame(army: ArmyList) -> pd.DataFrame:
    """One row per unit: label, datasheet, points, models, the target profile read and the notes."""
    rows = [
        {
            "unit": u.label,
            "datasheet": u.loadout.datasheet,
            "points": u.loadout.points,
            "models": u.loadout.size,
            "target_models": u.models,
            "vehicle": u.target.is_vehicle,
            "notes": "; ".join(u.notes),
        }
        for u in army.units
    ]
    return pd.DataFrame(rows)
