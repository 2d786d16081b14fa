"""List against list: every unit of each side against every unit of the other, shooting and melee, exactly.

A pair is one attacking unit of one list against one unit of the other, in one phase, each from the start
(a fresh target). Shooting: the unit fires as :func:`~praetor_analysis.units.attack.shooting` has it
(one weapon per model, its best for the target). Melee: the attacker charges; the target fights back for the
whole round, every group of it with its own statline and wargear at its own Initiative step
(:mod:`~praetor_analysis.analysis.army_list`), unless it is a vehicle or has no WS, I or A, when only the
attacker strikes.

Measures of a pair row (:data:`PAIR_COLUMNS`): ``removed`` the distribution of models removed (hull points
for a vehicle) as a pmf list, ``wounds`` the wounds taken off the target's models (hull points for a
vehicle), ``p_destroyed`` P(the whole unit removed or the vehicle wrecked), ``points_removed`` the expected
points removed (a model removed is worth the unit's points over its models; a vehicle its points when
wrecked, nothing otherwise), ``points_removed_per_100_pts`` that per 100 points of the attacker (also under
its older name ``per_100_pts``, kept for compatibility: in a pair row it is points, while ``praetor roster``'s
and ``wargear``'s ``per_100_pts`` is models or hull points), and in melee ``returned`` the attacker's models the
target removes in the round.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from praetor_analysis.analysis.army_list import ArmyList, ListUnit
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.profiles import is_vehicle_type
from praetor_analysis.units import (
    Hh3Target,
    Measure,
    Outcome,
    UnitAttackResult,
    hh3_melee,
    hh3_shooting,
    melee,
    shooting,
)

__all__ = [
    "PAIR_COLUMNS",
    "PHASES",
    "Pair",
    "PairRow",
    "pair_result",
    "pair_row",
    "pair_rows",
    "points_pmf",
    "strikes_one_way",
]

PHASES = ("shooting", "melee")
PAIR_COLUMNS = [
    "side",
    "attacker_list",
    "attacker",
    "attacker_points",
    "target_list",
    "target",
    "target_points",
    "target_models",
    "phase",
    "measure",
    "mean",
    "removed",
    "wounds_mean",
    "wounds",
    "p_any",
    "p_destroyed",
    "points_removed",
    "points_removed_per_100_pts",
    "per_100_pts",
    "returned",
    "unsaved_mean",
    "weapons",
    "not_modelled",
    "error",
    "notes",
]
"""Columns of a pair row (see the module docstring); ``removed`` and ``wounds`` are pmf lists, ``notes`` is
``not_modelled`` as a list."""


@dataclass(frozen=True)
class Pair:
    """One attacking unit against one target unit in one phase."""

    side: str
    """Whose units attack: ``"mine"`` or ``"theirs"``."""
    attacker_list: str
    attacker: ListUnit
    target_list: str
    target: ListUnit
    phase: str
    half_range: bool = False
    """Shooting at half range (Rapid Fire twice, Melta): the lists face each other that close."""


ONE_WAY = "the target's blows back at a vehicle (Walker, Knight) in a whole round: it strikes one way"
"""The note of a melee pair whose attacker fights only with vehicles."""


def strikes_one_way(attacker: ListUnit) -> bool:
    """Whether the attacker's models are all vehicles (a Walker or Knight strikes with its WS, S, I and A, but a
    whole round would need its hull points under the foe's blows, which the round does not model)."""
    return all(is_vehicle_type(g.unit_type) for g in attacker.loadout.groups)


def pair_result(pair: Pair) -> UnitAttackResult:
    """The result of a pair, as ``praetor calc`` of the datasheet attacker and the target block gives it."""
    a, t = pair.attacker, pair.target
    if isinstance(t.target, Hh3Target):
        if pair.phase == "shooting":
            return hh3_shooting(a.loadout, t.target)
        if t.fighter is None or not isinstance(a.target, Hh3Target):
            return hh3_melee(a.loadout, t.target)
        return hh3_melee(a.loadout, t.target, enemy=t.loadout, body=a.target)  # it strikes back: a whole round
    if pair.phase == "shooting":
        return shooting(a.loadout, t.target, half_range=pair.half_range)
    if t.fighter is None:
        return melee(a.loadout.with_flags(charging=True), t.target)
    if strikes_one_way(a):
        result = melee(a.loadout.with_flags(charging=True), t.target)
        return replace(result, not_modelled=(*result.not_modelled, ONE_WAY))
    return melee(a.loadout.with_flags(charging=True), t.target, target_unit=t.loadout)


def points_pmf(result: UnitAttackResult | Outcome, target: ListUnit) -> dict[float, float]:
    """The distribution of points removed, ``{points: probability}`` (see the module docstring)."""
    if result.measure is Measure.HULL_POINTS:
        wrecked = result.wiped
        return {0.0: 1.0 - wrecked, float(target.points): wrecked} if wrecked else {0.0: 1.0}
    pmf = result.removed.probabilities
    return {k * target.points_per_model: float(p) for k, p in enumerate(pmf) if p}


