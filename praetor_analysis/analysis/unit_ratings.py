"""Units rated against targets, shooting and melee: rosters, sweeps over every profile, wargear per point.

A rating row is one unit against one target in one phase: ``mean`` models removed (hull points for a
vehicle), ``p_any`` the chance of at least one, and ``per_100_pts`` = 100 x mean / points. In melee the
unit charges (``charging``, default true) and the target does not fight back. A roster's units are
read from the roster's own selections: each model selection with its statline and the weapon profiles
under it; a weapon taken for the whole unit goes to the models its per-model cost counts, else to the
models that are not Characters (a squad's heavy weapons, not its Sergeant's); points as the roster states them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

import pandas as pd

from praetor_analysis.analysis.unit_attack import melee, shooting
from praetor_analysis.bsdata.files import children, parse_xml_bytes
from praetor_analysis.bsdata.roster import (
    read_roster_bytes,
    selection_number,
    selection_points,
    selection_statline,
    selection_weapons,
    unzip_roster,
)
from praetor_analysis.bsdata.roster_costs import is_counted, selection_option
from praetor_analysis.catalog import load_datasheets, load_targets, load_units, load_wargear_options
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.profiles.records import Unit
from praetor_analysis.scenario.blocks import attacker_block, weapon_block
from praetor_analysis.scenario.calc import parse_target
from praetor_analysis.scenario.datasheet import (
    Loadout,
    ModelGroup,
    build_loadout,
    datasheet_row,
    is_character,
    weapon_blocks,
)
from praetor_analysis.scenario.names import resolve_unit, target_from_row

__all__ = [
    "PHASES",
    "RATING_COLUMNS",
    "WARGEAR_COLUMNS",
    "profile_targets",
    "rate",
    "rate_roster",
    "roster_loadouts",
    "roster_table",
    "standard_targets",
    "target_named",
    "wargear_value",
]

PHASES = ("shooting", "melee")
RATING_COLUMNS = [
    "unit",
    "points",
    "target",
    "phase",
    "mean",
    "p_any",
    "per_100_pts",
    "measure",
    "wounds_caused",
    "weapons",
    "not_modelled",
    "error",
]
"""Columns of :func:`rate` and :func:`rate_roster`: the seven of ``praetor roster --json`` first."""
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
]
"""Columns of :func:`wargear_value`."""


def standard_targets() -> list[tuple[str, Unit]]:
    """The shipped standard targets at their sizes, parsed: ``(label, Unit)``."""
    rows = load_targets()
    return [(str(r["archetype"]), parse_target({"target": target_from_row(r)})) for _, r in rows.iterrows()]


def profile_targets(models: int = 1) -> tuple[list[tuple[str, Unit]], list[tuple[str, str]]]:
    """Every unit profile of the catalog as a target of ``models`` models.

    Returns:
        ``(targets, skipped)``: ``(label, Unit)`` pairs, and ``(label, reason)`` for the profiles that cannot
        be a target (no Toughness in the data, a fortification without armour values).
    """
    targets, skipped = [], []
    for _, r in load_units().iterrows():
        label = f"{r['name']} ({r['faction']}, {r['profile_id']})"
        try:
            targets.append((label, parse_target({"target": target_from_row(r, models)})))
        except (ScenarioError, ProfileError) as exc:
            skipped.append((label, str(exc)))
    return targets, skipped


def target_named(name: str, models: int | None = None) -> tuple[str, Unit]:
    """A standard target or unit profile by name (as ``praetor calc`` reads it), parsed."""
    block = resolve_unit({"name": name, **({"models": models} if models is not None else {})}, "--target")
    return str(block["name"]), parse_target({"target": block})


def _charging(loadout: Loadout, charging: bool) -> Loadout:
    if not charging:
        return loadout
    return replace(loadout, groups=tuple(replace(g, statline={**g.statline, "charging": True}) for g in loadout.groups))


def _row(label: str, points: float, target: str, phase: str, result: dict[str, Any] | None, error: str) -> dict:
    row: dict[str, Any] = {"unit": label, "points": points, "target": target, "phase": phase, "error": error}
    if result is None:
        return {**row, "mean": float("nan"), "p_any": float("nan"), "per_100_pts": float("nan"), "measure": "",
                "wounds_caused": float("nan"), "weapons": "", "not_modelled": ""}  # fmt: skip
    measure = "hull_points" if "hull_points" in result else "casualties"
    dist = result[measure]
    mean = float(dist["mean"])
    wounds = result.get("wounds_caused", {})
    return {
        **row,
        "mean": mean,
        "p_any": max(0.0, 1.0 - float(dist["pmf"][0])),
        "per_100_pts": 100.0 * mean / points if points > 0 else float("nan"),
        "measure": measure,
        "wounds_caused": float(wounds["mean"]) if isinstance(wounds, dict) and "mean" in wounds else float("nan"),
        "weapons": "; ".join(f"{c['count']} {c['model']}: {c['weapon']}" for c in result.get("chosen", [])),
        "not_modelled": "; ".join(result.get("not_modelled", [])),
    }


def rate(
    loadout: Loadout,
    targets: Iterable[tuple[str, Unit]],
    *,
    phases: Sequence[str] = PHASES,
    charging: bool = True,
    half_range: bool = False,
    label: str | None = None,
) -> pd.DataFrame:
    """One unit against each target in each phase (see :data:`RATING_COLUMNS`)."""
    striking = _charging(loadout, charging)
    rows = []
    for tlabel, target in targets:
        for phase in phases:
            try:
                if phase == "shooting":
                    result = shooting(loadout, target, half_range=half_range)
                else:
                    result = melee(striking, target)
                error = ""
            except (ScenarioError, ProfileError) as exc:
                result, error = None, str(exc)
            rows.append(_row(label or loadout.datasheet, loadout.points, tlabel, phase, result, error))
    return pd.DataFrame(rows, columns=RATING_COLUMNS)


# --- rosters --------------------------------------------------------------------------------------------
def _unit_selections(root: Element) -> list[Element]:
    out = []
    for force in root.iter():
        if force.tag.rsplit("}", 1)[-1] != "force":
            continue
        stack = list(children(force, "selections", "selection"))
        while stack:
            sel = stack.pop(0)
            if sel.get("type") in ("unit", "model"):
                out.append(sel)
                stack.extend(c for c in sel.iter() if c is not sel and c.get("type") == "unit")
    return list(dict.fromkeys(out))


@dataclass
class _Group:
    """Models of one roster model selection: name, count, statline, weapons, and the selection."""

    name: str
    count: int
    chars: dict[str, str]
    weapons: list[dict[str, str]]
    sel: Element


def _groups(sel: Element, groups: list[_Group], shared: list[Element], current: _Group | None) -> float:
    """Fill the model groups of a unit's selections; weapon selections outside any model go to ``shared``.
    Returns the unit's points."""
    points = selection_points(sel)
    own = selection_statline(sel)
    if own is not None:
        current = _Group(own[0], selection_number(sel), own[1], [], sel)
        groups.append(current)
    weapons = selection_weapons(sel)
    if current is not None:
        current.weapons.extend(weapons)
    elif weapons:
        shared.append(sel)
    for child in children(sel, "selections", "selection"):
        if child.get("type") != "unit":
            points += _groups(child, groups, shared, current)
    return points


