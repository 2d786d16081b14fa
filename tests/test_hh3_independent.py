"""An independent check of `praetor calc` for the 3rd edition (the unit chain, markers, statuses, fields).

Every expected value is enumerated die by die in `tests/hh3_independent.py` from MECHANICS-HH3 as written,
without reading the engine's chain or its oracle, and each scenario runs through ``praetor calc`` with every
field the contract names compared at 1e-12: `hits`, `critical_hits`, `wounds`, `unsaved`, `damage`,
`casualties`, `statuses`, `misfires`, `phage`. Vehicles: `test_hh3_independent_vehicles.py`; melee:
`test_hh3_independent_melee.py`.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest
from hh3_independent import (
    D6,
    SIXTH,
    TOL,
    Dists,
    Morale,
    Target,
    Weapon,
    apply_wounds,
    assert_result,
    attack_outcomes,
    check_pass,
    expect_statuses,
    melee_doc,
    mixture,
    play,
    run,
    shoot_case,
    shooting_doc,
    vehicle_doc,
    vehicle_outcomes,
    vehicle_play,
)

CHAIN_CASES: list[tuple[str, dict[str, Any], Any]] = [
    # Heavy (AP) from AP "-": one step better is 6, which stops a 6+ save (section 0)
    (
        "heavy_ap_from_dash",
        shooting_doc({"FP": 2, "AP": "-", "Special Rules": "Heavy (AP)"}, {"models": 2, "SAV": "6+"}, stationary=True),
        lambda: shoot_case(Weapon(4, 6), Target(models=2, sav=6), 2),
    ),
    # Ordnance (D) doubles first, then Eternal Warrior (2) subtracts: 2 x 2 - 2 = 2 (section 7's order)
    (
        "ordnance_d_then_eternal_warrior",
        shooting_doc(
            {"FP": 2, "D": 2, "Special Rules": "Ordnance (D)"},
            {"models": 2, "W": 3, "SAV": "-", "rules": ["Eternal Warrior (2)"]},
            stationary=True,
        ),
        lambda: shoot_case(Weapon(4, None, 4), Target(w=3, models=2, sav=None, ew=2), 2),
    ),
    (
        "bolter_pinning",
        shooting_doc({"FP": 2, "AP": 5, "Special Rules": "Pinning (1)"}, {"models": 2}),
        lambda: shoot_case(Weapon(4, 5), Target(models=2), 2, morale=Morale(pinning=1)),
    ),
    (
        "bs6_crit_band_w2",
        shooting_doc({"FP": 2, "AP": 4}, {"models": 2, "W": 2}, attacker={"BS": 6}),
        lambda: shoot_case(Weapon(4, 4), Target(w=2, models=2), 2, bs=6),
    ),
    (
        "bs8_crit4_w2",
        shooting_doc({"FP": 3, "RS": 5}, {"models": 2, "W": 2}, attacker={"BS": 8}),
        lambda: shoot_case(Weapon(5, None), Target(w=2, models=2), 3, bs=8),
    ),
    (
        "bs10_automatic",
        shooting_doc({"FP": 2, "AP": 4}, {"models": 2, "W": 2}, attacker={"BS": 10}),
        lambda: shoot_case(Weapon(4, 4), Target(w=2, models=2), 2, bs=10),
    ),
    (
        "snap_bs4",
        shooting_doc({"FP": 3}, {"models": 3}, snap_shots=True),
        lambda: shoot_case(Weapon(4, None), Target(models=3), 3, snap=True),
    ),
    (
        "snap_bs1_none",
        shooting_doc({"FP": 2}, {"models": 2}, snap_shots=True, attacker={"BS": 1}),
        lambda: shoot_case(Weapon(4, None), Target(models=2), 2, bs=1, snap=True),
    ),
    (
        "snap_bs7_no_band",
        shooting_doc({"FP": 2, "D": 2}, {"models": 2, "W": 3}, snap_shots=True, attacker={"BS": 7}),
        lambda: shoot_case(Weapon(4, None, 2), Target(w=3, models=2), 2, bs=7, snap=True),
    ),
    (
        "critical_hit_5_w3",
        shooting_doc({"FP": 3, "Special Rules": "Critical Hit (5+)"}, {"models": 2, "W": 3}),
        lambda: shoot_case(Weapon(4, None, crit=5), Target(w=3, models=2), 3),
    ),
    (
        "rending_5_vs_t6",
        shooting_doc({"FP": 3, "RS": 3, "AP": 4, "Special Rules": "Rending (5+)"}, {"models": 3, "T": 6}),
        lambda: shoot_case(Weapon(3, 4, rending=5), Target(t=6, models=3), 3),
    ),
    (
        "breaching_5_vs_2plus",
        shooting_doc({"FP": 3, "Special Rules": "Breaching (5+)"}, {"models": 3, "SAV": "2+", "INV": "5+"}),
        lambda: shoot_case(Weapon(4, None, breaching=5), Target(models=3, sav=2, inv=5), 3),
    ),
    (
        "shred_5_w2_order",
        shooting_doc({"FP": 3, "Special Rules": "Shred (5+)"}, {"models": 2, "W": 2, "SAV": "5+"}),
        lambda: shoot_case(Weapon(4, None, shred=5), Target(w=2, models=2, sav=5), 3),
    ),
    (
        "poisoned_4_vs_t8",
        shooting_doc({"FP": 3, "RS": 3, "Special Rules": "Poisoned (4+)"}, {"models": 3, "T": 8}),
        lambda: shoot_case(Weapon(3, None, poisoned=4), Target(t=8, models=3), 3),
    ),
    (
        "crit_and_shred_stack",
        shooting_doc({"FP": 2, "AP": 3, "Special Rules": "Critical Hit (6+), Shred (6+)"}, {"models": 2, "W": 3}),
        lambda: shoot_case(Weapon(4, 3, crit=6, shred=6), Target(w=3, models=2), 2),
    ),
    (
        "rending_breaching_shred",
        shooting_doc(
            {"FP": 3, "RS": 4, "AP": 4, "D": 1, "Special Rules": "Rending (6+), Breaching (6+), Shred (5+)"},
            {"models": 2, "W": 2, "SAV": "2+"},
        ),
        lambda: shoot_case(Weapon(4, 4, rending=6, breaching=6, shred=5), Target(w=2, models=2, sav=2), 3),
    ),
    (
        "deflagrate_5",
        shooting_doc({"FP": 2, "RS": 5, "AP": 4, "Special Rules": "Deflagrate (5)"}, {"models": 4, "SAV": "4+"}),
        lambda: shoot_case(Weapon(5, 4, deflagrate=5), Target(models=4, sav=4), 2),
    ),
    (
        "heavy_fp_stationary",
        shooting_doc({"FP": 1, "Special Rules": "Heavy (FP)"}, {"models": 2}, stationary=True),
        lambda: shoot_case(Weapon(4, None), Target(models=2), 2),
    ),
    (
        "heavy_rs_stationary",
        shooting_doc({"FP": 2, "RS": 4, "Special Rules": "Heavy (RS)"}, {"models": 2}, stationary=True),
        lambda: shoot_case(Weapon(5, None), Target(models=2), 2),
    ),
    (
        "heavy_d_not_stationary",
        shooting_doc({"FP": 2, "D": 1, "Special Rules": "Heavy (D)"}, {"models": 2, "W": 2}),
        lambda: shoot_case(Weapon(4, None, 1), Target(w=2, models=2), 2),
    ),
    (
        "heavy_ap_stationary",
        shooting_doc({"FP": 2, "AP": 4, "Special Rules": "Heavy (AP)"}, {"models": 2}, stationary=True),
        lambda: shoot_case(Weapon(4, 3), Target(models=2), 2),
    ),
    (
        "ordnance_d_stationary",
        shooting_doc({"FP": 2, "D": 2, "Special Rules": "Ordnance (D)"}, {"models": 2, "W": 5}, stationary=True),
        lambda: shoot_case(Weapon(4, None, 4), Target(w=5, models=2), 2),
    ),
    (
        "d3_damage_w2",
        shooting_doc({"FP": 3, "D": "D3", "AP": 3}, {"models": 2, "W": 2}),
        lambda: shoot_case(Weapon(4, 3, "D3"), Target(w=2, models=2), 3),
    ),
    (
        "cover_5_vs_ap3",
        shooting_doc({"FP": 3, "AP": 3}, {"models": 3, "Cover": "5+"}),
        lambda: shoot_case(Weapon(4, 3), Target(models=3, cover=5), 3),
    ),
    (
        "inv4_ap2",
        shooting_doc({"FP": 3, "AP": 2}, {"models": 3, "SAV": "2+", "INV": "4+"}),
        lambda: shoot_case(Weapon(4, 2), Target(models=3, sav=2, inv=4), 3),
    ),
    (
        "fnp5",
        shooting_doc({"FP": 3, "AP": 3}, {"models": 3, "rules": ["Feel No Pain (5+)"]}),
        lambda: shoot_case(Weapon(4, 3), Target(models=3, fnp=5), 3),
    ),
    (
        "shrouded_best_of_fnp",
        shooting_doc({"FP": 3, "AP": 3}, {"models": 3, "rules": ["Feel No Pain (6+)", "Shrouded (4+)"]}),
        lambda: shoot_case(Weapon(4, 3), Target(models=3, fnp=4), 3),
    ),
    (
        "eternal_warrior_crit",
        shooting_doc(
            {"FP": 2, "D": 2, "Special Rules": "Critical Hit (5+)"},
            {"models": 2, "W": 3, "rules": ["Eternal Warrior (1)"]},
        ),
        lambda: shoot_case(Weapon(4, None, 2, crit=5), Target(w=3, models=2, ew=1), 2),
    ),
    (
        "s12_vs_t9_capped",
        shooting_doc({"FP": 3, "RS": 12}, {"models": 3, "T": 9}),
        lambda: shoot_case(Weapon(12, None), Target(t=9, models=3), 3),
    ),
    (
        "s3_vs_t7_never",
        shooting_doc({"FP": 2, "RS": 3}, {"models": 2, "T": 7}),
        lambda: shoot_case(Weapon(3, None), Target(t=7, models=2), 2),
    ),
    (
        "precision_no_change",
        shooting_doc({"FP": 2, "Special Rules": "Precision (5+)"}, {"models": 2, "W": 2}),
        lambda: shoot_case(Weapon(4, None), Target(w=2, models=2), 2),
    ),
    (
        "given_hits",
        shooting_doc({"FP": 1, "Special Rules": "Blast (3)", "AP": 4}, {"models": 4}, hits=3),
        lambda: shoot_case(Weapon(4, 4), Target(models=4), 3, given_hits=True),
    ),
]


@pytest.mark.parametrize(("doc", "build"), [c[1:] for c in CHAIN_CASES], ids=[c[0] for c in CHAIN_CASES])
def test_chain_against_enumeration(doc: dict[str, Any], build: Any) -> None:
    want, morale = build(), _morale_of(doc)
    res = run(doc)
    assert_result(res, want, expect_statuses(want, morale))


def _morale_of(doc: dict[str, Any]) -> Morale:
    """The status rules named in a chain case's weapon (the X of each)."""
    rules = str(doc["weapon"].get("Special Rules", ""))
    found = {name: int(x) for name, x in re.findall(r"(Pinning|Suppressive|Stun|Panic) \((\d+)\)", rules)}
    return Morale(
        pinning=found.get("Pinning"),
        suppressive=found.get("Suppressive"),
        stun=found.get("Stun"),
        panic=found.get("Panic"),
    )


