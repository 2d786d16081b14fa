"""The workbench tab: units side by side against several targets, and its offline page.

The face of ``views/workbench/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

    def __getattr__(name: str) -> Any:
        if name not in _EXPORTS:
            raise AttributeError(f"module 'praetor_analysis.views.workbench' has no attribute {name!r}")
        value = getattr(importlib.import_module(_EXPORTS[name]), name)
        globals()[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
