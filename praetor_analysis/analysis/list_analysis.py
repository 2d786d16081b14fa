"""A roster against targets: each unit as fielded, in shooting and in melee, plus the whole list.

The units are read once (:func:`praetor_analysis.units.fielded.roster_units`: every model with its
statline and wargear, the roster's points) and rated by :func:`praetor_analysis.analysis.unit_ratings.rate`,
the same rows ``praetor roster`` prints: in shooting every model fires one ranged weapon (every weapon for
Vehicles, Dreadnoughts...), in melee every model strikes, charging, the target not striking back.

The whole-list row of a target and phase (unit ``"Whole list"``) adds the units' means up, each unit
attacking a fresh copy of the target (so it may exceed the target's models: its ``weapons`` cell says so),
combines P(at least one) as if the units were independent, 1 - prod(1 - p_any), and leaves ``p_all`` NaN
(the units' wipe-outs are not independent).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from praetor_analysis.analysis.unit_ratings import PHASES, Target, rate
from praetor_analysis.bsdata import Roster
from praetor_analysis.catalog import load_targets
from praetor_analysis.errors import ProfileError, ScenarioError, counted_noun
from praetor_analysis.units import (
    FieldedUnit,
    UnitRow,
    hh3_target_of_row,
    read_roster_units,
    target_from_row,
    target_unit,
    unique_labels,
)

__all__ = ["LIST_COLUMNS", "WHOLE_LIST", "analyse_roster", "list_targets"]

WHOLE_LIST = "Whole list"
"""The ``unit`` label of the whole-list rows."""

LIST_COLUMNS = [
    "unit",
    "unit_points",
    "target",
    "phase",
    "mean",
    "p_any",
    "p_all",
    "mean_per_100pts",
    "wounds",
    "share",
    "unit_index",
    "force",
    "target_id",
    "models",
    "measure",
    "std",
    "weapons",
    "not_modelled",
    "error",
    "notes",
    "reasons",
]
"""The columns of :func:`analyse_roster` (``notes``: ``not_modelled`` as a list; ``reasons``: a JSON object, note
-> why of a unit note, or empty, as :data:`~praetor_analysis.analysis.unit_ratings.RATING_COLUMNS` has it)."""


def list_targets(targets: pd.DataFrame | None = None, edition: str = "hh2") -> list[tuple[str, str, Target, bool]]:
    """``(target_id, label, target, is_vehicle)`` of target rows (default the shipped standard targets of
    ``edition``; rows with the 3rd edition's characteristics, ``SAV``, are 3rd-edition targets)."""
    if targets is None:
        targets = load_targets(edition)
    out: list[tuple[str, str, Target, bool]] = []
    if "SAV" in targets.columns:  # the 3rd edition's targets (catalog.load_targets("hh3"))
        for i, (_, row) in enumerate(targets.iterrows()):
            label, hh3 = hh3_target_of_row(row)
            out.append((f"hh3:{i}:{label}", label, hh3, hh3.is_vehicle))
        return out
    for i, profile in enumerate(UnitRow.from_frame(targets)):
        name = profile.archetype or profile.name or f"target {i}"
        try:
            unit = target_unit(target_from_row(profile))
        except (ScenarioError, ProfileError):
            continue  # a row without Toughness or armour is no target (profile_targets names them)
        out.append((profile.profile_id or str(i), name, unit, profile.is_vehicle))
    return out


def _units(roster: Roster | list[FieldedUnit] | str | Path) -> list[tuple[str, FieldedUnit]]:
    """Each unit with its label (unique within the list, as every command prints it)."""
    if isinstance(roster, list):
        return list(zip(unique_labels([u.datasheet for u in roster]), roster, strict=True))
    if isinstance(roster, Roster):
        reading = read_roster_units(roster.document, roster.name or "roster")
    else:
        reading = read_roster_units(roster)
    return list(zip(reading.labels, reading.units, strict=True))


def analyse_roster(
    roster: Roster | list[FieldedUnit] | str | Path,
    targets: pd.DataFrame | None = None,
    *,
    half_range: bool = False,
    phases: tuple[str, ...] = PHASES,
) -> pd.DataFrame:
    """Every unit of a roster against every target, in each phase, plus the whole list.

    Args:
        roster: A roster read by :func:`~praetor_analysis.bsdata.roster.read_roster`, its file, or fielded units.
        targets: Target rows (default :func:`~praetor_analysis.catalog.load_targets`).
        half_range: Shoot at half range (Rapid Fire, Melta).
        phases: ``("shooting", "melee")`` or one of them.

    Returns:
        :data:`LIST_COLUMNS`: for each unit (in roster order), target and phase the ``mean`` models removed
        (hull points of a vehicle), ``std``, ``p_any``, ``p_all`` (wiped out or wrecked), ``wounds`` (or hull
        points) removed, ``share`` of the target's models removed, ``mean_per_100pts`` on the unit's points,
        the weapons used and ``error`` when nothing could be computed; then the ``"Whole list"`` rows.
    """
    fielded = _units(roster)
    t_items = list_targets(targets, fielded[0][1].edition if fielded else "hh2")
    pairs = [(label, unit) for _, label, unit, _ in t_items]
    frames = []
    for i, (label, unit) in enumerate(fielded):
        rated = rate(unit, pairs, phases=phases, half_range=half_range, label=label)
        ids = [tid for tid, _, _, _ in t_items for _ in phases]  # rate's rows: target by target, phase by phase
        frames.append(
            pd.DataFrame(
                {
                    "unit": rated["unit"],
                    "unit_points": rated["points"].astype(float),
                    "target": rated["target"],
                    "phase": rated["phase"],
                    "mean": rated["mean"],
                    "p_any": rated["p_any"],
                    "p_all": rated["p_all"],
                    "mean_per_100pts": rated["per_100_pts"],
                    "wounds": rated["wounds"],
                    "share": rated["share"],
                    "unit_index": i,
                    "force": unit.force,
                    "target_id": ids,
                    "models": rated["target_models"],
                    "measure": rated["measure"],
                    "std": rated["std"],
                    "weapons": rated["weapons"],
                    "not_modelled": rated["not_modelled"],
                    "error": rated["error"],
                    "notes": rated["notes"],
                    "reasons": rated["reasons"],
                },
                columns=LIST_COLUMNS,
            )
        )
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=LIST_COLUMNS)
    whole = _whole_list(frame, t_items, phases)
    return pd.concat([frame, whole], ignore_index=True) if len(frame) else whole


