"""Figures, the dashboard and HTML reports: the only code that imports plotly or ipywidgets.

The face of ``views/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "report_main": "praetor_analysis.views.report.page",
    "write_matchup_report": "praetor_analysis.views.report.matchup",
}

__all__ = [
    "report_main",
    "write_matchup_report",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.views.report.matchup import write_matchup_report
    from praetor_analysis.views.report.page import report_main
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
