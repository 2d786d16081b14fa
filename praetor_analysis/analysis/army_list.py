"""An army list for list-against-list work: its name, points and units, each unit both an attacker and a target.

Every unit is read as fielded (:func:`~praetor_analysis.scenario.fielded.fielded_unit`): from a roster
(``.ros``, ``.rosz``: :func:`~praetor_analysis.scenario.fielded.roster_units`) or from JSON:
``{"name": ..., "units": [datasheet block, ...]}`` or a bare list of datasheet blocks (the ``attacker``
blocks of ``praetor calc``: ``{"name", "faction", "size", "loadout"}``).

As a target a unit is one profile of models (the engine's targets are uniform): the defensive profile (T, W,
Save, Invulnerable; armour for vehicles) that most of its models share among the complete ones, with the
statline of the largest selection of it (not a Character, on a tie), as many models as the unit has; a model
of another profile is named in the unit's ``notes``. A vehicle squadron is rated as one of its vehicles at its
share of the points. In melee the target fights back with the melee weapons of that
selection's models, unless it is a vehicle or lacks WS, I or A.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd

from praetor_analysis.bsdata.roster import read_roster
from praetor_analysis.catalog import load_units
from praetor_analysis.errors import ScenarioError
from praetor_analysis.profiles.records import Unit
from praetor_analysis.scenario.blocks import is_vehicle_row, row_value, target_block
from praetor_analysis.scenario.calc import parse_target
from praetor_analysis.scenario.fielded import FieldedUnit, fielded_unit, roster_units

__all__ = [
    "MAX_LIST_BYTES",
    "MAX_LIST_UNITS",
    "ArmyList",
    "ListUnit",
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

_DEFENCE = ("T", "W", "Save")
_ARMOUR = ("Front", "Side", "Rear", "HP")
_FIGHTS = ("WS", "I", "A")


@dataclass(frozen=True)
class ListUnit:
    """One unit of a list: a unique ``label``, its loadout (as attacker), its target block and target."""

    label: str
    loadout: FieldedUnit
    points: float
    target_block: Mapping[str, Any]
    target: Unit
    fighter: int | None
    """Index of the loadout group whose melee weapons the unit fights back with (None: it does not)."""
    notes: tuple[str, ...] = ()
    source: Mapping[str, Any] | None = None
    """The datasheet block the unit was built from (a JSON list), else None (a roster unit)."""

    @property
    def models(self) -> int:
        return self.target.models

    @property
    def points_per_model(self) -> float:
        return self.points / max(1, self.target.models)


@dataclass(frozen=True)
class ArmyList:
    """A named list of units."""

    name: str
    units: tuple[ListUnit, ...]

    @property
    def points(self) -> float:
        return float(sum(u.loadout.points for u in self.units))


def _complete(chars: Mapping[str, Any]) -> bool:
    keys = _ARMOUR if is_vehicle_row(chars) else _DEFENCE
    return all(row_value(chars, k) is not None for k in keys)


def _profile(chars: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(row_value(chars, k) for k in (*_DEFENCE, "Invulnerable", *_ARMOUR))


def _as_target(
    label: str, loadout: FieldedUnit, statlines: Sequence[tuple[str, int, Mapping[str, Any]]]
) -> tuple[dict[str, Any], Unit, int | None, list[str]]:
    """The target block, target, fighting group and notes of a unit's model selections."""
    notes: list[str] = []
    if not statlines:
        raise ScenarioError(f"{label}: no model with a statline to be a target")
    pool = [s for s in statlines if _complete(s[2])] or list(statlines)
    shares: dict[tuple[Any, ...], int] = {}
    for s in pool:
        shares[_profile(s[2])] = shares.get(_profile(s[2]), 0) + s[1]
    best = max(shares, key=lambda k: shares[k])  # the first of equal shares
    main_name, _, chars = max(
        (s for s in pool if _profile(s[2]) == best),
        key=lambda s: (s[1], "character" not in str(s[2].get("Unit Type", "")).casefold()),
    )
    chars = dict(chars)
    for key in _ARMOUR if is_vehicle_row(chars) else _DEFENCE:
        if row_value(chars, key) is None:
            donor = next((s for s in statlines if row_value(s[2], key) is not None), None)
            if donor is not None:
                chars[key] = donor[2][key]
                notes.append(f"target: {main_name} has no {key}; read as {donor[0]}'s {chars[key]}")
    total = sum(s[1] for s in statlines)
    vehicle = is_vehicle_row(chars)
    models = 1 if vehicle else total
    if vehicle and total > 1:
        notes.append(f"target: a squadron of {total} vehicles rated as one {main_name} at its share of the points")
    for name, count, other in statlines:
        if not vehicle and _profile(other) != _profile(chars):
            notes.append(f"target: {count} {name} read with the profile of {main_name}")
    block = target_block({**chars, "name": label}, models=models)
    target = parse_target({"target": block})
    fighter = None
    if not target.is_vehicle and all(row_value(chars, k) is not None for k in _FIGHTS):
        by_count = sorted(range(len(loadout.groups)), key=lambda i: -loadout.groups[i].count)
        fighter = next((i for i in by_count if loadout.groups[i].model == main_name), by_count[0] if by_count else None)
    return block, target, fighter, notes


