"""A whole edition 3 round of combat at the door: ``target_weapon`` (docs/rules-hh3.md#melee).

The attacker strikes with ``weapon``, the target with ``target_weapon``, both melee profiles; each side's blows
are Strike Groups of the edition 3 chain (the WS chart against the other's WS, Wound Tests against its T, its
saves and mitigation, Damage with excess lost), at its Combat Initiative (:mod:`praetor_analysis.melee.hh3`).
Only the attacker can have charged (``charging``: Impact). The result adds ``attacker_casualties``, ``combat``
(who wins on Combat Resolution Points), ``routed`` (P(each side loses and fails its Leadership Check)) and the points,
and as edition 2 the attacker's blows on the target (``attacks``, ``hits``, ``critical_hits``, ``wounds``,
``unsaved``) and the target's on the attacker (``target_blows``), each over the attacks a side made in the round.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from praetor_analysis.engine import (
    FireGroup,
    Hh3Context,
    Hh3Volley,
    RuleReport,
    State,
    fire_group,
    group_counts,
    losses,
    resolve_group,
    start,
    target_report,
    volley_report,
)
from praetor_analysis.errors import ScenarioError
from praetor_analysis.melee import RoundResult3, RoundSide, attacks_at_step, combat_initiative, combat_round_hh3
from praetor_analysis.prob import BoundedMemo, Dist
from praetor_analysis.profiles import Hh3Unit, read_weapon
from praetor_analysis.rules import check_pass
from praetor_analysis.scenario.hh3 import parse_hh3
from praetor_analysis.scenario.hh3_limits import check_size
from praetor_analysis.scenario.hh3_report import FORCE_NOT_HERE, refile

__all__ = ["calc_round", "round_mapping", "round_side", "side_losses"]


_STRIKES: BoundedMemo[Mapping[Any, float]] = BoundedMemo(65536)
"""The enemy's state after ``n`` blows of a Strike Group, kept across rounds (a matchup asks again: the same
group at the same state in both directions of a pair, in many pairs of a list)."""


def _striker(group: FireGroup, wounds: int) -> Callable[[int, Any], Mapping[Any, float]]:
    def strike(n: int, enemy: Any) -> Mapping[Any, float]:
        return _STRIKES.get(
            (group, wounds, n, enemy), lambda: resolve_group({enemy: 1.0}, replace(group, dice=Dist.point(n)), wounds)
        )

    return strike


def _impact(volley: Hh3Volley, characteristic: str) -> bool:
    rule = volley.weapon.rule("Impact")
    ctx = volley.context
    return rule is not None and ctx.charging and characteristic in rule.characteristics()


def round_side(volley: Hh3Volley, enemy: Hh3Unit, prefix: str = "attacker.") -> RoundSide:
    """One side of the round: ``volley``'s unit striking ``enemy`` with its weapon."""
    unit, weapon = volley.attacker, volley.weapon
    side = prefix.rstrip(".")
    enemy_side = "target" if side == "attacker" else "attacker"
    missing = next((k for k, v in (("I", unit.i), ("A", unit.a), ("W", unit.w), ("LD", unit.ld)) if v is None), None)
    if missing is not None or enemy.w is None:
        field = f"{side}.{missing}" if missing is not None else f"{enemy_side}.W"
        raise ScenarioError(f"{field}: required for a whole round of combat", field=field)
    assert unit.i is not None and unit.a is not None and unit.w is not None and unit.ld is not None
    group = fire_group(volley, enemy, sides=(side, enemy_side))
    most = unit.models * attacks_at_step(
        unit.a, weapon.am, impact=True, reaping_blow=weapon.rule_number("Reaping Blow")
    )(0, 1)
    check_size(most, enemy.models, enemy.w, side=enemy_side, field=f"{prefix}A")
    heavy_w = unit.w if unit.has_type("Paragon", "Walker") else 1
    start_states: dict[State, float] = start(unit.models, unit.w)
    return RoundSide(
        start=start_states,
        models=lambda s: s[0],
        initiative=combat_initiative(unit.i, weapon.im, impact=_impact(volley, "IM")),
        attacks=attacks_at_step(
            unit.a,
            weapon.am,
            impact=_impact(volley, "AM"),
            reaping_blow=weapon.rule_number("Reaping Blow"),
            counts=(unit.rule_number("Bulky") or 1, enemy.rule_number("Bulky") or 1),
        ),
        strike=_striker(group, enemy.w),
        leadership=unit.ld,
        weight=heavy_w,
    )


