"""Edition 3 attacks on a unit of identical models: one or several firing units, each of one or more volleys,
resolved in order with the target's state carried over, then the Tactical Statuses; Overload Misfires resolved
against each firer (docs/rules-hh3.md)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np

from praetor_analysis.engine.hh3.chain import (
    PINNED,
    STATUSES,
    FireGroup,
    State,
    end_attack,
    group_counts,
    resolve_group,
    start,
)
from praetor_analysis.engine.hh3.report import RuleReport, target_report, volley_report
from praetor_analysis.engine.hh3.result import ForceResult, Hh3Result, MisfireResult, mix_results
from praetor_analysis.engine.hh3.statuses import check_values, statuses
from praetor_analysis.engine.hh3.volley import Hh3Volley, fire_group, misfire_group, one_attack
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Hh3Unit
from praetor_analysis.rules import check_pass

__all__ = ["MAX_FORCE", "MAX_HIT_POINTS", "MAX_WORK", "losses", "misfire_result", "removed_means", "resolve_hh3"]


def losses(states: Mapping[State, float], models: int, wounds: int) -> tuple[Dist, Dist]:
    """(casualties, damage) of a final state distribution of a unit that began with ``models`` x ``wounds``."""
    cas = np.zeros(models + 1)
    dmg = np.zeros(models * wounds + 1)
    for s, p in states.items():
        m, c = s[0], s[1]
        left = (m - 1) * wounds + c if m else 0
        cas[models - m] += p
        dmg[models * wounds - left] += p
    return Dist.from_trusted(cas), Dist.from_trusted(dmg)


MAX_WORK = 20000
"""The largest (hit dice) x (the target's wounds) of one Fire Group: the exact chain's cost grows with the
square of that product (docs/rules-hh3.md#limits)."""


MAX_HIT_POINTS = 5000
"""The most wounds (models x W) of a unit the exact chain carries."""


def _check_size(group: FireGroup, unit: Hh3Unit, w: int, field: str) -> None:
    side = field.split(".")[0] if field.startswith("attacker") else "target"
    if unit.models * w > MAX_HIT_POINTS:
        raise ProfileError(
            f"{side}.models: {unit.models} models of W {w} are beyond the exact edition 3 chain's bound "
            f"(models x W <= {MAX_HIT_POINTS})",
            field=f"{side}.models",
            value=unit.models,
        )
    work = group.dice.max * unit.models * w
    if work > MAX_WORK:
        raise ProfileError(
            f"{field}: {group.dice.max} hit dice against {unit.models} models of W {w} is beyond the exact edition 3 "
            f"chain's bound (dice x wounds <= {MAX_WORK}); split the attack into firing_units",
            field=field,
            value=group.dice.max,
        )


def _need_w(unit: Hh3Unit, field: str) -> int:
    if unit.w is None:
        raise ProfileError(f"{field}.W: required", field=f"{field}.W")
    return unit.w


MAX_FORCE = 4
"""The most Force (X) volleys whose Willpower Checks are enumerated (2^n resolutions)."""


def resolve_hh3(target: Hh3Unit, firing_units: Sequence[Sequence[Hh3Volley]]) -> Hh3Result:
    """Resolve the volleys of ``firing_units`` in order against ``target`` (see the module docstring).

    A Force (X) volley's Willpower Check (taken: **Reading**) passes with the Check's probability at the
    attacker's WP and then doubles X: the result is the mixture of the resolutions of every pass/fail
    combination (at most ``MAX_FORCE`` such volleys), with P(boost) and P(Perils) under ``force``.

    Raises:
        ProfileError: naming the field when a characteristic the attack needs is missing.
    """
    forced = [
        (u, v, volley)
        for u, unit in enumerate(firing_units)
        for v, volley in enumerate(unit)
        if (rule := volley.weapon.rule("Force")) is not None and rule.value and volley.attacker.wp is not None
    ]
    if not forced:
        return _resolve_fixed(target, firing_units)
    if len(forced) > MAX_FORCE:
        raise ProfileError(
            f"firing_units: {len(forced)} Force (X) volleys (at most {MAX_FORCE} Willpower Checks are enumerated)",
            field="firing_units",
        )
    weights, results = [], []
    for passes in itertools.product((True, False), repeat=len(forced)):
        weight = 1.0
        units = [list(unit) for unit in firing_units]
        for (u, v, volley), passed in zip(forced, passes, strict=True):
            p = check_pass(volley.attacker.wp or 0)
            weight *= p if passed else 1.0 - p
            units[u][v] = replace(volley, context=replace(volley.context, force_boost=passed))
        if weight > 0.0:
            weights.append(weight)
            results.append(_resolve_fixed(target, units))
    force = tuple(
        ForceResult(u, v, volley.weapon.name, check_pass(volley.attacker.wp or 0), 6 / 36, 2 / 36, 4 / 36)
        for u, v, volley in forced
    )
    return replace(mix_results(weights, results), force=force)


def removed_means(target: Hh3Unit, firing_units: Sequence[Sequence[Hh3Volley]]) -> tuple[float, float]:
    """The means of :func:`resolve_hh3`'s casualties and damage, through the same Fire Groups, states and refusals
    (sizes, Overload Misfires), without its counts, reports and statuses (what a unit's weapon modes are ranked by).
    A Force (X) volley's mixture is :func:`resolve_hh3`'s.

    Raises:
        ProfileError: as :func:`resolve_hh3`.
    """
    if any((r := v.weapon.rule("Force")) is not None and r.value and v.attacker.wp is not None
           for unit in firing_units for v in unit):  # fmt: skip
        result = resolve_hh3(target, firing_units)
        return result.casualties.mean(), result.damage.mean()
    w = _need_w(target, "target")
    states: dict[State, float] = start(target.models, w)
    for u, unit in enumerate(firing_units):
        unit = one_attack(unit)
        shooting = False
        for v, volley in enumerate(unit):
            group = fire_group(volley, target)
            _check_size(group, target, w, f"firing_units[{u}][{v}].attacks" if len(firing_units) > 1 else "attacks")
            states = resolve_group(states, group, w)
            shooting |= not volley.weapon.melee
            _misfire_refusal(volley, group)
        states = end_attack(states, casualty_check=shooting)
    casualties, damage = losses(states, target.models, w)  # the same sums as resolve_hh3's, bit for bit
    return casualties.mean(), damage.mean()


def _misfire_refusal(volley: Hh3Volley, group: FireGroup) -> None:
    """What :func:`misfire_result` refuses (a firer beyond the exact chain's bound), without resolving the
    Misfires (their outcome does not count towards the target's losses)."""
    misfire = misfire_group(volley, group)
    if misfire is not None and volley.attacker.w is not None:
        _check_size(misfire, volley.attacker, volley.attacker.w, "attacker.models")


def _resolve_fixed(target: Hh3Unit, firing_units: Sequence[Sequence[Hh3Volley]]) -> Hh3Result:
    """``resolve_hh3`` with every volley's circumstances fixed (no Check left to enumerate)."""
    w = _need_w(target, "target")
    states: dict[State, float] = start(target.models, w)
    report = RuleReport()
    zero = Dist.point(0)
    totals = dict.fromkeys(("hits", "critical_hits", "wounds", "unsaved"), zero)
    misfires: list[MisfireResult] = []
    possible = dict.fromkeys(("Pinned", "Suppressed", "Stunned", "Routed"), False)
    shooting_any = False
    groups: list[list[FireGroup]] = []
    for u, unit in enumerate(firing_units):
        unit = one_attack(unit)  # its Checks take the largest X of the attack's weapons
        shooting = False
        groups.append([])
        for v, volley in enumerate(unit):
            group = fire_group(volley, target)
            groups[-1].append(group)
            _check_size(group, target, w, f"firing_units[{u}][{v}].attacks" if len(firing_units) > 1 else "attacks")
            states = resolve_group(states, group, w)
            for key, dist in group_counts(group).items():
                totals[key] = dist if totals[key] is zero else totals[key] + dist
            report.merge(volley_report(volley, target))
            if not volley.weapon.melee:
                shooting = True
                for rule, status in (("Pinning", "Pinned"), ("Suppressive", "Suppressed"), ("Stun", "Stunned")):
                    possible[status] |= volley.weapon.rule(rule) is not None
                possible["Routed"] = True
            for pos in group.shock:  # Shock (X): a status without a Check, in melee too
                possible[STATUSES[pos - PINNED]] = True
            misfire = misfire_result(u, v, volley, group)
            if misfire is not None:
                if any(m.firing_unit == u for m in misfires):
                    report.reasons.setdefault(
                        "misfires",
                        "several Overload volleys of one firing unit: each volley's Misfires are resolved on the "
                        "whole firing unit apart, not one after the other",
                    )
                misfires.append(misfire)
        states = end_attack(states, casualty_check=shooting)
        shooting_any |= shooting
    report.merge(target_report(target, shooting=shooting_any))
    casualties, damage = losses(states, target.models, w)
    values, why = check_values(target)
    if why is not None:
        report.reasons.setdefault("statuses", why)
    if values.cool is not None and "Heavy" in target.subtypes and any(possible[s] for s in ("Pinned", "Suppressed")):
        report.add("applied", "Heavy Sub-Type (+1 CL)")
    found = statuses(states, values, possible)
    return Hh3Result(
        totals["hits"], totals["critical_hits"], totals["wounds"], totals["unsaved"], casualties, damage,
        tuple(found.items()), tuple(misfires), tuple(report.applied), tuple(report.not_modelled),
        tuple(report.no_effect), tuple(report.reasons.items()), _phage(target, firing_units, groups, states, w),
    )  # fmt: skip


def _phage(
    target: Hh3Unit,
    firing_units: Sequence[Sequence[Hh3Volley]],
    groups: list[list[FireGroup]],
    states: Mapping[State, float],
    w: int,
) -> tuple[tuple[str, float], ...]:
    """P(the survivors lose 1 from each characteristic a Phage (X) weapon names): some Phage (X) volley made an
    Unsaved Wound and a model is left. Exact: the sequence is run again with those volleys kept out of their
    Unsaved Wound classes, and the survivors' mass of that run taken from the survivors' mass of the attack."""
    named = [[{r.value.strip().upper() for r in v.weapon.rules if r.name == "Phage" and r.value} for v in unit]
             for unit in firing_units]  # fmt: skip
    alive = sum(p for s, p in states.items() if s[0] > 0)
    out = []
    for char in sorted(set().union(*(x for unit in named for x in unit))):
        quiet: dict[State, float] = start(target.models, w)
        for unit_groups, unit_named in zip(groups, named, strict=True):
            for group, chars in zip(unit_groups, unit_named, strict=True):
                quiet = resolve_group(quiet, group, w, no_unsaved=char in chars)
        out.append((char, max(alive - sum(p for s, p in quiet.items() if s[0] > 0), 0.0)))
    return tuple(out)


def misfire_result(u: int, v: int, volley: Hh3Volley, group: FireGroup) -> MisfireResult | None:
    """The Overload (X) Misfires of ``volley`` (its Fire Group ``group``, ``v``-th of firing unit ``u``) resolved on
    its own unit; None when the weapon has no Overload or the firer has no T or W (the rule report names it).

    Raises:
        ProfileError: naming ``attacker.models`` beyond the exact chain's bound.
    """
    misfire = misfire_group(volley, group)
    firer = volley.attacker
    if misfire is None or firer.w is None:
        return None
    w = firer.w
    _check_size(misfire, firer, w, "attacker.models")
    states = resolve_group(start(firer.models, w), misfire, w)
    counts = group_counts(misfire)
    casualties, damage = losses(states, firer.models, w)
    return MisfireResult(
        u, v, volley.weapon.name, misfire.dice, counts["wounds"], counts["unsaved"], casualties, damage
    )
