"""A FigureWidget kept equal to the latest :class:`~praetor_analysis.views.figures.specs.FigureSpec`, by sending
only what changed.

Assigning a new figure to a widget (or ``trace.y = ...`` property by property) makes Plotly build and validate
objects for every property: about 50 ms for the dashboard's three figures. :meth:`LiveFigure.show` instead
compares the new spec with the one the widget shows, leaf by leaf, runs Plotly's validator on each changed
value only (a numeric array is copied read-only, as Plotly's array validator does, without its
dataframe checks), and applies all of them in one ``plotly_update`` (one message to the page). Traces are added or
removed at the end when their number changes; a trace whose type changes is rebuilt. Layout lists of objects
(annotations, shapes) are assigned through Plotly's objects, as they hold objects rather than values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import plotly.graph_objects as go
from _plotly_utils.basevalidators import DataArrayValidator
from plotly.basedatatypes import Undefined

from praetor_analysis.views.figures.plots import figure_of
from praetor_analysis.views.figures.specs import FigureSpec

__all__ = ["LiveFigure", "flatten", "same_value", "sync_figure"]

_OBJECT_LISTS = frozenset({"annotations", "shapes", "images", "sliders", "updatemenus", "selections"})


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Leaf values of nested dicts by dotted path (``{"title": {"text": t}}`` -> ``{"title.text": t}``);
    None and ``{}`` are no value."""
    out: dict[str, Any] = {}
    for key, value in tree.items():
        path = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            out.update(flatten(value, path))
        elif value is not None:
            out[path] = value
    return out


def same_value(a: Any, b: Any) -> bool:
    """Whether two leaf values are equal (numpy arrays by shape, dtype and elements)."""
    if a is b:
        return True
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        return a.shape == b.shape and a.dtype == b.dtype and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
    try:
        return bool(a == b)
    except (ValueError, TypeError):
        return False


