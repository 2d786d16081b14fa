"""The fire plan searches the firing order as well as the targets (issue 33 item 7) and within a budget of work
(issue 37 item 6): on small lists every assignment and every order is enumerated, no plan beats the one the
search prints and its bound is at least every plan's value; the plan is never below a single unit's plan and
adding a unit never lowers it; the work counted bounds what is done."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest

from praetor_analysis.analysis.army_list import ArmyList, ListUnit, read_list_json
from praetor_analysis.analysis.fire_plan import (
    EXHAUSTIVE_WORK,
    GREEDY_WORK,
    exhaustive_work,
    fire_plan,
    plan_value,
    unit_volleys,
)

LASCANNONS = {"name": "Heavy Support Squad", "loadout": ["Lascannon"]}
MINE = ["Tactical Squad", LASCANNONS, "Terminator Tartaros Squad"]
THEIRS = ["Terminator Cataphractii Squad", "Praetor"]


def _all_plans(units: Sequence[ListUnit], targets: Sequence[ListUnit]) -> list[tuple[float, dict[str, str]]]:
    """Every plan: each unit at one target or idle, the units at each target in every order."""
    out = []
    for choice in itertools.product([None, *range(len(targets))], repeat=len(units)):
        groups = [[u for u, c in zip(units, choice, strict=True) if c == t] for t in range(len(targets))]
        for orders in itertools.product(*(itertools.permutations(g) for g in groups)):
            mapping = {u.label: targets[t].label for t, order in enumerate(orders) for u in order}
            out.append((plan_value(units, targets, mapping)[0], mapping))
    return out


def _check_against_every_plan(mine: ArmyList, theirs: ArmyList) -> float:
    plans = _all_plans(mine.units, theirs.units)
    best = max(v for v, _ in plans)
    exact = fire_plan(mine, theirs)
    assert exact.method.startswith("exhaustive") and exact.method.endswith("(exact)")
    assert exact.expected == pytest.approx(best, rel=1e-12, abs=1e-12)
    assert exact.bound >= best - 1e-9
    greedy = fire_plan(mine, theirs, exhaustive_limit=0)
    assert greedy.method.startswith("greedy")
    assert greedy.expected <= best + 1e-9 and greedy.bound >= best - 1e-9
    for plan in (exact, greedy):  # the printed plan is a plan, and its value is the value of that plan
        mapping = {u: s.target for s in plan.shots for u in s.units}
        assert plan_value(mine.units, theirs.units, mapping)[0] == pytest.approx(plan.expected, rel=1e-12)
    return best


def test_the_order_matters_and_is_searched() -> None:
    """Bolters, lascannons and Tartaros at Cataphractii: fired in list order 45.84 points; the lascannons last
    48.39 (the same assignment); the search finds the best of every plan."""
    mine, theirs = read_list_json({"units": MINE}), read_list_json({"units": THEIRS[:1]})
    target = theirs.units[0].label
    in_list_order = plan_value(mine.units, theirs.units, {u.label: target for u in mine.units})[0]
    best = _check_against_every_plan(mine, theirs)
    assert best > in_list_order + 2.0
    assert fire_plan(mine, theirs).expected == pytest.approx(best, rel=1e-12)


@pytest.mark.parametrize(
    ("mine", "theirs"),
    [
        (MINE, THEIRS),
        (["Tactical Squad", LASCANNONS], ["Terminator Tartaros Squad", "Land Raider Spartan"]),
        ([LASCANNONS, "Praetor", "Tactical Squad"], ["Contemptor Dreadnought Talon", "Tactical Squad"]),
    ],
)
def test_no_plan_beats_the_printed_one(mine: list, theirs: list) -> None:  # type: ignore[type-arg]
    _check_against_every_plan(read_list_json({"units": mine}), read_list_json({"units": theirs}))


def test_never_below_a_single_unit_and_adding_a_unit_never_lowers_it() -> None:
    theirs = read_list_json({"units": THEIRS})
    units = [*MINE, "Praetor"]
    previous = 0.0
    for n in range(1, len(units) + 1):
        mine = read_list_json({"units": units[:n]})
        for kw in ({}, {"exhaustive_limit": 0}):
            plan = fire_plan(mine, theirs, **kw)  # type: ignore[arg-type]
            for u in mine.units:
                for t in theirs.units:
                    single = plan_value(mine.units, theirs.units, {u.label: t.label})[0]
                    assert plan.expected >= single - 1e-9
            if not kw:
                assert plan.expected >= previous - 1e-9
                previous = plan.expected


def test_the_work_is_bounded_whatever_the_lists() -> None:
    """The search never spends more than its budgets plus one resolution per (unit, target) pair and one per
    unit a target's final order holds; the exhaustive search is chosen by its cost counted before it runs."""
    names = ["Tactical Squad", LASCANNONS, "Terminator Tartaros Squad", "Praetor", "Land Raider Spartan"]
    for na, nt in ((12, 2), (6, 6)):
        mine = read_list_json({"units": [names[i % len(names)] for i in range(na)]})
        theirs = read_list_json({"units": [names[(i + 2) % len(names)] for i in range(nt)]})
        plan = fire_plan(mine, theirs)
        pairs = na * nt
        assert plan.work <= max(EXHAUSTIVE_WORK, GREEDY_WORK) + pairs + na * nt + 1e-9
        shooting = [[bool(unit_volleys(u, t)) for t in theirs.units] for u in mine.units]
        assert (exhaustive_work(shooting) <= EXHAUSTIVE_WORK) == plan.method.startswith("exhaustive")


def test_exhaustive_work_counts_subsets_and_orders() -> None:
    """Two units that can both shoot one target: subsets {a}, {b} (1 each), {a, b} in 2 orders of 2 units (4),
    and the assignment programme's 3^2 subsets."""
    assert math.isclose(exhaustive_work([[True], [True]]), 6 + 0.002 * 9)
    assert math.isclose(exhaustive_work([[True], [True]], [False]), 4 + 0.002 * 9)
    grow = [exhaustive_work([[True, True]] * n) for n in range(1, 9)]
    assert grow == sorted(grow)
