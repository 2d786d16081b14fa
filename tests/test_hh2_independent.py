"""Independent checks of `praetor calc` (2nd edition) against a brute-force reading of MECHANICS.md.

The expectations come from ``tests/hh2_brute.py``, written from MECHANICS.md and SCENARIO.md alone (every die
enumerated, exact fractions); every field the result document returns for the case is compared at 1e-12.
Vehicles and markers: ``test_hh2_independent_space.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest

from praetor_analysis.scenario.calc import calc, calc_many
from tests import hh2_brute as b
from tests.hh2_docs import (
    DF,
    F1,
    TG,
    TOL,
    WD,
    S,
    assert_close,
    check_case,
    check_many,
    infantry,
    melee,
    merged,
    same_dist,
    same_unit,
    shoot,
    unit_case,
    weapon,
)


def cases() -> dict[str, tuple[Any, ...]]:
    """Scenario name -> (kind, document, brute-force expectation, pinned)."""
    sv3 = DF(save=3)
    c: dict[str, tuple[Any, ...]] = {}
    # section 2: To Hit
    c["basic"] = unit_case(
        shoot(weapon(4, 5, "Assault 2"), infantry()), b.attack(F1(2), S(4), WD(4, 4, 5), TG(10, 1, sv3))
    )
    c["bs7_reroll"] = unit_case(
        shoot(weapon(4, 5, "Assault 2"), infantry(), bs=7), b.attack(F1(2), S(7), WD(4, 4, 5), TG(10, 1, sv3))
    )
    c["bs6_twin"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Twin-linked"), infantry(), bs=6),
        b.attack(F1(2), S(6, twin_linked=True), WD(4, 4, 5), TG(10, 1, sv3)),
    )
    c["bs3_twin"] = unit_case(
        shoot(weapon(5, 4, "Heavy 3, Twin-linked"), infantry(save="4+"), bs=3),
        b.attack(F1(3), S(3, twin_linked=True), WD(5, 4, 4), TG(10, 1, DF(save=4))),
    )
    c["snap"] = unit_case(
        shoot(weapon(4, 5, "Heavy 2"), infantry(), snap_shots=True),
        b.attack(F1(2), S(4, snap=True), WD(4, 4, 5), TG(10, 1, sv3)),
    )
    c["precision"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Precision Shots (6+)"), infantry()),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(10, 1, sv3)),
    )
    c["dice_attacks"] = unit_case(
        shoot(weapon(4, 5, "Assault 1"), infantry(), attacks="D3"),
        b.attack(b.d3_shots(), S(4), WD(4, 4, 5), TG(10, 1, sv3)),
    )
    # section 3: To Wound
    c["rending"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Rending (6+)"), infantry()),
        b.attack(F1(2), S(4), WD(4, 4, 5, rending=6), TG(10, 1, sv3)),
    )
    c["rending_vs_t8"] = unit_case(
        shoot(weapon(3, "-", "Assault 2, Rending (5+)"), infantry(t=8, w=2)),
        b.attack(F1(2), S(4), WD(3, 8, None, rending=5), TG(10, 2, sv3)),
    )
    c["shred_rending"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Shred, Rending (6+)"), infantry()),
        b.attack(F1(2), S(4), WD(4, 4, 5, rending=6, shred=True), TG(10, 1, sv3)),
    )
    c["poisoned"] = unit_case(
        shoot(weapon(3, 5, "Assault 2, Poisoned (3+)"), infantry(t=6)),
        b.attack(F1(2), S(4), WD(3, 6, 5, poisoned=3), TG(10, 1, sv3)),
    )
    c["poisoned_table_better"] = unit_case(
        shoot(weapon(6, 5, "Assault 2, Poisoned"), infantry(t=3)),
        b.attack(F1(2), S(4), WD(6, 3, 5, poisoned=4), TG(10, 1, sv3)),
    )
    c["fleshbane"] = unit_case(
        shoot(weapon(3, 5, "Assault 2, Fleshbane"), infantry(t=5)),
        b.attack(F1(2), S(4), WD(3, 5, 5, fleshbane=True), TG(10, 1, sv3)),
    )
    c["breaching"] = unit_case(
        shoot(weapon(4, 5, "Assault 3, Breaching (5+)"), infantry(w=2)),
        b.attack(F1(3), S(4), WD(4, 4, 5, breaching=5), TG(10, 2, sv3)),
    )
    c["gets_hot"] = unit_case(
        shoot(weapon(7, 2, "Heavy 2, Gets Hot"), infantry()),
        b.attack(F1(2), S(4, gets_hot=True), WD(7, 4, 2), TG(10, 1, sv3)),
    )
    # section 4: saves and mitigation
    c["fnp"] = unit_case(
        shoot(weapon(5, 3, "Assault 2"), infantry(rules=["Feel No Pain (5+)"])),
        b.attack(F1(2), S(4), WD(5, 4, 3), TG(10, 1, DF(save=3, fnp=5))),
    )
    c["cover_vs_ap"] = unit_case(
        shoot(weapon(4, 3, "Assault 2"), infantry(Cover="4+")),
        b.attack(F1(2), S(4), WD(4, 4, 3), TG(10, 1, DF(save=3, cover=4))),
    )
    c["ignores_cover"] = unit_case(
        shoot(weapon(4, 3, "Assault 2, Ignores Cover"), infantry(Cover="4+")),
        b.attack(F1(2), S(4), WD(4, 4, 3), TG(10, 1, sv3)),
    )
    c["invulnerable"] = unit_case(
        shoot(weapon(8, 2, "Heavy 2"), infantry(w=3, Invulnerable="4+")),
        b.attack(F1(2), S(4), WD(8, 4, 2), TG(10, 3, DF(save=2, invulnerable=4))),
    )
    c["shrouded"] = unit_case(
        shoot(weapon(4, 5, "Assault 2"), infantry(rules=["Shrouded (5+)"])),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(10, 1, DF(save=3, shrouded=5))),
    )
    c["shrouded_fearless"] = unit_case(
        shoot(weapon(4, 5, "Assault 2"), infantry(rules=["Shrouded (5+)", "Fearless"])),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(10, 1, sv3)),
    )
    c["heavy_blast"] = unit_case(
        shoot(weapon(4, 4, 'Heavy 1, Blast (3")'), infantry(**{"Unit Type": "Infantry (Heavy)"}), hits=2),
        b.attack(F1(2), S(no_hit_roll=True), WD(4, 4, 4), TG(10, 1, DF(save=3, heavy_reroll=True))),
    )
    c["template_cover"] = unit_case(
        shoot(weapon(4, 5, "Assault 1, Template"), infantry(save="4+", Cover="3+"), hits="D3"),
        b.attack(b.d3_shots(), S(no_hit_roll=True), WD(4, 4, 5), TG(10, 1, DF(save=4))),
    )
    # section 5: damage and casualties
    c["multi_wound"] = unit_case(
        shoot(weapon(5, 4, "Heavy 3"), infantry(models=2, w=2)), b.attack(F1(3), S(4), WD(5, 4, 4), TG(2, 2, sv3))
    )
    c["instant_death"] = unit_case(
        shoot(weapon(8, 2, "Heavy 2"), infantry(models=3, w=2, Invulnerable="5+")),
        b.attack(F1(2), S(4), WD(8, 4, 2), TG(3, 2, DF(save=3, invulnerable=5))),
    )
    c["eternal_warrior"] = unit_case(
        shoot(weapon(8, 2, "Heavy 3"), infantry(models=2, w=2, rules=["Eternal Warrior", "Feel No Pain (5+)"])),
        b.attack(F1(3), S(4), WD(8, 4, 2), TG(2, 2, DF(save=3, fnp=5, eternal_warrior=True))),
    )
    c["id_mixed_order"] = unit_case(
        shoot(weapon(4, 5, "Assault 3, Murderous Strike (6+)"), infantry(models=2, w=3, rules=["Feel No Pain (6+)"])),
        b.attack(F1(3), S(4), WD(4, 4, 5, murderous=6), TG(2, 3, DF(save=3, fnp=6))),
    )
    c["brutal"] = unit_case(
        shoot(weapon(5, 3, "Heavy 2, Brutal (2)"), infantry(models=2, w=3, save="4+")),
        b.attack(F1(2), S(4), WD(5, 4, 3), TG(2, 3, DF(save=4)), brutal=2),
    )
    c["destroyer_infantry"] = unit_case(
        shoot(weapon(6, 3, "Heavy 2, Destroyer"), infantry(models=2, w=3)),
        b.attack(F1(2), S(4), WD(6, 4, 3), TG(2, 3, DF(save=3)), destroyer=True),
    )
    # section 7: morale
    c["pinning"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Pinning, Shell Shock (1)"), infantry(models=2)),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(2, 1, sv3), pinning=True, shell_shock=1),
    )
    c["pinning_stubborn"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Pinning, Shell Shock (2)"), infantry(models=1, w=2, rules=["Stubborn"])),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(1, 2, sv3, stubborn=True), pinning=True, shell_shock=2),
    )
    c["pinning_fearless"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Pinning"), infantry(rules=["Fearless"])),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(10, 1, sv3)),
        pinned=None,
    )
    c["pinning_dreadnought"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Pinning"), infantry(**{"Unit Type": "Dreadnought"})),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(10, 1, sv3)),
        pinned=None,
    )
    return c


CASES = cases()


def test_gets_hot_wounds_on_the_firer() -> None:
    """Gets Hot: the firer's own unsaved wounds (armour at the weapon's AP), one per natural 1 that stands."""
    doc = shoot(weapon(7, 4, "Heavy 2, Gets Hot"), infantry())
    doc["attacker"].update({"Save": "3+", "T": 4, "W": 1})
    hot = b.hit_outcomes(S(4, gets_hot=True))[2] * b.p_unsaved(b.Wound(4, False), DF(save=3))
    want = {k: Fraction(math.comb(2, k)) * hot**k * (1 - hot) ** (2 - k) for k in range(3)}
    same_dist(calc(doc)["gets_hot"], want, "gets_hot")


def more_cases() -> dict[str, tuple[Any, ...]]:
    sv3 = DF(save=3)
    c: dict[str, tuple[Any, ...]] = {}
    # section 9 / 2: melee chart, charge and two weapons
    c["melee_ws5_charge"] = unit_case(
        melee(weapon("User", 5, "Melee"), infantry(), WS=5, A=2, charging=True),
        b.attack(F1(3), S(melee_need=3), WD(4, 4, 5, melee=True), TG(10, 1, sv3)),
    )
    c["melee_2plus_id"] = unit_case(
        melee(weapon("+2", 4, "Melee"), infantry(models=2, t=3, w=2, WS=4), WS=9, A=2, two_weapons=True),
        b.attack(F1(3), S(melee_need=2), WD(6, 3, 4, melee=True), TG(2, 2, sv3)),
    )
    c["melee_5plus_poison"] = unit_case(
        melee(weapon(5, "-", "Melee, Poisoned (4+)"), infantry(WS=7, Cover="4+", rules=["Shrouded (5+)"]), WS=3, A=3),
        b.attack(F1(3), S(melee_need=5), WD(5, 4, None, poisoned=4, melee=True), TG(10, 1, sv3)),
    )
    c["melee_rending_keeps_ap"] = unit_case(
        melee(weapon("User", 1, "Melee, Rending (5+), Murderous Strike (6+)"), infantry(models=2, w=2), A=3),
        b.attack(F1(3), S(melee_need=4), WD(4, 4, 1, rending=5, murderous=6, melee=True), TG(2, 2, sv3)),
    )
    # section 5: Deflagrate; section 2: Master-crafted; default shots
    c["deflagrate"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Deflagrate"), infantry(save="4+")),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(10, 1, DF(save=4)), deflagrate=True),
    )
    mc = shoot(weapon(4, 5, "Heavy 2, Master-crafted"), infantry())
    mc["attacker"]["models"] = 2
    c["master_crafted"] = unit_case(
        mc, b.attack([], S(4), WD(4, 4, 5), TG(10, 1, sv3), hits_given=b.master_crafted_hits(4, 2, 2))
    )
    rf = shoot(weapon(4, 5, "Rapid Fire"), infantry())
    rf["attacker"]["models"] = 3
    c["rapid_fire_default"] = unit_case(rf, b.attack(F1(3), S(4), WD(4, 4, 5), TG(10, 1, sv3)))
    # section 4b: unit types
    c["armourbane_dreadnought"] = unit_case(
        shoot(
            weapon(6, 2, "Assault 2, Armourbane"),
            infantry(models=1, t=7, w=4, save="2+", **{"Unit Type": "Dreadnought"}),
        ),
        b.attack(F1(2), S(4), WD(6, 7, 2, shred=True), TG(1, 4, DF(save=2))),
    )
    return c


CASES_MORE = more_cases()


def round_case(capped: bool, a_i: int = 5, t_i: int = 3, t_models: int = 2) -> tuple[dict[str, Any], b.RoundResult]:
    doc = {
        "mode": "melee",
        "attacker": {"WS": 4, "S": 4, "I": a_i, "A": 2, "models": 1, "T": 4, "W": 1, "Save": "3+"},
        "weapon": {"name": "Sword", "Strength": "User", "AP": "3", "Type": "Melee"},
        "target_weapon": {"name": "Axe", "Strength": "+1", "AP": "2", "Type": "Melee"},
        "target": infantry(models=t_models, save="4+", S=4, A=1, I=t_i),
    }

    def mine(m: int) -> b.Result:
        return b.attack(F1(2 * m), S(melee_need=4), WD(4, 4, 3, melee=True), TG(t_models, 1, DF(save=4)))

    def theirs(m: int) -> b.Result:
        return b.attack(F1(m), S(melee_need=4), WD(5, 4, 2, melee=True), TG(1, 1, DF(save=3)))

    return doc, b.melee_round(mine, theirs, 1, t_models, a_i, t_i, capped=capped)


@pytest.mark.parametrize(("a_i", "t_i", "t_models"), [(5, 3, 2), (4, 4, 2), (3, 5, 1)])
def test_melee_round_matches_brute_force(a_i: int, t_i: int, t_models: int) -> None:
    """A whole round: Initiative order, dead models do not strike; the winner caused more unsaved wounds."""
    doc, want = round_case(False, a_i, t_i, t_models)
    got = calc(doc)
    if a_i >= t_i:
        same_unit(got, want.first)
    same_dist(got["attacker_casualties"], want.attacker_casualties, "attacker_casualties")
    combat = got["combat"]
    for key, value in (("attacker_wins", want.attacker_wins), ("target_wins", want.target_wins), ("draw", want.draw)):
        assert math.isclose(combat[key], float(value), abs_tol=TOL), (key, combat[key], float(value))


def types_and_more() -> dict[str, tuple[Any, ...]]:
    sv3 = DF(save=3)
    c: dict[str, tuple[Any, ...]] = {}
    # section 4b: unit types
    dread = {"Unit Type": "Dreadnought"}
    c["dreadnought_fleshbane"] = unit_case(
        shoot(weapon(3, 5, "Assault 2, Fleshbane"), infantry(models=2, t=7, w=2, **dread)),
        b.attack(F1(2), S(4), WD(3, 7, 5, fleshbane=True, reroll_success=True), TG(2, 2, sv3)),
    )
    # the table (2+) is better than Poisoned (4+): the attack still has Poisoned, so the success is re-rolled
    c["dreadnought_poisoned_table"] = unit_case(
        shoot(weapon(6, 5, "Assault 2, Poisoned (4+)"), infantry(models=2, t=4, w=2, **dread)),
        b.attack(F1(2), S(4), WD(6, 4, 5, poisoned=4, reroll_success=True), TG(2, 2, sv3)),
    )
    c["mechanised_poisoned"] = unit_case(
        shoot(
            weapon(3, 5, "Assault 2, Poisoned (4+), Pinning"),
            infantry(models=2, t=6, w=2, **{"Unit Type": "Infantry (Mechanised)"}),
        ),
        b.attack(F1(2), S(4), WD(3, 6, 5, poisoned=4, reroll_success=True), TG(2, 2, sv3), pinning=True),
    )
    c["pinning_inexorable"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Pinning, Shell Shock (2)"), infantry(models=2, rules=["Inexorable"])),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(2, 1, sv3, stubborn=True), pinning=True, shell_shock=2),
    )
    for ut in ("Cavalry", "Infantry (Daemon)", "Primarch", "Infantry (Monstrous)"):
        ew = ut == "Primarch"
        c[f"pinning_exempt_{ut}"] = unit_case(
            shoot(weapon(8, 4, "Assault 2, Pinning"), infantry(models=2, w=2, **{"Unit Type": ut})),
            b.attack(F1(2), S(4), WD(8, 4, 4), TG(2, 2, DF(save=3, eternal_warrior=ew))),
            pinned=None,
        )
    c["instant_death_rule"] = unit_case(
        shoot(weapon(4, 4, "Assault 2, Instant Death"), infantry(models=2, w=3, save="4+")),
        b.attack(F1(2), S(4), WD(4, 4, 4, instant_death=True), TG(2, 3, DF(save=4))),
    )
    c["wall_of_death"] = unit_case(
        shoot(
            weapon(4, 5, "Assault 1, Template"),
            infantry(save="4+", Cover="4+"),
            snap_shots=True,
            attacker={"BS": 4, "models": 2},
        ),
        b.attack(
            [(Fraction(1, 9), k) for k in (2, 3, 3, 4, 4, 4, 5, 5, 6)],
            S(no_hit_roll=True),
            WD(4, 4, 5),
            TG(10, 1, DF(save=4)),
        ),
    )
    c["twin_linked_template"] = unit_case(
        shoot(weapon(3, 5, "Assault 1, Template, Twin-linked"), infantry(save="4+"), hits=2),
        b.attack(F1(2), S(no_hit_roll=True), WD(3, 4, 5, shred=True), TG(10, 1, DF(save=4))),
    )
    c["ld_below_two"] = unit_case(
        shoot(weapon(4, 5, "Assault 2, Pinning, Shell Shock (6)"), infantry(models=3)),
        b.attack(F1(2), S(4), WD(4, 4, 5), TG(3, 1, sv3), pinning=True, shell_shock=6),
    )
    # combinations
    c["brutal_fnp_ew_id"] = unit_case(
        shoot(
            weapon(8, 3, "Heavy 2, Brutal (2)"),
            infantry(models=2, w=3, save="4+", rules=["Eternal Warrior", "Feel No Pain (5+)"]),
        ),
        b.attack(F1(2), S(4), WD(8, 4, 3), TG(2, 3, DF(save=4, fnp=5, eternal_warrior=True)), brutal=2),
    )
    c["brutal_id"] = unit_case(
        shoot(weapon(8, 4, "Heavy 2, Brutal (2)"), infantry(models=2, w=3, save="3+", rules=["Feel No Pain (4+)"])),
        b.attack(F1(2), S(4), WD(8, 4, 4), TG(2, 3, DF(save=3, fnp=4)), brutal=2),
    )
    c["bs6_gets_hot"] = unit_case(
        shoot(weapon(5, 4, "Heavy 2, Gets Hot"), infantry(), bs=6),
        b.attack(F1(2), S(6, gets_hot=True), WD(5, 4, 4), TG(10, 1, sv3)),
    )
    c["twin_gets_hot"] = unit_case(
        shoot(weapon(5, 4, "Heavy 2, Gets Hot, Twin-linked"), infantry(), bs=3),
        b.attack(F1(2), S(3, twin_linked=True, gets_hot=True), WD(5, 4, 4), TG(10, 1, sv3)),
    )
    c["heavy_vs_invulnerable"] = unit_case(
        shoot(
            weapon(5, 5, "Heavy 1, Blast"),
            infantry(save="4+", Invulnerable="5+", **{"Unit Type": "Infantry (Heavy)"}),
            hits=2,
        ),
        b.attack(F1(2), S(no_hit_roll=True), WD(5, 4, 5), TG(10, 1, DF(save=4, invulnerable=5, heavy_reroll=True))),
    )
    c["murderous_ew"] = unit_case(
        shoot(weapon(4, 4, "Assault 3, Murderous Strike (5+)"), infantry(models=2, w=2, rules=["Eternal Warrior"])),
        b.attack(F1(3), S(4), WD(4, 4, 4, murderous=5), TG(2, 2, DF(save=3, eternal_warrior=True))),
    )
    c["destroyer_fnp"] = unit_case(
        shoot(weapon(6, 2, "Heavy 1, Destroyer"), infantry(models=2, w=3, rules=["Feel No Pain (5+)"])),
        b.attack(F1(1), S(4), WD(6, 4, 2), TG(2, 3, DF(save=3, fnp=5)), destroyer=True),
    )
    c["rending_shred_ap_dash"] = unit_case(
        melee(weapon("User", "-", "Melee, Rending (5+), Shred"), infantry(models=2, w=2, save="2+"), A=3),
        b.attack(F1(3), S(melee_need=4), WD(4, 4, None, rending=5, shred=True, melee=True), TG(2, 2, DF(save=2))),
    )
    return c


CASES_TYPES = types_and_more()


def test_psychic_focus_reports_the_check() -> None:
    """Section 7: a Psychic check (2D6 <= Ld) before To Hit; failure is Perils and no attack."""
    doc = shoot(weapon(4, 5, "Assault 2, Psychic Focus"), infantry())
    doc["attacker"]["Ld"] = 8
    ok = b.two_d6_at_most(8)
    got = calc(doc)
    want = b.attack([(ok, 2), (1 - ok, 0)], S(4), WD(4, 4, 5), TG(10, 1, DF(save=3)))
    same_unit(got, want)
    assert math.isclose(got["attack_happens"], float(ok), abs_tol=TOL)
    assert math.isclose(got["perils"], float(1 - ok), abs_tol=TOL)


@pytest.mark.parametrize(
    ("label", "doc"),
    [
        ("melee", melee(weapon("User", 5, "Melee"), infantry(Cover="4+"), A=2)),
        ("Ignores Cover", shoot(weapon(4, 5, "Assault 2, Ignores Cover"), infantry(Cover="4+"))),
        ("Template", shoot(weapon(4, 5, "Assault 1, Template"), infantry(Cover="4+"), hits=2)),
    ],
)
def test_a_denied_cover_save_is_named(label: str, doc: dict[str, Any]) -> None:
    """SCENARIO: every field acts or is named; a `Cover` the attack denies (section 4) is under no_effect."""
    got = calc(doc)
    assert "target: Cover 4+" in got["no_effect"], (label, got["no_effect"])
    assert "cover" in got["reasons"]["target: Cover 4+"].lower()
    assert_close(calc_many([doc])[0], got, label)


def test_a_usable_cover_save_is_not_listed() -> None:
    got = calc(shoot(weapon(4, 3, "Assault 2"), infantry(Cover="4+")))
    assert not any("Cover" in x for x in got["no_effect"])


def test_two_handed_takes_no_second_weapon_bonus() -> None:
    """Section 9: A, +1 on the charge, +1 for two weapons never with Two-handed."""
    doc = melee(weapon("+2", 3, "Melee, Two-handed"), infantry(), A=2, charging=True, two_weapons=True)
    same_unit(calc(doc), b.attack(F1(3), S(melee_need=4), WD(6, 4, 3, melee=True), TG(10, 1, DF(save=3))))


def test_unwieldy_strikes_at_initiative_one() -> None:
    """Section 9: Unwieldy strikes at step 1, so the I3 target strikes first and its kills do not strike back."""
    doc = {
        "mode": "melee",
        "attacker": {"WS": 4, "S": 4, "I": 5, "A": 1, "models": 2, "T": 4, "W": 1, "Save": "4+"},
        "weapon": {"name": "Maul", "Strength": "+2", "AP": "2", "Type": "Melee, Unwieldy"},
        "target_weapon": {"name": "Axe", "Strength": "User", "AP": "-", "Type": "Melee"},
        "target": infantry(models=2, save="3+", S=4, A=2, I=3),
    }

    def mine(m: int) -> b.Result:
        return b.attack(F1(m), S(melee_need=4), WD(6, 4, 2, melee=True), TG(2, 1, DF(save=3)))

    def theirs(m: int) -> b.Result:
        return b.attack(F1(2 * m), S(melee_need=4), WD(4, 4, None, melee=True), TG(2, 1, DF(save=4)))

    want = b.melee_round(mine, theirs, 2, 2, 1, 3)
    got = calc(doc)
    same_dist(got["attacker_casualties"], want.attacker_casualties, "attacker_casualties")
    for key, value in (("attacker_wins", want.attacker_wins), ("target_wins", want.target_wins), ("draw", want.draw)):
        assert math.isclose(got["combat"][key], float(value), abs_tol=TOL), (key, got["combat"], float(value))


def test_concussive_in_a_round() -> None:
    """Section 7: any wound (saved or not) makes the unit test Ld; a failure lowers its WS (reported as concussed)."""
    doc = {
        "mode": "melee",
        "attacker": {"WS": 4, "S": 4, "I": 5, "A": 2, "models": 1, "T": 4, "W": 1, "Save": "3+"},
        "weapon": {"name": "Hammer", "Strength": "User", "AP": "5", "Type": "Melee, Concussive (1)"},
        "target_weapon": {"name": "Axe", "Strength": "User", "AP": "-", "Type": "Melee"},
        "target": infantry(models=5, S=4, A=1, I=3),
    }
    wounded = 1 - b.attack(F1(2), S(melee_need=4), WD(4, 4, 5, melee=True), TG(5, 1, DF(save=3))).wounds[0]
    got = calc(doc)["concussed"]
    assert math.isclose(got["target"], float(wounded * (1 - b.two_d6_at_most(7))), abs_tol=TOL), got
    assert got["attacker"] == 0.0


def test_a_sequence_carries_the_damaged_model_and_pins_per_firing_unit() -> None:
    """Section 5 and 7: two firing units in turn; the damaged model carries over; one Pinning test per unit."""
    volley = {"attacker": {"BS": 4, "models": 1}, "weapon": weapon(5, 4, "Heavy 2, Pinning"), "attacks": 2}
    doc = {"target": infantry(models=2, w=2, Ld=6), "firing_units": [[volley], [volley]]}
    fail = 1 - b.two_d6_at_most(6)
    first = b.attack(F1(2), S(4), WD(5, 4, 4), TG(2, 2, DF(save=3)))
    casualties: b.Dist = {}
    unsaved: b.Dist = {}
    not_pinned = Fraction(0)
    for (u1, c1, t1), p1 in first.joint.items():
        left_models, damaged = 2 - c1, t1 - 2 * c1
        p_free1 = 1 - fail if (u1 and left_models) else Fraction(1)
        if not left_models:
            b.add(casualties, c1, p1)
            b.add(unsaved, u1, p1)
            not_pinned += p1 * p_free1
            continue
        second = b.attack(F1(2), S(4), WD(5, 4, 4), TG(left_models, 2, DF(save=3), first_left=2 - damaged))
        for (u2, c2, _), p2 in second.joint.items():
            b.add(casualties, c1 + c2, p1 * p2)
            b.add(unsaved, u1 + u2, p1 * p2)
            p_free2 = 1 - fail if (u2 and left_models - c2) else Fraction(1)
            not_pinned += p1 * p2 * p_free1 * p_free2
    got = calc(doc)
    same_dist(got["casualties"], casualties, "casualties")
    same_dist(got["unsaved"], unsaved, "unsaved")
    assert math.isclose(got["pinned"], float(1 - not_pinned), abs_tol=TOL), (got["pinned"], float(1 - not_pinned))


ALL_CASES = merged(CASES, CASES_MORE, CASES_TYPES)


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_calc_matches_brute_force(name: str) -> None:
    """Every field the result returns for the case, against the brute force, at 1e-12."""
    check_case(ALL_CASES[name])


def test_calc_many_matches_calc() -> None:
    check_many(ALL_CASES)


def test_calc_many_matches_calc_for_rounds_and_sequences() -> None:
    volley = {"attacker": {"BS": 4, "models": 1}, "weapon": weapon(5, 4, "Heavy 2, Pinning"), "attacks": 2}
    docs = [
        round_case(False, 5, 3, 2)[0],
        round_case(False, 4, 4, 2)[0],
        {"target": infantry(models=2, w=2, Ld=6), "firing_units": [[volley], [volley]]},
    ]
    for i, (one, doc) in enumerate(zip(calc_many(docs), docs, strict=True)):
        assert_close(one, calc(doc), f"doc {i}")
