"""A weapon rule set aside by a higher-ranked rule that sets the same roll (docs/rules.md#rules-that-set-the-same-
roll) is listed under ``no_effect`` with its own reason, by ``calc`` and ``calc_many`` alike, in either printed
order; where the higher-ranked rule does not act (Graviton Pulse on a Dreadnought) the lower one stays applied.
The numbers do not change: only the lists (``tests/test_rule_order.py`` pins the numbers against the oracle)."""

from __future__ import annotations

import pytest

from praetor_analysis.scenario.calc import calc, calc_many

INFANTRY = {"models": 4, "T": 4, "S": 4, "W": 1, "Save": "3+"}
DAEMON = {"models": 3, "T": 5, "S": 6, "W": 3, "Save": "3+", "Unit Type": "Infantry (Daemon, Psyker)"}
DREADNOUGHT = {"models": 2, "T": 7, "S": 6, "W": 4, "Save": "2+", "Unit Type": "Dreadnought"}


def _doc(rules: str, row: dict) -> dict:
    target = {"name": "t", "Unit Type": "Infantry", "WS": 4, "I": 4, "Ld": 8, **row}
    return {
        "mode": "shooting",
        "attacker": {"BS": 4, "WS": 4, "S": 4, "T": 4, "W": 1, "Ld": 8, "Save": "3+", "models": 1},
        "weapon": {"name": "g", "Range": '24"', "Strength": "5", "AP": "4", "Type": f"Assault 2, {rules}"},
        "target": target,
    }


def _both_paths(a: str, b: str, row: dict) -> list[dict]:
    docs = [_doc(f"{a}, {b}", row), _doc(f"{b}, {a}", row)]
    return [*(calc(d) for d in docs), *calc_many(docs)]


@pytest.mark.parametrize(
    ("lower", "higher", "row"),
    [
        ("Fleshbane", "Graviton Pulse", INFANTRY),
        ("Poisoned (3+)", "Graviton Pulse", INFANTRY),
        ("Destroyer", "Destructor", INFANTRY),
        ("Destroyer", "Destructor", DREADNOUGHT),
        ("Destroyer", "Moonsilver", DAEMON),
        ("Moonsilver", "Destructor", DAEMON),
    ],
)
def test_a_rule_set_aside_is_under_no_effect_with_its_reason(lower, higher, row):
    entry = f"{lower} (set aside by {higher})"
    results = _both_paths(lower, higher, row)
    for got in results:
        assert higher in got["applied"]
        assert lower not in got["applied"]
        assert entry in got["no_effect"]
        assert got["reasons"][entry].startswith(f"set aside by {higher}, which sets the same roll")
    assert all(r["casualties"] == results[0]["casualties"] for r in results)  # the order changes no number


@pytest.mark.parametrize(("lower", "row"), [("Fleshbane", DREADNOUGHT), ("Poisoned (3+)", DREADNOUGHT)])
def test_a_rule_stays_applied_where_the_higher_one_does_not_act(lower, row):
    # Graviton Pulse does not act on Dreadnoughts (docs/rules.md#graviton-pulse): the wound roll is made
    for got in _both_paths(lower, "Graviton Pulse", row):
        assert lower in got["applied"]
        assert not any("set aside" in e for e in got["no_effect"])


@pytest.mark.parametrize(("a", "b"), [("Fleshbane", "Entangle (1)"), ("Graviton Pulse", "Entangle (1)")])
def test_rules_that_both_act_stay_applied(a, b):
    # Entangle's discarded wounds stand under Graviton Pulse; Fleshbane sets the need of Entangle's roll
    for got in _both_paths(a, b, INFANTRY):
        assert a in got["applied"] and b in got["applied"]
