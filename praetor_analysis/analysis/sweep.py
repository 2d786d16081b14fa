"""The sweep path: casualties (hull points for a Vehicle), P(pinned) and the rules not modelled of many
single-volley cells, computed together.

Units go through the engine's batch (``engine.batch.resolve_many``: equal to ``chain.resolve`` cell by cell);
vehicles through ``vehicles.sweep.hull_points_only``. A cell whose result needs the full ``calc`` (a vehicle
hit that does more than remove hull points) comes back as None. Tests check the path against ``calc`` on the
whole shipped catalog (tests/test_quick.py, tests/test_batch.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from praetor_analysis.engine import Casualties, TooLarge, Volley, VolleyResult, resolve_many
from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError
from praetor_analysis.profiles import Unit
from praetor_analysis.units import Measure, ShootingResult
from praetor_analysis.vehicles import HullPointsOnly, hull_points_many

__all__ = ["CellResult", "sweep", "sweep_one"]


@dataclass(frozen=True, eq=False)
class CellResult:
    """What a comparison reads of one cell (a volley at a target).

    Attributes:
        measure: what ``pmf`` counts: models removed, or hull points off a Vehicle.
        pmf: the distribution of the measure (index: models or hull points).
        pinned: P(the target is Pinned); None when it cannot be (a Vehicle, an exempt unit).
        wrecked: P(wrecked) of a Vehicle; None for a unit.
        not_modelled: the rules the engine did not model.
    """

    measure: Measure
    pmf: np.ndarray
    pinned: float | None
    wrecked: float | None
    not_modelled: tuple[str, ...]

    @classmethod
    def of(cls, result: ShootingResult) -> CellResult:
        """The cell of a volley's full result (:func:`~praetor_analysis.units.resolve_shooting`)."""
        engine = result.engine
        if isinstance(engine, VolleyResult):
            return cls(Measure.MODELS, engine.casualties.probabilities, engine.pinned, None, result.not_modelled)
        return cls(Measure.HULL_POINTS, engine.hull_points.probabilities, None, engine.wrecked, result.not_modelled)


def sweep(cells: Sequence[tuple[Volley, Unit]]) -> list[CellResult | ScenarioError | None]:
    """For each (volley, target): its :class:`CellResult`, the ScenarioError ``calc`` would raise, or None
    when the full ``calc`` is needed."""
    out: list[CellResult | ScenarioError | None] = [None] * len(cells)
    units = [i for i, (_, t) in enumerate(cells) if not t.is_vehicle]
    for i, result in zip(units, resolve_many([cells[i] for i in units], casualties_only=True), strict=True):
        out[i] = _summary(result)
    vehicles = [i for i, (_, t) in enumerate(cells) if t.is_vehicle]
    for i, found in zip(vehicles, hull_points_many([cells[i] for i in vehicles]), strict=True):
        out[i] = ScenarioError(str(found)) if isinstance(found, PraetorError) else _hull_summary(found)
    return out


def sweep_one(volley: Volley, target: Unit) -> CellResult | None:
    """``sweep`` of one cell (raises its ScenarioError)."""
    result = sweep([(volley, target)])[0]
    if isinstance(result, ScenarioError):
        raise result
    return result


def _hull_summary(found: HullPointsOnly | None) -> CellResult | None:
    if found is None:
        return None
    return CellResult(Measure.HULL_POINTS, found.hull_points, None, found.wrecked, tuple(found.not_modelled))


def _summary(result: Casualties | VolleyResult | ProfileError | TooLarge) -> CellResult | ScenarioError:
    if not isinstance(result, Casualties):
        return ScenarioError(str(result))
    return CellResult(Measure.MODELS, result.casualties, result.pinned, None, tuple(result.not_modelled))
