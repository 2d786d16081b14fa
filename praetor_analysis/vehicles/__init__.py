"""Armour penetration, hull points and the vehicle damage table.

The face of ``vehicles/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "DieOutcomes": "praetor_analysis.vehicles.hh3.dice",
    "HH3Vehicle": "praetor_analysis.vehicles.hh3.chain",
    "HH3VehicleResult": "praetor_analysis.vehicles.hh3.chain",
    "Hh3VehicleTarget": "praetor_analysis.vehicles.hh3.target",
    "hull_points_many": "praetor_analysis.vehicles.sweep",
    "HullPointsOnly": "praetor_analysis.vehicles.sweep",
    "is_vehicle_block": "praetor_analysis.vehicles.hh3.target",
    "PenetratingAttack": "praetor_analysis.vehicles.hh3.chain",
    "read_vehicle": "praetor_analysis.vehicles.hh3.target",
    "vehicle_of_profile": "praetor_analysis.vehicles.hh3.target",
    "resolve_vehicle_scenario": "praetor_analysis.vehicles.attack",
    "resolve_vehicle_sequence_hh3": "praetor_analysis.vehicles.hh3.sequence",
    "STATUSES": "praetor_analysis.vehicles.hh3.chain",
    "VehicleAttackResult": "praetor_analysis.vehicles.attack",
    "VehicleShot": "praetor_analysis.vehicles.hh3.sequence",
}

__all__ = [
    "STATUSES",
    "DieOutcomes",
    "HH3Vehicle",
    "HH3VehicleResult",
    "Hh3VehicleTarget",
    "HullPointsOnly",
    "PenetratingAttack",
    "VehicleAttackResult",
    "VehicleShot",
    "hull_points_many",
    "is_vehicle_block",
    "read_vehicle",
    "resolve_vehicle_scenario",
    "resolve_vehicle_sequence_hh3",
    "vehicle_of_profile",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.vehicles.attack import VehicleAttackResult, resolve_vehicle_scenario
    from praetor_analysis.vehicles.hh3.chain import STATUSES, HH3Vehicle, HH3VehicleResult, PenetratingAttack
    from praetor_analysis.vehicles.hh3.dice import DieOutcomes
    from praetor_analysis.vehicles.hh3.sequence import VehicleShot, resolve_vehicle_sequence_hh3
    from praetor_analysis.vehicles.hh3.target import (
        Hh3VehicleTarget,
        is_vehicle_block,
        read_vehicle,
        vehicle_of_profile,
    )
    from praetor_analysis.vehicles.sweep import HullPointsOnly, hull_points_many
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
