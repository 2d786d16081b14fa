"""Targets as fielded units: datasheets and roster units, read one way, with their wargear's saves and rules."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from fixture_files import DA_LIST
from oracle import oracle_calc

from praetor_analysis.analysis.army_list import load_list
from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.units import target_of
from praetor_analysis.units.fielded import fielded_unit, roster_units
from praetor_analysis.units.target import as_target

ROSTER = DA_LIST
#: S9 AP2 with its hits given: wounds T4 on 2+, no armour save against AP2 (only an invulnerable one)
LANCE = {"name": "lance", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1"}
BOLTER = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"}


def _same_as_oracle(scenario: dict[str, Any], statline: dict[str, Any]) -> dict[str, Any]:
    """calc of ``scenario`` against the oracle's for the target written out as ``statline``, every pmf to 1e-12."""
    got = calc(scenario)
    want = oracle_calc({**scenario, "target": statline})
    for key in ("hits", "wounds", "unsaved", "casualties"):
        a, b = list(got[key]["pmf"]), list(want[key])
        n = max(len(a), len(b))
        assert a + [0.0] * (n - len(a)) == pytest.approx(b + [0.0] * (n - len(b)), abs=1e-12), key
    return got


def _groups(block: Any) -> dict[str, tuple[Any, Any, Any]]:
    return {g.model: (g.profile.Save, g.profile.Invulnerable, list(g.profile.rules) or None)
            for g in fielded_unit(block).groups}  # fmt: skip


def test_wargear_options_give_saves_to_the_models_that_take_them() -> None:
    # Game system file, Wargear Items: Artificer Armour confers a 2+ Armour Save (p. 140); Combat Shield a 6+
    # Invulnerable Save; Iron Halo a 4+ Invulnerable Save (p. 146), declared as the unit rule Iron Halo
    sergeant = _groups({"name": "Tactical Squad", "loadout": ["Artificer Armour"]})
    assert sergeant["Legion Tactical Sergeant"][0] == "2+"
    assert sergeant["Legionaries (collective)"][0] == "3+"  # only the Sergeant took it
    shields = _groups({"name": "Assault Squad", "loadout": ["Combat Shield"]})  # the whole squad's option
    assert {inv for _, inv, _ in shields.values()} == {"6+"}
    assert {inv for _, inv, _ in _groups("Assault Squad").values()} == {None}
    halo = _groups({"name": "IM - Force Commander", "loadout": ["Iron Halo"]})
    assert "Iron Halo" in halo["1) Force Commander"][2]


def test_a_datasheet_target_takes_its_wargear_saves() -> None:
    # three S9 AP2 hits on ten T4 3+ Legionaries: each wounds on 2+ (5/6) and no armour save is allowed;
    # with combat shields (6+ invulnerable) 5/6 of the wounds go through: 3 x 5/6 x 5/6 = 25/12 unsaved
    statline = {"name": "Assault Squad", "models": 10, "Unit Type": "Infantry (Line)", "WS": 4, "T": 4, "W": 1,
                "I": 4, "Ld": 7, "Save": "3+", "Invulnerable": "6+"}  # fmt: skip
    sc = {"attacker": {"BS": 4}, "weapon": LANCE, "hits": 3,
          "target": {"name": "Assault Squad", "size": 10, "loadout": ["Combat Shield"]}}  # fmt: skip
    got = _same_as_oracle(sc, statline)
    assert got["unsaved"]["mean"] == pytest.approx(float(3 * Fraction(5, 6) * Fraction(5, 6)), abs=1e-12)
    assert got["target"]["Invulnerable"] == "6+" and got["target"]["models"] == 10
    bare = calc({**sc, "target": {"name": "Assault Squad", "size": 10}})
    assert bare["unsaved"]["mean"] == pytest.approx(2.5, abs=1e-12)  # 3 x 5/6, no save


