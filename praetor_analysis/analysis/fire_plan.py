"""What to shoot first: which of one list's units fires at which of the other's, for the most points removed.

A plan gives each firing unit one target (or none). The units given one target fire at it in the order of
their list, composed exactly: each unit's volleys resolve against the state the ones before left (the
damaged model or the hull points carried over, Pinning tested per unit), as ``firing_units`` in
``praetor calc``. A plan's value is the sum over targets of the expected points removed
(:func:`~praetor_analysis.analysis.matchup.points_pmf`), and its distribution the convolution of the
targets' point distributions (the targets are distinct units, rolled apart).

The search (:func:`fire_plan`): every assignment when there are at most :data:`EXHAUSTIVE_LIMIT` of them
(exact); otherwise greedy, each step the (unit, target) of the largest exact gain given the units already
assigned (computed lazily: a gain is computed only when its upper bound by the caps below leads), then
single moves of one unit to another target while any improves the plan (a move whose gain cannot beat the
best found, by the caps below, is not computed). Its distance from the best is bounded from above by
``bound``: a linear programme over fractional assignments where a unit
adds at most ``cap(unit, target)`` to a target worth at most its points. The cap is the target's points per
model times the unit's mean unsaved wounds, at most the unit's models (a model is removed only by an unsaved
wound, and the dice of the wound chain do not depend on the target's state); for a vehicle its points times
the most hull points it can expect to remove over the vehicle's hull points (Markov's inequality: a vehicle
is wrecked when its hull points are gone): one a glancing or penetrating hit (three with Destroyer), and up
to three more for an Explodes result, one at most per penetrating hit; never less than the pair's own
value. The bound is loose against multi-wound models (an unsaved wound counts as a model). ``gap`` =
``bound`` - ``expected``.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from praetor_analysis.analysis.army_list import ArmyList, ListUnit
from praetor_analysis.analysis.matchup import points_pmf, volley_blocks
from praetor_analysis.engine.volley import Volley
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.rules.catalogue import plays
from praetor_analysis.rules.hooks import Role
from praetor_analysis.scenario.hh3_unit_attack import Hh3Target, hh3_resolve, hh3_volleys
from praetor_analysis.units.attack import resolve_firing_units, shooting_volleys

__all__ = [
    "EXHAUSTIVE_LIMIT",
    "FirePlan",
    "Shot",
    "fire_plan",
    "plan_value",
    "shot_scenario",
    "unit_volleys",
]

EXHAUSTIVE_LIMIT = 4096
"""Largest number of assignments searched one by one (exact); beyond it the greedy search with its bound."""


@dataclass(frozen=True)
class Shot:
    """One target of a plan: the units firing at it (in order) and the points they remove."""

    target: str
    units: tuple[str, ...]
    expected: float
    pmf: Mapping[float, float]
    result: Mapping[str, Any]


@dataclass(frozen=True)
class FirePlan:
    """A fire plan of one list's shooting phase at another."""

    attacker_list: str
    target_list: str
    shots: tuple[Shot, ...]
    idle: tuple[str, ...]
    """Units that fire at nothing (no weapon that can hurt any target)."""
    expected: float
    bound: float
    method: str
    evaluations: int

    @property
    def gap(self) -> float:
        return max(0.0, self.bound - self.expected)

    def pmf(self) -> dict[float, float]:
        """The distribution of the points the plan removes."""
        out = {0.0: 1.0}
        for s in self.shots:
            nxt: dict[float, float] = {}
            for a, p in out.items():
                for b, q in s.pmf.items():
                    nxt[a + b] = nxt.get(a + b, 0.0) + p * q
            out = nxt
        return dict(sorted(out.items()))

    def to_dict(self) -> dict[str, Any]:
        pmf = self.pmf()
        return {
            "attacker_list": self.attacker_list,
            "target_list": self.target_list,
            "expected_points": self.expected,
            "bound": self.bound,
            "gap": self.gap,
            "method": self.method,
            "evaluations": self.evaluations,
            "shots": [
                {
                    "target": s.target,
                    "units": list(s.units),
                    "expected_points": s.expected,
                    "points_pmf": [[k, v] for k, v in sorted(s.pmf.items())],
                }
                for s in self.shots
            ],
            "idle": list(self.idle),
            "points_pmf": [[k, v] for k, v in pmf.items()],
        }


