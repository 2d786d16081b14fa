"""Self-checks of the brute-force oracle against values worked out by hand (derivations in the comments).

The oracle (tests/oracle/) enumerates every die; these tests make sure it says what MECHANICS.md says
before any engine test trusts it.
"""

import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from oracle import oracle_calc, oracle_calc_exact, oracle_sequence, oracle_sequence_exact


def scenario(weapon_type="Assault 1", *, strength="4", ap="-", bs=4, target=None, **extra):
    """A shooting scenario with one BS4 S4 model; target T4 W1 Sv- Ld7, 10 models, unless overridden."""
    tgt = {"Unit Type": "Infantry", "models": 10, "WS": 4, "T": 4, "W": 1, "Ld": 7, "Save": "-"}
    tgt.update(target or {})
    sc = {
        "mode": "shooting",
        "attacker": {"BS": bs, "WS": 4, "S": 4, "Ld": 8, "models": 1, "rules": []},
        "weapon": {"name": "test", "Strength": strength, "AP": ap, "Type": weapon_type},
        "target": tgt,
    }
    sc.update(extra)
    return sc


def mean(pmf):
    return sum(k * p for k, p in enumerate(pmf))


# ------------------------------------------------------------------------------------------- basics
def test_one_shot_bs4_s4_vs_t4_3plus():
    # BS4 hits on 3+ (2/3), S4 v T4 wounds on 4+ (1/2), Sv 3+ fails on 1-2 (1/3): 2/3 * 1/2 * 1/3 = 1/9.
    r = oracle_calc_exact(scenario(target={"Save": "3+"}))
    assert r["hits"] == [F(1, 3), F(2, 3)]
    assert r["wounds"] == [F(2, 3), F(1, 3)]
    assert r["unsaved"] == [F(8, 9), F(1, 9)]
    assert r["casualties"] == [F(8, 9), F(1, 9)]
    assert r["pinned"] == 0
    assert "gets_hot" not in r and "perils" not in r


def test_one_shot_bs3_matches_half_half_third():
    # BS3 hits on 4+ (1/2): P(unsaved) = 1/2 * 1/2 * 1/3 = 1/12.
    r = oracle_calc_exact(scenario(bs=3, target={"Save": "3+"}))
    assert r["unsaved"] == [F(11, 12), F(1, 12)]


def test_float_api_matches_exact():
    sc = scenario("Heavy 2, Rending (5+), Shred", target={"Save": "3+", "W": 2, "models": 2})
    exact, approx = oracle_calc_exact(sc), oracle_calc(sc)
    for key in ("hits", "wounds", "unsaved", "casualties"):
        assert len(exact[key]) == len(approx[key])
        assert all(abs(float(a) - b) < 1e-15 for a, b in zip(exact[key], approx[key], strict=False))
        assert abs(sum(approx[key]) - 1) < 1e-13
    assert isinstance(approx["pinned"], float)


def test_always_zero_outcome_is_one_point():
    # S3 v T8: no wound possible: every count is 0 and the pmf is [1].
    r = oracle_calc_exact(scenario(strength="3", target={"T": 8}))
    assert r["wounds"] == [1] and r["unsaved"] == [1] and r["casualties"] == [1]


# ------------------------------------------------------------------------------------------- Rending, Shred
def test_ten_shots_rending_mean_unsaved():
    # Per shot: hit 2/3; wound roll 4-5 normal (1/3), then Sv3+ fails 1/3; a 6 rends at AP2, no save (1/6).
    # 2/3 * (1/3 * 1/3 + 1/6) = 5/27 per shot; 10 shots: 50/27.
    r = oracle_calc_exact(scenario("Assault 1, Rending (6+)", attacks=10, ap="5", target={"Save": "3+"}))
    assert mean(r["unsaved"]) == F(50, 27)


def test_ten_shots_rending_shred_mean_unsaved():
    # Shred re-rolls 1-3: P(rend) = 1/6 + 1/2 * 1/6 = 1/4, P(normal wound) = 1/3 + 1/2 * 1/3 = 1/2.
    # 2/3 * (1/2 * 1/3 + 1/4) = 5/18 per shot; 10 shots: 25/9.
    r = oracle_calc_exact(scenario("Assault 1, Rending (6+), Shred", attacks=10, ap="5", target={"Save": "3+"}))
    assert mean(r["unsaved"]) == F(25, 9)


