"""Pinning and Shell Shock: the test at the end of a firing unit, and who is exempt."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from praetor_analysis.engine.volley import TargetState, Volley
from praetor_analysis.prob import Dist, leadership_pass
from praetor_analysis.profiles import Unit, Weapon
from praetor_analysis.rules import PINNING_IMMUNE_TYPES, Role, lookup


def locked_in_combat(volleys: Iterable[Volley]) -> bool:
    """True when the target of ``volleys`` is locked in combat: one of them is a melee attack (its blows strike
    a unit in combat; docs/rules.md#pinning-test). In a sequence, the whole sequence's target then is."""
    return any(v.mode == "melee" for v in volleys)


def pinning_exempt(target: Unit, *, locked: bool = False) -> bool:
    """True when the target never ends Pinned: Vehicles, Fearless, already Pinned, locked in combat (its rule, or
    ``locked``: struck in melee, ``locked_in_combat``), embarked, and the Cavalry, Monstrous and Daemon types
    (docs/rules.md#pinning-test)."""
    return (
        locked
        or target.is_vehicle
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


def leadership_modifier(w: Weapon) -> tuple[str, int] | None:
    """(the rule as printed, the size of the Leadership modifier) that a unit hit by the weapon takes until its
    next turn (Vox Silence: 2; Hydra's Wail: 1), or None (``RuleDecl.leadership``)."""
    for token in w.rules:
        decl = lookup(token.name)
        if decl is not None and decl.leadership:
            return token.text, -decl.leadership
    return None


def pinning_test(state: TargetState, target: Unit, ld_penalty: int = 0) -> TargetState:
    """End of a firing unit: a unit with models left that suffered an unsaved wound from a Pinning weapon
    tests Ld, minus the highest Shell Shock among the Pinning weapons that caused one, or ``ld_penalty`` (a
    Vox Silence hit's) when higher: the highest single modifier, never their sum.

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
        penalty = pinning_penalty(target, max(state.shell_shocks[t], ld_penalty))
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


#: The states of a sequence split by the Leadership penalty its hits have given the unit (Vox Silence): each
#: penalty's probability and the state given it.
Branches = dict[int, tuple[float, TargetState]]


def split_on_hits(branches: Branches, penalty: int, p_hit: float) -> Branches:
    """``branches`` after a volley that gives ``penalty`` to a unit it hits at least once (``p_hit``), its hits
    independent of the state (it wounds nothing); branches of one penalty are merged."""
    out: Branches = {}
    for pen, (w, st) in branches.items():
        for new, q in ((max(pen, penalty), w * p_hit), (pen, w * (1.0 - p_hit))):
            if q <= 0.0:
                continue
            if new in out:
                w0, s0 = out[new]
                out[new] = (w0 + q, TargetState(s0.space, (w0 * s0.probs + q * st.probs) / (w0 + q), s0.shell_shocks))
            else:
                out[new] = (q, st)
    return out


def mixed(branches: Branches) -> TargetState:
    """The state of the whole sequence: the branches weighted by their probabilities."""
    first = next(iter(branches.values()))[1]
    probs = sum(w * st.probs for w, st in branches.values())
    return TargetState(first.space, np.asarray(probs), first.shell_shocks)
