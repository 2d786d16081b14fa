"""Offline HTML reports: the standalone report, the matchup report, their tables and interactive block.

The face of ``views/report/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "Assumptions": "praetor_analysis.views.report.page",
    "build_report": "praetor_analysis.views.report.page",
    "DEFAULT_CHROMIUM": "praetor_analysis.views.report.page",
    "default_report": "praetor_analysis.views.report.page",
    "DEFAULT_WEAPONS": "praetor_analysis.views.report.page",
    "figure_to_png": "praetor_analysis.views.report.page",
    "hh3_report_main": "praetor_analysis.views.report.hh3_default",
    "iconic_report": "praetor_analysis.views.report.page",
    "PngExportUnavailable": "praetor_analysis.views.report.page",
    "Report": "praetor_analysis.views.report.page",
    "report_edition": "praetor_analysis.views.report.hh3_default",
    "report_main": "praetor_analysis.views.report.page",
    "select_targets": "praetor_analysis.views.report.page",
    "select_weapons": "praetor_analysis.views.report.page",
    "table_html": "praetor_analysis.views.report.page",
    "to_csv": "praetor_analysis.views.report.page",
    "to_html": "praetor_analysis.views.report.page",
    "write_html": "praetor_analysis.views.report.page",
}

__all__ = [
    "DEFAULT_CHROMIUM",
    "DEFAULT_WEAPONS",
    "Assumptions",
    "PngExportUnavailable",
    "Report",
    "build_report",
    "default_report",
    "figure_to_png",
    "hh3_report_main",
    "iconic_report",
    "report_edition",
    "report_main",
    "select_targets",
    "select_weapons",
    "table_html",
    "to_csv",
    "to_html",
    "write_html",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.views.report.hh3_default import hh3_report_main, report_edition
    from praetor_analysis.views.report.page import (
        DEFAULT_CHROMIUM,
        DEFAULT_WEAPONS,
        Assumptions,
        PngExportUnavailable,
        Report,
        build_report,
        default_report,
        figure_to_png,
        iconic_report,
        report_main,
        select_targets,
        select_weapons,
        table_html,
        to_csv,
        to_html,
        write_html,
    )
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
