"""The dashboard's three figures as plain data: trace dicts and a layout dict in Plotly's JSON form.

A :class:`FigureSpec` is what :func:`~praetor_analysis.views.figures.plots.efficiency_heatmap`,
:func:`~praetor_analysis.views.figures.plots.at_least_curves` and
:func:`~praetor_analysis.views.figures.plots.distribution_figure` turn into a ``go.Figure``; a live dashboard compares
two specs and sends a FigureWidget only the values that changed
(:class:`~praetor_analysis.views.figures.live.LiveFigure`). Building a spec touches no Plotly object (no
validation), so it is cheap. Numbers are numpy arrays; values that would be None are left out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from praetor_analysis.errors import counted_noun
from praetor_analysis.views.formats import (
    PCT_FMT,
    colour,
    escape,
    is_chance,
    number,
    percent,
    title_layout,
    wrapped_title,
)

__all__ = [
    "METRIC_LABELS",
    "AtLeastOptions",
    "DistributionOptions",
    "FigureSpec",
    "HeatmapOptions",
    "as_pmf",
    "at_least",
    "at_least_spec",
    "clean",
    "distribution_spec",
    "heatmap_spec",
    "label_list",
    "weapon_labels",
]

#: Axis and colour-bar labels, with units, of the comparison columns a figure can show.
METRIC_LABELS: dict[str, str] = {
    "mean": "expected casualties (models) or hull points",
    "std": "standard deviation (models or hull points)",
    "p_any": "P(at least one) (probability)",
    "p_all": "P(whole unit removed / wrecked) (probability)",
    "p_pinned": "P(pinned) (probability)",
    "mean_per_100pts": "expected casualties per 100 points (models / 100 pts)",
}
UNITS = {"casualties": "models", "hull_points": "hull points", "wounds": "wounds"}
"""The unit of each ``measure`` of a comparison."""


@dataclass(frozen=True, eq=False)
class FigureSpec:
    """A figure as data: ``traces`` (dicts with a ``type``) and ``layout``, Plotly's JSON form."""

    traces: tuple[dict[str, Any], ...]
    layout: dict[str, Any]


def clean(value: Any) -> Any:
    """A copy of nested dicts without the None values (Plotly reads None as "not set")."""
    if isinstance(value, dict):
        return {k: clean(v) for k, v in value.items() if v is not None}
    return value


def as_pmf(dist: Any) -> np.ndarray:
    """The pmf array of a :class:`~praetor_analysis.prob.dist.Dist`, a result ``{"pmf": [...]}`` or a sequence."""
    if isinstance(dist, Mapping):
        dist = dist["pmf"]
    probs = getattr(dist, "probabilities", dist)
    return np.asarray(probs, dtype=np.float64).ravel()


def at_least(pmf: np.ndarray) -> np.ndarray:
    """``out[k] = P(X >= k)`` by a reverse cumulative sum (tails keep their precision)."""
    return np.minimum(np.cumsum(np.asarray(pmf, dtype=np.float64)[::-1])[::-1], 1.0)


def weapon_labels(df: pd.DataFrame) -> pd.Series:
    """One escaped label per row: the weapon name, plus the faction (or id) where names collide."""
    names = [str(n) for n in df["weapon"].tolist()]
    wids = [str(i) for i in df["weapon_id"].tolist()] if "weapon_id" in df else names
    extras = [str(f) for f in df["faction"].tolist()] if "faction" in df else wids
    return pd.Series(label_list(names, wids, extras), index=df.index)


def label_list(names: list[str], wids: list[str], extras: list[str]) -> list[str]:
    """:func:`weapon_labels` of rows given as lists: a name shared by several weapon ids gets ``[extra]``, and a
    label still shared gets ``#id``; escaped."""
    ids_of: dict[str, set[str]] = {}
    for name, wid in zip(names, wids, strict=True):
        ids_of.setdefault(name, set()).add(wid)
    labels = [f"{name} [{extra}]" if len(ids_of[name]) > 1 else name for name, extra in zip(names, extras, strict=True)]
    ids_of = {}
    for label, wid in zip(labels, wids, strict=True):
        ids_of.setdefault(label, set()).add(wid)
    return [
        escape(f"{label} #{wid}" if len(ids_of[label]) > 1 else label) for label, wid in zip(labels, wids, strict=True)
    ]


# ------------------------------------------------------------------------------------------ distribution
@dataclass(frozen=True)
class DistributionOptions:
    """Options of :func:`distribution_spec`.

    Attributes:
        title: Figure title (escaped).
        outcome: What is counted, for the x axis (``"casualties"``, ``"hull points"``...).
        unit: Unit of the count (``"models"``).
        name: Legend name of the bars.
        max_k: Last outcome shown (default: the whole support).
    """

    title: str = "Distribution"
    outcome: str = "casualties"
    unit: str = "models"
    name: str = "P(X = k)"
    max_k: int | None = None


