"""The JSON contract of ``praetor calc``: documents in, results out.

The face of ``scenario/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "hh3_melee": "praetor_analysis.scenario.hh3_unit_round",
    "hh3_shooting": "praetor_analysis.scenario.hh3_unit_attack",
    "hh3_resolve": "praetor_analysis.scenario.hh3_unit_attack",
    "hh3_volleys": "praetor_analysis.scenario.hh3_unit_attack",
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
    "hh3_melee",
    "hh3_resolve",
    "hh3_shooting",
    "hh3_volleys",
    "run",
    "target_of_block",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.scenario.calc import calc_json, calc_many, run
    from praetor_analysis.scenario.document import target_of_block
    from praetor_analysis.scenario.frame import calc_frame
    from praetor_analysis.scenario.hh3 import edition_of
    from praetor_analysis.scenario.hh3_unit_attack import hh3_resolve, hh3_shooting, hh3_volleys
    from praetor_analysis.scenario.hh3_unit_round import hh3_melee
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
