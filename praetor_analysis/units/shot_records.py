"""Volleys against one target, as records, and their typed result: what ``praetor calc`` computes for a shooting
(or single melee) scenario once its document is read, with no document in between.

:class:`Shooting` holds the firing units' volleys (or one marker volley on a formation); :func:`resolve_shooting`
lays each marker volley (over the given formation, else the target's default one), resolves them (a vehicle's
hull points, a unit's casualties) and returns a :class:`ShootingResult` whose :meth:`~ShootingResult.to_dict` is
the result of ``calc`` without the echo of its units (the door adds it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from praetor_analysis.engine import Volley, VolleyResult, resolve, resolve_sequence
from praetor_analysis.errors import as_scenario_error
from praetor_analysis.profiles import Unit
from praetor_analysis.units.formation import MarkerSetup, default_note
from praetor_analysis.units.marker_volley import marker_hits, placed
from praetor_analysis.vehicles import VehicleAttackResult, resolve_vehicle_scenario

__all__ = ["Shooting", "ShootingResult", "resolve_shooting"]

_NOT_MODELLED = "not modelled: "


@dataclass(frozen=True)
class Shooting:
    """Volleys against one target: firing units of volleys, or one marker volley on a formation.

    Attributes:
        target: the target unit.
        firing_units: each firing unit's volleys, in order (Pinning is tested once per firing unit).
        marker: the formation and aim when the single volley's hits come from marker geometry.
    """

    target: Unit
    firing_units: tuple[tuple[Volley, ...], ...]
    marker: MarkerSetup | None = None


@dataclass(frozen=True)
class ShootingResult:
    """What a :class:`Shooting` did: the engine's typed result (a unit's or a vehicle's), and the rule notes
    with those of the markers' layout added (``applied``: the engine's, then the layout's; ``not_modelled``
    likewise)."""

    engine: VolleyResult | VehicleAttackResult
    applied: tuple[str, ...]
    not_modelled: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        """The result as ``praetor calc`` gives it, but for the echo of the attacker and the target."""
        out = self.engine.to_dict()
        out["applied"], out["not_modelled"] = list(self.applied), list(self.not_modelled)
        return out


@as_scenario_error
def resolve_shooting(scenario: Shooting) -> ShootingResult:
    """Resolve the volleys of ``scenario`` at its target (a project error is raised as a ScenarioError)."""
    target, notes = scenario.target, list[str]()
    volleys: list[list[Volley]] = [list(u) for u in scenario.firing_units]
    if scenario.marker is not None:
        volley, notes = marker_hits(volleys[0][0], scenario.marker)
        volleys = [[volley]]
        if scenario.marker.echo is not None and scenario.marker.echo.get("default"):
            notes = [default_note(scenario.marker), *notes]
    else:  # firing units: each marker volley over the default formation (unless too large)
        laid = [[placed(v, target) for v in unit] for unit in volleys]
        volleys = [[v for v, _ in unit] for unit in laid]
        notes = list(dict.fromkeys(n for unit in laid for _, n in unit if n))
    typed: VolleyResult | VehicleAttackResult
    if target.is_vehicle:
        typed = resolve_vehicle_scenario(target, volleys)
    elif len(volleys) == 1 and len(volleys[0]) == 1:  # one volley: a batch of one, as in an array
        typed = resolve(volleys[0][0], target)
    else:
        typed = resolve_sequence(target, volleys)
    return ShootingResult(
        typed,
        (*typed.applied, *(n for n in notes if not n.startswith(_NOT_MODELLED))),
        (*typed.not_modelled, *(n.removeprefix(_NOT_MODELLED) for n in notes if n.startswith(_NOT_MODELLED))),
    )
