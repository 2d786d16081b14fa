"""A faction's datasheets against a field of targets, both phases, per point: the table of ``praetor sweep``.

Every datasheet of the faction is rated at its minimum size with its default wargear, and once with each
single option it offers (one loadout item: :func:`~praetor_analysis.units.fielded.fielded_unit`); an
option the data refuses for that unit is a row with its ``error`` (null when there is none). A Legion's
sweep (a Legion's faction, or ``legion``) covers the datasheets every Legion may take (``Legiones Astartes``)
and the Legion's own, each with the options every Legion may take and the Legion's (:func:`sweep_sheets`). A
unit that cannot strike in melee has a null ``error`` and ``reason`` "no melee weapon" on its melee rows.
The field is ``"standard"`` (the shipped standard targets: they do not fight back and have no points),
another faction's datasheets at their minimum size, or a roster file; against those the target fights back
in melee and the points removed are counted as in :mod:`~praetor_analysis.analysis.matchup`. Each row is a
pair row (:data:`~praetor_analysis.analysis.matchup.PAIR_COLUMNS`) plus ``datasheet``, ``faction``,
``legion``, ``variant``, ``reason`` and ``mean_per_100_pts`` (models or hull points removed per 100 points
of the attacker; the pair row's ``points_removed_per_100_pts``, and its older name ``per_100_pts``, are points
removed per 100 points).

The 3rd edition (``edition="hh3"``): the datasheets of its shipped catalogs, fielded by
:func:`~praetor_analysis.units.hh3_datasheet.hh3_fielded_datasheet`, each option with a weapon taken alone
(:func:`hh3_variants`), against that edition's standard targets (or a faction or roster of it); a vehicle that
strikes in no melee has the reason "no melee weapon" (docs/editions.md).

The work is split by datasheet (:class:`SweepTask`, one part of the dataset written by
:mod:`~praetor_analysis.analysis.sweep_dataset`); :mod:`~praetor_analysis.analysis.sweep_run` runs the tasks in
this process or on a Dask cluster. The table is the same however it is run: rows in datasheet order, each
task's rows in a fixed order.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from pathlib import Path
from typing import Any

import pandas as pd

from praetor_analysis.analysis.army_list import ArmyList, ListUnit, list_from_bytes, make_list, target_unit
from praetor_analysis.analysis.matchup import PAIR_COLUMNS, PHASES, Pair, pair_result, pair_row
from praetor_analysis.analysis.sweep_variants import Variant, hh3_variants, variants
from praetor_analysis.analysis.unit_ratings import edition_targets
from praetor_analysis.catalog import load_datasheets
from praetor_analysis.errors import ProfileError, ScenarioError, show_value
from praetor_analysis.io import atomic_write_with
from praetor_analysis.units import (
    GRENADE_PROFILES,
    Hh3Arm,
    UnitAttackResult,
    WeaponRow,
    fielded_unit,
    hh3_fielded_datasheet,
    hh3_legion,
    hh3_strikes,
    legion_names,
    legion_of,
    suggestions,
    weapon_record,
)

__all__ = [
    "ALL_LEGIONS",
    "MAX_FIELD_BYTES",
    "NO_MELEE",
    "SWEEP_COLUMNS",
    "Field",
    "SweepTask",
    "Variant",
    "datasheets_of",
    "field_of",
    "field_targets",
    "hh3_faction",
    "hh3_sweep_sheets",
    "hh3_variants",
    "phase_key",
    "progress_bar",
    "resolve_field",
    "sweep_datasheet",
    "sweep_faction",
    "sweep_legion",
    "sweep_sheets",
    "sweep_tasks",
    "variants",
    "write_parquet",
]

SWEEP_COLUMNS = ["datasheet", "faction", "legion", "variant", "mean_per_100_pts", *PAIR_COLUMNS, "reason"]
"""Columns of the sweep table: ``legion`` is null outside a Legion's sweep, ``error`` null when the pair was
computed, ``reason`` says why a row has no result that is no error ("no melee weapon")."""

ALL_LEGIONS = "Legiones Astartes"
"""The catalog's faction of the datasheets every Legion may take."""

NO_MELEE = "no melee weapon"
"""The ``reason`` of a melee row whose attacker has no model that fights in melee."""

_NO_MELEE_TEXT = "has no model that fights in melee"  # units.attack's refusal of such an attacker

