"""A matchup's options and refusals (issue 38 item 6, "mutants die": these lines of ``analysis/list_matchup.py``
survived mutmut): an unreadable Attacks counts as one attack in the cost, ``matchup()`` shoots at full range
unless told, a list of the other edition is refused on the ``theirs`` field, a matchup above the cost limit is
refused naming the matchup, and ``key_units`` keeps the lists' order among equal units."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from pathlib import Path

import pandas as pd
import pytest

from praetor_analysis.analysis import list_matchup
from praetor_analysis.analysis.army_list import ArmyList, load_list, read_list_json
from praetor_analysis.analysis.fire_plan import fire_plan
from praetor_analysis.analysis.list_matchup import key_units, matchup, matchup_cost, matchup_pairs
from praetor_analysis.engine import check_cost
from praetor_analysis.errors import PraetorError, ScenarioError

MINE = read_list_json({"name": "mine", "units": ["Tactical Squad"]})
THEIRS = read_list_json({"name": "theirs", "units": ["Terminator Tartaros Squad"]})
HH3 = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Small Game.rosz"


def _with_attacks(army: ArmyList, value: object) -> ArmyList:
    """``army`` with every group's Attacks set to ``value``."""
    units = []
    for u in army.units:
        groups = tuple(replace(g, statline=g.profile.with_stats({"A": value})) for g in u.loadout.groups)
        units.append(replace(u, loadout=replace(u.loadout, groups=groups)))
    return replace(army, units=tuple(units))


@pytest.mark.parametrize("unreadable", ["*", "-", "", None, "D3"])
def test_an_unreadable_attacks_costs_one_attack(unreadable: object) -> None:
    one = matchup_cost(_with_attacks(MINE, "1"), THEIRS)
    assert matchup_cost(_with_attacks(MINE, unreadable), THEIRS) == one
    assert matchup_cost(_with_attacks(MINE, "0"), THEIRS) == one  # at least one attack
    assert matchup_cost(_with_attacks(MINE, "3"), THEIRS) > one


def test_a_matchup_shoots_at_full_range_unless_told() -> None:
    """Tactical Squad's Bolters are Rapid Fire: at half range they fire twice, so the half-range rows differ."""
    plain = matchup(MINE, THEIRS, phases=("shooting",))
    full = matchup_pairs(MINE, THEIRS, phases=("shooting",))
    pd.testing.assert_frame_equal(plain.pairs, full)
    half = matchup(MINE, THEIRS, phases=("shooting",), half_range=True)
    mine = half.pairs["side"] == "mine"
    assert (half.pairs[mine]["mean"].to_numpy() > plain.pairs[mine]["mean"].to_numpy()).all()
    assert half.plans[0].expected >= plain.plans[0].expected
    assert plain.plans[0].to_dict() != half.plans[0].to_dict()
    for a, b, plan in ((MINE, THEIRS, half.plans[0]), (THEIRS, MINE, half.plans[1])):  # both ways at half range
        assert plan.to_dict() == fire_plan(a, b, half_range=True).to_dict()
    assert half.plans[1].to_dict() != plain.plans[1].to_dict()  # Tartaros' combi-bolters are Rapid Fire too


def test_the_cost_limit_counts_the_phases_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """A matchup of one phase costs half of both: at a limit between the two, one phase is let through."""
    one = matchup_cost(MINE, THEIRS, 1)
    assert matchup_cost(MINE, THEIRS) == 2 * one
    monkeypatch.setattr(list_matchup, "check_cost", partial(check_cost, limit=one))
    assert len(matchup(MINE, THEIRS, phases=("shooting",)).pairs) == 2
    with pytest.raises(PraetorError, match="^matchup: "):
        matchup(MINE, THEIRS)


def test_a_list_of_the_other_edition_is_refused_on_theirs() -> None:
    hh3 = load_list(HH3)
    with pytest.raises(ScenarioError) as info:
        matchup(MINE, hh3)
    assert info.value.field == "theirs"
    assert str(info.value).startswith("theirs: ") and "hh3" in str(info.value) and "hh2" in str(info.value)


def test_a_matchup_above_the_cost_limit_is_refused_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(list_matchup, "check_cost", partial(check_cost, limit=0))
    with pytest.raises(PraetorError) as info:
        matchup(MINE, THEIRS)
    assert info.value.field == "matchup" and str(info.value).startswith("matchup: about ")


def test_key_units_keep_the_lists_order_among_equals() -> None:
    """Equal best rows keep the order the units come in the table (not the names' alphabetical order)."""
    names = ["Zeta", "Alpha", "Mu", "Beta"]
    frame = pd.DataFrame(
        {
            "side": ["mine"] * 5 + ["theirs"],
            "attacker": [*names, "Alpha", "Omega"],
            "points_removed": [10.0, 10.0, 10.0, 10.0, 2.0, 50.0],
        }
    )
    assert key_units(frame, "mine", n=4) == [(n, 10.0) for n in names]
    assert key_units(frame, "mine", n=2) == [("Zeta", 10.0), ("Alpha", 10.0)]
    assert key_units(frame, "theirs") == [("Omega", 50.0)]
