"""A roster's shooting against standard targets: one row per unit and target, plus the whole list.

Each unit fires all its ranged weapons as one firing unit (docs/scenario.md ``firing_units``), so the damaged
model carries over from one weapon to the next and Pinning is tested once. Readings the roster leaves open:

- Who fires: the roster does not say which model carries which weapon. Every weapon fires with the
  statline of the unit's most numerous model profile (the first on a tie), ``count`` models strong.
- Pistols: a model fires one weapon unless it is a Vehicle, Dreadnought, Knight or Automata. Pistols fire
  only from the models left over once the other ranged weapons are counted (``pistols="spare"``, the
  default: a Tactical Squad with 10 bolters and 9 bolt pistols fires the bolters); ``pistols="all"`` fires
  every weapon listed.
- Melee weapons do not shoot. Rapid Fire fires once (twice with ``half_range``).
- Marker weapons take the assumed hits of :data:`praetor_analysis.analysis.compare.MARKER_MODELS`.
- A weapon the engine cannot resolve is dropped from its unit and named in ``not_modelled``.

The whole-list row of a target (unit ``"Whole list"``) sums the unit means (each unit firing at a fresh
copy of the target, so it may exceed the target's models), combines P(at least one) as if the units were
independent, 1 - prod(1 - p_any), and leaves ``p_all`` NaN (the units' wipe-outs are not independent).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from praetor_analysis.analysis.compare import build_scenario, row_ids, safe_calc, summarise
from praetor_analysis.bsdata.roster import Roster, RosterUnit, WeaponCount, read_roster
from praetor_analysis.catalog import load_targets
from praetor_analysis.errors import PraetorError
from praetor_analysis.profiles.records import ProfileError, Weapon
from praetor_analysis.scenario.blocks import attacker_block, is_vehicle_row, target_block, weapon_block
from praetor_analysis.scenario.calc import ScenarioError

__all__ = ["LIST_COLUMNS", "WHOLE_LIST", "analyse_roster", "roster_report", "unit_volleys"]

WHOLE_LIST = "Whole list"
"""The ``unit`` label of the whole-list rows."""

LIST_COLUMNS = [
    "unit",
    "unit_points",
    "target",
    "mean",
    "p_any",
    "p_all",
    "mean_per_100pts",
    "unit_index",
    "force",
    "target_id",
    "models",
    "measure",
    "std",
    "weapons",
    "not_modelled",
    "error",
]
"""The columns of :func:`analyse_roster`: the seven asked for first, then the bookkeeping."""

_MULTI_WEAPON_TYPES = ("vehicle", "dreadnought", "knight", "automata")


def _shooter(unit: RosterUnit) -> dict[str, str]:
    """The statline of the unit's most numerous model profile (the first on a tie)."""
    if not unit.models:
        return {}
    best = max(unit.models, key=lambda m: m.count)  # max keeps the first of equal counts
    return {"name": best.name, **best.statline}


def _fires_every_weapon(unit: RosterUnit) -> bool:
    return any(t in m.statline.get("Unit Type", "").lower() for m in unit.models for t in _MULTI_WEAPON_TYPES)


def _weapon_block(wc: WeaponCount) -> dict[str, Any]:
    """The docs/scenario.md weapon block of a roster weapon (empty Range, Strength or AP read as ``-``)."""
    block = weapon_block(wc.profile)
    return {k: ("-" if v == "" and k != "Type" else v) for k, v in block.items()}


def _ranged(unit: RosterUnit) -> list[tuple[WeaponCount, Weapon | None, str]]:
    """(weapon, parsed or None, parse error) of every weapon that is not a melee weapon."""
    out = []
    for wc in unit.weapons:
        try:
            parsed = Weapon.from_mapping(_weapon_block(wc))
        except ProfileError as exc:
            out.append((wc, None, str(exc)))
            continue
        if not parsed.is_melee:
            out.append((wc, parsed, ""))
    return out