def test_rending_wounds_whatever_the_toughness():
    # S3 v T8 cannot wound on the table, but a natural 6 rends: P(wound | hit) = 1/6.
    r = oracle_calc_exact(scenario("Assault 1, Rending (6+)", strength="3", hits=1, target={"T": 8}))
    assert r["wounds"] == [F(5, 6), F(1, 6)]


# ------------------------------------------------------------------------------------------- To Hit
@pytest.mark.parametrize(
    "bs, p_hit",
    [
        (1, F(1, 6)),
        (5, F(5, 6)),
        (6, F(5, 6) + F(1, 6) * F(1, 6)),  # 2+, a 1 re-rolled on 6+: 31/36
        (7, F(8, 9)),  # 2+, a 1 re-rolled on 5+: 5/6 + 1/6 * 1/3 = 8/9
        (10, F(5, 6) + F(1, 6) * F(5, 6)),  # 2+, a 1 re-rolled on 2+: 35/36
    ],
)
def test_shooting_to_hit_table(bs, p_hit):
    assert oracle_calc_exact(scenario(bs=bs))["hits"] == [1 - p_hit, p_hit]


def test_snap_shots_use_bs1():
    assert oracle_calc_exact(scenario(bs=8, snap_shots=True))["hits"] == [F(5, 6), F(1, 6)]


def test_twin_linked_re_rolls_at_first_target():
    # BS4: fail 1/3, re-rolled at 3+: 2/3 + 1/3 * 2/3 = 8/9.  BS6: a 1 re-rolled on 2+ (not 6+): 35/36.
    assert oracle_calc_exact(scenario("Assault 1, Twin-linked"))["hits"][1] == F(8, 9)
    assert oracle_calc_exact(scenario("Assault 1, Twin-linked", bs=6))["hits"][1] == F(35, 36)


def test_master_crafted_one_re_roll_for_the_attack():
    # BS4, 2 shots, one re-roll of one failed die (hit 2/3 each die).
    # P(2) = 4/9 + P(exactly one fail) 4/9 * re-roll hits 2/3 = 4/9 + 8/27 = 20/27;
    # P(0) = both fail 1/9 * re-roll fails 1/3 = 1/27; P(1) = 6/27.
    r = oracle_calc_exact(scenario("Assault 2, Master-crafted"))
    assert r["hits"] == [F(1, 27), F(6, 27), F(20, 27)]


def test_master_crafted_bs6_spends_re_roll_at_first_target():
    # BS6, 2 shots: each first die is a 1 with 1/6.  One 1: Master-crafted re-roll on 2+ (5/6).
    # Two 1s: one on 2+ (Master-crafted), the other on the BS re-roll 6+ (1/6).
    # P(2 hits) = 25/36 + 2 * 5/6 * 1/6 * 5/6 + 1/36 * 5/6 * 1/6 = 1205/1296.
    r = oracle_calc_exact(scenario("Assault 2, Master-crafted", bs=6))
    assert r["hits"][2] == F(1205, 1296)


def test_melee_weapon_skill_chart():
    melee = {"mode": "melee", "weapon": {"Strength": "User", "AP": "-", "Type": "Melee"}}
    for ws_a, ws_d, p in [(4, 4, F(1, 2)), (5, 4, F(2, 3)), (2, 5, F(1, 3)), (2, 4, F(1, 2))]:
        sc = scenario(attacks=1, **melee, target={"WS": ws_d})
        sc["attacker"]["WS"] = ws_a
        assert oracle_calc_exact(sc)["hits"] == [1 - p, p], (ws_a, ws_d)


def test_dice_expression_attacks_and_hits():
    # hits "D3": uniform on 1..3, no To Hit roll.  attacks "2D6" at BS4: mean 7 * 2/3 = 14/3.
    assert oracle_calc_exact(scenario(hits="D3"))["hits"] == [0, F(1, 3), F(1, 3), F(1, 3)]
    assert mean(oracle_calc_exact(scenario(attacks="2D6"))["hits"]) == F(14, 3)
    # attacks "D6+1": 2..7 shots, mean 4.5 * 2/3 = 3
    assert mean(oracle_calc_exact(scenario(attacks="D6+1"))["hits"]) == 3
    # Heavy D3 with 2 models: each model rolls its own D3, mean 2 * 2 shots * 2/3 = 8/3
    sc = scenario("Heavy D3")
    sc["attacker"]["models"] = 2
    assert mean(oracle_calc_exact(sc)["hits"]) == F(8, 3)


