"""Vehicles in the 3rd edition: facings, Armour Penetration Tests, Penetrating Hits as wounds, hull points and
the Vehicle Damage Table's statuses (docs/rules-hh3.md#vehicles)."""

from praetor_analysis.vehicles.hh3.chain import (
    DAMAGE_TABLE,
    STATUS_SETS,
    STATUSES,
    HH3Vehicle,
    HH3VehicleResult,
    PenetratingAttack,
    Status,
    VolleyJoint,
    apt_outcome,
    resolve_vehicle_hh3,
    save_passes,
    volley_joint,
)
from praetor_analysis.vehicles.hh3.dice import DieOutcome, DieOutcomes, HitClass
from praetor_analysis.vehicles.hh3.facing import FACINGS, Armour, Facing, HitSource
from praetor_analysis.vehicles.hh3.sequence import VehicleShot, resolve_vehicle_sequence_hh3

__all__ = [
    "DAMAGE_TABLE",
    "FACINGS",
    "STATUSES",
    "STATUS_SETS",
    "Armour",
    "DieOutcome",
    "DieOutcomes",
    "Facing",
    "HH3Vehicle",
    "HH3VehicleResult",
    "HitClass",
    "HitSource",
    "PenetratingAttack",
    "Status",
    "VehicleShot",
    "VolleyJoint",
    "apt_outcome",
    "resolve_vehicle_hh3",
    "resolve_vehicle_sequence_hh3",
    "save_passes",
    "volley_joint",
]
