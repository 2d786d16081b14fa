"""Units rated against targets, shooting and melee: rosters and sweeps over every profile (wargear per point:
:mod:`praetor_analysis.analysis.wargear`).

A rating row is one unit against one target in one phase: ``mean`` models removed (hull points for a
vehicle), ``p_any`` the chance of at least one, and ``per_100_pts`` = 100 x mean / points. In melee the
unit charges (``charging``, default true) and the target does not fight back. A roster's units are
read from the roster's own selections: each model selection with its statline and the weapon profiles
under it; a weapon taken for the whole unit goes to the models its per-model cost counts, else to the
models that are not Characters (a squad's heavy weapons, not its Sergeant's); points as the roster states them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pandas as pd

from praetor_analysis.catalog import load_targets, load_units
from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError, show_value
from praetor_analysis.profiles import Unit
from praetor_analysis.units import (
    FieldedUnit,
    Hh3Target,
    UnitAttackResult,
    UnitRow,
    as_target,
    hh3_melee,
    hh3_shooting,
    hh3_standard_targets,
    is_datasheet,
    melee,
    read_roster_units,
    shooting,
    target_fielded,
    target_from_row,
    target_row_named,
    target_unit,
)
from praetor_analysis.units.fielded import roster_units

__all__ = [
    "JSON_COLUMNS",
    "PHASES",
    "RATING_COLUMNS",
    "check_phases",
    "edition_targets",
    "hh3_targets_named",
    "no_weapon_error",
    "note_list",
    "profile_targets",
    "rate",
    "rate_roster",
    "roster_loadouts",
    "roster_table",
    "standard_targets",
    "target_named",
    "unit_notes",
]

K = TypeVar("K")

PHASES = ("shooting", "melee")
RATING_COLUMNS = [
    "unit",
    "points",
    "target",
    "phase",
    "mean",
    "p_any",
    "per_100_pts",
    "wounds",
    "share",
    "measure",
    "std",
    "p_all",
    "target_models",
    "weapons",
    "not_modelled",
    "error",
    "notes",
    "reasons",
    "no_weapon",
]
"""Columns of :func:`rate` and :func:`rate_roster`; the first ten and ``error`` are what ``praetor roster --json``
prints (:data:`JSON_COLUMNS`), with ``not_modelled`` as a list and ``reasons`` as a mapping (``views.json_rows``).
``not_modelled`` joins the notes with ``"; "`` (for a spreadsheet: a note may itself hold ``"; "``); ``notes``
is the same notes as a list; ``reasons`` a JSON object (note -> why of a unit note) or empty; ``no_weapon``
true when no model of the unit carries a weapon for the phase (the row then has no number, :func:`no_weapon_error`
in ``error``, and its notes and weapons as the attack gave them)."""
JSON_COLUMNS = [*RATING_COLUMNS[:10], "error"]
"""The fields of a row of ``praetor roster --json`` and of the roster report's embedded table (``error``: why a
row has no result, empty when it has one)."""


def standard_targets() -> list[tuple[str, Unit]]:
    """The shipped standard targets at their sizes, parsed: ``(label, Unit)``."""
    rows = load_targets()
    return [(r.archetype, target_unit(target_from_row(r))) for r in UnitRow.from_frame(rows)]


def profile_targets(models: int = 1) -> tuple[list[tuple[str, Unit]], list[tuple[str, str]]]:
    """Every unit profile of the catalog as a target of ``models`` models (a Vehicle: one).

    Returns:
        ``(targets, skipped)``: ``(label, Unit)`` pairs, and ``(label, reason)`` for the profiles that cannot
        be a target (no Toughness in the data, a fortification without armour values).
    """
    targets, skipped = [], []
    for r in UnitRow.from_frame(load_units()):
        label = f"{r.name} ({r.faction}, {r.profile_id})"
        try:
            row = target_from_row(r)
            targets.append((label, target_unit(row, 1 if row.is_vehicle else models)))  # a Vehicle: one vehicle
        except (ScenarioError, ProfileError) as exc:
            skipped.append((label, str(exc)))
    return targets, skipped


def target_named(name: str, models: int | None = None) -> tuple[str, Unit]:
    """A standard target, unit profile or datasheet by name (as ``praetor calc`` reads it), parsed; ``models``
    its size (a datasheet's ``size``)."""
    if models is not None and is_datasheet(name):
        value: Any = {"name": name, "size": models}
    else:
        value = {"name": name, **({"models": models} if models is not None else {})}
    fielded = target_fielded(value, "--target")
    if fielded is not None:  # a datasheet, fielded and read as a target
        reading = as_target(fielded[1], fielded[0], "--target")
        return reading.profile.target_name, reading.record()
    row, size = target_row_named(value, "--target")
    return row.target_name, target_unit(row, size)


Target = Unit | Hh3Target
"""A target of either edition (a 2nd-edition :class:`Unit`; a 3rd-edition :class:`Hh3Target`)."""


def edition_targets(edition: str = "hh2") -> list[tuple[str, Target]]:
    """The standard targets of an edition (``hh2``: :func:`standard_targets`; ``hh3``: the 3rd edition's)."""
    return list(hh3_standard_targets()) if edition == "hh3" else list(standard_targets())


def no_weapon_error(datasheet: str, phase: str) -> str:
    """The ``error`` of a rating row whose unit has no weapon for ``phase`` (``no_weapon``: no number)."""
    return f"attacker: {datasheet} has no weapon for the {phase} phase (no model carries one)"


_NO_NUMBER = dict.fromkeys(("mean", "p_any", "per_100_pts", "wounds", "share", "std", "p_all"), float("nan"))
"""The numbers of a rating row that has none (not rated, or no weapon for the phase)."""


def _row(
    label: str, points: float, target: tuple[str, Target], phase: str, result: UnitAttackResult | None, error: str
) -> dict[str, Any]:
    row: dict[str, Any] = {"unit": label, "points": points, "target": target[0], "phase": phase, "error": error,
                           "target_models": target[1].models, "no_weapon": False}  # fmt: skip
    if result is None:
        measure = "hull_points" if target[1].is_vehicle else "casualties"
        return {**row, **_NO_NUMBER, "measure": measure, "weapons": "", "not_modelled": "", "notes": [], "reasons": ""}
    said = {
        "weapons": "; ".join(
            f"{c.count} {c.model}: {c.weapon if c.weapon is not None else '-'}"
            + (f" x{c.copies}" if c.copies > 1 else "")  # each model fires that many (two heavy flamers)
            for c in result.chosen
        ),
        "not_modelled": "; ".join(result.not_modelled),
        "notes": list(result.not_modelled),
        "reasons": json.dumps(dict(result.reasons), sort_keys=True) if result.reasons else "",
    }
    if result.no_weapon:  # no number: nothing was rated (not "0 removed" beside the units that fire and miss)
        error = no_weapon_error(result.datasheet, phase)
        return {**row, **said, **_NO_NUMBER, "error": error, "no_weapon": True, "measure": result.measure.column}
    dist = result.removed
    mean = dist.mean()
    return {
        **row,
        **said,
        "mean": mean,
        "p_any": float(dist.sf(0)),
        "per_100_pts": 100.0 * mean / points if points > 0 else float("nan"),
        "wounds": result.wounds_removed,
        "share": result.share_removed,
        "measure": result.measure.column,
        "std": float(dist.std()),
        "p_all": result.wiped,
    }


def rate(
    loadout: FieldedUnit,
    targets: Iterable[tuple[str, Target]],
    *,
    phases: Sequence[str] = PHASES,
    charging: bool = True,
    half_range: bool = False,
    label: str | None = None,
) -> pd.DataFrame:
    """One unit against each target in each phase (see :data:`RATING_COLUMNS`): ``mean`` models removed (hull
    points of a vehicle), ``p_any`` and ``p_all`` (at least one; every model, or wrecked), ``wounds`` (or hull
    points) removed, ``share`` of the target's models (so points, when they cost alike; a vehicle: wrecked)."""
    phases = check_phases(phases)
    striking = loadout.with_flags(charging=True) if charging else loadout
    rows = []
    for target in targets:
        for phase in phases:
            try:
                if loadout.edition == "hh3" or isinstance(target[1], Hh3Target):
                    result = _hh3_attack(loadout, target[1], phase)
                elif phase == "shooting":
                    result = shooting(loadout, target[1], half_range=half_range)
                else:
                    result = melee(striking, target[1])
                error = ""
            except (ScenarioError, ProfileError) as exc:
                result, error = None, str(exc)
            rows.append(_row(label or loadout.datasheet, loadout.points, target, phase, result, error))
    return pd.DataFrame(rows, columns=RATING_COLUMNS)


def _hh3_attack(loadout: FieldedUnit, target: Target, phase: str) -> UnitAttackResult:
    """A 3rd-edition unit's attack (both sides must be of that edition; one line otherwise)."""
    if loadout.edition != "hh3" or not isinstance(target, Hh3Target):
        raise ScenarioError(
            f"target: {loadout.datasheet!r} ({loadout.edition}) and the target are of different editions"
        )
    return hh3_shooting(loadout, target) if phase == "shooting" else hh3_melee(loadout, target)


def note_list(cell: object) -> list[str]:
    """A frame's notes cell as a list: a list (or tuple, or array) as it is; a ``not_modelled`` string (joined
    with ``"; "``, which a note may hold too) as one note; nothing for an empty or missing cell."""
    if isinstance(cell, str):
        return [cell] if cell else []
    if cell is None or isinstance(cell, float):
        return []
    return [str(n) for n in cell]  # type: ignore[attr-defined]


def unit_notes(rows: Iterable[tuple[K, object]]) -> dict[K, list[str]]:
    """``(unit, notes cell)`` pairs (a frame's ``notes`` column beside its unit) -> each unit's distinct notes,
    in first-seen order; units without notes left out."""
    out: dict[K, dict[str, None]] = {}
    for unit, cell in rows:
        for note in note_list(cell):
            out.setdefault(unit, {})[note] = None
    return {unit: list(notes) for unit, notes in out.items()}


def check_phases(phases: Sequence[str] | str, field: str = "phases") -> tuple[str, ...]:
    """``phases`` as a tuple of :data:`PHASES` (one phase's name alone is that phase).

    Raises:
        PraetorError: a phase that is not ``"shooting"`` or ``"melee"``, a phase given twice, or none.
    """
    items = (phases,) if isinstance(phases, str) else tuple(phases)
    if not items or len(items) > len(PHASES):
        raise PraetorError(f"{field}: expected one or both of {PHASES}, got {show_value(phases)}", field=field)
    for p in items:
        if not isinstance(p, str) or p not in PHASES:
            raise PraetorError(f"{field}: {show_value(p)} is not a phase (expected one of {PHASES})", field=field)
    if len(set(items)) != len(items):
        raise PraetorError(f"{field}: a phase given twice in {show_value(phases)}", field=field)
    return items


# --- rosters --------------------------------------------------------------------------------------------
def roster_loadouts(path: str | Path) -> list[FieldedUnit]:
    """The units of a roster file as fielded (:func:`praetor_analysis.units.fielded.roster_units`)."""
    return roster_units(path)


def rate_roster(
    path: str | Path,
    target: str | None = None,
    *,
    models: int | None = None,
    charging: bool = True,
    half_range: bool = False,
) -> pd.DataFrame:
    """Every unit of a roster rated in shooting and melee against the standard targets (or one named
    target), sorted by ``per_100_pts``, highest first; each unit named by its label (``Tactical Squad (2)``,
    :func:`~praetor_analysis.units.fielded.read_roster_units`)."""
    reading = read_roster_units(path)
    edition = reading.units[0].edition if reading.units else "hh2"
    if edition == "hh3":
        targets = hh3_targets_named(target, models)
    else:
        targets = list(standard_targets()) if target is None else [target_named(target, models)]
    frames = [
        rate(u, targets, charging=charging, half_range=half_range, label=label)
        for u, label in zip(reading.units, reading.labels, strict=True)
    ]
    if not frames:
        return pd.DataFrame(columns=RATING_COLUMNS)
    frame = pd.concat(frames, ignore_index=True)
    return frame.sort_values("per_100_pts", ascending=False, na_position="last", kind="stable").reset_index(drop=True)


def hh3_targets_named(name: str | None = None, models: int | None = None) -> list[tuple[str, Target]]:
    """The 3rd edition's standard targets, or the one named (its archetype or its name, case aside) at ``models``.

    Raises:
        ScenarioError: naming ``--target`` when no standard target of the 3rd edition has that name.
    """
    targets = hh3_standard_targets()
    if name is None:
        return list(targets)
    for label, t in targets:
        if name.casefold() in (label.casefold(), t.statline.name.casefold()):
            return [(label, t.sized(t.models if models is None else models, label))]
    known = ", ".join(label for label, _ in targets)
    raise ScenarioError(f"--target: no 3rd-edition standard target {name!r} (known: {known})", field="--target")


def roster_table(frame: pd.DataFrame) -> str:
    """The plain-text table of :func:`rate_roster` (points as whole numbers)."""
    shown = frame[["unit", "points", "target", "phase", "mean", "p_any", "per_100_pts", "weapons"]].copy()
    shown["points"] = shown["points"].map(lambda p: f"{p:.0f}")
    shown = shown.rename(columns={"per_100_pts": "per 100 pts", "p_any": "P(any)"})
    return shown.to_string(index=False, float_format=lambda x: f"{x:.3f}", na_rep="-")
