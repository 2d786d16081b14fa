"""How much of the game's real weapons the engine models: every distinct weapon profile of the shipped
catalog (data/weapons.csv, deduplicated by Range, Strength, AP and Type) against ten Legionaries.

A profile is *fully modelled* when its result lists nothing under ``not_modelled``, or nothing but options
of the attacker that the scenario did not take (``options``: Rocket Barrage, Reactor Overload...) and that the
engine computes when taken: the same scenario with each option taken (each choice of Fighting Style) lists
nothing under ``not_modelled``. Shooting weapons fire with a default attacker; melee weapons strike in melee
mode; weapons whose hits come from a marker, template or beam are given ``hits``. Run this file as a script (``python tests/test_coverage.py``) to print the share and every
profile still not fully modelled, with its reason.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from typing import Any

import pandas as pd

from praetor_analysis.bsdata import distinct_profiles as one_per_profile
from praetor_analysis.catalog import load_weapons
from praetor_analysis.errors import PraetorError
from praetor_analysis.profiles.records import Weapon
from praetor_analysis.rules.catalogue import lookup, rules_acting_on
from praetor_analysis.rules.marker_rules import MARKERS
from praetor_analysis.rules.registry import Stage
from praetor_analysis.scenario.calc import calc
from praetor_analysis.units import WeaponRow

#: The share of profiles fully modelled must not fall below this (issue 23: 99%).
FLOOR = 0.99

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
    """One profile's verdict: its block, the entries not modelled, and why each is not; ``options``: the
    options not taken that the engine computes when taken (they leave the profile fully modelled)."""

    weapon: dict[str, Any]
    not_modelled: tuple[str, ...]
    reasons: tuple[str, ...]
    options: tuple[str, ...] = ()

    @property
    def full(self) -> bool:
        return not self.not_modelled


def distinct_profiles() -> pd.DataFrame:
    """The shipped weapon profiles, one per distinct profile (Range, Strength, AP, Type: the importer's count)."""
    return one_per_profile(load_weapons())


def scenario_for(block: dict[str, Any]) -> dict[str, Any]:
    """The scenario one profile is measured with: melee in melee mode, markers with ``hits``."""
    weapon = Weapon.from_mapping(block)
    scenario: dict[str, Any] = {"attacker": ATTACKER, "weapon": block, "target": LEGIONARIES}
    if weapon.is_melee:
        scenario["mode"] = "melee"
    elif weapon.range.template is not None or any(weapon.has(m) for m in GEOMETRY):
        scenario["hits"] = MARKER_HITS
    return scenario


def option_takes(entry: str) -> list[list[str]] | None:
    """The ``options`` values that take a not-modelled entry, one per choice; None when it is no option."""
    decl = lookup(entry)
    if decl is None or decl.option is None:
        return None
    return [[f"{decl.name} ({c})"] for c, _ in decl.option.choices] or [[decl.name]]


def _computed_when_taken(scenario: dict[str, Any], taking: list[list[str]]) -> bool:
    """True when the scenario with each of these options taken lists nothing under ``not_modelled``."""
    try:
        return all(not calc({**scenario, "options": options})["not_modelled"] for options in taking)
    except PraetorError:
        return False


def outcome(block: dict[str, Any]) -> Outcome:
    """Compute one profile against the Legionaries (a refused profile is not modelled, with the message)."""
    scenario = scenario_for(block)
    try:
        result = calc(scenario)
    except PraetorError as exc:
        return Outcome(block, ("refused",), (str(exc),))
    missing = tuple(result["not_modelled"])
    takes = [option_takes(m) for m in missing]
    if missing and all(t is not None for t in takes):
        taking = [[o for t in choice for o in t] for choice in _combinations([t for t in takes if t is not None])]
        if _computed_when_taken(scenario, taking):
            return Outcome(block, (), (), options=missing)
    return Outcome(block, missing, tuple(result["reasons"].get(m, "") for m in missing))


def _combinations(takes: list[list[list[str]]]) -> list[list[list[str]]]:
    """Every way of taking one choice of each option."""
    out: list[list[list[str]]] = [[]]
    for choices in takes:
        out = [[*done, c] for done in out for c in choices]
    return out


@cache
def measure() -> tuple[Outcome, ...]:
    """Every distinct profile's outcome."""
    return tuple(outcome(WeaponRow.from_row(row).to_block()) for _, row in distinct_profiles().iterrows())


def share(outcomes: tuple[Outcome, ...]) -> float:
    """The fraction of profiles fully modelled."""
    return sum(o.full for o in outcomes) / len(outcomes)


def report(outcomes: tuple[Outcome, ...]) -> str:
    """The share, then each profile not fully modelled with its entries and reasons."""
    lines = [f"fully modelled: {sum(o.full for o in outcomes)} of {len(outcomes)} ({share(outcomes):.1%})"]
    optional = [o for o in outcomes if o.options]
    lines.append(f"  of which {len(optional)} with options not taken, computed when taken:")
    lines.extend(f"    {o.weapon['name']} [{o.weapon['Type']}] -- {', '.join(o.options)}" for o in optional)
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


def test_options_not_taken_are_not_modelled_and_computed_when_taken() -> None:
    # a profile counted as fully modelled through its options lists them under not_modelled when they are not
    # taken, saying what taking them would give; taken, nothing is left (outcome checked that)
    optional = [o for o in measure() if o.options]
    assert len(optional) >= 8  # Rocket Barrage, Reactor Overload (3), Charged Attacks, Deadly Aim, Blade Charge...
    for o in optional:
        result = calc(scenario_for(o.weapon))
        assert result["not_modelled"] == list(o.options)
        for entry in o.options:
            assert result["reasons"][entry].startswith("option not taken: taking it"), entry


def test_every_profile_not_fully_modelled_has_a_reason() -> None:
    for o in measure():
        for entry, why in zip(o.not_modelled, o.reasons, strict=True):
            assert why, (o.weapon["name"], entry)


if __name__ == "__main__":
    print(report(measure()))
    sys.exit(0)
