"""Neutron-flux: the weapon has Instant Death against Automata (rules reference, "Neutron-flux", p. 123).

The rule added through one declaration (rules/wound_rules.py), checked against a die-by-die enumeration
written here independently of the engine, and pinned by hand.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from praetor_analysis.scenario.calc import calc

SIX = range(1, 7)


def _enumerate_casualties(
    shots: int, *, bs: int, strength: int, ap: int, toughness: int, save: int, models: int, wounds: int,
    automata: bool,
) -> list[Fraction]:  # fmt: skip
    """Exact casualties of `shots` shots: every hit, wound and save die enumerated; Instant Death wounds are
    allocated before the others (each kills a model outright), the rest do one wound each."""
    hit_on = 7 - bs
    diff = strength - toughness
    wound_on = 2 if diff >= 2 else {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}.get(diff, 7)  # 7: cannot wound
    save_allowed = ap > save
    instant = automata or strength >= 2 * toughness
    pmf = [Fraction(0)] * (models + 1)
    weight = Fraction(1, 6 ** (3 * shots))
    for dice in itertools.product(SIX, repeat=3 * shots):
        unsaved = 0
        for i in range(shots):
            h, w, s = dice[3 * i : 3 * i + 3]
            if h >= hit_on and w != 1 and w >= wound_on and not (save_allowed and s >= save):
                unsaved += 1
        if instant:
            kills = min(models, unsaved)
        else:
            kills = min(models, unsaved // wounds)
        pmf[kills] += weight
    return pmf


AUTOMATA = {"name": "Castellax-like", "Unit Type": "Automata (Cybernetica, Heavy)", "models": 2, "T": 6, "W": 3,
            "Ld": 8, "Save": "3+", "WS": 3}  # fmt: skip
INFANTRY = dict(AUTOMATA, name="Heavy infantry", **{"Unit Type": "Infantry"})


def _scenario(target: dict, shots: int, rules: str = "Neutron-flux") -> dict:
    return {
        "attacker": {"BS": 4},
        "weapon": {"name": "neutron-flux gun", "Range": '36"', "Strength": 6, "AP": 4,
                   "Type": f"Heavy {shots}, {rules}"},
        "target": target,
    }  # fmt: skip


@pytest.mark.parametrize("shots", [1, 2])
@pytest.mark.parametrize(("target", "automata"), [(AUTOMATA, True), (INFANTRY, False)])
def test_neutron_flux_matches_every_die(shots: int, target: dict, automata: bool) -> None:
    got = calc(_scenario(target, shots))["casualties"]["pmf"]
    want = _enumerate_casualties(shots, bs=4, strength=6, ap=4, toughness=6, save=3, models=2, wounds=3,
                                 automata=automata)  # fmt: skip
    assert len(got) <= len(want)
    for k, p in enumerate(want):
        assert abs((got[k] if k < len(got) else 0.0) - float(p)) <= 1e-12


def test_pinned_one_shot_kills_an_automaton_one_time_in_nine() -> None:
    # BS 4 hits on 3+ (2/3); S6 against T6 wounds on 4+ (1/2); AP4 leaves the 3+ save (fails 1/3):
    # 2/3 * 1/2 * 1/3 = 1/9 unsaved wounds, each Instant Death on the W3 model (hand computation).
    result = calc(_scenario(AUTOMATA, 1))
    assert result["casualties"]["mean"] == pytest.approx(1 / 9, abs=1e-15)
    assert "Neutron-flux" in result["applied"]
    assert "Neutron-flux" not in result["not_modelled"]


def test_no_effect_on_other_units_and_eternal_warrior_still_protects() -> None:
    assert calc(_scenario(INFANTRY, 1))["casualties"]["mean"] == 0.0
    assert "Neutron-flux" in calc(_scenario(INFANTRY, 1))["no_effect"]
    ew = dict(AUTOMATA, rules=["Eternal Warrior"])
    assert calc(_scenario(ew, 1))["casualties"]["mean"] == 0.0
