"""The edition 3 door: a document parsed into typed records and resolved through the stage it needs
(:func:`praetor_analysis.units.hh3_stages.resolve_stages`, the code path a fielded unit's attack takes too; a whole
round through :mod:`praetor_analysis.scenario.hh3_round`), its result written back with ``to_dict()``
(docs/rules-hh3.md). :func:`calc_hh3_stages` and :func:`check_hh3_stages` are what ``praetor calc`` calls for an
``"edition": "hh3"`` document.

- a target with ``Front Armour``/``HP`` (a Knight's ``Front``/``Rear``): the vehicle stage (its volleys in order);
- a ``Blast``, ``Barrage`` or ``Template`` weapon without ``hits`` (in any volley): the markers stage, over the target's
  ``formation`` (default: the 2nd edition's default formation of its models) with ``aim``, ``indirect``,
  ``edges`` as in edition 2;
- ``target_weapon``: a whole round of combat, both sides striking in Initiative order, and its resolution.

The options of these stages (``apt_natural_one_fails``, ``critical_vs_vehicle``) go in ``options``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.errors import ScenarioError, show_value
from praetor_analysis.scenario.formation import parse_marker_setup
from praetor_analysis.scenario.hh3 import Hh3Scenario, parse_hh3
from praetor_analysis.scenario.hh3_round import calc_round
from praetor_analysis.units import (
    MARKER_FIELDS,
    MarkerFields,
    Stage,
    VehicleOptions,
    as_scenario_error,
    marker_plans,
    names_marker,
    resolve_stages,
    stage_means,
    vehicle_volleys,
)
from praetor_analysis.vehicles import Hh3VehicleTarget, is_vehicle_block, read_vehicle

__all__ = ["MARKER_FIELDS", "STAGE_OPTIONS", "calc_hh3_stages", "check_hh3_stages", "hh3_mean"]

STAGE_OPTIONS = {"apt_natural_one_fails": (True, False), "critical_vs_vehicle": ("damage", "wasted")}


def _split(data: Mapping[str, Any]) -> tuple[dict[str, Any], VehicleOptions, dict[str, Any]]:
    """(the document without this module's fields, the stage options, those fields)."""
    rest = {k: v for k, v in data.items() if k not in (*MARKER_FIELDS, "target_weapon")}
    mine = {k: data[k] for k in (*MARKER_FIELDS, "target_weapon") if k in data}
    given = data.get("options")
    stage: dict[str, Any] = {}
    if isinstance(given, Mapping):
        for key in STAGE_OPTIONS:
            if key in given:
                value = given[key]
                kinds_match = isinstance(value, bool) == isinstance(STAGE_OPTIONS[key][0], bool)
                if value not in STAGE_OPTIONS[key] or not kinds_match:
                    allowed = ", ".join(str(v).lower() for v in STAGE_OPTIONS[key])
                    raise ScenarioError(
                        f"options.{key}: expected one of {allowed}, got {show_value(value)}",
                        field=f"options.{key}",
                        value=value,
                    )
                stage[key] = value
        left = {k: v for k, v in given.items() if k not in STAGE_OPTIONS}
        if left:
            rest["options"] = left
        else:
            rest.pop("options", None)
    return rest, VehicleOptions(**stage), mine


def marker_fields(mine: Mapping[str, Any]) -> MarkerFields:
    """The marker fields of a document (``formation`` read when a volley lays a marker)."""
    return MarkerFields(
        tuple(k for k in MARKER_FIELDS if k in mine),
        mine.get("indirect", False),
        (lambda unit: parse_marker_setup(mine, unit)) if "formation" in mine else None,
    )


def _parse_vehicle(data: Mapping[str, Any]) -> tuple[Hh3VehicleTarget, Hh3Scenario, VehicleOptions, MarkerFields]:
    """A document whose target is a vehicle: the vehicle, its volleys in order (the engine's parser reads them
    beside a stand-in target: a volley does not depend on its target), the options and the marker fields."""
    rest, options, mine = _split(data)
    if "target_weapon" in mine:
        raise ScenarioError("target_weapon: a vehicle never strikes back in melee", field="target_weapon")
    vehicle = read_vehicle(data["target"])
    scenario = parse_hh3({**rest, "target": {"name": "vehicle", "Type": "Vehicle", "T": 1, "W": 1}})
    return vehicle, scenario, options, marker_fields(mine)


def _stage(data: Any) -> str | None:
    """Which stage a document needs: ``vehicle``, ``round``, ``marker`` or None (the engine's door)."""
    if not isinstance(data, Mapping):
        return None
    if is_vehicle_block(data.get("target")):
        return "vehicle"
    if "target_weapon" in data:
        return "round"
    if any(k in data for k in MARKER_FIELDS):
        return "marker"
    volleys = [data]
    units = data.get("firing_units")
    if isinstance(units, list):
        volleys = [v for unit in units if isinstance(unit, list) for v in unit if isinstance(v, Mapping)]
    for volley in volleys:
        weapon = volley.get("weapon")
        text = (
            " ".join(str(weapon.get(k, "")) for k in ("Special Rules", "Traits", "R"))
            if isinstance(weapon, Mapping)
            else ""
        )
        if isinstance(weapon, Mapping) and volley.get("hits") is None and names_marker(text):
            return "marker"
    return None


def _marker_stage(data: Mapping[str, Any]) -> tuple[Hh3Scenario, MarkerFields]:
    """A document with marker volleys at a unit, parsed (its fields checked)."""
    rest, _, mine = _split(data)
    for key in mine:
        if key not in MARKER_FIELDS:
            raise ScenarioError(f"{key}: not with a marker volley", field=key)
    return parse_hh3(rest), marker_fields(mine)


def calc_hh3_stages(data: Any) -> dict[str, Any]:
    """The result mapping of an edition 3 document, through the stage it needs."""
    with as_scenario_error():
        stage = _stage(data)
        if stage == "vehicle":
            vehicle, scenario, options, fields = _parse_vehicle(data)
            return resolve_stages(vehicle, scenario.firing_units, Stage.VEHICLE, mine=fields, options=options).to_dict()
        if not isinstance(data, Mapping):
            parse_hh3(data)  # refuses it
        if stage == "round":
            rest, _, mine = _split(data)
            result = calc_round(rest, mine, check_only=False) or {}
        elif stage == "marker":
            scenario, fields = _marker_stage(data)
            result = resolve_stages(scenario.target, scenario.firing_units, Stage.MARKERS, mine=fields).to_dict()
        else:
            scenario = parse_hh3(_split(data)[0])
            result = resolve_stages(scenario.target, scenario.firing_units, Stage.ENGINE).to_dict()
        given = data.get("options")
        for key in STAGE_OPTIONS:
            if isinstance(given, Mapping) and key in given:
                result.setdefault("no_effect", []).append(f"options.{key}")
                result.setdefault("reasons", {})[f"options.{key}"] = "a vehicle option; the target is not a vehicle"
        return result


def hh3_mean(data: Mapping[str, Any]) -> tuple[float, float]:
    """The means of what :func:`calc_hh3_stages` would remove with ``data``: (``hull_points``, 0) at a vehicle,
    (``casualties``, ``damage``) otherwise, through the same parse and typed stages
    (:func:`~praetor_analysis.units.hh3_stages.stage_means`) and the same refusals, without the result mapping.

    Raises:
        ScenarioError: the refusal :func:`calc_hh3_stages` would raise, in its words.
    """
    with as_scenario_error():
        stage = _stage(data)
        if stage == "vehicle":
            vehicle, scenario, options, fields = _parse_vehicle(data)
            return stage_means(vehicle, scenario.firing_units, Stage.VEHICLE, mine=fields, options=options)
        if stage is not None:
            result = calc_hh3_stages(data)
            return float(result["casualties"]["mean"]), float(result["damage"]["mean"])
        scenario = parse_hh3(_split(data)[0])
        return stage_means(scenario.target, scenario.firing_units, Stage.ENGINE)


def check_hh3_stages(data: Any) -> None:
    """Parse an edition 3 document as :func:`calc_hh3_stages` would, without computing (bad input raises)."""
    with as_scenario_error():
        stage = _stage(data)
        if stage == "vehicle":
            vehicle, scenario, _, fields = _parse_vehicle(data)
            vehicle_volleys(vehicle, scenario.firing_units, fields)
            return
        if stage is None:
            rest = _split(data)[0] if isinstance(data, Mapping) else data
            parse_hh3(rest)
            return
        if stage == "round":
            rest, _, mine = _split(data)
            calc_round(rest, mine, check_only=True)
        else:
            scenario, fields = _marker_stage(data)
            marker_plans(scenario.target, scenario.firing_units, fields)
