"""A whole HH3 combat round in Initiative order, and who wins it, exactly (docs/rules-hh3.md#melee).

Each side is a :class:`RoundSide`: its body (a distribution over its unit's states, and the models alive in a
state), its Combat Initiative, its attacks per model at a step (Reaping Blow reads who is outnumbered there), and
how its blows move the enemy's state (``strike``: the edition's wound chain, one Strike Group of ``n`` attacks on
one enemy state). The round is a Markov chain over the joint state of both bodies: the Initiative Steps run from
the highest Combat Initiative down; at a step every side with that score strikes with the models it had when
the step began, and casualties are removed at the step's end (strikes within a step are simultaneous; a model
removed at an earlier step does not strike).

A side may strike in several Strike Groups (:class:`GroupSide`: a squad's sergeant with a power sword and its
legionaries with chainswords), each at its own Combat Initiative with the models of that group still alive: the
side's casualties leave its groups in a fixed order (``order``, the owner's choice), models that strike in no
group first. :func:`combat_round_hh3` is the round of two sides of one group each.

Combat resolution: each side scores 1 per enemy model it removed, and 1 more if it has
more models than the enemy after the fight (a Paragon or Walker counts its base W: ``weight``; equal scores
none); the higher total wins, equal totals draw. A side wiped out loses (both: a draw) and makes no Check. The
loser makes a Leadership Check at its LD minus the difference in points; failing it, the loser is Routed.
Nothing is sampled.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from praetor_analysis.prob import Dist

__all__ = ["GroupSide", "RoundResult3", "RoundSide", "Striker3", "combat_round_groups", "combat_round_hh3"]

State = Any
"""A side's state: any hashable value (the edition 3 chain's state tuple)."""
Strike = Callable[[int, State], Mapping[State, float]]
"""``strike(n, enemy_state)``: the distribution of the enemy's state after ``n`` attacks on it."""


@dataclass(frozen=True)
class RoundSide:
    """One side of a round.

    Attributes:
        start: the distribution of the side's state when the round begins.
        models: the models alive in a state.
        initiative: its Combat Initiative (I after the weapon's IM; 1 under any Tactical Status).
        attacks: attacks per model at a step, given (own models alive, enemy models alive) there.
        strike: its blows on the enemy's state (see :data:`Strike`).
        leadership: the LD its Check uses when it loses.
        weight: what one model counts when comparing models after the fight (a Paragon or Walker: base W).
    """

    start: Mapping[State, float]
    models: Callable[[State], int]
    initiative: int
    attacks: Callable[[int, int], int]
    strike: Strike
    leadership: int
    weight: int = 1


@dataclass(frozen=True)
class Striker3:
    """One Strike Group of a side: its ``models`` when the round begins, its Combat Initiative, its attacks per
    model at a step (given the side's models alive and the enemy's) and its blows on the enemy's state."""

    models: int
    initiative: int
    attacks: Callable[[int, int], int]
    strike: Strike


@dataclass(frozen=True)
class GroupSide:
    """One side of a round striking in several Strike Groups.

    Attributes:
        start, models, leadership, weight: as :class:`RoundSide` (the side's body: every model of it).
        strikers: its Strike Groups (their ``models`` add up to at most the side's models; the others strike not).
        order: the strikers' indices in the order casualties leave them (after the models that strike in no group).
    """

    start: Mapping[State, float]
    models: Callable[[State], int]
    strikers: tuple[Striker3, ...]
    order: tuple[int, ...]
    leadership: int
    weight: int = 1

    def alive(self, total: int, alive: int) -> tuple[int, ...]:
        """The models alive in each Strike Group when ``alive`` of the side's ``total`` models are."""
        rest = total - alive - (total - sum(s.models for s in self.strikers))  # the non-strikers go first
        out = [s.models for s in self.strikers]
        for g in self.order:
            gone = min(max(rest, 0), out[g])
            out[g] -= gone
            rest -= gone
        return tuple(out)


