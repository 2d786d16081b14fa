"""Sweeps, comparisons and list analysis -> tidy DataFrames.

The face of ``analysis/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "edition_wargear": "praetor_analysis.analysis.wargear",
    "accounting_line": "praetor_analysis.analysis.roster_listing",
    "analyse_roster": "praetor_analysis.analysis.list_analysis",
    "ArmyList": "praetor_analysis.analysis.army_list",
    "AS_FIELDED": "praetor_analysis.analysis.wargear",
    "cell_of_rows": "praetor_analysis.analysis.cells",
    "COLUMNS": "praetor_analysis.analysis.compare",
    "compare_with_distributions": "praetor_analysis.analysis.compare",
    "ComparisonCache": "praetor_analysis.analysis.compare_cache",
    "DEFAULT_ATTACKER": "praetor_analysis.analysis.attacker",
    "AttackerProfile": "praetor_analysis.analysis.attacker",
    "ComparisonRow": "praetor_analysis.analysis.compare",
    "FirePlan": "praetor_analysis.analysis.fire_plan",
    "note_list": "praetor_analysis.analysis.unit_ratings",
    "unit_notes": "praetor_analysis.analysis.unit_ratings",
    "hh3_per_point_table": "praetor_analysis.analysis.per_point",
    "hh3_targets_named": "praetor_analysis.analysis.unit_ratings",
    "hh3_wargear_value": "praetor_analysis.analysis.wargear",
    "key_units": "praetor_analysis.analysis.list_matchup",
    "listing_table": "praetor_analysis.analysis.roster_listing",
    "ListUnit": "praetor_analysis.analysis.army_list",
    "load_list": "praetor_analysis.analysis.army_list",
    "Matchup": "praetor_analysis.analysis.list_matchup",
    "per_point_table": "praetor_analysis.analysis.per_point",
    "progress_bar": "praetor_analysis.analysis.faction_sweep",
    "rate_roster": "praetor_analysis.analysis.unit_ratings",
    "roster_table": "praetor_analysis.analysis.unit_ratings",
    "row_ids": "praetor_analysis.analysis.compare",
    "sweep_faction": "praetor_analysis.analysis.faction_sweep",
    "target_named": "praetor_analysis.analysis.unit_ratings",
    "wargear_table": "praetor_analysis.analysis.wargear",
    "wargear_value": "praetor_analysis.analysis.wargear",
    "WHOLE_LIST": "praetor_analysis.analysis.list_analysis",
    "write_parquet": "praetor_analysis.analysis.faction_sweep",
    "FAILURES": "praetor_analysis.analysis.sweep_dataset",
    "check_folder": "praetor_analysis.analysis.sweep_dataset",
    "sweep_tasks": "praetor_analysis.analysis.faction_sweep",
    "write_sweep": "praetor_analysis.analysis.sweep_dataset",
    "SweepReport": "praetor_analysis.analysis.sweep_dataset",
    "read_sweep": "praetor_analysis.analysis.sweep_dataset",
    "JSON_COLUMNS": "praetor_analysis.analysis.unit_ratings",
    "listing_frame": "praetor_analysis.analysis.roster_listing",
    "check_options": "praetor_analysis.analysis.compare",
    "Pair": "praetor_analysis.analysis.matchup",
    "strikes_one_way": "praetor_analysis.analysis.matchup",
}

__all__ = [
    "AS_FIELDED",
    "COLUMNS",
    "DEFAULT_ATTACKER",
    "FAILURES",
    "JSON_COLUMNS",
    "WHOLE_LIST",
    "ArmyList",
    "AttackerProfile",
    "ComparisonCache",
    "ComparisonRow",
    "FirePlan",
    "ListUnit",
    "Matchup",
    "Pair",
    "SweepReport",
    "accounting_line",
    "analyse_roster",
    "cell_of_rows",
    "check_folder",
    "check_options",
    "compare_with_distributions",
    "edition_wargear",
    "hh3_per_point_table",
    "hh3_targets_named",
    "hh3_wargear_value",
    "key_units",
    "listing_frame",
    "listing_table",
    "load_list",
    "note_list",
    "per_point_table",
    "progress_bar",
    "rate_roster",
    "read_sweep",
    "roster_table",
    "row_ids",
    "strikes_one_way",
    "sweep_faction",
    "sweep_tasks",
    "target_named",
    "unit_notes",
    "wargear_table",
    "wargear_value",
    "write_parquet",
    "write_sweep",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.analysis.army_list import ArmyList, ListUnit, load_list
    from praetor_analysis.analysis.attacker import DEFAULT_ATTACKER, AttackerProfile
    from praetor_analysis.analysis.cells import cell_of_rows
    from praetor_analysis.analysis.compare import (
        COLUMNS,
        ComparisonRow,
        check_options,
        compare_with_distributions,
        row_ids,
    )
    from praetor_analysis.analysis.compare_cache import ComparisonCache
    from praetor_analysis.analysis.faction_sweep import progress_bar, sweep_faction, sweep_tasks, write_parquet
    from praetor_analysis.analysis.fire_plan import FirePlan
    from praetor_analysis.analysis.list_analysis import WHOLE_LIST, analyse_roster
    from praetor_analysis.analysis.list_matchup import Matchup, key_units
    from praetor_analysis.analysis.matchup import Pair, strikes_one_way
    from praetor_analysis.analysis.per_point import hh3_per_point_table, per_point_table
    from praetor_analysis.analysis.roster_listing import accounting_line, listing_frame, listing_table
    from praetor_analysis.analysis.sweep_dataset import FAILURES, SweepReport, check_folder, read_sweep, write_sweep
    from praetor_analysis.analysis.unit_ratings import (
        JSON_COLUMNS,
        hh3_targets_named,
        note_list,
        rate_roster,
        roster_table,
        target_named,
        unit_notes,
    )
    from praetor_analysis.analysis.wargear import (
        AS_FIELDED,
        edition_wargear,
        hh3_wargear_value,
        wargear_table,
        wargear_value,
    )
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