def distribution_spec(dist: Any, options: DistributionOptions | None = None) -> FigureSpec:
    """Bars of P(X = k) with P(X >= k) as a line on a second y axis (a Dist, ``{"pmf": [...]}`` or a pmf)."""
    o = options or DistributionOptions()
    whole = as_pmf(dist)
    pmf = whole[: o.max_k + 1] if o.max_k is not None else whole
    k = np.arange(pmf.size)
    tail = at_least(whole)[: pmf.size]
    mean = float(np.dot(np.arange(whole.size), whole))
    unit = escape(o.unit)
    bars = {
        "type": "bar",
        "x": k,
        "y": pmf,
        "name": escape(o.name),
        "marker": {"color": "#4C78A8"},
        "hovertemplate": f"k = %{{x}} {unit}<br>P(X = k) = %{{y:{PCT_FMT}}}<extra></extra>",
    }
    line = {
        "type": "scatter",
        "x": k,
        "y": tail,
        "name": "P(X ≥ k)",
        "mode": "lines+markers",
        "yaxis": "y2",
        "line": {"color": "#E45756"},
        "hovertemplate": f"k = %{{x}} {unit}<br>P(X ≥ k) = %{{y:{PCT_FMT}}}<extra></extra>",
    }
    layout = {
        "title": title_layout(
            wrapped_title(f"{escape(o.title)} (mean {counted_noun(number(mean), _SINGULAR.get(unit, unit), unit)})")
        ),
        "xaxis": {"title": {"text": f"{escape(o.outcome)} k ({unit})"}, "dtick": 1 if pmf.size <= 30 else None},
        "yaxis": {"title": {"text": "P(X = k) (probability)"}, "rangemode": "tozero", "tickformat": ".0%"},
        "yaxis2": {
            "title": {"text": "P(X ≥ k) (probability)"},
            "overlaying": "y",
            "side": "right",
            "range": [0, 1.02],
            "showgrid": False,
            "tickmode": "linear",
            "tick0": 0,
            "dtick": 0.2,
            "tickformat": ".0%",
        },
        "legend": {"orientation": "h", "y": -0.2},
        "margin": {"r": 80},
        "bargap": 0.15,
    }
    return FigureSpec((bars, line), clean(layout))


# --------------------------------------------------------------------------------------------- heatmap
@dataclass(frozen=True)
class HeatmapOptions:
    """Options of :func:`heatmap_spec`.

    Attributes:
        metric: Column of the comparison shown as colour (a key of :data:`METRIC_LABELS`).
        title: Figure title; default names the metric.
        colorscale: Plotly colour scale name.
        annotate: Write the value in each cell.
        row_title: What the rows are, for the y axis (``"weapon"``, ``"unit"``).
        unit: Unit of the metric for the colour bar when ``metric`` is ``"mean"`` (default: from ``measure``).
    """

    metric: str = "mean"
    title: str | None = None
    colorscale: str = "Viridis"
    annotate: bool = True
    row_title: str = "weapon"
    unit: str | None = None


_SINGULAR = {"models": "model", "hull points": "hull point", "wounds": "wound", "hits": "hit"}
"""A figure's unit when the count shown is 1 (``mean 1 model``)."""
_HOVER_NAMES = {
    "mean": "mean",
    "std": "standard deviation",
    "p_any": "P(at least one)",
    "p_all": "P(all)",
    "p_pinned": "P(pinned)",
    "mean_per_100pts": "expected per 100 pts",
}


def _numbers(df: pd.DataFrame, column: str) -> list[float]:
    """A column as floats (NaN where missing or not a number)."""
    if column not in df.columns:
        return [np.nan] * len(df)
    col = df[column]
    if col.dtype == np.float64:
        return col.tolist()
    return pd.to_numeric(col, errors="coerce").astype(float).tolist()


def _texts(df: pd.DataFrame, column: str) -> list[Any]:
    return df[column].tolist() if column in df.columns else [None] * len(df)