# ------------------------------------------------------------------------------------------- Gets Hot
def test_gets_hot_standing_ones():
    # One shot: a natural 1 (1/6) wounds the firer; AP5 v Sv3+ fails 1/3, FNP 5+ fails 2/3: 1/6 * 2/9 = 1/27.
    sc = scenario("Assault 1, Gets Hot", ap="5")
    sc["attacker"].update({"Save": "3+", "rules": ["Feel No Pain (5+)"]})
    assert oracle_calc_exact(sc)["gets_hot"] == [F(26, 27), F(1, 27)]
    # Twin-linked: a standing 1 needs a failed first die (1-2: 1/3) re-rolled into a 1 (1/6): 1/18,
    # then 2/9 unsaved: 1/81.
    sc["weapon"]["Type"] = "Assault 1, Gets Hot, Twin-linked"
    assert oracle_calc_exact(sc)["gets_hot"] == [F(80, 81), F(1, 81)]


def test_master_crafted_prefers_re_rolling_a_natural_one():
    # BS4, 2 shots, Gets Hot, firer without save.  First dice: hit 2/3, natural 1 (O) 1/6, a 2 (M) 1/6.
    # One failure (4/9): re-rolled, stands as a 1 with 1/6.  O,O (1/36): one O re-rolled: 1 + 1/6.
    # O,M or M,O (2/36): the O is re-rolled (a careful player), 1/6.  M,M (1/36): 1/6.
    # E[standing 1s] = 4/9 * 1/6 + 1/36 * 7/6 + 3/36 * 1/6 = 26/216 = 13/108.
    assert mean(oracle_calc_exact(scenario("Assault 2, Master-crafted, Gets Hot"))["gets_hot"]) == F(13, 108)


def test_gets_hot_without_to_hit_roll_loses_the_shot():
    # One D6 per shot, never per hit (Gets Hot, rulebook p. 239; issue 13 reading 5). 2 automatic hits from
    # 2 shots (attacks 2): one hit each, each shot lost on a 1: hits ~ Bin(2, 5/6); the firer (no save)
    # takes one wound per 1: ~ Bin(2, 1/6).
    r = oracle_calc_exact(scenario("Assault 1, Gets Hot", hits=2, attacks=2))
    assert r["hits"] == [F(1, 36), F(10, 36), F(25, 36)]
    assert r["gets_hot"] == [F(25, 36), F(10, 36), F(1, 36)]
    # The same 2 hits from the weapon's one shot: both lost together on a 1, one die for the firer.
    r = oracle_calc_exact(scenario("Assault 1, Gets Hot", hits=2))
    assert r["hits"] == [F(1, 6), 0, F(5, 6)]
    assert r["gets_hot"] == [F(5, 6), F(1, 6)]


# ------------------------------------------------------------------------------------------- saves
def test_best_save_and_ap():
    # AP2 negates Sv2+: the 4+ invulnerable is used: unsaved per wound 1/2 (1 automatic hit, S8 v T4 2+
    # would be ID, so S5 v T4: wound on 3+ = 2/3): 2/3 * 1/2 = 1/3.
    r = oracle_calc_exact(scenario(strength="5", ap="2", hits=1, target={"Save": "2+", "Invulnerable": "4+"}))
    assert r["unsaved"][1] == F(1, 3)
    # Cover 3+ beats Sv 5+ in shooting ... (2/3 * 1/3 = 2/9)
    sc = scenario(strength="5", hits=1, target={"Save": "5+", "Cover": "3+"})
    assert oracle_calc_exact(sc)["unsaved"][1] == F(2, 9)
    # ... but not against Ignores Cover (2/3 * 2/3 = 4/9) or in melee.
    sc["weapon"]["Type"] = "Assault 1, Ignores Cover"
    assert oracle_calc_exact(sc)["unsaved"][1] == F(4, 9)
    sc["weapon"]["Type"], sc["mode"] = "Melee", "melee"
    assert oracle_calc_exact(sc)["unsaved"][1] == F(4, 9)


