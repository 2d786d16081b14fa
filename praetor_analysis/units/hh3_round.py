"""A whole round of 3rd-edition melee between two fielded units: the target strikes back (docs/rules-hh3.md#melee).

Each side strikes in the Strike Groups its models choose
(:func:`~praetor_analysis.units.hh3_attack.hh3_volleys`: one weapon per model, its best against the
other side), each group at its own Combat Initiative with its models still alive, through
:func:`praetor_analysis.melee.hh3.combat_round_groups`. The attacker charged (Impact); the target did not.
Each side's body is the statline most of its models share (its 3rd-edition target, at the unit's size), its
Leadership that statline's LD.

Readings (the owner removes its casualties): models that strike in no group go first, then the groups that
strike at or above every enemy Combat Initiative (their blows are in before any casualty is removed), then the
others from the one whose model takes the fewest wounds off a fresh enemy up.

A side's ``hits``, ``wounds`` and ``unsaved`` are its groups' added as independent: exact when each group strikes
with a fixed number of attacks, else said under ``not_modelled`` (casualties, wounds taken, the combat's winner
and each group's own marginals are exact). A target that strikes no blow (a Rhino), or is a vehicle, and an
attacker of vehicles (a Walker or Knight, whose hull points the enemy's blows would need) fight one way:
:func:`~praetor_analysis.units.hh3_attack.hh3_one_way`. :func:`hh3_melee` is the 3rd edition's unit melee:
one way, or the whole round given the enemy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from praetor_analysis.engine import FireGroup, Hh3Context, Hh3Volley, fire_group, group_counts, one_attack, start
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.melee import GroupSide, Striker3, combat_round_groups
from praetor_analysis.prob import BoundedMemo, Dist
from praetor_analysis.profiles import Hh3Unit
from praetor_analysis.rules import check_pass
from praetor_analysis.units.hh3_attack import UNIT_NOT_READ, Hh3Shot, hh3_one_way, hh3_volleys
from praetor_analysis.units.hh3_combat import RoundOutcome, round_side, side_losses
from praetor_analysis.units.hh3_engine_records import hh3_unit_of_target
from praetor_analysis.units.hh3_target import Hh3Target, fights_in_melee
from praetor_analysis.units.records import FieldedUnit
from praetor_analysis.units.result import Choice, Measure, Outcome, UnitAttackResult

__all__ = ["ONE_WAY_VEHICLE", "hh3_melee", "hh3_round"]

ONE_WAY_VEHICLE = "the target's blows back at a vehicle (Walker, Knight) in a whole round: it strikes one way"
"""The note of a round whose attacker fights only with vehicles."""
ADDED = "{side}: hits, wounds and unsaved of its Strike Groups added as independent (each group's own are exact)"


@dataclass(frozen=True)
class _Side:
    """One side built for the round: its body, its Strike Groups with their Fire Groups, and what each chose."""

    body: Hh3Unit
    side: GroupSide
    groups: tuple[FireGroup, ...]
    chosen: tuple[Choice, ...]


def _striking(shots: Sequence[Hh3Shot], charging: bool) -> list[Hh3Volley]:
    """Each volley on its own (its attacker, its weapon), charging or not, as a one-volley attack."""
    out = []
    for s in shots:
        volley = Hh3Volley(s.volley.attacker, s.volley.weapon, Hh3Context("melee", charging=charging))
        out.append(one_attack((volley,))[0])
    return out


def _side(unit: FieldedUnit, body: Hh3Target, enemy: Hh3Target, *, charging: bool, prefix: str) -> _Side:
    """``unit`` (its body ``body``) striking ``enemy`` in its Strike Groups."""
    made = hh3_volleys(unit, enemy, "melee")
    me = hh3_unit_of_target(body, prefix.rstrip("."))
    foe = hh3_unit_of_target(enemy, "target" if prefix == "attacker." else "attacker")
    if me.w is None or me.ld is None:
        field = f"{prefix}{'W' if me.w is None else 'LD'}"
        raise ScenarioError(f"{field}: required for a whole round of combat", field=field)
    parsed = _striking(made.shots, charging)
    rounds = [round_side(v, foe, prefix) for v in parsed]
    strikers = tuple(
        Striker3(v.attacker.models, r.initiative, r.attacks, r.strike) for v, r in zip(parsed, rounds, strict=True)
    )
    sides = ("attacker", "target") if prefix == "attacker." else ("target", "attacker")
    groups = tuple(fire_group(v, foe, sides=sides) for v in parsed)
    return _Side(
        me,
        GroupSide(
            start(me.models, me.w), lambda s: s[0], strikers, (), me.ld, me.w if me.has_type("Paragon", "Walker") else 1
        ),
        groups,
        made.chosen,
    )


def _order(side: GroupSide, foe: GroupSide, value: Sequence[float]) -> tuple[int, ...]:
    """The order casualties leave the side's Strike Groups (see the module docstring)."""
    top = max((s.initiative for s in foe.strikers), default=0)
    early = [i for i, s in enumerate(side.strikers) if s.initiative >= top]
    late = sorted((i for i in range(len(side.strikers)) if i not in early), key=lambda i: value[i])
    return (*early, *late)