def unit_volleys(unit: ListUnit, target: ListUnit, *, half_range: bool = False) -> list[Volley]:
    """The volleys ``unit`` fires at ``target`` (none when it cannot shoot; a 3rd-edition unit's: volley blocks)."""
    try:
        if isinstance(target.target, Hh3Target):
            return hh3_volleys(unit.loadout, target.target)[0]  # type: ignore[return-value]
        return shooting_volleys(unit.loadout, target.target, half_range=half_range)[0]
    except (ScenarioError, ProfileError):
        return []


def _expected(result: Mapping[str, Any], target: ListUnit) -> float:
    return float(sum(k * p for k, p in points_pmf(result, target).items()))


class _Evaluator:
    """Exact values of sets of units at one target, memoised by the ordered set."""

    def __init__(self, units: Sequence[ListUnit], targets: Sequence[ListUnit], half_range: bool = False) -> None:
        self.units, self.targets = units, targets
        self.volleys = [[unit_volleys(u, t, half_range=half_range) for t in targets] for u in units]
        self.memo: dict[tuple[int, tuple[int, ...]], tuple[float, Mapping[str, Any]]] = {}
        self.caps: dict[tuple[int, int], float] = {}
        self.evaluations = 0

    def value(self, t: int, members: Sequence[int]) -> tuple[float, Mapping[str, Any] | None]:
        key = (t, tuple(sorted(members)))
        if not key[1]:
            return 0.0, None
        if key not in self.memo:
            firing = [self.volleys[a][t] for a in key[1] if self.volleys[a][t]]
            if not firing:
                self.memo[key] = (0.0, {})
            else:
                self.evaluations += 1
                body = self.targets[t].target
                if isinstance(body, Hh3Target):
                    result = hh3_resolve(body, firing)  # type: ignore[arg-type]
                else:
                    result = resolve_firing_units(body, firing)
                self.memo[key] = (_expected(result, self.targets[t]), result)
        return self.memo[key]

    def cap(self, a: int, t: int) -> float:
        """An upper bound of the points unit ``a``'s own shots remove at target ``t`` in any sequence of units
        (see the module docstring): a set's value is at most the sum of its units' caps."""
        key = (a, t)
        if key not in self.caps:
            self.caps[key] = self._cap(a, t)
        return self.caps[key]

    def _cap(self, a: int, t: int) -> float:
        own, result = self.value(t, [a])
        if not result:
            return 0.0
        target = self.targets[t]
        if isinstance(target.target, Hh3Target):  # the 3rd edition: a vehicle at most its points
            if "hull_points" in result or "unsaved" not in result:
                return max(float(target.points), own)
            pmf = np.asarray(result["unsaved"]["pmf"], dtype=float)
            return max(target.points_per_model * float(np.minimum(np.arange(pmf.size), target.models) @ pmf), own)
        if "hull_points" in result:
            per_hit = 3.0 if any(plays(Role.D3_HULL_POINTS, v.weapon.rules) for v in self.volleys[a][t]) else 1.0
            glancing, penetrating = float(result["glancing"]["mean"]), float(result["penetrating"]["mean"])
            hp = (target.target.armour.hp if target.target.armour else None) or 1
            # each hit removes at most per_hit hull points, and an Explodes (one per penetrating hit at most) D3 more
            cap = target.points * min(1.0, (per_hit * (glancing + penetrating) + 3.0 * penetrating) / hp)
        else:
            pmf = np.asarray(result["unsaved"]["pmf"], dtype=float)
            cap = target.points_per_model * float(np.minimum(np.arange(pmf.size), target.models) @ pmf)
        return max(cap, own)