# --- Morale: Checks and statuses (sections 1 and 14) ---------------------------------------------------------


def test_check_hand_values() -> None:
    # counted by hand: 2D6 <= 7 in 21 ways; at 2 only the double 1 (plus nothing); at 12 all but the double 6
    assert check_pass(7) == Fraction(21, 36)
    assert check_pass(1) == Fraction(1, 36)
    assert check_pass(2) == Fraction(1, 36)
    assert check_pass(12) == Fraction(35, 36)
    assert check_pass(0) == 0


MORALE_CASES: list[tuple[str, dict[str, Any], Weapon, Target, int, Morale]] = [
    (
        "suppressive_stun",
        shooting_doc({"FP": 2, "Special Rules": "Suppressive (2), Stun (1)"}, {"models": 3, "CL": 8}),
        Weapon(4, None),
        Target(models=3),
        2,
        Morale(cl=8, suppressive=2, stun=1),
    ),
    (
        "panic_and_quarter",
        shooting_doc({"FP": 3, "Special Rules": "Panic (1), Pinning (2)"}, {"models": 4, "LD": 8, "CL": 6}),
        Weapon(4, None),
        Target(models=4),
        3,
        Morale(ld=8, cl=6, panic=1, pinning=2),
    ),
    (
        "heavy_subtype_cl",
        shooting_doc(
            {"FP": 2, "AP": 3, "Special Rules": "Pinning (1)"},
            {"models": 5, "Type": "Infantry (Heavy)", "CL": 6, "LD": 6},
        ),
        Weapon(4, 3),
        Target(models=5),
        2,
        Morale(ld=6, cl=6, pinning=1, heavy=True),
    ),
    (
        "quarter_only_w2",
        shooting_doc({"FP": 3, "D": 2, "AP": 4}, {"models": 3, "W": 2, "LD": 5}),
        Weapon(4, 4, 2),
        Target(w=2, models=3),
        3,
        Morale(ld=5),
    ),
]


