"""An independent check of `praetor calc` against vehicles (MECHANICS-HH3 section 9), die by die.

`glancing`, `penetrating`, `hull_points`, `wrecked`, `statuses` (the Damage Table and Shock), `explodes`, with
the facing, Armourbane, Melta (X), Void Shields, Super-heavy glances, the options and Knights.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from hh3_independent import (
    SIXTH,
    TOL,
    Dists,
    VOutcome,
    Weapon,
    assert_result,
    melee_doc,
    melee_vehicle,
    run,
    shooting_doc,
    vehicle_doc,
    vehicle_outcomes,
    vehicle_outcomes_ws,
    vehicle_play,
)

VEHICLE_CASES: list[tuple[str, dict[str, Any], Weapon, int, int, dict[str, Any]]] = [
    (
        "s7_vs_av9",
        vehicle_doc({"FP": 3, "RS": 7, "D": 1}, {"Front Armour": 9, "HP": 2}),
        Weapon(7, None),
        3,
        2,
        {"armour": 9},
    ),
    (
        "s7_vs_av8_no_glance",
        vehicle_doc({"FP": 3, "RS": 7, "D": 1}, {"Front Armour": 8, "HP": 2}),
        Weapon(7, None),
        3,
        2,
        {"armour": 8},
    ),
    (
        "side_facing_d2",
        vehicle_doc({"FP": 2, "RS": 8, "D": 2}, {"Side Armour": 10, "HP": 3, "facing": "Side"}),
        Weapon(8, None, 2),
        2,
        3,
        {"armour": 10},
    ),
    (
        "armourbane_s8_av10",
        vehicle_doc({"FP": 3, "RS": 6, "D": 1, "Special Rules": "Armourbane"}, {"Front Armour": 10, "HP": 2}),
        Weapon(6, None, armourbane=True),
        3,
        2,
        {"armour": 10},
    ),
    (
        "melta_in_range",
        vehicle_doc(
            {"R": 12, "FP": 2, "RS": 8, "D": 2, "Special Rules": "Melta (6)"}, {"Front Armour": 12, "HP": 5}, range=6
        ),
        Weapon(8, None, 2, melta=True, armourbane=True),
        2,
        5,
        {"armour": 12},
    ),
    (
        "melta_out_of_range",
        vehicle_doc(
            {"R": 12, "FP": 2, "RS": 8, "D": 2, "Special Rules": "Melta (6)"}, {"Front Armour": 12, "HP": 5}, range=9
        ),
        Weapon(8, None, 2),
        2,
        5,
        {"armour": 12},
    ),
    (
        "bs6_crit_inv5",
        vehicle_doc({"FP": 2, "RS": 9, "D": 1}, {"Front Armour": 11, "HP": 3, "INV": "5+"}, attacker={"BS": 6}),
        Weapon(9, None),
        2,
        3,
        {"armour": 11, "bs": 6, "inv": 5},
    ),
    (
        "rending_no_effect",
        vehicle_doc({"FP": 2, "RS": 7, "Special Rules": "Rending (4+)"}, {"Front Armour": 9, "HP": 2}),
        Weapon(7, None),
        2,
        2,
        {"armour": 9},
    ),
    (
        "cover_and_fnp",
        vehicle_doc(
            {"FP": 2, "RS": 8, "D": "D3"}, {"Front Armour": 10, "HP": 3, "Cover": "5+", "rules": ["Feel No Pain (6+)"]}
        ),
        Weapon(8, None, "D3"),
        2,
        3,
        {"armour": 10, "cover": 5, "fnp": 6},
    ),
]


@pytest.mark.parametrize(
    ("doc", "wpn", "n", "hp", "kw"), [c[1:] for c in VEHICLE_CASES], ids=[c[0] for c in VEHICLE_CASES]
)
def test_vehicle_against_enumeration(doc: dict[str, Any], wpn: Weapon, n: int, hp: int, kw: dict[str, Any]) -> None:
    per = vehicle_outcomes(wpn, **kw)
    want = vehicle_play(per, n, hp, None)
    res = run(doc)
    assert_result(res, want)
    assert res["wrecked"] == pytest.approx(float(want.statuses["wrecked"]), abs=TOL)
    can_glance = any(o.glance and p for o, p in per.items())
    for name in ("Pinned", "Suppressed", "Stunned"):
        if not can_glance:  # nothing in the attack can cause it: `null` (SCENARIO, Edition 3)
            assert res["statuses"][name] is None, name
        else:
            assert res["statuses"][name] == pytest.approx(float(want.statuses[name]), abs=TOL), name
    assert res["statuses"]["Routed"] is None


def test_vehicle_shock() -> None:
    doc = vehicle_doc({"FP": 2, "RS": 6, "Special Rules": "Shock (Pinned)"}, {"Front Armour": 9, "HP": 2})
    want = vehicle_play(vehicle_outcomes(Weapon(6, None), 9), 2, 2, "Pinned")
    res = run(doc)
    assert_result(res, want)
    for name in ("Pinned", "Suppressed", "Stunned"):
        assert res["statuses"][name] == pytest.approx(float(want.statuses[name]), abs=TOL), name


# --- More of section 9: melee against a vehicle, Super-heavy glances, the options, Knights, Explodes -----------


def test_melee_vs_vehicle_rear_ws1() -> None:
    """Melee hits a vehicle on its Rear armour, the vehicle counting as WS 1 (WS 4 hits it on 2+)."""
    doc = melee_doc({"SM": "+2", "D": 2}, {}, {"A": 2, "models": 1, "WS": 4})
    doc["target"] = melee_vehicle(7)
    per = vehicle_outcomes_ws(Weapon(6, None, 2), 7, ws=(4, 1))
    want = vehicle_play(per, 2, 3, None)
    res = run(doc)
    assert_result(res, want)
    assert res["wrecked"] == pytest.approx(float(want.statuses["wrecked"]), abs=TOL)


def test_super_heavy_glances_cost_hull_points() -> None:
    """A Super-heavy loses 1 HP per Glancing Hit and rolls no Damage Table."""
    doc = vehicle_doc({"FP": 3, "RS": 8, "D": 2}, {"Type": "Vehicle (Super-heavy)", "Front Armour": 10, "HP": 3})
    per = vehicle_outcomes(Weapon(8, None, 2), 10)
    per_sh: dict[VOutcome, Fraction] = defaultdict(Fraction)
    for o, q in per.items():
        per_sh[replace(o, damage=o.damage + o.glance)] += q
    want = vehicle_play(dict(per_sh), 3, 3, None)
    res = run(doc)
    assert_result(res, want)
    assert res["wrecked"] == pytest.approx(float(want.statuses["wrecked"]), abs=TOL)


def test_apt_natural_one_option() -> None:
    """`apt_natural_one_fails: false`: S7 against armour 8 glances on a natural 1."""
    doc = vehicle_doc(
        {"FP": 2, "RS": 7, "D": 1}, {"Front Armour": 8, "HP": 2}, options={"apt_natural_one_fails": False}
    )
    res = run(doc)
    p_glance = Fraction(4, 6) * SIXTH  # a hit (3+), then a natural 1
    assert res["glancing"]["mean"] == pytest.approx(float(2 * p_glance), abs=TOL)


def test_critical_vs_vehicle_options() -> None:
    """BS 10: every hit is Critical; by default +1 Damage if it penetrates, `wasted`: nothing at all."""
    base = vehicle_doc({"FP": 1, "RS": 8, "D": 1}, {"Front Armour": 10, "HP": 3}, attacker={"BS": 10})
    res = run(base)
    # automatic hit; penetrates on 3+ (D6 + 8 > 10), glances on 2: Damage 2
    assert res["hull_points"]["pmf"] == pytest.approx([2 / 6, 0.0, 4 / 6], abs=TOL)
    wasted = run({**base, "options": {"critical_vs_vehicle": "wasted"}})
    assert wasted["hull_points"]["mean"] == pytest.approx(0.0, abs=TOL)


def test_knight_side_reads_rear() -> None:
    """A Knight has Front and Rear only: a hit on its Side uses the Rear value."""
    doc = vehicle_doc(
        {"FP": 2, "RS": 8, "D": 1},
        {},
    )
    doc["target"] = {
        "name": "Knight",
        "Type": "Vehicle (Knight)",
        "M": 8,
        "WS": 4,
        "BS": 4,
        "S": 10,
        "Front": 12,
        "Rear": 9,
        "I": 4,
        "A": 3,
        "HP": 4,
        "facing": "Side",
    }
    want = vehicle_play(vehicle_outcomes(Weapon(8, None), 9), 2, 4, None)
    assert_result(run(doc), want)


def test_explodes() -> None:
    """Explodes (4+): P(wrecked) x 1/2."""
    doc = vehicle_doc({"FP": 2, "RS": 9, "D": 1}, {"Front Armour": 10, "HP": 1, "rules": ["Explodes (4+)"]})
    want = vehicle_play(vehicle_outcomes(Weapon(9, None), 10), 2, 1, None)
    res = run(doc)
    assert res["explodes"] == pytest.approx(float(want.statuses["wrecked"] / 2), abs=TOL)


def test_void_shields_take_the_first_penetrating_hits() -> None:
    """Void Shields (1): the first Penetrating Hit of the shooting attack does nothing (before its save)."""
    doc = vehicle_doc({"FP": 3, "RS": 9, "D": 1}, {"Front Armour": 10, "HP": 3, "rules": ["Void Shields (1)"]})
    per = vehicle_outcomes(Weapon(9, None), 10)
    want = Dists()
    for combo in itertools.product(list(per.items()), repeat=3):
        p = combo[0][1] * combo[1][1] * combo[2][1]
        outs = [o for o, _ in combo]
        shields, lost = 1, 0
        for o in outs:
            if o.pen and shields:
                shields -= 1
                continue
            lost += o.damage
        want.add("hull_points", min(3, lost), p)
        want.add("penetrating", sum(o.pen for o in outs), p)
        want.add("glancing", sum(o.glance for o in outs), p)
    assert_result(run(doc), want)


def test_shock_in_melee_vs_vehicle() -> None:
    """Shock acts in melee too (section 14): a natural 5-6 Hit Test on the WS chart, beside the Damage Table."""
    doc = melee_doc({"Special Rules": "Shock (Pinned)", "SM": "+4"}, {}, {"A": 2, "models": 1})
    doc["target"] = melee_vehicle(10)
    want = vehicle_play(vehicle_outcomes_ws(Weapon(8, None), 10, ws=(4, 1)), 2, 3, "Pinned")
    res = run(doc)
    assert_result(res, want)
    for name in ("Pinned", "Suppressed", "Stunned"):
        assert res["statuses"][name] == pytest.approx(float(want.statuses[name]), abs=TOL), name


@pytest.mark.parametrize(
    ("bs", "snap"),
    [(1, True), (0, False)],
    ids=["bs1_snap_none", "bs0_no_attack"],
)
def test_no_hit_die_no_shock(bs: int, snap: bool) -> None:
    """BS 1 Snap Shots ("none") and BS 0 roll no Hit Test: a miss that triggers nothing (section 4), so Shock
    (X), which reads a natural 5-6, cannot act; as against a Walker unit (the unit chain gives 0 there)."""
    doc = vehicle_doc(
        {"FP": 2, "RS": 4, "Special Rules": "Shock (Stunned)"},
        {"Front Armour": 12},
        attacker={"BS": bs},
        snap_shots=snap,
    )
    res = run(doc)
    assert res["hits"]["mean"] == pytest.approx(0.0, abs=TOL)
    assert res["statuses"]["Stunned"] == pytest.approx(0.0, abs=TOL)
    walker = shooting_doc(
        {"FP": 2, "Special Rules": "Shock (Stunned)"},
        {"models": 1, "Type": "Walker", "T": 7, "W": 3},
        attacker={"BS": bs, "models": 1},
        snap_shots=snap,
    )
    assert run(walker)["statuses"]["Stunned"] == pytest.approx(0.0, abs=TOL)
