"""A matchup's JSON and its cost (issue 38 item 6, "mutants die": ``Matchup.to_dict``, ``pairs_json`` and
``matchup_cost`` survived the fast tests): the JSON names both lists with their points, units and account, every
pair row as strict JSON and both plans; the cost is each unit's attacks x models x weapon profiles summed over
its groups, times the units it faces and the phases, both ways, counted again here from the groups."""

from __future__ import annotations

import json
import math

import pandas as pd
from pairs_json import pairs_json

from praetor_analysis.analysis.army_list import ArmyList, read_list_json
from praetor_analysis.analysis.list_matchup import Matchup, key_units, matchup, matchup_cost

MINE = read_list_json({"name": "mine", "units": ["Tactical Squad", "Praetor"]})
THEIRS = read_list_json({"name": "theirs", "units": ["Terminator Tartaros Squad"]})


def _work(army: ArmyList) -> int:
    total = 0
    for u in army.units:
        for g in u.loadout.groups:
            try:
                attacks = max(1, int(g.attacks))  # type: ignore[arg-type]
            except (TypeError, ValueError):
                attacks = 1
            total += attacks * max(1, g.count) * max(1, len(g.weapons))
    return total


def test_the_cost_counts_attacks_models_and_weapons_both_ways() -> None:
    a, b = _work(MINE), _work(THEIRS)
    assert a > len(MINE.units) and b > 1
    assert matchup_cost(MINE, THEIRS) == 2 * (a * 1 + b * 2)
    assert matchup_cost(MINE, THEIRS, 1) == a + 2 * b
    assert matchup_cost(THEIRS, MINE, 3) == 3 * (b * 2 + a)
    attacks = {g.attacks for u in MINE.units for g in u.loadout.groups}
    assert any(str(x).isdigit() and int(x) > 1 for x in attacks)  # the attacks are read, not taken as 1


def test_the_json_names_the_lists_pairs_and_plans() -> None:
    m = matchup(MINE, THEIRS, phases=("shooting",))
    d = m.to_dict()
    assert list(d) == ["lists", "pairs", "plans", "not_modelled"]  # issue 33: each unit's notes, added last
    assert d["lists"] == [
        {"name": x.name, "points": x.points, "units": [u.label for u in x.units], "account": x.account}
        for x in (MINE, THEIRS)
    ]
    assert d["lists"][0]["points"] == MINE.points > 0
    assert d["pairs"] == pairs_json(m.pairs) and len(d["pairs"]) == len(m.pairs) == 4  # 2 x 1, both ways
    assert [p["attacker_list"] for p in d["plans"]] == ["mine", "theirs"]
    assert d["plans"] == [p.to_dict() for p in m.plans]
    json.dumps(d, allow_nan=False)
    assert isinstance(m, Matchup)


def test_pairs_json_keeps_every_row_and_column() -> None:
    frame = pd.DataFrame({"x": [1.5, math.nan], "y": ["a", "b"]})
    assert pairs_json(frame) == [{"x": 1.5, "y": "a"}, {"x": None, "y": "b"}]


def test_ties_among_many_units_keep_the_order_met() -> None:
    """Forty units, ten values: a stable sort keeps each tie in the order the units are first met (a quick
    sort does not beyond 16 items)."""
    units = [f"u{i:02d}" for i in range(40)]
    values = [float((i * 7) % 10) for i in range(40)]
    frame = pd.DataFrame({"side": "mine", "attacker": units, "points_removed": values})
    got = key_units(frame, "mine", 40)
    assert got == sorted(zip(units, values, strict=True), key=lambda kv: -kv[1])


def test_the_matchup_tells_its_progress_stage_by_stage() -> None:
    told: list[tuple[str, int, int]] = []
    matchup(MINE, THEIRS, phases=("shooting",), progress=lambda stage, done, total: told.append((stage, done, total)))
    assert told[:2] == [("fire plans", 1, 2), ("fire plans", 2, 2)]
    assert told[2:] == [("pairs", i, 4) for i in range(1, 5)]
