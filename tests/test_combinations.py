"""Every combination of the wound, save and damage rules against the brute-force oracle (issue 22, item 5).

The rules are not listed here: they are read from the rule registry (``rules/``), every declaration that acts
in the To Wound, AP, saves, mitigation or damage stages, each with the parameters its declaration allows. A
weapon draws two to four of them, an attack count and a profile; a target draws W 1 to 6, wounds already
taken, saves, an invulnerable save, cover, Feel No Pain, Shrouded, Eternal Warrior, Fearless and a Unit Type
(the types the rules read); the attacker may add its own wound rules. Each scenario is computed alone
(``calc``) and in a mixed JSON array (``calc_many``, the engine's batch), and both are checked against the
die-by-die enumerator of ``tests/oracle`` to 1e-12: hits, wounds, unsaved wounds, casualties, P(pinned) and
the Psychic check. Hypothesis runs derandomized (the same examples every run).

A rule whose effect in these stages is not computed yet (``pending``) is drawn too: the engine must say so
(``not_modelled``), and the oracle is given the scenario without it. Pairs of rules that no profile prints
together and whose readings contradict each other (two rules replacing the same roll) are not drawn together:
``EXCLUSIVE`` says which, and ``test_the_engine_does_not_read_the_order_of_the_rules`` checks that every other
combination gives the same numbers whatever order the rules are printed in.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle import oracle_calc

from praetor_analysis.rules.catalogue import REGISTRY
from praetor_analysis.rules.registry import Holder, RuleDecl, Stage
from praetor_analysis.scenario.calc import calc, calc_many

TOL = 1e-12
KEYS = ("hits", "wounds", "unsaved", "casualties")
ATTACK_STAGES = frozenset({Stage.TO_WOUND, Stage.AP, Stage.SAVES, Stage.MITIGATION, Stage.DAMAGE})

#: The values of the rules whose parameter is free text (``Param("text")``): every reading the engine has.
TEXT_VALUES: dict[str, tuple[str, ...]] = {
    "Armourbane": ("", "Melta", "Melee", "Ranged"),
    "Immaterial Blades": tuple(f"AP{n}" for n in range(1, 7)),
    "Preferred Enemy": ("", "Infantry", "Daemon", "Legionaries"),
    "To Wound modifier": ("+1", "-1", "+2", "-2"),
}

#: Declared rules of these stages that the test does not draw, each with why.
NOT_DRAWN: dict[str, str] = {
    "Furious Charge": "acts on the charge in a whole round of combat (melee/combat.py), not on one attack",
}

#: Unit rules a target may carry beside those its declaration gives it (``sides``): none yet.

#: Rules that replace one roll each (the wound roll, or the damage of an unsaved wound) and contradict each
#: other: no profile prints two of a set, and the engine takes the one printed last (wound) or first
#: (damage), so at most one of each set is drawn. The wound roll's replacements also override Fleshbane,
#: Poisoned and Sanctic (and whether an Instant Death is kept), so those are not drawn with them either.
EXCLUSIVE: tuple[frozenset[str], ...] = (
    frozenset({"Graviton Pulse", "Graviton Collapse", "Entangle", "Fleshbane", "Poisoned", "Sanctic"}),
    frozenset({"Graviton Pulse", "Graviton Collapse", "Entangle", "Instant Death", "Force", "Achean Force"}),
    frozenset({"Graviton Pulse", "Graviton Collapse", "Entangle", "Neutron-flux"}),
    frozenset({"Graviton Collapse", "Data-djinn"}),
    frozenset({"Destroyer", "Destructor", "Moonsilver"}),
    frozenset({"Force", "Achean Force", "Divine Guidance"}),
)

UNIT_TYPES = (
    "Infantry",
    "Infantry (Heavy)",
    "Infantry (Psyker)",
    "Dreadnought",
    "Automata",
    "Automata (Mechanised)",
    "Daemon",
    "Primarch",
    "Cavalry (Monstrous)",
    "Infantry (Gargantuan)",
)
SAVES = ("2+", "3+", "4+", "5+", "6+", "-")


def _declared(holder: Holder) -> list[RuleDecl]:
    return sorted(
        (d for d in REGISTRY.values() if d.stages & ATTACK_STAGES and d.holder is holder and d.name not in NOT_DRAWN),
        key=lambda d: d.name,
    )


def spellings(decl: RuleDecl) -> list[str]:
    """Every way to print the rule its declaration allows: each value of its parameter (bare too when the
    parameter has a default)."""
    p, name = decl.param, decl.name
    if p.kind == "none":
        return [name]
    if p.kind == "roll":
        return [f"{name} ({x}+)" for x in range(p.lo, p.hi + 1)] + ([name] if p.default is not None else [])
    if p.kind == "count":
        return [f"{name} ({x})" for x in range(p.lo, p.hi + 1)] + ([name] if p.default is not None else [])
    if p.kind == "text":
        return [f"{name} ({v})" if v else name for v in TEXT_VALUES[name]]
    raise AssertionError(f"{name}: a parameter of kind {p.kind!r} the test does not draw")


WEAPON_RULES = {d.name: spellings(d) for d in _declared(Holder.WEAPON)}
UNIT_RULES = {d.name: spellings(d) for d in _declared(Holder.UNIT)}
TARGET_SIDE = {d.name: spellings(d) for d in _declared(Holder.UNIT) if "target" in d.sides}
ATTACKER_RULES = {d.name: spellings(d) for d in _declared(Holder.UNIT) if "attacker" in d.sides}
PENDING = {d.name for d in REGISTRY.values() if d.pending & ATTACK_STAGES}


def test_every_declared_rule_of_these_stages_is_drawn() -> None:
    drawn = {*WEAPON_RULES, *UNIT_RULES}
    declared = {d.name for d in REGISTRY.values() if d.stages & ATTACK_STAGES}
    assert declared - drawn == set(NOT_DRAWN)
    assert {*TARGET_SIDE, *ATTACKER_RULES} == set(UNIT_RULES)
    assert len(WEAPON_RULES) >= 25 and sum(map(len, WEAPON_RULES.values())) >= 75


def _compatible(names: list[str]) -> bool:
    return all(len(family & set(names)) <= 1 for family in EXCLUSIVE)


@st.composite
def weapon_rules(draw: st.DrawFn) -> list[str]:
    names = draw(st.lists(st.sampled_from(sorted(WEAPON_RULES)), min_size=2, max_size=4, unique=True))
    if not _compatible(names):
        kept: list[str] = []
        for n in names:
            if _compatible([*kept, n]):
                kept.append(n)
        names = kept
    return [draw(st.sampled_from(WEAPON_RULES[n])) for n in names]


def _roll(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(SAVES))


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    """One attack in the SCENARIO.md form: a weapon with two to four rules against a non-vehicle unit."""
    rules = draw(weapon_rules())
    brutal = max((int(r.split("(")[1].rstrip(")")) for r in rules if r.startswith("Brutal (")), default=1)
    checked = any(r.split(" (")[0] in ("Force", "Achean Force", "Divine Guidance") for r in rules)
    w = draw(st.integers(1, 6))
    models = draw(st.integers(1, 3 if brutal <= 3 else 2))
    attacks = draw(st.integers(0, 4 if brutal <= 2 else 2))
    melee = draw(st.sampled_from([False, False, True]))
    graviton = any(r.startswith("Graviton") for r in rules)  # a footnoted Strength names the Graviton rule
    strength = draw(st.sampled_from([str(s) for s in range(1, 11)] + (["*"] if graviton else [])))
    # Curse of Dead Worlds worsens whichever invulnerable save is taken, a rule's (Iron Halo...) too, so it is
    # drawn against every target rule (docs/rules.md#curse-of-dead-worlds)
    allowed = sorted(TARGET_SIDE)
    target_rules = draw(
        st.lists(st.sampled_from(allowed), max_size=3, unique=True).map(
            lambda names: [draw(st.sampled_from(TARGET_SIDE[n])) for n in names]
        )
    )
    attacker_rules = draw(
        st.lists(st.sampled_from(sorted(ATTACKER_RULES)), max_size=2, unique=True).map(
            lambda names: [draw(st.sampled_from(ATTACKER_RULES[n])) for n in names]
        )
    )
    kind = "Melee" if melee else "Heavy 1"
    scenario: dict[str, Any] = {
        "attacker": {
            "BS": draw(st.integers(1, 10)),
            "WS": draw(st.integers(1, 10)),
            "S": 4,
            "Ld": draw(st.integers(5, 10)),
            "models": 1 if checked else draw(st.integers(1, 2)),
            "rules": attacker_rules,
        },
        "attacks": attacks,
        "weapon": {
            "name": "w",
            "Range": "-" if melee else '24"',
            "Strength": strength,
            "AP": draw(st.sampled_from(["1", "2", "3", "4", "5", "6", "-"])),
            "Type": ", ".join([kind, *rules]),
        },
        "target": {
            "name": draw(st.sampled_from(["Legionaries", "Others"])),
            "Unit Type": draw(st.sampled_from(UNIT_TYPES)),
            "models": models,
            "WS": draw(st.integers(1, 10)),
            "S": draw(st.integers(1, 10)),
            "T": draw(st.integers(2, 9)),
            "W": w,
            "wounds_taken": draw(st.integers(0, w - 1)),
            "Ld": draw(st.integers(2, 10)),
            "Save": _roll(draw),
            "Invulnerable": draw(st.sampled_from(["-", "-", "3+", "4+", "5+", "6+"])),
            "Cover": draw(st.sampled_from(["-", "-", "-", "4+", "5+"])),
            "rules": target_rules,
        },
    }
    if melee:
        scenario["mode"] = "melee"
    elif draw(st.booleans()):
        scenario["half_range"] = True
    return scenario


def _without_pending(scenario: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The scenario for the oracle (the rules the engine does not compute here taken out), and those rules."""
    parts = [p.strip() for p in scenario["weapon"]["Type"].split(", ")]
    pending = [p for p in parts if p.split(" (")[0] in PENDING]
    weapon = {**scenario["weapon"], "Type": ", ".join(p for p in parts if p not in pending)}
    return {**scenario, "weapon": weapon}, [p.split(" (")[0] for p in pending]


