"""The workbench's pure part: attackers (datasheets with size and loadout, or statlines with a weapon), each with
its own modifiers, against several targets; every cell a ``praetor calc`` scenario (no widget here).

:func:`setup_scenarios` is the setup as the scenario file (``praetor calc FILE`` gives the same numbers);
:func:`setup_from_scenarios` reads such a file back; :func:`cells_table` is the table of expected models,
wounds (hull points for a vehicle) and points removed per 100 points of each attacker, and
:func:`cell_pmf` the whole distribution of one cell.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from praetor_analysis.units import NO_MODIFIERS, Modifiers

__all__ = [
    "MAX_ATTACKERS",
    "Attacker",
    "Target",
    "cell_pmf",
    "cells_table",
    "legion_choices",
    "loadout_item",
    "option_choices",
    "run_cells",
    "setup_from_scenarios",
    "setup_scenarios",
]

MAX_ATTACKERS = 8
"""Attackers side by side at most."""
_SEP = " vs "


@dataclass(frozen=True)
class Attacker:
    """One attacker of the workbench.

    Attributes:
        label: Its name in the table (unique in a setup).
        block: The scenario's ``attacker`` block: a datasheet (``{"name", "faction", "size", "loadout"}``) or a
            statline (``{"BS", "models", ...}``); ``modifiers`` and ``charging`` are added from the fields below.
        weapon: A statline attacker's weapon (a name or a profile block); None for a datasheet.
        phase: ``"shooting"`` or ``"melee"``.
        modifiers: Its own modifiers.
        charging: It charged (melee: +1 Attack, Furious Charge).
    """

    label: str
    block: Mapping[str, Any]
    weapon: Any = None
    phase: str = "shooting"
    modifiers: Modifiers = NO_MODIFIERS
    charging: bool = False

    def scenario_attacker(self) -> dict[str, Any]:
        """The ``attacker`` block of its scenarios."""
        out = {k: v for k, v in self.block.items() if k not in ("modifiers", "charging")}
        if self.modifiers != NO_MODIFIERS:
            out["modifiers"] = self.modifiers.to_block()
        if self.charging and self.phase == "melee":
            out["charging"] = True
        return out


@dataclass(frozen=True)
class Target:
    """One target: its label and the scenario's ``target`` block (a name, or ``{"name", "models"}``)."""

    label: str
    block: Any
    points_per_model: float = math.nan
    extra: Mapping[str, Any] = field(default_factory=dict)


def option_choices(datasheet: str, faction: str, legion: str | None = None) -> list[tuple[str, Any]]:
    """(label, loadout item) of the options a datasheet shows for the force fielding it, each with its cost:
    ``("Power Fist (Legion Tactical Sergeant) +15 pts", {"option": "Power Fist", "model": "Legion Tactical
    Sergeant"})`` (an option for the whole unit: its bare name). The options are the ones ``praetor calc``
    accepts for ``{"name": datasheet, "faction": faction, "legion": legion}`` (one reading:
    :func:`praetor_analysis.units.datasheet.shown_options`; ``legion`` None: the datasheet's own). The items
    are hashable (a tuple of pairs, :func:`loadout_item` turns one into the scenario's form).

    Raises:
        ScenarioError: An unknown datasheet or Legion.
    """
    from praetor_analysis.units import shown_options

    block: dict[str, Any] = {"name": datasheet, "faction": faction}
    if legion:
        block["legion"] = legion
    out: dict[str, Any] = {}
    for r in shown_options(block).to_dict("records"):
        cost = float(r.get("points") or 0.0)
        per = float(r.get("points_per_model") or 0.0)
        price = f"+{cost:g} pts" if cost else "free"
        if per:
            price += f", +{per:g} per model"
        who = "for the unit" if r["model"] == "(unit)" else str(r["model"])
        label = f"{r['option']} ({who}) {price}"
        item = (
            str(r["option"]) if r["model"] == "(unit)" else (("option", str(r["option"])), ("model", str(r["model"])))
        )
        out.setdefault(label, item)
    return sorted(out.items())


def legion_choices() -> list[tuple[str, str]]:
    """The Legion picker's (label, ``legion``): the datasheet's own (none given), then each Legion the data's
    conditions name (``("I: Dark Angels", "Dark Angels")``), as :func:`option_choices` takes them."""
    from praetor_analysis.units import legion_names

    named = sorted(legion_names().values(), key=lambda n: n.split(":", 1)[1].strip())
    return [("the datasheet's own", ""), *((n, n.split(":", 1)[1].strip()) for n in named)]


def loadout_item(item: Any) -> Any:
    """The scenario's form of an :func:`option_choices` item: a name, or ``{"option", "model"}``."""
    return item if isinstance(item, str) else dict(item)


def setup_scenarios(attackers: Sequence[Attacker], targets: Sequence[Target], *, half_range: bool = False) -> list:
    """The setup as ``praetor calc`` scenarios: one per attacker and target, named ``"ATTACKER vs TARGET"``."""
    out = []
    for a in attackers:
        for t in targets:
            doc: dict[str, Any] = {
                "name": f"{a.label}{_SEP}{t.label}",
                "mode": a.phase,
                "attacker": a.scenario_attacker(),
            }
            if a.weapon is not None:
                doc["weapon"] = a.weapon
            doc["target"] = t.block
            if half_range and a.phase == "shooting":
                doc["half_range"] = True
            out.append(doc)
    return out


