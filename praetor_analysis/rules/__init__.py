"""The game's tables and special rules: what each rule does to one attack's dice.

The face of ``rules/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "AUTOMATIC": "praetor_analysis.rules.hh3.tables",
    "BLOWS": "praetor_analysis.rules.hooks",
    "canonical_rule_name": "praetor_analysis.rules.catalogue",
    "CHARGE_STRENGTH": "praetor_analysis.rules.hooks",
    "CHECK": "praetor_analysis.rules.hooks",
    "check_pass": "praetor_analysis.rules.hh3.tables",
    "CheckBoost": "praetor_analysis.rules.hooks",
    "D3_DAMAGE": "praetor_analysis.rules.damage_rules",
    "DAMAGE": "praetor_analysis.rules.hooks",
    "declaration": "praetor_analysis.rules.hh3.special",
    "DECLARATIONS": "praetor_analysis.rules.hh3.special",
    "gets_hot_before_firing": "praetor_analysis.rules.hit",
    "gets_hot_given_hits": "praetor_analysis.rules.hit",
    "granted_rules": "praetor_analysis.rules.unit_types",
    "Hh3Tables": "praetor_analysis.rules.hh3.tables",
    "HIT": "praetor_analysis.rules.hooks",
    "HIT_AGAIN": "praetor_analysis.rules.hooks",
    "HitRoll": "praetor_analysis.rules.hit",
    "hits_again": "praetor_analysis.rules.hit",
    "HitSituation": "praetor_analysis.rules.contexts",
    "Holder": "praetor_analysis.rules.registry",
    "lookup": "praetor_analysis.rules.catalogue",
    "master_crafted_hits": "praetor_analysis.rules.hit",
    "MULTIPLIED": "praetor_analysis.rules.hooks",
    "NO_READS": "praetor_analysis.rules.target_reads",
    "parse_rules": "praetor_analysis.rules.hh3.special",
    "PHASE_SAVES": "praetor_analysis.rules.save_rules",
    "PSYCHIC_WEAPONS": "praetor_analysis.rules.save_rules",
    "PINNING_IMMUNE_TYPES": "praetor_analysis.rules.unit_types",
    "plays": "praetor_analysis.rules.catalogue",
    "reads": "praetor_analysis.rules.target_reads",
    "reads_of": "praetor_analysis.rules.catalogue",
    "REGISTRY": "praetor_analysis.rules.registry",
    "Resolution": "praetor_analysis.rules.classify",
    "Role": "praetor_analysis.rules.hooks",
    "roles_of": "praetor_analysis.rules.catalogue",
    "roll_to_hit": "praetor_analysis.rules.hit",
    "RuleDecl": "praetor_analysis.rules.registry",
    "RuleOption": "praetor_analysis.rules.registry",
    "RuleRef": "praetor_analysis.rules.hh3.special",
    "RuleReport": "praetor_analysis.rules.classify",
    "SAVE": "praetor_analysis.rules.hooks",
    "SaveContext": "praetor_analysis.rules.saves",
    "SaveSituation": "praetor_analysis.rules.contexts",
    "share_at_least": "praetor_analysis.rules.hit",
    "Situation": "praetor_analysis.rules.classify",
    "Slot": "praetor_analysis.rules.hooks",
    "SNAPS": "praetor_analysis.rules.hooks",
    "SnapsHook": "praetor_analysis.rules.hooks",
    "Stage": "praetor_analysis.rules.registry",
    "stage_hooks": "praetor_analysis.rules.catalogue",
    "ranked_hooks": "praetor_analysis.rules.catalogue",
    "STRENGTH": "praetor_analysis.rules.hooks",
    "TABLES": "praetor_analysis.rules.hh3.tables",
    "TargetReads": "praetor_analysis.rules.target_reads",
    "to_hit_melee": "praetor_analysis.rules.tables",
    "to_wound": "praetor_analysis.rules.tables",
    "TOXIN_RESISTANT_TYPES": "praetor_analysis.rules.wound_rules",
    "unlowered_type": "praetor_analysis.rules.unit_types",
    "vehicle_attack": "praetor_analysis.rules.classify",
    "WIELDER_WS": "praetor_analysis.rules.hooks",
    "with_role": "praetor_analysis.rules.catalogue",
    "WOUND": "praetor_analysis.rules.hooks",
    "wound_chain": "praetor_analysis.rules.classify",
    "WOUND_STAGE_SLOTS": "praetor_analysis.rules.hooks",
    "wound_target": "praetor_analysis.rules.hh3.tables",
    "WoundKind": "praetor_analysis.rules.wound",
    "WoundRoll": "praetor_analysis.rules.wound",
    "WoundSituation": "praetor_analysis.rules.contexts",
}

__all__ = [
    "AUTOMATIC",
    "BLOWS",
    "CHARGE_STRENGTH",
    "CHECK",
    "D3_DAMAGE",
    "DAMAGE",
    "DECLARATIONS",
    "HIT",
    "HIT_AGAIN",
    "MULTIPLIED",
    "NO_READS",
    "PHASE_SAVES",
    "PINNING_IMMUNE_TYPES",
    "PSYCHIC_WEAPONS",
    "REGISTRY",
    "SAVE",
    "SNAPS",
    "STRENGTH",
    "TABLES",
    "TOXIN_RESISTANT_TYPES",
    "WIELDER_WS",
    "WOUND",
    "WOUND_STAGE_SLOTS",
    "CheckBoost",
    "Hh3Tables",
    "HitRoll",
    "HitSituation",
    "Holder",
    "Resolution",
    "Role",
    "RuleDecl",
    "RuleOption",
    "RuleRef",
    "RuleReport",
    "SaveContext",
    "SaveSituation",
    "Situation",
    "Slot",
    "SnapsHook",
    "Stage",
    "TargetReads",
    "WoundKind",
    "WoundRoll",
    "WoundSituation",
    "canonical_rule_name",
    "check_pass",
    "declaration",
    "gets_hot_before_firing",
    "gets_hot_given_hits",
    "granted_rules",
    "hits_again",
    "lookup",
    "master_crafted_hits",
    "parse_rules",
    "plays",
    "ranked_hooks",
    "reads",
    "reads_of",
    "roles_of",
    "roll_to_hit",
    "share_at_least",
    "stage_hooks",
    "to_hit_melee",
    "to_wound",
    "unlowered_type",
    "vehicle_attack",
    "with_role",
    "wound_chain",
    "wound_target",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.rules.catalogue import (
        canonical_rule_name,
        lookup,
        plays,
        ranked_hooks,
        reads_of,
        roles_of,
        stage_hooks,
        with_role,
    )
    from praetor_analysis.rules.classify import Resolution, RuleReport, Situation, vehicle_attack, wound_chain
    from praetor_analysis.rules.contexts import HitSituation, SaveSituation, WoundSituation
    from praetor_analysis.rules.damage_rules import D3_DAMAGE
    from praetor_analysis.rules.hh3.special import DECLARATIONS, RuleRef, declaration, parse_rules
    from praetor_analysis.rules.hh3.tables import AUTOMATIC, TABLES, Hh3Tables, check_pass, wound_target
    from praetor_analysis.rules.hit import (
        HitRoll,
        gets_hot_before_firing,
        gets_hot_given_hits,
        hits_again,
        master_crafted_hits,
        roll_to_hit,
        share_at_least,
    )
    from praetor_analysis.rules.hooks import (
        BLOWS,
        CHARGE_STRENGTH,
        CHECK,
        DAMAGE,
        HIT,
        HIT_AGAIN,
        MULTIPLIED,
        SAVE,
        SNAPS,
        STRENGTH,
        WIELDER_WS,
        WOUND,
        WOUND_STAGE_SLOTS,
        CheckBoost,
        Role,
        Slot,
        SnapsHook,
    )
    from praetor_analysis.rules.registry import REGISTRY, Holder, RuleDecl, RuleOption, Stage
    from praetor_analysis.rules.save_rules import PHASE_SAVES, PSYCHIC_WEAPONS
    from praetor_analysis.rules.saves import SaveContext
    from praetor_analysis.rules.tables import to_hit_melee, to_wound
    from praetor_analysis.rules.target_reads import NO_READS, TargetReads, reads
    from praetor_analysis.rules.unit_types import PINNING_IMMUNE_TYPES, granted_rules, unlowered_type
    from praetor_analysis.rules.wound import WoundKind, WoundRoll
    from praetor_analysis.rules.wound_rules import TOXIN_RESISTANT_TYPES
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