def _gap(got: list[float], want: list[float]) -> float:
    n = max(len(got), len(want))
    return float(np.max(np.abs(np.pad(got, (0, n - len(got))) - np.pad(want, (0, n - len(want))))))


def check(got: dict[str, Any], want: dict[str, Any], what: str) -> None:
    """An engine result against the oracle's, to 1e-12."""
    for key in KEYS:
        assert _gap(got[key]["pmf"], want[key]) <= TOL, f"{what}: {key} {got[key]['pmf']} != {want[key]}"
    if want["pinned"] is None:
        assert got["pinned"] is None or got["pinned"] == 0.0, what
    else:
        assert got["pinned"] == pytest.approx(want["pinned"], abs=TOL), what
    for key in ("perils", "attack_happens"):
        assert (key in got) == (key in want), f"{what}: {key}"
        if key in want:
            assert got[key] == pytest.approx(want[key], abs=TOL), f"{what}: {key}"


COUNTS = {"examples": 0, "cells": 0}


def check_array(items: list[dict[str, Any]]) -> None:
    """Each scenario alone and the array in one batch against the oracle; pending rules reported."""
    together = calc_many(items)
    COUNTS["examples"] += 1
    for i, (item, batched) in enumerate(zip(items, together, strict=True)):
        plain, pending = _without_pending(item)
        try:
            want = oracle_calc(plain)
        except ValueError:  # a profile the engine refuses too (the oracle's own check of the input)
            assert isinstance(batched, Exception), (i, item)
            continue
        alone = calc(item)
        assert not isinstance(batched, Exception), (i, item, batched)
        reported = [r.split(" (")[0] for r in (*alone["not_modelled"], *alone["no_effect"])]
        assert set(pending) <= set(reported), (pending, item)
        check(alone, want, f"[{i}] alone {item}")
        check(batched, want, f"[{i}] in the array {item}")
        COUNTS["cells"] += 1


