"""Edition 3: every stage of the chain against the die-by-die brute-force oracle (tests/oracle_hh3), 1e-12.

Each case is small enough to enumerate every die of every attack die's story and every sequence of them.
"""

from __future__ import annotations

import pytest
from oracle_hh3 import oracle_hh3
from oracle_hh3.brute import oracle_hh3_force, oracle_misfire_losses

from praetor_analysis.scenario.calc import calc

MARINE = {
    "name": "Legionaries",
    "Type": "Infantry",
    "WS": 4,
    "BS": 4,
    "S": 4,
    "T": 4,
    "W": 1,
    "I": 4,
    "A": 1,
    "LD": 7,
    "CL": 7,
    "SAV": "3+",
    "INV": "-",
}
BOLTER = {"name": "Bolter", "R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1, "Special Rules": "", "Traits": "Bolt"}
LASCANNON = {
    "name": "Lascannon",
    "R": 48,
    "FP": 1,
    "RS": 9,
    "AP": 2,
    "D": 3,
    "Special Rules": "Heavy (D), Armourbane",
    "Traits": "Las",
}
POWER_FIST = {
    "name": "Power fist",
    "IM": "-3",
    "AM": "A",
    "SM": "+4",
    "AP": 2,
    "D": 2,
    "Special Rules": "",
    "Traits": "Power",
}


def _doc(weapon, *, attacker=None, target=None, **extra):
    return {
        "edition": "hh3",
        "attacker": {**MARINE, "models": 1, **(attacker or {})},
        "weapon": weapon,
        "target": {**MARINE, "models": 3, **(target or {})},
        **extra,
    }


def _pmf(dist):
    return {k: p for k, p in enumerate(dist["pmf"]) if p > 0}


def _close(a: dict, b: dict, tol: float = 1e-12) -> bool:
    keys = set(a) | set(b)
    return all(abs(a.get(k, 0.0) - b.get(k, 0.0)) <= tol for k in keys)


CASES = {
    "bolter squad": _doc(BOLTER, attacker={"models": 2}),
    "lascannon stationary": _doc(LASCANNON, target={"W": 2, "T": 6}, stationary=True),
    "lascannon moving": _doc(LASCANNON, target={"W": 4, "T": 7, "models": 2}),
    "power fist": _doc(POWER_FIST, attacker={"A": 2}, target={"W": 3, "models": 2}, mode="melee"),
    "rending": _doc({**BOLTER, "Special Rules": "Rending (5+)", "RS": 3}, attacker={"models": 2}),
    "breaching": _doc({**BOLTER, "Special Rules": "Breaching (5+)", "AP": 4}, attacker={"models": 2}),
    "shred multi-wound": _doc(
        {**BOLTER, "Special Rules": "Shred (5+)", "D": 1}, attacker={"models": 2}, target={"W": 2}
    ),
    "critical band BS 7": _doc({**BOLTER, "D": 1}, attacker={"BS": 7, "models": 2}, target={"W": 2}),
    "critical hit rule": _doc(
        {**BOLTER, "Special Rules": "Critical Hit (5+), Shred (6+)", "D": 1}, attacker={"models": 2}, target={"W": 3}
    ),
    "BS 10 automatic": _doc(BOLTER, attacker={"BS": 10}, target={"W": 2}),
    "snap shots BS 4": _doc(
        {**BOLTER, "Special Rules": "Precision (4+), Critical Hit (6+)"}, attacker={"models": 2}, snap_shots=True
    ),
    "poisoned": _doc({**BOLTER, "RS": 2, "Special Rules": "Poisoned (4+)"}, attacker={"models": 2}, target={"T": 5}),
    "poisoned walker": _doc(
        {**BOLTER, "RS": 2, "Special Rules": "Poisoned (3+)"},
        attacker={"models": 2},
        target={"T": 5, "Type": "Walker", "W": 2},
    ),
    "deflagrate": _doc({**BOLTER, "Special Rules": "Deflagrate (4)", "FP": 1}, attacker={"models": 3}, target={"W": 2}),
    "fnp and shrouded": _doc(
        BOLTER, attacker={"models": 2}, target={"rules": ["Feel No Pain (5+)", "Shrouded (4+)"], "Cover": "5+"}
    ),
    "eternal warrior D3": _doc(
        {**BOLTER, "D": "D3", "FP": 1, "AP": 2, "Special Rules": "Critical Hit (6+)"},
        attacker={"models": 3},
        target={"W": 3, "rules": ["Eternal Warrior (1)"]},
    ),
    "heavy FP & AP, ordnance D": _doc(
        {**BOLTER, "FP": 1, "D": 2, "Special Rules": "Heavy (FP & AP), Ordnance (D)"}, target={"W": 3}, stationary=True
    ),
    "FP as dice": _doc({**BOLTER, "FP": "D3"}, attacker={"models": 1}),
    "statuses": _doc(
        {**BOLTER, "Special Rules": "Pinning (1), Suppressive (2), Stun (0), Panic (1)"},
        attacker={"models": 2},
        target={"models": 4, "Type": "Infantry (Heavy)"},
    ),
    "statuses plain infantry": _doc(
        {**BOLTER, "Special Rules": "Pinning (0), Suppressive (1), Stun (1)"}, attacker={"models": 2}
    ),
    "shock at a walker": _doc(
        {**BOLTER, "RS": 6, "Special Rules": "Shock (Stunned), Pinning (1)"},
        attacker={"models": 2},
        target={"Type": "Walker", "T": 6, "W": 2, "models": 2},
    ),
    "shock with three statuses, BS 10": _doc(
        {**BOLTER, "FP": 1, "Special Rules": "Shock (Pinning, Stunned, Suppressed)"},
        attacker={"BS": 10, "models": 2},
        target={"Type": "Walker", "W": 2},
    ),
    "shock in melee at a walker": _doc(
        {**POWER_FIST, "Special Rules": "Shock (Suppressed)"},
        attacker={"A": 2},
        target={"Type": "Walker", "T": 7, "W": 3, "models": 1},
        mode="melee",
    ),
    "shock at infantry": _doc({**BOLTER, "Special Rules": "Shock (Stunned)"}, attacker={"models": 2}),
    "phage in a sequence": {
        "edition": "hh3",
        "target": {**MARINE, "models": 2, "W": 2},
        "firing_units": [
            [{"attacker": {**MARINE, "models": 1}, "weapon": {**BOLTER, "Special Rules": "Phage (T)"}}],
            [
                {"attacker": {**MARINE, "models": 1}, "weapon": {**LASCANNON, "Special Rules": "Phage (S)"}},
                {
                    "attacker": {**MARINE, "models": 1},
                    "weapon": {**BOLTER, "FP": 1, "Special Rules": "Phage (T), Shock (Stunned)"},
                },
            ],
        ],
    },
    "reaping blow outnumbered": _doc(
        {**POWER_FIST, "SM": "S", "AP": 4, "D": 1, "Special Rules": "Reaping Blow (1)"},
        attacker={"models": 1, "rules": ["Bulky (2)"]},
        target={"models": 3},
        mode="melee",
    ),
    "reaping blow not outnumbered": _doc(
        {**POWER_FIST, "SM": "S", "AP": 4, "D": 1, "Special Rules": "Reaping Blow (2)"},
        attacker={"models": 2, "rules": ["Bulky (2)"]},
        target={"models": 3},
        mode="melee",
    ),
    "25 percent": _doc({**BOLTER, "AP": 3}, attacker={"models": 2}, target={"models": 2, "LD": 6}),
    "given hits": _doc({**BOLTER, "Special Rules": "Blast (3), Rending (4+)"}, hits="D3"),
    "melee rending shred": _doc(
        {**POWER_FIST, "SM": "+1", "AP": 3, "D": 1, "Special Rules": "Rending (5+), Shred (6+)"},
        attacker={"A": 2, "WS": 5},
        target={"W": 2, "Cover": "4+", "rules": ["Shrouded (3+)"]},
        mode="melee",
    ),
    "firing units carry over": {
        "edition": "hh3",
        "target": {**MARINE, "models": 2, "W": 3},
        "firing_units": [
            [{"attacker": {**MARINE, "models": 1}, "weapon": {**BOLTER, "D": 2, "Special Rules": "Pinning (0)"}}],
            [
                {"attacker": {**MARINE, "models": 1}, "weapon": {**LASCANNON, "Special Rules": "Panic (1)"}},
                {"attacker": {**MARINE, "models": 1}, "weapon": {**POWER_FIST, "D": 1}, "mode": "melee"},
            ],
        ],
    },
}


@pytest.mark.parametrize("name", list(CASES))
def test_engine_equals_the_die_by_die_oracle(name):
    doc = CASES[name]
    got = calc(doc)
    want = oracle_hh3(doc)
    for key in ("hits", "critical_hits", "wounds", "unsaved", "casualties", "damage"):
        assert _close(_pmf(got[key]), want[key]), (name, key, _pmf(got[key]), want[key])
    assert _close(got.get("phage", {}), want["phage"]), (name, got.get("phage"), want["phage"])
    for status, p in got["statuses"].items():  # null: nothing can cause it, a certain 0
        assert abs((0.0 if p is None else p) - want["statuses"][status]) <= 1e-12, (
            name,
            status,
            p,
            want["statuses"][status],
        )


@pytest.mark.parametrize(
    ("order", "explicit"),
    [
        ("created", ["plain", "breaching", "breaching+shred"]),
        ("largest_damage_first", ["plain", "breaching+shred", "breaching"]),
    ],
)
def test_group_order_option(order, explicit):
    """Breaching (5+) sets natural 5s aside (D 1, AP 2) and natural 6s as Breaching and Shred (D 2): created
    order applies the D 1 group first, largest_damage_first the D 2 group; against W 2 models the excess lost
    differs (a 1 then a 2 kills one model and loses 1; a 2 then a 1 kills one and wounds another)."""
    weapon = {**BOLTER, "FP": 1, "D": 1, "RS": 5, "Special Rules": "Breaching (5+), Shred (6+)"}
    doc = _doc(weapon, attacker={"models": 3}, target={"W": 2, "models": 2}, options={"group_order": order})
    got = calc(doc)
    want = oracle_hh3(doc, order=explicit)
    assert _close(_pmf(got["casualties"]), want["casualties"])
    assert _close(_pmf(got["damage"]), want["damage"])


def test_the_group_order_option_changes_the_damage():
    weapon = {**BOLTER, "FP": 1, "D": 1, "RS": 5, "Special Rules": "Breaching (5+), Shred (6+)"}
    doc = _doc(weapon, attacker={"models": 3}, target={"W": 2, "models": 2})
    created = calc(doc)["damage"]["mean"]
    largest = calc({**doc, "options": {"group_order": "largest_damage_first"}})["damage"]["mean"]
    assert largest > created + 1e-6


def test_overload_misfires_against_the_oracle():
    weapon = {**BOLTER, "FP": 2, "D": 1, "RS": 6, "AP": 4, "Special Rules": "Overload (2), Breaching (6+)"}
    doc = _doc(weapon, attacker={"models": 1, "W": 2})
    got = calc(doc)
    want = oracle_hh3(doc)
    (misfire,) = got["misfires"]
    assert _close(_pmf(misfire["hits"]), want["misfire_counts"][0])
    losses = oracle_misfire_losses(doc, want["misfire_counts"][0])
    assert _close(_pmf(misfire["casualties"]), losses)
    assert _close(_pmf(got["casualties"]), want["casualties"])


@pytest.mark.parametrize(("force", "wp"), [("D", 8), ("AP", 7), ("FP", 2), ("RS", 12)])
def test_force_mixes_the_willpower_check(force, wp):
    """Force (X): the Check at WP passes (double 1 always, double 6 never) and doubles X; the result is the
    mixture of the boosted and the plain attack, and force reports P(boost) and P(Perils) = 6/36."""
    weapon = {**BOLTER, "FP": 1, "AP": 4, "D": 1, "Special Rules": f"Force ({force}), Pinning (1)"}
    doc = _doc(weapon, attacker={"models": 2, "WP": wp}, target={"W": 2, "T": 5})
    got, want = calc(doc), oracle_hh3_force(doc)
    for key in ("hits", "critical_hits", "wounds", "unsaved", "casualties", "damage"):
        assert _close(_pmf(got[key]), want[key]), (key, _pmf(got[key]), want[key])
    for status, p in got["statuses"].items():
        assert abs((0.0 if p is None else p) - want["statuses"][status]) <= 1e-12
    (entry,) = got["force"]
    assert abs(entry["boost"] - want["boost"]) <= 1e-15 and entry["perils"] == pytest.approx(6 / 36)
    assert f"Force ({force})" in got["applied"]


def test_the_firers_feel_no_pain_acts_on_its_misfires():
    weapon = {**BOLTER, "FP": 2, "D": 2, "RS": 7, "AP": 2, "Special Rules": "Overload (2)"}
    doc = _doc(weapon, attacker={"models": 2, "W": 2, "rules": ["Feel No Pain (5+)"]})
    got = calc(doc)
    want = oracle_hh3(doc)
    (misfire,) = got["misfires"]
    assert _close(_pmf(misfire["casualties"]), oracle_misfire_losses(doc, want["misfire_counts"][0]))
    assert "Feel No Pain (5+)" in got["applied"]
    plain = calc(_doc(weapon, attacker={"models": 2, "W": 2}))
    assert plain["misfires"][0]["casualties"]["mean"] > misfire["casualties"]["mean"]