def _bound(ev: _Evaluator) -> float:
    """The linear programme's optimum (see the module docstring)."""
    from scipy.optimize import linprog

    na, nt = len(ev.units), len(ev.targets)
    caps = np.array([[ev.cap(a, t) for t in range(nt)] for a in range(na)])
    worth = np.array([t.points for t in ev.targets], dtype=float)
    if na == 0 or nt == 0 or not caps.any():
        return 0.0
    # variables: x[a, t] (na * nt), then y[t] (nt); maximise sum y
    c = np.concatenate([np.zeros(na * nt), -np.ones(nt)])
    rows, rhs = [], []
    for t in range(nt):  # y_t - sum_a cap[a, t] x[a, t] <= 0
        r = np.zeros(na * nt + nt)
        r[t : na * nt : nt] = -caps[:, t]
        r[na * nt + t] = 1.0
        rows.append(r)
        rhs.append(0.0)
    for a in range(na):  # sum_t x[a, t] <= 1
        r = np.zeros(na * nt + nt)
        r[a * nt : (a + 1) * nt] = 1.0
        rows.append(r)
        rhs.append(1.0)
    bounds = [(0.0, 1.0)] * (na * nt) + [(0.0, float(w)) for w in worth]
    res = linprog(c, A_ub=np.array(rows), b_ub=np.array(rhs), bounds=bounds, method="highs")
    if not res.success:  # pragma: no cover - the programme is always feasible (x = 0)
        return float(min(worth.sum(), caps.max(axis=1).sum()))
    return float(-res.fun) * (1 + 1e-9)


def _total(ev: _Evaluator, assign: Sequence[int | None]) -> float:
    sets: dict[int, list[int]] = {}
    for a, t in enumerate(assign):
        if t is not None:
            sets.setdefault(t, []).append(a)
    return sum(ev.value(t, m)[0] for t, m in sets.items())


def _greedy(ev: _Evaluator) -> list[int | None]:
    na, nt = len(ev.units), len(ev.targets)
    assign: list[int | None] = [None] * na
    members: list[list[int]] = [[] for _ in range(nt)]
    current = [0.0] * nt
    gains = np.array([[ev.value(t, [a])[0] for t in range(nt)] for a in range(na)]) if na and nt else np.zeros((0, 0))
    stale = np.zeros(gains.shape, dtype=bool)  # gains[b, t] is then only an upper bound of the exact gain
    for _ in range(na):
        open_units = [a for a in range(na) if assign[a] is None]
        if not open_units:
            break
        while True:  # lazily: the exact gain of the best-looking pair, until the best is exact
            a, t = max(((a, t) for a in open_units for t in range(nt)), key=lambda at: (gains[at], -at[0], -at[1]))
            if not stale[a, t]:
                break
            gains[a, t] = ev.value(t, [*members[t], a])[0] - current[t]
            stale[a, t] = False
        if gains[a, t] <= 0.0:
            break
        assign[a] = t
        members[t].append(a)
        current[t] = ev.value(t, members[t])[0]
        held = sum(ev.cap(m, t) for m in members[t])
        for b in open_units:
            if b != a:
                gains[b, t] = min(ev.targets[t].points, held + ev.cap(b, t)) - current[t]
                stale[b, t] = True
    for _ in range(4 * max(1, na)):  # single moves while any improves the plan
        best = (1e-12, -1, -1)
        for a in range(na):
            src = assign[a]
            base = (
                ev.value(src, members[src])[0] - ev.value(src, [m for m in members[src] if m != a])[0]
                if src is not None
                else 0.0
            )
            for t in range(nt):
                if t == src:
                    continue
                here = ev.value(t, members[t])[0]
                most = min(ev.targets[t].points, sum(ev.cap(m, t) for m in members[t]) + ev.cap(a, t))
                if most - here - base <= best[0]:
                    continue  # the move cannot beat the best one found: no composition computed
                gain = ev.value(t, [*members[t], a])[0] - here - base
                if gain > best[0]:
                    best = (gain, a, t)
        if best[1] < 0:
            break
        _, a, t = best
        src = assign[a]
        if src is not None:
            members[src].remove(a)
        members[t].append(a)
        assign[a] = t
    return assign