_NUMBER = {"hh2": 2, "hh3": 3}  # an edition as its error lines number it

MAX_FIELD_BYTES = 64 * 1024 * 1024
"""Largest roster or list file read as a sweep's field of targets."""


def datasheets_of(faction: str, edition: str = "hh2") -> list[str]:
    """The names of a faction's datasheets that are not hidden, in the catalog's order (``edition``: whose
    catalog; the 3rd edition's factions may be named without their numeral, ``Alpha Legion``).

    Raises:
        ScenarioError: No datasheet of that faction (the factions are listed; a faction of the other edition
            says so).
    """
    sheets = load_datasheets(edition)
    mine = sheets[(sheets["faction"] == hh3_faction(faction, edition)) & ~sheets["hidden"].astype(bool)]
    if mine.empty:
        other = "hh3" if edition == "hh2" else "hh2"
        if faction in set(load_datasheets(other)["faction"]) or (
            other == "hh3" and hh3_faction(faction, "hh3") in set(load_datasheets("hh3")["faction"])
        ):
            raise ScenarioError(
                f"faction: {faction!r} is not a faction of edition {_NUMBER[edition]}; it is one of "
                f"edition {_NUMBER[other]} (--edition {other})",
                field="faction",
                value=faction,
            )
        have = sorted(set(sheets["faction"]))
        close = suggestions(faction, have)
        listed = close or f" (factions: {_first_names(have, 300)})"
        raise ScenarioError(f"faction: no datasheet of {show_value(faction)}{listed}", field="faction", value=faction)
    return list(dict.fromkeys(mine["name"]))


def _first_names(names: Sequence[str], room: int) -> str:
    """``names`` joined by commas while they fit in ``room`` characters, then ``and N more``."""
    shown: list[str] = []
    for name in names:
        if sum(len(n) + 2 for n in shown) + len(name) > room:
            return f"{', '.join(shown)} and {len(names) - len(shown)} more"
        shown.append(name)
    return ", ".join(shown)


def hh3_faction(name: str, edition: str = "hh3") -> str:
    """A 3rd-edition faction as its catalog names it: ``Alpha Legion`` -> ``XX - Alpha Legion`` (other names and
    other editions: as given)."""
    if edition != "hh3":
        return name
    factions = set(load_datasheets("hh3")["faction"])
    if name in factions:
        return name
    try:
        return hh3_legion(name, "faction")
    except ScenarioError:
        return name


def sweep_legion(faction: str, legion: str | None = None) -> str:
    """The Legion a sweep of ``faction`` is for: ``legion`` (checked), else ``faction`` when it is a Legion's,
    else ``""``.

    Raises:
        ScenarioError: ``legion`` names no Legion, or is given with a faction that is neither that Legion's
            nor ``Legiones Astartes``.
    """
    if legion is None:
        return faction if legion_of({}, faction, "faction") else ""
    key = legion_of({"legion": legion}, faction, "legion")
    name = legion_names()[key].split(":", 1)[1].strip()
    if faction != ALL_LEGIONS and legion_of({}, faction, "faction") != key:
        raise ScenarioError(
            f"legion: {legion!r} sweeps {ALL_LEGIONS!r} and {name!r}, not {faction!r} (give {name!r} or "
            f"{ALL_LEGIONS!r} as the faction)",
            field="legion",
            value=legion,
        )
    return name


def hh3_sweep_sheets(faction: str, legion: str | None = None) -> tuple[str, list[tuple[str, str]]]:
    """The 3rd edition's ``(legion, [(datasheet, its faction)])`` of a sweep of ``faction``: its datasheets; a
    Legion's (``legion``, or ``faction`` when it is a Legion's catalogue) are those of :data:`ALL_LEGIONS` when the
    data holds it (the shipped snapshot does not) then the Legion's own catalogue's.

    Raises:
        ScenarioError: An unknown faction or Legion, or a ``legion`` given with another Legion's faction or a
            faction that is no Legion's.
    """
    factions = set(load_datasheets("hh3")["faction"])
    own = hh3_faction(faction)
    if legion is None:
        if own not in factions and faction != ALL_LEGIONS:
            datasheets_of(faction, "hh3")  # refused, the factions named
        legion_faction = own if own != faction or _is_hh3_legion(own) else ""
    else:
        legion_faction = hh3_legion(legion)
        if faction not in (ALL_LEGIONS, legion_faction) and own != legion_faction:
            raise ScenarioError(f"legion: {legion!r} sweeps {ALL_LEGIONS!r} and {legion_faction!r}, not {faction!r} "
                                f"(give {legion_faction!r} or {ALL_LEGIONS!r} as the faction)", field="legion",
                                value=legion)  # fmt: skip
    if not legion_faction:
        return "", [(n, own) for n in datasheets_of(own, "hh3")]
    mine = datasheets_of(legion_faction, "hh3")
    every = [n for n in datasheets_of(ALL_LEGIONS, "hh3") if n not in mine] if ALL_LEGIONS in factions else []
    name = legion_faction.split(" - ", 1)[1]
    return name, [(n, ALL_LEGIONS) for n in every] + [(n, legion_faction) for n in mine]


