"""``"stationary": true`` in an edition 3 shooting volley is named: ``applied`` when the weapon has Heavy or
Ordnance (the rules it switches on), ``no_effect`` with its reason otherwise (it changes nothing), against
units and vehicles alike; the numbers do not depend on it there (docs/rules-hh3.md)."""

from __future__ import annotations

import pytest

from praetor_analysis.scenario.calc import calc

MARINE = {"name": "Legionaries", "Type": "Infantry", "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1,
          "LD": 7, "CL": 7, "SAV": "3+", "INV": "-", "models": 10}  # fmt: skip
RHINO = {"name": "Rhino", "Type": "Vehicle", "Front Armour": 11, "Side Armour": 11, "Rear Armour": 10, "HP": 3}
BOLTER = {"name": "Bolter", "R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1, "Special Rules": "", "Traits": "Bolt"}
HEAVY = {**BOLTER, "name": "Heavy bolter", "FP": 3, "RS": 5, "Special Rules": "Heavy (FP)"}
ORDNANCE = {**BOLTER, "name": "Cannon", "RS": 8, "AP": 3, "Special Rules": "Ordnance (RS)"}


def _doc(weapon: dict, target: dict, **extra) -> dict:
    return {"edition": "hh3", "attacker": {**MARINE}, "weapon": weapon, "target": {**target}, **extra}


@pytest.mark.parametrize("target", [MARINE, RHINO], ids=["unit", "vehicle"])
def test_stationary_without_heavy_is_named_under_no_effect(target):
    still = calc(_doc(BOLTER, target, stationary=True))
    moved = calc(_doc(BOLTER, target))
    assert "stationary" in still["no_effect"] and "stationary" not in still["applied"]
    assert "Heavy or Ordnance" in still["reasons"]["stationary"]
    assert "stationary" not in moved["no_effect"] + moved["applied"]  # not given, not named
    assert (
        still["casualties" if target is MARINE else "hull_points"]
        == moved["casualties" if target is MARINE else "hull_points"]
    )  # it changes nothing


@pytest.mark.parametrize("weapon", [HEAVY, ORDNANCE], ids=["heavy", "ordnance"])
@pytest.mark.parametrize("target", [MARINE, RHINO], ids=["unit", "vehicle"])
def test_stationary_with_heavy_or_ordnance_is_applied(weapon, target):
    out = calc(_doc(weapon, target, stationary=True))
    assert "stationary" in out["applied"] and "stationary" not in out["no_effect"]
