"""The engine side of a unit's volleys: merged where exact, scored one by one, resolved as one firing unit.

:func:`firing_units_result` resolves units' volleys against a target, each unit as one firing unit (the
damaged model and hull points carry over, Pinning is tested once per unit), with the wounds caused;
:func:`best_volley` picks the volley that takes the most wounds off the target's models (hull points off a
vehicle), ties to the first; :func:`wounds_caused` reads the wounds taken off the models from a final state.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from praetor_analysis.engine import Casualties, TargetState, Volley, resolve, resolve_many, resolve_sequence
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.prob import BoundedMemo, Dist
from praetor_analysis.profiles import Unit, Weapon
from praetor_analysis.rules import Role
from praetor_analysis.units.result import Outcome
from praetor_analysis.vehicles import hull_points_many, resolve_vehicle_scenario

__all__ = [
    "best_volley",
    "firing_units_result",
    "merge_volleys",
    "wounds_caused",
]


def merge_volleys(volleys: Sequence[Volley]) -> list[Volley]:
    """Volleys of the same weapon by models of the same shooting or striking characteristics, as one volley.

    Exact: the shots (or blows) of both are independent with the same per-shot outcome, and the chain
    takes a volley's hits in turn, so one volley of the summed models (summed blows in melee) is the
    same as the two in a row. Master-crafted (one re-roll per model) volleys are left apart.
    """
    out: list[Volley] = []
    keys: dict[tuple[Any, ...], int] = {}
    for v in volleys:
        a = v.attacker
        key = (v.weapon, v.mode, v.half_range, a.BS, a.WS, a.S, a.T, a.W, a.save, a.rules,
               a.unit_type.replace("Character, ", "").replace(", Character", "").replace("Character", ""),
               a.charging, a.two_weapons, a.disordered, a.wounds_taken)  # fmt: skip
        if v.weapon.plays(Role.ONE_REROLL_PER_MODEL) or v.hits is not None or key not in keys:
            keys.setdefault(key, len(out))
            out.append(v)
            continue
        i = keys[key]
        first = out[i]
        models = first.attacker.models + a.models
        attacks = None
        if first.attacks is not None or v.attacks is not None:
            if not (isinstance(first.attacks, Dist) and isinstance(v.attacks, Dist)):
                out.append(v)
                continue
            attacks = first.attacks + v.attacks
        out[i] = Volley(first.weapon, replace(first.attacker, models=models), first.mode, attacks, None,
                        first.snap_shots, first.half_range)  # fmt: skip
    return out


def firing_units_result(target: Unit, firing_units: Sequence[Sequence[Volley]]) -> Outcome:
    """Several units' volleys in turn at one target, the damaged model (or hull points) carried over and
    Pinning tested per unit: what they removed, a typed :class:`~praetor_analysis.units.result.Outcome` (with the
    wounds taken off the models: its ``to_dict()`` is the scenario result plus ``wounds_caused``)."""
    units = [merge_volleys(u) for u in firing_units if u]
    if not units:
        raise ScenarioError("firing_units: no volley to resolve")
    if target.is_vehicle:
        return Outcome.of(resolve_vehicle_scenario(target, units), target)
    res = resolve_sequence(target, units)
    return Outcome.of(res, target, wounds_caused(res.state, target) if res.state is not None else None)


_SINGLES: BoundedMemo[tuple[float, float, float]] = BoundedMemo(20_000)
"""Each volley's score against a target (a sweep scores the same weapons for variant after variant)."""


def _single(target: Unit, volley: Volley) -> tuple[float, float, float]:
    """How much one volley alone does: (wounds taken off the models, or hull points; models removed; range),
    memoised by the target and the volley (with its zone hits, which the volley's equality leaves out)."""
    zones = None if volley.zone_hits is None else (volley.zone_hits.shape, volley.zone_hits.tobytes())
    return _SINGLES.get((target, volley, zones), lambda: _single_score(target, volley))


def _single_score(target: Unit, volley: Volley) -> tuple[float, float, float]:
    """:func:`_single`, computed.

    Wounds rather than models come first, so that against multi-wound models a weapon that wounds without
    killing alone (one plasma pistol against Terminators) still counts; the sweep path when every wound
    does one damage to one-wound models or the target is a vehicle.
    """
    if target.is_vehicle or (target.W or 1) == 1:
        pmf = _quick(volley, target)
        if pmf is not None:
            mean = float(pmf @ np.arange(pmf.size))
            return mean, mean, _reach(volley.weapon)
    if target.is_vehicle:
        hulls = resolve_vehicle_scenario(target, [[volley]])
        return hulls.hull_points.mean(), hulls.penetrating.mean(), _reach(volley.weapon)
    r = resolve(volley, target, keep_state=True)
    wounds = wounds_caused(r.state, target).mean() if r.state is not None else r.unsaved.mean()
    return float(wounds), float(r.casualties.mean()), _reach(volley.weapon)


def _quick(volley: Volley, target: Unit) -> np.ndarray | None:
    """The pmf of models removed (hull points off a vehicle) by the batch paths, or None when the full
    result is needed (a vehicle hit that does more than remove hull points)."""
    if target.is_vehicle:
        found = hull_points_many([(volley, target)])[0]
        if isinstance(found, PraetorError):
            raise ScenarioError(str(found))
        return None if found is None else found.hull_points
    result = resolve_many([(volley, target)], casualties_only=True)[0]
    if not isinstance(result, Casualties):
        raise ScenarioError(str(result))
    return np.asarray(result.casualties)


def _reach(w: Weapon) -> float:
    """Longest range in inches (a tie-break: the weapon that reaches further), 0 for melee."""
    return float(w.range.max_in or 0)


def wounds_caused(state: TargetState, target: Unit) -> Dist:
    """Wounds taken off the target's models (overflow on a dying model not counted), from its final state."""
    space = state.space
    kills = space.kills_of()
    left = np.tile(np.arange(1, space.wounds + 1), space.models + 1)
    lost = np.where(kills >= space.models, space.models * space.wounds, kills * space.wounds + space.wounds - left)
    taken = target.wounds_taken
    weights = state.probs.sum(axis=0)
    return Dist.from_trusted(np.bincount(np.maximum(lost - taken, 0), weights=weights))


def best_volley(target: Unit, volleys: list[Volley]) -> tuple[Volley, list[float]]:
    """The volley that does the most to the target alone, and each volley's score (wounds taken off the
    models, hull points off a vehicle; ties go to models removed, then to the longer range, then the first)."""
    if len(volleys) == 1:
        return volleys[0], []
    scores = [_single(target, v) for v in volleys]
    best = max(range(len(volleys)), key=lambda i: (scores[i], -i))
    return volleys[best], [s[0] for s in scores]
