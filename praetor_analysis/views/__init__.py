"""Figures, the dashboard and HTML reports: the only code that imports plotly or ipywidgets.

The face of ``views/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "wargear_title": "praetor_analysis.views.text.wargear_text",
    "check_table_path": "praetor_analysis.views.text.files",
    "fit_table": "praetor_analysis.views.text.fit",
    "hh3_import_lines": "praetor_analysis.views.text.import_text",
    "import_lines": "praetor_analysis.views.text.import_text",
    "matchup_units": "praetor_analysis.views.text.matchup_text",
    "note_lines": "praetor_analysis.views.text.notes_text",
    "pair_table": "praetor_analysis.views.text.matchup_text",
    "plan_lines": "praetor_analysis.views.text.matchup_text",
    "Progress": "praetor_analysis.views.text.progress",
    "hh3_report_main": "praetor_analysis.views.report.hh3_default",
    "report_edition": "praetor_analysis.views.report.hh3_default",
    "report_main": "praetor_analysis.views.report.page",
    "roster_long": "praetor_analysis.views.text.roster_text",
    "roster_screen": "praetor_analysis.views.text.roster_text",
    "SORTS": "praetor_analysis.views.text.roster_text",
    "summary_lines": "praetor_analysis.views.text.calc_text",
    "table_bytes": "praetor_analysis.views.text.files",
    "terminal_width": "praetor_analysis.views.text.fit",
    "wargear_screen": "praetor_analysis.views.text.wargear_text",
    "wrap": "praetor_analysis.views.text.fit",
    "write_matchup_report": "praetor_analysis.views.report.matchup",
    "write_table": "praetor_analysis.views.text.files",
    "json_rows": "praetor_analysis.views.text.json_out",
    "listing_json": "praetor_analysis.views.text.json_out",
    "print_notes": "praetor_analysis.views.text.reading_notes",
    "print_roster_notes": "praetor_analysis.views.text.reading_notes",
    "sweep_line": "praetor_analysis.views.text.done_lines",
    "written_line": "praetor_analysis.views.text.done_lines",
    "build_scenario": "praetor_analysis.views.cell_documents",
    "scenario_for": "praetor_analysis.views.cell_documents",
    "pair_scenario": "praetor_analysis.views.pair_documents",
    "shot_scenario": "praetor_analysis.views.pair_documents",
}

__all__ = [
    "SORTS",
    "Progress",
    "build_scenario",
    "check_table_path",
    "fit_table",
    "hh3_import_lines",
    "hh3_report_main",
    "import_lines",
    "json_rows",
    "listing_json",
    "matchup_units",
    "note_lines",
    "pair_scenario",
    "pair_table",
    "plan_lines",
    "print_notes",
    "print_roster_notes",
    "report_edition",
    "report_main",
    "roster_long",
    "roster_screen",
    "scenario_for",
    "shot_scenario",
    "summary_lines",
    "sweep_line",
    "table_bytes",
    "terminal_width",
    "wargear_screen",
    "wargear_title",
    "wrap",
    "write_matchup_report",
    "write_table",
    "written_line",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.views.cell_documents import build_scenario, scenario_for
    from praetor_analysis.views.pair_documents import pair_scenario, shot_scenario
    from praetor_analysis.views.report.hh3_default import hh3_report_main, report_edition
    from praetor_analysis.views.report.matchup import write_matchup_report
    from praetor_analysis.views.report.page import report_main
    from praetor_analysis.views.text.calc_text import summary_lines
    from praetor_analysis.views.text.done_lines import sweep_line, written_line
    from praetor_analysis.views.text.files import check_table_path, table_bytes, write_table
    from praetor_analysis.views.text.fit import fit_table, terminal_width, wrap
    from praetor_analysis.views.text.import_text import hh3_import_lines, import_lines
    from praetor_analysis.views.text.json_out import json_rows, listing_json
    from praetor_analysis.views.text.matchup_text import matchup_units, pair_table, plan_lines
    from praetor_analysis.views.text.notes_text import note_lines
    from praetor_analysis.views.text.progress import Progress
    from praetor_analysis.views.text.reading_notes import print_notes, print_roster_notes
    from praetor_analysis.views.text.roster_text import SORTS, roster_long, roster_screen
    from praetor_analysis.views.text.wargear_text import wargear_screen, wargear_title
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
