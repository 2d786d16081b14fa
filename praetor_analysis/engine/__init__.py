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
    "BatchResult": "praetor_analysis.engine.batch_results",
    "BlockResult": "praetor_analysis.engine.batch_results",
    "attack_limit": "praetor_analysis.engine.hit_stage",
    "Casualties": "praetor_analysis.engine.volley",
    "CheckValues": "praetor_analysis.engine.hh3.statuses",
    "classify_rules": "praetor_analysis.engine.rule_report",
    "damage_dist": "praetor_analysis.engine.hh3.wound",
    "demote_mitigation_roll": "praetor_analysis.engine.rule_report",
    "denial_note": "praetor_analysis.engine.two_weapons",
    "end_attack": "praetor_analysis.engine.hh3.chain",
    "fire_group": "praetor_analysis.engine.hh3.volley",
    "FireGroup": "praetor_analysis.engine.hh3.chain",
    "from_hit_points": "praetor_analysis.engine.hh3.chain",
    "group_classes": "praetor_analysis.engine.hh3.chain",
    "group_counts": "praetor_analysis.engine.hh3.chain",
    "HELD": "praetor_analysis.engine.hh3.chain",
    "Hh3Context": "praetor_analysis.engine.hh3.volley",
    "Hh3Result": "praetor_analysis.engine.hh3.result",
    "Hh3Volley": "praetor_analysis.engine.hh3.volley",
    "hit_points": "praetor_analysis.engine.hh3.chain",
    "HitDie": "praetor_analysis.engine.hh3.hit",
    "locked_in_combat": "praetor_analysis.engine.pinning",
    "losses": "praetor_analysis.engine.hh3.attack",
    "MAX_HIT_POINTS": "praetor_analysis.engine.hh3.attack",
    "MAX_WORK": "praetor_analysis.engine.hh3.attack",
    "may_attack": "praetor_analysis.engine.hit_stage",
    "misfire_group": "praetor_analysis.engine.hh3.volley",
    "MisfireResult": "praetor_analysis.engine.hh3.result",
    "pair_attacks": "praetor_analysis.engine.two_weapons",
    "pair_denial": "praetor_analysis.engine.two_weapons",
    "pair_note": "praetor_analysis.engine.two_weapons",
    "PINNED": "praetor_analysis.engine.hh3.chain",
    "reads_target_name": "praetor_analysis.engine.hit_stage",
    "reasons": "praetor_analysis.engine.rule_report",
    "resolve": "praetor_analysis.engine.batch",
    "resolve_group": "praetor_analysis.engine.hh3.chain",
    "removed_means": "praetor_analysis.engine.hh3.attack",
    "resolve_hh3": "praetor_analysis.engine.hh3.attack",
    "resolve_batch": "praetor_analysis.engine.batch",
    "resolve_many": "praetor_analysis.engine.batch",
    "resolve_sequence": "praetor_analysis.engine.chain",
    "RuleReport": "praetor_analysis.engine.hh3.report",
    "second_weapon_for": "praetor_analysis.engine.two_weapons",
    "set_blows": "praetor_analysis.engine.hit_stage",
    "shock_positions": "praetor_analysis.engine.hh3.volley",
    "shot_label": "praetor_analysis.engine.rule_report",
    "shots_distribution": "praetor_analysis.engine.hit_stage",
    "situation_of": "praetor_analysis.engine.rule_report",
    "snap_forced": "praetor_analysis.engine.hh3.volley",
    "start": "praetor_analysis.engine.hh3.chain",
    "stationary_verdict": "praetor_analysis.engine.hh3.report",
    "State": "praetor_analysis.engine.hh3.chain",
    "STATUSES": "praetor_analysis.engine.hh3.chain",
    "target_report": "praetor_analysis.engine.hh3.report",
    "TargetState": "praetor_analysis.engine.volley",
    "TooLarge": "praetor_analysis.engine.allocation",
    "UnitSpace": "praetor_analysis.engine.allocation",
    "Volley": "praetor_analysis.engine.volley",
    "volley_report": "praetor_analysis.engine.hh3.report",
    "VolleyResult": "praetor_analysis.engine.volley",
    "weapon_strength": "praetor_analysis.engine.volley",
    "with_attacker_hit_rules": "praetor_analysis.engine.hit_stage",
    "wound_classes": "praetor_analysis.engine.hh3.wound",
    "wound_groups": "praetor_analysis.engine.wound_stage",
    "FLYER_IMMUNE": "praetor_analysis.engine.hh3",
    "check_values": "praetor_analysis.engine.hh3",
    "misfire_result": "praetor_analysis.engine.hh3",
    "one_attack": "praetor_analysis.engine.hh3",
    "shock_mix": "praetor_analysis.engine.hh3.chain",
    "apply_wound": "praetor_analysis.engine.hh3.operators",
    "deflagrate_hits": "praetor_analysis.engine.hh3.operators",
    "MAX_NAME_CHARS": "praetor_analysis.engine.cost",
    "cap_workers": "praetor_analysis.engine.cost",
    "check_cost": "praetor_analysis.engine.cost",
    "check_finite_cost": "praetor_analysis.engine.cost",
    "unit_cost": "praetor_analysis.engine.cost",
}

