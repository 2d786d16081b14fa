"""Destroyer and Exoshock against vehicles as the rules model words them (docs/rules.md#destroyer,
docs/rules.md#exoshock), through ``praetor calc``'s contract, each against a value worked by hand.

The rules model gives Destroyer D3 hull points per Glancing or Penetrating Hit and nothing else (the
penetration roll stays D6 + S), lets cover be taken against every Glancing and Penetrating Hit, and makes
Exoshock add another Penetrating Hit: so that hit is saved, and does Destroyer's D3, like any other.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from praetor_analysis.scenario.calc import calc, calc_many


def _vehicle(armour: int, hp: int, **extra: Any) -> dict[str, Any]:
    return {"name": "V", "Unit Type": "Vehicle", "Front": armour, "Side": armour, "Rear": armour, "HP": hp, **extra}


def _shot(strength: str, ap: str, kind: str, target: dict[str, Any]) -> dict[str, Any]:
    weapon = {"name": "w", "Range": '48"', "Strength": strength, "AP": ap, "Type": kind}
    return {"attacker": {"BS": 4}, "weapon": weapon, "hits": 1, "target": target}


def _mean(pmf: list[float]) -> float:
    return sum(k * p for k, p in enumerate(pmf))


def _both(scenario: dict[str, Any]) -> dict[str, Any]:
    """``calc`` of the scenario, checked equal to the same scenario in an array."""
    alone, (in_array, _) = calc(scenario), calc_many([scenario, scenario])
    assert in_array["hull_points"]["pmf"] == pytest.approx(alone["hull_points"]["pmf"], abs=1e-15)
    return alone


def test_destroyer_rolls_one_die_for_penetration() -> None:
    # S10 AP1 against 12: a 1 nothing, a 2 glances, 3 to 6 penetrate (4/6). Six hull points go only when a
    # penetration removes D3 = 3 and Explodes (D6 + 2 >= 7: 1/3) adds D3 = 3: 4/6 x 1/3 x 1/9 = 2/81
    got = _both(_shot("10", "1", "Heavy 1, Destroyer", _vehicle(12, 6)))
    assert got["penetrating"]["pmf"] == pytest.approx([1 / 3, 2 / 3], abs=1e-12)
    assert got["glancing"]["pmf"] == pytest.approx([5 / 6, 1 / 6], abs=1e-12)
    assert got["hull_points"]["pmf"][0] == pytest.approx(1 / 6, abs=1e-12)
    assert got["wrecked"] == pytest.approx(float(Fraction(2, 81)), abs=1e-12)


def test_a_destroyer_kind_does_d3_hull_points() -> None:
    # "Destroyer 1, Haywire", S3 AP2 against 14: Haywire's D6 glances on 2-5 (D3 each, mean 2) and penetrates
    # on a 6 (D3, and Explodes on D6 + 1 >= 7, 1/6, a further D3): 4/6 x 2 + 1/6 x (2 + 1/6 x 2) = 31/18
    got = _both(_shot("3", "2", "Destroyer 1, Haywire", _vehicle(14, 8)))
    assert _mean(got["hull_points"]["pmf"]) == pytest.approx(31 / 18, abs=1e-12)
    assert len(got["hull_points"]["pmf"]) == 7  # up to 3 + 3


def test_the_exoshock_hit_takes_cover() -> None:
    # S9 AP3 Exoshock (4+) against 11 in 4+ cover: a 2 glances, 3 to 6 penetrate (2/3); each hit stands 1/2.
    # Two hull points: a penetration standing (1/2), Exoshock (1/2) and its hit standing (1/2): 2/3 x 1/8 =
    # 1/12; none: 1/2 (every hit alike stands 1/2, and at AP3 nothing Explodes)
    got = _both(_shot("9", "3", "Heavy 1, Exoshock (4+)", _vehicle(11, 10, Cover="4+")))
    assert got["hull_points"]["pmf"] == pytest.approx([1 / 2, 5 / 12, 1 / 12], abs=1e-12)


def test_the_exoshock_hit_does_destroyers_d3() -> None:
    # S3 AP- Haywire, Destroyer, Exoshock (4+) against 14: glances 4/6 and penetrations 1/6 do D3 (mean 2),
    # and a penetration's Exoshock hit (1/2) D3 more; at AP - nothing Explodes: 8/6 + 2/6 + 1/6 = 11/6
    got = _both(_shot("3", "-", "Assault 1, Haywire, Destroyer, Exoshock (4+)", _vehicle(14, 10)))
    assert _mean(got["hull_points"]["pmf"]) == pytest.approx(11 / 6, abs=1e-12)