def _is_hh3_legion(faction: str) -> bool:
    try:
        return hh3_legion(faction) == faction
    except ScenarioError:
        return False


def sweep_sheets(faction: str, legion: str = "") -> list[tuple[str, str]]:
    """``(datasheet, its faction)`` of a sweep: the faction's datasheets; for a Legion (``legion``), those every
    Legion may take then the Legion's own (a name in both is taken once, from the Legion's own)."""
    if not legion:
        return [(n, faction) for n in datasheets_of(faction)]
    own_faction = next((f for f in set(load_datasheets()["faction"]) if legion_of({}, f, "") == legion_of(
        {"legion": legion}, ALL_LEGIONS, "legion")), None)  # fmt: skip
    own = datasheets_of(own_faction) if own_faction else []
    return [(n, ALL_LEGIONS) for n in datasheets_of(ALL_LEGIONS) if n not in own] + [(n, str(own_faction)) for n in own]


@dataclass(frozen=True)
class Field:
    """A field of targets as sent to a worker: ``kind`` (``standard``, ``faction`` or ``roster``), ``value``
    (the faction, or the roster's file name) and, for a roster, the file's bytes read where the sweep started
    (a relative path or a file only this machine has works on any worker)."""

    kind: str
    value: str = ""
    content: bytes = b""
    edition: str = "hh2"
    """Whose targets: the standard targets and the faction's datasheets of that edition; a roster of it."""

    @property
    def digest(self) -> str:
        """A token of the field's inputs (its kind, name, the file's bytes and a 3rd edition's name)."""
        tag = f"{self.kind}\0{self.value}\0" + ("hh3\0" if self.edition == "hh3" else "")
        return hashlib.sha256(tag.encode() + self.content).hexdigest()


def resolve_field(spec: str | Field, edition: str = "hh2") -> Field:
    """The :class:`Field` of ``"standard"``, ``"faction:NAME"`` or ``"roster:PATH"`` (the file read here) of an
    edition.

    Raises:
        ScenarioError: Another kind, or a file that cannot be read or is too large.
    """
    if isinstance(spec, Field):
        return spec
    if spec == "standard":
        return Field("standard", edition=edition)
    kind, _, value = spec.partition(":")
    if kind == "faction":
        return Field("faction", value, edition=edition)
    if kind == "roster":
        try:
            with Path(value).open("rb") as fh:
                content = fh.read(MAX_FIELD_BYTES + 1)
        except OSError as exc:
            raise ScenarioError(f"targets: cannot read {value!r}: {exc.strerror or exc}", field="targets") from None
        if len(content) > MAX_FIELD_BYTES:
            raise ScenarioError(f"targets: {value!r} is larger than {MAX_FIELD_BYTES} bytes", field="targets")
        return Field("roster", Path(value).name, content, edition)
    raise ScenarioError(f'targets: expected "standard", "faction:NAME" or "roster:PATH", got {spec!r}')


def field_of(spec: str | Field) -> tuple[str, tuple[ListUnit, ...]]:
    """The targets of a field: ``"standard"``, ``"faction:NAME"`` or ``"roster:PATH"``, or a :class:`Field`."""
    return field_targets(resolve_field(spec))


