"""Edition 3 marker and template volleys (docs/rules-hh3.md#markers-and-templates).

The target's formation is the 2nd edition's (``formation``, ``aim``, ``indirect``, ``edges``; without a
formation, the default one of the target's models, named under ``applied``); the scatter law and the counting
are the 3rd edition's (:mod:`praetor_analysis.markers.hh3_blast`), and the hits go through the edition 3 chain
class by class (:mod:`praetor_analysis.markers.hh3_units`); the other volleys of a sequence go through the
engine's Fire Group, in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from praetor_analysis.engine import (
    PINNED,
    FireGroup,
    Hh3Volley,
    MisfireResult,
    RuleReport,
    State,
    check_values,
    end_attack,
    fire_group,
    group_counts,
    losses,
    misfire_result,
    resolve_group,
    shock_mix,
    start,
    target_report,
    volley_report,
)
from praetor_analysis.engine import STATUSES as ENGINE_STATUSES
from praetor_analysis.engine.hh3 import statuses
from praetor_analysis.errors import ScenarioError, counted_noun
from praetor_analysis.markers import (
    BlastLaw,
    Formation,
    Hull,
    barrage_hh3,
    blast_hh3,
    marker_counts,
    marker_hits_by_class,
    resolve_marker_hits,
    template_touched,
)
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Hh3Unit, Hh3Weapon, Unit
from praetor_analysis.units.formation import MarkerSetup, default_formation, default_note
from praetor_analysis.units.hh3_limits import check_marker_joint, check_size
from praetor_analysis.units.hh3_report import FORCE_NOT_HERE, refile

__all__ = [
    "MarkerFields",
    "MarkerPlan",
    "MarkerStage",
    "marker_means",
    "marker_plan",
    "marker_plans",
    "resolve_marker_volleys",
]

_NO_TEST = "no Hit Test is rolled for this marker, so no hit-roll rule triggers"


@dataclass(frozen=True)
class MarkerFields:
    """The marker fields a scenario gives (``formation``, ``aim``, ``indirect``, ``edges``), read when a volley lays a
    marker: ``given`` the fields given, ``indirect`` as given (checked then), ``formation`` the reader of the
    target's setup when a formation is given (None: the default formation of the target's models)."""

    given: tuple[str, ...] = ()
    indirect: object = False
    formation: Callable[[Unit], MarkerSetup] | None = None


NO_FIELDS = MarkerFields()
"""No marker field given (a fielded unit's attack)."""


@dataclass(frozen=True)
class MarkerPlan:
    """How a volley's markers are laid: ``blast`` (a Hit Test per marker), ``barrage`` (indirect: no test),
    ``template``; the blast's diameter, the Barrage's dice, a Hellstorm template, and the target's setup."""

    kind: str
    diameter: float
    dice: int
    hellstorm: bool
    setup: MarkerSetup
    default: bool


def _geometry_unit(name: str, unit_type: str, models: int) -> Unit:
    """The 2nd edition's unit record the shared formation code reads (its name, Unit Type, models)."""
    return Unit(name=name, unit_type=unit_type, models=models)


def marker_plan(weapon: Hh3Weapon, unit: Unit, mine: MarkerFields) -> MarkerPlan | None:
    """The marker plan of a weapon (None when it places no marker); ``unit`` the target for the geometry."""
    indirect = mine.indirect
    if not isinstance(indirect, bool):
        raise ScenarioError(f"indirect: expected true or false, got {indirect!r:.40}", field="indirect")
    if weapon.rule("Template") is not None:
        kind, diameter, dice = "template", 0.0, 0
    else:
        blast = weapon.rule("Blast")
        if blast is None:
            return None
        m = re.search(r"\d+(?:\.\d+)?", blast.value or "")
        if m is None:
            raise ScenarioError(
                f"weapon.Special Rules: {blast.text!r} needs the marker's diameter in inches (Blast (3\"))",
                field="weapon.Special Rules",
            )
        kind, diameter, dice = "blast", float(m.group()), 0
        barrage = weapon.rule("Barrage")
        if indirect is True:
            if barrage is None:
                raise ScenarioError("indirect: only a Barrage (X) weapon fires indirectly", field="indirect")
            kind, dice = "barrage", barrage.number("weapon.Special Rules.Barrage")
    if mine.formation is not None:
        setup, default = mine.formation(unit), False
    elif unit.is_vehicle:
        raise ScenarioError(
            "formation.hull: a marker against a vehicle needs its hull [length, width] in inches (or give `hits`)",
            field="formation.hull",
        )
    else:
        setup, default = default_formation(unit), True
        for key in ("aim", "edges"):
            if key in mine.given:
                raise ScenarioError(f"{key}: give it with a `formation`", field=key)
    hellstorm = any("hellstorm" in (r.value or "").lower() or "hellstorm" in r.name.lower() for r in weapon.rules)
    return MarkerPlan(kind, diameter, dice, hellstorm, setup, default)


def _law(plan: MarkerPlan, shape: Formation | Hull, p_test: float) -> BlastLaw:
    s = plan.setup
    if plan.kind == "barrage":
        return barrage_hh3(shape, plan.diameter, plan.dice, aim=s.aim, edges=s.edges)
    return blast_hh3(shape, plan.diameter, p_test=p_test, aim=s.aim, edges=s.edges)


def _mixed(
    markers: Dist, law: BlastLaw, test: Mapping[str, float], p_miss: float | None = None
) -> tuple[tuple[str, ...], np.ndarray]:
    """The joint hits by class of a number of markers given as a distribution."""
    parts = []
    for n, p in enumerate(markers.probabilities):
        if p > 0.0:
            parts.append((p, *marker_hits_by_class(law, test, n, p_miss=p_miss)))
    classes = parts[0][1]
    shape = tuple(max(a.shape[i] for _, _, a in parts) for i in range(len(classes)))
    out = np.zeros(shape)
    for p, _, a in parts:
        out[tuple(slice(0, s) for s in a.shape)] += p * a
    return classes, out


def _shocked(
    states: dict[State, float],
    plan: MarkerPlan,
    shape: Formation | Hull,
    group: FireGroup,
    classes: tuple[str, ...],
    w: int,
    fresh: dict[State, float],
) -> dict[State, float]:
    """Shock (X) against a Walker: the attack given that no marker's Hit Test shows a natural 5 or 6 (each die
    then follows the engine's calm die, all of them calm with probability (1 - shock)^n); the rest of the mass
    gains the statuses Shock gives, without a Check (as the engine does for dice)."""
    assert group.calm is not None
    calm, quiet = group.calm, 1.0 - group.die.shock
    test = {"hit": calm.hit * quiet, "critical": calm.critical * quiet, "rending": calm.rending * quiet}
    _, joint = _mixed(group.dice, _law(plan, shape, group.die.hits), test, p_miss=calm.miss * quiet)
    return shock_mix(states, resolve_marker_hits(fresh, classes, joint, group, w), group.shock)


def _fix_report(report: RuleReport, weapon: Hh3Weapon, plan: MarkerPlan) -> None:
    """The engine's verdicts, corrected for a placed marker: the marker rules act; Precision never triggers on a
    marker; without a Hit Test no hit-roll rule does; Force's Check is not resolved here."""

    def move(label: str, verdict: str, reason: str = "") -> None:
        refile(report, label, verdict, reason)

    for rule in weapon.rules:
        if rule.name in ("Blast", "Template", "Barrage"):
            if rule.name == "Barrage" and plan.kind != "barrage":
                move(rule.label, "no_effect", "fired directly (set `indirect`: true to fire it without line of sight)")
            else:
                move(rule.label, "applied")
        elif rule.name == "Precision":
            move(rule.label, "no_effect", "never triggers for Blast, Barrage or Template weapons")
        elif rule.name == "Force":
            move(rule.label, "not_modelled", FORCE_NOT_HERE)
        elif rule.name in ("Critical Hit", "Rending", "Shock") and plan.kind != "blast":
            move(rule.label, "no_effect", _NO_TEST)


def _marker_states(
    states: dict[State, float], volley: Hh3Volley, plan: MarkerPlan, target: Hh3Unit, w: int, counted: bool = True
) -> tuple[dict[State, float], dict[str, Dist], list[str]]:
    """One marker or template volley on the target's states: (states, counts, notes); no counts unless
    ``counted``."""
    group = fire_group(volley, target)
    shape = plan.setup.shape
    die = group.die
    live = 1 if plan.kind != "blast" else sum(1 for p in (die.hit, die.critical, die.rending) if p > 0.0) or 1
    check_marker_joint(group.dice.max, target.models, live)
    check_size(group.dice.max * target.models, target.models, w, side="target", field="weapon.FP")
    notes: list[str] = []
    if plan.kind == "template":
        assert isinstance(shape, Formation)
        touched, side = template_touched(shape, plan.setup.firer_distance, hellstorm=plan.hellstorm)
        joint = np.zeros(group.dice.max * touched + 1)
        for n, p in enumerate(group.dice.probabilities):
            joint[n * touched] += p
        classes: tuple[str, ...] = ("hit",)
        notes.append(
            f'Template touching {counted_noun(touched, "model")} from {plan.setup.firer_distance:g}" '
            f"({side} of the unit)"
        )
    else:
        barrage = plan.kind == "barrage"
        test = {"hit": 1.0} if barrage else {"hit": die.hit, "critical": die.critical, "rending": die.rending}
        law = _law(plan, shape, die.hits)
        classes, joint = _mixed(group.dice, law, test)
        what = f"Barrage ({plan.dice}) indirect" if barrage else "Blast"
        notes.append(f'{what} {plan.diameter:g}" marker aimed at model {law.aim}' if law.aim is not None else what)
    if plan.default:
        notes.append(default_note(plan.setup))
    after = resolve_marker_hits(states, classes, joint, group, w)
    if plan.kind == "blast" and group.shock and group.calm is not None:
        after = _shocked(after, plan, shape, group, classes, w, states)
    if not counted:
        return after, {}, notes
    counts = marker_counts(classes, joint, group)
    tallies = {"hits": counts.hits, "critical_hits": counts.critical_hits, "wounds": counts.wounds,
               "unsaved": counts.unsaved}  # fmt: skip
    return after, tallies, notes


def marker_plans(
    target: Hh3Unit, firing_units: tuple[tuple[Hh3Volley, ...], ...], mine: MarkerFields
) -> list[list[MarkerPlan | None]]:
    """The marker plan of each volley at a unit (None: a volley that lays none, or whose hits are given).

    Raises:
        ScenarioError: naming ``formation`` when no volley lays a marker or template.
    """
    unit_type = target.type + (f" ({', '.join(sorted(target.subtypes))})" if target.subtypes else "")
    geometry = _geometry_unit(target.name, unit_type, target.models)
    plans = [
        [marker_plan(v.weapon, geometry, mine) if v.context.hits is None else None for v in unit]
        for unit in firing_units
    ]
    if not any(p is not None for unit in plans for p in unit):
        raise ScenarioError("formation: no volley places a marker or template (no Blast or Template rule)",
                            field="formation")  # fmt: skip
    return plans


@dataclass(frozen=True)
class MarkerStage:
    """What volleys with markers or templates did to a unit: the counts over every volley (``hits``,
    ``critical_hits``, ``wounds``, ``unsaved``), the models removed and wounds lost, the statuses, the Overload
    Misfires, the verdict on every rule and the formation's echo (:meth:`to_dict` is SCENARIO's Edition 3 keys)."""

    totals: Mapping[str, Dist]
    casualties: Dist
    damage: Dist
    statuses: Mapping[str, float | None]
    misfires: tuple[MisfireResult, ...]
    report: RuleReport
    target: Hh3Unit
    echo: Mapping[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The result mapping (docs/scenario.md, Edition 3)."""
        report = self.report
        return {
            "edition": "hh3",
            **{key: dist.to_dict() for key, dist in self.totals.items()},
            "casualties": self.casualties.to_dict(),
            "damage": self.damage.to_dict(),
            "statuses": dict(self.statuses),
            **({"misfires": [m.to_dict() for m in self.misfires]} if self.misfires else {}),
            **report.to_dict(),
            "target": {"name": self.target.name, "models": self.target.models, "formation": dict(self.echo)},
        }


_Kept = Callable[[Hh3Volley, "MarkerPlan | None", dict[str, Dist], list[str], "MisfireResult | None"], None]


def _run(
    target: Hh3Unit, firing_units: tuple[tuple[Hh3Volley, ...], ...], plans: list[list[MarkerPlan | None]],
    keep: _Kept | None,
) -> tuple[dict[State, float], int]:  # fmt: skip
    """The target's states after every volley in order (its W too); ``keep`` is told each volley's counts, notes
    and Misfires (None: only the states, no counts)."""
    if target.w is None:
        raise ScenarioError("target.W: required", field="target.W")
    w = target.w
    states: dict[State, float] = start(target.models, w)
    for u, (unit, unit_plans) in enumerate(zip(firing_units, plans, strict=True)):
        shooting = False
        for v, (volley, plan) in enumerate(zip(unit, unit_plans, strict=True)):
            overload = volley.weapon.rule("Overload") is not None  # no Misfire without the rule
            misfire = misfire_result(u, v, volley, fire_group(volley, target)) if overload else None
            if plan is not None:
                states, tallies, notes = _marker_states(states, volley, plan, target, w, keep is not None)
            else:
                group = fire_group(volley, target)
                check_size(group.dice.max, target.models, w, side="target", field="attacks")
                states = resolve_group(states, group, w)
                tallies, notes = group_counts(group) if keep is not None else {}, []
            if keep is not None:
                keep(volley, plan, tallies, notes, misfire)
            shooting |= not volley.weapon.melee
        states = end_attack(states, casualty_check=shooting)
    return states, w


def marker_means(
    target: Hh3Unit, firing_units: tuple[tuple[Hh3Volley, ...], ...], plans: list[list[MarkerPlan | None]]
) -> tuple[float, float]:
    """The means of :func:`resolve_marker_volleys`'s casualties and damage, through the same states and refusals
    without its counts, reports and statuses (what a unit's weapon modes are scored by)."""
    states, w = _run(target, firing_units, plans, None)
    casualties, damage = losses(states, target.models, w)
    return casualties.mean(), damage.mean()


def resolve_marker_volleys(
    target: Hh3Unit, firing_units: tuple[tuple[Hh3Volley, ...], ...], plans: list[list[MarkerPlan | None]]
) -> MarkerStage:
    """The volleys (their plans: :func:`marker_plans`) at a unit: every volley in order, the target's state carried
    over (a marker volley through the markers stage, any other through the engine's Fire Group), each firing
    unit's attack closed with its Checks' triggers."""
    report = RuleReport()
    zero = Dist.point(0)
    totals = dict.fromkeys(("hits", "critical_hits", "wounds", "unsaved"), zero)
    possible = dict.fromkeys(("Pinned", "Suppressed", "Stunned", "Routed"), False)
    echo: dict[str, Any] = {}
    misfires: list[MisfireResult] = []

    def keep(
        volley: Hh3Volley, plan: MarkerPlan | None, tallies: dict[str, Dist], notes: list[str],
        misfire: MisfireResult | None,
    ) -> None:  # fmt: skip
        nonlocal echo
        part = volley_report(volley, target)
        if plan is not None:
            _fix_report(part, volley.weapon, plan)
            for note in notes:
                part.add("applied", note)
            echo = dict(plan.setup.echo or {})
            shock = fire_group(volley, target).shock if plan.kind == "blast" else ()
        else:
            shock = fire_group(volley, target).shock
            _fix_unresolved(part, volley.weapon)
        for key in totals:
            totals[key] = tallies[key] if totals[key] is zero else totals[key] + tallies[key]
        if misfire is not None:
            misfires.append(misfire)
            overload = volley.weapon.rule("Overload")
            assert overload is not None
            refile(part, overload.label, "applied")
        report.merge(part)
        for pos in shock:  # Shock (X) on a Walker: its statuses, without a Check
            possible[ENGINE_STATUSES[pos - PINNED]] = True
        if not volley.weapon.melee:
            for r, s in (("Pinning", "Pinned"), ("Suppressive", "Suppressed"), ("Stun", "Stunned")):
                possible[s] |= volley.weapon.rule(r) is not None
            possible["Routed"] = True

    states, w = _run(target, firing_units, plans, keep)
    report.merge(target_report(target, shooting=True))
    casualties, damage = losses(states, target.models, w)
    values, why = check_values(target)
    if why is not None:
        report.reasons.setdefault("statuses", why)
    return MarkerStage(totals, casualties, damage, statuses(states, values, possible), tuple(misfires), report, target,
                       echo)  # fmt: skip


def _fix_unresolved(report: RuleReport, weapon: Hh3Weapon) -> None:
    """A volley beside marker volleys is resolved as one plain Fire Group: Force's Check and Phage are not applied
    there yet."""
    for rule in weapon.rules:
        if rule.name == "Force":
            refile(report, rule.label, "not_modelled", FORCE_NOT_HERE)
        elif rule.name == "Phage" and rule.label in report.applied:
            refile(report, rule.label, "not_modelled", "not resolved in a sequence with marker volleys yet")
