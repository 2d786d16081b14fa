"""Self-checks of the HH3 brute-force oracle (tests/oracle/hh3) against values worked out by hand.

Each derivation is in the comment beside it, from MECHANICS-HH3.md's tables; the oracle must say what the
contract says before any engine test trusts it.  Profiles: Weapons.json of the HH3 BSData (bolter, lascannon,
power fist, autocannon) and the core rules' Rhino (Front 12, Side 11, Rear 10, HP 5).
"""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product
from math import comb

import pytest
from fixture_files import FIXTURES, SHARED
from oracle.hh3 import hh3_oracle
from oracle.hh3.enumerate import roll_each
from oracle.hh3.rules import FACES, WS_TABLE, check_passes, wound_need

BOLTER = {"name": "Bolter", "R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1, "Special Rules": "-", "Traits": "Bolt"}
LASCANNON = {"name": "Lascannon", "R": 48, "FP": 1, "RS": 9, "AP": 2, "D": 1,
             "Special Rules": "Heavy (D), Armourbane", "Traits": "Las"}  # fmt: skip
POWER_FIST = {"name": "Power fist", "IM": "-3", "AM": "A", "SM": "+4", "AP": 2, "D": 2, "Special Rules": "",
              "Traits": "Power"}  # fmt: skip
LEGIONARIES = {"name": "Legionaries", "Type": "Infantry", "models": 10, "WS": 4, "T": 4, "W": 1, "I": 4,
               "LD": 7, "CL": 7, "SAV": "3+", "INV": "-"}  # fmt: skip
RHINO = {"name": "Rhino", "Type": "Vehicle (Transport)", "Front Armour": 12, "Side Armour": 11,
         "Rear Armour": 10, "HP": 5}  # fmt: skip


def doc(weapon=None, target=None, attacker=None, **extra) -> dict:
    d = {
        "edition": "hh3",
        "attacker": {"BS": 4, "WS": 4, "S": 4, "I": 4, "A": 1, "models": 1, **(attacker or {})},
        "weapon": {**BOLTER, "FP": 1, **(weapon or {})},
        "target": {**LEGIONARIES, **(target or {})},
    }
    d.update(extra)
    return d


def binomial(n: int, p: F) -> list[F]:
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def mean(pmf) -> F:
    return sum((k * p for k, p in enumerate(pmf)), F(0))


def test_every_pmf_sums_to_one():
    cases = [
        doc(),
        doc({"Special Rules": "Rending (5+), Breaching (5+), Shred (6+)", "D": "D3"}, {"W": 2, "models": 2}),
        doc(LASCANNON, RHINO, stationary=True),
        doc(POWER_FIST, mode="melee", attacker={"A": 2}),
        doc({"Special Rules": "Deflagrate (4), Overload (1)"}, {"models": 2}, attacks=3),
    ]
    for d in cases:
        r = hh3_oracle(d)
        pmfs = [(k, v) for k, v in r.items() if isinstance(v, list) and k != "misfires"]
        pmfs += [(f"misfires.{k}", v) for m in r.get("misfires", []) for k, v in m.items()]
        for key, value in pmfs:
            assert sum(value) == 1, key
            assert all(p >= 0 for p in value), key


# ------------------------------------------------------------------------------------------- primitives
def test_roll_each_is_the_product_over_every_face():
    # The running merge of roll_each gives the same distribution as listing all 6^n face tuples.
    def face(c, f):
        return (c[0] + (f >= 3), c[1] + (f == 6))

    for n in range(4):
        direct: dict = {}
        for faces in product(FACES, repeat=n):
            key = (sum(f >= 3 for f in faces), sum(f == 6 for f in faces))
            direct[key] = direct.get(key, 0) + F(1, 6**n)
        assert roll_each(n, (0, 0), face) == direct


def test_checks_follow_the_two_dice():
    # 2D6 <= t: 21 of 36 pairs at 7, 15 at 6; double 1 always passes (t = 1: 1/36), double 6 always fails
    # (t = 12: 35/36); a characteristic at 0 fails with no dice.
    assert check_passes(7) == F(21, 36)
    assert check_passes(6) == F(15, 36)
    assert check_passes(1) == F(1, 36)
    assert check_passes(2) == F(1, 36)
    assert check_passes(12) == F(35, 36)
    assert check_passes(15) == F(35, 36)
    assert check_passes(0) == 0


def test_wound_table_formula():
    # Section 5: S >= T+2 2+, T+1 3+, T 4+, T-1 5+, T-2/T-3 6+, T-4 none; S12 v T9 reads as S10 v T9: 3+.
    assert [wound_need(s, 4) for s in range(1, 11)] == [6, 6, 5, 4, 3, 2, 2, 2, 2, 2]
    assert wound_need(4, 8) is None and wound_need(12, 9) == 3 and wound_need(0, 1) is None


# ------------------------------------------------------------------------------------------- pinned values
def test_ten_bolters_against_ten_legionaries():
    # 10 bolters FP 2 = 20 dice.  Per die: BS 4 hits on 3+ (4/6), S4 v T4 wounds on 4+ (3/6), SAV 3+ against
    # AP 5 fails on 1-2 (2/6): 4/6 * 3/6 * 2/6 = 1/9 unsaved, each killing a W1 model.
    r = hh3_oracle(doc(BOLTER, attacker={"models": 10}))
    assert r["hits"] == binomial(20, F(2, 3))
    assert r["wounds"] == binomial(20, F(1, 3))
    assert r["unsaved"] == binomial(20, F(1, 9))
    assert r["critical_hits"] == [1]
    killed = binomial(20, F(1, 9))
    assert r["casualties"] == [*killed[:10], sum(killed[10:])]
    assert r["damage"] == r["casualties"]
    # Routed: 3 or more of 10 killed (25%: ceil(10/4) = 3), but not all 10 (a wiped unit holds no status)
    # -> Leadership Check at LD 7 fails 15/36.
    assert r["statuses"]["Routed"] == sum(killed[3:10]) * F(15, 36)
    assert r["statuses"]["Pinned"] is None


def test_lascannon_against_a_rhino_front():
    # BS 4: 4/6 hit.  APT D6 + 9 against Front 12: a 3 equals 12 (Armourbane: penetrates), 4-6 exceed: 4/6.
    # 4/6 * 4/6 = 4/9 penetrating, no glance; D 1 (no Heavy without Stationary): 1 HP.
    r = hh3_oracle(doc(LASCANNON, RHINO))
    assert r["penetrating"] == [F(5, 9), F(4, 9)]
    assert r["glancing"] == [1]
    assert r["hull_points"] == [F(5, 9), F(4, 9)]
    assert r["wrecked"] == 0
    assert r["statuses"] == {"Pinned": 0, "Suppressed": 0, "Stunned": 0, "Routed": None}
    # Stationary: Heavy (D) gives D 2.
    r = hh3_oracle(doc(LASCANNON, RHINO, stationary=True))
    assert r["hull_points"] == [F(5, 9), 0, F(4, 9)]


def test_apt_natural_one_never_penetrates():
    # RS 9 against Rear 10 with Armourbane: a 1 makes 10 = 10, penetrating unless the natural-1 rule holds.
    # Default: the 5 faces 2-6 penetrate: 4/6 * 5/6 = 5/9; with the option off: 4/6.
    r = hh3_oracle(doc(LASCANNON, {**RHINO, "facing": "Rear"}))
    assert r["penetrating"] == [F(4, 9), F(5, 9)]
    r = hh3_oracle(doc(LASCANNON, {**RHINO, "facing": "Rear"}, options={"apt_natural_one_fails": False}))
    assert r["penetrating"] == [F(1, 3), F(2, 3)]


def test_a_bolter_glance_rolls_the_damage_table():
    # RS 4 against Rear 10: only a 6 glances (10 = 10): 4/6 * 1/6 = 1/9; the table's D6 gives each of
    # Stunned (1-2), Pinned (3-4), Suppressed (5-6) 1/3: 1/27 each.  A glance costs no Hull Point.
    r = hh3_oracle(doc(target={**RHINO, "facing": "Rear"}))
    assert r["glancing"] == [F(8, 9), F(1, 9)]
    assert r["hull_points"] == [1]
    assert r["statuses"] == {"Pinned": F(1, 27), "Suppressed": F(1, 27), "Stunned": F(1, 27), "Routed": None}


def test_power_fist_against_legionaries():
    # WS 4 v WS 4: 4+ (1/2).  S 4+4 = 8 v T4: 2+ (5/6).  AP 2 stops SAV 3+.  5/12 per attack, D 2 on W 1:
    # one casualty each, the excess lost (damage 1).  A 2 (AM "A"): casualties binomial(2, 5/12).
    r = hh3_oracle(doc(POWER_FIST, mode="melee", attacker={"A": 2}))
    assert r["unsaved"] == binomial(2, F(5, 12))
    assert r["casualties"] == binomial(2, F(5, 12))
    assert r["damage"] == binomial(2, F(5, 12))
    assert r["statuses"]["Routed"] is None


def test_power_fist_against_two_wound_terminators():
    # T4 W2 SAV 2+ INV 4+: AP 2 stops the 2+, the 4+ invulnerable saves half: 1/2 * 5/6 * 1/2 = 5/24;
    # D 2 kills a W2 model: 2 damage each.
    r = hh3_oracle(doc(POWER_FIST, {"W": 2, "SAV": "2+", "INV": "4+"}, mode="melee", attacker={"A": 2}))
    p = F(5, 24)
    assert r["casualties"] == binomial(2, p)
    assert r["damage"] == [(1 - p) ** 2, 0, 2 * p * (1 - p), 0, p * p]


def test_rending_six_wounds_where_the_table_cannot():
    # S4 v T8: no wound from the table.  Rending (6+): a natural 6 that hits wounds as a 6 (1/6), AP 5 keeps
    # the 3+ save (fails 1/3): 1/18 unsaved.
    r = hh3_oracle(doc({"Special Rules": "Rending (6+)"}, {"T": 8}))
    assert r["hits"] == [F(1, 3), F(2, 3)]
    assert r["wounds"] == [F(5, 6), F(1, 6)]
    assert r["unsaved"] == [F(17, 18), F(1, 18)]


def test_breaching_five_plus():
    # Hit 4/6; wound on 4: normal, save 3+ fails 1/3; on 5-6 Breaching: AP 2, no save.
    # 2/3 * (1/6 * 1/3 + 2/6) = 7/27.
    r = hh3_oracle(doc({"Special Rules": "Breaching (5+)"}))
    assert r["unsaved"] == [F(20, 27), F(7, 27)]


def test_bs7_critical_band_on_two_wound_models():
    # BS 7: 2+ to hit, critical on 5+.  Faces 5-6 (1/3): Critical: wounds unrolled, D 1+1 = 2, SAV 3+ fails
    # 1/3 -> 2 damage (a W2 model dies) 1/9.  Faces 2-4 (1/2): wound 1/2, save fails 1/3 -> 1 damage 1/12.
    r = hh3_oracle(doc(attacker={"BS": 7}, target={"W": 2}))
    assert r["critical_hits"] == [F(2, 3), F(1, 3)]
    assert r["wounds"] == [F(5, 12), F(7, 12)]
    assert r["damage"] == [1 - F(1, 9) - F(1, 12), F(1, 12), F(1, 9)]
    assert r["casualties"] == [F(8, 9), F(1, 9)]


def test_weapon_critical_hit_and_shred_stack():
    # Critical Hit (6+) with Shred (6+), D 1 on a W3 model, no save: a 6 (1/6) is Critical and counts as a
    # natural 6 to wound: D 1 +1 +1 = 3.  Faces 3-5 (1/2) hit; wound 4+ on 4-5 (1/3) D1, on 6 (1/6) Shred D2.
    r = hh3_oracle(doc({"Special Rules": "Critical Hit (6+), Shred (6+)", "AP": "-"}, {"W": 3, "SAV": "-"}))
    assert r["damage"] == [1 - F(1, 6) - F(1, 12) - F(1, 6), F(1, 6), F(1, 12), F(1, 6)]


def test_bs10_automatic_critical_and_snap_row():
    # BS 10: automatic hit and Critical: every die hits.  BS 10 snap: 2+ and no band: 5/6, no criticals.
    # BS 1 snap: no hit possible.
    assert hh3_oracle(doc(attacker={"BS": 10}))["critical_hits"] == [0, 1]
    r = hh3_oracle(doc(attacker={"BS": 10}, snap_shots=True))
    assert r["hits"] == [F(1, 6), F(5, 6)] and r["critical_hits"] == [1]
    assert hh3_oracle(doc(attacker={"BS": 1}, snap_shots=True))["hits"] == [1]


def test_pinning_check_after_a_wound():
    # One die: a wound (saved or not) 4/6 * 3/6 = 1/3 triggers a Cool Check at CL 7 - 1 = 6: fails 21/36.
    # One W1 casualty of 10 is under 25%: no Leadership Check.  P(Pinned) = 1/3 * 21/36 = 7/36.
    r = hh3_oracle(doc({"Special Rules": "Pinning (1)"}))
    assert r["statuses"] == {"Pinned": F(7, 36), "Suppressed": None, "Stunned": None, "Routed": 0}


def test_panic_routs_before_pinning():
    # One target model of CL 7 / LD 7, a bolter with Panic (1) and Suppressive (0), no save.
    # Hit 2/3, then wound 1/2: casualty (unit wiped: no status at all).  Hit and no wound (1/3): only the
    # Suppressive Check at CL 7 (fail 15/36): 1/3 * 15/36 = 5/36.
    r = hh3_oracle(doc({"Special Rules": "Panic (1), Suppressive (0)"}, {"models": 1, "SAV": "-"}))
    assert r["statuses"]["Suppressed"] == F(5, 36)
    assert r["statuses"]["Routed"] == 0
    # Two models: a wound that is saved (INV 2+ fails only on a 1) still triggers Panic at LD 6 (fails 21/36),
    # and a Routed unit takes no other status.
    r = hh3_oracle(doc({"Special Rules": "Panic (1), Suppressive (0)"}, {"models": 2, "SAV": "-", "INV": "2+"}))
    wound = F(1, 3)
    routed_if_wounded = F(21, 36)
    assert r["statuses"]["Routed"] == wound * routed_if_wounded * F(5, 6) + wound * F(1, 6) * routed_if_wounded
    assert r["statuses"]["Suppressed"] == wound * (1 - routed_if_wounded) * F(15, 36) + F(1, 3) * F(15, 36)


def test_deflagrate_makes_one_hit_per_unsaved_wound():
    # No save.  1/3 unsaved (hit 2/3, wound 1/2); its Deflagrate (4) hit wounds T4 on 4+ (1/2).
    r = hh3_oracle(doc({"Special Rules": "Deflagrate (4)", "AP": "-"}, {"models": 2, "SAV": "-"}))
    assert r["unsaved"] == [F(2, 3), F(1, 6), F(1, 6)]
    assert r["casualties"] == [F(2, 3), F(1, 6), F(1, 6)]
    assert r["hits"] == [F(1, 3), F(2, 3)] and r["wounds"] == [F(2, 3), F(1, 3)]


def test_excess_damage_is_lost_and_the_damaged_model_is_finished_first():
    # Two hits at D 2 that wound automatically (BS 10 critical: D 3) on W 2 models: each kills one, 1 lost.
    r = hh3_oracle(doc({"AP": "-"}, {"W": 2, "SAV": "-", "models": 3}, attacker={"BS": 10}, attacks=2))
    assert r["casualties"] == [0, 0, 1] and r["damage"] == [0, 0, 0, 0, 1]
    # D 1 bolter hits (BS 10: critical, D 2) on W 3: the first wound leaves 1 on the model, the second kills
    # it (damage 3, one casualty) instead of starting a fresh model.
    r = hh3_oracle(doc({"AP": "-"}, {"W": 3, "SAV": "-"}, attacker={"BS": 10}, attacks=2))
    assert r["casualties"] == [0, 1] and r["damage"] == [0, 0, 0, 1]


def test_group_order_decides_where_excess_damage_is_lost():
    # Breaching (4+), Shred (6+), no save, W2: a wound roll of 4-5 is a Breaching wound (D 1), a 6 a Breaching
    # and Shred wound (D 2).  Created order: D1 then D2 on one model: it dies, 1 lost (damage 2); largest first:
    # D2 kills, D1 starts the next model (damage 3).  Casualties are the same, the damage is not.
    d = doc({"Special Rules": "Breaching (4+), Shred (6+)", "AP": "-"}, {"W": 2, "models": 2, "SAV": "-"},
            attacker={"BS": 10}, attacks=2)  # fmt: skip
    # BS 10: every hit is Critical (D 1 + 1 + Shred 1 = 3): one group, the order cannot matter.
    a = hh3_oracle(d)
    assert a == hh3_oracle({**d, "options": {"group_order": "largest_damage_first"}})
    d = {**d, "attacker": {"BS": 4}, "attacks": 3}
    a, b = hh3_oracle(d), hh3_oracle({**d, "options": {"group_order": "largest_damage_first"}})
    assert a["casualties"] == b["casualties"] and a["unsaved"] == b["unsaved"]
    assert a["damage"] != b["damage"] and b["damage"][3] > a["damage"][3]


def test_group_order_changes_results_only_through_damage():
    # Rending (4+) and Shred (6+): groups of different Damage on W 2.  Both orders sum to one and keep the
    # same unsaved count; they are allowed to differ in casualties.
    d = doc({"Special Rules": "Rending (4+), Shred (5+)"}, {"W": 2, "models": 2}, attacks=3)
    a = hh3_oracle(d)
    b = hh3_oracle({**d, "options": {"group_order": "largest_damage_first"}})
    assert a["unsaved"] == b["unsaved"]
    assert sum(b["casualties"]) == 1


def test_eternal_warrior_reduces_damage_but_not_below_one():
    # Power fist D 2 against Eternal Warrior (1): 1 damage per unsaved wound on a W2 model: two unsaved wounds
    # are needed for a casualty.  One attack: never a casualty.
    r = hh3_oracle(doc(POWER_FIST, {"W": 2, "rules": ["Eternal Warrior (1)"]}, mode="melee"))
    assert r["casualties"] == [1]
    assert r["damage"] == [F(7, 12), F(5, 12)]
    r = hh3_oracle(doc(POWER_FIST, {"W": 2, "rules": ["Eternal Warrior (3)"]}, mode="melee"))
    assert r["damage"] == [F(7, 12), F(5, 12)]


def test_feel_no_pain_and_shrouded_take_the_best_and_shrouded_only_shooting():
    # No save; FNP (5+) and Shrouded (4+): shooting takes 4+ (saves 1/2): 1/3 * 1/2 = 1/6 unsaved.
    t = {"SAV": "-", "rules": ["Feel No Pain (5+)", "Shrouded (4+)"]}
    assert hh3_oracle(doc({"AP": "-"}, t))["unsaved"] == [F(5, 6), F(1, 6)]
    # Melee, WS 4 v 4 (1/2), S4 v T4 (1/2), FNP 5+ fails 2/3: 1/6.
    r = hh3_oracle(doc({"IM": "I", "AM": "A", "SM": "S", "AP": "-"}, t, mode="melee"))
    assert r["unsaved"] == [F(5, 6), F(1, 6)]


def test_melee_round_power_fist_strikes_last():
    # Sergeant with a power fist (I 4 - 3 = 1) against one Legionary (chainsword-like, I 4): the Legionary
    # strikes first: WS4 v 4 (1/2), S4 v T4 (1/2), SAV 3+ fails 1/3: kills the sergeant 1/12; otherwise the
    # fist strikes: 5/12 kills.  Attacker wins (1 killed, plus 1 for more models) 11/12 * 5/12;
    # target wins 1/12; else both stand, 0-0 points: draw.
    d = doc(
        POWER_FIST,
        {"models": 1},
        attacker={"T": 4, "W": 1, "SAV": "3+", "LD": 8},
        mode="melee",
        target_weapon={"name": "Chainsword", "IM": "I", "AM": "A", "SM": "S", "AP": 5, "D": 1},
    )
    r = hh3_oracle(d)
    assert r["attacker_casualties"] == [F(11, 12), F(1, 12)]
    assert r["casualties"] == [1 - F(11, 12) * F(5, 12), F(11, 12) * F(5, 12)]
    assert r["combat"] == {
        "attacker_wins": F(11, 12) * F(5, 12),
        "target_wins": F(1, 12),
        "draw": F(11, 12) * F(7, 12),
    }


def test_unknown_edition_is_refused():
    with pytest.raises(ValueError):
        hh3_oracle({**doc(), "edition": "hh2"})


# ------------------------------------------------------------------------------------------- two oracles
def tiny_documents():
    """Small generated documents (at most 6 dice in all, or a few hand-picked ones) for the replay oracle."""
    import random

    from hh3_scenarios import generated_shooting, generated_vehicle
    from oracle.hh3.profiles import dice_count, strike, unit
    from oracle.hh3.replay import slots

    bare = {"SAV": "-", "INV": "-", "Cover": "-", "models": 2}
    out = [
        doc({"Special Rules": "Rending (4+), Shred (5+), Breaching (6+)"}, {**bare, "W": 2}, attacker={"BS": 7},
            attacks=3),
        doc({"Special Rules": "Rending (4+), Shred (5+), Breaching (6+)"}, {**bare, "W": 2}, attacker={"BS": 7},
            attacks=3, options={"group_order": "largest_damage_first"}),
        doc({"Special Rules": "Critical Hit (5+), Shred (4+)", "D": 2}, {**bare, "W": 3}, attacks=3),
        doc({"Special Rules": "Deflagrate (4)", "D": 2}, {**bare, "W": 3}, attacks=2),
        doc({"Special Rules": "Deflagrate (5), Breaching (5+)", "AP": 4}, {**bare, "SAV": "3+"}, attacks=1),
        doc({"D": "D3", "AP": "-"}, {**bare, "W": 3, "rules": ["Eternal Warrior (1)"]}, attacks=2),
        doc({"Special Rules": "Poisoned (4+)", "D": 2}, {**bare, "T": 8, "W": 3}, attacks=3),
    ]  # fmt: skip
    rng = random.Random(7)
    while len(out) < 47:
        d = generated_shooting(rng) if len(out) % 3 else generated_vehicle(rng)
        d.get("options", {}).pop("critical_vs_vehicle", None)
        melee = False
        a, t = unit(d["attacker"]), unit(d["target"])
        n = max(dice_count(d["weapon"], a, d, melee=melee))
        if n * len(slots(strike(d["weapon"], a, t, d, melee=melee), t)) <= 6:
            out.append(d)
    return out


HAND_PICKED = 7  # the first tiny documents are chosen by hand (groups, Deflagrate, Eternal Warrior, Poisoned)


@pytest.mark.parametrize(
    "document",
    [
        pytest.param(d, marks=[] if i < HAND_PICKED else [pytest.mark.slow], id=f"tiny{i:02d}")
        for i, d in enumerate(tiny_documents())
    ],
)
def test_staged_enumeration_equals_every_die_at_once(document):
    # The staged oracle (hit dice, then wound dice, then each wound's dice, states merged) against the
    # replay oracle (all dice of the attack over itertools.product, played out with no merging).
    from oracle.hh3.replay import replay_oracle

    staged, replay = hh3_oracle(document), replay_oracle(document)
    pairs = {"hits": "hits", "critical_hits": "crits", "wounds": "wounds", "unsaved": "unsaved",
             "casualties": "casualties", "damage": "damage", "glancing": "glancing",
             "penetrating": "penetrating", "hull_points": "hull_points"}  # fmt: skip
    for key, other in pairs.items():
        if key in staged:
            assert staged[key] == replay[other], key


# ------------------------------------------------------------------------------------------- sequences
def volley(rules="", strength=4, **extra):
    return {"attacker": {"BS": 4}, "weapon": {**BOLTER, "RS": strength, "Special Rules": rules}, "attacks": 1,
            **extra}  # fmt: skip


def sequence(units, **target):
    return {"edition": "hh3", "target": {**LEGIONARIES, "SAV": "-", **target}, "firing_units": units}


def test_one_pinning_check_for_two_attacks_with_the_harshest_modifier():
    # Attack A (Pinning (2)) wounds 1/3 -> Check at CL 5, fails 26/36; else attack B (Pinning (0)) wounds 1/3
    # -> Check at CL 7, fails 15/36.  1/3 * 26/36 + 2/3 * 1/3 * 15/36 = 1/3.
    r = hh3_oracle(sequence([[volley("Pinning (2)")], [volley("Pinning (0)")]]))
    assert r["statuses"]["Pinned"] == F(1, 3)
    assert r["statuses"]["Routed"] == 0  # one casualty per attack of 10 models is under 25%


def test_the_quarter_check_counts_each_attack_from_its_own_start():
    # 4 models: the first attack needs 1 casualty (ceil(4/4)), the second 1 of the 3 left (ceil(3/4)).
    # Each attack kills 1/3: a Check at LD 7 (fails 15/36) unless neither killed: (1 - 4/9) * 15/36 = 25/108.
    r = hh3_oracle(sequence([[volley()], [volley()]], models=4))
    assert r["statuses"]["Routed"] == F(25, 108)
    assert r["casualties"] == [F(4, 9), F(4, 9), F(1, 9)]


def test_the_largest_x_of_an_attack_counts_once_its_rule_is_triggered():
    # Reading: a triggered Check takes the largest X among the attack's weapons with the rule (the rules text:
    # "use only the greatest modifier"), even from a weapon that did not trigger it.  Target T 8, no save.
    # S 1 and S 4 never wound T 8: nothing triggers.
    r = hh3_oracle(sequence([[volley("Pinning (2)", strength=1), volley("Pinning (0)")]], T=8))
    assert r["statuses"]["Pinned"] == 0  # S4 v T8 cannot wound either: nothing triggers
    r = hh3_oracle(sequence([[volley("Pinning (2)", strength=1), volley("Pinning (0)", strength=8)]], T=8))
    # S8 v T8 wounds on 4+: 2/3 * 1/2 = 1/3; Check at CL 5 fails 26/36: 13/54.
    assert r["statuses"]["Pinned"] == F(13, 54)


def test_a_sequence_carries_the_damaged_model():
    # Two attacks of one automatic Critical hit each (BS 10: D 1+1 = 2) on W 3 models, no save: the second
    # finishes the model the first damaged (one casualty, 3 damage) rather than a fresh one.
    r = hh3_oracle(sequence([[volley(attacker={"BS": 10})], [volley(attacker={"BS": 10})]], W=3))
    assert r["casualties"] == [0, 1] and r["damage"] == [0, 0, 0, 1]


def test_multi_melta_in_and_out_of_melta_range():
    # Multi-melta (RS 8, D 3, Melta (8); its Melta trait must not hide the rule's 8) at a Rhino's Front 12, HP 5.
    # Within 8": Armourbane: D6 + 8 >= 12 on 4-6 (1/2); hit 2/3: 1/3 penetrating, D 3 x 2 = 6 wrecks it.
    # At 12": 4 glances (1/6), 5-6 penetrate (1/3): 2/9 penetrating for 3 HP, 1/9 glancing.
    melta = {"name": "Multi-melta", "R": 24, "FP": 1, "RS": 8, "AP": 2, "D": 3,
             "Special Rules": "Heavy (RS), Melta (8)", "Traits": "Melta"}  # fmt: skip
    r = hh3_oracle(doc(melta, RHINO, range=6))
    assert r["wrecked"] == F(1, 3) and r["hull_points"] == [F(2, 3), 0, 0, 0, 0, F(1, 3)]
    r = hh3_oracle(doc(melta, RHINO, range=12))
    assert r["wrecked"] == 0 and r["hull_points"] == [F(7, 9), 0, 0, F(2, 9)]
    assert r["glancing"] == [F(8, 9), F(1, 9)]


#: The two tables as the core rules print them (numbers only; source in tests/fixtures/README.md).
CORE_TABLES = FIXTURES / "hh3_core_tables.md"


def test_tables_match_the_printed_core_rules():
    # The oracle's Weapon Skill table and wound formula against the tables printed in the HH3 core rules.
    lines = CORE_TABLES.read_text(encoding="utf-8").splitlines()
    core = SHARED / "hh3" / "core-rules.md"
    if core.is_file():  # the whole text beside the project: the excerpt is its tables, line for line
        text = core.read_text(encoding="utf-8")
        assert all(line in text for line in lines[2:]), "tests/fixtures/hh3_core_tables.md is not the printed tables"

    def rows(title):
        start = lines.index(title)
        out = []
        for line in lines[start:]:
            if line.startswith("| ") and line[2].isdigit():
                out.append([c.strip() for c in line.strip().strip("|").split("|")])
            elif out:
                break
        return out

    ws, wt = rows("**Weapon Skill Table**"), rows("**Wound Test Table**")
    assert len(ws) == len(wt) == 10
    for c in ws:
        assert [int(x[0]) for x in c[1:]] == WS_TABLE[int(c[0])]
    for c in wt:
        assert [None if x == "-" else int(x[0]) for x in c[1:]] == [wound_need(int(c[0]), t) for t in range(1, 11)]


def test_overload_misfires_hit_the_firer():
    # Overload (1): a natural 1 (1/6) is a Misfire, whatever the hit; a bolter hit on the firer (one model,
    # T4, SAV 3+): wound 4+ (1/2), save fails 1/3: 1/36 casualty.  The target's dice do not change.
    r = hh3_oracle(doc({"Special Rules": "Overload (1)"}, attacker={"T": 4, "W": 1, "SAV": "3+"}))
    (m,) = r["misfires"]
    assert m["hits"] == [F(5, 6), F(1, 6)]
    assert m["casualties"] == [F(35, 36), F(1, 36)]
    assert r["unsaved"] == hh3_oracle(doc())["unsaved"]
    # BS 1 snap shots roll no die: no Misfire at all.
    r = hh3_oracle(doc({"Special Rules": "Overload (1)"}, attacker={"BS": 1}, snap_shots=True))
    assert r["misfires"][0]["hits"] == [1]


def test_given_hits_roll_no_hit_die():
    # A marker's hits given as 2: both are hits (no natural-1 miss), no Critical; S4 v T4 4+, SAV 3+ v AP 5.
    r = hh3_oracle(doc({"Special Rules": "Blast (3)"}, hits=2))
    assert r["hits"] == [0, 0, 1] and r["critical_hits"] == [1]
    assert r["unsaved"] == binomial(2, F(1, 6))


def test_a_template_rolls_its_firepower_dice_for_misfires():
    # Template, Overload (2), FP 1, given hits: one die for the Misfire, a 1-2 (1/3); the firer (T4, SAV 3+):
    # wound 1/2, save fails 1/3: 1/18 casualty.
    r = hh3_oracle(doc({"Special Rules": "Template, Overload (2)", "R": "Template"}, attacker={"SAV": "3+"}, hits=2))
    (m,) = r["misfires"]
    assert m["hits"] == [F(2, 3), F(1, 3)]
    assert m["casualties"] == [F(17, 18), F(1, 18)]
