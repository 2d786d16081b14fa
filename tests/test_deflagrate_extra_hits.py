"""Deflagrate's extra hits get none of the attacking model's own rules (docs/rules.md#deflagrate).

Deflagrate (rules reference p. 237): the extra automatic hits use the weapon's profile and do not benefit from
the attacking model's other special rules (Preferred Enemy is the rule's own example); the project's rules
model says the same ("with the weapon's profile and rules"). Every attacker-side rule of the wound and save
stages is checked with a Deflagrate weapon against the die-by-die enumerator, alone and in an array.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from oracle import oracle_calc

from praetor_analysis.rules.catalogue import REGISTRY
from praetor_analysis.rules.registry import Holder, Stage
from praetor_analysis.scenario.calc import calc, calc_many

WOUND_AND_SAVE = frozenset({Stage.TO_WOUND, Stage.AP, Stage.SAVES, Stage.MITIGATION, Stage.DAMAGE})
NOT_DRAWN = {"Furious Charge": "acts on a charge, in melee; these volleys are shot"}
SPELLED = {
    "Feel No Pain": "Feel No Pain (5+)",
    "Preferred Enemy": "Preferred Enemy",
    "To Wound modifier": "To Wound modifier (+1)",
}


def _attacker_rules() -> list[str]:
    """Every attacker-side unit rule of the wound and save stages, printed (a parameter as in ``SPELLED``)."""
    out = []
    for d in REGISTRY.values():
        if d.holder is Holder.UNIT and "attacker" in d.sides and d.stages & WOUND_AND_SAVE and d.name not in NOT_DRAWN:
            assert d.param.kind == "none" or d.name in SPELLED, f"{d.name}: give it a value in SPELLED"
            out.append(SPELLED.get(d.name, d.name))
    return sorted(out)


ATTACKER_RULES = _attacker_rules()
TARGETS = [
    {"name": "t", "models": 5, "T": 4, "W": 1, "Save": "-"},
    {"name": "t", "models": 2, "T": 4, "W": 2, "Save": "4+", "rules": ["Shrouded (5+)"]},
    {"name": "t", "models": 3, "T": 3, "W": 1, "Save": "5+", "rules": ["Feel No Pain (6+)"]},
]


def _scenario(rules: list[str], target: dict[str, Any], extra: str = "") -> dict[str, Any]:
    weapon = {"name": "w", "Range": '24"', "Strength": "4", "AP": "5", "Type": f"Heavy 1, Deflagrate{extra}"}
    return {"attacker": {"BS": 4, "rules": rules}, "attacks": 2, "weapon": weapon, "target": target}


def _padded(a: list[float], n: int) -> list[float]:
    return list(a) + [0.0] * (n - len(a))


def test_the_rules_drawn_are_the_attackers_of_these_stages() -> None:
    assert {"Preferred Enemy", "Night Vision", "Re-roll To Wound 1s", "To Wound modifier (+1)"} <= set(ATTACKER_RULES)


def test_preferred_enemy_is_not_on_the_extra_hit() -> None:
    # By hand (docs/rules.md#deflagrate): one S4 shot at BS 4, Preferred Enemy re-rolling the 1s: it hits
    # 2/3 + 1/6 x 2/3 = 7/9 and wounds T4 on 4+ 1/2 + 1/6 x 1/2 = 7/12, no save: 49/108 unsaved; its extra
    # hit wounds 1/2 without the re-roll, so P(2 unsaved) = 49/216 (343/1296 if the extra hit re-rolled its 1)
    weapon = {"name": "w", "Range": '24"', "Strength": "4", "AP": "-", "Type": "Heavy 1, Deflagrate"}
    target = {"name": "t", "models": 5, "T": 4, "W": 1, "Save": "-"}
    want = [1 - Fraction(49, 108), Fraction(49, 216), Fraction(49, 216)]
    for attacker in ({"BS": 4, "rules": ["Preferred Enemy"]}, {"BS": 4, "modifiers": {"preferred_enemy": True}}):
        got = calc({"attacker": attacker, "attacks": 1, "weapon": weapon, "target": target})
        assert got["unsaved"]["pmf"] == pytest.approx([float(p) for p in want], abs=1e-15)


def test_a_rerolled_wound_carried_by_the_weapon_reaches_the_extra_hit() -> None:
    # "reroll_wounds": "all" is the weapon's Shred (docs/rules.md#deflagrate): the shot hits 2/3 and wounds
    # 1/2 + 1/2 x 1/2 = 3/4, so 1/2 unsaved; its extra hit wounds 3/4 too: P(1) = 1/2 x 1/4, P(2) = 1/2 x 3/4
    weapon = {"name": "w", "Range": '24"', "Strength": "4", "AP": "-", "Type": "Heavy 1, Deflagrate"}
    target = {"name": "t", "models": 5, "T": 4, "W": 1, "Save": "-"}
    attacker = {"BS": 4, "modifiers": {"reroll_wounds": "all"}}
    got = calc({"attacker": attacker, "attacks": 1, "weapon": weapon, "target": target})
    assert got["unsaved"]["pmf"] == pytest.approx([0.5, 0.125, 0.375], abs=1e-15)


@pytest.mark.parametrize("extra", ["", ", Rending (6+)", ", Brutal (2)", ", Shred"])
@pytest.mark.parametrize("rule", ATTACKER_RULES)
def test_each_attacker_rule_with_deflagrate_matches_the_enumeration(rule: str, extra: str) -> None:
    scenarios = [_scenario([rule], target, extra) for target in TARGETS]
    arrays = calc_many([*scenarios, _scenario([], TARGETS[0])])  # mixed with a cell without the rule
    for scenario, batched in zip(scenarios, arrays[:-1], strict=True):
        got, want = calc(scenario), oracle_calc(scenario)
        for key in ("hits", "wounds", "unsaved", "casualties"):
            n = max(len(got[key]["pmf"]), len(want[key]))
            assert _padded(got[key]["pmf"], n) == pytest.approx(_padded(want[key], n), abs=1e-12), key
            assert _padded(batched[key]["pmf"], n) == pytest.approx(_padded(want[key], n), abs=1e-12), key
