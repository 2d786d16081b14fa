"""analyse_roster() / roster_report(): a roster's shooting against targets.

Hand-made rosters are cross-checked against ``calc`` on ``firing_units`` scenarios written out here;
a real roster from ../shared/bsdata/rosters is checked for sane numbers (skipped when absent).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from praetor_analysis.analysis.list_analysis import LIST_COLUMNS, WHOLE_LIST, analyse_roster, roster_report
from praetor_analysis.bsdata.roster import ModelCount, Roster, RosterUnit, WeaponCount, read_roster
from praetor_analysis.catalog import load_targets
from praetor_analysis.scenario.calc import calc

SHARED = Path(__file__).resolve().parents[2] / "shared"
ROSTERS = SHARED / "bsdata" / "rosters"

MARINE = {
    "Unit Type": "Infantry",
    "WS": "4",
    "BS": "4",
    "S": "4",
    "T": "4",
    "W": "1",
    "I": "4",
    "A": "1",
    "Ld": "7",
    "Save": "3+",
}
RHINO = {"Unit Type": "Vehicle (Transport)", "BS": "4", "Front": "11", "Side": "11", "Rear": "10", "HP": "3"}


def _weapon(name, rng, s, ap, typ):
    return {
        "name": name,
        "Range": rng,
        "Strength": s,
        "AP": ap,
        "Type": typ,
        "Type_clean": typ,
        "profile_type": "Weapon",
        "profile_id": name.lower(),
    }


BOLTER = _weapon("Bolter", '24"', "4", "5", "Rapid Fire")
PISTOL = _weapon("Bolt Pistol", '12"', "4", "5", "Pistol 1")
SWORD = _weapon("Chainsword", "-", "User", "-", "Melee, Shred")
HAVOC = _weapon("Havoc Launcher", '48"', "5", "5", 'Heavy 1, Blast (3")')
TL_BOLTER = _weapon("Twin-linked Bolter", '24"', "4", "5", "Rapid Fire, Twin-linked")


def _roster() -> Roster:
    squad = RosterUnit(
        "Squad",
        [ModelCount("Legionary", 5, MARINE)],
        [WeaponCount(BOLTER, 5), WeaponCount(PISTOL, 5), WeaponCount(SWORD, 5)],
        points=100.0,
    )
    rhino = RosterUnit(
        "Rhino", [ModelCount("Rhino", 1, RHINO)], [WeaponCount(TL_BOLTER, 1), WeaponCount(HAVOC, 1)], points=40.0
    )
    brawler = RosterUnit("Brawler", [ModelCount("Legionary", 1, MARINE)], [WeaponCount(SWORD, 1)], points=20.0)
    return Roster("Test", [squad, rhino, brawler], 160.0)


def _targets() -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "archetype": "Legionaries",
                "models": 10,
                "Unit Type": "Infantry",
                "WS": "4",
                "T": "4",
                "W": "1",
                "I": "4",
                "Ld": "7",
                "Save": "3+",
                "profile_id": "t-leg",
            },
            {
                "archetype": "Rhino",
                "models": 1,
                **{k: v for k, v in RHINO.items() if k != "BS"},
                "profile_id": "t-rhino",
            },
        ]
    )


LEG = {
    "name": "Legionaries",
    "Unit Type": "Infantry",
    "models": 10,
    "WS": 4,
    "T": 4,
    "W": 1,
    "I": 4,
    "Ld": 7,
    "Save": "3+",
}
ATT = {"BS": 4, "WS": 4, "S": 4, "I": 4, "A": 1, "Ld": 7, "T": 4, "W": 1, "Save": "3+"}


def _w(p):
    return {k: p[k] for k in ("name", "Range", "Strength", "AP", "Type")}


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return analyse_roster(_roster(), _targets())


def _row(frame, unit, target_id):
    hit = frame[(frame["unit"] == unit) & (frame["target_id"] == target_id)]
    assert len(hit) == 1
    return hit.iloc[0]


def test_columns(frame):
    assert list(frame.columns) == LIST_COLUMNS
    assert LIST_COLUMNS[:7] == ["unit", "unit_points", "target", "mean", "p_any", "p_all", "mean_per_100pts"]
    assert len(frame) == 3 * 2 + 2


def test_squad_fires_its_bolters_not_its_pistols(frame):
    row = _row(frame, "Squad", "t-leg")
    res = calc(
        {
            "target": LEG,
            "firing_units": [
                [
                    {"weapon": _w(BOLTER), "attacker": {**ATT, "models": 5}},
                ]
            ],
        }
    )
    # five shots at p = 1/9 each
    assert row["mean"] == pytest.approx(res["casualties"]["mean"], abs=1e-12)
    assert row["mean"] == pytest.approx(5 / 9, abs=1e-12)
    assert row["p_any"] == pytest.approx(1 - (8 / 9) ** 5, abs=1e-12)
    assert row["p_all"] == pytest.approx(res["casualties"]["pmf"][10] if len(res["casualties"]["pmf"]) > 10 else 0.0)
    assert row["mean_per_100pts"] == pytest.approx(5 / 9, abs=1e-12)  # 100 pts
    assert "Bolt Pistol: 5 of 5 not fired" in row["not_modelled"]


def test_pistols_all_fires_every_weapon():
    out = analyse_roster(_roster(), _targets(), pistols="all")
    row = _row(out, "Squad", "t-leg")
    res = calc(
        {
            "target": LEG,
            "firing_units": [
                [
                    {"weapon": _w(BOLTER), "attacker": {**ATT, "models": 5}},
                    {"weapon": _w(PISTOL), "attacker": {**ATT, "models": 5}},
                ]
            ],
        }
    )
    assert row["mean"] == pytest.approx(res["casualties"]["mean"], abs=1e-12)
    assert row["p_all"] == pytest.approx(0.0, abs=1e-9)


def test_vehicle_fires_every_weapon_with_assumed_blast_hits(frame):
    rhino_att = {"Unit Type": "Vehicle (Transport)", "BS": 4}
    res = calc(
        {
            "target": LEG,
            "firing_units": [
                [
                    {"weapon": _w(TL_BOLTER), "attacker": {**rhino_att, "models": 1}},
                    {"weapon": _w(HAVOC), "attacker": {**rhino_att, "models": 1}, "hits": 2},
                ]
            ],
        }
    )
    row = _row(frame, "Rhino", "t-leg")
    assert row["mean"] == pytest.approx(res["casualties"]["mean"], abs=1e-12)
    assert row["p_any"] == pytest.approx(1 - res["casualties"]["pmf"][0], abs=1e-12)
    assert "assumed hits" in row["not_modelled"]
    on_rhino = _row(frame, "Rhino", "t-rhino")
    tgt = {
        "name": "Rhino",
        "Unit Type": "Vehicle (Transport)",
        "models": 1,
        "Front": 11,
        "Side": 11,
        "Rear": 10,
        "HP": 3,
    }
    res = calc(
        {
            "target": tgt,
            "firing_units": [
                [
                    {"weapon": _w(TL_BOLTER), "attacker": {**rhino_att, "models": 1}},
                    {"weapon": _w(HAVOC), "attacker": {**rhino_att, "models": 1}, "hits": 1},
                ]
            ],
        }
    )
    assert on_rhino["measure"] == "hull_points"
    assert on_rhino["mean"] == pytest.approx(res["hull_points"]["mean"], abs=1e-12)
    assert on_rhino["p_all"] == pytest.approx(res["wrecked"], abs=1e-12)


def test_unit_without_ranged_weapons_does_nothing(frame):
    row = _row(frame, "Brawler", "t-leg")
    assert (row["mean"], row["p_any"], row["p_all"]) == (0.0, 0.0, 0.0)
    assert "no ranged weapons" in row["not_modelled"]


def test_whole_list_rows(frame):
    units = frame[frame["unit"] != WHOLE_LIST]
    whole = frame[frame["unit"] == WHOLE_LIST]
    assert len(whole) == 2
    for _, w in whole.iterrows():
        part = units[units["target_id"] == w["target_id"]]
        assert w["mean"] == pytest.approx(part["mean"].sum(), abs=1e-12)
        assert w["p_any"] == pytest.approx(1 - (1 - part["p_any"]).prod(), abs=1e-12)
        assert math.isnan(w["p_all"])
        assert w["unit_points"] == 160.0
        assert w["mean_per_100pts"] == pytest.approx(w["mean"] / 1.6, abs=1e-12)


def test_a_weapon_the_engine_cannot_read_is_dropped_and_named():
    odd = _weapon("Odd Gun", "far away", "5", "4", "Heavy 1")
    unit = RosterUnit("Odd", [ModelCount("Rhino", 1, RHINO)], [WeaponCount(odd, 1), WeaponCount(TL_BOLTER, 1)])
    out = analyse_roster(Roster("x", [unit], 0.0), _targets().iloc[[0]])
    row = out.iloc[0]
    assert row["error"] == ""
    assert "Odd Gun" in row["not_modelled"] and row["weapons"] == "1x Twin-linked Bolter"
    assert math.isnan(row["mean_per_100pts"])  # no points


def _roster_files():
    if not ROSTERS.is_dir():
        return []
    return sorted(p for p in ROSTERS.iterdir() if p.suffix in {".ros", ".rosz"})


@pytest.mark.parametrize("path", _roster_files() or [None], ids=lambda p: p.name if p else "absent")
def test_real_roster_is_sane(path):
    if path is None:
        pytest.skip("../shared/bsdata/rosters is not present")
    roster = read_roster(path)
    targets = load_targets()
    out = analyse_roster(roster, targets)
    assert len(out) == (len(roster.units) + 1) * len(targets)
    units = out[out["unit"] != WHOLE_LIST]
    ok = units[units["error"] == ""]
    assert len(ok) >= 0.8 * len(units)
    assert (ok["mean"] >= 0).all()
    assert ok["p_any"].between(0, 1).all() and ok["p_all"].between(0, 1).all()
    assert (ok["p_all"] <= ok["p_any"] + 1e-12).all()
    for _, w in out[out["unit"] == WHOLE_LIST].iterrows():
        part = ok[ok["target_id"] == w["target_id"]]
        assert w["mean"] == pytest.approx(part["mean"].sum(), rel=1e-12, abs=1e-12)
        assert 0 <= w["p_any"] <= 1
    # something in a real list hurts Legionaries
    leg = out[(out["unit"] == WHOLE_LIST) & out["target"].str.startswith("Legionary")].iloc[0]
    assert leg["mean"] > 1 and leg["p_any"] > 0.99

    text = roster_report(path)
    assert roster.units[0].name in text and WHOLE_LIST in text
    assert "Legionary" in text