def _exhaustive(ev: _Evaluator) -> list[int | None]:
    na, nt = len(ev.units), len(ev.targets)
    best: tuple[float, list[int | None]] = (-1.0, [None] * na)
    for combo in itertools.product(range(nt), repeat=na):
        value = _total(ev, combo)
        if value > best[0] + 1e-12:
            best = (value, list(combo))
    return best[1]


def plan_value(
    units: Sequence[ListUnit], targets: Sequence[ListUnit], assignment: Mapping[str, str], *, half_range: bool = False
) -> tuple[float, dict[str, Mapping[str, Any]]]:
    """The exact expected points removed by a plan given as ``{unit label: target label}``, and each target's
    ``firing_units`` result (the units at one target firing in the order of their list)."""
    ev = _Evaluator(units, targets, half_range)
    index = {t.label: i for i, t in enumerate(targets)}
    sets: dict[int, list[int]] = {}
    for a, u in enumerate(units):
        if u.label in assignment:
            sets.setdefault(index[assignment[u.label]], []).append(a)
    out: dict[str, Mapping[str, Any]] = {}
    total = 0.0
    for t, m in sets.items():
        value, result = ev.value(t, m)
        total += value
        if result:
            out[targets[t].label] = result
    return total, out


def fire_plan(
    attackers: ArmyList, targets: ArmyList, *, exhaustive_limit: int = EXHAUSTIVE_LIMIT, half_range: bool = False
) -> FirePlan:
    """The fire plan of ``attackers``' shooting phase at ``targets`` (see the module docstring; ``half_range``:
    every unit fires at half range)."""
    ev = _Evaluator(attackers.units, targets.units, half_range)
    na, nt = len(attackers.units), len(targets.units)
    useful = [a for a in range(na) if any(ev.volleys[a][t] for t in range(nt))]
    if nt and na and nt ** len(useful) <= exhaustive_limit:
        sub = _Evaluator([attackers.units[a] for a in useful], targets.units, half_range)
        sub.volleys = [ev.volleys[a] for a in useful]
        picked = _exhaustive(sub)
        assign: list[int | None] = [None] * na
        for k, a in enumerate(useful):
            assign[a] = picked[k]
        ev.evaluations = sub.evaluations  # (sub's memo is keyed by its own unit indices: not shared)
        method = f"exhaustive over all {nt ** len(useful)} assignments (exact)"
    else:
        assign = _greedy(ev)
        method = "greedy by exact marginal gain, then single moves"
    sets: dict[int, list[int]] = {}
    for a, t in enumerate(assign):
        if t is not None:
            sets.setdefault(t, []).append(a)
    shots = []
    for t in sorted(sets):
        value, result = ev.value(t, sets[t])
        if not result or value <= 0.0:
            continue
        target = targets.units[t]
        names = tuple(attackers.units[a].label for a in sorted(sets[t]))
        shots.append(Shot(target.label, names, value, points_pmf(result, target), result))
    firing = {n for s in shots for n in s.units}
    idle = tuple(u.label for u in attackers.units if u.label not in firing)
    expected = float(sum(s.expected for s in shots))
    bound = expected if method.startswith("exhaustive") else max(expected, _bound(ev))
    return FirePlan(attackers.name, targets.name, tuple(shots), idle, expected, bound, method, ev.evaluations)


def shot_scenario(units: Sequence[ListUnit], target: ListUnit, *, half_range: bool = False) -> dict[str, Any]:
    """A ``praetor calc`` scenario of ``units`` firing at ``target`` in turn (``firing_units``)."""
    return {
        "firing_units": [b for b in (volley_blocks(u, target, half_range=half_range) for u in units) if b],
        "target": dict(target.target_block),
    }