def unit_volleys(unit: RosterUnit, *, pistols: str = "spare") -> tuple[list[tuple[dict[str, Any], int]], list[str]]:
    """The weapons a unit fires: ``[(weapon block, models firing it)]`` and notes on what was left out.

    Args:
        unit: A roster unit.
        pistols: ``"spare"`` (pistols only from models without another ranged weapon, unless the unit's
            models may fire several weapons) or ``"all"``.
    """
    if pistols not in {"spare", "all"}:
        raise PraetorError(f"pistols: expected 'spare' or 'all', got {pistols!r}")
    notes: list[str] = []
    ranged = _ranged(unit)
    for wc, parsed, err in ranged:
        if parsed is None:
            notes.append(f"{wc.profile.get('name', 'weapon')}: {err}")
    ranged = [(wc, p) for wc, p, _ in ranged if p is not None]
    spare = math.inf
    if pistols == "spare" and not _fires_every_weapon(unit):
        others = sum(wc.count for wc, p in ranged if p.type.kind != "Pistol")
        spare = max(unit.model_count - others, 0)
    out = []
    for wc, parsed in ranged:
        count = wc.count
        if parsed.type.kind == "Pistol":
            fired = int(min(count, spare))
            spare -= fired
            if fired < count:
                notes.append(f"{wc.profile.get('name')}: {count - fired} of {count} not fired (models fire one weapon)")
            count = fired
        if count > 0:
            out.append((_weapon_block(wc), count))
    return out, notes


def _volley(
    block: Mapping[str, Any], count: int, shooter: Mapping[str, Any], target: Mapping[str, Any], half_range: bool
) -> tuple[dict[str, Any], list[str]]:
    scenario, notes, _ = build_scenario(block, target, attacker_block(shooter, models=count), half_range=half_range)
    volley = {k: v for k, v in scenario.items() if k != "target"}
    return volley, notes


def _unit_result(
    volleys: list[tuple[dict[str, Any], int]], shooter: Mapping[str, Any], target: Mapping[str, Any], half_range: bool
) -> tuple[dict[str, Any] | str, list[str], list[str]]:
    """calc of one firing unit; weapons that fail on their own are dropped and named. (result, notes, used)."""
    notes: list[str] = []
    built = []
    for block, count in volleys:
        try:
            volley, vnotes = _volley(block, count, shooter, target, half_range)
        except ScenarioError as exc:
            notes.append(f"{block['name']} dropped: {exc}")
            continue
        built.append((block["name"], count, volley, vnotes))
    result = safe_calc({"target": dict(target), "firing_units": [[v for _, _, v, _ in built]]})
    if isinstance(result, str) and len(built) > 1:
        kept = []
        for item in built:
            alone = safe_calc({"target": dict(target), "firing_units": [[item[2]]]})
            if isinstance(alone, str):
                notes.append(f"{item[0]} dropped: {alone}")
            else:
                kept.append(item)
        built = kept
        result = (
            safe_calc({"target": dict(target), "firing_units": [[v for _, _, v, _ in built]]})
            if built
            else "no weapon of the unit could be resolved"
        )
    for _, _, _, vnotes in built:
        notes.extend(vnotes)
    return result, notes, [f"{count}x {name}" for name, count, _, _ in built]


def analyse_roster(
    roster: Roster, targets: pd.DataFrame | None = None, *, half_range: bool = False, pistols: str = "spare"
) -> pd.DataFrame:
    """Expected and distributional damage of every unit's shooting on every target, plus the whole list.

    Args:
        roster: A roster from :func:`~praetor_analysis.bsdata.roster.read_roster`.
        targets: Target rows (default :func:`~praetor_analysis.catalog.load_targets`).
        half_range: Fire at half range (Rapid Fire twice, Melta).
        pistols: ``"spare"`` or ``"all"`` (see the module docstring).

    Returns:
        A DataFrame with :data:`LIST_COLUMNS`: for each unit (in roster order) and target, the ``mean``,
        ``std``, ``p_any`` and ``p_all`` of casualties (hull points for a Vehicle; ``p_all`` = wiped out or
        wrecked), ``mean_per_100pts`` on the unit's points, the weapons fired, and ``error`` when nothing
        could be computed; then one ``"Whole list"`` row per target. A unit without ranged weapons has
        mean 0.
    """
    if targets is None:
        targets = load_targets()
    t_items = [
        (tid, row, target_block(row)) for tid, (_, row) in zip(row_ids(targets), targets.iterrows(), strict=False)
    ]
    rows: list[dict[str, Any]] = []
    for i, unit in enumerate(roster.units):
        volleys, unit_notes = unit_volleys(unit, pistols=pistols)
        shooter = _shooter(unit)
        for tid, trow, tblock in t_items:
            vehicle = is_vehicle_row(trow)
            record: dict[str, Any] = {
                "unit": unit.name,
                "unit_points": float(unit.points),
                "target": tblock["name"],
                "mean": math.nan,
                "p_any": math.nan,
                "p_all": math.nan,
                "mean_per_100pts": math.nan,
                "unit_index": i,
                "force": unit.force,
                "target_id": tid,
                "models": int(tblock["models"]),
                "measure": "hull_points" if vehicle else "casualties",
                "std": math.nan,
                "weapons": "",
                "not_modelled": "",
                "error": "",
            }
            if not volleys:
                record.update(
                    mean=0.0, std=0.0, p_any=0.0, p_all=0.0, not_modelled="; ".join(["no ranged weapons", *unit_notes])
                )
            else:
                result, notes, used = _unit_result(volleys, shooter, tblock, half_range)
                record["weapons"] = ", ".join(used)
                if isinstance(result, str):
                    record["error"] = result
                    record["not_modelled"] = "; ".join([*unit_notes, *notes])
                else:
                    s = summarise(result, models=record["models"], vehicle=vehicle)
                    record.update(mean=s["mean"], std=s["std"], p_any=s["p_any"], p_all=s["p_all"])
                    record["not_modelled"] = "; ".join(
                        dict.fromkeys([*unit_notes, *notes, *result.get("not_modelled", [])])
                    )
            if record["unit_points"] > 0 and record["mean"] == record["mean"]:
                record["mean_per_100pts"] = record["mean"] / record["unit_points"] * 100.0
            rows.append(record)
    frame = pd.DataFrame(rows, columns=LIST_COLUMNS)
    whole = _whole_list(frame, t_items)
    return pd.concat([frame, whole], ignore_index=True) if len(frame) else whole