@cache
def field_targets(field: Field) -> tuple[str, tuple[ListUnit, ...]]:
    """The field's name and target units (memoised per process: each worker reads a field once)."""
    edition = field.edition
    if field.kind == "standard":
        return "standard targets", tuple(target_unit(label, unit) for label, unit in edition_targets(edition))
    kind, value = field.kind, field.value
    if kind == "faction":
        units = []
        faction = hh3_faction(value, edition)
        for name in datasheets_of(value, edition):
            block = {"name": name, "faction": faction}
            try:
                units.append(hh3_fielded_datasheet(block) if edition == "hh3" else fielded_unit(block, "targets"))
            except ScenarioError:
                continue  # a datasheet with no model to field is no target
        army: ArmyList = make_list(faction, units)
        return army.name, army.units
    army = list_from_bytes(field.content, value)
    if army.edition != edition:  # the sweep fields one edition's datasheets
        raise ScenarioError(
            f"--targets: {Path(value).name}: a roster of edition {_NUMBER[army.edition]}; the sweep fields datasheets "
            f"of edition {_NUMBER[edition]} (--edition {army.edition})",
            field="--targets",
            value=value,
        )
    return army.name, army.units


@dataclass(frozen=True)
class SweepTask:
    """One part of a sweep: one datasheet (of ``faction``, for the force's ``legion``) against a field."""

    datasheet: str
    faction: str
    field: Field
    legion: str = ""
    attacker_list: str = ""
    phases: tuple[str, ...] = PHASES
    edition: str = "hh2"

    @property
    def token(self) -> str:
        """A token of every input of the part (and of the package's code and catalog data): a part written
        for other inputs is never taken for this one."""
        parts: list[Any] = [_FORMAT, _code_digest(), self.datasheet, self.faction, self.legion, self.attacker_list,
                            list(self.phases), self.field.digest]  # fmt: skip
        text = json.dumps(parts + (["hh3"] if self.edition == "hh3" else []))
        return hashlib.sha256(text.encode()).hexdigest()[:20]

    def run(self) -> pd.DataFrame:
        """The part's rows (:func:`sweep_datasheet`)."""
        return sweep_datasheet(self.datasheet, self.faction, self.field, self.phases, legion=self.legion,
                               attacker_list=self.attacker_list or None, edition=self.edition)  # fmt: skip


_FORMAT = 2  # the layout of a part's rows: a new column or meaning changes it


@cache
def _code_digest() -> str:
    """A digest of the package's modules and catalog files (a part from other code or data is recomputed)."""
    digest = hashlib.sha256()
    root = Path(__file__).resolve().parent.parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    for package in ("praetor_analysis.data", "praetor_analysis.data.hh3"):
        for item in sorted(resources.files(package).iterdir(), key=lambda p: p.name):
            if item.name.endswith(".csv"):
                digest.update(f"{package}/{item.name}".encode() + b"\0" + item.read_bytes())
    return digest.hexdigest()


def sweep_tasks(
    faction: str,
    field: str | Field = "standard",
    *,
    legion: str | None = None,
    datasheets: Sequence[str] | None = None,
    phases: Sequence[str] = PHASES,
    edition: str = "hh2",
) -> list[SweepTask]:
    """The tasks of a sweep, in the table's order (``datasheets``: only these, each once; ``edition``: whose
    datasheets and targets, the 3rd edition's from its shipped catalogs, :func:`hh3_sweep_sheets`).

    Raises:
        ScenarioError: An unknown faction, Legion, field or datasheet, or a faction of the other edition.
    """
    field = resolve_field(field, edition)
    if field.edition != edition:
        raise ScenarioError(f"targets: a field of {field.edition}, a sweep of {edition}", field="targets")
    if edition == "hh3":
        legion_name, sheets = hh3_sweep_sheets(faction, legion)
        faction = hh3_faction(faction)
    else:
        legion_name = sweep_legion(faction, legion)
        sheets = sweep_sheets(faction, legion_name)
    field_targets(field)  # refuse a bad field before any work
    if datasheets is not None:
        have = dict(sheets)
        missing = [n for n in datasheets if n not in have]
        if missing:
            raise ScenarioError(f"datasheets: {missing[0]!r} is not a datasheet of this sweep", field="datasheets",
                                value=missing[0])  # fmt: skip
        sheets = [(n, have[n]) for n in dict.fromkeys(datasheets)]
    side = legion_name or faction  # a Legion's force, however the sweep was asked for
    return [SweepTask(n, f, field, legion_name, side, tuple(phases), edition) for n, f in sheets]


