"""Properties of the fire plan on seeded generated lists (issue 38 item 6, "mutants die"): the plan printed is
a plan and its value is that plan's; the exhaustive search finds the best of every plan (brute force over every
assignment and every order); the plan is never below any single unit's plan, adding a unit never lowers it; the
bound is at least every plan's value, in both searches; the distribution is a distribution whose mean is the
value; every unit fires at one target or is idle."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from functools import cache

import pytest

from praetor_analysis.analysis.army_list import ArmyList, ListUnit, read_list_json
from praetor_analysis.analysis.fire_plan import ORDER_LIMIT, FirePlan, fire_plan, plan_value
from praetor_analysis.units import Outcome
from praetor_analysis.views import shot_scenario

LASCANNONS = {"name": "Heavy Support Squad", "loadout": ["Lascannon"]}
POOL: tuple[object, ...] = (
    "Tactical Squad",
    LASCANNONS,
    "Terminator Tartaros Squad",
    "Praetor",
    "Terminator Cataphractii Squad",
    "Contemptor Dreadnought Talon",
    "Land Raider Spartan",
)
"""Attackers and targets: infantry of one Wound and of more, a character, a walker and a tank (the order
matters against the ones of more than one Wound and the vehicles)."""


@cache
def _list(names: tuple[int, ...]) -> ArmyList:
    return read_list_json({"units": [POOL[i] for i in names]})


def _all_plans(units: Sequence[ListUnit], targets: Sequence[ListUnit]) -> list[float]:
    """The value of every plan: each unit at one target or idle, the units at each target in every order."""
    out = []
    for choice in itertools.product([None, *range(len(targets))], repeat=len(units)):
        groups = [[u for u, c in zip(units, choice, strict=True) if c == t] for t in range(len(targets))]
        for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
            mapping = {u.label: targets[t].label for t, order in enumerate(orders) for u in order}
            out.append(plan_value(units, targets, mapping)[0])
    return out


def _cases(n: int, seed: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    rng = random.Random(seed)
    return [
        (
            tuple(rng.randrange(len(POOL)) for _ in range(rng.randint(1, 3))),
            tuple(rng.randrange(len(POOL)) for _ in range(rng.randint(1, 2))),
        )
        for _ in range(n)
    ]


def _check_plan_is_consistent(plan: FirePlan, mine: ArmyList, theirs: ArmyList) -> None:
    """The plan is a plan, its numbers are its own: shots and idle split the units, each shot's value is that
    target's value in that order, the distribution sums to 1 with the value as its mean, the bound and gap."""
    fired = [u for s in plan.shots for u in s.units]
    assert len(fired) == len(set(fired))
    assert sorted(fired + list(plan.idle)) == sorted(u.label for u in mine.units)
    assert len({s.target for s in plan.shots}) == len(plan.shots)
    assert all(s.expected > 0.0 and s.units for s in plan.shots)
    for s in plan.shots:
        assert plan_value(mine.units, theirs.units, dict.fromkeys(s.units, s.target))[0] == pytest.approx(
            s.expected, rel=1e-12, abs=1e-12
        )
        assert math.isclose(sum(s.pmf.values()), 1.0, abs_tol=1e-9)
        assert sum(k * p for k, p in s.pmf.items()) == pytest.approx(s.expected, rel=1e-9, abs=1e-9)
    assert plan.expected == pytest.approx(sum(s.expected for s in plan.shots), rel=1e-12, abs=1e-12)
    pmf = plan.pmf()
    assert list(pmf) == sorted(pmf)
    assert math.isclose(sum(pmf.values()), 1.0, abs_tol=1e-9)
    assert sum(k * p for k, p in pmf.items()) == pytest.approx(plan.expected, rel=1e-9, abs=1e-9)
    assert max(pmf) <= theirs.points + 1e-9
    assert plan.bound >= plan.expected - 1e-12
    assert plan.gap == pytest.approx(plan.bound - plan.expected, abs=1e-12)
    assert plan.evaluations >= len(plan.shots) and plan.work >= plan.evaluations
    d = plan.to_dict()
    assert (d["expected_points"], d["bound"], d["gap"], d["idle"]) == (
        plan.expected,
        plan.bound,
        plan.gap,
        list(plan.idle),
    )
    assert (d["attacker_list"], d["target_list"], d["method"]) == (mine.name, theirs.name, plan.method)
    assert [(s["target"], s["units"], s["expected_points"]) for s in d["shots"]] == [
        (s.target, list(s.units), s.expected) for s in plan.shots
    ]
    assert d["points_pmf"] == [[k, v] for k, v in pmf.items()]


