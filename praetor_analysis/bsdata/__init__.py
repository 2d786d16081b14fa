"""BattleScribe files: safe reading, the importer, rosters.

The face of ``bsdata/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "best_save": "praetor_analysis.bsdata.wargear_saves",
    "Defences": "praetor_analysis.bsdata.wargear_saves",
    "build_catalog": "praetor_analysis.bsdata.importer",
    "build_hh3_catalog": "praetor_analysis.bsdata.importer_hh3",
    "Hh3ImportReport": "praetor_analysis.bsdata.importer_hh3",
    "ImportReport": "praetor_analysis.bsdata.importer",
    "UnresolvedLink": "praetor_analysis.bsdata.files",
    "children": "praetor_analysis.bsdata.files",
    "HH3_RATINGS_PENDING": "praetor_analysis.bsdata.game_system",
    "Hh3MeleeProfile": "praetor_analysis.bsdata.hh3_profiles",
    "Hh3RangedProfile": "praetor_analysis.bsdata.hh3_profiles",
    "Hh3Statline": "praetor_analysis.bsdata.hh3_profiles",
    "Hh3Roster": "praetor_analysis.bsdata.roster_hh3",
    "Hh3RosterUnit": "praetor_analysis.bsdata.roster_hh3",
    "Hh3Weapon": "praetor_analysis.bsdata.roster_hh3",
    "is_counted": "praetor_analysis.bsdata.roster_costs",
    "name_count": "praetor_analysis.bsdata.roster_tree",
    "parse_xml_bytes": "praetor_analysis.bsdata.files",
    "read_roster": "praetor_analysis.bsdata.roster",
    "read_roster_bytes": "praetor_analysis.bsdata.roster",
    "require_edition": "praetor_analysis.bsdata.game_system",
    "Roster": "praetor_analysis.bsdata.roster_records",
    "roster_units_frame": "praetor_analysis.bsdata.roster",
    "roster_weapons_frame": "praetor_analysis.bsdata.roster",
    "selection_number": "praetor_analysis.bsdata.roster_records",
    "selection_option": "praetor_analysis.bsdata.roster_costs",
    "selection_points": "praetor_analysis.bsdata.roster",
    "selection_rules": "praetor_analysis.bsdata.roster",
    "selection_saves": "praetor_analysis.bsdata.roster",
    "selection_statline": "praetor_analysis.bsdata.roster",
    "selection_wargear": "praetor_analysis.bsdata.roster",
    "selection_weapons": "praetor_analysis.bsdata.roster",
    "STAT_COLUMNS": "praetor_analysis.bsdata.columns",
    "PROFILE_KEY": "praetor_analysis.bsdata.columns",
    "distinct_profiles": "praetor_analysis.bsdata.columns",
    "unit_nodes": "praetor_analysis.bsdata.roster_tree",
    "UntrustedFileError": "praetor_analysis.bsdata.files",
    "unzip_roster": "praetor_analysis.bsdata.roster",
}

__all__ = [
    "HH3_RATINGS_PENDING",
    "PROFILE_KEY",
    "STAT_COLUMNS",
    "Defences",
    "Hh3ImportReport",
    "Hh3MeleeProfile",
    "Hh3RangedProfile",
    "Hh3Roster",
    "Hh3RosterUnit",
    "Hh3Statline",
    "Hh3Weapon",
    "ImportReport",
    "Roster",
    "UnresolvedLink",
    "UntrustedFileError",
    "best_save",
    "build_catalog",
    "build_hh3_catalog",
    "children",
    "distinct_profiles",
    "is_counted",
    "name_count",
    "parse_xml_bytes",
    "read_roster",
    "read_roster_bytes",
    "require_edition",
    "roster_units_frame",
    "roster_weapons_frame",
    "selection_number",
    "selection_option",
    "selection_points",
    "selection_rules",
    "selection_saves",
    "selection_statline",
    "selection_wargear",
    "selection_weapons",
    "unit_nodes",
    "unzip_roster",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.bsdata.columns import PROFILE_KEY, STAT_COLUMNS, distinct_profiles
    from praetor_analysis.bsdata.files import UnresolvedLink, UntrustedFileError, children, parse_xml_bytes
    from praetor_analysis.bsdata.game_system import HH3_RATINGS_PENDING, require_edition
    from praetor_analysis.bsdata.hh3_profiles import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline
    from praetor_analysis.bsdata.importer import ImportReport, build_catalog
    from praetor_analysis.bsdata.importer_hh3 import Hh3ImportReport, build_hh3_catalog
    from praetor_analysis.bsdata.roster import (
        read_roster,
        read_roster_bytes,
        roster_units_frame,
        roster_weapons_frame,
        selection_points,
        selection_rules,
        selection_saves,
        selection_statline,
        selection_wargear,
        selection_weapons,
        unzip_roster,
    )
    from praetor_analysis.bsdata.roster_costs import is_counted, selection_option
    from praetor_analysis.bsdata.roster_hh3 import Hh3Roster, Hh3RosterUnit, Hh3Weapon
    from praetor_analysis.bsdata.roster_records import Roster, selection_number
    from praetor_analysis.bsdata.roster_tree import name_count, unit_nodes
    from praetor_analysis.bsdata.wargear_saves import Defences, best_save
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