def _error_row(datasheet: str, faction: str, legion: str | None, variant: str, error: str, attacker_list: str
               ) -> dict[str, Any]:  # fmt: skip
    row: dict[str, Any] = {c: float("nan") for c in SWEEP_COLUMNS}
    row.update({"datasheet": datasheet, "faction": faction, "legion": legion, "variant": variant, "error": error,
                "side": "sweep", "attacker_list": attacker_list, "attacker": datasheet, "target": "", "phase": "",
                "measure": "", "removed": [1.0], "wounds": [1.0], "weapons": "", "not_modelled": "", "notes": [],
                "target_list": "", "reason": None})  # fmt: skip
    return row


def sweep_datasheet(
    datasheet: str,
    faction: str,
    field: str | Field,
    phases: Sequence[str] = PHASES,
    *,
    legion: str = "",
    attacker_list: str | None = None,
    edition: str = "hh2",
) -> pd.DataFrame:
    """One task: every variant of one datasheet against every target of the field, in each phase.

    Variants mostly differ in one weapon: a pair is computed once per :func:`phase_key` of its attacker
    (a variant that differs from another only in a melee weapon fires as it does, and vice versa), target and
    phase; each row is then made from its own pair (labels and points)."""
    field_name, targets = field_of(field if isinstance(field, Field) else resolve_field(field, edition))
    side = attacker_list or faction
    legion_column = legion or None
    rows = []
    done: dict[tuple[Any, ...], tuple[UnitAttackResult | None, str]] = {}
    if edition == "hh3":
        fielders = hh3_variants(datasheet, faction)
    else:
        fielders = [
            (v.label, partial(fielded_unit, v.to_block(), "datasheet")) for v in variants(datasheet, faction, legion)
        ]
    for variant, field_it in fielders:
        try:
            unit = make_list(side, [field_it()]).units[0]
        except (ScenarioError, ProfileError) as exc:
            rows.append(_error_row(datasheet, faction, legion_column, variant, str(exc), side))
            continue
        keys = {phase: phase_key(unit, phase) for phase in phases}
        for k, target in enumerate(targets):
            for phase in phases:
                pair = Pair("sweep", side, unit, field_name, target, phase)
                key: tuple[Any, ...] = (keys[phase], k)
                if phase == "melee" and target.fighter is not None:  # the round reads the whole attacker
                    key = (*key, repr(unit.loadout.groups), repr(unit.target))  # a 3rd-edition target holds a dict
                if key not in done:
                    try:
                        done[key] = _no_melee(pair_result(pair), unit)
                    except (ScenarioError, ProfileError) as exc:
                        done[key] = (None, str(exc))
                result, error = done[key]
                row = pair_row(pair, result, error)
                reason = NO_MELEE if result is None and _NO_MELEE_TEXT in error else None
                points = unit.loadout.points
                per = 100.0 * row.mean / points if points > 0 else float("nan")
                failed = None if (reason or not error) else error
                rows.append({"datasheet": datasheet, "faction": faction, "legion": legion_column, "variant": variant,
                             "mean_per_100_pts": per, **row.to_dict(), "error": failed, "reason": reason})  # fmt: skip
    frame = pd.DataFrame(rows, columns=SWEEP_COLUMNS)
    if _TEXT != "object":  # columns of text and nulls: text as Parquet gives it back (pandas 3), not objects
        frame = frame.astype(dict.fromkeys(_NULLABLE, _TEXT))
    return frame


def _no_melee(result: UnitAttackResult, unit: ListUnit) -> tuple[UnitAttackResult | None, str]:
    """A 3rd-edition melee result in which no model strikes (a vehicle that is neither a Walker nor a Knight) as
    the 2nd edition's refusal of such an attacker (the row's ``reason``: :data:`NO_MELEE`)."""
    hh3 = unit.loadout.edition == "hh3"
    if hh3 and result.phase == "melee" and not any(hh3_strikes(g) for g in unit.loadout.groups):
        return None, f"{unit.label} {_NO_MELEE_TEXT}"
    return result, ""


_NULLABLE = ("legion", "error", "reason")
_TEXT = "str" if int(pd.__version__.split(".")[0]) >= 3 else "object"