@pytest.mark.parametrize(("mine_ids", "theirs_ids"), _cases(8, 38), ids=str)
def test_every_plan_is_at_most_the_plan_and_at_most_the_bound(
    mine_ids: tuple[int, ...], theirs_ids: tuple[int, ...]
) -> None:
    mine, theirs = _list(mine_ids), _list(theirs_ids)
    plans = _all_plans(mine.units, theirs.units)
    best = max(plans)
    exact = fire_plan(mine, theirs)
    greedy = fire_plan(mine, theirs, exhaustive_limit=0)
    assert exact.method == "exhaustive over every assignment and firing order (exact)"
    assert exact.expected == pytest.approx(best, rel=1e-12, abs=1e-12)
    assert exact.bound == exact.expected  # every order tried: the bound is the plan
    assert greedy.method.startswith("greedy")
    assert greedy.expected <= best + 1e-9
    assert greedy.bound >= best - 1e-9
    singles = [plan_value(mine.units, theirs.units, {u.label: t.label})[0] for u in mine.units for t in theirs.units]
    for plan in (exact, greedy):
        _check_plan_is_consistent(plan, mine, theirs)
        assert plan.expected >= max(singles) - 1e-9  # never below any single unit's plan


@pytest.mark.parametrize("seed", range(3))
def test_adding_a_unit_never_lowers_the_plan(seed: int) -> None:
    rng = random.Random(seed)
    theirs = _list(tuple(rng.randrange(len(POOL)) for _ in range(2)))
    mine: tuple[int, ...] = ()
    previous = 0.0
    for _ in range(4):
        mine = (*mine, rng.randrange(len(POOL)))
        plan = fire_plan(_list(mine), theirs)
        assert plan.expected >= previous - 1e-9
        previous = plan.expected


def test_an_attacker_that_cannot_hurt_is_idle_and_an_empty_side_removes_nothing() -> None:
    bolters, tanks = _list((0,)), _list((6,))  # bolters cannot hurt armour 14
    for plan in (fire_plan(bolters, tanks), fire_plan(bolters, tanks, exhaustive_limit=0)):
        _check_plan_is_consistent(plan, bolters, tanks)
        assert plan.shots == () and plan.idle == (bolters.units[0].label,)
        assert (plan.expected, plan.bound, plan.gap) == (0.0, 0.0, 0.0)
    nothing = fire_plan(ArmyList("none", ()), tanks)
    assert (nothing.shots, nothing.idle, nothing.expected, nothing.bound, nothing.gap) == ((), (), 0.0, 0.0, 0.0)
    assert nothing.pmf() == {0.0: 1.0}
    no_targets = fire_plan(tanks, ArmyList("none", ()))
    assert no_targets.shots == () and no_targets.expected == 0.0 and no_targets.idle == (tanks.units[0].label,)


def test_more_units_at_one_target_than_every_order_is_tried_for() -> None:
    """Five squads at one Tartaros squad (multi-Wound: the order matters): orders by insertion, said in the
    method; the plan is a plan, above each single unit and at most its bound, and the bound at least the value of
    every order of the five (120 orders)."""
    mine = _list((1, 0, 3, 2, 1))
    theirs = _list((2,))
    assert len(mine.units) == ORDER_LIMIT + 1
    plan = fire_plan(mine, theirs)
    assert plan.method == f"exhaustive over every assignment; orders of more than {ORDER_LIMIT} units by insertion"
    _check_plan_is_consistent(plan, mine, theirs)
    target = theirs.units[0].label
    every = [
        plan_value(mine.units, theirs.units, {u.label: target for u in order})[0]
        for order in itertools.permutations(mine.units)
    ]
    assert plan.bound >= max(every) - 1e-9
    assert plan.expected >= max(plan_value(mine.units, theirs.units, {u.label: target})[0] for u in mine.units)
    greedy = fire_plan(mine, theirs, exhaustive_limit=0)
    _check_plan_is_consistent(greedy, mine, theirs)
    assert greedy.bound >= max(every) - 1e-9