@dataclass(frozen=True)
class PairRow:
    """One row of :data:`PAIR_COLUMNS` (see the module docstring): who attacks whom, in which phase, and the
    numbers of its result (NaN, with ``error`` saying why, when it could not be computed)."""

    side: str
    attacker_list: str
    attacker: str
    attacker_points: float
    target_list: str
    target: str
    target_points: float
    target_models: int
    phase: str
    measure: str = ""
    mean: float = math.nan
    removed: tuple[float, ...] = (1.0,)
    wounds_mean: float = math.nan
    wounds: tuple[float, ...] = (1.0,)
    p_any: float = math.nan
    p_destroyed: float = math.nan
    points_removed: float = math.nan
    points_removed_per_100_pts: float = math.nan
    per_100_pts: float = math.nan
    """The older name of ``points_removed_per_100_pts`` (the same value), kept for compatibility."""
    returned: float = math.nan
    unsaved_mean: float = math.nan
    weapons: str = ""
    not_modelled: str = ""
    error: str = ""
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The row as a mapping of :data:`PAIR_COLUMNS` (``removed``, ``wounds`` and ``notes`` as lists)."""
        row = {c: getattr(self, c) for c in PAIR_COLUMNS}
        return {**row, "removed": list(self.removed), "wounds": list(self.wounds), "notes": list(self.notes)}


def pair_row(pair: Pair, result: UnitAttackResult | None, error: str = "") -> PairRow:
    """The row of a pair from its result's fields (None with ``error`` when it could not be computed)."""
    a, t = pair.attacker, pair.target
    who = PairRow(
        pair.side, pair.attacker_list, a.label, float(a.loadout.points), pair.target_list, t.label,
        float(t.points), t.models, pair.phase, error=error,
    )  # fmt: skip
    if result is None:
        return replace(who, not_modelled="; ".join(t.notes), notes=tuple(t.notes))
    removed = tuple(float(p) for p in result.removed.probabilities)
    points = sum(k * p for k, p in points_pmf(result, t).items())
    per_100 = 100.0 * points / a.loadout.points if a.loadout.points > 0 else math.nan
    notes = tuple(dict.fromkeys([*result.not_modelled, *t.notes]))
    return replace(
        who,
        measure=result.measure.value,
        mean=result.removed.mean(),
        removed=removed,
        wounds_mean=result.wounds.mean(),
        wounds=tuple(float(p) for p in result.wounds.probabilities),
        p_any=max(0.0, 1.0 - removed[0]),
        p_destroyed=result.wiped,
        points_removed=points,
        points_removed_per_100_pts=per_100,
        per_100_pts=per_100,
        returned=result.returned.mean() if result.returned is not None else 0.0,
        unsaved_mean=result.unsaved.mean(),
        weapons="; ".join(f"{c.count} {c.model}: {c.weapon}" for c in result.chosen),
        not_modelled="; ".join(notes),
        notes=notes,
    )


def pairs_of(
    mine: ArmyList, theirs: ArmyList, phases: Sequence[str] = PHASES, *, half_range: bool = False
) -> list[Pair]:
    """Every pair, both directions: my units against theirs, then theirs against mine."""
    out: list[Pair] = []
    for side, atk, tgt in (("mine", mine, theirs), ("theirs", theirs, mine)):
        for a in atk.units:
            for t in tgt.units:
                out.extend(Pair(side, atk.name, a, tgt.name, t, phase, half_range) for phase in phases)
    return out


def pair_rows(
    mine: ArmyList,
    theirs: ArmyList,
    phases: Sequence[str] = PHASES,
    *,
    half_range: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Every pair's row (:data:`PAIR_COLUMNS`), my units attacking first; ``progress(done, total)`` is called
    after each pair."""
    rows = []
    done: dict[tuple[Any, ...], tuple[UnitAttackResult | None, str]] = {}
    pairs = pairs_of(mine, theirs, phases, half_range=half_range)
    for pair in pairs:
        key = _pair_key(pair)
        if key not in done:  # identical units (two Tactical Squads alike) are computed once
            try:
                done[key] = (pair_result(pair), "")
            except (ScenarioError, ProfileError) as exc:
                done[key] = (None, str(exc))
        rows.append(pair_row(pair, *done[key]).to_dict())
        if progress is not None:
            progress(len(rows), len(pairs))
    return pd.DataFrame(rows, columns=PAIR_COLUMNS)


def _pair_key(pair: Pair) -> tuple[Any, ...]:
    """What a pair's result depends on: the attacker's groups, the target without its label, the phase."""
    a, t = pair.attacker, pair.target
    fights = repr(t.loadout.groups) if t.fighter is not None and pair.phase == "melee" else ""
    body = repr(sorted(t.target.block.items())) if isinstance(t.target, Hh3Target) else replace(t.target, name="")
    return (
        repr(a.loadout.groups),
        a.loadout.modifiers,
        body,
        pair.phase,
        fights,
        pair.half_range,
    )
