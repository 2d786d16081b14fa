"""Melee in the 3rd edition: Combat Initiative, attacks per step, a whole round in Initiative order and the
combat's resolution (docs/rules-hh3.md#melee)."""

from praetor_analysis.melee.hh3.blows import Applies, attacks_at_step, combat_initiative, majority
from praetor_analysis.melee.hh3.round import (
    GroupSide,
    RoundResult3,
    RoundSide,
    Striker3,
    combat_round_groups,
    combat_round_hh3,
)

__all__ = [
    "Applies",
    "GroupSide",
    "RoundResult3",
    "RoundSide",
    "Striker3",
    "attacks_at_step",
    "combat_initiative",
    "combat_round_groups",
    "combat_round_hh3",
    "majority",
]