@pytest.mark.parametrize(
    ("doc", "wpn", "tgt", "n", "morale"), [c[1:] for c in MORALE_CASES], ids=[c[0] for c in MORALE_CASES]
)
def test_statuses_against_enumeration(doc: dict[str, Any], wpn: Weapon, tgt: Target, n: int, morale: Morale) -> None:
    want = shoot_case(wpn, tgt, n, morale=morale)
    res = run(doc)
    assert_result(res, want, expect_statuses(want, morale))


# --- Hit-roll side effects: Shock, Poisoned against Walkers, Overload Misfires (sections 4, 5, 14) --------------


def test_shock_and_poisoned_vs_walkers() -> None:
    """Shock (Pinned) on a natural 5-6, hit or miss, no Check; Routed (casualties) removes it; Poisoned needs a 6."""
    doc = shooting_doc(
        {"FP": 3, "RS": 3, "AP": 4, "Special Rules": "Shock (Pinned), Poisoned (4+)"},
        {"models": 2, "Type": "Walker", "T": 7, "W": 1, "SAV": "4+", "LD": 6},
    )
    tgt = Target(t=7, models=2, sav=4)
    per = attack_outcomes(Weapon(3, 4, poisoned=6), tgt)
    want = Dists()
    pinned = Fraction(0)
    for combo in itertools.product(list(per.items()), repeat=3):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        outs = [o for o, _ in combo]
        left, _, _ = apply_wounds(2, 1, 0, [w for o in outs for w in o.applied])
        for name, value in (
            ("hits", sum(o.hit for o in outs)),
            ("wounds", sum(o.wound for o in outs)),
            ("unsaved", sum(o.unsaved for o in outs)),
            ("casualties", 2 - left),
        ):
            want.add(name, value, p)
        routed = 1 - check_pass(6) if 2 - left >= 1 and left else Fraction(0)
        if left and any(o.shock for o in outs):
            pinned += p * (1 - routed)
    res = run(doc)
    assert_result(res, want)
    assert res["statuses"]["Pinned"] == pytest.approx(float(pinned), abs=TOL)


