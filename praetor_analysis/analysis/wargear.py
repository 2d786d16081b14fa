"""Wargear per point: every option of a datasheet against a target, ranked by what it adds per point it costs.

Each option of every group (a Sergeant's weapon, a squad's heavy weapons taken for the whole unit) is taken
alone on the datasheet as fielded by :func:`~praetor_analysis.units.fielded.fielded_unit`, which checks
and prices the loadout (the price is the data's: a heavy weapon for the whole squad costs its price per
model that carries it); the unit is then rated against the target in both phases
(:func:`~praetor_analysis.analysis.unit_ratings.rate`) and compared with the datasheet as fielded.
Nothing is dropped: an option the loadout refuses, or one that carries no weapon, has a row saying so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from praetor_analysis.analysis.unit_ratings import PHASES, check_phases, hh3_targets_named, rate, target_named
from praetor_analysis.errors import ScenarioError
from praetor_analysis.profiles import Unit
from praetor_analysis.units import (
    Hh3Option,
    Hh3Target,
    datasheet_row,
    fielded_unit,
    hh3_datasheet_row,
    hh3_fielded_datasheet,
    hh3_options,
    is_hh3_datasheet,
    shown_options,
    weapon_rows,
)

__all__ = ["AS_FIELDED", "WARGEAR_COLUMNS", "edition_wargear", "hh3_wargear_value", "wargear_table", "wargear_value"]

WARGEAR_COLUMNS = [
    "option",
    "model",
    "replaces",
    "points",
    "phase",
    "mean",
    "base_mean",
    "gain",
    "gain_per_point",
    "gain_per_100_pts",
    "weapons",
    "unit_points",
    "per_100_pts",
    "measure",
    "note",
    "group",
]
"""Columns of :func:`wargear_value`: the first eleven as before, then the unit's own points and effect per 100
points with the option, the measure (``casualties`` or ``hull_points``), a note (why a row has no number) and
the data's group of the option (``""`` for the datasheet as fielded)."""
AS_FIELDED = "(as fielded)"
"""The ``option`` of the rows of the datasheet as fielded (its default wargear), the baseline of every gain."""

_NAN = float("nan")
_HIDDEN = "hidden in the data unless a condition of the army shows it (a Rite of War, a Tercio): not offered"
_DANGLING = "its link resolves nowhere in the shipped data (a file the snapshot lacks): not rated"
_NO_WEAPON = "carries no weapon (armour, an item or a rule): not rated in attack"


def _rank(gain: float, cost: float) -> float:
    """The sort key: gain per point; a free option ranks above every costed one when it gains, below when it loses."""
    if math.isnan(gain):
        return -math.inf
    if cost > 0:
        return gain / cost
    return math.inf if gain > 1e-12 else (-math.inf if gain < -1e-12 else 0.0)


def wargear_value(
    datasheet: Any,
    target: str | tuple[str, Unit],
    *,
    phases: Sequence[str] = PHASES,
    size: int | None = None,
    charging: bool = True,
    half_range: bool = False,
) -> pd.DataFrame:
    """Every option of a datasheet against a target: what it adds, per point it costs, in each phase.

    Args:
        datasheet: A datasheet name or ``{"name", "faction", "legion"}`` (``legion``: the force's, which shows or
            hides the options the data offers only to some Legions).
        target: A target name (read as ``praetor calc`` reads it), or ``(label, Unit)``.
        phases: The phases rated (both by default).
        size: Models in the unit (default the datasheet's minimum).
        charging: The unit charges in melee (+1 Attack).
        half_range: Targets at half range (Rapid Fire, Melta).

    Returns:
        One row per option and phase where its weapons act or it changes the result (see
        :data:`WARGEAR_COLUMNS`): ``points`` the option's cost (what the unit costs more with it), ``mean``
        the unit's effect with it, ``base_mean`` as fielded, ``gain`` the difference, ``gain_per_point`` =
        gain / points (NaN for a free option), ``per_100_pts`` the unit's effect per 100 of its points. The
        datasheet as fielded has rows of its own (``option`` :data:`AS_FIELDED`); options without a weapon
        or refused by the loadout have one row with a ``note``. Sorted by gain per point, highest first
        (a free option that gains first, one that loses last), then by phase.
    """
    phases = check_phases(phases)
    try:
        sheet = datasheet_row(datasheet, "datasheet")
    except ScenarioError:
        name = datasheet.get("name") if isinstance(datasheet, Mapping) else datasheet
        if isinstance(name, str) and is_hh3_datasheet(name):
            raise ScenarioError(f"datasheet: {name!r} is not a datasheet of edition 2; it is one of edition 3 "
                                "(--edition hh3)", field="datasheet", value=name) from None  # fmt: skip
        raise
    legion = datasheet.get("legion") if isinstance(datasheet, Mapping) else None
    base_block = {
        "name": sheet["name"],
        "faction": sheet["faction"],
        **({"legion": legion} if legion is not None else {}),
        **({"size": size} if size else {}),
    }
    tlabel, tunit = target if isinstance(target, tuple) else target_named(target)
    targets = [(tlabel, tunit)]
    base_unit = fielded_unit(base_block, "datasheet")
    base = rate(base_unit, targets, phases=phases, charging=charging, half_range=half_range)
    base_mean = {str(r["phase"]): _removed(r) for _, r in base.iterrows()}
    rows: list[dict[str, Any]] = []
    for _, r in base.iterrows():
        note = str(r["error"]) or "the datasheet's default wargear"
        rows.append(_row(AS_FIELDED, "", "", 0.0, r, r["mean"], note, base_unit.points))
    opts = shown_options(base_block)
    for _, o in opts.drop_duplicates(["option", "model"]).iterrows():
        item = {"option": o["option"]} if o["model"] == "(unit)" else {"option": o["option"], "model": o["model"]}
        label = (str(o["option"]), str(o["model"]), str(o["replaces"]))
        group = str(o["group"])
        if not str(o["weapons"]).strip():
            rows.append(_note(label, _NO_WEAPON, group))
            continue
        try:
            unit = fielded_unit({**base_block, "loadout": [item]})
        except ScenarioError as exc:
            rows.append(_note(label, f"not taken alone: {exc}", group))
            continue
        cost = unit.points - base_unit.points
        rated = rate(unit, targets, phases=phases, charging=charging, half_range=half_range)
        kinds = {"melee" if w.is_melee else "shooting" for w in weapon_rows(o["weapon_ids"])}
        for _, r in rated.iterrows():
            before = base_mean[r["phase"]]
            if r["phase"] not in kinds and abs(_removed(r) - before) <= 1e-12 and (r["no_weapon"] or not r["error"]):
                continue  # no weapon of it acts in this phase, and the phase is unchanged
            names = [w.strip() for w in str(o["weapons"]).split(";") if w.strip()]
            used = any(n in str(r["weapons"]) for n in names)
            note = str(r["error"]) or ("" if used else "carried but not used here: another weapon does more")
            rows.append({**_row(*label, cost, r, before, note, unit.points), "weapons": o["weapons"], "group": group})
    return _ranked(pd.DataFrame(rows, columns=WARGEAR_COLUMNS))


