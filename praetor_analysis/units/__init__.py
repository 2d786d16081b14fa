"""A unit as fielded (a datasheet or a roster entry), how it attacks, and what its attack does.

The face of ``units/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "ModelGroup": "praetor_analysis.units.records",
    "Hh3Target": "praetor_analysis.units.hh3_target",
    "hh3_standard_targets": "praetor_analysis.units.hh3_target",
    "fights_in_melee": "praetor_analysis.units.hh3_target",
    "strikes_in_melee": "praetor_analysis.units.hh3_target",
    "hh3_target_of_group": "praetor_analysis.units.hh3_target",
    "hh3_target_of_row": "praetor_analysis.units.hh3_target",
    "hh3_target_of_unit": "praetor_analysis.units.hh3_target",
    "WEAPON_KEYS": "praetor_analysis.units.hh3_roster",
    "hh3_fielded": "praetor_analysis.units.hh3_roster",
    "hh3_reading_parts": "praetor_analysis.units.hh3_roster",
    "as_target": "praetor_analysis.units.target",
    "check_marker_cost": "praetor_analysis.units.limits",
    "check_target": "praetor_analysis.units.block_records",
    "check_weapon_given": "praetor_analysis.units.block_records",
    "Choice": "praetor_analysis.units.result",
    "DATASHEET_FIELDS": "praetor_analysis.units.datasheet",
    "datasheet_row": "praetor_analysis.units.datasheet",
    "default_formation": "praetor_analysis.units.formation",
    "default_marker_setup": "praetor_analysis.units.marker_volley",
    "default_note": "praetor_analysis.units.formation",
    "defender_groups": "praetor_analysis.units.attack",
    "fielded_unit": "praetor_analysis.units.fielded",
    "FieldedUnit": "praetor_analysis.units.records",
    "firing_units_result": "praetor_analysis.units.volleys",
    "fold": "praetor_analysis.units.names",
    "frame_rows": "praetor_analysis.units.blocks",
    "GRENADE_PROFILES": "praetor_analysis.units.attack",
    "is_datasheet": "praetor_analysis.units.datasheet",
    "is_target_profile": "praetor_analysis.units.names",
    "is_vehicle_row": "praetor_analysis.units.blocks",
    "legion_names": "praetor_analysis.units.option_visibility",
    "LOADOUT_ITEM_S": "praetor_analysis.units.limits",
    "marker_hits": "praetor_analysis.units.marker_volley",
    "marker_seconds": "praetor_analysis.units.limits",
    "MarkerSetup": "praetor_analysis.units.formation",
    "MAX_SECONDS": "praetor_analysis.units.limits",
    "Measure": "praetor_analysis.units.result",
    "melee": "praetor_analysis.units.attack",
    "melee_weapons": "praetor_analysis.units.attack",
    "MODIFIER_FIELDS": "praetor_analysis.units.modifiers",
    "Modifiers": "praetor_analysis.units.modifiers",
    "NO_MODIFIERS": "praetor_analysis.units.modifiers",
    "Outcome": "praetor_analysis.units.result",
    "parse_cached": "praetor_analysis.units.blocks",
    "parse_unit_block": "praetor_analysis.units.block_records",
    "parse_weapon_block": "praetor_analysis.units.block_records",
    "placed": "praetor_analysis.units.marker_volley",
    "placed_notes": "praetor_analysis.units.marker_volley",
    "read_roster_units": "praetor_analysis.units.fielded",
    "REROLL_CHOICES": "praetor_analysis.units.modifiers",
    "resolve_unit": "praetor_analysis.units.names",
    "resolve_weapon": "praetor_analysis.units.names",
    "ROSTER_FIELDS": "praetor_analysis.units.target",
    "roster_unit": "praetor_analysis.units.target",
    "row_id": "praetor_analysis.units.blocks",
    "row_value": "praetor_analysis.units.blocks",
    "shooting": "praetor_analysis.units.attack",
    "shooting_volleys": "praetor_analysis.units.attack",
    "shown_options": "praetor_analysis.units.datasheet",
    "split_modifiers": "praetor_analysis.units.modifiers",
    "STRIKING": "praetor_analysis.units.block_records",
    "target_block": "praetor_analysis.units.blocks",
    "target_from_row": "praetor_analysis.units.names",
    "target_record": "praetor_analysis.units.block_records",
    "UNARMED": "praetor_analysis.units.attack",
    "unique_labels": "praetor_analysis.units.roster_units",
    "unit_row": "praetor_analysis.units.names",
    "UnitAttackResult": "praetor_analysis.units.result",
    "weapon_block": "praetor_analysis.units.blocks",
    "weapon_blocks": "praetor_analysis.units.datasheet",
    "weapon_row": "praetor_analysis.units.names",
    "RosterReading": "praetor_analysis.units.fielded",
    "legion_of": "praetor_analysis.units.option_visibility",
}

__all__ = [
    "DATASHEET_FIELDS",
    "GRENADE_PROFILES",
    "LOADOUT_ITEM_S",
    "MAX_SECONDS",
    "MODIFIER_FIELDS",
    "NO_MODIFIERS",
    "REROLL_CHOICES",
    "ROSTER_FIELDS",
    "STRIKING",
    "UNARMED",
    "WEAPON_KEYS",
    "Choice",
    "FieldedUnit",
    "Hh3Target",
    "MarkerSetup",
    "Measure",
    "ModelGroup",
    "Modifiers",
    "Outcome",
    "RosterReading",
    "UnitAttackResult",
    "as_target",
    "check_marker_cost",
    "check_target",
    "check_weapon_given",
    "datasheet_row",
    "default_formation",
    "default_marker_setup",
    "default_note",
    "defender_groups",
    "fielded_unit",
    "fights_in_melee",
    "firing_units_result",
    "fold",
    "frame_rows",
    "hh3_fielded",
    "hh3_reading_parts",
    "hh3_standard_targets",
    "hh3_target_of_group",
    "hh3_target_of_row",
    "hh3_target_of_unit",
    "is_datasheet",
    "is_target_profile",
    "is_vehicle_row",
    "legion_names",
    "legion_of",
    "marker_hits",
    "marker_seconds",
    "melee",
    "melee_weapons",
    "parse_cached",
    "parse_unit_block",
    "parse_weapon_block",
    "placed",
    "placed_notes",
    "read_roster_units",
    "resolve_unit",
    "resolve_weapon",
    "roster_unit",
    "row_id",
    "row_value",
    "shooting",
    "shooting_volleys",
    "shown_options",
    "split_modifiers",
    "strikes_in_melee",
    "target_block",
    "target_from_row",
    "target_record",
    "unique_labels",
    "unit_row",
    "weapon_block",
    "weapon_blocks",
    "weapon_row",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.units.attack import (
        GRENADE_PROFILES,
        UNARMED,
        defender_groups,
        melee,
        melee_weapons,
        shooting,
        shooting_volleys,
    )
    from praetor_analysis.units.block_records import (
        STRIKING,
        check_target,
        check_weapon_given,
        parse_unit_block,
        parse_weapon_block,
        target_record,
    )
    from praetor_analysis.units.blocks import (
        frame_rows,
        is_vehicle_row,
        parse_cached,
        row_id,
        row_value,
        target_block,
        weapon_block,
    )
    from praetor_analysis.units.datasheet import (
        DATASHEET_FIELDS,
        datasheet_row,
        is_datasheet,
        shown_options,
        weapon_blocks,
    )
    from praetor_analysis.units.fielded import RosterReading, fielded_unit, read_roster_units
    from praetor_analysis.units.formation import MarkerSetup, default_formation, default_note
    from praetor_analysis.units.hh3_roster import WEAPON_KEYS, hh3_fielded, hh3_reading_parts
    from praetor_analysis.units.hh3_target import (
        Hh3Target,
        fights_in_melee,
        hh3_standard_targets,
        hh3_target_of_group,
        hh3_target_of_row,
        hh3_target_of_unit,
        strikes_in_melee,
    )
    from praetor_analysis.units.limits import LOADOUT_ITEM_S, MAX_SECONDS, check_marker_cost, marker_seconds
    from praetor_analysis.units.marker_volley import default_marker_setup, marker_hits, placed, placed_notes
    from praetor_analysis.units.modifiers import (
        MODIFIER_FIELDS,
        NO_MODIFIERS,
        REROLL_CHOICES,
        Modifiers,
        split_modifiers,
    )
    from praetor_analysis.units.names import (
        fold,
        is_target_profile,
        resolve_unit,
        resolve_weapon,
        target_from_row,
        unit_row,
        weapon_row,
    )
    from praetor_analysis.units.option_visibility import legion_names, legion_of
    from praetor_analysis.units.records import FieldedUnit, ModelGroup
    from praetor_analysis.units.result import Choice, Measure, Outcome, UnitAttackResult
    from praetor_analysis.units.roster_units import unique_labels
    from praetor_analysis.units.target import ROSTER_FIELDS, as_target, roster_unit
    from praetor_analysis.units.volleys import firing_units_result
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