def test_overload_misfires_on_the_firer() -> None:
    """Overload (2): each natural 1-2 is one hit with the whole profile on the firer (2 models T4 W1 4+)."""
    doc = shooting_doc(
        {"FP": 1, "RS": 5, "AP": 5, "Special Rules": "Overload (2)"},
        {"models": 2},
        attacker={"BS": 4, "models": 3, "T": 4, "W": 1, "SAV": "4+"},
    )
    n_dice = 3
    firer = Target(t=4, models=3, sav=4)
    per_misfire = attack_outcomes(Weapon(5, 5), firer, given_hit=True)
    misfire_hits: dict[int, Fraction] = defaultdict(Fraction)
    want = Dists()
    for rolls in itertools.product(D6, repeat=n_dice):
        k = sum(r <= 2 for r in rolls)
        misfire_hits[k] += SIXTH**n_dice
    for k, pk in misfire_hits.items():
        sub = play([per_misfire] * k, firer, None)
        for name in ("wounds", "unsaved", "casualties", "damage"):
            for value, q in sub.fields.get(name, {0: Fraction(1)}).items():
                want.add(name, value, pk * q)
        want.add("hits", k, pk)
    res = run(doc)
    (entry,) = res["misfires"]
    assert_result(entry, want)
    # the attack itself is unchanged by Overload (the Hit Test is judged normally)
    assert_result(res, shoot_case(Weapon(5, 5), Target(models=2), 3))


