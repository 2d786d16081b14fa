"""How much of the game's real weapons the engine models: every distinct weapon profile of the shipped
catalog (data/weapons.csv, deduplicated by Range, Strength, AP and Type) against ten Legionaries.

A profile is *fully modelled* when its result lists nothing under ``not_modelled``. Shooting weapons fire
with a default attacker; melee weapons strike in melee mode; weapons whose hits come from a marker, template
or beam are given ``hits``. Run this file as a script (``python tests/test_coverage.py``) to print the share and every
profile still not fully modelled, with its reason.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from typing import Any

import pandas as pd

from praetor_analysis.catalog import load_weapons
from praetor_analysis.errors import PraetorError
from praetor_analysis.profiles.records import Weapon
from praetor_analysis.rules.catalogue import rules_acting_on
from praetor_analysis.rules.marker_rules import MARKERS
from praetor_analysis.rules.registry import Stage
from praetor_analysis.scenario.blocks import weapon_block
from praetor_analysis.scenario.calc import calc

#: The share of profiles with nothing under ``not_modelled`` must not fall below this.
FLOOR = 0.98

LEGIONARIES = {
    "name": "Legionaries",
    "models": 10,
    "S": 4,
    "T": 4,
    "W": 1,
    "Save": "3+",
    "WS": 4,
    "I": 4,
    "A": 1,
    "Ld": 7,
}
ATTACKER = {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Save": "3+", "models": 1}
MARKER_HITS = 3
#: Rules whose hits come from a marker, template or beam (given as ``hits`` here).
GEOMETRY = (*MARKERS, *rules_acting_on(Stage.PLACEMENT))


@dataclass(frozen=True)
class Outcome:
    """One profile's verdict: its block, the entries not modelled, and why each is not."""

    weapon: dict[str, Any]
    not_modelled: tuple[str, ...]
    reasons: tuple[str, ...]

    @property
    def full(self) -> bool:
        return not self.not_modelled


def distinct_profiles() -> pd.DataFrame:
    """The shipped weapon profiles, one per distinct (Range, Strength, AP, Type)."""
    return load_weapons().drop_duplicates(["Range", "Strength", "AP", "Type"])


def scenario_for(block: dict[str, Any]) -> dict[str, Any]:
    """The scenario one profile is measured with: melee in melee mode, markers with ``hits``."""
    weapon = Weapon.from_mapping(block)
    scenario: dict[str, Any] = {"attacker": ATTACKER, "weapon": block, "target": LEGIONARIES}
    if weapon.is_melee:
        scenario["mode"] = "melee"
    elif weapon.range.template is not None or any(weapon.has(m) for m in GEOMETRY):
        scenario["hits"] = MARKER_HITS
    return scenario


def outcome(block: dict[str, Any]) -> Outcome:
    """Compute one profile against the Legionaries (a refused profile is not modelled, with the message)."""
    try:
        result = calc(scenario_for(block))
    except PraetorError as exc:
        return Outcome(block, ("refused",), (str(exc),))
    missing = tuple(result["not_modelled"])
    return Outcome(block, missing, tuple(result["reasons"].get(m, "") for m in missing))


@cache
def measure() -> tuple[Outcome, ...]:
    """Every distinct profile's outcome."""
    return tuple(outcome(weapon_block(row)) for _, row in distinct_profiles().iterrows())


def share(outcomes: tuple[Outcome, ...]) -> float:
    """The fraction of profiles fully modelled."""
    return sum(o.full for o in outcomes) / len(outcomes)


def report(outcomes: tuple[Outcome, ...]) -> str:
    """The share, then each profile not fully modelled with its entries and reasons."""
    lines = [f"fully modelled: {sum(o.full for o in outcomes)} of {len(outcomes)} ({share(outcomes):.1%})"]
    for o in outcomes:
        if not o.full:
            w = o.weapon
            why = "; ".join(f"{m}: {r}" for m, r in zip(o.not_modelled, o.reasons, strict=True))
            lines.append(f"  {w['name']} [{w['Range']} S{w['Strength']} AP{w['AP']} {w['Type']}] -- {why}")
    return "\n".join(lines)


def test_share_of_real_profiles_fully_modelled() -> None:
    outcomes = measure()
    print("\n" + report(outcomes))
    assert len(outcomes) > 700  # the shipped catalog, not a sample
    assert share(outcomes) >= FLOOR


def test_every_profile_not_fully_modelled_has_a_reason() -> None:
    for o in measure():
        for entry, why in zip(o.not_modelled, o.reasons, strict=True):
            assert why, (o.weapon["name"], entry)


if __name__ == "__main__":
    print(report(measure()))
    sys.exit(0)