def test_heavy_sub_type_re_rolls_armour_against_blast():
    # 1 hit, wound 1/2 (S4 v T4).  (Heavy): Sv3+ re-rolled fails 1/9, better than cover 2+ (1/6): 1/18.
    tgt = {"Unit Type": "Infantry (Heavy)", "Save": "3+", "Cover": "2+"}
    assert oracle_calc_exact(scenario('Heavy 1, Blast (3")', hits=1, target=tgt))["unsaved"][1] == F(1, 18)
    assert oracle_calc_exact(scenario("Assault 1, Template", hits=1, target=tgt))["unsaved"][1] == F(1, 18)
    # Not (Heavy): cover 2+ against Blast (1/2 * 1/6 = 1/12); a Template denies cover, Sv3+ (1/2 * 1/3).
    tgt["Unit Type"] = "Infantry"
    assert oracle_calc_exact(scenario('Heavy 1, Blast (3")', hits=1, target=tgt))["unsaved"][1] == F(1, 12)
    assert oracle_calc_exact(scenario("Assault 1, Template", hits=1, target=tgt))["unsaved"][1] == F(1, 6)


def test_mitigation_best_of_fnp_and_shrouded():
    # 1 hit, wound 1/2, no save. FNP 5+ and Shrouded 4+: Shrouded (4+) is used: 1/2 * 1/2 = 1/4.
    rules = ["Feel No Pain (5+)", "Shrouded (4+)"]
    assert oracle_calc_exact(scenario(hits=1, target={"rules": rules}))["unsaved"][1] == F(1, 4)
    # Ignores Cover denies Shrouded: FNP 5+: 1/2 * 2/3 = 1/3.  Bare Shrouded is 6+: 1/2 * 5/6 = 5/12.
    sc = scenario("Assault 1, Ignores Cover", hits=1, target={"rules": rules})
    assert oracle_calc_exact(sc)["unsaved"][1] == F(1, 3)
    assert oracle_calc_exact(scenario(hits=1, target={"rules": ["Shrouded"]}))["unsaved"][1] == F(5, 12)
    # Fearless models may not use Shrouded.
    sc = scenario(hits=1, target={"rules": ["Shrouded (4+)", "Fearless"]})
    assert oracle_calc_exact(sc)["unsaved"][1] == F(1, 2)


# ------------------------------------------------------------------------------------------- Brutal
def test_brutal_w2():
    # 1 automatic hit, S4 v T4 (1/2), Brutal (2), Sv4+: a wound becomes 2 wounds, each unsaved with 1/2.
    # unsaved: 0 = 1/2 + 1/2 * 1/4 = 5/8, 1 = 1/2 * 1/2 = 1/4, 2 = 1/2 * 1/4 = 1/8.
    # W2 model: killed only by 2 unsaved: 1/8.
    sc = scenario("Assault 1, Brutal (2)", hits=1, target={"Save": "4+", "W": 2, "models": 2})
    r = oracle_calc_exact(sc)
    assert r["unsaved"] == [F(5, 8), F(1, 4), F(1, 8)]
    assert r["casualties"] == [F(7, 8), F(1, 8)]
    # The model already lost a wound: the first unsaved kills it, the second is lost (still counted unsaved).
    sc["target"]["wounds_taken"] = 1
    r = oracle_calc_exact(sc)
    assert r["unsaved"] == [F(5, 8), F(1, 4), F(1, 8)]
    assert r["casualties"] == [F(5, 8), F(3, 8)]


def test_brutal_overflow_is_lost_on_w1():
    # 2 hits, W1, Brutal (2), Sv4+: each wound (1/2) kills at most one model, when at least one of its two
    # wounds is unsaved (3/4): per hit 3/8, casualties ~ Bin(2, 3/8) = [25, 30, 9] / 64.
    r = oracle_calc_exact(scenario("Assault 1, Brutal (2)", hits=2, target={"Save": "4+"}))
    assert r["casualties"] == [F(25, 64), F(30, 64), F(9, 64)]
    assert mean(r["unsaved"]) == 1  # 2 hits * 1/2 wound * 2 sub-wounds * 1/2 unsaved


