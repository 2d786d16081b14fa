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
wrecked, nothing otherwise), ``per_100_pts`` that per 100 points of the attacker, and in melee
``returned`` the attacker's models the target removes in the round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from praetor_analysis.analysis.army_list import ArmyList, ListUnit
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.profiles import is_vehicle_type
from praetor_analysis.scenario import hh3_melee, hh3_shooting
from praetor_analysis.units import (
    GRENADE_PROFILES,
    NO_MODIFIERS,
    UNARMED,
    Hh3Target,
    Measure,
    Outcome,
    UnitAttackResult,
    defender_groups,
    melee,
    melee_weapons,
    shooting,
    shooting_volleys,
)

__all__ = [
    "PAIR_COLUMNS",
    "PHASES",
    "Pair",
    "pair_result",
    "pair_row",
    "pair_rows",
    "pair_scenario",
    "points_pmf",
    "target_weapon_blocks",
    "volley_blocks",
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
    return all(is_vehicle_type(g.statline.get("Unit Type")) for g in attacker.loadout.groups)


def target_weapon_blocks(attacker: ListUnit, target: ListUnit) -> list[Mapping[str, Any]] | None:
    """The weapon blocks the target's models fight back with against the attacker when they fight as one
    group (None: it does not fight back; [] when its groups fight each with its own): their profiles, the
    second weapon (the +1 Attack) after the first when they have one (see :func:`_second_block`)."""
    if target.fighter is None or strikes_one_way(attacker):
        return None
    defence = defender_groups(target.loadout, target.body, attacker.body)
    if len(defence) != 1:
        return []
    side, group = defence[0].side, defence[0].groups[0]
    by_name = {**{str(b.get("name")): b for b in group.weapons}, **GRENADE_PROFILES, UNARMED["name"]: UNARMED}
    return [by_name[w.name] for w in side.weapons]


def _second_block(attacker: ListUnit, target: ListUnit) -> Mapping[str, Any] | None:
    """The block of the second melee weapon of a target fighting back as one group (None: none)."""
    defence = defender_groups(target.loadout, target.body, attacker.body)
    second = defence[0].side.second_weapon if len(defence) == 1 else None
    if second is None:
        return None
    blocks = target_weapon_blocks(attacker, target) or []
    return next(b for b in blocks if str(b.get("name")) == second.name)


def _one_defender(attacker: ListUnit, target: ListUnit) -> bool:
    """Whether the target's models fight back as one group of the statline it is struck with (a calc round
    with its weapon blocks as ``target_weapon`` then gives the pair's result)."""
    defence = defender_groups(target.loadout, target.body, attacker.body)
    if len(defence) != 1 or defence[0].why:
        return False
    return replace(defence[0].side.unit, name="") == replace(target.target, name="")


def pair_result(pair: Pair) -> UnitAttackResult:
    """The result of a pair, as ``praetor calc`` of the datasheet attacker and the target block gives it."""
    a, t = pair.attacker, pair.target
    if isinstance(t.target, Hh3Target):
        return hh3_shooting(a.loadout, t.target) if pair.phase == "shooting" else hh3_melee(a.loadout, t.target)
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


def pair_row(pair: Pair, result: UnitAttackResult | None, error: str = "") -> dict[str, Any]:
    """One row of :data:`PAIR_COLUMNS` from a pair's result (None with ``error`` when it could not be computed)."""
    a, t = pair.attacker, pair.target
    row: dict[str, Any] = {
        "side": pair.side,
        "attacker_list": pair.attacker_list,
        "attacker": a.label,
        "attacker_points": float(a.loadout.points),
        "target_list": pair.target_list,
        "target": t.label,
        "target_points": float(t.points),
        "target_models": t.models,
        "phase": pair.phase,
        "error": error,
    }
    if result is None:
        nan = float("nan")
        return {**row, "measure": "", "mean": nan, "removed": [1.0], "wounds_mean": nan, "wounds": [1.0],
                "p_any": nan, "p_destroyed": nan, "points_removed": nan, "per_100_pts": nan, "returned": nan,
                "unsaved_mean": nan, "weapons": "", "not_modelled": "; ".join(t.notes),
                "notes": list(t.notes)}  # fmt: skip
    removed = [float(p) for p in result.removed.probabilities]
    wounds = [float(p) for p in result.wounds.probabilities]
    points = sum(k * p for k, p in points_pmf(result, t).items())
    notes = [*result.not_modelled, *t.notes]
    return {
        **row,
        "measure": result.measure.value,
        "mean": result.removed.mean(),
        "removed": removed,
        "wounds_mean": result.wounds.mean(),
        "wounds": wounds,
        "p_any": max(0.0, 1.0 - removed[0]),
        "p_destroyed": result.wiped,
        "points_removed": points,
        "per_100_pts": 100.0 * points / a.loadout.points if a.loadout.points > 0 else float("nan"),
        "returned": result.returned.mean() if result.returned is not None else 0.0,
        "unsaved_mean": result.unsaved.mean(),
        "weapons": "; ".join(f"{c.count} {c.model}: {c.weapon}" for c in result.chosen),
        "not_modelled": "; ".join(dict.fromkeys(notes)),
        "notes": list(dict.fromkeys(notes)),
    }


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
        rows.append(pair_row(pair, *done[key]))
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


def volley_blocks(unit: ListUnit, target: ListUnit, *, half_range: bool = False) -> list[dict[str, Any]]:
    """The volleys ``unit`` fires at ``target`` as ``praetor calc`` volley blocks (``attacker``, ``weapon``)."""
    try:
        _, chosen = shooting_volleys(unit.loadout, target.body, half_range=half_range)
    except (ScenarioError, ProfileError):
        return []
    used: set[tuple[int, str]] = set()
    out: list[dict[str, Any]] = []
    for c in chosen:
        for i, g in enumerate(unit.loadout.groups):
            names = [str(w.get("name")) for w in g.weapons]
            if g.model == c.model and g.count == c.count and c.weapon in names and (i, c.weapon) not in used:
                used.add((i, c.weapon))
                weapon = g.weapons[names.index(c.weapon)]
                volley = {"attacker": {**g.statline, "models": g.count, **_modifiers(unit)}, "weapon": dict(weapon)}
                block = {**volley, "half_range": True} if half_range else volley
                out.extend(dict(block) for _ in range(c.copies))  # every copy of the weapon fires
                break
    return out


def _modifiers(unit: ListUnit) -> dict[str, Any]:
    """The unit's attacker modifiers as the ``modifiers`` field of its calc attacker blocks (none: nothing)."""
    m = unit.loadout.modifiers
    return {"modifiers": m.to_block()} if m != NO_MODIFIERS else {}


def _melee_blocks(weapons: Sequence[Mapping[str, Any]], enemy: ListUnit) -> list[Mapping[str, Any]]:
    chosen = [w.name for w in melee_weapons(weapons, enemy.body)]
    by_name = {str(b.get("name")): b for b in weapons}
    return [by_name.get(n, UNARMED) for n in dict.fromkeys(chosen)]


def pair_scenario(pair: Pair) -> dict[str, Any] | None:
    """A ``praetor calc`` scenario that gives the pair's result: the unit's own block when it came from a
    JSON list or a roster file (its datasheet block, or ``{"roster", "unit"}``); else, for units made in code,
    shooting as ``firing_units`` of its volleys and a round of melee of a unit whose models fight as one
    group, and None for a melee with several groups striking (each at its Initiative step, which a single calc
    attacker block cannot state)."""
    a, t = pair.attacker, pair.target
    target = dict(t.target_block)
    blocks = target_weapon_blocks(a, t) if pair.phase == "melee" else None
    second = _second_block(a, t) if blocks else None
    if second is not None:
        target["second_weapon"] = dict(second)
    if a.source is not None and (blocks is None or t.source is not None or _one_defender(a, t)):
        attacker = {**a.source, **_modifiers(a)}
        if pair.phase == "melee":
            attacker["charging"] = True
        doc: dict[str, Any] = {"mode": pair.phase, "attacker": attacker, "target": target}
        if pair.half_range and pair.phase == "shooting":
            doc["half_range"] = True
        if blocks is not None and t.source is not None:  # its own models fight back, group by group
            doc["target"], doc["target_weapon"] = dict(t.source), True
        elif blocks is not None:
            doc["target_weapon"] = [dict(b) for b in blocks]
        return doc
    if pair.phase == "shooting":
        volleys = volley_blocks(a, t, half_range=pair.half_range)
        return {"firing_units": [volleys], "target": target} if volleys else None
    if blocks is None or not _one_defender(a, t):
        return None
    fighters = [
        g
        for g in a.loadout.groups
        if all(g.statline.get(k) not in (None, "", "-") for k in ("WS", "S", "T", "W", "I", "A"))
    ]
    if len(fighters) != 1:
        return None
    g = fighters[0]
    own = _melee_blocks(g.weapons, t)
    attacker = {**g.statline, "models": g.count, "charging": True, **_modifiers(a)}
    if len(own) > 1:
        attacker["second_weapon"] = dict(own[1])
    return {"mode": "melee", "attacker": attacker, "weapon": [dict(b) for b in own], "target": target,
            "target_weapon": [dict(b) for b in blocks]}  # fmt: skip