__all__ = [
    "FLYER_IMMUNE",
    "HELD",
    "MAX_HIT_POINTS",
    "MAX_NAME_CHARS",
    "MAX_WORK",
    "PINNED",
    "STATUSES",
    "Allocator",
    "BatchResult",
    "BlockResult",
    "Casualties",
    "CheckValues",
    "FireGroup",
    "Hh3Context",
    "Hh3Result",
    "Hh3Volley",
    "HitDie",
    "MisfireResult",
    "RuleReport",
    "State",
    "TargetState",
    "TooLarge",
    "UnitSpace",
    "Volley",
    "VolleyResult",
    "apply_wound",
    "attack_limit",
    "cap_workers",
    "check_cost",
    "check_finite_cost",
    "check_values",
    "classify_rules",
    "damage_dist",
    "deflagrate_hits",
    "demote_mitigation_roll",
    "denial_note",
    "end_attack",
    "fire_group",
    "from_hit_points",
    "group_classes",
    "group_counts",
    "hit_points",
    "locked_in_combat",
    "losses",
    "may_attack",
    "misfire_group",
    "misfire_result",
    "one_attack",
    "pair_attacks",
    "pair_denial",
    "pair_note",
    "reads_target_name",
    "reasons",
    "removed_means",
    "resolve",
    "resolve_batch",
    "resolve_group",
    "resolve_hh3",
    "resolve_many",
    "resolve_sequence",
    "second_weapon_for",
    "set_blows",
    "shock_mix",
    "shock_positions",
    "shot_label",
    "shots_distribution",
    "situation_of",
    "snap_forced",
    "start",
    "stationary_verdict",
    "target_report",
    "unit_cost",
    "volley_report",
    "weapon_strength",
    "with_attacker_hit_rules",
    "wound_classes",
    "wound_groups",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.engine.allocation import Allocator, TooLarge, UnitSpace
    from praetor_analysis.engine.batch import resolve, resolve_batch, resolve_many
    from praetor_analysis.engine.batch_results import BatchResult, BlockResult
    from praetor_analysis.engine.chain import resolve_sequence
    from praetor_analysis.engine.cost import MAX_NAME_CHARS, cap_workers, check_cost, check_finite_cost, unit_cost
    from praetor_analysis.engine.hh3 import FLYER_IMMUNE, check_values, misfire_result, one_attack
    from praetor_analysis.engine.hh3.attack import MAX_HIT_POINTS, MAX_WORK, losses, removed_means, resolve_hh3
    from praetor_analysis.engine.hh3.chain import (
        HELD,
        PINNED,
        STATUSES,
        FireGroup,
        State,
        end_attack,
        from_hit_points,
        group_classes,
        group_counts,
        hit_points,
        resolve_group,
        shock_mix,
        start,
    )
    from praetor_analysis.engine.hh3.hit import HitDie
    from praetor_analysis.engine.hh3.operators import apply_wound, deflagrate_hits
    from praetor_analysis.engine.hh3.report import RuleReport, stationary_verdict, target_report, volley_report
    from praetor_analysis.engine.hh3.result import Hh3Result, MisfireResult
    from praetor_analysis.engine.hh3.statuses import CheckValues
    from praetor_analysis.engine.hh3.volley import (
        Hh3Context,
        Hh3Volley,
        fire_group,
        misfire_group,
        shock_positions,
        snap_forced,
    )
    from praetor_analysis.engine.hh3.wound import damage_dist, wound_classes
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
    from praetor_analysis.engine.two_weapons import (
        denial_note,
        pair_attacks,
        pair_denial,
        pair_note,
        second_weapon_for,
    )
    from praetor_analysis.engine.volley import Casualties, TargetState, Volley, VolleyResult, weapon_strength
    from praetor_analysis.engine.wound_stage import wound_groups
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
