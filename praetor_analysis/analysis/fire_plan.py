"""What to shoot first: which of one list's units fires at which of the other's, in which order, for the most
points removed.

A plan gives each firing unit one target (or none) and the units given one target an order. They fire in that
order, composed exactly: each unit's volleys resolve against the state the ones before left (the damaged
model or the hull points carried over, Pinning tested per unit), as ``firing_units`` in ``praetor calc``. The
order matters: a lascannon's Instant Death is wasted on a model a bolter already wounded. A plan's value is the
sum over targets of the expected points removed (:func:`~praetor_analysis.analysis.matchup.points_pmf`), and
its distribution the convolution of the targets' point distributions (the targets are distinct units).

**Orders.** The units at one target are tried in every order when there are at most :data:`ORDER_LIMIT` of
them (exact); beyond, the heuristic: the best order of the set without its last unit (in list order), the last
unit inserted at every place. A set's *upper value* is its best value when every order was tried, else
``min(target's points, the sum of its units' caps)`` (the caps below hold in every order).

**Search.** The work is counted in *unit-resolutions*: one firing unit's volleys composed once (a firing order
of ``k`` units costs ``k``), about 1 ms each, plus :data:`SUBSET_WORK` per subset visited by the assignment
search. When the whole exhaustive search (every set of units at every target in every order up to
:data:`ORDER_LIMIT`, then every assignment by a dynamic programme over targets) costs at most
:data:`EXHAUSTIVE_WORK`, it is run: the plan is then the best of every assignment and every order when no set
needs the heuristic, and ``bound`` is the best upper value over all assignments (equal to the plan when exact).
Otherwise greedy: each step the (unit, target) of the largest exact gain given the units already placed, the
unit firing last (a gain is computed only when its upper bound by the caps leads), then single moves of one unit
to another target while any improves the plan, then each target's order searched (every order up to
:data:`ORDER_LIMIT` units, else each unit re-inserted at its best place), until :data:`GREEDY_WORK` is spent
(then the units left go where the caps promise most, and the search stops); ``bound`` is then a linear
programme over fractional assignments where a unit adds at most ``cap(unit, target)`` to a target worth at most
its points. The cap is the target's points per model times the unit's mean unsaved wounds, at most the unit's
models (a model is removed only by an unsaved wound, and the dice of the wound chain do not depend on the
target's state or on the order); for a vehicle its points times the most hull points it can expect to remove
over the vehicle's hull points (Markov's inequality: a vehicle is wrecked when its hull points are gone): one
a glancing or penetrating hit (three with Destroyer), and up to three more for an Explodes result, one at most
per penetrating hit; never less than the pair's own value. The bound is loose against multi-wound models (an
unsaved wound counts as a model). ``gap`` = ``bound`` - ``expected``.

Every list is answered within :data:`EXHAUSTIVE_WORK` + :data:`GREEDY_WORK` unit-resolutions plus one per
(unit, target) pair (the caps), whatever its size.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from praetor_analysis.analysis.army_list import ArmyList, ListUnit
from praetor_analysis.analysis.matchup import points_pmf
from praetor_analysis.engine import Volley
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.rules import Role, plays
from praetor_analysis.units import Hh3Target, Outcome, firing_units_result, hh3_resolve, hh3_volleys, shooting_volleys
from praetor_analysis.vehicles import VehicleAttackResult

__all__ = [
    "EXHAUSTIVE_WORK",
    "GREEDY_WORK",
    "ORDER_LIMIT",
    "FirePlan",
    "Shot",
    "fire_plan",
    "plan_value",
    "unit_volleys",
]

ORDER_LIMIT = 4
"""Most units at one target tried in every firing order (24 orders); a larger set is ordered by insertion."""
EXHAUSTIVE_WORK = 1500.0
"""Unit-resolutions (and subsets at :data:`SUBSET_WORK` each) the exhaustive search may cost; beyond, greedy."""
GREEDY_WORK = 2000.0
"""Unit-resolutions the greedy search and its moves may spend after the single pairs; then it stops."""
SUBSET_WORK = 0.002
"""A subset visited by the assignment programme, in unit-resolutions (about 2 us against 1 ms)."""


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
    """Firing orders composed (each a ``firing_units`` resolution)."""
    work: float = 0.0
    """Unit-resolutions spent (see the module docstring)."""

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
            "work": self.work,
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
    """The volleys ``unit`` fires at ``target`` (none when it cannot shoot; a 3rd-edition unit's: its typed shots,
    :class:`~praetor_analysis.units.Hh3Shot`)."""
    try:
        if isinstance(target.target, Hh3Target):
            return list(hh3_volleys(unit.loadout, target.target).shots)  # type: ignore[arg-type]
        return shooting_volleys(unit.loadout, target.target, half_range=half_range)[0]
    except (ScenarioError, ProfileError):
        return []


def _expected(result: Outcome, target: ListUnit) -> float:
    return float(sum(k * p for k, p in points_pmf(result, target).items()))


Order = tuple[int, ...]


class _Evaluator:
    """Exact values of firing orders at one target, memoised by the order, and the best order of a set."""

    def __init__(self, units: Sequence[ListUnit], targets: Sequence[ListUnit], half_range: bool = False) -> None:
        self.units, self.targets = units, targets
        self.volleys = [[unit_volleys(u, t, half_range=half_range) for t in targets] for u in units]
        self.memo: dict[tuple[int, Order], tuple[float, Outcome | None]] = {}
        self.best_memo: dict[tuple[int, Order], tuple[float, Order, bool]] = {}
        self.caps: dict[tuple[int, int], float] = {}
        self.evaluations = 0
        self.work = 0.0

    def ordered(self, t: int) -> bool:
        """Whether the firing order can change the points removed at target ``t``: a vehicle (hull points
        carried over) or models of more than one Wound (the damaged model carried over). Against one-Wound
        models every unsaved wound removes a model whatever came before (the dice of the wound chain do not
        depend on the target's state), so one order is every order."""
        unit = self.targets[t].target
        return unit.is_vehicle or (unit.W or 1) > 1

    def shooters(self, t: int, members: Sequence[int]) -> Order:
        """The units of ``members`` (in their order) with a volley at target ``t``."""
        return tuple(a for a in members if self.volleys[a][t])

    def value(self, t: int, order: Sequence[int]) -> tuple[float, Outcome | None]:
        """The expected points ``order`` removes firing at target ``t`` in that order, and its result."""
        key = (t, self.shooters(t, order))
        if not key[1]:
            return 0.0, None
        if key not in self.memo:
            self.evaluations += 1
            self.work += len(key[1])
            body = self.targets[t].target
            firing = [self.volleys[a][t] for a in key[1]]
            if isinstance(body, Hh3Target):
                result = hh3_resolve(body, firing)  # type: ignore[arg-type]
            else:
                result = firing_units_result(body, firing)
            self.memo[key] = (_expected(result, self.targets[t]), result)
        return self.memo[key]

    def insert(self, t: int, order: Sequence[int], a: int) -> tuple[float, Order]:
        """The best place of unit ``a`` in ``order`` at target ``t``: (value, order); the first best place."""
        best: tuple[float, Order] = (-1.0, ())
        for i in range(len(order) + 1):
            trial = (*order[:i], a, *order[i:])
            v = self.value(t, trial)[0]
            if v > best[0] + 1e-12:
                best = (v, trial)
        return best

    def best(self, t: int, members: Sequence[int]) -> tuple[float, Order, bool]:
        """The best firing order of a set at target ``t``: (value, order, every order tried)."""
        key = (t, tuple(sorted(self.shooters(t, members))))
        if key not in self.best_memo:
            s = key[1]
            if not s or not self.ordered(t):
                self.best_memo[key] = (self.value(t, s)[0], s, True)
            elif len(s) <= ORDER_LIMIT:
                found: tuple[float, Order] = (-1.0, ())
                for order in itertools.permutations(s):
                    v = self.value(t, order)[0]
                    if v > found[0] + 1e-12:
                        found = (v, order)
                self.best_memo[key] = (*found, True)
            else:
                _, base, _ = self.best(t, s[:-1])
                self.best_memo[key] = (*self.insert(t, base, s[-1]), False)
        return self.best_memo[key]

    def upper(self, t: int, members: Sequence[int]) -> float:
        """At least the value of every order of the set: its best when every order was tried, else the caps."""
        v, _, exact = self.best(t, members)
        if exact:
            return v
        s = self.shooters(t, members)
        return max(v, min(float(self.targets[t].points), sum(self.cap(a, t) for a in s)))

    def most(self, t: int, held: float, current: float, a: int) -> float:
        """An upper bound of what unit ``a`` adds firing last at ``t`` after units whose caps sum to ``held``
        and whose value is ``current``. Against models: its own cap (each of its unsaved wounds removes one
        model at most, whatever came before) and the points left; a vehicle's cap bounds the set's sum only
        (Markov's inequality on the hull points of all its attackers)."""
        worth = float(self.targets[t].points)
        if self.targets[t].target.is_vehicle:
            return min(worth, held + self.cap(a, t)) - current
        return min(worth - current, self.cap(a, t))

    def cap(self, a: int, t: int) -> float:
        """An upper bound of the points unit ``a``'s own shots remove at target ``t`` in any order of units
        (see the module docstring): a set's value is at most the sum of its units' caps."""
        key = (a, t)
        if key not in self.caps:
            self.caps[key] = self._cap(a, t)
        return self.caps[key]

    def _cap(self, a: int, t: int) -> float:
        own, result = self.value(t, [a])
        if result is None:
            return 0.0
        target = self.targets[t]
        if isinstance(target.target, Hh3Target):  # the 3rd edition: a vehicle at most its points
            if target.target.is_vehicle:
                return max(float(target.points), own)
            pmf = result.unsaved.probabilities
            return max(target.points_per_model * float(np.minimum(np.arange(pmf.size), target.models) @ pmf), own)
        if isinstance(result.engine, VehicleAttackResult):
            per_hit = 3.0 if any(plays(Role.D3_HULL_POINTS, v.weapon.rules) for v in self.volleys[a][t]) else 1.0
            glancing, penetrating = result.engine.glancing.mean(), result.engine.penetrating.mean()
            hp = (target.target.armour.hp if target.target.armour else None) or 1
            # each hit removes at most per_hit hull points, and an Explodes (one per penetrating hit at most) D3 more
            cap = target.points * min(1.0, (per_hit * (glancing + penetrating) + 3.0 * penetrating) / hp)
        else:
            pmf = result.unsaved.probabilities
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


def _orders_work(k: int, ordered: bool = True) -> float:
    """Unit-resolutions of the best order of one set of ``k`` units (every order, or ``k`` insertions; one
    order when the order cannot matter)."""
    if not ordered:
        return float(k)
    return float(k * math.factorial(k)) if k <= ORDER_LIMIT else float(k * k)


def exhaustive_work(shooting: Sequence[Sequence[bool]], ordered: Sequence[bool] | None = None) -> float:
    """The cost of the exhaustive search, before any of it is done: ``shooting[a][t]`` says whether unit ``a``
    has a volley at target ``t``, ``ordered[t]`` whether the order matters there (see the module docstring)."""
    na = len(shooting)
    nt = len(shooting[0]) if na else 0
    useful = sum(1 for row in shooting if any(row))
    work = SUBSET_WORK * nt * 3.0**useful
    for t in range(nt):
        k = sum(1 for row in shooting if row[t])
        matters = True if ordered is None else ordered[t]
        work += sum(math.comb(k, j) * _orders_work(j, matters) for j in range(1, k + 1))
        if work > 1e12:
            break
    return work


def _exhaustive(ev: _Evaluator, useful: Sequence[int]) -> tuple[list[Order], float, bool]:
    """Every assignment of ``useful`` units to targets (or none), each set in its best order: a dynamic
    programme over targets and the subsets still free. Returns (each target's order, the best upper value over
    every assignment, every set's orders all tried)."""
    n, nt = len(useful), len(ev.targets)
    shoots = [sum(1 << i for i, a in enumerate(useful) if ev.volleys[a][t]) for t in range(nt)]
    value: dict[int, float] = dict.fromkeys(range(1 << n), 0.0)  # after the last target: the rest idle
    upper = dict(value)
    choice: list[dict[int, int]] = [{} for _ in range(nt)]
    exact = True
    for t in range(nt - 1, -1, -1):
        nxt, nxt_up = value, upper
        value, upper = {}, {}
        for mask in range(1 << n):
            best, best_sub, top = nxt[mask], 0, nxt_up[mask]
            sub = mask & shoots[t]
            while sub:
                ev.work += SUBSET_WORK
                members = [useful[i] for i in range(n) if sub >> i & 1]
                v, _, every = ev.best(t, members)
                exact = exact and every
                if v + nxt[mask & ~sub] > best + 1e-12:
                    best, best_sub = v + nxt[mask & ~sub], sub
                top = max(top, ev.upper(t, members) + nxt_up[mask & ~sub])
                sub = (sub - 1) & mask & shoots[t]
            value[mask], upper[mask], choice[t][mask] = best, top, best_sub
    orders: list[Order] = []
    mask = (1 << n) - 1
    for t in range(nt):
        sub = choice[t][mask]
        orders.append(ev.best(t, [useful[i] for i in range(n) if sub >> i & 1])[1])
        mask &= ~sub
    return orders, upper[(1 << n) - 1], exact


def _greedy(ev: _Evaluator, budget: float) -> list[Order]:
    """Greedy by exact marginal gain (each unit placed last), then single moves, then each target's order
    searched (:meth:`_Evaluator.best` of its set, or re-insertions), within ``budget`` unit-resolutions after
    the single pairs; once it is spent every unit left goes last at the target of its largest gain by the caps.
    No step lowers the plan's value (a unit placed last removes no fewer points), and the first placed is the
    best single pair."""
    na, nt = len(ev.units), len(ev.targets)
    gains = np.array([[ev.value(t, [a])[0] for t in range(nt)] for a in range(na)]) if na and nt else np.zeros((0, 0))
    limit = ev.work + budget
    assign: list[int | None] = [None] * na
    orders: list[Order] = [() for _ in range(nt)]
    current = [0.0] * nt
    stale = np.zeros(gains.shape, dtype=bool)  # gains[b, t] is then only an upper bound of the exact gain
    open_units = [a for a in range(na) if nt and gains[a].max() > 0.0]
    while open_units and ev.work < limit:
        while True:  # lazily: the exact gain of the best-looking pair, until the best is exact
            a, t = max(((a, t) for a in open_units for t in range(nt)), key=lambda at: (gains[at], -at[0], -at[1]))
            if not stale[a, t] or ev.work >= limit:
                break
            gains[a, t] = ev.value(t, (*orders[t], a))[0] - current[t]
            stale[a, t] = False
        if gains[a, t] <= 0.0 or stale[a, t]:
            break
        _place(ev, a, t, assign, orders, current, gains, stale, open_units)
    while open_units:  # the budget is spent: by the caps' gain, no composition
        a, t = max(((a, t) for a in open_units for t in range(nt)), key=lambda at: (gains[at], -at[0], -at[1]))
        if gains[a, t] <= 0.0:
            break
        _place(ev, a, t, assign, orders, current, gains, stale, open_units, exact=False)
    _moves(ev, assign, orders, limit)
    for t in range(nt):
        orders[t] = _reorder(ev, t, orders[t], limit)
    return orders


def _place(
    ev: _Evaluator,
    a: int,
    t: int,
    assign: list[int | None],
    orders: list[Order],
    current: list[float],
    gains: np.ndarray,
    stale: np.ndarray,
    open_units: list[int],
    *,
    exact: bool = True,
) -> None:
    """Unit ``a`` fires last at ``t``; the other open units' gains there become upper bounds by the caps."""
    assign[a], orders[t] = t, (*orders[t], a)
    open_units.remove(a)
    held = sum(ev.cap(m, t) for m in orders[t])
    current[t] = ev.value(t, orders[t])[0] if exact else min(float(ev.targets[t].points), held)
    for b in open_units:
        gains[b, t] = ev.most(t, held, current[t], b)
        stale[b, t] = True


def _reorder(ev: _Evaluator, t: int, order: Order, limit: float) -> Order:
    """A better firing order of ``order`` at ``t`` while the work is below ``limit``: every order of a small set
    (:meth:`_Evaluator.best`), else each unit taken out and re-inserted at its best place, while one improves."""
    if len(ev.shooters(t, order)) < 2 or not ev.ordered(t):
        return order
    if len(order) <= ORDER_LIMIT:
        if ev.work + _orders_work(len(order)) > limit:
            return order
        v, best, _ = ev.best(t, order)
        return best if v > ev.value(t, order)[0] + 1e-12 else order
    value = ev.value(t, order)[0]
    improved = True
    while improved and ev.work < limit:
        improved = False
        for a in order:
            if ev.work + len(order) ** 2 > limit:
                return order
            v, trial = ev.insert(t, tuple(m for m in order if m != a), a)
            if v > value + 1e-12:
                order, value, improved = trial, v, True
    return order


def _moves(ev: _Evaluator, assign: list[int | None], orders: list[Order], limit: float) -> None:
    """Single moves of one unit to the end of another target's order while any improves the plan and the work
    is below ``limit`` (a move whose gain cannot beat the best found, by the caps, is not computed)."""
    na, nt = len(ev.units), len(ev.targets)
    for _ in range(4 * max(1, na)):
        best: tuple[float, int, int, Order] = (1e-12, -1, -1, ())
        for a in range(na):
            src = assign[a]
            rest = tuple(m for m in orders[src] if m != a) if src is not None else ()
            if ev.work >= limit:
                return
            base = ev.value(src, orders[src])[0] - ev.value(src, rest)[0] if src is not None else 0.0
            for t in range(nt):
                if t == src or ev.work >= limit:
                    continue
                here = ev.value(t, orders[t])[0]
                most = ev.most(t, sum(ev.cap(m, t) for m in orders[t]), here, a)
                if most - base <= best[0]:
                    continue  # the move cannot beat the best one found: no composition computed
                gain = ev.value(t, (*orders[t], a))[0] - here - base
                if gain > best[0]:
                    best = (gain, a, t, rest)
        if best[1] < 0:
            return
        _, a, t, rest = best
        src = assign[a]
        if src is not None:
            orders[src] = rest
        orders[t], assign[a] = (*orders[t], a), t


def plan_value(
    units: Sequence[ListUnit], targets: Sequence[ListUnit], assignment: Mapping[str, str], *, half_range: bool = False
) -> tuple[float, dict[str, Outcome]]:
    """The exact expected points removed by a plan given as ``{unit label: target label}``, and what the units
    at each target removed (its :class:`~praetor_analysis.units.Outcome`; ``to_dict()`` is the ``firing_units``
    result): the units at one target fire in the order of the mapping's keys."""
    ev = _Evaluator(units, targets, half_range)
    index = {t.label: i for i, t in enumerate(targets)}
    position = {u.label: a for a, u in enumerate(units)}
    sets: dict[int, list[int]] = {}
    for label, target in assignment.items():
        if label in position:
            sets.setdefault(index[target], []).append(position[label])
    out: dict[str, Outcome] = {}
    total = 0.0
    for t, m in sets.items():
        value, result = ev.value(t, m)
        total += value
        if result is not None:
            out[targets[t].label] = result
    return total, out


def fire_plan(
    attackers: ArmyList,
    targets: ArmyList,
    *,
    exhaustive_limit: float = EXHAUSTIVE_WORK,
    greedy_work: float = GREEDY_WORK,
    half_range: bool = False,
) -> FirePlan:
    """The fire plan of ``attackers``' shooting phase at ``targets`` (see the module docstring;
    ``exhaustive_limit``: the work the exhaustive search may cost; ``half_range``: every unit fires at half
    range)."""
    ev = _Evaluator(attackers.units, targets.units, half_range)
    na, nt = len(attackers.units), len(targets.units)
    useful = [a for a in range(na) if any(ev.volleys[a][t] for t in range(nt))]
    shooting = [[bool(ev.volleys[a][t]) for t in range(nt)] for a in useful]
    planned = exhaustive_work(shooting, [ev.ordered(t) for t in range(nt)]) if nt and useful else 0.0
    if nt and useful and planned <= exhaustive_limit:
        orders, upper, exact = _exhaustive(ev, useful)
        method = (
            "exhaustive over every assignment and firing order (exact)"
            if exact
            else f"exhaustive over every assignment; orders of more than {ORDER_LIMIT} units by insertion"
        )
    else:
        orders = _greedy(ev, greedy_work)
        method = "greedy by exact marginal gain, then single moves and firing orders searched"
        upper, exact = -1.0, False
    shots = []
    for t, order in enumerate(orders):
        value, result = ev.value(t, order)
        if result is None or value <= 0.0:
            continue
        target = targets.units[t]
        names = tuple(attackers.units[a].label for a in ev.shooters(t, order))
        shots.append(Shot(target.label, names, value, points_pmf(result, target), result.to_dict()))
    firing = {n for s in shots for n in s.units}
    idle = tuple(u.label for u in attackers.units if u.label not in firing)
    expected = float(sum(s.expected for s in shots))
    bound = expected if exact else max(expected, upper if upper >= 0.0 else _bound(ev))
    return FirePlan(attackers.name, targets.name, tuple(shots), idle, expected, bound, method, ev.evaluations, ev.work)
