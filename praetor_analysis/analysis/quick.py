"""The quick path for sweeps: casualties (or hull points) and Pinning of one volley, nothing else.

Catalog sweeps need, per weapon and target, only the distribution of models removed (hull points for a
Vehicle), P(pinned) and the rules not modelled. This module computes exactly those, with the engine's own
stages (``chain.hit_stage``, ``chain.wound_groups``, the vehicle per-hit outcome), skipping what a sweep
does not read. It handles the common case, where every wound does one damage on a fresh unit (the state
is then a function of the unsaved count) or the target is a vehicle; anything else returns None and the
caller uses ``scenario.calc``. Tests check it against ``calc`` on the whole shipped catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from praetor_analysis.engine.allocation import after_single_damage, single_damage
from praetor_analysis.engine.checks import check_boost
from praetor_analysis.engine.hit_stage import hit_stage
from praetor_analysis.engine.pinning import pinning_exempt, shell_shock_of
from praetor_analysis.engine.rule_report import classify_rules
from praetor_analysis.engine.volley import Volley, weapon_strength
from praetor_analysis.engine.wound_stage import wound_groups
from praetor_analysis.prob.dice import leadership_pass, sum_of_iid
from praetor_analysis.profiles.records import ProfileError, Unit
from praetor_analysis.rules.classify import RuleReport
from praetor_analysis.rules.damage_rules import DEFLAGRATE
from praetor_analysis.rules.morale_rules import PINNING
from praetor_analysis.scenario.calc import ScenarioError, parse_target, parse_volley

_SIMPLE_FIELDS = {"mode", "attacker", "weapon", "attacks", "snap_shots", "target", "hits", "half_range", "name"}


def quick_result(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """``{"casualties" | "hull_points": {"pmf": array}, "pinned": p, "not_modelled": [...]}`` for a simple
    single-volley scenario, or None when the scenario needs the full engine.

    Raises:
        ScenarioError: for bad input, exactly as ``calc`` would.
    """
    if not isinstance(data, Mapping) or set(data) - _SIMPLE_FIELDS or isinstance(data.get("weapon"), list):
        return None
    try:
        target = parse_target(data)
        volley = parse_volley(data)
        return quick_objects(volley, target)
    except ProfileError as exc:
        raise ScenarioError(str(exc)) from None


def quick_objects(volley: Volley, target: Unit) -> dict[str, Any] | None:
    """``quick_result`` for a volley and target already parsed (a sweep parses each once)."""
    try:
        if target.is_vehicle:
            return _vehicle(volley, target)
        return _unit(volley, target)
    except ProfileError as exc:
        raise ScenarioError(str(exc)) from None


def _unit(volley: Volley, target: Unit) -> dict[str, Any] | None:
    w = volley.weapon
    strength = weapon_strength(volley)
    if strength is None or check_boost(volley) is not None:
        return None
    hits, _, _, notes = hit_stage(volley, target)
    wounds = target.W or 1
    groups, _, unsaved_each = wound_groups(volley, target, strength, wounds)
    if not all(single_damage(g.packet) for g in groups):
        return None
    unsaved = sum_of_iid(hits.probabilities, unsaved_each)
    if w.has(DEFLAGRATE):
        unsaved = sum_of_iid(unsaved, np.concatenate(([0.0], unsaved_each)))
    taken = int(target.extra.get("wounds_taken", 0) or 0)
    m = target.models
    u = np.arange(unsaved.size)
    kills, _ = after_single_damage(u, wounds - taken, wounds, m)
    pmf = np.bincount(kills, weights=unsaved, minlength=1)
    if not w.has(PINNING):
        pinned: float | None = 0.0
    elif pinning_exempt(target):
        pinned = None
    else:
        tested = float(unsaved[(u >= 1) & (kills < m)].sum())
        pinned = tested * (1.0 - leadership_pass((target.Ld if target.Ld is not None else 0) - shell_shock_of(w)))
    _, _, missing = classify_rules(volley, target, notes)
    return {"casualties": {"pmf": pmf}, "pinned": pinned, "not_modelled": missing}


def _vehicle(volley: Volley, target: Unit) -> dict[str, Any] | None:
    from praetor_analysis.vehicles.attack import (
        classify_vehicle_rules,
        penetrating_weapon,
        vehicle_hits,
        vehicle_target,
    )
    from praetor_analysis.vehicles.hull_points import DEFAULT_DAMAGE_TABLE, per_hit_outcome

    vt = vehicle_target(target)
    hits, _ = vehicle_hits(volley, target)
    outcome, transitions = per_hit_outcome(penetrating_weapon(volley), vt, volley.half_range, DEFAULT_DAMAGE_TABLE)
    if transitions.state_dependent:  # hits are not alike (Sunder at few hull points left): the full chain
        return None
    top = vt.hp
    # hull points one hit removes (capped at the full hull points; a sum capped again equals the chain)
    per_hit = transitions[None][top, ::-1][: top + 1]
    if abs(per_hit.sum() - 1.0) > 1e-12:
        return None
    total = sum_of_iid(hits.probabilities, per_hit)
    left = vt.hp_left
    removed = np.zeros(left + 1)
    removed[: min(total.size, left + 1)] = total[: left + 1]
    removed[left] += total[left + 1 :].sum()
    report = RuleReport()
    classify_vehicle_rules(volley, target, report)
    for x in outcome.not_modelled:
        report.add("not_modelled", x)
    wrecked = float(removed[left])
    return {"hull_points": {"pmf": removed}, "wrecked": wrecked, "pinned": None, "not_modelled": report.not_modelled}
