"""One list against another: the pair table both ways, both phases, and the fire plan each way.

``matchup(MINE, THEIRS)`` reads two lists (roster files, JSON datasheet lists, or :class:`ArmyList`) and
returns a :class:`Matchup`: ``pairs`` (a DataFrame of
:data:`~praetor_analysis.analysis.matchup.PAIR_COLUMNS`) and ``plans`` (mine at theirs, theirs at mine).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from praetor_analysis.analysis.army_list import ArmyList, load_list
from praetor_analysis.analysis.fire_plan import FirePlan, fire_plan
from praetor_analysis.analysis.matchup import PHASES, pair_rows
from praetor_analysis.analysis.unit_ratings import unit_notes
from praetor_analysis.engine import check_cost, unit_cost
from praetor_analysis.errors import ScenarioError

__all__ = ["Matchup", "key_units", "matchup", "matchup_cost", "matchup_pairs"]


@dataclass(frozen=True)
class Matchup:
    """Two lists, every pair's row, and the fire plan of each side's shooting."""

    mine: ArmyList
    theirs: ArmyList
    pairs: pd.DataFrame
    plans: tuple[FirePlan, FirePlan]

    def to_dict(self) -> dict[str, Any]:
        """``{"lists", "pairs", "plans", "not_modelled"}``: JSON-ready (NaN as None); ``not_modelled`` lists each
        attacking unit's notes over its pairs (``{"side", "unit", "not_modelled"}``)."""
        return {
            "lists": [
                {"name": a.name, "points": a.points, "units": [u.label for u in a.units], "account": a.account}
                for a in (self.mine, self.theirs)
            ],
            "pairs": _pairs_json(self.pairs),
            "plans": [p.to_dict() for p in self.plans],
            "not_modelled": [
                {"side": side, "unit": unit, "not_modelled": notes} for (side, unit), notes in self.notes().items()
            ],
        }

    def notes(self) -> dict[tuple[str, str], list[str]]:
        """Each attacking unit's distinct notes of what was not modelled over its pairs, by ``(side, unit)``
        (units without notes left out), in first-seen order."""
        keys = zip(self.pairs["side"].astype(str), self.pairs["attacker"].astype(str), strict=True)
        return unit_notes(zip(keys, self.pairs["notes"], strict=True))

    def unit_notes(self) -> dict[str, list[str]]:
        """:meth:`notes` keyed by a label naming the list: ``Tactical Squad (mine: Alpha)``."""
        names = {"mine": self.mine.name, "theirs": self.theirs.name}
        return {f"{unit} ({names.get(side, side)})": notes for (side, unit), notes in self.notes().items()}


def _as_list(value: ArmyList | str | Path) -> ArmyList:
    return value if isinstance(value, ArmyList) else load_list(value)


def matchup_pairs(
    mine: ArmyList | str | Path, theirs: ArmyList | str | Path, *, phases: Sequence[str] = PHASES
) -> pd.DataFrame:
    """Every unit of each list against every unit of the other, in each phase: one row per pair."""
    return pair_rows(_as_list(mine), _as_list(theirs), phases)


def matchup(
    mine: ArmyList | str | Path,
    theirs: ArmyList | str | Path,
    *,
    phases: Sequence[str] = PHASES,
    half_range: bool = False,
    progress: Callable[[str, int, int], None] | None = None,
) -> Matchup:
    """The pair table and both fire plans (see the module docstring; ``half_range``: the lists shoot each
    other at half range; ``progress(stage, done, total)`` is called as the work goes: ``"pairs"`` after each
    pair, ``"fire plans"`` after each plan)."""
    a, b = _as_list(mine), _as_list(theirs)
    if a.edition != b.edition:
        names = [Path(x).name if isinstance(x, (str, Path)) else x.name for x in (mine, theirs)]
        raise ScenarioError(
            f"theirs: {names[1]} is a {b.edition} list and {names[0]} a {a.edition} one (both of one edition)",
            field="theirs",
        )
    check_cost(matchup_cost(a, b, len(phases)), "matchup")
    tell = progress or (lambda stage, done, total: None)
    first = fire_plan(a, b, half_range=half_range)
    tell("fire plans", 1, 2)
    second = fire_plan(b, a, half_range=half_range)
    tell("fire plans", 2, 2)
    pairs = pair_rows(a, b, phases, half_range=half_range, progress=lambda done, total: tell("pairs", done, total))
    return Matchup(a, b, pairs, (first, second))


def matchup_cost(mine: ArmyList, theirs: ArmyList, phases: int = len(PHASES)) -> int:
    """The cost model's work of a matchup (docs/limits.md): each unit's attacks x models x weapon profiles,
    times the units it faces and the phases, both ways (equal pairs are computed once, so this bounds it)."""

    def work(army: ArmyList) -> int:
        return sum(
            unit_cost(_attacks(g.attacks), g.count, len(g.weapons)) for u in army.units for g in u.loadout.groups
        )

    return phases * (work(mine) * len(theirs.units) + work(theirs) * len(mine.units))


def _attacks(value: Any) -> int:
    try:
        return max(1, int(value))
    except (TypeError, ValueError):
        return 1


def _plain(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "item") and not isinstance(value, (str, bytes, list)):
        return _plain(value.item())
    return value


def _pairs_json(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The pair rows as JSON-ready dicts (NaN as None)."""
    return [{str(k): _plain(v) for k, v in row.items()} for row in frame.to_dict(orient="records")]


def key_units(frame: pd.DataFrame, side: str, n: int = 3) -> list[tuple[str, float]]:
    """The ``n`` units of ``side`` ("mine" or "theirs") that remove the most points at their best target,
    shooting or melee: ``(unit, points)``."""
    rows = frame[(frame["side"] == side) & frame["points_removed"].notna()]
    if rows.empty:
        return []
    best = rows.groupby("attacker", sort=False)["points_removed"].max().sort_values(ascending=False, kind="stable")
    return [(str(k), float(v)) for k, v in best.head(n).items()]