def _values(side: GroupSide, own: int, foe_models: int, foe_w: int) -> list[float]:
    """Mean wounds one model of each Strike Group takes off a fresh enemy (its blows' worth: a model of several
    Wounds is rarely removed by one model's blows)."""
    fresh = start(foe_models, foe_w)
    whole = foe_models * foe_w
    out = []
    for st in side.strikers:
        n = st.attacks(own, foe_models)
        taken = 0.0
        for state in fresh if n > 0 else ():
            taken += sum(
                p * (whole - ((s[0] - 1) * foe_w + s[1] if s[0] else 0)) for s, p in st.strike(n, state).items()
            )
        out.append(taken)
    return out


def _blows(groups: Sequence[FireGroup], made: Sequence[Dist]) -> tuple[dict[str, Dist], bool]:
    """A side's hits, wounds, unsaved: its groups' over the attacks each made, added as independent (and whether
    that is exact: every group's attacks fixed)."""
    total: dict[str, Dist] = {}
    for group, attacks in zip(groups, made, strict=True):
        counts = {"attacks": attacks, **group_counts(replace(group, dice=attacks))}
        total = {k: total[k] + d if k in total else d for k, d in counts.items()}
    fixed = all(int((d.probabilities > 0).sum()) <= 1 for d in made)
    return total, fixed or len(made) <= 1


_ROUNDS: BoundedMemo[UnitAttackResult] = BoundedMemo(4096)
"""The rounds computed, by their two units and bodies (a matchup computed again, warm, asks the same)."""


def hh3_round(unit: FieldedUnit, enemy: FieldedUnit, body: Hh3Target, target: Hh3Target) -> UnitAttackResult:
    """``unit`` (its body ``body`` as a target) charges ``enemy`` (read as ``target``): a whole round, both sides
    striking, or one way where the round cannot be (see the module docstring)."""
    key = (repr(unit), repr(enemy), repr(body), repr(target))
    return _ROUNDS.get(key, lambda: _round(unit, enemy, body, target))


def _round(unit: FieldedUnit, enemy: FieldedUnit, body: Hh3Target, target: Hh3Target) -> UnitAttackResult:
    if target.is_vehicle or not fights_in_melee(enemy):
        return hh3_one_way(unit, target)
    if body.is_vehicle:
        one = hh3_one_way(unit, target)
        return replace(one, not_modelled=(*one.not_modelled, ONE_WAY_VEHICLE))
    try:
        a = _side(unit, body, target, charging=True, prefix="attacker.")
        t = _side(enemy, target, body, charging=False, prefix="target.")
    except (ScenarioError, ProfileError) as exc:
        one = hh3_one_way(unit, target)
        return replace(one, not_modelled=(*one.not_modelled, f"the target's blows back: not modelled ({exc})"))
    assert a.body.w is not None and t.body.w is not None
    sa = replace(a.side, order=_order(a.side, t.side, _values(a.side, a.body.models, t.body.models, t.body.w)))
    st = replace(t.side, order=_order(t.side, a.side, _values(t.side, t.body.models, a.body.models, a.body.w)))
    result = combat_round_groups(sa, st, check_pass)
    mine, exact_a = _blows(a.groups, result.attacker_groups)
    theirs, exact_t = _blows(t.groups, result.target_groups)
    notes = [ADDED.format(side=s) for s, ok in (("attacker", exact_a), ("target", exact_t)) if not ok]
    sizes = ((a.body.models, a.body.w), (t.body.models, t.body.w))
    engine = RoundOutcome(result, sizes, mine, theirs, (target.name, target.models))
    removed, wounds = side_losses(result.final, 1, t.body.models, t.body.w)
    a_cas, _ = side_losses(result.final, 0, a.body.models, a.body.w)
    wiped = float(removed.sf(target.models - 1))
    outcome = Outcome(engine, Measure.MODELS, removed, wounds, mine["unsaved"], wiped, returned=a_cas)  # type: ignore[arg-type]
    chosen = tuple(Choice(c.model, c.count, c.weapon, {}) for c in a.chosen)
    return UnitAttackResult(
        unit.datasheet,
        unit.faction,
        unit.size,
        unit.points,
        "melee",
        outcome,
        target.models,
        chosen,
        (f"a whole round: {enemy.datasheet} strikes back",),
        tuple(dict.fromkeys([*UNIT_NOT_READ, *unit.notes, *notes])),
        {},
    )


def hh3_melee(
    unit: FieldedUnit,
    target: Hh3Target,
    *,
    enemy: FieldedUnit | None = None,
    body: Hh3Target | None = None,
) -> UnitAttackResult:
    """A 3rd-edition unit's melee at ``target``, charging: with ``enemy`` (the target's fielded unit) and ``body``
    (the unit itself as a target), a whole round where the target strikes back (:func:`hh3_round`); else its
    strikes alone (:func:`~praetor_analysis.units.hh3_attack.hh3_one_way`)."""
    if enemy is None or body is None:
        return hh3_one_way(unit, target)
    return hh3_round(unit, enemy, body, target)
