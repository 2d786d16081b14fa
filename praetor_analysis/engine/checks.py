"""A check before the attack that raises the Strength (Force, Achean Force, Divine Guidance): the attack is
the mixture, exact, of the outcomes of the checks (docs/rules.md#force).

Each psyker's check passes on a Leadership test; with one check per psyker, ``k`` of ``n`` pass
(binomially) and their attacks resolve at the better Strength, then the others' at the plain one, on the
state they leave (as two weapons of one unit would). A single check for the unit is all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.engine.volley import TargetState, Volley, VolleyResult, weapon_strength
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import Dist, binomial_pmf, leadership_pass
from praetor_analysis.profiles import Unit
from praetor_analysis.rules import CHECK, CheckBoost, stage_hooks

Resolve = Callable[[Volley, Unit, TargetState | None], VolleyResult]


def check_boost(volley: Volley) -> tuple[str, CheckBoost] | None:
    """The weapon's rule with a ``check`` hook and what it gives, unless the volley's Strength is settled."""
    if volley.strength is not None:
        return None
    for token, _, boost in stage_hooks(CHECK, volley.weapon.rules):
        return token.name, boost
    return None


@dataclass(frozen=True)
class CheckOutcomes:
    """The checks of a volley: ``weights[k]``, P(k psykers pass) (or, with one check for the unit, k = 0 for
    a failure and k = models for a pass), the Strengths after a pass and without one, P(Perils of the Warp)."""

    name: str
    boost: CheckBoost
    weights: list[float]
    better: int
    plain: int
    perils: float | None


def check_can_be_taken(volley: Volley) -> bool:
    """True when the volley's weapon has a Strength-raising check that its wielders can take: a Leadership, and
    a Strength to raise (else ``check_outcomes`` raises)."""
    if check_boost(volley) is None or volley.attacker.Ld is None:
        return False
    spec = volley.weapon.strength
    if spec.kind not in {"fixed", "zones", "unknown"} and volley.attacker.S is None:
        return False  # the wielder's Strength is needed and not given
    return weapon_strength(volley) is not None


def check_outcomes(volley: Volley) -> CheckOutcomes:
    """The checks of a volley whose weapon has a Strength-raising check (``check_boost``)."""
    name, boost = check_boost(volley)  # type: ignore[misc]
    a = volley.attacker
    if a.Ld is None:
        raise ProfileError(f"attacker.Ld: {name} needs the psyker's Leadership, got None")
    plain = weapon_strength(volley)
    if plain is None:
        raise ProfileError(f"weapon.Strength: {volley.weapon.strength.text!r} cannot be raised by {name}")
    p = leadership_pass(a.Ld)
    n = a.models
    weights = [float(w) for w in binomial_pmf(n, p)] if boost.per_model else [1.0 - p] + [0.0] * (n - 1) + [p]
    perils = (1.0 - p**n if boost.per_model else 1.0 - p) if boost.perils else None
    return CheckOutcomes(name, boost, weights, boost.strength(plain), plain, perils)


def single_strength_branches(volley: Volley) -> list[tuple[float, Volley]] | None:
    """The outcomes of a checked volley as (weight, the whole volley at one Strength), in ``resolve_checked``'s
    order, when each outcome is one: one psyker, or one check for the unit; None otherwise (several psykers
    with a check each: their outcomes are sequences). ``resolve_checked`` is their mixture."""
    out = check_outcomes(volley)
    if out.boost.per_model and volley.attacker.models > 1:
        return None
    return [(w, replace(volley, strength=out.better if k else out.plain)) for k, w in enumerate(out.weights) if w > 0]


def resolve_checked(volley: Volley, target: Unit, state: TargetState | None, resolve: Resolve) -> VolleyResult:
    """Resolve a volley whose weapon has a Strength-raising check, as the mixture over the checks."""
    checks = check_outcomes(volley)
    outcomes: list[tuple[float, VolleyResult]] = []
    for k, w in enumerate(checks.weights):
        if w > 0.0:
            outcomes.append((w, _split(volley, target, state, resolve, k, checks.better, checks.plain)))
    probs = [w for w, _ in outcomes]
    results = [r for _, r in outcomes]
    states = [r.state for r in results]
    assert all(st is not None for st in states)
    probs_sum = np.sum([w * st.probs for w, st in zip(probs, states, strict=True) if st is not None], axis=0)
    base = states[0]
    assert base is not None
    mixed = TargetState(base.space, probs_sum, base.shell_shocks)
    return mix_outcomes(probs, results, checks.perils, casualties=mixed.kills(), pinned=None, state=mixed)


def mix_outcomes(
    weights: Sequence[float],
    results: Sequence[VolleyResult],
    perils: float | None,
    *,
    casualties: Dist,
    pinned: float | None,
    state: TargetState | None = None,
) -> VolleyResult:
    """The result of a checked volley from its outcomes' results, one per check outcome with its weight: hits,
    wounds, unsaved wounds and Gets Hot mixed, the rule lists of the first outcome, P(Perils of the Warp) of
    the checks (the attack then always happens); its casualties, P(pinned) and state as the caller mixed them."""
    first = results[0]

    def mix(key: str) -> Dist:
        return Dist.mixture(weights, [getattr(r, key) for r in results])

    return VolleyResult(
        hits=mix("hits"),
        wounds=mix("wounds"),
        unsaved=mix("unsaved"),
        casualties=casualties,
        pinned=pinned,
        applied=first.applied,
        not_modelled=first.not_modelled,
        no_effect=first.no_effect,
        gets_hot=None if first.gets_hot is None else mix("gets_hot"),
        attack_happens=None if perils is None else 1.0,
        perils=perils,
        state=state,
    )


def _split(
    volley: Volley, target: Unit, state: TargetState | None, resolve: Resolve, k: int, better: int, plain: int
) -> VolleyResult:
    """``k`` models attack at the better Strength, then the others at the plain one."""
    n = volley.attacker.models
    parts = [(m, s) for m, s in ((k, better), (n - k, plain)) if m > 0]
    out: VolleyResult | None = None
    for models, strength in parts:
        part = replace(volley, attacker=replace(volley.attacker, models=models), strength=strength)
        res = resolve(part, target, state if out is None else out.state)
        out = res if out is None else _then(out, res)
    assert out is not None
    return out


def _then(first: VolleyResult, second: VolleyResult) -> VolleyResult:
    """Two volleys in turn: totals of their counts, the second's state."""
    return replace(
        second,
        hits=first.hits + second.hits,
        wounds=first.wounds + second.wounds,
        unsaved=first.unsaved + second.unsaved,
        gets_hot=None if first.gets_hot is None else first.gets_hot + second.gets_hot,  # type: ignore[operator]
    )