def test_a_model_of_another_profile_is_named_in_reasons() -> None:
    # the Sergeant's artificer armour makes him another profile: the squad is shot at as its nine Legionaries'
    got = calc({"attacker": {"BS": 4}, "weapon": BOLTER, "hits": 2,
                "target": {"name": "Tactical Squad", "loadout": ["Artificer Armour"]}})  # fmt: skip
    note = "target: 1 Legion Tactical Sergeant read with the profile of Legionaries (collective)"
    assert note in got["not_modelled"] and "one profile" in got["reasons"][note]
    assert got["target"]["Save"] == "3+" and got["target"]["models"] == 10


def test_a_roster_unit_is_a_target_with_its_wargear() -> None:
    # the roster's Praetor (T4 W3, artificer armour 2+, Iron Halo 4+ invulnerable): a BS 4 lascannon hits
    # 2/3, wounds on 2+ (5/6), AP 2 leaves the Iron Halo, failed on 1-3 (1/2), and S9 >= 2 x T4 kills
    # outright: P(casualty) = 2/3 x 5/6 x 1/2 = 5/18
    sc = {"attacker": {"BS": 4}, "weapon": "Lascannon", "target": {"roster": str(ROSTER), "unit": "Praetor"}}
    got = calc(sc)
    assert got["casualties"]["mean"] == pytest.approx(5 / 18, abs=1e-12)
    assert got["target"]["name"] == "Praetor" and "Iron Halo" in got["target"]["rules"]
    written = {k: v for k, v in got["target"].items() if k not in ("wounds_taken",)}
    _same_as_oracle({**sc, "weapon": {"name": "l", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1"}},
                    {**written, "rules": [], "Invulnerable": "4+"})  # fmt: skip
    # Terminator armour is taken at the unit's level in the roster: every model gets its 5+ invulnerable save
    squad = calc({**sc, "target": {"roster": str(ROSTER), "unit": "Terminator Indomitus Squad"}})
    assert squad["target"]["Invulnerable"] == "5+" and squad["target"]["Save"] == "2+"


def test_one_reading_of_a_roster_unit_as_target() -> None:
    # calc's target block is the list's (matchup, praetor roster) for every unit of the roster
    army = load_list(ROSTER)
    for unit, fielded in zip(army.units, roster_units(ROSTER), strict=True):
        block, _ = target_of({"roster": str(ROSTER), "unit": unit.label})
        assert {k: v for k, v in block.items() if k != "points"} == dict(unit.target_block), unit.label
        assert as_target(fielded, unit.label).to_block() == dict(unit.target_block)


@pytest.mark.parametrize(
    ("target", "needle"),
    [
        ({"unit": "Tactical Squad"}, "target.unit: 'Tactical Squad' names 2 units of the roster ('Tactical Squad (1)'"),
        ({"unit": "Nope"}, "target.unit: the roster has no unit 'Nope'"),
        ({"unit": 3}, "target.unit: expected the label"),
        ({"unit": "Praetor", "size": 3}, "target.size: not a field of a roster's unit as target"),
        ({"unit": "Praetor", "roster": "/nonexistent/x.rosz"}, "target.roster:"),
    ],
)
def test_roster_targets_refused_on_one_line(target: dict[str, Any], needle: str) -> None:
    block = {"roster": str(ROSTER), **target}
    with pytest.raises(ScenarioError) as info:
        calc({"attacker": {"BS": 4}, "weapon": "Lascannon", "target": block})
    assert needle in str(info.value) and "\n" not in str(info.value)


def test_roster_target_on_the_command_line(tmp_path: Path) -> None:
    doc = {
        "attacker": {"BS": 4},
        "weapon": "Lascannon",
        "target": {"roster": str(ROSTER), "unit": "Tactical Squad (1)"},
    }
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "praetor_analysis.cli", "calc", str(path)], capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["target"]["name"] == "Tactical Squad (1)"
    doc["target"]["unit"] = "Tactical Squad"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "praetor_analysis.cli", "calc", str(path)], capture_output=True,
                         text=True, timeout=120)  # fmt: skip
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1 and "target.unit" in run.stderr