# --- Force (X) (section 15) -----------------------------------------------------------------------------------


def test_force_damage_mixture() -> None:
    """Force (D): a Willpower Check at WP 8 (26/36 by the Check's count) doubles D; the result is the mixture."""
    doc = shooting_doc(
        {"FP": 2, "D": 1, "AP": 4, "Special Rules": "Force (D)", "Traits": "Psychic"},
        {"models": 2, "W": 2},
        attacker={"BS": 4, "models": 1, "WP": 8},
    )
    p_boost = check_pass(8)
    assert p_boost == Fraction(26, 36)
    plain = shoot_case(Weapon(4, 4, 1), Target(w=2, models=2), 2)
    boosted = shoot_case(Weapon(4, 4, 2), Target(w=2, models=2), 2)
    res = run(doc)
    assert_result(res, mixture([(p_boost, boosted), (1 - p_boost, plain)]))
    # Perils: any double on the two dice (6/36); its face 1 or 6 a Warp Rupture (2/36), 2-5 Stunned (4/36)
    (force,) = res["force"]
    for key, value in (("boost", p_boost), ("perils", Fraction(6, 36)), ("warp_rupture", Fraction(2, 36)),
                       ("stunned", Fraction(4, 36))):  # fmt: skip
        assert force[key] == pytest.approx(float(value), abs=TOL), key


# --- Blast (section 8): one marker, one Hit Test, a scatter that always moves ------------------------------------


def test_blast_single_model_scatter() -> None:
    """Blast (3) over one 32 mm model: a hit covers it; a miss moves D6" and still touches it when the distance
    is at most 1.5 + 0.63 (marker radius + base radius), so on a 1 or 2: P(hit) = 4/6 + 2/6 * 2/6."""
    doc = shooting_doc(
        {"FP": 1, "AP": 4, "Special Rules": "Blast (3)"},
        {"models": 1, "W": 1},
        formation={"positions": [[0, 0]], "base_mm": 32},
    )
    p_hit = Fraction(4, 6) + Fraction(2, 6) * Fraction(2, 6)
    res = run(doc)
    assert res["hits"]["pmf"][1] == pytest.approx(float(p_hit), abs=TOL)
    per = attack_outcomes(Weapon(4, 4), Target(), given_hit=True)
    p_unsaved = sum((q for o, q in per.items() if o.unsaved), Fraction(0))
    assert res["casualties"]["mean"] == pytest.approx(float(p_hit * p_unsaved), abs=TOL)


# --- Deflagrate beside a set-aside group; two firing units carrying the unit's state -----------------------------


def test_deflagrate_with_critical_group_w2() -> None:
    """Unchanged wounds, their Deflagrate hits, then the Critical group (D 2) and its Deflagrate hits, on W 2."""
    doc = shooting_doc(
        {"FP": 2, "RS": 4, "AP": 4, "D": 1, "Special Rules": "Deflagrate (4), Critical Hit (5+)"},
        {"models": 2, "W": 2, "SAV": "4+"},
    )
    tgt = Target(w=2, models=2, sav=4)
    want = shoot_case(Weapon(4, 4, 1, crit=5, deflagrate=4), tgt, 2)
    assert_result(run(doc), want)


