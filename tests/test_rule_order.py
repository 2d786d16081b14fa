"""A weapon's rules are a set: the order its Type lists them in never changes the answer.

Generated over every pair of declared rules that the wound, save and damage stages read, in both orders, against
targets on which they act (Daemons and Psykers, Dreadnoughts, Monstrous models, Strength 2 to 6): the per-hit
tables of the one-cell engine equal; the pairs whose hooks do not commute (docs/rules.md#rules-that-set-the-same-
roll) give the same casualties by ``calc`` and ``calc_many`` in both orders, and the brute-force oracle's.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np
import pytest
from oracle import oracle_calc

import praetor_analysis.engine.wound_stage as wound_stage
from praetor_analysis.engine.volley import Volley
from praetor_analysis.engine.wound_stage import build_wound_tables, wound_stage_rules
from praetor_analysis.errors import PraetorError
from praetor_analysis.profiles.records import Weapon, unit_from_mapping
from praetor_analysis.rules import REGISTRY, stage_hooks
from praetor_analysis.scenario.calc import calc, calc_many

TOL = 1e-12

#: The pairs whose hooks set the same thing (the wound roll's target number, an unsaved wound's damage).
CLASHING = [
    ("Fleshbane", "Graviton Pulse"),
    ("Fleshbane", "Entangle (1)"),
    ("Graviton Pulse", "Entangle (1)"),
    ("Graviton Collapse", "Data-djinn"),
    ("Destroyer", "Destructor"),
    ("Poisoned (3+)", "Graviton Pulse"),
    ("Sanctic", "Graviton Pulse"),
    ("Sanctic", "Entangle (1)"),
    ("Destroyer", "Moonsilver"),
    ("Destructor", "Moonsilver"),
]

TARGET_ROWS = [
    {"models": 4, "T": 4, "S": 4, "W": 1, "Save": "3+"},
    {"models": 3, "T": 4, "S": 2, "W": 2, "Save": "4+", "Invulnerable": "5+"},
    {"models": 3, "T": 5, "S": 6, "W": 3, "Save": "3+", "Unit Type": "Infantry (Daemon, Psyker)"},
    {"models": 2, "T": 7, "S": 6, "W": 4, "Save": "2+", "Unit Type": "Dreadnought"},
    {"models": 2, "T": 6, "S": 5, "W": 4, "Save": "3+", "Unit Type": "Infantry (Monstrous, Mechanised)"},
]


def _weapon(rules: str, strength: int = 5) -> Weapon:
    return Weapon.from_mapping(
        {"name": "w", "Range": '24"', "Strength": str(strength), "AP": "4", "Type": f"Heavy 1{rules}"}
    )


def _unit(row: dict, field_name: str = "target"):
    return unit_from_mapping({"WS": 4, "S": 4, "A": 1, "BS": 4, "Ld": 8, **row}, field_name=field_name)


def _stage_rules() -> list[str]:
    """One token of each declared rule that the wound, save and damage stages read (a value where it needs one)."""
    bare = wound_stage_rules(_weapon(""))
    out = []
    for name in REGISTRY:
        for token in (name, f"{name} (3+)", f"{name} (2)", f"{name} (AP2)", f"{name} (Melta)"):
            try:
                weapon = _weapon(f", {token}")
            except PraetorError:
                continue
            if wound_stage_rules(weapon) != bare:
                out.append(token)
            break
    return out


def tables_in_both_orders(rules: list[str], targets: list, attacker) -> Iterator[tuple[str, str, Weapon, Weapon, bool]]:
    """For each pair of ``rules`` allowed together and each target they can attack: (a, b, the weapon listing
    them a then b, the weapon listing them b then a, whether their per-hit tables at Strength 5 agree to 1e-12)."""
    for a, b in itertools.combinations(rules, 2):
        try:
            first, second = _weapon(f", {a}, {b}"), _weapon(f", {b}, {a}")
        except PraetorError:  # refused beside each other
            continue
        for target in targets:
            try:
                got = build_wound_tables(Volley(first, attacker, attacks=3), target, 5, target.W or 1)
            except PraetorError:
                continue
            want = build_wound_tables(Volley(second, attacker, attacks=3), target, 5, target.W or 1)
            yield a, b, first, second, _close(got, want)


def _close(a: tuple, b: tuple) -> bool:
    """Equal to 1e-12: groups (P and packet), P(wound), unsaved pmf, damage."""
    (ga, pa, ua, da), (gb, pb, ub, db) = a, b
    return (
        len(ga) == len(gb)
        and all(
            abs(x.p - y.p) <= TOL
            and x.packet.probs.shape == y.packet.probs.shape
            and np.allclose(x.packet.probs, y.packet.probs, rtol=0.0, atol=TOL)
            for x, y in zip(ga, gb, strict=True)
        )
        and abs(pa - pb) <= TOL
        and ua.shape == ub.shape
        and np.allclose(ua, ub, rtol=0.0, atol=TOL)
        and da == db
    )


def hooks_as_printed(monkeypatch) -> None:
    """The wound and damage hooks of a weapon's rules in its Type's order, not ranked by precedence."""
    monkeypatch.setattr(
        wound_stage, "ranked_hooks", lambda slot, tokens, winner_first=False: list(stage_hooks(slot, tokens))
    )


def _tables_apart() -> set[tuple[str, str]]:
    """The pairs of stage rules whose per-hit tables differ between the two orders, against any target."""
    rules = _stage_rules()
    assert len(rules) > 30
    found = list(tables_in_both_orders(rules, [_unit(row) for row in TARGET_ROWS], _unit({"models": 5}, "attacker")))
    assert len(found) > 3000
    return {(a, b) for a, b, _, _, close in found if not close}


def test_every_pair_of_stage_rules_gives_the_same_tables_in_both_orders():
    assert _tables_apart() == set()


def test_the_pairs_that_clash_differ_when_the_hooks_act_as_printed(monkeypatch):
    # the test above can fail: with the hooks in the Type's order (no precedence), these pairs' tables differ
    hooks_as_printed(monkeypatch)

    def names(pairs):
        return {tuple(sorted(r.split(" (")[0] for r in pair)) for pair in pairs}

    assert names(CLASHING) <= names(_tables_apart())


def _doc(rules: str, row: dict) -> dict:
    target = {"name": "t", "Unit Type": "Infantry", "WS": 4, "I": 4, "Ld": 8, **row}
    return {
        "mode": "shooting",
        "attacker": {"BS": 4, "WS": 4, "S": 4, "T": 4, "W": 1, "Ld": 8, "Save": "3+", "models": 1},
        "weapon": {"name": "g", "Range": '24"', "Strength": "5", "AP": "4", "Type": f"Assault 2, {rules}"},
        "target": target,
    }


@pytest.mark.parametrize(("a", "b"), CLASHING)
def test_clashing_pairs_give_one_answer_by_calc_and_calc_many_and_the_oracle(a, b):
    ran = 0
    for row in TARGET_ROWS:
        docs = [_doc(f"{a}, {b}", row), _doc(f"{b}, {a}", row)]
        try:
            cells = [calc(doc) for doc in docs]
        except PraetorError:  # a target the pair cannot attack (refused on one line)
            continue
        ran += 1
        many = calc_many(docs)
        want = oracle_calc(docs[0])
        for key in ("wounds", "unsaved", "casualties"):
            for got in (*cells, *many):
                pmf = got[key]["pmf"]
                n = max(len(pmf), len(want[key]))
                padded = [*pmf, *[0.0] * (n - len(pmf))]
                oracle = [*want[key], *[0.0] * (n - len(want[key]))]
                assert max(abs(x - y) for x, y in zip(padded, oracle, strict=True)) <= TOL, (a, b, row, key)
    assert ran >= 3


def test_graviton_pulse_and_fleshbane_in_either_order_roll_against_strength():
    # docs/rules.md#rules-that-set-the-same-roll: the Strength roll replaces the To Wound roll, so Fleshbane's 2+
    # has nothing to act on. Six hits on S 4, T 4, 3+ models at AP 4: wounded on 4+ (1/2), unsaved 1/3:
    # 6 x 1/2 x 1/3 = 1 casualty expected (Fleshbane's 2+ would give 6 x 5/6 x 1/3 = 5/3)
    target = {"models": 10, "T": 4, "S": 4, "W": 1, "Save": "3+"}
    weapon = {"name": "g", "Range": '24"', "Strength": "5", "AP": "4"}
    docs = [
        {"hits": 6, "target": target, "weapon": {**weapon, "Type": f"Heavy 1, {rules}"}}
        for rules in ("Fleshbane, Graviton Pulse", "Graviton Pulse, Fleshbane")
    ]
    for doc in docs:
        assert calc(doc)["casualties"]["mean"] == pytest.approx(1.0, abs=TOL)


# --- the rule set aside is named (docs/rules.md#rules-that-set-the-same-roll) ------------------------------------
# A rule set aside by a higher-ranked rule that sets the same roll is listed under ``no_effect`` with its own
# reason, by ``calc`` and ``calc_many`` alike, in either printed order; where the higher-ranked rule does not act
# (Graviton Pulse on a Dreadnought) the lower one stays applied. Only the lists change, never the numbers.
INFANTRY, DAEMON, DREADNOUGHT = TARGET_ROWS[0], TARGET_ROWS[2], TARGET_ROWS[3]


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
