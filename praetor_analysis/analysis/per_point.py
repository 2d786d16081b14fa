"""The main job per point: iconic weapons as the options that carry them on named datasheets, and iconic
datasheets as fielded, rated per 100 points against the standard targets.

A weapon has no points of its own: what it costs is the price of the option that puts it on a unit. So a
Lascannon is rated as a Heavy Support Squad taking its lascannons, a Power Fist as a Tactical Squad's
Sergeant taking one, each unit fielded and priced by :func:`~praetor_analysis.units.fielded.fielded_unit`
(the same reading as ``praetor calc`` and ``praetor wargear``) and rated by
:func:`~praetor_analysis.analysis.unit_ratings.rate`: models removed (hull points of a vehicle) by the whole
unit, per 100 of its points; in melee the unit charges and the target does not strike back.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from praetor_analysis.analysis.unit_ratings import RATING_COLUMNS, edition_targets, rate, standard_targets
from praetor_analysis.errors import ScenarioError, counted_noun
from praetor_analysis.profiles import Unit
from praetor_analysis.units import Hh3Target, fielded_unit, hh3_fielded_datasheet

__all__ = [
    "HH3_ICONIC",
    "ICONIC_OPTIONS",
    "ICONIC_UNITS",
    "PER_POINT_COLUMNS",
    "Fielded",
    "hh3_per_point_table",
    "per_point_table",
]


@dataclass(frozen=True)
class Fielded:
    """One row label of the per-point table: a datasheet block as fielded and the phases it is rated in.

    Attributes:
        label: What the row stands for (the iconic weapon, or the datasheet).
        block: The datasheet block (``{"name", "size", "loadout"}``), as ``praetor calc`` takes it.
        phases: The phases rated.
        weapons: The catalog weapon names the row answers for (the profiles of the default report it prices).
    """

    label: str
    block: Mapping[str, Any]
    phases: tuple[str, ...] = ("shooting",)
    weapons: tuple[str, ...] = field(default=())


_HSS = "Heavy Support Squad"
_TSS = "Tactical Support Squad"
_CONTEMPTOR = "Contemptor Dreadnought Talon"

#: The iconic weapons of the default report, each on a datasheet that carries it (the option that does).
ICONIC_OPTIONS: tuple[Fielded, ...] = (
    Fielded("Bolter", {"name": "Tactical Squad", "size": 10}, weapons=("Bolter",)),
    Fielded("Heavy Bolter", {"name": _HSS}, weapons=("Heavy Bolter",)),
    Fielded("Autocannon", {"name": _HSS, "loadout": ["Autocannon"]}, weapons=("Autocannon",)),
    Fielded("Lascannon", {"name": _HSS, "loadout": ["Lascannon"]}, weapons=("Lascannon",)),
    Fielded(
        "Missile Launcher",
        {"name": _HSS, "loadout": ["Missile Launcher"]},
        weapons=("Missile Launcher - Krak", "Missile Launcher - Frag"),
    ),
    Fielded("Multi-Melta", {"name": _HSS, "loadout": ["Multi-Melta"]}, weapons=("Multi-Melta",)),
    Fielded("Volkite Culverin", {"name": _HSS, "loadout": ["Volkite Culverin"]}, weapons=("Volkite Culverin",)),
    Fielded("Plasma Gun", {"name": _TSS, "loadout": ["Plasma Gun"]}, weapons=("Plasma Gun",)),
    Fielded("Meltagun", {"name": _TSS, "loadout": ["Meltagun"]}, weapons=("Meltagun",)),
    Fielded("Heavy Flamer", {"name": "Predator Squadron", "loadout": ["Heavy Flamer"]}, weapons=("Heavy Flamer",)),
    Fielded(
        "Conversion Beam Cannon",
        {"name": _CONTEMPTOR, "loadout": ["Conversion Beam Cannon"]},
        weapons=("Conversion Beam Cannon (2)",),
    ),
    Fielded("Praetor Launcher", {"name": "Legion Praetor Armoured Assault Launcher"}, weapons=("Praetor Launcher",)),
    Fielded("Power Fist", {"name": "Tactical Squad", "size": 10, "loadout": ["Power Fist"]}, ("melee",)),
)
#: A few iconic datasheets as fielded (their default wargear), rated in both phases.
ICONIC_UNITS: tuple[Fielded, ...] = (
    Fielded("Tactical Squad", {"name": "Tactical Squad", "size": 10}, ("shooting", "melee")),
    Fielded("Assault Squad", {"name": "Assault Squad", "size": 10}, ("shooting", "melee")),
    Fielded("Terminator Cataphractii Squad", {"name": "Terminator Cataphractii Squad"}, ("shooting", "melee")),
    Fielded("Contemptor Dreadnought", {"name": _CONTEMPTOR}, ("shooting", "melee")),
    Fielded("Predator", {"name": "Predator Squadron"}),  # a vehicle without WS does not fight
)
_LASRIFLES = "Lasrifle Section"
_STRIKE_TANK = "Leman Russ Strike Tank"
_BOTH = ("shooting", "melee")

#: The 3rd edition's iconic weapons and datasheets of its shipped catalogs (``option``: the label of the option that
#: carries the weapon, :func:`~praetor_analysis.units.hh3_datasheet.hh3_option_named`).
HH3_ICONIC: tuple[Fielded, ...] = (
    Fielded("Plasma pistol", {"name": _LASRIFLES, "option": "Plasma pistol (Auxilia Sergeant)"}),
    Fielded("Hand flamer", {"name": _LASRIFLES, "option": "Hand flamer (Auxilia Sergeant)"}),
    Fielded("Power fist", {"name": _LASRIFLES, "option": "Power fist (Auxilia Sergeant)"}, ("melee",)),
    Fielded("Lascannon", {"name": _STRIKE_TANK, "option": "Lascannon"}),
    Fielded("Twin lascannon", {"name": _STRIKE_TANK, "option": "Twin lascannon"}),
    Fielded("Gravis autocannon", {"name": _STRIKE_TANK, "option": "Gravis autocannon"}),
    Fielded(_LASRIFLES, {"name": _LASRIFLES}, _BOTH),
    Fielded("Veletaris Storm Section", {"name": "Veletaris Storm Section"}, _BOTH),
    Fielded(_STRIKE_TANK, {"name": _STRIKE_TANK}, _BOTH),  # a vehicle that does not strike: nothing in melee
    Fielded("Ruinstorm Lesser Daemons", {"name": "Ruinstorm Lesser Daemons"}, _BOTH),
    Fielded("Custodian Guard Sodality", {"name": "Custodian Guard Sodality"}, _BOTH),
    Fielded("Knight Questoris", {"name": "Knight Questoris"}, _BOTH),
)
PER_POINT_COLUMNS = [
    "kind",
    "label",
    "datasheet",
    "loadout",
    *(c for c in RATING_COLUMNS if c != "unit"),
    "weapon_names",
]
"""Columns of :func:`per_point_table`: ``kind`` is ``"weapon"`` (an iconic weapon as an option) or ``"unit"``
(a datasheet as fielded); ``weapons`` the weapons each group of models used; ``weapon_names`` the catalog
weapons the row prices."""


def _loadout_text(block: Mapping[str, Any], size: int) -> str:
    items = [str(i if isinstance(i, str) else i.get("option")) for i in block.get("loadout", [])]
    return counted_noun(size, "model") + (f", {', '.join(items)}" if items else ", as fielded")


def per_point_table(
    targets: Iterable[tuple[str, Unit]] | None = None,
    *,
    rows: Sequence[Fielded] = (*ICONIC_OPTIONS, *ICONIC_UNITS),
    half_range: bool = False,
) -> pd.DataFrame:
    """Each fielded row against each target, in its phases (see :data:`PER_POINT_COLUMNS`).

    Args:
        targets: ``(label, Unit)`` pairs (default the standard targets, :func:`standard_targets`).
        rows: The datasheets to rate (default :data:`ICONIC_OPTIONS` then :data:`ICONIC_UNITS`).
        half_range: Targets at half range (Rapid Fire, Melta).

    A row whose datasheet or loadout the data no longer offers is kept with its ``error``.
    """
    tlist = list(standard_targets() if targets is None else targets)
    frames = []
    for row in rows:
        kind = "unit" if row in ICONIC_UNITS else "weapon"
        base = {"kind": kind, "label": row.label, "datasheet": str(row.block["name"]),
                "weapon_names": "; ".join(row.weapons)}  # fmt: skip
        try:
            unit = fielded_unit(row.block, "datasheet")
        except ScenarioError as exc:
            frames.append(pd.DataFrame([{**base, "loadout": "", "points": float("nan"), "error": str(exc)}]))
            continue
        rated = rate(unit, tlist, phases=row.phases, half_range=half_range, label=row.label)
        loadout = _loadout_text(row.block, unit.size)
        rated = rated.drop(columns=["unit"]).assign(**base, loadout=loadout)
        frames.append(rated)
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return frame.reindex(columns=PER_POINT_COLUMNS)


def hh3_per_point_table(
    targets: Iterable[tuple[str, Hh3Target]] | None = None, rows: Sequence[Fielded] = HH3_ICONIC
) -> pd.DataFrame:
    """:func:`per_point_table` of the 3rd edition: each row's datasheet of the shipped catalogs, as fielded or with
    its ``option`` (:func:`~praetor_analysis.units.hh3_datasheet.hh3_fielded_datasheet`, the reading of ``praetor
    wargear --edition hh3``), against the 3rd edition's standard targets; ``kind`` is ``"weapon"`` for a row with
    an option, ``"unit"`` for a datasheet as fielded (``targets``: ``(label, Hh3Target)``, default the 3rd edition's
    standard targets)."""
    tlist = list(edition_targets("hh3") if targets is None else targets)
    frames = []
    for row in rows:
        kind = "weapon" if "option" in row.block else "unit"
        base = {"kind": kind, "label": row.label, "datasheet": str(row.block["name"]),
                "weapon_names": "; ".join(row.weapons)}  # fmt: skip
        try:
            unit = hh3_fielded_datasheet(row.block)
        except ScenarioError as exc:
            frames.append(pd.DataFrame([{**base, "loadout": "", "points": float("nan"), "error": str(exc)}]))
            continue
        rated = rate(unit, tlist, phases=row.phases, label=row.label)
        loadout = _loadout_text({"loadout": [row.block["option"]]} if kind == "weapon" else {}, unit.size)
        frames.append(rated.drop(columns=["unit"]).assign(**base, loadout=loadout))
    return pd.concat(frames, ignore_index=True).reindex(columns=PER_POINT_COLUMNS)
