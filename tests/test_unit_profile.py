"""One reading of a squad in every phase (issue 33 item 6): a model whose profile lacks a characteristic is read
with its unit's profile, the same in one-way melee, in a whole round as attacker and as defender, in shooting
and as a target; Walkers and Knights strike in melee with their WS, S, I and A."""

from __future__ import annotations

import pytest
from group_blocks import hh2_group

from praetor_analysis.analysis.army_list import read_list_json
from praetor_analysis.analysis.matchup import ONE_WAY, pair_result, pairs_of
from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.units.fielded import fielded_unit
from praetor_analysis.units.records import FieldedUnit
from praetor_analysis.units.unit_profile import with_unit_profile

HSS = {"name": "Heavy Support Squad"}
TARTAROS = {"name": "Terminator Tartaros Squad"}


def test_a_model_without_toughness_is_read_with_its_units() -> None:
    """The data's Heavy Support Squad Legionary has no T: read with the Sergeant's T 4, and the unit says so."""
    unit = fielded_unit(HSS)
    legionaries = next(g for g in unit.groups if g.model == "Legionaries (collective)")
    assert legionaries.profile.T == "4"
    assert any("no T in the data's profile; read with Legion Support Sergeant's T 4" in n for n in unit.readings)


def test_the_squad_strikes_the_same_one_way_and_in_a_whole_round() -> None:
    """Both sides strike at Initiative 4 (simultaneously), so the squad's blows remove as many Tartaros in
    one-way melee, in a round as attacker and in a round as defender (before: 0.0233 one-way, 0.0017 in a
    round, where the Legionaries neither struck nor died)."""
    one_way = calc({"mode": "melee", "attacker": HSS, "target": TARTAROS})["casualties"]["pmf"]
    attacking = calc({"mode": "melee", "attacker": HSS, "target": TARTAROS, "target_weapon": True})
    defending = calc({"mode": "melee", "attacker": TARTAROS, "target": HSS, "target_weapon": True})
    assert attacking["casualties"]["pmf"] == pytest.approx(one_way, abs=1e-12)
    assert defending["attacker_casualties"]["pmf"] == pytest.approx(one_way, abs=1e-12)
    assert attacking["casualties"]["mean"] > 0.02


def test_the_donor_is_the_largest_group_and_vehicles_are_apart() -> None:
    a = hh2_group("a", 1, {"Unit Type": "Infantry", "WS": "4", "T": "5"}, ())
    b = hh2_group("b", 3, {"Unit Type": "Infantry", "WS": "3", "T": "4", "A": "2"}, ())
    c = hh2_group("c", 2, {"Unit Type": "Infantry", "WS": "5"}, ())
    tank = hh2_group("tank", 1, {"Unit Type": "Vehicle", "BS": "4", "Front": "12"}, ())
    unit = with_unit_profile(FieldedUnit("x", "", 7, 10.0, (a, b, c, tank)))
    by = {g.model: g.profile for g in unit.groups}
    assert by["c"].T == "4" and by["c"].A == "2" and by["a"].A == "2"
    assert by["tank"].T is None and by["tank"].WS is None
    assert with_unit_profile(FieldedUnit("y", "", 1, 1.0, (b,))) == FieldedUnit("y", "", 1, 1.0, (b,))


def test_a_knight_strikes_in_melee() -> None:
    """Questoris Knight Magaera (WS 4, A 3, Reaper Chainsword S10 AP2 Shred) at Legionaries (WS 4, T 4, 3+),
    not charging: 3 blows x 1/2 to hit x 35/36 to wound (2+, Shred re-rolls the 1) x 1 (AP 2: no save) =
    1.458333 models (by hand)."""
    result = calc(
        {"mode": "melee", "attacker": {"name": "Questoris Knight Magaera"}, "target": {"name": "Tactical Squad"}}
    )
    assert result["casualties"]["mean"] == pytest.approx(3 * 0.5 * 35 / 36, abs=1e-12)
    with pytest.raises(ScenarioError, match="strikes one way"):
        calc({"mode": "melee", "attacker": {"name": "Questoris Knight Magaera"}, "target": {"name": "Tactical Squad"},
              "target_weapon": True})  # fmt: skip
    with pytest.raises(ScenarioError, match="Rhino Transport has no model that fights in melee"):
        calc({"mode": "melee", "attacker": {"name": "Rhino Transport"}, "target": {"name": "Tactical Squad"}})


def test_a_knight_fights_in_the_matchup_one_way_and_says_so() -> None:
    mine = read_list_json({"units": ["Questoris Knight Magaera", "Contemptor Dreadnought Talon"]})
    theirs = read_list_json({"units": ["Tactical Squad"]})
    for pair in pairs_of(mine, theirs):
        if pair.side != "mine" or pair.phase != "melee":
            continue
        result = pair_result(pair).to_dict()
        assert result["casualties"]["mean"] > 0.5
        knight = pair.attacker.loadout.datasheet.startswith("Questoris")
        assert (ONE_WAY in result.get("not_modelled", [])) == knight