FAST = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=500,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)


@pytest.mark.slow
@FAST
@given(st.lists(scenarios(), min_size=1, max_size=4))
def test_combinations_against_every_die(items: list[dict[str, Any]]) -> None:
    check_array(items)


@settings(FAST, max_examples=60)
@given(st.lists(scenarios(), min_size=1, max_size=4))
def test_combinations_against_every_die_sampled(items: list[dict[str, Any]]) -> None:
    """The fast tier's sample of the test above (60 arrays of its 500; the same draws, derandomized)."""
    check_array(items)


@pytest.mark.slow
@settings(FAST, max_examples=4000)
@given(st.lists(scenarios(), min_size=1, max_size=6))
def test_combinations_against_every_die_at_length(items: list[dict[str, Any]]) -> None:
    check_array(items)


def _reordered(scenario: dict[str, Any]) -> dict[str, Any]:
    kind, *rules = scenario["weapon"]["Type"].split(", ")
    return {**scenario, "weapon": {**scenario["weapon"], "Type": ", ".join([kind, *rules[::-1]])}}


@settings(FAST, max_examples=300)
@given(scenarios())
def test_the_engine_does_not_read_the_order_of_the_rules(scenario: dict[str, Any]) -> None:
    # outside EXCLUSIVE, the rules printed in the other order give the same numbers (the oracle reads none)
    try:
        want = calc(scenario)
    except Exception as exc:  # a profile the engine refuses: refused in either order
        with pytest.raises(type(exc)):
            calc(_reordered(scenario))
        return
    got = calc(_reordered(scenario))
    for key in KEYS:
        assert _gap(got[key]["pmf"], want[key]["pmf"]) <= TOL, key