def _changes(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The leaves of ``new`` that differ from ``old``, and None for what ``new`` no longer has (the whole
    branch when none of it is left: ``{"xaxis": {"dtick": 1}}`` to ``{}`` removes ``xaxis``)."""
    out = {path: value for path, value in new.items() if path not in old or not same_value(old[path], value)}
    gone = [path for path in old if path not in new]
    if gone:
        kept = {".".join(parts[:n]) for parts in (p.split(".") for p in new) for n in range(1, len(parts) + 1)}
        for path in gone:
            parts = path.split(".")
            branch = next(".".join(parts[:n]) for n in range(1, len(parts) + 1) if ".".join(parts[:n]) not in kept)
            out[branch] = None
    return out


def _validated(obj: Any, path: str, value: Any) -> Any:
    """``value`` as Plotly's validator for ``path`` under ``obj`` (a trace or the layout) stores it."""
    if value is None:
        return None
    *parents, leaf = path.split(".")
    for name in parents:
        obj = obj[name]
    validator = obj._get_validator(leaf)
    if type(validator) is DataArrayValidator:  # what the validator makes of these, made directly
        if isinstance(value, np.ndarray) and value.dtype.kind in "uif":
            out = np.ascontiguousarray(value.copy())
            out.flags.writeable = False
            return out
        if isinstance(value, list) and _plain_lists(value):
            return [list(row) if isinstance(row, list) else row for row in value]
    return validator.validate_coerce(value)


def _plain_lists(value: list[Any]) -> bool:
    """A list of strings, or of lists of strings (one level): kept as lists by Plotly's array validator."""
    return all(
        isinstance(row, str) or (isinstance(row, list) and all(isinstance(x, str) for x in row)) for row in value
    )


class LiveFigure:
    """A FigureWidget and the spec it shows; :meth:`show` moves it to another spec.

    Args:
        widget: The FigureWidget, built from ``spec`` (``figure_of(spec)``) or empty.
        spec: What it shows now (None: unknown, so the first :meth:`show` rebuilds it).
    """

    def __init__(self, widget: go.FigureWidget, spec: FigureSpec | None = None) -> None:
        self.widget = widget
        self.spec = spec
        self._flat: tuple[list[dict[str, Any]], dict[str, Any]] | None = None
        if spec is not None:
            self._flat = ([flatten(t) for t in spec.traces], flatten(spec.layout))

    def show(self, spec: FigureSpec) -> None:
        """Update the widget to ``spec``: only the changed values are validated and sent."""
        if spec is self.spec:
            return
        traces = [flatten(t) for t in spec.traces]
        layout = flatten(spec.layout)
        if self._flat is None:
            self._rebuild(spec)
        else:
            self._update(spec, traces, layout)
        self.spec, self._flat = spec, (traces, layout)

    def _rebuild(self, spec: FigureSpec) -> None:
        sync_figure(self.widget, figure_of(spec))

    def _update(self, spec: FigureSpec, traces: list[dict[str, Any]], layout: dict[str, Any]) -> None:
        assert self._flat is not None
        old_traces, old_layout = self._flat
        w = self.widget
        keep = 0  # traces kept: the common prefix of the same types
        while keep < min(len(old_traces), len(traces)) and old_traces[keep].get("type") == traces[keep].get("type"):
            keep += 1
        if keep < len(w.data):
            w.data = w.data[:keep]
        restyle: dict[str, list[Any]] = {}
        touched: list[int] = []
        for i in range(keep):
            changed = _changes(old_traces[i], traces[i])
            if not changed:
                continue
            slot = len(touched)
            touched.append(i)
            for path, value in changed.items():
                column = restyle.setdefault(path, [Undefined] * slot)
                column.extend([Undefined] * (slot - len(column)))
                column.append(_validated(w.data[i], path, value))
        for column in restyle.values():
            column.extend([Undefined] * (len(touched) - len(column)))
        relayout: dict[str, Any] = {}
        objects: dict[str, Any] = {}
        for path, value in _changes(old_layout, layout).items():
            if path.split(".")[0] in _OBJECT_LISTS:
                objects[path.split(".")[0]] = spec.layout.get(path.split(".")[0])  # None removes them
            else:
                relayout[path] = _validated(w.layout, path, value)
        if restyle or relayout:
            w.plotly_update(restyle_data=restyle, relayout_data=relayout, trace_indexes=touched)
        for key, value in objects.items():
            w.layout[key] = value
        if keep < len(traces):
            w.add_traces(list(figure_of(FigureSpec(spec.traces[keep:], {})).data))


def sync_figure(widget: go.FigureWidget, fig: go.Figure) -> None:
    """Copy a figure's traces and layout into a FigureWidget (same traces updated in place; only the
    properties that changed are sent, and the layout only when it changed)."""
    layout = fig.layout.to_plotly_json()
    with widget.batch_update():
        same = len(widget.data) == len(fig.data) and all(
            a.type == b.type for a, b in zip(widget.data, fig.data, strict=False)
        )
        if same:
            for old, new in zip(widget.data, fig.data, strict=False):
                new_json = new.to_plotly_json()
                old_json = old.to_plotly_json()
                changed = {k: v for k, v in new_json.items() if not _equal(old_json.get(k), v)}
                if changed:
                    old.update(changed, overwrite=True)
        else:
            widget.data = ()
            if fig.data:
                widget.add_traces(list(fig.data))
        if getattr(widget, "_praetor_layout", None) != layout:
            widget.layout.shapes = ()
            widget.layout.update(layout, overwrite=True)
            widget._praetor_layout = layout  # what this widget shows now (private attribute)


def _equal(a: Any, b: Any) -> bool:
    """Plotly property equality that copes with numpy arrays."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            a is not None
            and b is not None
            and np.shape(a) == np.shape(b)
            and bool(np.all(np.asarray(a) == np.asarray(b)))
        )
    try:
        return bool(a == b)
    except (ValueError, TypeError):
        return False
