"""The sweep path: casualties (hull points for a Vehicle), P(pinned) and the rules not modelled of many
single-volley cells, computed together.

Units go through the engine's batch (``engine.batch.resolve_many``: equal to ``chain.resolve`` cell by cell);
vehicles through ``vehicles.sweep.hull_points_only``. A cell whose result needs the full ``calc`` (a vehicle
hit that does more than remove hull points) comes back as None. Tests check the path against ``calc`` on the
whole shipped catalog (tests/test_quick.py, tests/test_batch.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from praetor_analysis.engine import Casualties, TooLarge, Volley, VolleyResult, resolve_many
from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError
from praetor_analysis.profiles import Unit
from praetor_analysis.vehicles import HullPointsOnly, hull_points_many

__all__ = ["sweep", "sweep_one"]


def sweep(cells: Sequence[tuple[Volley, Unit]]) -> list[dict[str, Any] | ScenarioError | None]:
    """For each (volley, target): ``{"casualties" | "hull_points": {"pmf": array}, "pinned": p,
    "not_modelled": [...]}`` (plus ``wrecked`` for a Vehicle), the ScenarioError ``calc`` would raise, or None
    when the full ``calc`` is needed."""
    out: list[dict[str, Any] | ScenarioError | None] = [None] * len(cells)
    units = [i for i, (_, t) in enumerate(cells) if not t.is_vehicle]
    for i, result in zip(units, resolve_many([cells[i] for i in units], casualties_only=True), strict=True):
        out[i] = _summary(result)
    vehicles = [i for i, (_, t) in enumerate(cells) if t.is_vehicle]
    for i, found in zip(vehicles, hull_points_many([cells[i] for i in vehicles]), strict=True):
        out[i] = ScenarioError(str(found)) if isinstance(found, PraetorError) else _hull_summary(found)
    return out


def sweep_one(volley: Volley, target: Unit) -> dict[str, Any] | None:
    """``sweep`` of one cell (raises its ScenarioError)."""
    result = sweep([(volley, target)])[0]
    if isinstance(result, ScenarioError):
        raise result
    return result


def _hull_summary(found: HullPointsOnly | None) -> dict[str, Any] | None:
    if found is None:
        return None
    return {
        "hull_points": {"pmf": found.hull_points},
        "wrecked": found.wrecked,
        "pinned": None,
        "not_modelled": list(found.not_modelled),
    }


def _summary(result: Casualties | VolleyResult | ProfileError | TooLarge) -> dict[str, Any] | ScenarioError:
    if not isinstance(result, Casualties):
        return ScenarioError(str(result))
    return {
        "casualties": {"pmf": result.casualties},
        "pinned": result.pinned,
        "not_modelled": list(result.not_modelled),
    }