def test_two_firing_units_carry_state_and_statuses() -> None:
    """Unit 1 (Pinning (1)) then unit 2 (Panic (2)) at 4 Legionaries of W 2: damage carries over; one Routed
    Check at the harshest modifier (Panic's 2, else 0 from a quarter lost to either unit); Pinned only if not."""
    v1 = {
        "mode": "shooting",
        "attacker": {"BS": 4, "models": 1},
        "weapon": {
            "name": "A",
            "R": 24,
            "FP": 2,
            "RS": 4,
            "AP": 4,
            "D": 1,
            "Special Rules": "Pinning (1)",
            "Traits": "",
        },
    }
    v2 = {
        "mode": "shooting",
        "attacker": {"BS": 4, "models": 1},
        "weapon": {"name": "B", "R": 24, "FP": 1, "RS": 5, "AP": 3, "D": 2, "Special Rules": "Panic (2)", "Traits": ""},
    }
    doc = {
        "edition": "hh3",
        "firing_units": [[v1], [v2]],
        "target": {
            "name": "Foe",
            "Type": "Infantry",
            "models": 4,
            "WS": 4,
            "T": 4,
            "W": 2,
            "I": 4,
            "LD": 8,
            "CL": 7,
            "SAV": "3+",
            "INV": "-",
        },
    }
    tgt = Target(w=2, models=4)
    per1 = attack_outcomes(Weapon(4, 4, 1), tgt)
    per2 = attack_outcomes(Weapon(5, 3, 2), tgt)
    want = Dists()
    pinned = routed = Fraction(0)
    for combo in itertools.product(list(per1.items()), list(per1.items()), list(per2.items())):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        o1, o2 = [o for o, _ in combo[:2]], [combo[2][0]]
        m1, d1, dealt1 = apply_wounds(4, 2, 0, sorted((w for o in o1 for w in o.applied), key=lambda g: g[0]))
        m2, _, dealt2 = apply_wounds(m1, 2, d1, [w for o in o2 for w in o.applied])
        for name, value in (
            ("unsaved", sum(o.unsaved for o in o1 + o2)),
            ("casualties", 4 - m2),
            ("damage", dealt1 + dealt2),
        ):
            want.add(name, value, p)
        if m2 == 0:
            continue
        mods = [0] if (4 - m1 >= 1 or m1 - m2 >= math.ceil(m1 / 4)) else []
        if o2[0].wound:
            mods.append(2)
        p_routed = 1 - check_pass(8 - max(mods)) if mods else Fraction(0)
        routed += p * p_routed
        if any(o.wound for o in o1):
            pinned += p * (1 - p_routed) * (1 - check_pass(7 - 1))
    res = run(doc)
    assert_result(res, want)
    assert res["statuses"]["Routed"] == pytest.approx(float(routed), abs=TOL)
    assert res["statuses"]["Pinned"] == pytest.approx(float(pinned), abs=TOL)


# --- Every field acts, is refused on one line, or is named (SCENARIO, Edition 3) -------------------------------


def _refusal(doc: dict[str, Any]) -> str:
    from praetor_analysis.errors import ScenarioError

    with pytest.raises(ScenarioError) as caught:
        run(doc)
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("doc", "field_name"),
    [
        (shooting_doc({"FP": 2}, {"models": 2}, charging=True), "charging"),  # a charge changes melee only
        (melee_doc({}, {"models": 2}, {"A": 1, "models": 1}, snap_shots=True), "snap_shots"),  # no BS in melee
        (melee_doc({}, {"models": 2}, {"A": 1, "models": 1}, stationary=True), "stationary"),  # Heavy is ranged
        (shooting_doc({"FP": 2}, {"models": 2}, engaged=1), "engaged"),
    ],
    ids=["charging_in_shooting", "snap_shots_in_melee", "stationary_in_melee", "engaged_in_shooting"],
)
def test_fields_that_cannot_act_are_refused(doc: dict[str, Any], field_name: str) -> None:
    assert field_name in _refusal(doc)


@pytest.mark.parametrize(
    ("doc", "bucket", "name"),
    [
        (melee_doc({}, {"models": 2, "Cover": "5+"}, {"A": 1, "models": 1}), "no_effect", "Cover 5+"),
        (
            shooting_doc({"FP": 2, "Special Rules": "Precision (5+)"}, {"models": 2}, snap_shots=True),
            "no_effect",
            "Precision (5+)",
        ),
        (vehicle_doc({"FP": 2, "RS": 8, "Special Rules": "Melta (6)"}, {}), "no_effect", "Melta (6)"),
        (vehicle_doc({"FP": 2, "RS": 8, "Special Rules": "Rending (6+), Pinning (2)"}, {}), "no_effect", "Pinning (2)"),
        (shooting_doc({"FP": 2}, {"models": 2, "rules": ["Fearless"]}), "not_modelled", "Fearless"),
        (shooting_doc({"FP": 2, "Special Rules": "Precision (5+)"}, {"models": 2}), "applied", "Precision (5+)"),
    ],
    ids=[
        "melee_cover",
        "snap_precision",
        "melta_without_range",
        "pinning_vs_vehicle",
        "unknown_target_rule",
        "precision_applied",
    ],
)
def test_fields_are_named(doc: dict[str, Any], bucket: str, name: str) -> None:
    res = run(doc)
    assert name in res[bucket], res[bucket]
    if bucket != "applied":
        assert res["reasons"][name]


