"""Datasheet text -> typed Weapon and Unit records.

The face of ``profiles/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "Armour": "praetor_analysis.profiles.records",
    "HH3_UNIT_FIELDS": "praetor_analysis.profiles.hh3",
    "check_text": "praetor_analysis.profiles.characteristics",
    "clean_text": "praetor_analysis.profiles.characteristics",
    "clean_type": "praetor_analysis.profiles.vocabulary",
    "Hh3Unit": "praetor_analysis.profiles.hh3",
    "Hh3Weapon": "praetor_analysis.profiles.hh3",
    "is_vehicle_type": "praetor_analysis.profiles.records",
    "MAX_MODELS": "praetor_analysis.profiles.records",
    "parse_number": "praetor_analysis.profiles.characteristics",
    "parse_rule": "praetor_analysis.profiles.rule_tokens",
    "parse_rules": "praetor_analysis.profiles.rule_tokens",
    "parse_save": "praetor_analysis.profiles.characteristics",
    "parse_stat": "praetor_analysis.profiles.characteristics",
    "parse_weapon_type": "praetor_analysis.profiles.weapon_type",
    "read_unit": "praetor_analysis.profiles.hh3",
    "read_weapon": "praetor_analysis.profiles.hh3",
    "Rule": "praetor_analysis.profiles.rule_tokens",
    "rule_name": "praetor_analysis.profiles.vocabulary",
    "SHOT_TYPES": "praetor_analysis.profiles.vocabulary",
    "split_tokens": "praetor_analysis.profiles.rule_tokens",
    "split_type": "praetor_analysis.profiles.vocabulary",
    "StrengthSpec": "praetor_analysis.profiles.characteristics",
    "Unit": "praetor_analysis.profiles.records",
    "unit_from_mapping": "praetor_analysis.profiles.records",
    "vehicle_armour": "praetor_analysis.profiles.records",
    "with_type_rules": "praetor_analysis.profiles.records",
    "VEHICLE_FIELDS": "praetor_analysis.profiles.records",
    "Weapon": "praetor_analysis.profiles.records",
    "read_type": "praetor_analysis.profiles.hh3",
}

__all__ = [
    "HH3_UNIT_FIELDS",
    "MAX_MODELS",
    "SHOT_TYPES",
    "VEHICLE_FIELDS",
    "Armour",
    "Hh3Unit",
    "Hh3Weapon",
    "Rule",
    "StrengthSpec",
    "Unit",
    "Weapon",
    "check_text",
    "clean_text",
    "clean_type",
    "is_vehicle_type",
    "parse_number",
    "parse_rule",
    "parse_rules",
    "parse_save",
    "parse_stat",
    "parse_weapon_type",
    "read_type",
    "read_unit",
    "read_weapon",
    "rule_name",
    "split_tokens",
    "split_type",
    "unit_from_mapping",
    "vehicle_armour",
    "with_type_rules",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.profiles.characteristics import (
        StrengthSpec,
        check_text,
        clean_text,
        parse_number,
        parse_save,
        parse_stat,
    )
    from praetor_analysis.profiles.hh3 import HH3_UNIT_FIELDS, Hh3Unit, Hh3Weapon, read_type, read_unit, read_weapon
    from praetor_analysis.profiles.records import (
        MAX_MODELS,
        VEHICLE_FIELDS,
        Armour,
        Unit,
        Weapon,
        is_vehicle_type,
        unit_from_mapping,
        vehicle_armour,
        with_type_rules,
    )
    from praetor_analysis.profiles.rule_tokens import Rule, parse_rule, parse_rules, split_tokens
    from praetor_analysis.profiles.vocabulary import SHOT_TYPES, clean_type, rule_name, split_type
    from praetor_analysis.profiles.weapon_type import parse_weapon_type
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