def _carriers(sel: Element, groups: list[_Group], options: pd.DataFrame) -> list[tuple[_Group, int]]:
    """Which models carry a weapon taken for the whole unit: those its per-model cost counts, else the
    models that are not Characters (all, when every one is)."""
    row = selection_option(sel, options) if len(options) else None
    of = str(row["per_model_of"]) if row is not None else ""
    if of:
        counted = [(g, g.count) for g in groups if is_counted(g.sel, of)]
        if counted:
            return counted
    plain = [g for g in groups if not is_character(g.chars)]
    return [(g, g.count) for g in plain or groups]


def _model_groups(groups: list[_Group], shared: list[Element], options: pd.DataFrame) -> list[ModelGroup]:
    extra: dict[int, list[tuple[int, list[dict[str, str]]]]] = {}
    for sel in shared:
        for g, k in _carriers(sel, groups, options):
            extra.setdefault(id(g), []).append((k, selection_weapons(sel)))
    out = []
    for g in groups:
        if g.count < 1:
            continue
        statline = attacker_block(g.chars)
        statline.pop("models", None)
        parts = [(g.count, list(g.weapons))]
        for k, weapons in extra.get(id(g), []):
            split = []
            for m, ws in parts:
                take = min(k, m)
                if take:
                    split.append((take, ws + weapons))
                if m - take:
                    split.append((m - take, ws))
                k -= take
            parts = split
        for m, ws in parts:
            seen: dict[tuple[str, ...], dict[str, Any]] = {}
            for w in ws:
                seen.setdefault((w["name"], w["Range"], w["Strength"], w["AP"], w["Type"]), weapon_block(w))
            out.append(ModelGroup(g.name, m, statline, tuple(seen.values())))
    return out


def roster_loadouts(path: str | Path) -> list[Loadout]:
    """The units of a roster file as loadouts (a nested unit such as a transport is its own)."""
    path = Path(path)
    data = path.read_bytes()
    read_roster_bytes(data, path.name)  # bounds, XML safety, a roster root
    root = parse_xml_bytes(unzip_roster(data, path.name), path.name)
    sheets = load_datasheets().drop_duplicates("entry_id").set_index("entry_id")
    all_options = load_wargear_options()
    out = []
    for sel in _unit_selections(root):
        groups: list[_Group] = []
        shared: list[Element] = []
        points = _groups(sel, groups, shared, None)
        entry = (sel.get("entryId") or "").split("::")[-1]
        options = all_options.iloc[0:0]
        if entry in sheets.index:
            sheet = sheets.loc[entry]
            options = all_options[
                (all_options["datasheet"] == sheet["name"]) & (all_options["faction"] == sheet["faction"])
            ]
        models = _model_groups(groups, shared, options)
        if models:
            name = " ".join((sel.get("name") or "").split())
            out.append(Loadout(name, "", sum(g.count for g in models), points, tuple(models)))
    return out