@dataclass(frozen=True)
class RoundResult3:
    """The round's outcome.

    Attributes:
        casualties, attacker_casualties: models removed from the target and from the attacker.
        attacker_points, target_points: Combat Resolution Points of each side.
        combat: ``{"attacker_wins", "target_wins", "draw"}`` probabilities.
        routed: ``{"attacker", "target"}``: P(that side loses the combat and fails its Leadership Check).
        final: the joint distribution of the two sides' states after the round.
        attacker_attacks, target_attacks: the attacks each side makes in the round (its models alive at its
            Initiative Step times their attacks there; 0 when either side is gone by then): its first Strike
            Group's (the side's, when it strikes in one).
        attacker_groups, target_groups: the attacks each Strike Group of a side makes (exact for each group).
    """

    casualties: Dist
    attacker_casualties: Dist
    attacker_points: Dist
    target_points: Dist
    combat: dict[str, float]
    routed: dict[str, float]
    final: dict[tuple[State, State], float]
    attacker_attacks: Dist
    target_attacks: Dist
    attacker_groups: tuple[Dist, ...] = ()
    target_groups: tuple[Dist, ...] = ()


def _struck(
    striker: Striker3, memo: dict[tuple[int, State], Mapping[State, float]], n: int, enemy: State
) -> Mapping[State, float]:
    if n <= 0:
        return {enemy: 1.0}
    key = (n, enemy)
    if key not in memo:
        memo[key] = striker.strike(n, enemy)
    return memo[key]


def _blows(
    side: GroupSide,
    step: int,
    alive: tuple[int, ...],
    own: int,
    enemy: int,
    state: State,
    memos: list[dict],
    made: list[dict[int, float]],
    p: float,
) -> Mapping[State, float]:
    """The enemy's state after the side's Strike Groups of Combat Initiative ``step`` strike it (one after the
    other, each with its models alive when the step began); ``made`` receives each group's attacks."""
    out: Mapping[State, float] = {state: 1.0}
    for g, striker in enumerate(side.strikers):
        if striker.initiative != step:
            continue
        n = alive[g] * striker.attacks(own, enemy) if own > 0 and enemy > 0 else 0
        made[g][n] = made[g].get(n, 0.0) + p
        if n <= 0:
            continue
        nxt: dict[State, float] = defaultdict(float)
        for s, q in out.items():
            for s2, r in _struck(striker, memos[g], n, s).items():
                nxt[s2] += q * r
        out = nxt
    return out


def _step(
    joint: Mapping[tuple[State, State], float],
    sides: tuple[GroupSide, GroupSide],
    totals: tuple[int, int],
    step: int,
    memos: tuple[list[dict], list[dict]],
    made: tuple[list[dict[int, float]], list[dict[int, float]]],
) -> dict[tuple[State, State], float]:
    """One Initiative Step: both sides' groups of that Combat Initiative strike from the states before it."""
    attacker, target = sides
    out: dict[tuple[State, State], float] = defaultdict(float)
    for (sa, st), p in joint.items():
        ma, mt = attacker.models(sa), target.models(st)
        on_t = _blows(attacker, step, attacker.alive(totals[0], ma), ma, mt, st, memos[0], made[0], p)
        on_a = _blows(target, step, target.alive(totals[1], mt), mt, ma, sa, memos[1], made[1], p)
        for sa2, pa in on_a.items():
            for st2, pt in on_t.items():
                out[(sa2, st2)] += p * pa * pt
    return dict(out)


def _grouped(side: RoundSide) -> GroupSide:
    """A side of one Strike Group: every model of it strikes."""
    counts = {side.models(s) for s in side.start}
    striker = Striker3(max(counts, default=0), side.initiative, side.attacks, side.strike)
    return GroupSide(side.start, side.models, (striker,), (0,), side.leadership, side.weight)


def combat_round_hh3(attacker: RoundSide, target: RoundSide, check: Callable[[int], float]) -> RoundResult3:
    """One whole round between ``attacker`` and ``target`` and its resolution; ``check(t)`` is P(a Leadership
    Check at target number ``t`` passes)."""
    return combat_round_groups(_grouped(attacker), _grouped(target), check)


