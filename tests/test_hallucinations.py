"""Hallucinations: an immediate Pinning test with one added to the roll per hit (docs/rules.md#hallucinations)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from praetor_analysis.scenario.calc import calc

WEAPON = {"name": "Telepathic Hallucinations", "Range": '36"', "Strength": "-", "AP": "-"}


def scenario(type_: str, *, target_rules: list[str] | None = None, ld: int = 7) -> dict:
    target = {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Ld": ld, "Save": "3+"}
    if target_rules:
        target["rules"] = target_rules
    return {"mode": "shooting", "attacker": {"BS": 4, "Ld": 9}, "weapon": {**WEAPON, "Type": type_}, "target": target}


def enumerate_pinned(shots: int, *, focus: bool, ld: int, psyker_ld: int = 9) -> Fraction:
    """Every die: the psyker's 2D6 check (when ``focus``), a D6 per shot (BS 4 hits on 3+), the target's 2D6."""
    total = Fraction(0)
    check_dice = 2 if focus else 0
    for dice in itertools.product(range(1, 7), repeat=check_dice + shots + 2):
        if focus and sum(dice[:2]) > psyker_ld:
            continue  # Perils of the Warp: the weapon does not attack
        hits = sum(d >= 3 for d in dice[check_dice : check_dice + shots])
        if hits and sum(dice[-2:]) + hits > ld:
            total += 1
    return total / 6 ** (check_dice + shots + 2)


@pytest.mark.parametrize(("shots", "focus", "ld"), [(1, False, 7), (2, False, 7), (2, True, 8), (3, False, 10)])
def test_hallucinations_by_enumeration(shots, focus, ld) -> None:
    type_ = f"Assault {shots}, Hallucinations" + (", Psychic Focus" if focus else "")
    got = calc(scenario(type_, ld=ld))
    assert got["pinned"] == pytest.approx(float(enumerate_pinned(shots, focus=focus, ld=ld)), abs=1e-12)
    assert "Hallucinations" in got["applied"] and not got["not_modelled"]


def test_telepathic_hallucinations_pinned_value() -> None:
    # Telepathic Hallucinations (36" S- AP- Assault 6, Hallucinations, Psychic Focus; the Hallucinations
    # rule's text is in the game system file): BS 4, the psyker Ld 9, at Ld 7 Legionaries. By hand:
    # P(check) = 30/36; hits ~ Binomial(6, 2/3); P(pinned | h hits) = P(2D6 > 7 - h).
    from math import comb

    two_d6_le = {t: sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= t) / 36 for t in range(-12, 13)}
    want = (30 / 36) * sum(comb(6, h) * (2 / 3) ** h * (1 / 3) ** (6 - h) * (1 - two_d6_le[7 - h]) for h in range(1, 7))
    got = calc(scenario("Assault 6, Hallucinations, Psychic Focus"))
    assert got["pinned"] == pytest.approx(want, abs=1e-12)
    assert 0.74 < got["pinned"] < 0.75


def test_hallucinations_exemptions_and_stubborn() -> None:
    assert calc(scenario("Assault 2, Hallucinations", target_rules=["Fearless"]))["pinned"] is None
    plain = calc(scenario("Assault 2, Hallucinations"))["pinned"]
    # adding to the roll is not a Leadership modifier: Stubborn does not cancel it
    assert calc(scenario("Assault 2, Hallucinations", target_rules=["Stubborn"]))["pinned"] == plain


def test_hallucinations_with_a_strength_is_not_modelled() -> None:
    got = calc(
        {
            **scenario("Assault 2, Hallucinations"),
            "weapon": {**WEAPON, "Strength": "4", "Type": "Assault 2, Hallucinations"},
        }
    )
    assert "Hallucinations" in got["not_modelled"] and "Hallucinations" not in got["applied"]
    assert got["pinned"] == 0.0
