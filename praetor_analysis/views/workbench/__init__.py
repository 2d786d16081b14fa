"""The workbench tab: units side by side against several targets, and its offline page.

The face of ``views/workbench/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "Workbench": "praetor_analysis.views.workbench.tab",
}

__all__ = [
    "Workbench",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.views.workbench.tab import Workbench
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
