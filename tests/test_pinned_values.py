"""Oracle (c): pinned reference values, each with its source in a comment."""

from __future__ import annotations

from fractions import Fraction

import pytest

from praetor_analysis.scenario.calc import calc


def scen(type_: str, *, bs: int = 4, s: str = "4", ap: str = "5", target: dict | None = None, **kw) -> dict:
    base = {
        "attacker": {"BS": bs, "S": 4, "models": 1},
        "weapon": {"name": "w", "Range": '24"', "Strength": s, "AP": ap, "Type": type_},
        "target": target or {"models": 10, "T": 4, "W": 1, "Save": "3+", "Ld": 7},
    }
    base.update(kw)
    return base


def test_rending_ten_shots_issue_2():
    # Source: issue 2 ("10 shots at BS 4, S4 AP5 Rending (6+) against T4 3+ give exactly 50/27 mean
    # unsaved wounds, and with Shred exactly 25/9"). By hand: per shot 2/3 hit; wound rolls 4,5 wound at
    # AP5 (saved on 3+: 1/3 unsaved), a 6 rends at AP2 (unsaved): 2/3 * (2/6 * 1/3 + 1/6) = 5/27.
    assert calc(scen("Heavy 10, Rending (6+)"))["unsaved"]["mean"] == pytest.approx(50 / 27, abs=1e-12)
    assert calc(scen("Heavy 10, Rending (6+), Shred"))["unsaved"]["mean"] == pytest.approx(25 / 9, abs=1e-12)


def test_bs7_hits_eight_ninths_issue_2():
    # Source: issue 2 and MECHANICS 2: BS 7 hits on 2+, a natural 1 re-rolled needing 5+: 5/6 + 1/6 * 2/6.
    assert calc(scen("Heavy 1", bs=7))["hits"]["pmf"][1] == pytest.approx(8 / 9, abs=1e-15)


def test_bs_table_first_band():
    # Source: MECHANICS 2 table: BS1..5 hit on 7-BS; BS10 hits on 2+ then 2+ again: 35/36.
    for bs in range(1, 6):
        assert calc(scen("Heavy 1", bs=bs))["hits"]["mean"] == pytest.approx((bs) / 6, abs=1e-15)
    assert calc(scen("Heavy 1", bs=10))["hits"]["mean"] == pytest.approx(35 / 36, abs=1e-15)


def test_twin_linked_bs6_rerolls_on_2_plus():
    # Source: MECHANICS 2: "BS 6+ twin-linked re-rolls a 1 on 2+": 5/6 + 1/6 * 5/6 = 35/36.
    assert calc(scen("Heavy 1, Twin-linked", bs=6))["hits"]["mean"] == pytest.approx(35 / 36, abs=1e-15)


def test_lascannon_kills_terminator_by_instant_death():
    # By hand: S9 vs T4 is Instant Death (S >= 2T); BS4 2/3 hit, 2+ wound 5/6, AP2 negates 2+ armour,
    # 5+ invulnerable fails 4/6; FNP 5+ not allowed against ID. 2/3 * 5/6 * 4/6 = 10/27 dead.
    t = {"models": 5, "T": 4, "W": 2, "Save": "2+", "Invulnerable": "5+", "rules": ["Feel No Pain (5+)"]}
    r = calc(scen("Heavy 1", s="9", ap="2", target=t))
    assert r["casualties"]["pmf"][1] == pytest.approx(float(Fraction(10, 27)), abs=1e-15)


def test_brutal_overflow_is_lost():
    # By hand: one automatic hit, S9 vs T5 wounds on 2+ (5/6, no Instant Death as 9 < 10), Brutal (3)
    # against a W2 model with no save: all three wounds are unsaved, two kill the model and the third is
    # lost, never carried to the next model: casualties <= 1, P(1) = 5/6, mean unsaved 3 * 5/6 = 2.5.
    t = {"models": 3, "T": 5, "W": 2, "Save": "-"}
    r = calc(scen("Heavy 1, Brutal (3)", s="9", ap="-", target=t, hits=1))
    assert r["unsaved"]["mean"] == pytest.approx(3 * 5 / 6 * 1, abs=1e-12)
    assert len(r["casualties"]["pmf"]) == 2
    assert r["casualties"]["pmf"][1] == pytest.approx(5 / 6, abs=1e-15)


def test_pinning_praetor_like_hits():
    # By hand: 3 automatic hits S7 AP4 Pinning vs Legionaries T4 3+ Ld 7: each wound on 2+ (5/6) at AP4,
    # saved on 3+: unsaved 5/6 * 1/3 = 5/18 each; P(at least one) = 1 - (13/18)^3; Ld 7 test on 2D6 fails
    # with 15/36. Ten models cannot all die from 3 wounds, so P(pinned) = (1 - (13/18)^3) * 15/36.
    r = calc(scen("Ordnance 1, Pinning", s="7", ap="4", hits=3))
    assert r["pinned"] == pytest.approx((1 - (13 / 18) ** 3) * 15 / 36, abs=1e-15)


def test_pinning_exemptions_are_null():
    # SCENARIO.md: pinned is null when exempt (MECHANICS 7 lists Fearless, already Pinned, locked, embarked).
    for rule in ("Fearless", "Pinned", "Locked in Combat", "Embarked"):
        t = {"models": 10, "T": 4, "W": 1, "Save": "3+", "Ld": 7, "rules": [rule]}
        assert calc(scen("Heavy 2, Pinning", target=t))["pinned"] is None
    assert calc(scen("Heavy 2"))["pinned"] == 0.0