def calc_round(rest: Mapping[str, Any], mine: Mapping[str, Any], *, check_only: bool) -> dict[str, Any] | None:
    """The result mapping of a whole round (None when ``check_only``)."""
    for key in mine:
        if key != "target_weapon":
            raise ScenarioError(f"{key}: markers are not used in a round of combat", field=key)
    if rest.get("mode", "shooting") != "melee" or "firing_units" in rest:
        raise ScenarioError("target_weapon: a whole round of combat is one melee volley (mode: melee)",
                            field="target_weapon")  # fmt: skip
    scenario = parse_hh3(rest)
    volley = scenario.firing_units[0][0]
    if not volley.weapon.melee:
        raise ScenarioError("weapon: a round of combat needs a melee weapon (IM, AM, SM)", field="weapon")
    if volley.context.hits is not None or volley.context.attacks is not None or volley.context.engaged is not None:
        field = next(k for k in ("hits", "attacks", "engaged") if getattr(volley.context, k) is not None)
        raise ScenarioError(f"{field}: a whole round counts its own attacks from the models alive", field=field)
    target_weapon = read_weapon(mine["target_weapon"], "target_weapon")
    if not target_weapon.melee:
        raise ScenarioError("target_weapon: a melee profile (IM, AM, SM) is needed", field="target_weapon")
    target = scenario.target
    back = Hh3Volley(target, target_weapon, Hh3Context(mode="melee", tables=volley.context.tables,
                                                        group_order=volley.context.group_order))  # fmt: skip
    a_side = round_side(volley, target)
    t_side = round_side(back, volley.attacker, "target.")
    if check_only:
        return None
    result = combat_round_hh3(a_side, t_side, check_pass)
    report = RuleReport()
    report.merge(volley_report(volley, target))
    other = volley_report(back, volley.attacker)
    for verdict in ("applied", "not_modelled", "no_effect"):
        for label in getattr(other, verdict):
            report.add(verdict, f"target_weapon: {label}", other.reasons.get(label, ""))
    report.merge(target_report(target, shooting=False))
    for prefix, weapon in (("", volley.weapon), ("target_weapon: ", target_weapon)):
        for rule in weapon.rules:
            if rule.name == "Reaping Blow":  # outnumbering is read at each Initiative Step of the round
                refile(report, prefix + rule.label, "applied")
            elif rule.name == "Force":
                refile(report, prefix + rule.label, "not_modelled", FORCE_NOT_HERE)
    assert volley.attacker.w is not None and target.w is not None
    report.add("applied", f"Combat Initiative {a_side.initiative} against {t_side.initiative}")
    strikes = _strikes(fire_group(volley, target), result.attacker_attacks)
    blows = _strikes(fire_group(back, volley.attacker, sides=("target", "attacker")), result.target_attacks)
    sizes = ((volley.attacker.models, volley.attacker.w), (target.models, target.w))
    return {
        **round_mapping(result, sizes, strikes, blows),
        "statuses": {"Pinned": None, "Suppressed": None, "Stunned": None, "Routed": result.routed["target"]},
        "applied": list(report.applied),
        "not_modelled": list(report.not_modelled),
        "no_effect": list(report.no_effect),
        "reasons": dict(report.reasons),
        "target": {"name": target.name, "models": target.models},
    }


def _strikes(group: FireGroup, attacks: Dist) -> dict[str, Any]:
    """``attacks`` and the ``hits``, ``critical_hits``, ``wounds``, ``unsaved`` of one side's blows in the round:
    its Strike Group over the distribution of the attacks it made (each die counted, as for one attack)."""
    counts = group_counts(replace(group, dice=attacks))
    return {"attacks": attacks.to_dict(), **{key: dist.to_dict() for key, dist in counts.items()}}


def round_mapping(
    result: RoundResult3,
    sizes: tuple[tuple[int, int], tuple[int, int]],
    strikes: Mapping[str, Any],
    blows: Mapping[str, Any],
) -> dict[str, Any]:
    """The result mapping of a round's outcome: ``sizes`` (models, W) of the attacker and of the target,
    ``strikes`` the attacker's blows (``attacks``, ``hits``... as dicts), ``blows`` the target's."""
    (a_models, a_w), (t_models, t_w) = sizes
    cas, dmg = side_losses(result.final, 1, t_models, t_w)
    a_cas, a_dmg = side_losses(result.final, 0, a_models, a_w)
    return {
        "edition": "hh3",
        **strikes,
        "casualties": cas.to_dict(),
        "damage": dmg.to_dict(),
        "attacker_casualties": a_cas.to_dict(),
        "attacker_damage": a_dmg.to_dict(),
        "combat": result.combat,
        "routed": result.routed,
        "target_blows": dict(blows),
        "combat_points": {"attacker": result.attacker_points.to_dict(), "target": result.target_points.to_dict()},
    }


def side_losses(final: Mapping[tuple[Any, Any], float], side: int, models: int, wounds: int) -> tuple[Dist, Dist]:
    """(casualties, damage) of one side (0: the attacker, 1: the target) from a round's final joint states."""
    states: dict[Any, float] = {}
    for pair, p in final.items():
        states[pair[side]] = states.get(pair[side], 0.0) + p
    return losses(states, models, wounds)
