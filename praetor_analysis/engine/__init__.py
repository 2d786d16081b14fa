"""The exact wound chain: hits -> wounds -> saves -> allocation on units with Toughness and Wounds.

The face of ``engine/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "Allocator": "praetor_analysis.engine.allocation",
    "attack_limit": "praetor_analysis.engine.hit_stage",
    "Casualties": "praetor_analysis.engine.volley",
    "classify_rules": "praetor_analysis.engine.rule_report",
    "demote_mitigation_roll": "praetor_analysis.engine.rule_report",
    "denial_note": "praetor_analysis.engine.two_weapons",
    "Hh3Context": "praetor_analysis.engine.hh3.volley",
    "Hh3Volley": "praetor_analysis.engine.hh3.volley",
    "locked_in_combat": "praetor_analysis.engine.pinning",
    "may_attack": "praetor_analysis.engine.hit_stage",
    "pair_denial": "praetor_analysis.engine.two_weapons",
    "reads_target_name": "praetor_analysis.engine.hit_stage",
    "reasons": "praetor_analysis.engine.rule_report",
    "resolve": "praetor_analysis.engine.batch",
    "resolve_hh3": "praetor_analysis.engine.hh3.attack",
    "resolve_many": "praetor_analysis.engine.batch",
    "resolve_sequence": "praetor_analysis.engine.chain",
    "second_weapon_for": "praetor_analysis.engine.two_weapons",
    "set_blows": "praetor_analysis.engine.hit_stage",
    "shot_label": "praetor_analysis.engine.rule_report",
    "shots_distribution": "praetor_analysis.engine.hit_stage",
    "situation_of": "praetor_analysis.engine.rule_report",
    "TargetState": "praetor_analysis.engine.volley",
    "TooLarge": "praetor_analysis.engine.allocation",
    "UnitSpace": "praetor_analysis.engine.allocation",
    "Volley": "praetor_analysis.engine.volley",
    "VolleyResult": "praetor_analysis.engine.volley",
    "weapon_strength": "praetor_analysis.engine.volley",
    "with_attacker_hit_rules": "praetor_analysis.engine.hit_stage",
    "wound_groups": "praetor_analysis.engine.wound_stage",
}

__all__ = [
    "Allocator",
    "Casualties",
    "Hh3Context",
    "Hh3Volley",
    "TargetState",
    "TooLarge",
    "UnitSpace",
    "Volley",
    "VolleyResult",
    "attack_limit",
    "classify_rules",
    "demote_mitigation_roll",
    "denial_note",
    "locked_in_combat",
    "may_attack",
    "pair_denial",
    "reads_target_name",
    "reasons",
    "resolve",
    "resolve_hh3",
    "resolve_many",
    "resolve_sequence",
    "second_weapon_for",
    "set_blows",
    "shot_label",
    "shots_distribution",
    "situation_of",
    "weapon_strength",
    "with_attacker_hit_rules",
    "wound_groups",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.engine.allocation import Allocator, TooLarge, UnitSpace
    from praetor_analysis.engine.batch import resolve, resolve_many
    from praetor_analysis.engine.chain import resolve_sequence
    from praetor_analysis.engine.hh3.attack import resolve_hh3
    from praetor_analysis.engine.hh3.volley import Hh3Context, Hh3Volley
    from praetor_analysis.engine.hit_stage import (
        attack_limit,
        may_attack,
        reads_target_name,
        set_blows,
        shots_distribution,
        with_attacker_hit_rules,
    )
    from praetor_analysis.engine.pinning import locked_in_combat
    from praetor_analysis.engine.rule_report import (
        classify_rules,
        demote_mitigation_roll,
        reasons,
        shot_label,
        situation_of,
    )
    from praetor_analysis.engine.two_weapons import denial_note, pair_denial, second_weapon_for
    from praetor_analysis.engine.volley import Casualties, TargetState, Volley, VolleyResult, weapon_strength
    from praetor_analysis.engine.wound_stage import wound_groups
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
