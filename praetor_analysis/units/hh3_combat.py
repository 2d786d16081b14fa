"""A whole edition 3 round of combat, one weapon a side (``praetor calc``'s ``target_weapon``; docs/rules-hh3.md#melee).

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
from dataclasses import dataclass, replace
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
from praetor_analysis.profiles import Hh3Unit, Hh3Weapon
from praetor_analysis.rules import check_pass
from praetor_analysis.units.hh3_limits import check_size
from praetor_analysis.units.hh3_report import FORCE_NOT_HERE, refile

__all__ = ["RoundOutcome", "RoundStage", "blows_of", "resolve_round", "round_side", "round_sides", "side_losses"]


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


@dataclass(frozen=True)
class RoundOutcome:
    """A whole round's outcome as ``praetor calc`` writes it: the round, the (models, W) of the attacker and of the
    target, each side's blows (``attacks``, ``hits``, ``critical_hits``, ``wounds``, ``unsaved``) and the target's
    name and models."""

    result: RoundResult3
    sizes: tuple[tuple[int, int], tuple[int, int]]
    strikes: Mapping[str, Dist]
    blows: Mapping[str, Dist]
    target: tuple[str, int]

    @property
    def casualties(self) -> Dist:
        """The target's models removed."""
        return side_losses(self.result.final, 1, *self.sizes[1])[0]

    @property
    def damage(self) -> Dist:
        """The wounds the target lost."""
        return side_losses(self.result.final, 1, *self.sizes[1])[1]

    @property
    def attacker_casualties(self) -> Dist:
        """The attacker's models removed."""
        return side_losses(self.result.final, 0, *self.sizes[0])[0]

    def to_dict(self) -> dict[str, Any]:
        """The result mapping of the round (docs/scenario.md, Edition 3)."""
        result = self.result
        (a_models, a_w), (t_models, t_w) = self.sizes
        cas, dmg = side_losses(result.final, 1, t_models, t_w)
        a_cas, a_dmg = side_losses(result.final, 0, a_models, a_w)
        return {
            "edition": "hh3",
            **{k: d.to_dict() for k, d in self.strikes.items()},
            "casualties": cas.to_dict(),
            "damage": dmg.to_dict(),
            "attacker_casualties": a_cas.to_dict(),
            "attacker_damage": a_dmg.to_dict(),
            "combat": result.combat,
            "routed": result.routed,
            "target_blows": {k: d.to_dict() for k, d in self.blows.items()},
            "combat_points": {"attacker": result.attacker_points.to_dict(), "target": result.target_points.to_dict()},
            "target": {"name": self.target[0], "models": self.target[1]},
        }


@dataclass(frozen=True)
class RoundStage:
    """A whole round of ``target_weapon`` (:func:`resolve_round`): its outcome and the verdict on every rule."""

    outcome: RoundOutcome
    report: RuleReport

    def to_dict(self) -> dict[str, Any]:
        """The result mapping of the round (docs/scenario.md, Edition 3)."""
        out = self.outcome.to_dict()
        target = out.pop("target")
        report = self.report
        return {
            **out,
            "statuses": {
                "Pinned": None,
                "Suppressed": None,
                "Stunned": None,
                "Routed": self.outcome.result.routed["target"],
            },
            **report.to_dict(),
            "target": target,
        }


def round_sides(volley: Hh3Volley, target_weapon: Hh3Weapon, target: Hh3Unit) -> tuple[Hh3Volley, RoundSide, RoundSide]:
    """The target's volley back with ``target_weapon`` and both sides of a whole round (their refusals raised)."""
    back = Hh3Volley(target, target_weapon, Hh3Context(mode="melee", tables=volley.context.tables,
                                                        group_order=volley.context.group_order))  # fmt: skip
    return back, round_side(volley, target), round_side(back, volley.attacker, "target.")


def resolve_round(volley: Hh3Volley, back: Hh3Volley, a_side: RoundSide, t_side: RoundSide) -> RoundStage:
    """A whole round: ``volley``'s unit charges, the target strikes back with ``back`` (:func:`round_sides`)."""
    target = back.attacker
    result = combat_round_hh3(a_side, t_side, check_pass)
    report = RuleReport()
    report.merge(volley_report(volley, target))
    other = volley_report(back, volley.attacker)
    for verdict in ("applied", "not_modelled", "no_effect"):
        for label in getattr(other, verdict):
            report.add(verdict, f"target_weapon: {label}", other.reasons.get(label, ""))
    report.merge(target_report(target, shooting=False))
    for prefix, weapon in (("", volley.weapon), ("target_weapon: ", back.weapon)):
        for rule in weapon.rules:
            if rule.name == "Reaping Blow":  # outnumbering is read at each Initiative Step of the round
                refile(report, prefix + rule.label, "applied")
            elif rule.name == "Force":
                refile(report, prefix + rule.label, "not_modelled", FORCE_NOT_HERE)
    assert volley.attacker.w is not None and target.w is not None
    report.add("applied", f"Combat Initiative {a_side.initiative} against {t_side.initiative}")
    strikes = blows_of(fire_group(volley, target), result.attacker_attacks)
    blows = blows_of(fire_group(back, volley.attacker, sides=("target", "attacker")), result.target_attacks)
    sizes = ((volley.attacker.models, volley.attacker.w), (target.models, target.w))
    return RoundStage(RoundOutcome(result, sizes, strikes, blows, (target.name, target.models)), report)


def blows_of(group: FireGroup, attacks: Dist) -> dict[str, Dist]:
    """``attacks`` and the ``hits``, ``critical_hits``, ``wounds``, ``unsaved`` of one side's blows in the round:
    its Strike Group over the distribution of the attacks it made (each die counted, as for one attack)."""
    return {"attacks": attacks, **group_counts(replace(group, dice=attacks))}


def side_losses(final: Mapping[tuple[Any, Any], float], side: int, models: int, wounds: int) -> tuple[Dist, Dist]:
    """(casualties, damage) of one side (0: the attacker, 1: the target) from a round's final joint states."""
    states: dict[Any, float] = {}
    for pair, p in final.items():
        states[pair[side]] = states.get(pair[side], 0.0) + p
    return losses(states, models, wounds)