# ------------------------------------------------------------------------------------------- Instant Death
def test_instant_death_from_double_strength():
    # S8 v T4: wounds on 2+ (5/6) and is Instant Death; Sv4+ fails 1/2; FNP not allowed: 5/12 kills a W3.
    tgt = {"Save": "4+", "W": 3, "rules": ["Feel No Pain (5+)"]}
    r = oracle_calc_exact(scenario(strength="8", hits=1, target=tgt))
    assert r["casualties"] == [F(7, 12), F(5, 12)]
    # Eternal Warrior: one wound, and still no FNP against an Instant Death wound (issue 13 reading 8; Feel No
    # Pain (X), rulebook p. 238): 5/6 * 1/2 = 5/12 unsaved, no W3 model dies ...
    tgt["rules"] = ["Feel No Pain (5+)", "Eternal Warrior"]
    r = oracle_calc_exact(scenario(strength="8", hits=1, target=tgt))
    assert r["unsaved"] == [F(7, 12), F(5, 12)] and r["casualties"] == [1]
    # ... unless it had one wound left.
    tgt["wounds_taken"] = 2
    assert oracle_calc_exact(scenario(strength="8", hits=1, target=tgt))["casualties"] == [F(7, 12), F(5, 12)]
    # A wound that is not Instant Death still takes FNP: S7 v T4 (2+, 5/6) * Sv4+ 1/2 * FNP 5+ 2/3 = 5/18.
    assert oracle_calc_exact(scenario(strength="7", hits=1, target=tgt))["unsaved"] == [F(13, 18), F(5, 18)]


def test_instant_death_wounds_are_allocated_first():
    # 2 hits, S4 v T4, no save, Murderous Strike (6+), W2, 2 models, the first model down to 1 wound.
    # Per hit: nothing 1/2, ordinary wound (4-5) 1/3, Instant Death (6) 1/6.
    # ID + ordinary (1/9): ID removes the damaged model, the wound hits the fresh one: 1 casualty
    # (taken the other way round it would be 2).  ID,ID 1/36: 2.  Nothing at all (1/4): 0.  Else 1.
    sc = scenario("Assault 1, Murderous Strike (6+)", hits=2, target={"W": 2, "models": 2, "wounds_taken": 1})
    assert oracle_calc_exact(sc)["casualties"] == [F(1, 4), F(13, 18), F(1, 36)]
    # Without damage: 0 = N+nothing 1/3 + nothing 1/4 = 7/12; 2 = ID,ID 1/36; 1 = 7/18.
    sc["target"]["wounds_taken"] = 0
    assert oracle_calc_exact(sc)["casualties"] == [F(7, 12), F(7, 18), F(1, 36)]


# ------------------------------------------------------------------------------------------- Deflagrate
def test_deflagrate_adds_hits_for_unsaved_wounds():
    # 1 hit, wound 1/2, no save; an unsaved wound gives 1 more hit, which wounds with 1/2 (no further hit).
    # unsaved = [1/2, 1/4, 1/4]; `wounds` counts the attack only.
    r = oracle_calc_exact(scenario("Assault 1, Deflagrate", hits=1))
    assert r["wounds"] == [F(1, 2), F(1, 2)]
    assert r["unsaved"] == [F(1, 2), F(1, 4), F(1, 4)]
    assert r["casualties"] == [F(1, 2), F(1, 4), F(1, 4)]


# ------------------------------------------------------------------------------------------- Pinning
def test_pinning_and_shell_shock():
    # 1 hit, unsaved 1/2, then Ld7: 2D6 > 7 with 15/36: 1/2 * 5/12 = 5/24.
    assert oracle_calc_exact(scenario("Assault 1, Pinning", hits=1))["pinned"] == F(5, 24)
    # Shell Shock (1): Ld6, fails with 21/36: 7/24.
    assert oracle_calc_exact(scenario("Assault 1, Pinning, Shell Shock (1)", hits=1))["pinned"] == F(7, 24)
    # Exempt targets give None.
    for rule in ("Fearless", "Pinned", "Locked in combat", "Embarked"):
        assert oracle_calc_exact(scenario("Assault 1, Pinning", hits=1, target={"rules": [rule]}))["pinned"] is None
    # No model left: no test.
    assert oracle_calc_exact(scenario("Assault 1, Pinning", hits=1, target={"models": 1}))["pinned"] == 0


def test_sequence_tests_pinning_once_per_firing_unit_and_carries_damage():
    volley = {
        "attacker": {"BS": 4, "S": 4, "models": 1},
        "hits": 1,
        "weapon": {"Strength": "4", "AP": "-", "Type": "Assault 1, Pinning"},
    }
    target = {"Unit Type": "Infantry", "models": 5, "T": 4, "W": 1, "Ld": 7, "Save": "-"}
    # Two firing units: each pins with 5/24; P(pinned) = 1 - (19/24)^2 = 215/576.
    r = oracle_sequence_exact(target, [[volley], [volley]])
    assert r["pinned"] == F(215, 576)
    # One firing unit with both volleys: P(at least one unsaved) = 3/4, one test: 3/4 * 5/12 = 5/16.
    assert oracle_sequence_exact(target, [[volley, volley]])["pinned"] == F(5, 16)
    # Damage carries over: a W2 model is killed only when both units wound: 1/4.
    target.update({"W": 2, "models": 1})
    r = oracle_sequence(target, [[volley], [volley]])
    assert r["casualties"] == pytest.approx([0.75, 0.25], abs=1e-15)
    assert r["unsaved"] == pytest.approx([0.25, 0.5, 0.25], abs=1e-15)