def _shot(strength: str, ap: str, rules: str, bs: int, target: dict[str, Any]) -> dict[str, Any]:
    """Three shots of a gun with ``rules`` at ``bs`` against ``target``."""
    weapon = {"name": "w", "Range": '24"', "Strength": strength, "AP": ap, "Type": f"Heavy 1, {rules}"}
    return {"attacker": {"BS": bs}, "attacks": 3, "weapon": weapon, "target": {"name": "t", **target}}


def test_molecular_dissonance_and_deflagrate() -> None:
    # Deflagrate's extra hits are automatic (no To Hit roll), so none of them wounds by Molecular Dissonance
    # (its text reads the To Hit roll of a 6; docs/rules.md#deflagrate): they roll To Wound as printed
    scenario = _shot("3", "4", "Molecular Dissonance, Deflagrate", 4, {"models": 3, "T": 6, "W": 1, "Save": "4+"})
    check(calc(scenario), oracle_calc(scenario), "Molecular Dissonance, Deflagrate")


def test_molecular_dissonance_when_every_hit_is_a_six() -> None:
    # at BS 1 every hit is a natural 6, so Molecular Dissonance wounds every hit without a roll; the rolled
    # kinds (Rending's AP 2 here) have no weight left, and once divided by zero
    scenario = _shot("4", "5", "Molecular Dissonance, Rending (4+)", 1, {"models": 2, "T": 4, "W": 2, "Save": "3+"})
    check(calc(scenario), oracle_calc(scenario), "BS 1")
    (batched,) = calc_many([scenario])
    check(batched, oracle_calc(scenario), "BS 1 in an array")
