"""Pinning and Shell Shock: the test at the end of a firing unit, and who is exempt."""

from __future__ import annotations

import numpy as np

from praetor_analysis.engine.volley import TargetState
from praetor_analysis.prob.dice import leadership_pass
from praetor_analysis.prob.dist import Dist
from praetor_analysis.profiles.records import Unit, Weapon
from praetor_analysis.rules.hooks import Role
from praetor_analysis.rules.unit_types import PINNING_IMMUNE_TYPES


def pinning_exempt(target: Unit) -> bool:
    """True when the target never ends Pinned: Vehicles, Fearless, already Pinned, locked, embarked, and the
    Cavalry, Monstrous and Daemon types (docs/rules.md#pinning-test)."""
    return (
        target.is_vehicle
        or target.plays(Role.NEVER_PINNED)
        or any(target.has_type(word) for word in PINNING_IMMUNE_TYPES)
    )


def pinning_penalty(target: Unit, shell_shock: int) -> int:
    """The Leadership penalty of the test: the Shell Shock, unless the target ignores negative modifiers."""
    return 0 if target.plays(Role.IGNORES_LEADERSHIP_PENALTIES) else shell_shock


def shell_shock_of(w: Weapon) -> int:
    """The Leadership penalty of a weapon's Pinning test (Shell Shock (X)), 0 without one."""
    rule = w.with_role(Role.PINNING_PENALTY)
    return (rule.value or 0) if rule else 0


def pinning_test(state: TargetState, target: Unit) -> TargetState:
    """End of a firing unit: a unit with models left that suffered an unsaved wound from a Pinning weapon
    tests Ld, minus the highest Shell Shock among the Pinning weapons that caused one.

    An already Pinned unit stays Pinned and takes no test; a unit with no models left takes none either.
    A Stubborn or Inexorable unit ignores Shell Shock (docs/rules.md#stubborn).
    """
    flags = state.probs.shape[0]
    if flags == 1:
        return state
    levels = flags // 2
    p = state.probs
    alive = state.space.kills_of() < state.space.models
    out = np.zeros_like(p)
    out[0] = p[0]
    out[levels] = p[levels:].sum(axis=0)  # already Pinned: stays Pinned, trigger reset
    for t in range(1, levels):
        penalty = pinning_penalty(target, state.shell_shocks[t])
        fail = 1.0 - leadership_pass((target.Ld if target.Ld is not None else 0) - penalty)
        tested = p[t] * alive
        out[0] += (p[t] - tested) + tested * (1.0 - fail)
        out[levels] += tested * fail
    return TargetState(state.space, out, state.shell_shocks)


def hallucination_test(state: TargetState, target: Unit, hits: Dist) -> TargetState:
    """Hallucinations: a unit with models left that suffered at least one hit takes an immediate Pinning test,
    each hit adding one to the 2D6 roll; failing leaves it Pinned (docs/rules.md#hallucinations).

    For a volley that makes no wound roll, so its hits are independent of ``state`` (the state before it).
    Adding to the roll is not a Leadership modifier: Stubborn and Inexorable do not cancel it.
    """
    flags = state.probs.shape[0]
    if flags == 1:
        raise ValueError("state: built without Pinning flags; use resolve_sequence")
    ld = target.Ld if target.Ld is not None else 0
    p_hits = hits.probabilities
    fail = float(sum(p_hits[h] * (1.0 - leadership_pass(ld - h)) for h in range(1, p_hits.size)))
    levels = flags // 2
    p = state.probs.copy()
    alive = state.space.kills_of() < state.space.models
    moved = p[:levels] * alive * fail
    p[:levels] -= moved
    p[levels] += moved.sum(axis=0)
    return TargetState(state.space, p, state.shell_shocks)