# --- Group order option, dice attacks, a Blast's critical marker, immune targets, a round's Check ------------


@pytest.mark.parametrize("order", ["created", "largest_damage_first"])
def test_group_order_option(order: str) -> None:
    """Breaching (5+), Shred (6+): a natural 5 makes a Breaching-only wound (D 1), a 6 a Breaching-and-Shred one
    (D 2); as created the first come first, largest first the D 2 ones (W 2 models: the orders differ)."""
    doc = shooting_doc(
        {"FP": 3, "Special Rules": "Breaching (5+), Shred (6+)"}, {"models": 2, "W": 2}, options={"group_order": order}
    )
    tgt = Target(w=2, models=2)
    per = attack_outcomes(Weapon(4, None, breaching=5, shred=6), tgt)
    want = play([per] * 3, tgt, Morale(), largest_first=order != "created")
    assert_result(run(doc), want)


def test_attacks_as_dice() -> None:
    """`attacks: "D3"`: the mixture over 1, 2, 3 hit dice, each a third."""
    doc = shooting_doc({"FP": 1, "AP": 4}, {"models": 3}, attacks="D3")
    per = attack_outcomes(Weapon(4, 4), Target(models=3))
    want = mixture([(Fraction(1, 3), play([per] * n, Target(models=3), Morale())) for n in (1, 2, 3)])
    assert_result(run(doc), want)


def test_blast_critical_marker() -> None:
    """BS 8 (critical on 4+), Blast (3) over one W 2 model: a critical Hit Test makes a Critical hit (auto-wound,
    D 2); a plain hit or a scatter that still touches (after a natural 1: D6 <= 2) is a plain hit (D 1)."""
    doc = shooting_doc(
        {"FP": 1, "Special Rules": "Blast (3)"},
        {"models": 1, "W": 2},
        formation={"positions": [[0, 0]], "base_mm": 32},
        attacker={"BS": 8},
    )
    p_crit, p_plain = Fraction(3, 6), Fraction(2, 6) + Fraction(1, 6) * Fraction(2, 6)
    unsaved = Fraction(2, 6)  # a 3+ save fails on 1-2
    res = run(doc)
    assert res["critical_hits"]["mean"] == pytest.approx(float(p_crit), abs=TOL)
    assert res["casualties"]["mean"] == pytest.approx(float(p_crit * unsaved), abs=TOL)
    assert res["damage"]["mean"] == pytest.approx(
        float(p_crit * unsaved * 2 + p_plain * Fraction(1, 2) * unsaved), abs=TOL
    )


@pytest.mark.parametrize("kind", ["Automata", "Infantry (Automata)"])
def test_automata_statuses_are_null(kind: str) -> None:
    doc = shooting_doc({"FP": 2, "Special Rules": "Pinning (1)"}, {"models": 2, "Type": kind})
    res = run(doc)
    assert all(v is None for v in res["statuses"].values()), res["statuses"]


def test_toughness_zero_always_wounded() -> None:
    """T 0: every Wound Test succeeds, natural 1 included, and variable rules count as triggered (section 5):
    every wound is a Breaching one (AP 2), so the 3+ armour save is never taken."""
    doc = shooting_doc({"FP": 2, "AP": 4, "Special Rules": "Breaching (6+)"}, {"models": 2, "T": 0, "SAV": "3+"})
    tgt = Target(t=0, models=2)
    want = shoot_case(Weapon(4, 4, breaching=6), tgt, 2)
    assert want.fields["wounds"] == want.fields["hits"]
    assert_result(run(doc), want)