@pytest.mark.parametrize(
    ("text", "saves"),
    [
        ("Artificer armour confers a 2+ Armour Save.", ("2+", "")),
        ("Legion Indomitus Terminator armour confers a 2+ Armour Save and a 5+ Invulnerable Save.", ("2+", "5+")),
        (
            "Boarding shields confer a 5+ Invulnerable Save, but a model with a boarding shield cannot claim bonus "
            "attacks during the Assault phase.",
            ("", "5+"),
        ),
        ("An aegis provides a 5+ Invulnerable Save against Shooting Attacks.", ("", "")),  # a condition
        # the save given outright applies, the improvement under a condition does not (docs/rosters.md)
        ("A cloak confers a 4+ Invulnerable Save, increasing to 3+ against Blast weapons.", ("", "4+")),
        ("A shield provides a 5+ Invulnerable Save or increases an Invulnerable Save by one step.", ("", "5+")),
        ("Invulnerable Saves granted by an iron halo do not stack with other Invulnerable Saves.", ("", "")),
    ],
)
def test_wargear_text_is_read_for_plain_saves_only(text: str, saves: tuple[str, str]) -> None:
    # sentences of the kind of the game system file's Wargear Items (paraphrased): a save granted outright is
    # read, one under a condition is not (read clause by clause: the conditional part is listed, see
    # tests/test_roster_whole.py::test_wargear_clauses)
    from praetor_analysis.bsdata.wargear_saves import saves_from_texts

    assert saves_from_texts([text]) == saves


def test_a_roster_unit_attacks_in_calc_as_praetor_roster_rates_it() -> None:
    # the same unit, the same target, the same phase: calc's {"roster", "unit"} attacker gives praetor
    # roster's mean (both phases, the unit charging in melee as praetor roster has it)
    from praetor_analysis.analysis.unit_ratings import rate, target_named
    from praetor_analysis.units.target import unique_labels

    units = roster_units(ROSTER)
    labels = unique_labels([u.datasheet for u in units])
    target = target_named("Rhino")
    for label, unit in list(zip(labels, units, strict=True))[:6]:
        rows = rate(unit, [target])
        for _, row in rows.iterrows():
            attacker: dict[str, Any] = {"roster": str(ROSTER), "unit": label}
            if row["phase"] == "melee":
                attacker["charging"] = True
            doc = {"mode": row["phase"], "attacker": attacker, "target": "Rhino"}
            if row["error"]:  # the roster table's error is calc's refusal (a Land Raider does not fight)
                with pytest.raises(ScenarioError, match="no model that fights"):
                    calc(doc)
                continue
            got = calc(doc)
            assert got["hull_points"]["mean"] == pytest.approx(row["mean"], abs=1e-12), (label, row["phase"])
            assert got["attacker"]["name"] == label and got["points"] == unit.points
    with pytest.raises(ScenarioError, match=r"^attacker\.loadout: not a field of a roster's unit"):
        calc({"attacker": {"roster": str(ROSTER), "unit": "Praetor", "loadout": []}, "target": "Rhino"})


def test_a_datasheet_target_reads_models_as_its_size() -> None:
    """``models`` beside a datasheet's name is its size, for a target as for an attacker (docs/scenario.md)."""
    weapon = {"name": "Lascannon"}
    by_size = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": {"name": "Tactical Squad", "size": 15}})
    by_models = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": {"name": "Tactical Squad", "models": 15}})
    assert by_models["casualties"] == by_size["casualties"]
    assert by_models["target"]["models"] == 15
    with pytest.raises(ScenarioError, match=r"target\.models: Tactical Squad takes 10-20 models, got 3"):
        calc({"attacker": {"BS": 4}, "weapon": weapon, "target": {"name": "Tactical Squad", "models": 3}})
    with pytest.raises(ScenarioError, match=r"target\.models: not used beside size"):
        calc({"attacker": {"BS": 4}, "weapon": weapon, "target": {"name": "Tactical Squad", "size": 15, "models": 15}})
