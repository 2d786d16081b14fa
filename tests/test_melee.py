"""A whole round of melee (praetor_analysis.melee.combat): pinned values, attack counts, weapon choice, invariants
and the `praetor calc` form. The die-by-die oracle is in test_melee_bruteforce.py."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest
from scipy.stats import binom

from praetor_analysis.melee.combat import Side, plan_blows, resolve_combat
from praetor_analysis.profiles.records import Weapon, unit_from_mapping
from praetor_analysis.scenario.calc import ScenarioError, calc
from praetor_analysis.scenario.melee_round import handle_scenario

# Profiles as shipped in data/weapons.csv and data/units.csv (2022 - Legiones Astartes).
CHAINSWORD = {"name": "Chainsword", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee, Shred"}
POWER_FIST = {
    "name": "Power Fist",
    "Range": "-",
    "Strength": "x2",
    "AP": "2",
    "Type": "Melee, Unwieldy, Specialist Weapon",
}
LEGIONARIES = {
    "name": "Legionaries",
    "Unit Type": "Infantry (Line)",
    "models": 10,
    "WS": 4,
    "BS": 4,
    "S": 4,
    "T": 4,
    "W": 1,
    "I": 4,
    "A": 1,
    "Ld": 7,
    "Save": "3+",
}
CATAPHRACTII = {
    "name": "Cataphractii",
    "Unit Type": "Infantry (Heavy)",
    "models": 5,
    "WS": 4,
    "BS": 4,
    "S": 4,
    "T": 4,
    "W": 2,
    "I": 4,
    "A": 2,
    "Ld": 7,
    "Save": "2+",
    "Invulnerable": "4+",
}


def W(**kw) -> Weapon:
    base = {"name": "w", "Strength": "User", "AP": "-", "Type": "Melee"}
    base.update(kw)
    return Weapon.from_mapping(base)


def U(**kw):
    base = {"models": 1, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, "Save": "3+"}
    base.update(kw)
    return unit_from_mapping(base, field_name="unit")


def scenario(**kw) -> dict:
    out = {
        "mode": "melee",
        "attacker": dict(LEGIONARIES, charging=True),
        "weapon": CHAINSWORD,
        "target": CATAPHRACTII,
        "target_weapon": POWER_FIST,
    }
    out.update(kw)
    return out


# --- pinned values -------------------------------------------------------------------------------
def test_one_on_one_attacker_first_hand_worked() -> None:
    """Hand-worked: one blow kills with 1/2 * 1/2 * 1/3 = 1/12; the faster side strikes first."""
    p = Fraction(1, 12)
    r = resolve_combat(Side(U(I=5), (W(),)), Side(U(), (W(),)))
    assert r.target_casualties.pmf(1) == pytest.approx(float(p), abs=1e-15)
    assert r.attacker_casualties.pmf(1) == pytest.approx(float((1 - p) * p), abs=1e-15)
    assert r.attacker_wins == pytest.approx(float(p), abs=1e-15)
    assert r.target_wins == pytest.approx(float((1 - p) * p), abs=1e-15)
    assert r.draw == pytest.approx(float((1 - p) ** 2), abs=1e-15)


def test_one_on_one_simultaneous_hand_worked() -> None:
    """Hand-worked: at the same Initiative both blows land independently; both dying is a draw."""
    p = 1 / 12
    r = resolve_combat(Side(U(), (W(),)), Side(U(), (W(),)))
    np.testing.assert_allclose(r.joint, [[(1 - p) ** 2, p * (1 - p)], [p * (1 - p), p * p]], atol=1e-15)
    assert r.draw == pytest.approx((1 - p) ** 2 + p * p, abs=1e-15)


def test_legionaries_charge_cataphractii_closed_form() -> None:
    """Hand-worked with scipy.stats.binom: 10 charging Legionaries (20 blows at I4, each unsaved with
    1/2 (4+ to hit) * 3/4 (4+ to wound, Shred) * 1/6 (2+ save) = 1/16) against 5 Cataphractii (W2),
    who then strike at I1 (Unwieldy): 2 blows per survivor, each killing with 1/2 * 5/6 (S8, Instant Death,
    AP2 beats 3+) = 5/12. Wounds caused: min(U, 10) against the Legionaries' kills."""
    u = np.arange(21)
    pu = binom.pmf(u, 20, 1 / 16)
    kills = np.minimum(u // 2, 5)
    mean_t = float(pu @ kills)
    mean_a = float(pu @ (2 * (5 - kills) * 5 / 12))
    att_wins = float(sum(pu[i] * binom.cdf(min(i, 10) - 1, 2 * (5 - kills[i]), 5 / 12) for i in u))
    draw = float(sum(pu[i] * binom.pmf(min(i, 10), 2 * (5 - kills[i]), 5 / 12) for i in u))
    r = calc(scenario())
    assert r["casualties"]["mean"] == pytest.approx(mean_t, abs=1e-12)
    assert r["attacker_casualties"]["mean"] == pytest.approx(mean_a, abs=1e-12)
    assert r["combat"]["attacker_wins"] == pytest.approx(att_wins, abs=1e-12)
    assert r["combat"]["draw"] == pytest.approx(draw, abs=1e-12)
    assert r["initiative"] == {"attacker": 4, "target": 1}
    # pinned for the report (same numbers, rounded)
    assert round(mean_t, 4) == 0.3923 and round(mean_a, 4) == 3.8397
    assert round(att_wins, 4) == 0.0761 and round(1 - att_wins - draw, 4) == 0.8365


# --- attack counts and Initiative ----------------------------------------------------------------
@pytest.mark.parametrize(
    "weapon,second,two,charging,disordered,want",
    [
        (W(), None, False, False, False, 1),
        (W(), None, False, True, False, 2),
        (W(), None, False, True, True, 1),  # Disordered Charge
        (W(), None, True, True, False, 3),
        (W(Type="Melee, Two-handed"), None, True, False, False, 1),
        (W(Type="Melee, Specialist Weapon"), None, True, False, False, 2),  # a pair of Specialist Weapons
        (W(Type="Melee, Specialist Weapon"), W(), False, False, False, 1),  # Specialist with a plain weapon
        # MECHANICS section 9: a Specialist Weapon gives the bonus only when both weapons have it, and a
        # Two-handed weapon never does, whichever of the two is the one struck with (A 1, no bonus: 1)
        (W(), W(Type="Melee, Specialist Weapon"), False, False, False, 1),  # plain weapon used: still no bonus
        (W(), W(Type="Melee, Two-handed"), False, False, False, 1),  # the second weapon is Two-handed
        (W(Type="Melee, Two-handed"), W(), False, False, False, 1),
        (W(), W(), False, False, False, 2),  # two plain weapons: A 1 + 1
        (W(Type="Melee, Specialist Weapon"), W(Type="Melee, Specialist Weapon, Reach (1)"), False, False, False, 2),
    ],
)
def test_attacks_per_model(weapon, second, two, charging, disordered, want) -> None:
    side = Side(U(two_weapons=two, charging=charging, disordered=disordered), (weapon,), second)
    assert plan_blows(side, weapon, U()).attacks == want


def test_initiative_reach_unwieldy() -> None:
    reach1, reach2 = W(Type="Melee, Reach (1)"), W(Type="Melee, Reach (2)")
    assert plan_blows(Side(U(I=4), (reach1,)), reach1, U()).initiative == 5
    # claiming the second-weapon bonus: the higher Reach only, never the sum
    assert plan_blows(Side(U(I=4), (reach1,), reach2), reach1, U()).initiative == 6
    th = W(Type="Melee, Reach (1), Two-handed")
    assert plan_blows(Side(U(I=4), (th,), reach2), th, U()).initiative == 5
    fist = W(Strength="x2", AP=2, Type="Melee, Unwieldy")
    assert plan_blows(Side(U(I=4), (fist,)), fist, U()).initiative == 1
    assert plan_blows(Side(U(I=4, **{"Unit Type": "Dreadnought"}), (fist,)), fist, U()).initiative == 4
    assert plan_blows(Side(U(I=4, **{"Unit Type": "Infantry (Monstrous)"}), (fist,)), fist, U()).initiative == 4


def test_casualties_remove_later_attacks() -> None:
    """The slower side's blows are a mixture over its survivors: never more than if it struck first."""
    killer = W(Strength="x2", AP=2)
    slow = resolve_combat(Side(U(models=3, I=5, A=2), (killer,)), Side(U(models=3, I=3), (W(),)))
    fast = resolve_combat(Side(U(models=3, I=3, A=2), (killer,)), Side(U(models=3, I=5), (W(),)))
    assert slow.target_strikes.attacks.mean() < 3
    assert fast.target_strikes.attacks.mean() == 3
    assert slow.attacker_casualties.mean() < fast.attacker_casualties.mean()


def test_rampage_counts_bulky_and_rolls_once() -> None:
    ramp = W(Type="Melee, Rampage (D3)")
    side = Side(U(models=2, W=2), (ramp,))
    b = plan_blows(side, ramp, U(models=3))
    assert b.rampage is not None and b.rampage.mean() == 2
    assert plan_blows(Side(U(models=2, rules=["Bulky (2)"]), (ramp,)), ramp, U(models=3)).rampage is None
    # one roll for both models: 2 * (1 + r) blows, r in 1..3, never an odd total
    r = resolve_combat(side, Side(U(models=3, I=1), (W(),)))
    pmf = r.attacker_strikes.attacks.probabilities
    np.testing.assert_allclose(pmf[[4, 6, 8]], [1 / 3] * 3, atol=1e-15)
    assert pmf.sum() == pytest.approx(1.0)


def test_reaping_blow_follows_enemy_models_left() -> None:
    reap = W(Type="Melee, Reaping Blow (2)")
    one = resolve_combat(Side(U(I=2, W=3), (reap,)), Side(U(models=1), (W(),)))
    two = resolve_combat(Side(U(I=2, W=3), (reap,)), Side(U(models=2), (W(),)))
    assert one.attacker_strikes.attacks.mean() == 1
    assert two.attacker_strikes.attacks.mean() == 3
    assert "Reaping Blow (2)" in two.applied and "Reaping Blow (2)" in one.no_effect


def test_concussive_reported_not_applied_this_round() -> None:
    conc = W(Type="Melee, Concussive (2)")
    r = resolve_combat(Side(U(models=2, I=5), (conc,)), Side(U(models=2, Ld=7), (W(),)))
    plain = resolve_combat(Side(U(models=2, I=5), (W(),)), Side(U(models=2, Ld=7), (W(),)))
    np.testing.assert_allclose(r.joint, plain.joint, atol=1e-15)  # no effect on this round's To Hit
    assert 0 < r.target_concussed < 1 and r.attacker_concussed == 0.0


@pytest.mark.parametrize("unit_type", ["Primarch", "Infantry (Gargantuan)"])
def test_concussive_cannot_lower_a_primarch_or_gargantuan(unit_type) -> None:
    # The Primarch unit type and the Gargantuan sub-type (unit-type rules of the game system file): not
    # affected by rules that lower characteristics, so Concussive's failed test never happens on them.
    conc = W(Type="Melee, Concussive (2)")
    big = {"models": 1, "W": 6, "Ld": 7, "Unit Type": unit_type}
    infantry = {**big, "Unit Type": "Infantry"}
    r = resolve_combat(Side(U(models=3, I=5), (conc,)), Side(U(**big), (W(),)))
    plain = resolve_combat(Side(U(models=3, I=5), (W(),)), Side(U(**big), (W(),)))
    control = resolve_combat(Side(U(models=3, I=5), (conc,)), Side(U(**infantry), (W(),)))
    assert control.target_concussed > 0.05  # the same statline as Infantry is concussed
    assert r.target_concussed == 0.0
    np.testing.assert_allclose(r.joint, plain.joint, atol=1e-15)
    assert "Concussive (2)" in r.no_effect and "Concussive (2)" not in r.applied
    word = unit_type.split("(")[-1].rstrip(")")
    assert f"target: not affected by lowered characteristics (from {word}): never concussed" in r.applied
    # and the other way round: the target's Concussive blows against a Primarch attacker
    back = resolve_combat(Side(U(**big, I=1), (W(),)), Side(U(models=3, I=5), (conc,)))
    assert back.attacker_concussed == 0.0 and "target_weapon: Concussive (2)" in back.no_effect


# --- weapon choice --------------------------------------------------------------------------------
TRANSMUTATIVE = [
    W(name="Hammerblade", Strength="8", AP=2, Type="Melee, Murderous Strike (6+), Brutal (2), Two-handed"),
    W(name="Spinelash", Strength="5", AP=4, Type="Melee, Reach (2), Breaching (6+), Two-handed"),
    W(name="Talon-rakes", Strength="4", AP=5, Type="Melee, Shred, Rending (6+), Rampage (2), Specialist Weapon"),
]


def test_weapon_choice_is_the_best_response() -> None:
    assassin = Side(U(WS=7, S=4, T=4, W=3, I=7, A=4, Save="4+", Invulnerable="4+"), tuple(TRANSMUTATIVE))
    for enemy in (
        Side(U(models=5, W=2, Save="2+", I=4, A=2), (W(Strength="x2", AP=2, Type="Melee, Unwieldy"),)),
        Side(U(models=10, I=4, A=1), (W(Type="Melee, Shred"),)),
    ):
        best = resolve_combat(assassin, enemy)
        fixed = [resolve_combat(assassin, enemy, attacker_choice=k) for k in range(3)]
        kills = [f.target_casualties.mean() for f in fixed]
        assert best.attacker_strikes.weapon.name == TRANSMUTATIVE[int(np.argmax(kills))].name
        assert best.target_casualties.mean() == pytest.approx(max(kills), abs=1e-12)


# --- invariants -------------------------------------------------------------------------------------
def test_invariants_and_marginals() -> None:
    r = resolve_combat(
        Side(U(models=4, W=2, A=2, charging=True), (W(Type="Melee, Rending (5+)"),)),
        Side(U(models=3, W=3, I=3, A=3, Save="2+"), (W(Strength="+2", AP=3),)),
    )
    assert r.joint.sum() == pytest.approx(1.0, abs=1e-12)
    assert r.attacker_wins + r.target_wins + r.draw == pytest.approx(1.0, abs=1e-12)
    np.testing.assert_allclose(r.joint.sum(axis=1), r.attacker_casualties.probabilities, atol=1e-15)
    # wounds caused never exceed the unsaved wounds (overflow is lost)
    assert r.attacker_wounds.mean() <= r.attacker_strikes.unsaved.mean() + 1e-12
    assert r.target_wounds.max <= 4 * 2


def test_more_attacks_never_hurt() -> None:
    base = [resolve_combat(Side(U(models=3, A=a, I=5), (W(),)), Side(U(models=3), (W(),))) for a in (1, 2, 3)]
    wins = [b.attacker_wins for b in base]
    suffered = [b.attacker_casualties.mean() for b in base]
    assert wins == sorted(wins)
    assert suffered == sorted(suffered, reverse=True)


# --- `praetor calc` ---------------------------------------------------------------------------------
def test_round_only_with_target_weapon() -> None:
    assert handle_scenario({"mode": "melee", "weapon": CHAINSWORD}) is None


def test_calc_result_form() -> None:
    r = calc(scenario())
    for key in ("hits", "wounds", "unsaved", "casualties", "attacker_casualties"):
        assert abs(sum(r[key]["pmf"]) - 1) < 1e-12
    assert set(r["combat"]) == {"attacker_wins", "target_wins", "draw"}
    assert sum(r["combat"].values()) == pytest.approx(1.0, abs=1e-12)
    assert r["hits"]["mean"] == pytest.approx(10.0)  # 20 blows at 4+
    assert "Shred" in r["applied"] and "target_weapon: Unwieldy" in r["applied"]
    assert "attacker: charging (+1 A)" in r["applied"]
    assert r["not_modelled"] == []
    json.dumps(r)


def test_calc_weapon_lists_and_second_weapon() -> None:
    pair = dict(CHAINSWORD, name="Lightning Claw", AP="3", Type="Melee, Shred, Rending (6+), Specialist Weapon")
    # a claw with a chainsword in the other hand: no +1 A with the claw (Specialist), +1 with the chainsword
    r = calc(scenario(attacker=dict(LEGIONARIES, second_weapon=CHAINSWORD), weapon=[pair]))
    assert r["attacks"]["mean"] == 10.0
    r = calc(scenario(attacker=dict(LEGIONARIES, second_weapon=CHAINSWORD), weapon=[pair, CHAINSWORD]))
    assert r["weapons"]["attacker"] == "Chainsword" and r["attacks"]["mean"] == 20.0
    # a pair of claws: both Specialist Weapons, so the bonus stands
    r = calc(scenario(attacker=dict(LEGIONARIES, two_weapons=True), weapon=pair))
    assert r["attacks"]["mean"] == 20.0


def test_unmodelled_rules_are_reported() -> None:
    r = calc(scenario(attacker=dict(LEGIONARIES, rules=["Furious Charge (1)"])))
    assert "attacker: Furious Charge (1)" in r["not_modelled"]


@pytest.mark.parametrize(
    "change,field",
    [
        ({"attacks": 5}, "attacks"),
        ({"attacker": {k: v for k, v in LEGIONARIES.items() if k != "I"}}, "attacker.I"),
        ({"target": dict(CATAPHRACTII, W=0)}, "target.W"),
        ({"target_weapon": dict(POWER_FIST, Type="Heavy 2")}, "target_weapon.Type"),
        ({"weapon": []}, "weapon"),
        ({"attacker": dict(LEGIONARIES, charging="yes")}, "attacker.charging"),
        ({"target": dict(CATAPHRACTII, **{"Unit Type": "Vehicle"})}, "target.Unit Type"),
    ],
)
def test_calc_bad_input_names_the_field(change: dict, field: str) -> None:
    with pytest.raises(ScenarioError, match=field.replace(".", r"\.")):
        calc(scenario(**change))