def test_firepower_dice_rolled_per_weapon() -> None:
    """FP D3 on two models: the sum of two D3 hit dice (2 to 6), each count 1/9, 2/9, 3/9, 2/9, 1/9."""
    doc = shooting_doc({"FP": "D3", "AP": 4}, {"models": 3, "SAV": "-"}, attacker={"BS": 4, "models": 2})
    per = attack_outcomes(Weapon(4, 4), Target(models=3, sav=None))
    parts = [
        play([per] * (a + b), Target(models=3, sav=None), Morale()) for a, b in itertools.product((1, 2, 3), repeat=2)
    ]
    assert_result(run(doc), mixture([(Fraction(1, 9), part) for part in parts]))


def test_phage_probability() -> None:
    """Phage (T): P(at least one Unsaved Wound and a model left)."""
    doc = shooting_doc({"FP": 2, "AP": 4, "Special Rules": "Phage (T)"}, {"models": 2, "W": 2})
    tgt = Target(w=2, models=2)
    per = attack_outcomes(Weapon(4, 4), tgt)
    p = Fraction(0)
    for combo in itertools.product(list(per.items()), repeat=2):
        outs = [o for o, _ in combo]
        left, _, _ = apply_wounds(2, 2, 0, [w for o in outs for w in o.applied])
        if left and any(o.unsaved for o in outs):
            p += combo[0][1] * combo[1][1]
    res = run(doc)
    assert res["phage"]["T"] == pytest.approx(float(p), abs=TOL)


@pytest.mark.parametrize(
    ("barrage", "p_hit"),
    [
        (1, Fraction(2, 6) + Fraction(4, 6) * Fraction(2, 6)),  # HIT 2/6 stays; else 1D6" <= 2.13" still touches
        (2, Fraction(2, 6) + Fraction(4, 6) * Fraction(1, 36)),  # 2D6 <= 2 only on a double 1
        (0, Fraction(1)),  # Reading: no distance dice, the marker stays
    ],
)
def test_barrage_indirect_scatter(barrage: int, p_hit: Fraction) -> None:
    """Blast (3), Barrage (X) without line of sight over one 32 mm model: no Hit Test, an Indirect Scatter Roll."""
    doc = shooting_doc(
        {"FP": 1, "Special Rules": f"Blast (3), Barrage ({barrage})"},
        {"models": 1},
        formation={"positions": [[0, 0]], "base_mm": 32},
        indirect=True,
    )
    res = run(doc)
    assert res["hits"]["mean"] == pytest.approx(float(p_hit), abs=TOL)
    assert res["critical_hits"]["mean"] == pytest.approx(0.0, abs=TOL)


def test_template_hits_fp_per_model() -> None:
    """A Template over one model: FP hits, no Hit Test (so no Critical hits), then the chain."""
    doc = shooting_doc(
        {"FP": 2, "AP": 4, "Special Rules": "Template"},
        {"models": 2, "W": 2},
        formation={"positions": [[0, 0]], "base_mm": 32},
    )
    doc["target"]["models"] = 1
    want = shoot_case(Weapon(4, 4), Target(w=2, models=1), 2, given_hits=True)
    assert_result(run(doc), want)


def test_the_cli_gives_the_same_numbers(tmp_path: Any, capsys: Any) -> None:
    """`praetor calc FILE` on a case above (a JSON array of two) equals the enumeration; a refusal exits 2."""
    import json

    from praetor_analysis.cli import main

    vehicle_case = vehicle_doc({"FP": 3, "RS": 7, "D": 1}, {"Front Armour": 9, "HP": 2})
    docs = [CHAIN_CASES[1][1], vehicle_case]
    path = tmp_path / "docs.json"
    path.write_text(json.dumps(docs))
    assert main(["calc", str(path)]) == 0
    unit, vehicle = json.loads(capsys.readouterr().out)
    assert_result(unit, CHAIN_CASES[1][2]())
    assert_result(vehicle, vehicle_play(vehicle_outcomes(Weapon(7, None), 9), 3, 2, None))
    path.write_text(json.dumps({**docs[0], "charging": True}))
    assert main(["calc", str(path)]) == 2
    assert "charging" in capsys.readouterr().err
