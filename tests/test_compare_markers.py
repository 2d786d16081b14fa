"""The weapon comparison rates marker weapons as ``praetor calc`` does (one answer for one question).

``compare`` (the report, the dashboard's shooting tab and the tables built on it) lays a marker or template
weapon over the target's default formation through the same code as ``calc``, its geometry memoised on what
it reads (``units.marker_volley.geometry_key``). Every marker or template weapon of the shipped catalog at
every standard target, and one profile per Type at units of other Unit Types, with other attackers (BS,
models, shots), must give ``calc``'s distribution and mean to 1e-12 and say the same under ``not_modelled``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from praetor_analysis import calc
from praetor_analysis.analysis import AttackerProfile
from praetor_analysis.analysis.compare import compare, compare_with_distributions, row_ids
from praetor_analysis.catalog import load_targets, load_units, load_weapons
from praetor_analysis.engine.hit_stage import shots_distribution
from praetor_analysis.markers.kinds import MARKER_KINDS, marker_kind
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.profiles.records import Weapon
from praetor_analysis.scenario.calc import parse_target, parse_volley
from praetor_analysis.units import WeaponRow
from praetor_analysis.units.formation import default_formation
from praetor_analysis.units.marker_volley import geometry_key, marker_options
from praetor_analysis.views.cell_documents import scenario_for

LEGIONARIES = {"name": "Legionaries", "Unit Type": "Infantry", "models": 10, "WS": 4, "BS": 4, "S": 4, "T": 4,
               "W": 1, "I": 4, "A": 1, "Ld": 7, "Save": "3+"}  # fmt: skip


def _marker_weapons() -> pd.DataFrame:
    weapons = load_weapons()
    keep = []
    for _, row in weapons.iterrows():
        try:
            keep.append(marker_kind(Weapon.from_mapping(WeaponRow.from_row(row).to_block())) is not None)
        except Exception:  # a profile the engine refuses: compare and calc both say so (tests/test_compare.py)
            keep.append(False)
    return weapons[keep]


def _measure(result: dict) -> dict:
    return result["hull_points"] if "hull_points" in result else result["casualties"]


def _check(weapons: pd.DataFrame, targets: pd.DataFrame, attacker: dict | None = None, shots=None) -> int:
    """Every cell of the comparison against calc on the scenario it names; the cells checked."""
    attacker = AttackerProfile.from_mapping(attacker) if attacker is not None else None
    table, pmfs = compare_with_distributions(weapons, targets, attacker=attacker, shots_per_weapon=shots)
    wrows = dict(zip(row_ids(weapons), (r for _, r in weapons.iterrows()), strict=True))
    trows = dict(zip(row_ids(targets), (r for _, r in targets.iterrows()), strict=True))
    checked = 0
    for rec in table.to_dict("records"):
        cell = (rec["weapon_id"], rec["target_id"])
        scenario = scenario_for(wrows[cell[0]], trows[cell[1]], attacker=attacker, attacks=shots)
        try:
            result = calc(scenario)
        except Exception as exc:  # calc refuses: the comparison's row says why
            assert rec["error"], (cell, exc)
            continue
        assert rec["error"] == "", (cell, rec["error"])
        want = np.asarray(_measure(result)["pmf"], dtype=float)
        got = pmfs[cell]
        n = max(got.size, want.size)
        assert np.abs(np.pad(got, (0, n - got.size)) - np.pad(want, (0, n - want.size))).max() <= 1e-12, cell
        assert rec["mean"] == pytest.approx(_measure(result)["mean"], abs=1e-12), cell
        for note in result["not_modelled"]:
            assert note in rec["not_modelled"], (cell, note)
        laid = [a for a in result["applied"] if a.startswith("default formation: ")]
        assert rec["not_modelled"].startswith(laid[0]) if laid else "default formation" not in rec["not_modelled"]
        assert "assumed hits" not in rec["not_modelled"]
        checked += 1
    return checked


@pytest.mark.slow
def test_every_catalog_marker_weapon_at_every_standard_target_is_calcs() -> None:
    weapons, targets = _marker_weapons(), load_targets()
    kinds = {marker_kind(Weapon.from_mapping(WeaponRow.from_row(r).to_block())) for _, r in weapons.iterrows()}
    assert kinds == {k.name for k in MARKER_KINDS} - {"Barrage"}  # every kind the catalog has (no bare Barrage)
    assert len(weapons) > 150 and len(targets) == 11
    assert _check(weapons, targets) > 0.9 * len(weapons) * len(targets)


def test_three_catalog_marker_weapons_of_each_kind_at_every_standard_target_are_calcs() -> None:
    """The fast tier's slice of the test above: the first three weapons of each kind of marker or template (two of
    one kind the catalog has only two of)."""
    weapons, targets = _marker_weapons(), load_targets()
    kinds = [marker_kind(Weapon.from_mapping(WeaponRow.from_row(r).to_block())) for _, r in weapons.iterrows()]
    sample = weapons.groupby(kinds, sort=False).head(3)
    assert set(kinds) == {k.name for k in MARKER_KINDS} - {"Barrage"} and len(sample) >= 2 * len(set(kinds))
    assert _check(sample, targets) > 0.9 * len(sample) * len(targets)


def test_marker_weapons_at_units_of_other_unit_types_are_calcs() -> None:
    # one profile per Type at five-model units of other Unit Types (Close-order 1" apart, Skirmish 3", Heavy
    # on 40 mm, Daemons on 40 mm, Cavalry on 60 mm), a lone Primarch (60 mm) and a vehicle of another kind
    kinds = ["Infantry (Close-order)", "Infantry (Heavy)", "Infantry (Skirmish)", "Daemon (Line, Skirmish)"]
    kinds += ["Cavalry (Light, Militia)", "Primarch (Unique)", "Vehicle (Flyer)"]
    units = load_units()
    picks = units[units["Unit Type"].isin(kinds) & ((units["T"] != "") | (units["HP"] != ""))]
    picks = picks.drop_duplicates("Unit Type")
    picks = picks.assign(models=[1 if t.startswith(("Vehicle", "Primarch")) else 5 for t in picks["Unit Type"]])
    assert len(picks) == len(kinds)
    weapons = _marker_weapons().drop_duplicates(["Type"])
    assert _check(weapons, picks) > len(weapons)


def _one_per_kind() -> pd.DataFrame:
    """The first catalog weapon of each marker kind."""
    weapons = _marker_weapons()
    kinds = [marker_kind(Weapon.from_mapping(WeaponRow.from_row(r).to_block())) for _, r in weapons.iterrows()]
    return weapons[~pd.Series(kinds, index=weapons.index).duplicated().to_numpy()]


@pytest.mark.parametrize(
    ("attacker", "shots"),
    [({"BS": 2}, None), ({"BS": 5}, None), ({"BS": 3, "models": 3}, None), (None, 2), (None, "D3")],
)
def test_other_attackers_and_shots_are_calcs(attacker: dict | None, shots: int | str | None) -> None:
    # the scatter reads the BS, the geometry the shots: every marker kind at the squad, the Militia, the Rhino
    targets = load_targets()
    targets = targets[targets["name"].isin(["Legionary", "Militia", "Legion Rhino Transport"])]
    assert _check(_one_per_kind(), targets, attacker, shots) >= 9


def test_praetor_launcher_at_ten_legionaries_is_calcs_number() -> None:
    weapons = load_weapons()
    praetor = weapons[weapons["name"] == "Praetor Launcher"].head(1)
    assert len(praetor) == 1
    row = compare(praetor, pd.DataFrame([LEGIONARIES]), attacker=AttackerProfile(BS=4)).iloc[0]
    want = calc({"attacker": {"BS": 4}, "weapon": "Praetor Launcher", "target": LEGIONARIES})
    # tests/test_default_formation.py pins calc's figure for this scenario (ten Legionaries, 32 mm, 2" apart)
    assert want["casualties"]["mean"] == pytest.approx(1.3382495453830718, abs=1e-12)
    assert row["mean"] == pytest.approx(want["casualties"]["mean"], abs=1e-12)
    assert row["not_modelled"].startswith('default formation: 10 models on 32 mm bases, 2" apart')


def _key(type_: str, target: dict, *, bs: int = 4, strength: str = "4", range_: str = '36"'):
    weapon = {"name": "w", "Range": range_, "Strength": strength, "AP": "5", "Type": type_}
    scenario = {"attacker": {"BS": bs}, "weapon": weapon, "target": target}
    volley, unit = parse_volley(scenario), parse_target(scenario)
    setup = default_formation(unit)
    return geometry_key(volley.weapon, shots_distribution(volley)[0], setup, marker_options(volley, setup))


def test_the_geometry_key_reads_what_the_geometry_reads() -> None:
    squad, tough = LEGIONARIES, {**LEGIONARIES, "T": 6, "Save": "2+", "rules": ["Feel No Pain (5+)"]}
    base = _key('Heavy 1, Blast (3")', squad)
    # not the weapon's Strength, AP or wound rules, nor the target's statline
    assert _key('Heavy 1, Blast (3"), Rending (6+), Pinning', squad, strength="8") == base
    assert _key('Heavy 1, Blast (3")', tough) == base
    # but the marker, the shots, Barrage, Gets Hot, Twin-linked, the BS and the formation
    others = [
        _key('Heavy 1, Large Blast (5")', squad),
        _key('Heavy 2, Blast (3")', squad),
        _key('Heavy 1, Barrage, Blast (3")', squad),
        _key('Heavy 1, Blast (3"), Gets Hot', squad),
        _key('Heavy 1, Blast (3"), Twin-linked', squad),
        _key('Heavy 1, Blast (3")', squad, bs=3),
        _key('Heavy 1, Blast (3")', {**LEGIONARIES, "models": 5}),
        _key('Heavy 1, Blast (3")', {**LEGIONARIES, "Unit Type": "Infantry (Heavy)"}),
    ]
    assert len({base, *others}) == len(others) + 1
    # a template does not scatter: the BS is not read; a Torrent's reach is
    assert _key("Assault 1", squad, range_="Template") == _key("Assault 1", squad, bs=2, range_="Template")
    assert _key("Assault 1, Torrent (12)", squad, range_="Template") != _key(
        "Assault 1, Torrent (18)", squad, range_="Template"
    )


def test_a_remembered_geometry_gives_a_fresh_computation_s_numbers() -> None:
    weapons = _marker_weapons().drop_duplicates(["Type"]).head(40)
    targets = load_targets().head(5)
    for bs in (4, 2):  # the second pass finds its scatter tables (which do not read the BS) remembered
        warm = compare(weapons, targets, attacker=AttackerProfile(BS=bs))
    clear_memos()
    cold = compare(weapons, targets, attacker=AttackerProfile(BS=2))
    pd.testing.assert_frame_equal(warm, cold, check_exact=True)