def _whole_list(frame: pd.DataFrame, t_items: list) -> pd.DataFrame:
    out = []
    for tid, trow, tblock in t_items:
        part = frame[frame["target_id"] == tid]
        ok = part[part["error"] == ""]
        points = float(frame.drop_duplicates("unit_index")["unit_points"].sum()) if len(frame) else 0.0
        mean = float(ok["mean"].sum())
        p_none = float((1.0 - ok["p_any"]).prod())
        failed = part.loc[part["error"] != "", "unit"].tolist()
        out.append(
            {
                "unit": WHOLE_LIST,
                "unit_points": points,
                "target": tblock["name"],
                "mean": mean,
                "p_any": 1.0 - p_none,
                "p_all": math.nan,
                "mean_per_100pts": mean / points * 100.0 if points > 0 else math.nan,
                "unit_index": -1,
                "force": "",
                "target_id": tid,
                "models": int(tblock["models"]),
                "measure": "hull_points" if is_vehicle_row(trow) else "casualties",
                "std": math.nan,
                "weapons": "",
                "not_modelled": ("units left out (error): " + ", ".join(failed)) if failed else "",
                "error": "",
            }
        )
    return pd.DataFrame(out, columns=LIST_COLUMNS)


def roster_report(path: str | Path, targets: pd.DataFrame | None = None, *, half_range: bool = False) -> str:
    """A plain-text report of :func:`analyse_roster` for ``praetor roster FILE``.

    Args:
        path: A ``.ros`` or ``.rosz`` file.
        targets: Target rows (default the shipped targets).
        half_range: Fire at half range.

    Returns:
        A header (roster name and points), one table per target (units by rows: points, mean, P(any),
        P(all), mean per 100 pts), and the notes of cells that could not be computed.
    """
    roster = read_roster(path)
    frame = analyse_roster(roster, targets, half_range=half_range)
    lines = [
        f"Roster: {roster.name or Path(path).name} ({roster.points:g} pts, {len(roster.units)} units)",
        "Each unit fires all its ranged weapons at a fresh target (see praetor_analysis.analysis.list_analysis).",
        "",
    ]
    shown = ["unit", "unit_points", "mean", "p_any", "p_all", "mean_per_100pts"]
    for tid in dict.fromkeys(frame["target_id"]):
        part = frame[frame["target_id"] == tid]
        first = part.iloc[0]
        what = "hull points" if first["measure"] == "hull_points" else "casualties"
        lines.append(f"== {first['target']} ({first['models']} models; {what}) ==")
        table = part[shown].rename(columns={"unit_points": "pts", "mean_per_100pts": "per 100 pts"}).copy()
        table.loc[part["error"] != "", ["mean", "p_any", "p_all", "per 100 pts"]] = math.nan
        lines.append(table.to_string(index=False, float_format=lambda x: f"{x:.3f}", na_rep="-"))
        lines.append("")
    errors = frame[frame["error"] != ""]
    if len(errors):
        lines.append("Not computed:")
        for _, r in errors.drop_duplicates(["unit_index", "error"]).iterrows():
            lines.append(f"  {r['unit']} vs {r['target']}: {r['error']}")
    return "\n".join(lines).rstrip() + "\n"
