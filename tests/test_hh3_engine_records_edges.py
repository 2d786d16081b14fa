"""Edges of ``units.hh3_engine_records`` the fixture rosters do not reach (mutants of branch ``mutants5``): which
statlines get a vehicle's WS of 1, and the marker text of a melee profile (which prints no range)."""

from __future__ import annotations

from praetor_analysis.bsdata import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline
from praetor_analysis.units.hh3_engine_records import attacker_stats, profile_marks_text


def test_only_a_statline_without_t_and_ws_gets_ws_1() -> None:
    # The docstring's rule: a vehicle prints neither T nor WS, and strikes as WS 1.
    assert attacker_stats(Hh3Statline("Tank", "Vehicle", unit_type="Vehicle", bs="4"))["WS"] == "1"
    # T printed, WS not: nothing is added.
    assert "WS" not in attacker_stats(Hh3Statline("Odd", "Model", toughness="4"))
    # WS printed, T not: the printed WS stays.
    assert attacker_stats(Hh3Statline("Odd", "Model", ws="4"))["WS"] == "4"
    # Every printed characteristic by its name, the empty ones left out.
    assert attacker_stats(Hh3Statline("Trooper", "Model", ws="4", toughness="4", save="3+")) == {
        "WS": "4", "T": "4", "SAV": "3+"
    }  # fmt: skip


def test_marks_text_joins_rules_traits_and_range() -> None:
    ranged = Hh3RangedProfile(
        "Gun", range="Template", special_rules=("Pinning (1)", "Breaching (6+)"), traits=("Flame",)
    )
    assert profile_marks_text(ranged) == "Pinning (1), Breaching (6+) Flame Template"
    # A melee profile has no range field: its part is empty.
    melee = Hh3MeleeProfile("Sword", special_rules=("Rending (6+)", "Shred"), traits=("Power",))
    assert profile_marks_text(melee) == "Rending (6+), Shred Power "