def test_the_greedy_search_within_no_budget_still_places_every_useful_unit() -> None:
    """With no work to spend the greedy search places the units by the caps' gains: still a plan, at most the
    best, with a bound above every plan."""
    mine, theirs = _list((0, 1, 2)), _list((2, 6))
    best = max(_all_plans(mine.units, theirs.units))
    plan = fire_plan(mine, theirs, exhaustive_limit=0, greedy_work=0)
    _check_plan_is_consistent(plan, mine, theirs)
    assert plan.shots and plan.expected <= best + 1e-9 and plan.bound >= best - 1e-9


def test_the_shot_scenario_names_each_firing_unit_and_the_target() -> None:
    mine, theirs = _list((0, 1)), _list((2,))
    scenario = shot_scenario(mine.units, theirs.units[0])
    assert len(scenario["firing_units"]) == 2
    assert scenario["target"] == dict(theirs.units[0].target_block)


def test_the_greedy_bound_is_the_linear_programmes_optimum() -> None:
    """Against one unit of one-Wound models a unit's cap is its own value (each unsaved wound removes one model,
    whatever fired before), so the programme's optimum is min(the target's points, the sum of the units' own
    values): above the plan when the units together would remove more models than there are."""
    mine, theirs = _list((0, 1, 3, 0)), _list((0,))
    target = theirs.units[0]
    assert (target.target.W or 1) == 1 and not target.target.is_vehicle
    own = [plan_value(mine.units, theirs.units, {u.label: target.label})[0] for u in mine.units]
    plan = fire_plan(mine, theirs, exhaustive_limit=0)
    assert plan.bound == pytest.approx(min(target.points, sum(own)), rel=1e-7)
    assert plan.bound > plan.expected + 1e-3
    one = fire_plan(_list((1,)), _list((0, 0)), exhaustive_limit=0)  # one unit, two targets: its best single
    assert one.bound == pytest.approx(one.expected, rel=1e-7)


@pytest.mark.parametrize("target", [2, 5])
def test_a_large_firing_order_is_left_where_no_unit_moves_for_more(target: int) -> None:
    """Five units at one target of multi-Wound models, placed by the greedy search: its order is searched by
    re-insertion until none improves, so no unit taken out and put back at any place removes more."""
    mine, theirs = _list((1, 0, 3, 2, 1)), _list((target,))
    plan = fire_plan(mine, theirs, exhaustive_limit=0)
    (shot,) = plan.shots
    order = list(shot.units)
    for unit in order:
        rest = [u for u in order if u != unit]
        for i in range(len(order)):
            trial = [*rest[:i], unit, *rest[i:]]
            value = plan_value(mine.units, theirs.units, dict.fromkeys(trial, shot.target))[0]
            assert value <= plan.expected + 1e-9, (trial, value, plan.expected)


def test_units_that_remove_nothing_at_a_target_give_no_shot_and_no_bound() -> None:
    """Five bolter squads at a tank they cannot hurt (armour 14, the order matters there): no shot, nothing
    removed, and a bound of 0 (no order of them removes a point)."""
    mine, theirs = _list((0, 0, 0, 0, 0)), _list((6,))
    for plan in (fire_plan(mine, theirs), fire_plan(mine, theirs, exhaustive_limit=0)):
        assert plan.shots == () and plan.expected == 0.0 and plan.bound == 0.0


def test_plan_value_gives_each_targets_result() -> None:
    mine, theirs = _list((0, 1)), _list((2, 3))
    mapping = {mine.units[0].label: theirs.units[0].label, mine.units[1].label: theirs.units[1].label}
    total, results = plan_value(mine.units, theirs.units, mapping)
    assert set(results) == {theirs.units[0].label, theirs.units[1].label} and total > 0
    assert all(isinstance(r, Outcome) and r.to_dict() for r in results.values())