def hh3_wargear_value(
    datasheet: Any,
    target: tuple[str, Hh3Target],
    *,
    phases: Sequence[str] = PHASES,
    size: int | None = None,
) -> pd.DataFrame:
    """:func:`wargear_value` for a 3rd-edition datasheet of the shipped catalogs, against a 3rd-edition target.

    Each option the datasheet offers is taken alone (:func:`~praetor_analysis.units.hh3_datasheet.
    hh3_fielded_datasheet`: one model of its slot, in place of its group's default) and rated through the edition
    3 door, the unit charging in melee; the same columns (:data:`WARGEAR_COLUMNS`), rows and order. Options that
    are part of the datasheet as fielded (defaults, required ones) are in its rows; an option hidden in the data,
    one whose link dangles, one without a weapon or one whose model is not in the unit at this size has a row
    with a ``note``.

    Args:
        datasheet: A name or ``{"name", "faction", "legion"}`` (``legion``: the force's; a datasheet of another
            Legion's catalogue is refused).
        target: ``(label, Hh3Target)``, e.g. one of :func:`~praetor_analysis.analysis.unit_ratings.
            hh3_targets_named`.
        phases: The phases rated (both by default).
        size: Models in the unit (default the datasheet's minimum).
    """
    phases = check_phases(phases)
    sheet = hh3_datasheet_row(datasheet, "datasheet")
    block = {"name": str(sheet["name"]), "faction": str(sheet["faction"])}
    base_unit = hh3_fielded_datasheet(block, size=size)
    targets = [target]
    base = rate(base_unit, targets, phases=phases)
    base_mean = {str(r["phase"]): _removed(r) for _, r in base.iterrows()}
    rows: list[dict[str, Any]] = []
    for _, r in base.iterrows():
        note = str(r["error"]) or "the datasheet's default wargear"
        rows.append(_row(AS_FIELDED, "", "", 0.0, r, r["mean"], note, base_unit.points))
    owned = hh3_options(sheet)
    seen: set[tuple[str, str, str]] = set()
    for o in owned:
        if o.in_default_loadout or (o.option, o.model, o.group) in seen:
            continue
        seen.add((o.option, o.model, o.group))
        label = (o.option, o.model, _replaces(o, owned))
        why = _DANGLING if not o.resolved else _HIDDEN if o.hidden else _NO_WEAPON if not o.weapons else ""
        if why:
            rows.append(_note(label, why, o.group))
            continue
        try:
            unit = hh3_fielded_datasheet(block, size=size, option=o)
        except ScenarioError as exc:
            rows.append(_note(label, f"not taken alone: {exc}", o.group))
            continue
        rated = rate(unit, targets, phases=phases)
        mine = [a for g in unit.groups for a in g.arms if a.weapon == o.option]
        kinds = {"melee" if a.melee else "shooting" for a in mine}
        for _, r in rated.iterrows():
            before = base_mean[r["phase"]]
            if r["phase"] not in kinds and abs(_removed(r) - before) <= 1e-12 and (r["no_weapon"] or not r["error"]):
                continue  # no weapon of it acts in this phase, and the phase is unchanged
            used = f": {o.option}" in str(r["weapons"])
            note = str(r["error"]) or ("" if used else "carried but not used here: another weapon does more")
            if o.points_modified:
                note = "; ".join(n for n in (note, "cost as written (the data changes it by a condition)") if n)
            row = _row(*label, unit.points - base_unit.points, r, before, note, unit.points)
            rows.append({**row, "weapons": "; ".join(o.weapons), "group": o.group})
    return _ranked(pd.DataFrame(rows, columns=WARGEAR_COLUMNS))


