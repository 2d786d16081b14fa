"""Figures, the dashboard and HTML reports: the only code that imports plotly or ipywidgets.

The face of ``views/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

    def __getattr__(name: str) -> Any:
        if name not in _EXPORTS:
            raise AttributeError(f"module 'praetor_analysis.views' has no attribute {name!r}")
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
