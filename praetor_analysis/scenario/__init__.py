"""The JSON contract of ``praetor calc``: documents in, results out.

The face of ``scenario/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "calc_frame": "praetor_analysis.scenario.frame",
    "calc_json": "praetor_analysis.scenario.calc",
    "calc_many": "praetor_analysis.scenario.calc",
    "edition_of": "praetor_analysis.scenario.hh3",
    "run": "praetor_analysis.scenario.calc",
    "target_of_block": "praetor_analysis.scenario.document",
}

__all__ = [
    "calc_frame",
    "calc_json",
    "calc_many",
    "edition_of",
    "run",
    "target_of_block",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.scenario.calc import calc_json, calc_many, run
    from praetor_analysis.scenario.document import target_of_block
    from praetor_analysis.scenario.frame import calc_frame
    from praetor_analysis.scenario.hh3 import edition_of
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
