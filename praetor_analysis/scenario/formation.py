"""The marker block of a scenario: ``formation``, ``aim``, ``indirect`` and ``edges`` -> typed records.

A grid ``{"models", "base_mm", "gap", "columns"}``, explicit ``{"positions": [[x, y], ...], "base_mm"}``, a
``{"preset": name}`` from ``markers.formation.PRESETS``, or a vehicle's ``{"hull": [length, width]}``; plus
``firer_distance`` (inches from the formation's nearest base to the firer, for templates; default 1).
Every number is a finite JSON number (booleans refused) within the bounds below; a field that would be
ignored in its combination is refused. A preset must fit the target: a hull preset a Vehicle, a grid preset
a unit of as many models.

Without a ``formation`` (and without ``hits``), a marker or template weapon fired at a unit that is not a
Vehicle is resolved over :func:`praetor_analysis.units.formation.default_formation`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from praetor_analysis.errors import ScenarioError, counted_noun, show_value
from praetor_analysis.markers import DEFAULT_COLUMNS, MM_PER_INCH, PRESETS, Edges, Formation, Hull
from praetor_analysis.profiles import Unit, parse_number
from praetor_analysis.units import MarkerSetup

FORMATION_FIELDS = {"models", "base_mm", "gap", "columns", "positions", "hull", "firer_distance", "preset"}
_GRID_FIELDS = {"models", "base_mm", "gap", "columns"}
#: Largest coordinate, edge, hull side or firer distance accepted, inches (a table is 72" x 48").
MAX_INCHES = 1000.0


def _only(data: Mapping[str, Any], kind: str, allowed: set[str]) -> None:
    extra = sorted(set(data) - allowed - {"firer_distance"})
    if extra:
        raise ScenarioError(f"formation.{extra[0]}: not used with formation.{kind}", field=f"formation.{extra[0]}")


def parse_formation(data: Any, target: Unit) -> Formation | Hull:
    """The target's formation from the scenario's ``formation`` object."""
    if not isinstance(data, Mapping):
        raise ScenarioError(f"formation: expected an object, got {show_value(data)}", field="formation", value=data)
    unknown = sorted(set(data) - FORMATION_FIELDS)
    if unknown:
        raise ScenarioError(f"formation.{unknown[0]}: unknown field (allowed: {', '.join(sorted(FORMATION_FIELDS))})")
    kinds = [k for k in ("preset", "hull", "positions") if k in data]
    if len(kinds) > 1:
        raise ScenarioError(f"formation.{kinds[1]}: give one of preset, hull or positions, not {' and '.join(kinds)}")
    n = target.models
    if "hull" in data:
        _only(data, "hull", {"hull"})
        hull = data["hull"]
        if not (isinstance(hull, list) and len(hull) == 2):
            raise ScenarioError(f"formation.hull: expected [length, width] in inches, got {show_value(hull)}")
        length, width = (parse_number(x, "formation.hull", lo=0.01, hi=MAX_INCHES, what="inches") for x in hull)
        if not target.is_vehicle:
            raise ScenarioError(f"formation.hull: only a Vehicle target has a hull, got Unit Type {target.unit_type!r}")
        return Hull(length, width)
    if "preset" in data:
        _only(data, "preset", {"preset"})
        return _preset(data["preset"], target)
    if target.is_vehicle:
        raise ScenarioError("formation.hull: a Vehicle target's formation is its hull [length, width] or a hull preset")
    base = parse_number(data.get("base_mm", 32), "formation.base_mm", lo=10, hi=200, what="millimetres 10..200")
    if "positions" in data:
        _only(data, "positions", {"positions", "base_mm"})
        return Formation.from_positions(_positions(data["positions"], n), base)
    models = data.get("models", n)
    if isinstance(models, bool) or models != n:
        raise ScenarioError(f"formation.models: must equal target.models ({n}), got {show_value(models)}")
    gap = parse_number(data.get("gap", 2.0), "formation.gap", lo=0, hi=24, what="inches 0..24")
    columns = data.get("columns")
    if columns is not None and (isinstance(columns, bool) or not isinstance(columns, int) or not 1 <= columns <= 1000):
        raise ScenarioError(f"formation.columns: expected a whole number 1..1000, got {show_value(columns)}")
    return Formation.grid(n, base_mm=base, gap=gap, columns=columns)


def _preset(name: Any, target: Unit) -> Formation | Hull:
    """A preset of ``markers.formation.PRESETS`` that fits the target: a hull for a Vehicle, else as many models."""
    if not isinstance(name, str) or name not in PRESETS:
        known = ", ".join(sorted(PRESETS))
        raise ScenarioError(f"formation.preset: unknown preset {show_value(name)} (known: {known})")
    shape = PRESETS[name]
    if isinstance(shape, Hull) and not target.is_vehicle:
        raise ScenarioError(
            f"formation.preset: {name!r} is a vehicle's hull; the target is not a Vehicle "
            f"(Unit Type {target.unit_type!r})"
        )
    if isinstance(shape, Formation) and target.is_vehicle:
        raise ScenarioError(f"formation.preset: {name!r} is a formation of models; a Vehicle needs a hull preset")
    if isinstance(shape, Formation) and shape.n != target.models:
        raise ScenarioError(
            f"formation.preset: {name!r} has {counted_noun(shape.n, 'model')}, target.models is {target.models}"
        )
    return shape


def _positions(pos: Any, n: int) -> np.ndarray:
    """``[[x, y], ...]`` inches, one pair per target model; every coordinate finite."""
    if not isinstance(pos, list) or not pos:
        raise ScenarioError(f"formation.positions: expected [[x, y], ...] in inches, got {show_value(pos)}")
    if len(pos) != n:
        raise ScenarioError(f"formation.positions: {len(pos)} positions for target.models {n}")
    out = np.empty((n, 2))
    for i, xy in enumerate(pos):
        if not (isinstance(xy, list) and len(xy) == 2):
            raise ScenarioError(f"formation.positions[{i}]: expected [x, y] in inches, got {show_value(xy)}")
        for j, v in enumerate(xy):
            out[i, j] = parse_number(v, f"formation.positions[{i}]", lo=-MAX_INCHES, hi=MAX_INCHES, what="inches")
    return out


def parse_firer_distance(data: Mapping[str, Any]) -> float:
    """``formation.firer_distance``: inches from the nearest base to the firer (templates; default 1)."""
    return parse_number(
        data.get("firer_distance", 1.0), "formation.firer_distance", lo=0, hi=MAX_INCHES, what="inches >= 0"
    )


def parse_edges(data: Any) -> Edges | None:
    """The optional battlefield edges ``{xmin, xmax, ymin, ymax}`` (missing keys: unbounded)."""
    if data is None:
        return None
    if not isinstance(data, Mapping) or not data or not set(data) <= {"xmin", "xmax", "ymin", "ymax"}:
        raise ScenarioError(f"edges: expected {{xmin, xmax, ymin, ymax}} in inches, got {show_value(data)}")
    values = {
        k: parse_number(v, f"edges.{k}", lo=-MAX_INCHES, hi=MAX_INCHES, what="a number of inches")
        for k, v in data.items()
    }
    for lo, hi in (("xmin", "xmax"), ("ymin", "ymax")):
        if lo in values and hi in values and values[lo] > values[hi]:
            raise ScenarioError(f"edges.{lo}: {values[lo]:g} is beyond {hi} {values[hi]:g}")
    return Edges.from_dict(values)


def parse_aim(data: Any, models: int) -> int | None:
    """The optional aim ``{"model": i}``."""
    if data is None:
        return None
    if not isinstance(data, Mapping) or set(data) != {"model"}:
        raise ScenarioError(f'aim: expected {{"model": index}}, got {show_value(data)}')
    i = data["model"]
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < models:
        raise ScenarioError(f"aim.model: expected 0..{models - 1}, got {show_value(i)}")
    return i


def parse_marker_setup(data: Mapping[str, Any], target: Unit) -> MarkerSetup:
    """The typed marker block of a scenario that has a ``formation``."""
    shape = parse_formation(data["formation"], target)
    indirect = data.get("indirect", False)
    if not isinstance(indirect, bool):
        raise ScenarioError(f"indirect: expected true or false, got {show_value(indirect)}")
    firer = parse_firer_distance(data["formation"])
    return MarkerSetup(
        shape=shape,
        firer_distance=firer,
        aim=parse_aim(data.get("aim"), target.models if isinstance(shape, Formation) else 1),
        edges=parse_edges(data.get("edges")),
        indirect=indirect,
        echo=_echo(data["formation"], shape, firer),
    )


def _echo(given: Mapping[str, Any], shape: Formation | Hull, firer: float) -> dict[str, Any]:
    """The result's ``formation``: what was given, with the grid's defaults filled in."""
    out = dict(given)
    if isinstance(shape, Hull):
        out["hull"] = [shape.length, shape.width]
    else:
        out["models"] = shape.n
        out["base_mm"] = round(2 * shape.base_radius * MM_PER_INCH, 9)
        if not {"preset", "positions"} & set(given):
            out.setdefault("gap", 2.0)
            out.setdefault("columns", max(1, min(shape.n, DEFAULT_COLUMNS)))
    out["firer_distance"] = firer
    return out