def setup_from_scenarios(text: str) -> tuple[list[Attacker], list[Target], bool]:
    """The attackers, targets and half range of a saved setup (:func:`setup_scenarios` as JSON).

    Raises:
        ScenarioError: Not JSON, not a list of named scenarios, or a bad ``modifiers`` block.
    """
    from praetor_analysis.errors import PraetorError, ScenarioError
    from praetor_analysis.io import parse_json
    from praetor_analysis.views.setup_check import check_round_trip

    try:
        data = parse_json(text, "setup")
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field) from None
    if not isinstance(data, list) or not data or not all(isinstance(d, Mapping) for d in data):
        raise ScenarioError("setup: expected a JSON list of scenarios")
    attackers: dict[str, Attacker] = {}
    targets: dict[str, Target] = {}
    half = False
    for n, doc in enumerate(data):
        name = doc.get("name")
        if not isinstance(name, str) or _SEP not in name:
            raise ScenarioError(f"setup[{n}].name: expected 'ATTACKER vs TARGET', got {name!r}")
        a_label, t_label = name.split(_SEP, 1)
        block = doc.get("attacker")
        if not isinstance(block, Mapping):
            raise ScenarioError(f"setup[{n}].attacker: expected an object, got {block!r}")
        if a_label not in attackers:
            if len(attackers) >= MAX_ATTACKERS:
                raise ScenarioError(f"setup[{n}]: at most {MAX_ATTACKERS} attackers")
            attackers[a_label] = Attacker(
                label=a_label,
                block={k: v for k, v in block.items() if k not in ("modifiers", "charging")},
                weapon=doc.get("weapon"),
                phase=str(doc.get("mode", "shooting")),
                modifiers=Modifiers.from_block(block.get("modifiers", {}), f"setup[{n}].attacker.modifiers"),
                charging=bool(block.get("charging", False)),
            )
        if t_label not in targets:
            targets[t_label] = Target(t_label, doc.get("target"))
        half = half or bool(doc.get("half_range", False))
    # the setup computes what praetor calc computes from the file, or the load is refused saying what differs
    made = {d["name"]: d for d in setup_scenarios(list(attackers.values()), list(targets.values()), half_range=half)}
    check_round_trip(data, [made.get(d.get("name")) for d in data], "setup")
    return list(attackers.values()), list(targets.values()), half


def run_cells(scenarios: Sequence[Mapping[str, Any]]) -> list[dict[str, Any] | str]:
    """The result of each scenario (``praetor calc``'s), or the one-line message of a refused one."""
    from praetor_analysis.errors import PraetorError
    from praetor_analysis.scenario.calc import calc

    out: list[dict[str, Any] | str] = []
    for doc in scenarios:
        try:
            out.append(calc(dict(doc)))
        except PraetorError as exc:
            out.append(str(exc))
    return out


def _mean(result: Mapping[str, Any], key: str) -> float:
    value = result.get(key)
    return float(value["mean"]) if isinstance(value, Mapping) and "mean" in value else math.nan


def cells_table(
    attackers: Sequence[Attacker], targets: Sequence[Target], results: Sequence[dict[str, Any] | str]
) -> pd.DataFrame:
    """One row per attacker and target: ``attacker``, ``target``, ``points`` (the attacker's), ``measure``,
    ``models`` (expected models removed; a vehicle: the chance it is wrecked), ``wounds`` (wounds taken off
    the target's models; a vehicle: hull points), ``p_any``, ``points_removed`` (the target's points per
    model times the models removed) and ``per_100_pts`` (points removed per 100 points of the attacker);
    ``error`` for a refused cell."""
    rows = []
    cells = iter(results)
    for a in attackers:
        for t in targets:
            r = next(cells)
            row: dict[str, Any] = {"attacker": a.label, "target": t.label}
            if isinstance(r, str):
                rows.append({**row, "error": r})
                continue
            vehicle = "hull_points" in r
            given = r.get("points", a.block.get("points"))  # a datasheet's as calc prices it, else a statline's own
            pts = float(given) if isinstance(given, (int, float)) and not isinstance(given, bool) else math.nan
            models = float(r.get("wrecked") or 0.0) if vehicle else _mean(r, "casualties")
            wounds = _mean(r, "hull_points") if vehicle else _mean(r, "wounds_caused")
            if math.isnan(wounds):
                wounds = _mean(r, "unsaved")
            pmf = r["hull_points" if vehicle else "casualties"]["pmf"]
            removed = models * t.points_per_model
            row.update(
                points=pts,
                measure="hull points" if vehicle else "models",
                models=models,
                wounds=wounds,
                p_any=float(1.0 - pmf[0]) if pmf else math.nan,
                points_removed=removed,
                per_100_pts=removed / pts * 100.0 if pts and pts > 0 else math.nan,
                not_modelled="; ".join(map(str, r.get("not_modelled", []))),
                error="",
            )
            rows.append(row)
    return pd.DataFrame(rows)


def cell_pmf(result: dict[str, Any] | str) -> tuple[list[float], str]:
    """The whole distribution of a cell (models removed; a vehicle: hull points) and what it counts."""
    if isinstance(result, str):
        return [1.0], "models"
    if "hull_points" in result:
        return list(result["hull_points"]["pmf"]), "hull points"
    return list(result["casualties"]["pmf"]), "models"
