"""analyse_roster(): a list's units as fielded, in shooting and melee, against targets, plus the whole list.

Hand-made units are cross-checked against ``calc`` scenarios written out here; the public rosters of
tests/fixtures/rosters/hh2 are checked for sane numbers.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest
from fixture_files import HH2_ROSTERS
from group_blocks import hh2_group

from praetor_analysis.analysis.list_analysis import LIST_COLUMNS, WHOLE_LIST, analyse_roster
from praetor_analysis.bsdata.roster import read_roster
from praetor_analysis.catalog import load_targets
from praetor_analysis.scenario.calc import calc
from praetor_analysis.units.fielded import FieldedUnit

MARINE = {"Unit Type": "Infantry", "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, "Save": "3+"}
RHINO = {"Unit Type": "Vehicle (Transport)", "BS": 4, "Front": 11, "Side": 11, "Rear": 10, "HP": 3}
BOLTER = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"}
PISTOL = {"name": "Bolt Pistol", "Range": '12"', "Strength": "4", "AP": "5", "Type": "Pistol 1"}
SWORD = {"name": "Chainsword", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee, Shred"}
TL_BOLTER = {
    "name": "Twin-linked Bolter",
    "Range": '24"',
    "Strength": "4",
    "AP": "5",
    "Type": "Rapid Fire, Twin-linked",
}
LEG = {"name": "Legionaries", "Unit Type": "Infantry", "models": 10, "WS": 4, "T": 4, "W": 1, "I": 4, "Ld": 7,
       "Save": "3+"}  # fmt: skip


def _units() -> list[FieldedUnit]:
    squad = FieldedUnit("Squad", "", 5, 100.0, (hh2_group("Legionary", 5, MARINE, (BOLTER, PISTOL, SWORD)),))
    rhino = FieldedUnit("Rhino", "", 1, 40.0, (hh2_group("Rhino", 1, RHINO, (TL_BOLTER,)),))
    brawler = FieldedUnit("Brawler", "", 1, 20.0, (hh2_group("Legionary", 1, MARINE, (SWORD,)),))
    return [squad, rhino, brawler]


def _targets() -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"archetype": "Legionaries", "models": 10, **{k: v for k, v in LEG.items() if k not in ("name", "models")},
             "profile_id": "t-leg"},
            {"archetype": "Rhino", "models": 1, **{k: v for k, v in RHINO.items() if k != "BS"}, "profile_id": "t-rhino"},
        ]
    )  # fmt: skip


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return analyse_roster(_units(), _targets())


def _row(frame: pd.DataFrame, unit: str, target_id: str, phase: str) -> pd.Series:
    hit = frame[(frame["unit"] == unit) & (frame["target_id"] == target_id) & (frame["phase"] == phase)]
    assert len(hit) == 1
    return hit.iloc[0]


def test_columns(frame: pd.DataFrame) -> None:
    assert list(frame.columns) == LIST_COLUMNS
    assert len(frame) == (3 + 1) * 2 * 2  # three units and the whole list, two targets, two phases


def test_a_squad_fires_one_weapon_per_model(frame: pd.DataFrame) -> None:
    row = _row(frame, "Squad", "t-leg", "shooting")
    res = calc({"target": LEG, "firing_units": [[{"weapon": BOLTER, "attacker": {**MARINE, "models": 5}}]]})
    # five shots at p = 1/9 each (the Bolter: its pistol ties and reaches less far)
    assert row["mean"] == pytest.approx(res["casualties"]["mean"], abs=1e-12) == pytest.approx(5 / 9, abs=1e-12)
    assert row["p_any"] == pytest.approx(1 - (8 / 9) ** 5, abs=1e-12)
    assert row["share"] == pytest.approx(5 / 9 / 10, abs=1e-12)
    assert row["wounds"] == pytest.approx(5 / 9, abs=1e-12)
    assert row["mean_per_100pts"] == pytest.approx(5 / 9, abs=1e-12)  # 100 pts
    assert row["weapons"] == "5 Legionary: Bolter"


def test_the_squad_fights_charging(frame: pd.DataFrame) -> None:
    row = _row(frame, "Squad", "t-leg", "melee")
    blows = {"mode": "melee", "weapon": SWORD, "attacker": {**MARINE, "models": 5, "charging": True}}
    res = calc({"target": LEG, **blows})
    assert row["mean"] == pytest.approx(res["casualties"]["mean"], abs=1e-12)
    assert row["weapons"] == "5 Legionary: Chainsword"


def test_a_vehicle_against_a_vehicle(frame: pd.DataFrame) -> None:
    on_rhino = _row(frame, "Rhino", "t-rhino", "shooting")
    tgt = {"name": "Rhino", "Unit Type": "Vehicle (Transport)", "models": 1, "Front": 11, "Side": 11, "Rear": 10,
           "HP": 3}  # fmt: skip
    res = calc({"target": tgt, "firing_units": [[{"weapon": TL_BOLTER, "attacker": {**RHINO, "models": 1}}]]})
    assert on_rhino["measure"] == "hull_points"
    assert on_rhino["mean"] == pytest.approx(res["hull_points"]["mean"], abs=1e-12)
    assert on_rhino["p_all"] == pytest.approx(res["wrecked"], abs=1e-12) == on_rhino["share"]
    assert _row(frame, "Rhino", "t-rhino", "melee")["error"]  # a Rhino does not fight


def test_a_unit_without_ranged_weapons_does_nothing_and_says_why(frame: pd.DataFrame) -> None:
    # it removes nothing, and its row says so as a row without a number does: no mean, and why in ``error``
    # (was 0.0, 0.0, 0.0 beside units that fire and miss; the roster screen read its weapons "-" to tell them apart)
    row = _row(frame, "Brawler", "t-leg", "shooting")
    assert all(math.isnan(row[k]) for k in ("mean", "p_any", "p_all"))
    assert "has no weapon for the shooting phase" in row["error"]
    assert row["weapons"] == "1 Legionary: -" and "no weapon for the shooting phase" in row["not_modelled"]
    whole = _row(frame, WHOLE_LIST, "t-leg", "shooting")
    assert "Brawler" in whole["not_modelled"]  # the sum names it among the units it leaves out


def test_whole_list_rows_say_what_they_add_up(frame: pd.DataFrame) -> None:
    units = frame[frame["unit"] != WHOLE_LIST]
    whole = frame[frame["unit"] == WHOLE_LIST]
    assert len(whole) == 4
    for _, w in whole.iterrows():
        part = units[(units["target_id"] == w["target_id"]) & (units["phase"] == w["phase"]) & (units["error"] == "")]
        assert w["mean"] == pytest.approx(part["mean"].sum(), abs=1e-12)
        assert w["wounds"] == pytest.approx(part["wounds"].sum(), abs=1e-12)
        assert w["p_any"] == pytest.approx(1 - (1 - part["p_any"]).prod(), abs=1e-12)
        assert math.isnan(w["p_all"]) and w["unit_points"] == 160.0
        assert w["weapons"].startswith("the sum over 3 units, each attacking a fresh")


def test_an_unreadable_weapon_is_named_not_dropped() -> None:
    odd = {"name": "Odd Gun", "Range": "far away", "Strength": "5", "AP": "4", "Type": "Heavy 1"}
    unit = FieldedUnit("Odd", "", 1, 0.0, (hh2_group("Rhino", 1, RHINO, (odd, TL_BOLTER)),))
    from praetor_analysis.scenario.document import parse_target
    from praetor_analysis.units.attack import shooting

    result = shooting(unit, parse_target({"target": LEG})).to_dict()
    assert result["chosen"][0]["weapon"] == "Twin-linked Bolter"
    assert "could not be read" in result["chosen"][0]["unused"]["Odd Gun"]


@pytest.mark.parametrize("path", [p for p in HH2_ROSTERS if p.suffix in {".ros", ".rosz"}], ids=lambda p: p.name)
def test_real_roster_is_sane(path: Path) -> None:
    roster = read_roster(path)
    targets = load_targets()
    out = analyse_roster(roster, targets)
    n_units = out.loc[out["unit"] != WHOLE_LIST, "unit_index"].nunique()
    assert len(out) == (n_units + 1) * len(targets) * 2
    units = out[out["unit"] != WHOLE_LIST]
    ok = units[units["error"] == ""]
    assert len(ok) >= 0.8 * len(units)
    assert (ok["mean"] >= 0).all() and ok["p_any"].between(0, 1).all() and ok["p_all"].between(0, 1).all()
    assert (ok["p_all"] <= ok["p_any"] + 1e-12).all() and ok["share"].between(0, 1 + 1e-12).all()
    assert units.drop_duplicates("unit_index")["unit_points"].sum() == roster.points
    leg = out[(out["unit"] == WHOLE_LIST) & out["target"].str.startswith("Legionary")].iloc[0]
    assert leg["mean"] > 1 and leg["p_any"] > 0.99