def edition_wargear(
    datasheet: Any,
    target: str,
    models: int | None = None,
    *,
    edition: str = "hh2",
    phases: Sequence[str] = PHASES,
    size: int | None = None,
    half_range: bool = False,
) -> tuple[pd.DataFrame, str]:
    """``praetor wargear``: :func:`wargear_value` (``edition`` ``"hh2"``) or :func:`hh3_wargear_value` at the target
    named ``target`` of ``models`` (a 3rd-edition standard target for ``"hh3"``), and the target's label.

    Raises:
        ScenarioError: An unknown name, or ``half_range`` with the 3rd edition (every weapon is in range there).
    """
    if edition != "hh3":
        label, unit = target_named(target, models)
        return wargear_value(datasheet, (label, unit), phases=phases, size=size, half_range=half_range), label
    if half_range:
        raise ScenarioError(
            "--half-range: not used with --edition hh3 (every weapon is in range)", field="--half-range"
        )
    label, hh3 = hh3_targets_named(target, models)[0]
    assert isinstance(hh3, Hh3Target)
    return hh3_wargear_value(datasheet, (label, hh3), phases=phases, size=size), label


def _replaces(option: Hh3Option, owned: Sequence[Hh3Option]) -> str:
    """The defaults of the option's slot and group it takes the place of (``""``: it is added)."""
    same = [o.option for o in owned if o.model == option.model and o.group == option.group and o.default]
    return "; ".join(dict.fromkeys(same)) if option.group else ""


def _ranked(frame: pd.DataFrame) -> pd.DataFrame:
    """Rows by gain per point, highest first (a free option that gains first, one that loses last), then phase."""
    key = [_rank(g, c) for g, c in zip(frame["gain"], frame["points"], strict=True)]
    order = frame.assign(_k=key).sort_values(["_k", "phase"], ascending=[False, True], kind="stable").index
    return frame.loc[order].reset_index(drop=True)


def _removed(r: pd.Series) -> float:
    """A rating row's mean removed, 0 when the unit has no weapon for the phase (the row has no number, but an
    option's gain there is all it removes)."""
    return 0.0 if r["no_weapon"] else float(r["mean"])


def _row(
    option: str, model: str, replaces: str, cost: float, r: pd.Series, before: float, note: str, unit_points: float
) -> dict[str, Any]:
    gain = float(r["mean"]) - float(before)
    gain = 0.0 if abs(gain) <= 1e-12 else gain  # the same result computed along another path
    return {
        "option": option,
        "model": model,
        "replaces": replaces,
        "points": cost,
        "phase": r["phase"],
        "mean": float(r["mean"]),
        "base_mean": float(before),
        "gain": gain,
        "gain_per_point": gain / cost if cost > 0 else _NAN,
        "gain_per_100_pts": 100 * gain / cost if cost > 0 else _NAN,
        "weapons": r["weapons"],
        "unit_points": unit_points,
        "per_100_pts": float(r["per_100_pts"]),
        "measure": r["measure"],
        "note": note,
        "group": "",
    }


def _note(label: tuple[str, str, str], note: str, group: str) -> dict[str, Any]:
    option, model, replaces = label
    return {**dict.fromkeys(WARGEAR_COLUMNS, _NAN), "option": option, "model": model, "replaces": replaces,
            "phase": "", "weapons": "", "measure": "", "note": note, "group": group}  # fmt: skip


def wargear_table(frame: pd.DataFrame) -> str:
    """The plain-text table of :func:`wargear_value` (``praetor wargear``): rated rows, then the notes."""
    rated = frame[frame["phase"] != ""]
    shown = rated[["option", "model", "points", "phase", "mean", "gain", "gain_per_100_pts", "per_100_pts"]].copy()
    shown["points"] = shown["points"].map(lambda p: f"+{p:.0f}")
    shown = shown.rename(columns={"points": "pts", "gain_per_100_pts": "gain/100 pts", "per_100_pts": "unit/100 pts"})
    text = shown.to_string(index=False, float_format=lambda x: f"{x:.3f}", na_rep="free")
    for note, part in frame[frame["phase"] == ""].groupby("note", sort=False):
        names = ", ".join(f"{r['option']} ({r['model']})" for _, r in part.iterrows())
        text += f"\nnot rated, {note} ({len(part)}): {names}"
    return text
