"""The 3rd edition's matchup: in melee the target strikes back, a whole round (issue 35 item 3)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from praetor_analysis.analysis.army_list import ArmyList, load_list, make_list
from praetor_analysis.analysis.matchup import Pair, pair_result
from praetor_analysis.scenario.calc import calc
from praetor_analysis.units import hh3_one_way

SMALL = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Small Game.rosz"


@pytest.fixture(scope="module")
def army() -> ArmyList:
    return load_list(SMALL)


def _unit(army: ArmyList, label: str):  # type: ignore[no-untyped-def]
    return next(u for u in army.units if u.label == label)


def _melee(army: ArmyList, attacker: str, target: str):  # type: ignore[no-untyped-def]
    a, t = _unit(army, attacker), _unit(army, target)
    return pair_result(Pair("mine", army.name, a, army.name, t, "melee")), hh3_one_way(a.loadout, t.target)


def test_a_target_that_strikes_first_removes_attackers_before_they_strike(army: ArmyList) -> None:
    """A Tactical Squad (I 4) charges a Centurion with his bare hands (the basic close combat weapon: Combat
    Initiative I 5, A 4): his blows land first and the legionaries he removes never strike, so the squad takes
    fewer wounds off him than striking one way, and it loses models."""
    centurion = _unit(army, "Centurion").loadout
    bare = replace(centurion, groups=tuple(replace(g, weapons=()) for g in centurion.groups))
    pair_list = make_list("bare", [_unit(army, "Tactical Squad (1)").loadout, bare])
    a, t = pair_list.units
    whole, one_way = pair_result(Pair("mine", "x", a, "x", t, "melee")), hh3_one_way(a.loadout, t.target)
    # he strikes first, at a whole squad: 4 attacks x 2/3 (WS 6 against 4: 3+) x 1/2 (S 4 against T 4: 4+) x 1/3
    # (a 3+ save fails) = 4/9 legionaries removed
    assert whole.returned is not None and whole.returned.mean() == pytest.approx(4 / 9, abs=1e-12)
    assert whole.wounds.mean() < one_way.wounds.mean() - 1e-3
    assert whole.removed.mean() < one_way.removed.mean()
    assert any("strikes back" in a for a in whole.applied)
    combat = whole.outcome.engine.to_dict()["combat"]  # type: ignore[union-attr]
    assert sum(combat.values()) == pytest.approx(1.0, abs=1e-12)
    # at one Initiative step (his own greatsword strikes at I 4) the squad's blows are all in: as one way
    same, one = _melee(army, "Tactical Squad (1)", "Centurion")
    assert same.wounds.mean() == pytest.approx(one.wounds.mean(), abs=1e-12)
    assert same.returned is not None and same.returned.mean() > 0.5


def test_a_target_that_strikes_no_blow_gives_the_one_way_result(army: ArmyList) -> None:
    """A Rhino strikes back with nothing: the pair's result is the one-way strikes, die for die."""
    whole, one_way = _melee(army, "Tactical Squad (1)", "Rhino (1)")
    assert whole.returned is None
    assert whole.removed.isclose(one_way.removed) and whole.wounds.isclose(one_way.wounds)


def test_equal_initiative_strikes_are_simultaneous(army: ArmyList) -> None:
    """Two Tactical Squads at Initiative 4 strike at one step: the charger's losses do not reduce its blows, so it
    removes what it removes one way (to rounding), and the target's blows come back."""
    whole, one_way = _melee(army, "Tactical Squad (1)", "Tactical Squad (2)")
    assert whole.removed.mean() == pytest.approx(one_way.removed.mean(), abs=1e-9)
    assert whole.returned is not None and whole.returned.mean() > 0.1


def test_the_units_fight_back_in_a_3rd_edition_list(army: ArmyList) -> None:
    """A list's infantry fights back (its fighter is set); a Rhino does not."""
    assert _unit(army, "Centurion").fighter is not None
    assert _unit(army, "Rhino (1)").fighter is None
    assert not any("does not fight back" in n for u in army.units for n in u.notes)


def test_a_3rd_edition_round_has_no_single_calc_document(army: ArmyList) -> None:
    """`praetor calc` with a roster attacker strikes one way: a pair whose target strikes back says so (None) rather
    than give a document of another answer; a pair against a Rhino has its document, of the 3rd edition."""
    from praetor_analysis.views.pair_documents import pair_scenario, target_weapon_blocks

    squad, centurion, rhino = (_unit(army, x) for x in ("Tactical Squad (1)", "Centurion", "Rhino (1)"))
    assert pair_scenario(Pair("mine", "x", squad, "x", centurion, "melee")) is None
    assert target_weapon_blocks(squad, centurion) is None
    for phase in ("melee", "shooting"):  # the others: `praetor calc` of the pair's document gives its result
        pair = Pair("mine", "x", squad, "x", rhino, phase)
        doc = pair_scenario(pair)
        assert doc is not None and doc["edition"] == "hh3"
        assert calc(doc)["hull_points"]["pmf"] == pytest.approx(
            pair_result(pair).removed.probabilities.tolist(), abs=1e-12
        )
