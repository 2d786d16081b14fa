"""A faction's datasheets against a field of targets, both phases, per point: the table of ``praetor sweep``.

Every datasheet of the faction is rated at its minimum size with its default wargear, and once with each
single option it offers (one loadout item: :func:`~praetor_analysis.units.fielded.fielded_unit`); an
option the data refuses for that unit is a row with its ``error``. The field is ``"standard"`` (the shipped
standard targets: they do not fight back and have no points), another faction's datasheets at their
minimum size, or a roster file; against those the target fights back in melee and the points removed are
counted as in :mod:`~praetor_analysis.analysis.matchup`. Each row is a pair row
(:data:`~praetor_analysis.analysis.matchup.PAIR_COLUMNS`) plus ``datasheet``, ``faction``, ``variant`` and
``mean_per_100_pts`` (models or hull points removed per 100 points of the attacker).

The work is split by datasheet (:func:`sweep_datasheet` is one task): local processes by default, or the
workers of an existing Dask cluster (``scheduler``: its address, or a ``distributed.Client``). The table
is the same however it is run: rows in datasheet order, each task's rows in a fixed order.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from functools import cache
from pathlib import Path
from typing import Any

import pandas as pd

from praetor_analysis.analysis.army_list import ArmyList, ListUnit, load_list, make_list, target_unit
from praetor_analysis.analysis.matchup import PAIR_COLUMNS, PHASES, Pair, pair_result, pair_row
from praetor_analysis.analysis.unit_ratings import standard_targets
from praetor_analysis.catalog import load_datasheets
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.io import atomic_write_with
from praetor_analysis.profiles import Weapon
from praetor_analysis.units import GRENADE_PROFILES, UnitAttackResult, fielded_unit, shown_options

__all__ = [
    "SWEEP_COLUMNS",
    "datasheets_of",
    "field_of",
    "phase_key",
    "progress_bar",
    "sweep_datasheet",
    "sweep_faction",
    "variants",
    "write_parquet",
]

SWEEP_COLUMNS = ["datasheet", "faction", "variant", "mean_per_100_pts", *PAIR_COLUMNS]
"""Columns of the sweep table."""


def datasheets_of(faction: str) -> list[str]:
    """The names of a faction's datasheets that are not hidden, in the catalog's order.

    Raises:
        ScenarioError: No datasheet of that faction (the factions are listed).
    """
    sheets = load_datasheets()
    mine = sheets[(sheets["faction"] == faction) & ~sheets["hidden"].astype(bool)]
    if mine.empty:
        have = ", ".join(sorted(set(sheets["faction"])))
        raise ScenarioError(f"faction: no datasheet of {faction!r} (factions: {have})")
    return list(dict.fromkeys(mine["name"]))


def variants(datasheet: str, faction: str) -> list[tuple[str, dict[str, Any]]]:
    """``(variant, datasheet block)``: the default loadout, then each single visible weapon option."""
    out: list[tuple[str, dict[str, Any]]] = [("default", {"name": datasheet, "faction": faction})]
    opts = shown_options({"name": datasheet, "faction": faction})
    opts = opts[opts["weapons"].astype(str) != ""]
    for _, o in opts.drop_duplicates(["option", "model"]).iterrows():
        model = str(o["model"])
        item: dict[str, Any] = (
            {"option": str(o["option"])} if model == "(unit)" else {"option": str(o["option"]), "model": model}
        )
        label = str(o["option"]) if model == "(unit)" else f"{o['option']} ({model})"
        out.append((label, {"name": datasheet, "faction": faction, "loadout": [item]}))
    return out


@cache
def field_of(spec: str) -> tuple[str, tuple[ListUnit, ...]]:
    """The targets of a field: ``"standard"``, ``"faction:NAME"`` or ``"roster:PATH"`` (memoised per process)."""
    if spec == "standard":
        return "standard targets", tuple(target_unit(label, unit) for label, unit in standard_targets())
    kind, _, value = spec.partition(":")
    if kind == "faction":
        units = []
        for name in datasheets_of(value):
            try:
                units.append(fielded_unit({"name": name, "faction": value}, "targets"))
            except ScenarioError:
                continue  # a datasheet with no model to field is no target
        army: ArmyList = make_list(value, units)
        return army.name, army.units
    if kind == "roster":
        army = load_list(value)
        if army.edition != "hh2":  # the sweep fields the 2nd edition's datasheets
            raise ScenarioError(
                f"--targets: {Path(value).name}: a 3rd-edition (hh3) roster; the sweep fields the 2nd edition's "
                "datasheets (a 3rd-edition datasheet sweep: not yet)",
                field="--targets",
            )
        return army.name, army.units
    raise ScenarioError(f'targets: expected "standard", "faction:NAME" or "roster:PATH", got {spec!r}')


def _error_row(datasheet: str, faction: str, variant: str, error: str) -> dict[str, Any]:
    row: dict[str, Any] = {c: float("nan") for c in SWEEP_COLUMNS}
    row.update({"datasheet": datasheet, "faction": faction, "variant": variant, "error": error, "side": "sweep",
                "attacker_list": faction, "attacker": datasheet, "target": "", "phase": "", "measure": "",
                "removed": [1.0], "wounds": [1.0], "weapons": "", "not_modelled": "", "target_list": ""})  # fmt: skip
    return row


def sweep_datasheet(datasheet: str, faction: str, field: str, phases: Sequence[str] = PHASES) -> pd.DataFrame:
    """One task: every variant of one datasheet against every target of the field, in each phase.

    Variants mostly differ in one weapon: a pair is computed once per :func:`phase_key` of its attacker
    (a variant that differs from another only in a melee weapon fires as it does, and vice versa), target and
    phase; each row is then made from its own pair (labels and points)."""
    field_name, targets = field_of(field)
    rows = []
    done: dict[tuple[Any, ...], tuple[UnitAttackResult | None, str]] = {}
    for variant, block in variants(datasheet, faction):
        try:
            unit = make_list(faction, [fielded_unit(block, "datasheet")]).units[0]
        except (ScenarioError, ProfileError) as exc:
            rows.append(_error_row(datasheet, faction, variant, str(exc)))
            continue
        keys = {phase: phase_key(unit, phase) for phase in phases}
        for k, target in enumerate(targets):
            for phase in phases:
                pair = Pair("sweep", faction, unit, field_name, target, phase)
                key: tuple[Any, ...] = (keys[phase], k)
                if phase == "melee" and target.fighter is not None:  # the round reads the whole attacker
                    key = (*key, repr(unit.loadout.groups), unit.target)
                if key not in done:
                    try:
                        done[key] = (pair_result(pair), "")
                    except (ScenarioError, ProfileError) as exc:
                        done[key] = (None, str(exc))
                result, error = done[key]
                row = pair_row(pair, result, error)
                points = unit.loadout.points
                per = 100.0 * row["mean"] / points if points > 0 else float("nan")
                rows.append({"datasheet": datasheet, "faction": faction, "variant": variant,
                             "mean_per_100_pts": per, **row})  # fmt: skip
    return pd.DataFrame(rows, columns=SWEEP_COLUMNS)


_MELEE: dict[str, bool | None] = {}


def _is_melee(block: Mapping[str, Any]) -> bool | None:
    """Whether a weapon block is a melee weapon (None: its profile cannot be read); memoised by its text."""
    text = repr(block)
    if text not in _MELEE:
        try:
            _MELEE[text] = Weapon.from_mapping(block).is_melee
        except (ScenarioError, ProfileError):
            _MELEE[text] = None
    return _MELEE[text]


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
            repr(g.statline),
            () if shooting else tuple(n for n in g.wargear if n in GRENADE_PROFILES),
            repr([b for b in g.weapons if _is_melee(b) in keep]),
        )
        for g in loadout.groups
    )
    return (phase, loadout.datasheet, loadout.faction, loadout.size, loadout.modifiers, loadout.notes, groups)


def progress_bar(done: int, total: int, started: float) -> None:
    """A one-line bar on standard error: datasheets done of the total, the time taken and the time left."""
    width = 30
    filled = int(width * done / max(1, total))
    elapsed = time.monotonic() - started
    left = elapsed / done * (total - done) if done else float("nan")
    eta = f"{left:.0f} s left" if done else "time left unknown"
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} datasheets, {elapsed:.0f} s, {eta}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def sweep_faction(
    faction: str,
    field: str = "standard",
    *,
    workers: int = 1,
    scheduler: Any = None,
    datasheets: Sequence[str] | None = None,
    phases: Sequence[str] = PHASES,
    progress: Callable[[int, int, float], None] | None = None,
) -> pd.DataFrame:
    """The sweep table (see the module docstring).

    Args:
        faction: The attacking faction (``load_datasheets()["faction"]``).
        field: ``"standard"``, ``"faction:NAME"`` or ``"roster:PATH"``.
        workers: Local processes (1: in this process).
        scheduler: A Dask scheduler address (``"tcp://127.0.0.1:8786"``) or a ``distributed.Client``: the
            tasks run on that cluster instead.
        datasheets: Only these datasheets of the faction (default: all).
        progress: Called as ``progress(done, total, started)`` after each datasheet (default: a bar on
            standard error when ``workers > 1`` or a scheduler is given; pass ``lambda *a: None`` for none).
    """
    names = list(datasheets) if datasheets is not None else datasheets_of(faction)
    field_of(field)  # refuse a bad field before any work
    report = progress or (progress_bar if (workers > 1 or scheduler is not None) else (lambda *a: None))
    started = time.monotonic()
    parts: dict[str, pd.DataFrame] = {}
    report(0, len(names), started)
    if scheduler is not None:
        parts = _on_dask(scheduler, names, faction, field, phases, report, started)
    elif workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(sweep_datasheet, n, faction, field, tuple(phases)): n for n in names}
            for fut in as_completed(futures):
                parts[futures[fut]] = fut.result()
                report(len(parts), len(names), started)
    else:
        for n in names:
            parts[n] = sweep_datasheet(n, faction, field, phases)
            report(len(parts), len(names), started)
    frames = [parts[n] for n in names if not parts[n].empty]
    if not frames:
        return pd.DataFrame(columns=SWEEP_COLUMNS)
    return pd.concat(frames, ignore_index=True)


def _on_dask(
    scheduler: Any,
    names: Sequence[str],
    faction: str,
    field: str,
    phases: Sequence[str],
    report: Callable[[int, int, float], None],
    started: float,
) -> dict[str, pd.DataFrame]:
    from distributed import Client
    from distributed import as_completed as dask_completed

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        futures = client.map(sweep_datasheet, list(names), faction=faction, field=field, phases=tuple(phases),
                             pure=False)  # fmt: skip
        index = {f.key: n for f, n in zip(futures, names, strict=True)}
        parts: dict[str, pd.DataFrame] = {}
        for fut in dask_completed(futures):
            parts[index[fut.key]] = fut.result()
            report(len(parts), len(names), started)
        return parts
    finally:
        if client is not scheduler:
            client.close()


def write_parquet(frame: pd.DataFrame, path: str) -> None:
    """The sweep table as Parquet (pyarrow)."""
    try:
        import pyarrow  # noqa: F401
    except ImportError as exc:
        raise ScenarioError(
            f"--out: writing Parquet needs pyarrow (pip install 'praetor_analysis[sweep]'): {exc}"
        ) from None
    atomic_write_with(path, lambda fh: frame.to_parquet(fh, engine="pyarrow", index=False))