def _unique(labels: list[str]) -> list[str]:
    seen: dict[str, int] = {}
    total = {x: labels.count(x) for x in labels}
    out = []
    for x in labels:
        seen[x] = seen.get(x, 0) + 1
        out.append(f"{x} ({seen[x]})" if total[x] > 1 else x)
    return out


def _make(
    name: str,
    entries: list[tuple[FieldedUnit, list[tuple[str, int, Mapping[str, Any]]]]],
    sources: Sequence[Mapping[str, Any] | None] | None = None,
) -> ArmyList:
    if len(entries) > MAX_LIST_UNITS:
        raise ScenarioError(f"units: at most {MAX_LIST_UNITS} units in a list, got {len(entries)}")
    labels = _unique([e[0].datasheet for e in entries])
    units = []
    for i, (label, (loadout, statlines)) in enumerate(zip(labels, entries, strict=True)):
        block, target, fighter, notes = _as_target(label, loadout, statlines)
        share = loadout.points / max(1, sum(s[1] for s in statlines)) if target.is_vehicle else loadout.points
        source = sources[i] if sources is not None else None
        units.append(ListUnit(label, loadout, share, block, target, fighter, tuple(notes), source))
    return ArmyList(name, tuple(units))


@cache
def _unit_rows() -> dict[tuple[str, str], list[dict[str, Any]]]:
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in load_units().to_dict("records"):
        out.setdefault((str(row["name"]), str(row["faction"])), []).append(row)
    return out


def _statlines(loadout: FieldedUnit) -> list[tuple[str, int, Mapping[str, Any]]]:
    """The (model, count, characteristics) of a unit's groups; a vehicle's armour and hull points from its
    catalog profile (the unit statline carries none)."""
    out = []
    for g in loadout.groups:
        chars: dict[str, Any] = dict(g.statline)
        name = str(chars.get("name") or g.model)
        rows = _unit_rows().get((name, loadout.faction)) or [
            r for (n, _), rs in _unit_rows().items() if n == name for r in rs
        ]
        match = next((r for r in rows if row_value(r, "T") == row_value(chars, "T")), rows[0] if rows else None)
        if match is not None and is_vehicle_row(match):
            chars.update({k: match[k] for k in _ARMOUR if row_value(match, k) is not None})
        out.append((g.model, g.count, chars))
    return out


def make_list(
    name: str, units: Sequence[FieldedUnit], sources: Sequence[Mapping[str, Any] | None] | None = None
) -> ArmyList:
    """A list of fielded units (labels made unique: ``Tactical Squad (1)``, ``(2)``)."""
    return _make(name, [(u, _statlines(u)) for u in units], sources)


def target_unit(label: str, target: Unit) -> ListUnit:
    """A bare target (a standard target or unit profile, no loadout and no points) as a list unit: it does
    not fight back, and its points removed are NaN."""
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
        loadout = fielded_unit(block, f"units[{i}]")
        entries.append((loadout, _statlines(loadout)))
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
        if len(raw) > MAX_LIST_BYTES:
            raise ScenarioError(f"{path.name}: larger than {MAX_LIST_BYTES} bytes")
        try:
            doc = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise ScenarioError(f"{path.name}: not a JSON document ({exc})") from None
        return read_list_json(doc, path.stem)
    if suffix not in (".ros", ".rosz"):
        raise ScenarioError(f"{path.name}: expected a .ros, .rosz or .json list")
    units = roster_units(path)
    if not units:
        raise ScenarioError(f"{path.name}: no unit with models")
    return make_list(read_roster(path).name or path.stem, units)


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