def heatmap_spec(df: pd.DataFrame, options: HeatmapOptions | None = None) -> FigureSpec:
    """Weapons (rows) x targets (columns) coloured by one metric of a comparison DataFrame.

    Cells without a value (an ``error`` or a missing points cost) are blank; the hover says why.
    """
    o = options or HeatmapOptions()
    if o.metric not in df.columns:
        raise ValueError(f"metric: no column {o.metric!r} in the comparison (columns: {list(df.columns)})")
    w_labels = weapon_labels(df).tolist() if len(df) else []
    t_labels = [escape(t) for t in df["target"].tolist()] if len(df) else []
    rows, cols = list(dict.fromkeys(w_labels)), list(dict.fromkeys(t_labels))
    z = np.full((len(rows), len(cols)), np.nan)
    text = [["" for _ in cols] for _ in rows]
    hover = [["" for _ in cols] for _ in rows]
    ri, ci = {r: i for i, r in enumerate(rows)}, {c: j for j, c in enumerate(cols)}
    chance = is_chance(o.metric)
    values = _numbers(df, o.metric)
    shown = [(col, _HOVER_NAMES[col], is_chance(col), _numbers(df, col)) for col in _HOVER_NAMES]
    measures, errors, notes = _texts(df, "measure"), _texts(df, "error"), _texts(df, "not_modelled")
    for n, (wl, tl) in enumerate(zip(w_labels, t_labels, strict=True)):
        i, j = ri[wl], ci[tl]
        value = values[n]
        unit = UNITS.get(str(measures[n] if measures[n] is not None else ""), "")
        err = errors[n]
        lines = [f"{wl} vs {tl}"]
        if isinstance(err, str) and err:
            lines.append(f"error: {escape(err)}")
        if value == value:
            z[i, j] = value
            text[i][j] = percent(value) if chance else number(value)
        for col, hover_name, col_chance, col_values in shown:
            v = col_values[n]
            if v == v:
                suffix = f" {unit}" if col in ("mean", "std") and unit else ""
                lines.append(f"{hover_name} = {percent(v) if col_chance else number(v)}{suffix}")
        nm = notes[n]
        if isinstance(nm, (list, tuple)) and nm:
            nm = ", ".join(map(str, nm))
        if isinstance(nm, str) and nm:
            lines.append(f"not modelled: {escape(nm)}")
        hover[i][j] = "<br>".join(lines)
    label = METRIC_LABELS.get(o.metric, escape(o.metric))
    if o.metric == "mean" and o.unit:
        label = f"expected {escape(o.unit)}"
    trace = {
        "type": "heatmap",
        "z": z,
        "x": cols,
        "y": rows,
        "colorscale": o.colorscale,
        "customdata": hover,
        "hovertemplate": "%{customdata}<extra></extra>",
        "colorbar": {"title": {"text": label, "side": "right"}, "tickformat": ".0%" if chance else None},
        "zmin": 0.0 if chance else None,
        "zmax": 1.0 if chance else None,
        "text": text if o.annotate else None,
        "texttemplate": "%{text}" if o.annotate else None,
        "hoverongaps": True,
    }
    layout = {
        "title": title_layout(escape(o.title) if o.title else f"Weapon x target: {label}"),
        "xaxis": {"title": {"text": "target (unit)"}, "side": "bottom"},
        "yaxis": {"title": {"text": escape(o.row_title)}, "autorange": "reversed", "automargin": True},
        "height": max(320, 140 + 28 * len(rows)),
    }
    return FigureSpec((clean(trace),), clean(layout))


# ---------------------------------------------------------------------------------------- at-least curves
@dataclass(frozen=True)
class AtLeastOptions:
    """Options of :func:`at_least_spec`.

    Attributes:
        title: Figure title (escaped); default ``"Chance of at least k"``.
        target: Name of the target, added to the default title.
        outcome, unit: What is counted and its unit, for the x axis.
        min_k: First k drawn (1: "at least one" is the first point).
    """

    title: str | None = None
    target: str | None = None
    outcome: str = "casualties"
    unit: str = "models"
    min_k: int = 1


def at_least_spec(pmfs: Mapping[str, Any], options: AtLeastOptions | None = None) -> FigureSpec:
    """One line of P(X >= k) against k per weapon, for several weapons on one target.

    Args:
        pmfs: weapon label -> distribution (Dist, result mapping or pmf sequence); insertion order is kept.
    """
    o = options or AtLeastOptions()
    traces = []
    top = 0
    best = 0.0
    unit = escape(o.unit)
    for i, (name, dist) in enumerate(pmfs.items()):
        tail = at_least(as_pmf(dist))
        top = max(top, tail.size - 1)
        best = max(best, float(tail[o.min_k :].max()) if tail.size > o.min_k else 0.0)
        label = escape(name)
        traces.append(
            {
                "type": "scatter",
                "x": np.arange(o.min_k, tail.size),
                "y": tail[o.min_k :],
                "mode": "lines+markers",
                "name": label,
                "line": {"shape": "hv", "color": colour(i)},
                "marker": {"color": colour(i)},
                "hovertemplate": f"{label}<br>P(at least %{{x}} {unit}) = %{{y:{PCT_FMT}}}<extra></extra>",
            }
        )
    title = (
        escape(o.title) if o.title else "Chance of at least k" + (f" against {escape(o.target)}" if o.target else "")
    )
    layout: dict[str, Any] = {
        "title": title_layout(title),
        "xaxis": {"title": {"text": f"{escape(o.outcome)} k ({unit})"}, "dtick": 1 if top <= 30 else None},
        "yaxis": {"title": {"text": "P(X ≥ k) (probability)"}, "range": [0, 1.02], "tickformat": ".0%"},
        "hovermode": "closest",
        "legend": {"orientation": "h", "y": -0.25},
        "margin": {"b": 100},
    }
    if best < 5e-4:
        note = f"no weapon here has even a 0.05% chance of {o.min_k} or more {unit}"
        layout["annotations"] = [
            {"text": note, "showarrow": False, "xref": "paper", "yref": "paper", "x": 0.5, "y": 0.5}
        ]
    return FigureSpec(tuple(traces), clean(layout))
