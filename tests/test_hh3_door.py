"""Edition 3 at the door of ``praetor calc``: the edition field, the fields of each edition refused in the
other, the result's keys, every rule named in the result, the data slips tolerated, and pinned hand values."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from praetor_analysis.errors import ScenarioError
from praetor_analysis.rules.hh3 import check_pass, wound_target
from praetor_analysis.scenario.calc import calc, calc_json

MARINE = {"name": "Legionaries", "Type": "Infantry", "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1,
          "LD": 7, "CL": 7, "SAV": "3+", "INV": "-", "models": 10}  # fmt: skip
BOLTER = {"name": "Bolter", "R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1, "Special Rules": "", "Traits": "Bolt"}
HH2 = {"attacker": {"BS": 4}, "weapon": {"Strength": 4, "AP": 5, "Type": "Assault 1"},
       "target": {"T": 4, "W": 1, "Save": "3+", "models": 5}}  # fmt: skip


def _doc(weapon=None, **extra):
    return {"edition": "hh3", "attacker": {**MARINE}, "weapon": weapon or BOLTER, "target": {**MARINE}, **extra}


def test_the_default_edition_is_the_second():
    assert calc({**HH2, "edition": "hh2"}) == calc(HH2)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"edition": "hh4"}, "edition"),
        ({"weapon": {**BOLTER, "Strength": 4}}, "weapon.Strength"),
        ({"weapon": {**BOLTER, "Type": "Heavy 2"}}, "weapon.Type"),
        ({"weapon": {**BOLTER, "Range": 24}}, "weapon.Range"),
        ({"target": {**MARINE, "Save": "3+"}}, "target.Save"),
        ({"target": {**MARINE, "Unit Type": "Infantry"}}, "target.Unit Type"),
        ({"attacker": {**MARINE, "Ld": 7}}, "attacker.Ld"),
        ({"target": {**MARINE, "Front Armour": 12}}, "target.Front Armour"),
        ({"formation": {"models": 10}}, "formation"),
        ({"target_weapon": BOLTER}, "target_weapon"),
        ({"options": {"group_order": "random"}}, "options.group_order"),
        ({"weapon": {**BOLTER, "Special Rules": "Rending (x)"}}, "weapon.Special Rules.Rending"),
        ({"engaged": 3}, "engaged"),
        ({"weapon": "Boltgun"}, "weapon"),  # a name the 3rd edition's data lacks (its names resolve: "Bolter")
        ({"weapon": ["Bolter"]}, "weapon"),
    ],
)
def test_bad_or_other_edition_fields_are_refused_naming_the_field(change, field):
    with pytest.raises(ScenarioError) as err:
        calc(_doc(**change) if "edition" not in change else {**_doc(), **change})
    assert str(err.value).startswith(field), str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("field", ["FP", "RS", "D", "Special Rules"])
def test_an_edition_3_field_in_an_edition_2_scenario_is_refused(field):
    doc = {**HH2, "weapon": {**HH2["weapon"], field: "1"}}
    with pytest.raises(ScenarioError, match=f"weapon.{field}"):
        calc(doc)


def test_the_command_line_exits_2_with_one_line():
    doc = json.dumps(_doc(weapon={**BOLTER, "Strength": 4}))
    run = subprocess.run([sys.executable, "-m", "praetor_analysis.cli", "calc", "-"], input=doc, text=True,
                         capture_output=True, check=False)  # fmt: skip
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "weapon.Strength" in run.stderr


def test_an_array_may_mix_the_editions_and_names_the_bad_index():
    out = calc_json(json.dumps([HH2, _doc(), {**HH2, "edition": "hh2"}]))
    assert "statuses" in out[1] and "pinned" in out[0] and out[0]["casualties"] == out[2]["casualties"]
    with pytest.raises(ScenarioError, match=r"^\[1\] weapon.RS"):
        calc_json(json.dumps([HH2, _doc(weapon={**BOLTER, "RS": "x"})]))


def test_the_result_has_the_edition_3_keys():
    out = calc(_doc())
    assert set(out) >= {"hits", "critical_hits", "wounds", "unsaved", "casualties", "damage", "statuses", "applied",
                        "not_modelled", "no_effect", "reasons"}  # fmt: skip
    assert "pinned" not in out and set(out["statuses"]) == {"Pinned", "Suppressed", "Stunned", "Routed"}
    assert out["statuses"]["Pinned"] is None and out["statuses"]["Routed"] is not None


def test_every_rule_and_trait_is_named_in_the_result():
    rules = ("Breaching (5+), Blast (3), Heavy (FP), Pistol, Armourbane, Shred (6+), Overload (1), Template, "
             "Pinning (1), Limited (2), Detonation, Barrage (1), Ordnance (D), Deflagrate (4), Shock (Pinned), Stun (1), "
             "Panic (1), Suppressive (1), Poisoned (4+), Melta (6), Rending (6+), Combi, Skyfire, Critical Hit (6+), "
             "Reaping Blow (1), Phage (T), Impact (SM), Precision (5+), Rapid Tracking, Force (D), Aflame (1), "
             "Duellist's Edge (1), Armour-breaker (4+), Macro-auspex, Annihilation Cascade (1), Strange New Rule")  # fmt: skip
    traits = "Assault, Bolt, Power, Plasma, Auto, Missile, Chain, Las, Volkite, Flame, Immaterial, Melta, Psychic"
    out = calc(_doc({**BOLTER, "Special Rules": rules, "Traits": traits}))
    named = set(out["applied"]) | set(out["not_modelled"]) | set(out["no_effect"])
    for item in [*rules.split(", "), *traits.split(", ")]:
        assert item in named, item
    for label in [*out["not_modelled"], *out["no_effect"]]:
        assert out["reasons"].get(label), label
    assert "Strange New Rule" in out["not_modelled"]
    assert "Template" in out["applied"]  # markers: placed over the default formation (scenario/hh3_door.py)
    assert "Pinning (1)" in out["applied"] and "Heavy (FP)" in out["no_effect"]  # not Stationary


def test_melee_reports_the_shooting_only_rules_under_no_effect():
    fist = {"IM": "-3", "AM": "A", "SM": "+4", "AP": 2, "D": 2, "Special Rules": "Pinning (1), Panic (2)"}
    out = calc(_doc(fist, mode="melee"))
    assert {"Pinning (1)", "Panic (2)"} <= set(out["no_effect"])
    assert all(p is None for p in out["statuses"].values())


@pytest.mark.parametrize(
    ("printed", "canonical", "column"),
    [
        ("Critical Hits (5+)", "Critical Hit (5+)", "Special Rules"),
        ("Poison (4+)", "Poisoned (4+)", "Special Rules"),
        ("Ordinance (D)", "Ordnance (D)", "Special Rules"),
        ("Shocked (Pinned)", "Shock (Pinned)", "Special Rules"),
        ("Macros-auspex", "Macro-auspex", "Special Rules"),
        ("Duelist's Edge (1)", "Duellist's Edge (1)", "Special Rules"),
        ("Duellist\u2019s Edge (1)", "Duellist's Edge (1)", "Special Rules"),
        ("Breaching (6+)", "Breaching (6+)", "Traits"),
        ("Armourbane", "Armourbane", "Traits"),
        ("Heavy (FP & AP)", "Heavy (FP & AP)", "Special Rules"),
        ("Shock (Pinning, Stunned, Suppressed)", "Shock (Pinning, Stunned, Suppressed)", "Special Rules"),
        ("Shred (4+) Reaping Blow (2)", "Shred (4+)", "Special Rules"),
        ("Pinning(1)", "Pinning (1)", "Special Rules"),
    ],
)
def test_data_slips_are_tolerated(printed, canonical, column):
    out = calc(_doc({**BOLTER, column: printed}, stationary=True))
    assert canonical in set(out["applied"]) | set(out["not_modelled"]) | set(out["no_effect"])


def test_a_special_rule_in_the_traits_column_acts():
    plain = calc(_doc({**BOLTER, "AP": 4}))
    traits = calc(_doc({**BOLTER, "AP": 4, "Traits": "Bolt, Breaching (6+)"}))
    assert traits["casualties"]["mean"] > plain["casualties"]["mean"]


# --- pinned hand values ------------------------------------------------------------------------------------
def test_bolter_squad_hand_value():
    """10 Legionaries (BS 4, FP 2: 20 dice) at 10 Legionaries: hit 3+ = 2/3, S4 v T4 4+ = 1/2, 3+ save v AP 5
    fails 1/3: each die 1/9 an Unsaved Wound; P(no casualty) = (8/9)^20; mean unsaved 20/9."""
    out = calc(_doc())
    assert out["unsaved"]["mean"] == pytest.approx(20 / 9, abs=1e-12)
    assert out["casualties"]["pmf"][0] == pytest.approx((8 / 9) ** 20, abs=1e-12)


def test_lascannon_hand_value():
    """One lascannon (BS 4, RS 9, AP 2, D 3) at two W 2 models with a 3+ save: hit 2/3, wound (S9 v T4: 2+) 5/6,
    AP 2 stops the 3+ save, D 3 kills a W 2 model: P(one casualty) = 5/9; damage 2 (1 lost to excess)."""
    las = {"R": 48, "FP": 1, "RS": 9, "AP": 2, "D": 3, "Special Rules": "Heavy (D)"}
    out = calc(_doc(las, attacker={**MARINE, "models": 1}, target={**MARINE, "W": 2, "models": 2}))
    assert out["casualties"]["pmf"][1] == pytest.approx(5 / 9, abs=1e-12)
    assert out["damage"]["pmf"] == pytest.approx([4 / 9, 0.0, 5 / 9], abs=1e-12)


def test_power_fist_hand_value():
    """Power fist (SM +4, AP 2, D 2) with A 2, WS 4 v WS 4 (4+: 1/2), S 8 v T 4 (2+: 5/6), AP 2 stops the 3+
    save: each attack 5/12 to kill a W 1 Legionary; two attacks: mean 10/12."""
    fist = {"IM": "-3", "AM": "A", "SM": "+4", "AP": 2, "D": 2}
    out = calc(_doc(fist, mode="melee", attacker={**MARINE, "A": 2, "models": 1}))
    assert out["casualties"]["mean"] == pytest.approx(10 / 12, abs=1e-12)
    assert out["casualties"]["pmf"][2] == pytest.approx((5 / 12) ** 2, abs=1e-12)


def test_critical_band_hand_value():
    """BS 7 hits on 2+ with critical on 5+: P(critical) = 2/6, P(hit) = 5/6 per die."""
    out = calc(_doc({**BOLTER, "FP": 1}, attacker={**MARINE, "BS": 7, "models": 1}))
    assert out["critical_hits"]["mean"] == pytest.approx(2 / 6, abs=1e-12)
    assert out["hits"]["mean"] == pytest.approx(5 / 6, abs=1e-12)


def test_check_and_wound_tables_hand_values():
    """2D6 <= 7: 21 of 36; a target of 1 passes only on double 1; 12 fails only on double 6; 0 never passes.
    Wound targets: S4 v T4 4+, S6 v T4 2+, S3 v T4 5+, S4 v T7 6+, S4 v T8 none, S12 v T9 3+ (read as S10 v T9)."""
    assert check_pass(7) == pytest.approx(21 / 36)
    assert check_pass(1) == pytest.approx(1 / 36)
    assert check_pass(12) == pytest.approx(35 / 36)
    assert check_pass(0) == 0.0
    assert [wound_target(4, 4), wound_target(6, 4), wound_target(3, 4), wound_target(4, 7), wound_target(4, 8),
            wound_target(12, 9)] == [4, 2, 5, 6, None, 3]  # fmt: skip


def test_routed_hand_value():
    """Two marines (3+ v AP 3: no armour save; FP 2 each: 4 dice, each 2/3 x 1/2 = 1/3 an Unsaved Wound) at
    two W 1 models LD 6: one casualty (>= ceil(2/4) = 1) triggers the Check; LD 6 fails 1 - 15/36 = 21/36.
    P(exactly one casualty) = 1 - (2/3)^4 - P(two); P(two) = 1 - (2/3)^4 - 4 (1/3)(2/3)^3."""
    out = calc(_doc({**BOLTER, "AP": 3}, attacker={**MARINE, "models": 2}, target={**MARINE, "models": 2, "LD": 6}))
    p_none = (2 / 3) ** 4
    p_one = 4 * (1 / 3) * (2 / 3) ** 3
    assert out["casualties"]["pmf"][1] == pytest.approx(p_one, abs=1e-12)
    assert out["statuses"]["Routed"] == pytest.approx(p_one * 21 / 36, abs=1e-12)
    assert out["casualties"]["pmf"][0] == pytest.approx(p_none, abs=1e-12)


def test_the_melta_trait_is_a_trait_and_the_melta_rule_a_rule():
    """BSData's multi-melta: Special Rules 'Melta (12)', Traits 'Melta': the trait is a family tag."""
    out = calc(_doc({**BOLTER, "Special Rules": "Melta (12)", "Traits": "Melta"}))
    assert "Melta (12)" in out["no_effect"] and "Melta" in out["no_effect"]
    assert "trait" in out["reasons"]["Melta"] and "Vehicles" in out["reasons"]["Melta (12)"]