def _is_melee(row: WeaponRow | Hh3Arm) -> bool | None:
    """Whether a weapon profile is a melee weapon (None: its profile cannot be read); a 3rd-edition one prints IM."""
    if isinstance(row, Hh3Arm):
        return row.melee
    try:
        return weapon_record(row).is_melee
    except (ScenarioError, ProfileError):
        return None


def phase_key(unit: ListUnit, phase: str) -> tuple[Any, ...]:
    """What a unit's result in one phase against a target that does not fight back depends on: the unit
    (its name, modifiers and notes) and its groups with only the weapons that act in that phase (ranged
    weapons when shooting; melee weapons and the grenades of its wargear in melee; a block that cannot be
    read is kept in both)."""
    loadout = unit.loadout
    shooting = phase == "shooting"
    keep = (False, None) if shooting else (True, None)
    groups = tuple(
        (
            g.model,
            g.count,
            g.statline,
            () if shooting else tuple(n for n in g.wargear if n in GRENADE_PROFILES),
            tuple(w for w in g.weapons if _is_melee(w) in keep),
        )
        for g in loadout.groups
    )
    return (phase, loadout.datasheet, loadout.faction, loadout.size, loadout.modifiers, loadout.notes,
            loadout.edition, groups)  # fmt: skip


def progress_bar(done: int, total: int, started: float) -> None:
    """One line on standard error, rewritten in place: parts done of the total and the time taken."""
    elapsed = time.monotonic() - started
    sys.stderr.write(f"\rpraetor sweep: {done}/{total} parts, {elapsed:.0f} s")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def sweep_faction(
    faction: str,
    field: str | Field = "standard",
    *,
    legion: str | None = None,
    workers: int = 1,
    scheduler: Any = None,
    datasheets: Sequence[str] | None = None,
    phases: Sequence[str] = PHASES,
    progress: Callable[[int, int, float], None] | None = None,
    edition: str = "hh2",
) -> pd.DataFrame:
    """The sweep table in memory (see the module docstring; ``praetor sweep`` writes it as a dataset of
    parts instead: :func:`~praetor_analysis.analysis.sweep_dataset.write_sweep`).

    Args:
        faction: The attacking faction (``load_datasheets()["faction"]``).
        field: ``"standard"``, ``"faction:NAME"``, ``"roster:PATH"`` or a :class:`Field`.
        legion: The force's Legion (default: the faction's, when it is a Legion's); see :func:`sweep_sheets`.
        workers: Worker processes of a local Dask cluster (1: in this process).
        scheduler: A Dask scheduler address (``"tcp://127.0.0.1:8786"``) or a ``distributed.Client``: the
            tasks run on that cluster instead.
        datasheets: Only these datasheets of the sweep (each once).
        progress: Called as ``progress(done, total, started)`` after each datasheet (default: none).
        edition: ``"hh2"`` or ``"hh3"``: whose datasheets and targets (see :func:`sweep_tasks`).

    Raises:
        PraetorError: A datasheet whose task failed (named), or a bad input.
    """
    from praetor_analysis.analysis.sweep_run import run_tasks

    tasks = sweep_tasks(faction, field, legion=legion, datasheets=datasheets, phases=phases, edition=edition)
    parts: dict[str, pd.DataFrame] = {}
    started = time.monotonic()
    report = progress or (lambda *a: None)
    report(0, len(tasks), started)

    def done(task: SweepTask, frame: pd.DataFrame | None, failure: str | None) -> None:
        if frame is None:
            raise ScenarioError(f"datasheet {task.datasheet!r}: {failure}", field="datasheet", value=task.datasheet)
        parts[task.token] = frame
        report(len(parts), len(tasks), started)

    run_tasks(tasks, done, workers=workers, scheduler=scheduler)
    frames = [parts[t.token] for t in tasks if not parts[t.token].empty]
    if not frames:
        return pd.DataFrame(columns=SWEEP_COLUMNS)
    return pd.concat(frames, ignore_index=True)


def write_parquet(frame: pd.DataFrame, path: str) -> None:
    """The sweep table as Parquet (pyarrow)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError as exc:
        raise ScenarioError(
            f"--out: writing Parquet needs pyarrow (pip install 'praetor_analysis[sweep]'): {exc}"
        ) from None
    atomic_write_with(path, lambda fh: frame.to_parquet(fh, engine="pyarrow", index=False))
