"""A unit struck in melee is locked in combat, and a unit locked in combat takes no Pinning test (the rules
model's Pinning exemptions; docs/rules.md#pinning-test): ``pinned`` is null, the Pinning test's rules are
listed under ``no_effect`` and their ``reasons`` say why, in one-way melee, in a whole round and in a
sequence with a melee volley; arrays (``calc_many``) give what single scenarios do."""

from __future__ import annotations

import copy

import pytest
from oracle import oracle_calc, oracle_sequence

from praetor_analysis.engine.rule_report import LOCKED_REASON
from praetor_analysis.scenario.calc import calc, calc_many

ATTACKER = {"models": 1, "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 3, "Ld": 7, "Save": "-"}
TARGET = {"models": 2, "WS": 4, "S": 4, "T": 4, "W": 2, "I": 4, "A": 1, "Ld": 7, "Save": "-"}
PIN_BLADE = {"name": "w", "Strength": "User", "AP": "-", "Type": "Melee, Pinning"}
PIN_GUN = {"name": "g", "Strength": 4, "AP": "-", "Type": "Assault 2, Pinning, Shell Shock (1)"}
ONE_WAY = {"mode": "melee", "attacker": ATTACKER, "weapon": PIN_BLADE, "target": TARGET}


def _both(scenario: dict) -> dict:
    """calc's result, checked equal to the array path's."""
    single, (many,) = calc(copy.deepcopy(scenario)), calc_many([copy.deepcopy(scenario)])
    assert single == many
    return single


def _locked_report(r: dict, *entries: str) -> None:
    assert r["pinned"] is None
    for entry in entries:
        assert entry in r["no_effect"] and entry not in r["applied"]
        assert r["reasons"][entry].startswith(LOCKED_REASON)


def test_one_way_melee_target_is_locked_in_combat() -> None:
    # it tested as if shot: pinned 0.2409 before; the blows themselves are unchanged. By hand: 3 blows, each
    # unsaved with 1/2 (WS 4 vs 4) x 1/2 (S4 vs T4) = 1/4; two W2 models lose one only to 2+ unsaved wounds:
    # P(a casualty) = 1 - (3/4)^3 - 3 (1/4)(3/4)^2 = 10/64.
    r = _both(ONE_WAY)
    _locked_report(r, "Pinning")
    assert r["casualties"]["pmf"] == pytest.approx([54 / 64, 10 / 64], abs=1e-12)


def test_one_way_melee_locked_with_the_pinning_tests_rules() -> None:
    blade = dict(PIN_BLADE, Type="Melee, Pinning, Shell Shock (2)")
    r = _both(dict(ONE_WAY, weapon=blade, target=dict(TARGET, rules=["Stubborn"])))
    _locked_report(r, "Pinning", "Shell Shock (2)", "target: Stubborn")
    # Fearless also stops Shrouded, which does act in the chain: still applied
    r = _both(dict(ONE_WAY, target=dict(TARGET, rules=["Fearless"])))
    _locked_report(r, "Pinning")
    assert "target: Fearless" in r["applied"]


def test_one_way_melee_without_pinning_still_reports_zero() -> None:
    r = _both(dict(ONE_WAY, weapon=dict(PIN_BLADE, Type="Melee")))
    assert r["pinned"] == 0.0  # no weapon pins: 0.0, as everywhere


def test_whole_round_reports_pinning_as_no_effect() -> None:
    r = calc(dict(ONE_WAY, target_weapon={"name": "t", "Strength": "User", "AP": "-", "Type": "Melee"}))
    _locked_report(r, "Pinning")


@pytest.mark.parametrize("order", ["gun then blade", "blade then gun", "one firing unit"])
def test_a_sequence_with_a_melee_volley_locks_its_target(order: str) -> None:
    gun = {"mode": "shooting", "attacker": ATTACKER, "weapon": PIN_GUN}
    blade = {"mode": "melee", "attacker": ATTACKER, "weapon": PIN_BLADE}
    units = {"gun then blade": [[gun], [blade]], "blade then gun": [[blade], [gun]], "one firing unit": [[gun, blade]]}
    r = _both({"firing_units": units[order], "target": TARGET})
    _locked_report(r, "Pinning", "Shell Shock (1)")
    # the Pinning test never changes casualties: the same sequence without Pinning kills alike
    plain = [
        [dict(v, weapon=dict(v["weapon"], Type=v["weapon"]["Type"].split(",")[0])) for v in u] for u in units[order]
    ]
    bare = calc({"firing_units": plain, "target": TARGET})
    assert r["casualties"]["pmf"] == pytest.approx(bare["casualties"]["pmf"], abs=1e-12)
    # without the melee volley the gun's target tests as before
    shot = _both({"firing_units": [[gun], [gun]], "target": TARGET})
    assert 0.0 < shot["pinned"] < 1.0 and "Pinning" in shot["applied"]


def test_locked_targets_match_the_enumeration() -> None:
    # the brute-force oracle enumerates every die, the target locked in combat too
    r, want = calc(ONE_WAY), oracle_calc(ONE_WAY)
    assert want["pinned"] is None and r["pinned"] is None
    assert r["casualties"]["pmf"] == pytest.approx(want["casualties"], abs=1e-12)
    gun = {"mode": "shooting", "attacker": ATTACKER, "weapon": PIN_GUN}
    blade = {"mode": "melee", "attacker": ATTACKER, "weapon": PIN_BLADE}
    r = calc({"firing_units": [[gun], [blade]], "target": TARGET})
    want = oracle_sequence(TARGET, [[gun], [blade]])
    assert want["pinned"] is None and r["pinned"] is None
    assert r["casualties"]["pmf"] == pytest.approx(want["casualties"], abs=1e-12)
