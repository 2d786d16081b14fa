"""Saves of one phase (docs/rules.md#saves-for-one-phase): a wargear save that holds against melee attacks only
or against shooting attacks only, applied by the save stage where the attack is of that kind, the best save
taken. Hand values on one-model targets; the combinations against the oracle are in test_combinations.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from praetor_analysis.errors import PraetorError
from praetor_analysis.scenario.calc import calc

CORSWAIN_LIST = Path(__file__).parent / "fixtures" / "rosters" / "hh2" / "HH Dark Angels Test.ros"
LASCANNON = {"name": "l", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1"}
FIST = {"name": "f", "Range": "-", "Strength": "9", "AP": "2", "Type": "Melee"}


def _killed(mode: str, target: dict[str, Any]) -> float:
    scenario = {
        "mode": mode,
        "attacker": {"BS": 4, "WS": 4, "S": 4, "models": 1},
        "attacks": 1,
        "weapon": LASCANNON if mode == "shooting" else FIST,
        "target": target,
    }
    return float(calc(scenario)["casualties"]["mean"])


def _one(rules: list[str], invulnerable: str = "-") -> dict[str, Any]:
    return {"name": "x", "T": 4, "W": 1, "WS": 4, "Save": "2+", "Invulnerable": invulnerable, "rules": rules}


@pytest.mark.parametrize(
    ("mode", "rules", "invulnerable", "expected"),
    [
        # by hand, a BS4 lascannon (hits 2+ of 3 = 2/3) or a WS4 blow at WS4 (hits 4+: 1/2), S9 against T4
        # (wounds 2+: 5/6), AP2 (the 2+ armour is negated): killed = hit x wound x failed invulnerable
        ("shooting", [], "-", 2 / 3 * 5 / 6),
        ("shooting", [], "4+", 2 / 3 * 5 / 6 * 1 / 2),
        ("shooting", ["Invulnerable Save in Melee (3+)"], "4+", 2 / 3 * 5 / 6 * 1 / 2),  # the 3+ is melee's only
        ("melee", ["Invulnerable Save in Melee (3+)"], "4+", 1 / 2 * 5 / 6 * 1 / 3),  # the better one taken
        ("melee", ["Invulnerable Save in Melee (5+)"], "4+", 1 / 2 * 5 / 6 * 1 / 2),  # the 4+ is better
        ("shooting", ["Invulnerable Save against Shooting (3+)"], "-", 2 / 3 * 5 / 6 * 1 / 3),
        ("melee", ["Invulnerable Save against Shooting (3+)"], "-", 1 / 2 * 5 / 6),
        # an armour save of one phase follows the AP as armour does: 2+ against AP2 is negated, so nothing
        ("melee", ["Armour Save in Melee (2+)"], "-", 1 / 2 * 5 / 6),
        ("shooting", ["Armour Save against Shooting (2+)"], "5+", 2 / 3 * 5 / 6 * 2 / 3),
    ],
)
def test_hand_values(mode: str, rules: list[str], invulnerable: str, expected: float) -> None:
    assert _killed(mode, _one(rules, invulnerable)) == pytest.approx(expected, abs=1e-12)


def test_an_armour_save_of_one_phase_against_an_ap_that_spares_it() -> None:
    # a 5+ armour, 2+ in melee only, against an AP3 blow: 2+ is kept (AP3 > 2), killed = 1/2 x 5/6 x 1/6
    target = {**_one(["Armour Save in Melee (2+)"]), "Save": "5+"}
    blow = {**FIST, "AP": "3"}
    scenario = {"mode": "melee", "attacker": {"WS": 4, "S": 4}, "attacks": 1, "weapon": blow, "target": target}
    assert calc(scenario)["casualties"]["mean"] == pytest.approx(1 / 2 * 5 / 6 * 1 / 6, abs=1e-12)


def test_corswain_from_his_roster() -> None:
    """Corswain as his real roster has him (2+ armour, 4+ invulnerable, 3+ against close combat attacks), T4
    W4 WS7: a S9 blow or shot is Instant Death, so one unsaved wound removes him."""
    target = {"roster": str(CORSWAIN_LIST), "unit": "Corswain"}
    # shooting: the 4+ (5/9 = 0.556 without it, as the roster was read before the clause reader)
    assert _killed("shooting", target) == pytest.approx(2 / 3 * 5 / 6 * 1 / 2, abs=1e-12)
    # melee: his WS is above 4, not above twice 4, so a WS4 blow hits on 4+; the 3+ (1/2 x 5/6 x 1/2 = 0.208
    # with the 4+ alone)
    assert _killed("melee", target) == pytest.approx(1 / 2 * 5 / 6 * 1 / 3, abs=1e-12)


def test_a_save_of_one_phase_needs_its_value() -> None:
    with pytest.raises(PraetorError, match="needs its value"):
        _killed("melee", _one(["Invulnerable Save in Melee"]))


def test_a_save_of_one_phase_is_named_applied_in_its_phase_and_no_effect_in_the_other() -> None:
    target = _one(["Invulnerable Save in Melee (3+)"], "4+")
    for mode, weapon, where in (("melee", FIST, "applied"), ("shooting", LASCANNON, "no_effect")):
        scenario = {"mode": mode, "attacker": {"BS": 4, "WS": 4, "S": 4}, "attacks": 1, "weapon": weapon}
        result = calc({**scenario, "target": target})
        assert "target: Invulnerable Save in Melee (3+)" in result[where], (mode, result[where])
