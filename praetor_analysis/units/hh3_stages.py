"""The edition 3 stages, typed: volleys at a unit or a vehicle resolved through the stage they need
(docs/rules-hh3.md). What ``praetor calc`` computes for an ``"edition": "hh3"`` document once its door has parsed it
(:mod:`praetor_analysis.scenario.hh3_door`), and what a fielded unit's attack calls with the records it builds
(:mod:`praetor_analysis.units.hh3_attack`): one code path for the numbers.

- a vehicle target (:class:`~praetor_analysis.vehicles.Hh3VehicleTarget`): the vehicle stage, its volleys in order
  (a marker's hits on its hull, a template's FP hits);
- ``markers``: volleys with Blast or Template weapons at a unit, over the target's formation
  (:mod:`praetor_analysis.units.hh3_markers`);
- otherwise the engine's Fire Groups (:func:`~praetor_analysis.engine.resolve_hh3`).

Every stage refuses bad input with a :class:`~praetor_analysis.errors.ScenarioError` in the door's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import Enum
from typing import Any

from praetor_analysis.engine import Hh3Result, Hh3Volley, RuleReport, removed_means, resolve_hh3
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.markers import Hull
from praetor_analysis.profiles import Hh3Unit, Unit
from praetor_analysis.units.hh3_markers import (
    NO_FIELDS,
    MarkerFields,
    MarkerStage,
    marker_means,
    marker_plan,
    marker_plans,
    resolve_marker_volleys,
)
from praetor_analysis.units.hh3_vehicle import VehicleOptions, VehicleStage, VehicleVolley, resolve_vehicle_volleys
from praetor_analysis.vehicles import Hh3VehicleTarget

__all__ = [
    "MARKER_FIELDS",
    "EngineStage",
    "Stage",
    "as_scenario_error",
    "names_marker",
    "resolve_stages",
    "stage_means",
    "vehicle_volleys",
]

MARKER_FIELDS = ("formation", "aim", "indirect", "edges")
"""The fields of a scenario that place markers."""
_MARKER_WORDS = re.compile(r"\b(blast|template)\b", flags=re.IGNORECASE)


class Stage(Enum):
    """The stage volleys need: the engine's Fire Groups, markers at a unit, or a vehicle."""

    ENGINE = "engine"
    MARKERS = "markers"
    VEHICLE = "vehicle"


def names_marker(text: str) -> bool:
    """Whether a weapon's rules, traits and range (``text``) name Blast or Template: its volley needs the markers
    stage unless its hits are given."""
    return _MARKER_WORDS.search(text) is not None


@contextmanager
def as_scenario_error() -> Iterator[None]:
    """A profile's or the engine's refusal raised as the door's :class:`ScenarioError` (same words, field, value)."""
    try:
        yield
    except ScenarioError:
        raise
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None


@dataclass(frozen=True)
class EngineStage:
    """The engine's result of volleys at a unit, with the phase and the target (:meth:`to_dict` is the door's
    result)."""

    result: Hh3Result
    target: Hh3Unit
    phase: str

    def to_dict(self) -> dict[str, Any]:
        """The result mapping (the edition 3 keys of docs/scenario.md)."""
        out: dict[str, Any] = dict(self.result.to_dict())
        out["phase"] = self.phase
        out["target"] = {"name": self.target.name, "models": self.target.models}
        return out


DEFAULT_OPTIONS = VehicleOptions()
"""The vehicle options by default."""
StageResult = EngineStage | MarkerStage | VehicleStage
"""What :func:`resolve_stages` returns, by stage."""
Units = Sequence[Sequence[Hh3Volley]]


def _vehicle_volley(volley: Hh3Volley, vehicle: Hh3VehicleTarget, mine: MarkerFields) -> VehicleVolley:
    if volley.context.hits is not None:
        return VehicleVolley(volley)
    if volley.weapon.rule("Template") is not None:
        return VehicleVolley(volley, "template")
    plan = marker_plan(volley.weapon, Unit(name=vehicle.name, unit_type="Vehicle", models=1), mine)
    if plan is None:
        return VehicleVolley(volley)
    shape = plan.setup.shape
    assert isinstance(shape, Hull)
    return VehicleVolley(volley, plan.kind, plan.diameter, plan.dice, shape, plan.kind == "barrage", plan.setup.edges)


def vehicle_volleys(
    vehicle: Hh3VehicleTarget, firing_units: Units, mine: MarkerFields = NO_FIELDS
) -> list[tuple[int, int, VehicleVolley]]:
    """The volleys (firing unit, index, volley) at a vehicle, each with its markers laid on the hull."""
    return [
        (u, i, _vehicle_volley(v, vehicle, mine)) for u, unit in enumerate(firing_units) for i, v in enumerate(unit)
    ]


def _vehicle(
    vehicle: Hh3VehicleTarget, volleys: list[tuple[int, int, VehicleVolley]], options: VehicleOptions,
    mine: MarkerFields,
) -> VehicleStage:  # fmt: skip
    placed = any(v.marker in ("blast", "barrage") for _, _, v in volleys)
    report = RuleReport()
    result, misfires = resolve_vehicle_volleys(volleys, vehicle, options, report)
    for key in () if placed else [k for k in MARKER_FIELDS if k in mine.given]:
        report.add("no_effect", key, "no volley places a marker")
    return VehicleStage(result, vehicle, report, tuple(misfires))


def resolve_stages(
    target: Hh3Unit | Hh3VehicleTarget,
    firing_units: Units,
    stage: Stage,
    *,
    mine: MarkerFields = NO_FIELDS,
    options: VehicleOptions = DEFAULT_OPTIONS,
) -> StageResult:
    """The exact outcome of ``firing_units`` (each a firing unit's volleys, in order) at ``target`` through
    ``stage`` (a vehicle target: the vehicle stage); ``mine`` the marker fields, ``options`` the vehicle options.

    Raises:
        ScenarioError: the door's refusal, in its words.
    """
    with as_scenario_error():
        if isinstance(target, Hh3VehicleTarget):
            return _vehicle(target, vehicle_volleys(target, firing_units, mine), options, mine)
        units = tuple(tuple(u) for u in firing_units)
        if stage is Stage.MARKERS:
            return resolve_marker_volleys(target, units, marker_plans(target, units, mine))
        melee = all(v.context.melee for unit in units for v in unit)
        return EngineStage(resolve_hh3(target, units), target, "melee" if melee else "shooting")


def stage_means(
    target: Hh3Unit | Hh3VehicleTarget,
    firing_units: Units,
    stage: Stage,
    *,
    mine: MarkerFields = NO_FIELDS,
    options: VehicleOptions = DEFAULT_OPTIONS,
) -> tuple[float, float]:
    """The means of what :func:`resolve_stages` removes: (hull points, 0) at a vehicle, (casualties, damage)
    at a unit, through the same engine calls and refusals without its reports, statuses and counts where the
    stage can leave them out (what a unit's weapon modes are scored by).

    Raises:
        ScenarioError: the refusal :func:`resolve_stages` would raise, in its words.
    """
    with as_scenario_error():
        if isinstance(target, Hh3VehicleTarget):
            volleys = vehicle_volleys(target, firing_units, mine)
            return resolve_vehicle_volleys(volleys, target, options, None)[0].hull_points.mean(), 0.0
        if stage is Stage.MARKERS:
            units = tuple(tuple(u) for u in firing_units)
            return marker_means(target, units, marker_plans(target, units, mine))
        return removed_means(target, firing_units)