def combat_round_groups(attacker: GroupSide, target: GroupSide, check: Callable[[int], float]) -> RoundResult3:
    """One whole round between two sides striking in Strike Groups (see :class:`GroupSide`) and its resolution;
    ``check(t)`` is P(a Leadership Check at target number ``t`` passes)."""
    joint: dict[tuple[State, State], float] = defaultdict(float)
    for sa, pa in attacker.start.items():
        for st, pt in target.start.items():
            joint[(sa, st)] += pa * pt
    a0 = {attacker.models(s) for s in attacker.start}
    t0 = {target.models(s) for s in target.start}
    if len(a0) != 1 or len(t0) != 1:
        raise ValueError("each side must start the round with a fixed number of models")
    ma0, mt0 = a0.pop(), t0.pop()
    for side, total in ((attacker, ma0), (target, mt0)):
        if sum(s.models for s in side.strikers) > total or sorted(side.order) != list(range(len(side.strikers))):
            raise ValueError("a side's Strike Groups must hold at most its models, each once in its order")
    memos: tuple[list[dict], list[dict]] = ([{} for _ in attacker.strikers], [{} for _ in target.strikers])
    made: tuple[list[dict[int, float]], list[dict[int, float]]] = (
        [{} for _ in attacker.strikers],
        [{} for _ in target.strikers],
    )
    steps = {s.initiative for s in attacker.strikers} | {s.initiative for s in target.strikers}
    for step in sorted(steps, reverse=True):
        joint = _step(joint, (attacker, target), (ma0, mt0), step, memos, made)
    lost_t = np.zeros(mt0 + 1)
    lost_a = np.zeros(ma0 + 1)
    pts_a = np.zeros(mt0 + 2)
    pts_t = np.zeros(ma0 + 2)
    combat = {"attacker_wins": 0.0, "target_wins": 0.0, "draw": 0.0}
    routed = {"attacker": 0.0, "target": 0.0}
    for (sa, st), p in joint.items():
        ma, mt = attacker.models(sa), target.models(st)
        lost_a[ma0 - ma] += p
        lost_t[mt0 - mt] += p
        more_a = ma * attacker.weight > mt * target.weight
        more_t = mt * target.weight > ma * attacker.weight
        a_pts, t_pts = (mt0 - mt) + more_a, (ma0 - ma) + more_t
        pts_a[a_pts] += p
        pts_t[t_pts] += p
        if ma == 0 or mt == 0:
            winner = "draw" if ma == mt else ("attacker" if ma else "target")
        else:
            winner = "draw" if a_pts == t_pts else ("attacker" if a_pts > t_pts else "target")
        if winner == "draw":
            combat["draw"] += p
            continue
        combat[f"{winner}_wins"] += p
        loser, alive, lead = (
            ("target", mt, target.leadership) if winner == "attacker" else ("attacker", ma, attacker.leadership)
        )
        if alive > 0:
            routed[loser] += p * (1.0 - check(lead - abs(a_pts - t_pts)))
    groups_a = tuple(_counts(m) for m in made[0])
    groups_t = tuple(_counts(m) for m in made[1])
    zero = Dist.point(0)
    return RoundResult3(
        casualties=Dist.from_trusted(lost_t),
        attacker_casualties=Dist.from_trusted(lost_a),
        attacker_points=Dist.from_trusted(pts_a),
        target_points=Dist.from_trusted(pts_t),
        combat=combat,
        routed=routed,
        final=dict(joint),
        attacker_attacks=groups_a[0] if groups_a else zero,
        target_attacks=groups_t[0] if groups_t else zero,
        attacker_groups=groups_a,
        target_groups=groups_t,
    )


def _counts(mass: Mapping[int, float]) -> Dist:
    out = np.zeros(max(mass, default=0) + 1)
    for n, p in mass.items():
        out[n] += p
    return Dist.from_trusted(out)
