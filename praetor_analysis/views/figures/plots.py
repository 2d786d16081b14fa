"""Plotly figures: data in, ``go.Figure`` out.

Every function takes the data first (a distribution, a comparison DataFrame from
:func:`praetor_analysis.analysis.compare.compare`, positions...) and a typed options dataclass, and returns a new
``go.Figure``; none calls ``show()`` or computes probabilities beyond reading the input (a cumulative sum
for "at least k" excepted). Every figure has a title, labelled axes with units and hover text with the
values to three significant figures (chances as percentages, :mod:`praetor_analysis.views.formats`);
each trace has its own colour. The dashboard's three figures (heatmap, at-least curves, distribution) are
built from their data form, :mod:`praetor_analysis.views.figures.specs`.

Strings that come from data files (weapon, target and faction names) are HTML-escaped before they reach
Plotly, whose labels understand a little HTML: a name such as ``<b>Bolter</b>`` shows as typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from praetor_analysis.views.figures.formation import FormationOptions, formation_figure
from praetor_analysis.views.figures.specs import (
    METRIC_LABELS,
    AtLeastOptions,
    DistributionOptions,
    FigureSpec,
    HeatmapOptions,
    as_pmf,
    at_least,
    at_least_spec,
    distribution_spec,
    heatmap_spec,
    weapon_labels,
)
from praetor_analysis.views.formats import PCT_FMT, SIG_FMT, colour, escape, number, title_layout

__all__ = [
    "METRIC_LABELS",
    "AtLeastOptions",
    "DistributionOptions",
    "FormationOptions",
    "HeatmapOptions",
    "PointsOptions",
    "SummaryOptions",
    "VehicleOptions",
    "as_pmf",
    "at_least",
    "at_least_curves",
    "distribution_figure",
    "efficiency_heatmap",
    "escape",
    "figure_of",
    "formation_figure",
    "points_efficiency_bars",
    "summary_bars",
    "vehicle_outcome_bars",
    "weapon_labels",
]

_HOVER_FMT = SIG_FMT


def figure_of(spec: FigureSpec) -> go.Figure:
    """The ``go.Figure`` of a :class:`~praetor_analysis.views.figures.specs.FigureSpec` (validated by Plotly)."""
    return go.Figure(data=list(spec.traces), layout=spec.layout)


def distribution_figure(dist: Any, options: DistributionOptions | None = None) -> go.Figure:
    """Bars of P(X = k) with P(X >= k) as a line on a second y axis.

    Args:
        dist: a Dist, a result mapping ``{"pmf": [...]}`` or a pmf sequence over 0..n.
        options: labels and range.
    """
    return figure_of(distribution_spec(dist, options))


def efficiency_heatmap(df: pd.DataFrame, options: HeatmapOptions | None = None) -> go.Figure:
    """Weapons (rows) x targets (columns) coloured by one metric of a comparison DataFrame.

    Cells without a value (an ``error`` or a missing points cost) are blank; the hover says why.
    """
    return figure_of(heatmap_spec(df, options))


def at_least_curves(pmfs: Mapping[str, Any], options: AtLeastOptions | None = None) -> go.Figure:
    """One line of P(X >= k) against k per weapon, for several weapons on one target.

    Args:
        pmfs: weapon label -> distribution (Dist, result mapping or pmf sequence); insertion order is kept.
    """
    return figure_of(at_least_spec(pmfs, options))


def _ordered_unique(values: pd.Series) -> list:
    return list(dict.fromkeys(values.tolist()))


# ------------------------------------------------------------------------------------------- points bars
@dataclass(frozen=True)
class PointsOptions:
    """Options of :func:`points_efficiency_bars`.

    Attributes:
        metric: Column drawn (default expected casualties per 100 points).
        title: Figure title; default names the metric.
        sort: Sort each target's bars, best first.
        row_title: What the bars are, for the y axis (``"weapon"``, ``"unit"``).
    """

    metric: str = "mean_per_100pts"
    title: str | None = None
    sort: bool = True
    row_title: str = "weapon"


def points_efficiency_bars(df: pd.DataFrame, options: PointsOptions | None = None) -> go.Figure:
    """Horizontal bars of a points-efficiency metric per weapon, one colour (trace) per target.

    Weapons with no points cost (NaN metric) are listed in the title's subtitle rather than drawn as zero.
    """
    o = options or PointsOptions()
    if o.metric not in df.columns:
        raise ValueError(f"metric: no column {o.metric!r} in the comparison (columns: {list(df.columns)})")
    frame = df.assign(
        _w=weapon_labels(df) if len(df) else pd.Series(dtype=str), _v=pd.to_numeric(df[o.metric], errors="coerce")
    )
    fig = go.Figure()
    order = _ordered_unique(frame.loc[frame["_v"].notna(), "_w"])
    if o.sort and order:
        best = frame.groupby("_w")["_v"].max()
        order = sorted(order, key=lambda w: -best[w])
    for n, (target, part) in enumerate(frame.groupby("target", sort=False)):
        part = part[part["_v"].notna()]
        pts = pd.to_numeric(part.get("points", pd.Series(np.nan, index=part.index)), errors="coerce")
        fig.add_trace(
            go.Bar(
                x=part["_v"],
                y=part["_w"],
                orientation="h",
                name=escape(target),
                marker_color=colour(n),
                customdata=np.column_stack([pts.to_numpy(dtype=float), part["mean"].to_numpy(dtype=float)])
                if "mean" in part
                else None,
                hovertemplate=(
                    f"%{{y}} vs {escape(target)}<br>{o.metric} = %{{x:{_HOVER_FMT}}}"
                    f"<br>points = %{{customdata[0]:{_HOVER_FMT}}}<br>mean = %{{customdata[1]:{_HOVER_FMT}}}"
                    "<extra></extra>"
                ),
            )
        )
    if not order:
        fig.add_annotation(
            text="no row has a points cost of its own: nothing to rank per point",
            showarrow=False,
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
        )
    missing = sorted(set(frame["_w"]) - set(order))
    label = METRIC_LABELS.get(o.metric, escape(o.metric))
    title = escape(o.title) if o.title else f"Points efficiency: {label}"
    if missing:
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        title += f"<br><sup>no points cost: {shown}</sup>"
    fig.update_layout(
        title=title_layout(title),
        barmode="group",
        xaxis={"title": {"text": label}, "rangemode": "tozero"},
        yaxis={"title": {"text": escape(o.row_title)}, "categoryorder": "array", "categoryarray": order[::-1]},
        height=max(320, 140 + 22 * max(1, len(order)) * max(1, len(fig.data)) ** 0.5),
    )
    return fig


# ----------------------------------------------------------------------------------------- vehicles
@dataclass(frozen=True)
class VehicleOptions:
    """Options of :func:`vehicle_outcome_bars`.

    Attributes:
        title: Figure title (escaped); default names the target.
        target: Name of the vehicle, for the default title.
    """

    title: str | None = None
    target: str | None = None


def _field(result: Any, name: str) -> Any:
    return result.get(name) if isinstance(result, Mapping) else getattr(result, name, None)


def vehicle_outcome_bars(results: Mapping[str, Any], options: VehicleOptions | None = None) -> go.Figure:
    """Grouped bars per weapon: P(at least one glancing hit), P(at least one penetrating hit), P(wrecked).

    Args:
        results: weapon label -> a vehicle result (the docs/scenario.md mapping with ``glancing``,
            ``penetrating`` distributions and ``wrecked``, or a
            :class:`~praetor_analysis.vehicles.hull_points.VehicleResult`).
    """
    o = options or VehicleOptions()
    names = [escape(n) for n in results]
    series: dict[str, list[float]] = {"P(≥1 glancing hit)": [], "P(≥1 penetrating hit)": [], "P(wrecked)": []}
    means = []
    for res in results.values():
        gl, pen = as_pmf(_field(res, "glancing")), as_pmf(_field(res, "penetrating"))
        series["P(≥1 glancing hit)"].append(float(at_least(gl)[1]) if gl.size > 1 else 0.0)
        series["P(≥1 penetrating hit)"].append(float(at_least(pen)[1]) if pen.size > 1 else 0.0)
        series["P(wrecked)"].append(float(_field(res, "wrecked") or 0.0))
        hp = _field(res, "hull_points")
        means.append(float(np.dot(np.arange(as_pmf(hp).size), as_pmf(hp))) if hp is not None else float("nan"))
    fig = go.Figure()
    for (label, values), color in zip(series.items(), ("#72B7B2", "#F58518", "#E45756"), strict=True):
        fig.add_trace(
            go.Bar(
                x=names,
                y=values,
                name=label,
                marker_color=color,
                customdata=means,
                hovertemplate=(
                    f"%{{x}}<br>{label} = %{{y:{PCT_FMT}}}"
                    f"<br>mean hull points removed = %{{customdata:{_HOVER_FMT}}}<extra></extra>"
                ),
            )
        )
    title = escape(o.title) if o.title else "Vehicle outcomes" + (f" against {escape(o.target)}" if o.target else "")
    fig.update_layout(
        title=title_layout(title),
        barmode="group",
        xaxis={"title": {"text": "weapon"}},
        yaxis={"title": {"text": "probability"}, "range": [0, 1.02], "tickformat": ".0%"},
    )
    return fig


# ------------------------------------------------------------------------------------------ summary bars
@dataclass(frozen=True)
class SummaryOptions:
    """Options of :func:`summary_bars`.

    Attributes:
        title: Figure title (escaped).
        unit: Unit of the values, for the axis and the hover.
        category: What the bars are, for the axis (``"target"``).
    """

    title: str = "Summary"
    unit: str = "models"
    category: str = "target"


def summary_bars(labels: Sequence[str], values: Sequence[float], options: SummaryOptions | None = None) -> go.Figure:
    """Horizontal bars of one value per label (one colour each), the value written at the bar's end."""
    o = options or SummaryOptions()
    names = [escape(n) for n in labels]
    vals = [float(v) for v in values]
    fig = go.Figure(
        go.Bar(
            x=vals,
            y=names,
            orientation="h",
            marker_color=[colour(i) for i in range(len(vals))],
            text=[number(v) for v in vals],
            textposition="outside",
            cliponaxis=False,
            hovertemplate=f"%{{y}}<br>%{{x:{SIG_FMT}}} {escape(o.unit)}<extra></extra>",
            name=escape(o.unit),
        )
    )
    fig.update_layout(
        title=title_layout(escape(o.title)),
        xaxis={"title": {"text": f"expected {escape(o.unit)} ({escape(o.unit)})"}, "rangemode": "tozero"},
        yaxis={"title": {"text": escape(o.category)}, "autorange": "reversed", "automargin": True},
        height=max(260, 120 + 30 * len(vals)),
        showlegend=False,
        margin={"r": 60},
    )
    return fig