def test_a_missing_strength_names_the_striking_side():
    from praetor_analysis.engine.hh3 import Hh3Context, Hh3Volley, fire_group
    from praetor_analysis.errors import ProfileError
    from praetor_analysis.profiles.hh3 import read_unit, read_weapon

    fist = read_weapon({"IM": "I", "AM": "A", "SM": "+1", "AP": 3, "D": 1})
    striker = read_unit({"WS": 4, "A": 1}, "target")
    with pytest.raises(ProfileError, match=r"^target\.S"):
        fire_group(Hh3Volley(striker, fist, Hh3Context("melee")), read_unit(MARINE, "attacker"),
                   sides=("target", "attacker"))  # fmt: skip


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"attacker": {**MARINE, "models": 1000}, "weapon": {**BOLTER, "FP": "20D6"}}, "weapon.FP"),
        ({"attacks": 0, "target": {**MARINE, "W": 20, "models": 1000}}, "target.models"),
        ({"attacks": 400, "target": {**MARINE, "W": 10, "models": 10}}, "attacks"),
    ],
)
def test_attacks_beyond_the_exact_chain_bounds_are_refused_quickly(change, field):
    with pytest.raises(ScenarioError) as err:
        calc(_doc(**change))
    assert str(err.value).startswith(field), str(err.value)