def _whole_list(
    frame: pd.DataFrame, t_items: list[tuple[str, str, Target, bool]], phases: tuple[str, ...]
) -> pd.DataFrame:
    out: list[dict[str, Any]] = []
    points = float(frame.drop_duplicates("unit_index")["unit_points"].sum()) if len(frame) else 0.0
    n_units = frame["unit_index"].nunique() if len(frame) else 0
    for tid, label, unit, vehicle in t_items:
        for phase in phases:
            part = frame[(frame["target_id"] == tid) & (frame["phase"] == phase)]
            ok = part[part["error"] == ""]
            mean = float(ok["mean"].sum())
            failed = part.loc[part["error"] != "", "unit"].tolist()
            out.append(
                {
                    "unit": WHOLE_LIST,
                    "unit_points": points,
                    "target": label,
                    "phase": phase,
                    "mean": mean,
                    # pandas' prod: NaN skipped, the same reduction
                    "p_any": 1.0 - float(np.nanprod(1.0 - ok["p_any"].to_numpy(dtype=float))),
                    "p_all": math.nan,
                    "mean_per_100pts": mean / points * 100.0 if points > 0 else math.nan,
                    "wounds": float(ok["wounds"].sum()),
                    "share": float(ok["share"].sum()),
                    "unit_index": -1,
                    "force": "",
                    "target_id": tid,
                    "models": unit.models,
                    "measure": "hull_points" if vehicle else "casualties",
                    "std": math.nan,
                    "weapons": f"the sum over {n_units} units, each attacking a fresh {label} "
                    f"({counted_noun(unit.models, 'model')})",
                    "not_modelled": ("units left out (error): " + ", ".join(failed)) if failed else "",
                    "error": "",
                    "notes": ["units left out (error): " + ", ".join(failed)] if failed else [],
                    "reasons": "",
                }
            )
    return pd.DataFrame(out, columns=LIST_COLUMNS)