# ------------------------------------------------------------------------------------------- Psychic Focus
def test_psychic_focus():
    # Ld8: 2D6 <= 8 with 26/36; perils 5/18; BS4 one shot: hits 13/18 * 2/3 = 13/27.
    r = oracle_calc_exact(scenario("Assault 1, Psychic Focus"))
    assert r["perils"] == F(5, 18) and r["attack_happens"] == F(13, 18)
    assert r["hits"] == [F(14, 27), F(13, 27)]
    # Two psykers at Ld7 (pass 21/36 each): perils 1 - (7/12)^2, at least one attacks 1 - (5/12)^2.
    sc = scenario("Assault 1, Psychic Focus")
    sc["attacker"].update({"models": 2, "Ld": 7})
    r = oracle_calc_exact(sc)
    assert r["perils"] == F(95, 144) and r["attack_happens"] == F(119, 144)


# ------------------------------------------------------------------------------------------- wounding rules
def test_poisoned_fleshbane_and_melee_re_roll():
    # Poisoned (4+) with S3 v T4 (table 5+): 4+ = 1/2.  Bare Poisoned is 4+.  Fleshbane: 2+.
    assert oracle_calc_exact(scenario("Assault 1, Poisoned (4+)", strength="3", hits=1))["wounds"][1] == F(1, 2)
    assert oracle_calc_exact(scenario("Assault 1, Poisoned", strength="3", hits=1))["wounds"][1] == F(1, 2)
    assert oracle_calc_exact(scenario("Assault 1, Fleshbane", strength="1", hits=1))["wounds"][1] == F(5, 6)
    # Melee, Poisoned (4+), S5 v T4: table 3+, re-rolled since S > T: 2/3 + 1/3 * 2/3 = 8/9.
    sc = scenario("Melee, Poisoned (4+)", strength="5", hits=1, mode="melee")
    assert oracle_calc_exact(sc)["wounds"][1] == F(8, 9)


def test_armourbane_re_rolls_only_against_dreadnoughts():
    # S4 v T4: 1/2, re-rolled: 3/4; Armourbane (Melta) only at half range.
    sc = scenario("Assault 1, Armourbane", hits=1, target={"Unit Type": "Dreadnought"})
    assert oracle_calc_exact(sc)["wounds"][1] == F(3, 4)
    melta = scenario("Assault 1, Armourbane (Melta)", hits=1, target={"Unit Type": "Dreadnought"})
    assert oracle_calc_exact(melta)["wounds"][1] == F(1, 2)
    assert oracle_calc_exact({**melta, "half_range": True})["wounds"][1] == F(3, 4)
    sc["target"]["Unit Type"] = "Infantry"
    assert oracle_calc_exact(sc)["wounds"][1] == F(1, 2)


def test_strength_user_plus_times():
    # attacker S4: "x2" = 8 v T4 -> ID; "+1" = 5 v T4 wounds on 3+; "User" = 4 -> 4+.
    for strength, p in (("User", F(1, 2)), ("+1", F(2, 3)), ("x2", F(5, 6))):
        sc = scenario("Melee", strength=strength, hits=1, mode="melee")
        assert oracle_calc_exact(sc)["wounds"][1] == p


def test_unknown_weapon_rule_is_refused():
    with pytest.raises(NotImplementedError):
        oracle_calc(scenario("Assault 1, Made Up Rule"))


# ------------------------------------------------------------------------------------------- speed
def test_typical_four_attack_scenario_is_a_distribution():
    sc = scenario(
        "Heavy 2, Rending (5+), Brutal (2), Shred, Master-crafted, Gets Hot, Pinning",
        ap="3",
        target={"Save": "3+", "Invulnerable": "5+", "W": 2, "models": 3, "rules": ["Feel No Pain (5+)"]},
    )
    sc["attacker"].update({"models": 2, "Save": "2+"})
    r = oracle_calc(sc)
    for key in ("hits", "wounds", "unsaved", "casualties", "gets_hot"):
        assert abs(sum(r[key]) - 1) < 1e-13
