"""The command's text: tables that fit the terminal, first screens, and the tables as CSV or Parquet files.

A lazy face (PEP 562): importing it loads none of its modules; a name loads its module when first used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "fit_table": "fit",
    "terminal_width": "fit",
    "wrap": "fit",
    "check_table_path": "files",
    "write_table": "files",
    "table_bytes": "files",
    "SORTS": "roster_text",
    "roster_long": "roster_text",
    "roster_screen": "roster_text",
    "wargear_screen": "wargear_text",
    "matchup_units": "matchup_text",
    "pair_table": "matchup_text",
    "plan_lines": "matchup_text",
    "Progress": "progress",
    "summary_lines": "calc_text",
}

__all__ = [
    "SORTS",
    "Progress",
    "check_table_path",
    "fit_table",
    "matchup_units",
    "pair_table",
    "plan_lines",
    "roster_long",
    "roster_screen",
    "summary_lines",
    "table_bytes",
    "terminal_width",
    "wargear_screen",
    "wrap",
    "write_table",
]

if TYPE_CHECKING:
    from praetor_analysis.views.text.calc_text import summary_lines
    from praetor_analysis.views.text.files import check_table_path, table_bytes, write_table
    from praetor_analysis.views.text.fit import fit_table, terminal_width, wrap
    from praetor_analysis.views.text.matchup_text import matchup_units, pair_table, plan_lines
    from praetor_analysis.views.text.progress import Progress
    from praetor_analysis.views.text.roster_text import SORTS, roster_long, roster_screen
    from praetor_analysis.views.text.wargear_text import wargear_screen


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
