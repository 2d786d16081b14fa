"""Blows and whole rounds of combat between two units.

The face of ``melee/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "attacks_at_step": "praetor_analysis.melee.hh3.blows",
    "combat_initiative": "praetor_analysis.melee.hh3.blows",
    "combat_round_groups": "praetor_analysis.melee.hh3.round",
    "combat_round_hh3": "praetor_analysis.melee.hh3.round",
    "GroupSide": "praetor_analysis.melee.hh3.round",
    "CombatResult": "praetor_analysis.melee.combat",
    "Party": "praetor_analysis.melee.blows",
    "plan_blows": "praetor_analysis.melee.blows",
    "resolve_combat": "praetor_analysis.melee.combat",
    "RoundResult3": "praetor_analysis.melee.hh3.round",
    "RoundSide": "praetor_analysis.melee.hh3.round",
    "Side": "praetor_analysis.melee.blows",
    "Striker3": "praetor_analysis.melee.hh3.round",
}

__all__ = [
    "CombatResult",
    "GroupSide",
    "Party",
    "RoundResult3",
    "RoundSide",
    "Side",
    "Striker3",
    "attacks_at_step",
    "combat_initiative",
    "combat_round_groups",
    "combat_round_hh3",
    "plan_blows",
    "resolve_combat",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.melee.blows import Party, Side, plan_blows
    from praetor_analysis.melee.combat import CombatResult, resolve_combat
    from praetor_analysis.melee.hh3.blows import attacks_at_step, combat_initiative
    from praetor_analysis.melee.hh3.round import (
        GroupSide,
        RoundResult3,
        RoundSide,
        Striker3,
        combat_round_groups,
        combat_round_hh3,
    )
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
