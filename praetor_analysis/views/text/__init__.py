"""The command's text: tables that fit the terminal, first screens, progress, and tables as CSV or Parquet files.

The face of ``views/text/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "check_table_path": "praetor_analysis.views.text.files",
    "file_size": "praetor_analysis.views.text.done_lines",
    "sweep_line": "praetor_analysis.views.text.done_lines",
    "written_line": "praetor_analysis.views.text.done_lines",
    "fit_table": "praetor_analysis.views.text.fit",
    "hh3_import_lines": "praetor_analysis.views.text.import_text",
    "import_lines": "praetor_analysis.views.text.import_text",
    "matchup_units": "praetor_analysis.views.text.matchup_text",
    "note_lines": "praetor_analysis.views.text.notes_text",
    "pair_table": "praetor_analysis.views.text.matchup_text",
    "plan_lines": "praetor_analysis.views.text.matchup_text",
    "Progress": "praetor_analysis.views.text.progress",
    "roster_long": "praetor_analysis.views.text.roster_text",
    "roster_screen": "praetor_analysis.views.text.roster_text",
    "SORTS": "praetor_analysis.views.text.roster_text",
    "summary_lines": "praetor_analysis.views.text.calc_text",
    "table_bytes": "praetor_analysis.views.text.files",
    "terminal_width": "praetor_analysis.views.text.fit",
    "wargear_screen": "praetor_analysis.views.text.wargear_text",
    "wargear_title": "praetor_analysis.views.text.wargear_text",
    "wrap": "praetor_analysis.views.text.fit",
    "write_table": "praetor_analysis.views.text.files",
    "json_rows": "praetor_analysis.views.text.json_out",
    "list_json_rows": "praetor_analysis.views.text.json_out",
    "listing_json": "praetor_analysis.views.text.json_out",
    "print_notes": "praetor_analysis.views.text.reading_notes",
    "print_roster_notes": "praetor_analysis.views.text.reading_notes",
}

__all__ = [
    "SORTS",
    "Progress",
    "check_table_path",
    "file_size",
    "fit_table",
    "hh3_import_lines",
    "import_lines",
    "json_rows",
    "list_json_rows",
    "listing_json",
    "matchup_units",
    "note_lines",
    "pair_table",
    "plan_lines",
    "print_notes",
    "print_roster_notes",
    "roster_long",
    "roster_screen",
    "summary_lines",
    "sweep_line",
    "table_bytes",
    "terminal_width",
    "wargear_screen",
    "wargear_title",
    "wrap",
    "write_table",
    "written_line",
]

if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.views.text.calc_text import summary_lines
    from praetor_analysis.views.text.done_lines import file_size, sweep_line, written_line
    from praetor_analysis.views.text.files import check_table_path, table_bytes, write_table
    from praetor_analysis.views.text.fit import fit_table, terminal_width, wrap
    from praetor_analysis.views.text.import_text import hh3_import_lines, import_lines
    from praetor_analysis.views.text.json_out import json_rows, list_json_rows, listing_json
    from praetor_analysis.views.text.matchup_text import matchup_units, pair_table, plan_lines
    from praetor_analysis.views.text.notes_text import note_lines
    from praetor_analysis.views.text.progress import Progress
    from praetor_analysis.views.text.reading_notes import print_notes, print_roster_notes
    from praetor_analysis.views.text.roster_text import SORTS, roster_long, roster_screen
    from praetor_analysis.views.text.wargear_text import wargear_screen, wargear_title
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
