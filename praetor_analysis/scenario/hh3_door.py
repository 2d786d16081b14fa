"""The edition 3 door's stages beyond one Fire Group at a unit: vehicles, markers and whole melee rounds
(docs/rules-hh3.md). :func:`calc_hh3_stages` and :func:`check_hh3_stages` are what ``praetor calc`` calls for an
``"edition": "hh3"`` document; a document that needs none of these stages goes to the engine's door
(:func:`praetor_analysis.scenario.hh3.calc_hh3`) unchanged.

- a target with ``Front Armour``/``HP`` (a Knight's ``Front``/``Rear``): the vehicle stage (its volleys in order);
- a ``Blast``, ``Barrage`` or ``Template`` weapon without ``hits`` (in any volley): the markers stage, over the target's
  ``formation`` (default: the 2nd edition's default formation of its models) with ``aim``, ``indirect``,
  ``edges`` as in edition 2;
- ``target_weapon``: a whole round of combat, both sides striking in Initiative order, and its resolution.

The options of these stages (``apt_natural_one_fails``, ``critical_vs_vehicle``) go in ``options``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from praetor_analysis.engine import Hh3Volley, RuleReport, removed_means
from praetor_analysis.errors import PraetorError, ScenarioError, show_value
from praetor_analysis.markers import Hull
from praetor_analysis.profiles import Unit
from praetor_analysis.scenario.hh3 import calc_hh3, parse_hh3
from praetor_analysis.scenario.hh3_markers import calc_marker_volley, marker_plan
from praetor_analysis.scenario.hh3_round import calc_round
from praetor_analysis.scenario.hh3_vehicle import VehicleOptions, VehicleVolley, resolve_vehicle_volleys, vehicle_dict
from praetor_analysis.vehicles import Hh3VehicleTarget, is_vehicle_block, read_vehicle

__all__ = ["MARKER_FIELDS", "STAGE_OPTIONS", "calc_hh3_stages", "check_hh3_stages", "hh3_mean"]

MARKER_FIELDS = ("formation", "aim", "indirect", "edges")
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


def _parse_vehicle_volleys(rest: Mapping[str, Any]) -> list[tuple[int, int, Hh3Volley]]:
    """The volleys, in order, of a document whose target is a vehicle (the engine's parser reads them beside a
    stand-in target: a volley does not depend on its target)."""
    scenario = parse_hh3({**rest, "target": {"name": "vehicle", "Type": "Vehicle", "T": 1, "W": 1}})
    return [(u, i, volley) for u, unit in enumerate(scenario.firing_units) for i, volley in enumerate(unit)]


def _vehicle_volley(volley: Hh3Volley, vehicle: Hh3VehicleTarget, mine: Mapping[str, Any]) -> VehicleVolley:
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


def _vehicle_volleys(
    data: Mapping[str, Any],
) -> tuple[list[tuple[int, int, VehicleVolley]], Hh3VehicleTarget, VehicleOptions, list[str]]:
    rest, options, mine = _split(data)
    if "target_weapon" in mine:
        raise ScenarioError("target_weapon: a vehicle never strikes back in melee", field="target_weapon")
    vehicle = read_vehicle(data["target"])
    volleys = [(u, i, _vehicle_volley(v, vehicle, mine)) for u, i, v in _parse_vehicle_volleys(rest)]
    placed = any(v.marker in ("blast", "barrage") for _, _, v in volleys)
    unused = [] if placed else [k for k in MARKER_FIELDS if k in mine]
    return volleys, vehicle, options, unused


def _vehicle(data: Mapping[str, Any]) -> dict[str, Any]:
    volleys, vehicle, options, unused = _vehicle_volleys(data)
    report = RuleReport()
    result, misfires = resolve_vehicle_volleys(volleys, vehicle, options, report)
    for key in unused:
        report.add("no_effect", key, "no volley places a marker")
    return vehicle_dict(result, vehicle, report, misfires)


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
        if isinstance(weapon, Mapping) and volley.get("hits") is None:
            text = " ".join(str(weapon.get(k, "")) for k in ("Special Rules", "Traits", "R"))
            if re.search(r"\b(blast|template)\b", text, flags=re.IGNORECASE):
                return "marker"
    return None


def calc_hh3_stages(data: Any) -> dict[str, Any]:
    """The result mapping of an edition 3 document, through the stage it needs."""
    try:
        stage = _stage(data)
        if stage == "vehicle":
            return _vehicle(data)
        if not isinstance(data, Mapping):
            return calc_hh3(data)
        rest, _, mine = _split(data)
        if stage == "round":
            result = calc_round(rest, mine, check_only=False) or {}
        elif stage == "marker":
            result = calc_marker_volley(rest, mine, check_only=False) or {}
        else:
            result = calc_hh3(rest)
        given = data.get("options")
        for key in STAGE_OPTIONS:
            if isinstance(given, Mapping) and key in given:
                result.setdefault("no_effect", []).append(f"options.{key}")
                result.setdefault("reasons", {})[f"options.{key}"] = "a vehicle option; the target is not a vehicle"
        return result
    except ScenarioError:
        raise
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None


def hh3_mean(data: Mapping[str, Any]) -> tuple[float, float]:
    """The means of what :func:`calc_hh3_stages` would remove with ``data``: (``hull_points``, 0) at a vehicle,
    (``casualties``, ``damage``) otherwise, through the same parse and engine calls and the same refusals, without
    the result mapping (its reports, statuses and pmfs): what a unit's weapon modes are scored by.

    Raises:
        ScenarioError: the refusal :func:`calc_hh3_stages` would raise, in its words.
    """
    try:
        stage = _stage(data)
        if stage == "vehicle":
            volleys, vehicle, options, _ = _vehicle_volleys(data)
            return resolve_vehicle_volleys(volleys, vehicle, options, RuleReport())[0].hull_points.mean(), 0.0
        if stage is not None:
            result = calc_hh3_stages(data)
            return float(result["casualties"]["mean"]), float(result["damage"]["mean"])
        scenario = parse_hh3(_split(data)[0])
        try:
            return removed_means(scenario.target, scenario.firing_units)
        except PraetorError as exc:
            raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None
    except ScenarioError:
        raise
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None


def check_hh3_stages(data: Any) -> None:
    """Parse an edition 3 document as :func:`calc_hh3_stages` would, without computing (bad input raises)."""
    try:
        stage = _stage(data)
        if stage == "vehicle":
            _vehicle_volleys(data)
            return
        if stage is None:
            rest = _split(data)[0] if isinstance(data, Mapping) else data
            parse_hh3(rest)
            return
        rest, _, mine = _split(data)
        if stage == "round":
            calc_round(rest, mine, check_only=True)
        else:
            calc_marker_volley(rest, mine, check_only=True)
    except ScenarioError:
        raise
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None
