"""Armour penetration, hull points and the vehicle damage table.

The face of ``vehicles/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "hull_points_many": "praetor_analysis.vehicles.sweep",
    "HullPointsOnly": "praetor_analysis.vehicles.sweep",
    "resolve_vehicle_scenario": "praetor_analysis.vehicles.attack",
    "VehicleAttackResult": "praetor_analysis.vehicles.attack",
}

__all__ = [
    "HullPointsOnly",
    "VehicleAttackResult",
    "hull_points_many",
    "resolve_vehicle_scenario",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.vehicles.attack import VehicleAttackResult, resolve_vehicle_scenario
    from praetor_analysis.vehicles.sweep import HullPointsOnly, hull_points_many
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
