"""The weapon comparison lays marker weapons as ``praetor calc`` does (one answer for one question).

``compare`` (the report, the dashboard's shooting tab, the sweeps) used to give each marker a fixed number of
hits (2 to 6); ``calc`` lays it over the target's default formation. Every marker or template weapon of the
shipped catalog, at each standard target and a few unit profiles, must now give ``calc``'s casualties (hull
points at a Vehicle, where both fall back alike) to 1e-12, and say the same under ``not_modelled``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from praetor_analysis import calc
from praetor_analysis.analysis.compare import compare, compare_with_distributions, scenario_for
from praetor_analysis.catalog import load_targets, load_units, load_weapons
from praetor_analysis.markers.kinds import marker_kind
from praetor_analysis.profiles.records import Weapon
from praetor_analysis.scenario.blocks import weapon_block

LEGIONARIES = {"name": "Legionaries", "Unit Type": "Infantry", "models": 10, "WS": 4, "BS": 4, "S": 4, "T": 4,
               "W": 1, "I": 4, "A": 1, "Ld": 7, "Save": "3+"}  # fmt: skip


def _marker_weapons() -> pd.DataFrame:
    weapons = load_weapons()
    keep = []
    for _, row in weapons.iterrows():
        try:
            keep.append(marker_kind(Weapon.from_mapping(weapon_block(row))) is not None)
        except Exception:  # a profile the engine refuses: compare and calc both say so, tested elsewhere
            keep.append(False)
    return weapons[keep]


def _targets(names: list[str]) -> pd.DataFrame:
    targets = load_targets()
    return targets[targets["name"].isin(names)]


def _unit_profiles() -> pd.DataFrame:
    """Unit catalog rows of other Unit Types (Close-order: 1" apart; Heavy: 40 mm bases), five models each."""
    units = load_units()
    picks = units[units["name"].isin(["Auxilia Companion", "Auxilia Protector"])].drop_duplicates("name")
    assert len(picks) == 2
    return picks.assign(models=5)


def _measure(result: dict) -> dict:
    return result["hull_points"] if "hull_points" in result else result["casualties"]


@pytest.mark.slow
def test_every_catalog_marker_weapon_matches_calc() -> None:
    # every distinct marker profile at ten Legionaries and the vehicles (calc's fallback)
    weapons = _marker_weapons().drop_duplicates(["Range", "Strength", "AP", "Type"])
    assert len(weapons) > 100  # the catalog has many Blast, Barrage and Template profiles
    _check(weapons, _targets(["Legionary", "Legion Rhino Transport", "Knight Questoris"]))


@pytest.mark.slow
def test_marker_weapons_at_every_standard_target_and_unit_profiles_match_calc() -> None:
    # one profile per Type (every marker kind and rule mix) at the other standard targets and two unit profiles
    weapons = _marker_weapons().drop_duplicates(["Type"]).head(30)
    others = load_targets()[lambda t: ~t["name"].isin(["Legionary", "Legion Rhino Transport", "Knight Questoris"])]
    _check(weapons, pd.concat([others, _unit_profiles()]))


def _check(weapons: pd.DataFrame, targets: pd.DataFrame) -> None:
    table, pmfs = compare_with_distributions(weapons, targets)
    checked = 0
    wrows = dict(zip(_ids(weapons), (r for _, r in weapons.iterrows()), strict=True))
    trows = dict(zip(_ids(targets), (r for _, r in targets.iterrows()), strict=True))
    for rec in table.to_dict("records"):
        scenario = scenario_for(wrows[rec["weapon_id"]], trows[rec["target_id"]])
        try:
            result = calc(scenario)
        except Exception as exc:  # calc refuses: compare's row carries an error
            assert rec["error"], (rec["weapon_id"], rec["target_id"], exc)
            continue
        assert rec["error"] == "", (rec["weapon_id"], rec["target_id"], rec["error"])
        m = _measure(result)
        pmf = pmfs[(rec["weapon_id"], rec["target_id"])]
        want = np.asarray(m["pmf"], dtype=float)
        n = max(pmf.size, want.size)
        assert np.allclose(np.pad(pmf, (0, n - pmf.size)), np.pad(want, (0, n - want.size)), atol=1e-12, rtol=0)
        assert rec["mean"] == pytest.approx(m["mean"], abs=1e-12)
        for note in result["not_modelled"]:
            assert note in rec["not_modelled"], (rec["weapon_id"], rec["target_id"], note)
        if any(a.startswith("default formation: ") for a in result["applied"]):
            assert rec["not_modelled"].startswith("default formation: ")
        checked += 1
    assert checked >= len(table) // 2


def _ids(frame: pd.DataFrame) -> list[str]:
    from praetor_analysis.analysis.compare import row_ids

    return row_ids(frame)


def test_praetor_launcher_at_ten_legionaries_is_calcs_number() -> None:
    weapons = load_weapons()
    praetor = weapons[weapons["name"] == "Praetor Launcher"].head(1)
    assert len(praetor) == 1
    legionaries = pd.DataFrame([LEGIONARIES])
    row = compare(praetor, legionaries, attacker={"BS": 4}).iloc[0]
    want = calc({"attacker": {"BS": 4}, "weapon": "Praetor Launcher", "target": LEGIONARIES})
    # tests/test_default_formation.py pins calc's figure for this scenario (Legionary Tactical Squad, 10 models)
    assert want["casualties"]["mean"] == pytest.approx(1.3382495453830718, abs=1e-12)
    assert row["mean"] == pytest.approx(want["casualties"]["mean"], abs=1e-12)
    assert row["not_modelled"].startswith('default formation: 10 models on 32 mm bases, 2" apart')
    assert "assumed hits" not in row["not_modelled"]