def rate_roster(
    path: str | Path,
    target: str | None = None,
    *,
    models: int | None = None,
    charging: bool = True,
    half_range: bool = False,
) -> pd.DataFrame:
    """Every unit of a roster rated in shooting and melee against the standard targets (or one named
    target), sorted by ``per_100_pts``, highest first."""
    targets = standard_targets() if target is None else [target_named(target, models)]
    frames = [rate(u, targets, charging=charging, half_range=half_range) for u in roster_loadouts(path)]
    if not frames:
        return pd.DataFrame(columns=RATING_COLUMNS)
    frame = pd.concat(frames, ignore_index=True)
    return frame.sort_values("per_100_pts", ascending=False, na_position="last", kind="stable").reset_index(drop=True)


def roster_table(frame: pd.DataFrame) -> str:
    """The plain-text table of :func:`rate_roster` (points as whole numbers)."""
    shown = frame[["unit", "points", "target", "phase", "mean", "p_any", "per_100_pts", "weapons"]].copy()
    shown["points"] = shown["points"].map(lambda p: f"{p:.0f}")
    shown = shown.rename(columns={"per_100_pts": "per 100 pts", "p_any": "P(any)"})
    return shown.to_string(index=False, float_format=lambda x: f"{x:.3f}", na_rep="-")


# --- wargear per point ----------------------------------------------------------------------------------
def wargear_value(
    datasheet: Any,
    target: str | tuple[str, Unit],
    *,
    phases: Sequence[str] = PHASES,
    size: int | None = None,
    charging: bool = True,
    half_range: bool = False,
) -> pd.DataFrame:
    """Each costed weapon option of a datasheet against a target: what it adds per point it costs.

    Args:
        datasheet: A datasheet name or ``{"name", "faction"}``.
        target: A target name, or ``(label, Unit)``.
        phases: The phases rated (an option counts in the phases where its weapons act).
        size: Models in the unit (default the minimum).

    Returns:
        One row per option and phase (see :data:`WARGEAR_COLUMNS`): ``mean`` with the option (one model
        takes it), ``base_mean`` without, ``gain`` the difference, ``gain_per_point`` = gain / points
        (NaN for a free option), ``gain_per_100_pts`` x100; sorted by ``gain_per_point``, highest first.
    """
    sheet = datasheet_row(datasheet)
    base_block = {"name": sheet["name"], "faction": sheet["faction"], **({"size": size} if size else {})}
    tlabel, tunit = target if isinstance(target, tuple) else target_named(target)
    base = rate(build_loadout(base_block), [(tlabel, tunit)], phases=phases, charging=charging, half_range=half_range)
    base_mean = dict(zip(base["phase"], base["mean"], strict=True))
    opts = load_wargear_options()
    opts = opts[(opts["datasheet"] == sheet["name"]) & (opts["faction"] == sheet["faction"])]
    opts = opts[(opts["weapons"] != "") & ~opts["hidden"] & (opts["points_per_model"] == 0)]
    rows = []
    for _, o in opts.drop_duplicates(["option", "model"]).iterrows():
        item = {"option": o["option"]} if o["model"] == "(unit)" else {"option": o["option"], "model": o["model"]}
        try:
            loadout = build_loadout({**base_block, "loadout": [item]})
        except ScenarioError:
            continue
        cost = loadout.points - base["points"].iloc[0]
        acts = {"melee" if "melee" in b["Type"].casefold() else "shooting" for b in weapon_blocks(o["weapon_ids"])}
        rated = rate(loadout, [(tlabel, tunit)], phases=[p for p in phases if p in acts], charging=charging,
                     half_range=half_range)  # fmt: skip
        for _, r in rated.iterrows():
            gain = r["mean"] - base_mean[r["phase"]]
            rows.append(
                {
                    "option": o["option"],
                    "model": o["model"],
                    "replaces": o["replaces"],
                    "points": cost,
                    "phase": r["phase"],
                    "mean": r["mean"],
                    "base_mean": base_mean[r["phase"]],
                    "gain": gain,
                    "gain_per_point": gain / cost if cost > 0 else float("nan"),
                    "gain_per_100_pts": 100 * gain / cost if cost > 0 else float("nan"),
                    "weapons": o["weapons"],
                }
            )
    frame = pd.DataFrame(rows, columns=WARGEAR_COLUMNS)
    return frame.sort_values("gain_per_point", ascending=False, na_position="last", kind="stable").reset_index(
        drop=True
    )
