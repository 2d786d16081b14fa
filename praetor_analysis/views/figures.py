"""Plotly figures: data in, ``go.Figure`` out.

Every function takes the data first (a distribution, a comparison DataFrame from
:func:`praetor_analysis.analysis.compare.compare`, positions...) and a typed options dataclass, and returns a new
``go.Figure``; none calls ``show()`` or computes probabilities beyond reading the input (a cumulative sum
for "at least k" excepted). Every figure has a title, labelled axes with units and hover text with the
values to three significant figures (chances as percentages, :mod:`praetor_analysis.views.formats`);
each trace has its own colour.

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

from praetor_analysis.views.formation_figure import FormationOptions, formation_figure
from praetor_analysis.views.formats import PCT_FMT, SIG_FMT, colour, escape, is_chance, number, percent, title_layout

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
    "formation_figure",
    "points_efficiency_bars",
    "summary_bars",
    "vehicle_outcome_bars",
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
_UNITS = {"casualties": "models", "hull_points": "hull points", "wounds": "wounds"}
_HOVER_FMT = SIG_FMT


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
    name = df["weapon"].astype(str)
    wid = df["weapon_id"].astype(str) if "weapon_id" in df else name
    clash = wid.groupby(name).transform("nunique") > 1
    label = name.copy()
    if clash.any():
        extra = df["faction"].astype(str) if "faction" in df else wid
        label[clash] = name[clash] + " [" + extra[clash] + "]"
        dup = wid.groupby(label).transform("nunique") > 1
        label[dup] = label[dup] + " #" + wid[dup]
    return label.map(escape)


# ------------------------------------------------------------------------------------------ distribution
@dataclass(frozen=True)
class DistributionOptions:
    """Options of :func:`distribution_figure`.

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


def distribution_figure(dist: Any, options: DistributionOptions | None = None) -> go.Figure:
    """Bars of P(X = k) with P(X >= k) as a line on a second y axis.

    Args:
        dist: a Dist, a result mapping ``{"pmf": [...]}`` or a pmf sequence over 0..n.
        options: labels and range.
    """
    o = options or DistributionOptions()
    pmf = as_pmf(dist)
    if o.max_k is not None:
        pmf = pmf[: o.max_k + 1]
    k = np.arange(pmf.size)
    tail = at_least(as_pmf(dist))[: pmf.size]
    mean = float(np.dot(np.arange(as_pmf(dist).size), as_pmf(dist)))
    fig = go.Figure()
    fig.add_trace(
        go.Bar(
            x=k,
            y=pmf,
            name=escape(o.name),
            marker_color="#4C78A8",
            hovertemplate=f"k = %{{x}} {escape(o.unit)}<br>P(X = k) = %{{y:{PCT_FMT}}}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=k,
            y=tail,
            name="P(X ≥ k)",
            mode="lines+markers",
            yaxis="y2",
            line={"color": "#E45756"},
            hovertemplate=f"k = %{{x}} {escape(o.unit)}<br>P(X ≥ k) = %{{y:{PCT_FMT}}}<extra></extra>",
        )
    )
    fig.update_layout(
        title=title_layout(f"{escape(o.title)} (mean {number(mean)} {escape(o.unit)})"),
        xaxis={"title": {"text": f"{escape(o.outcome)} k ({escape(o.unit)})"}, "dtick": 1 if pmf.size <= 30 else None},
        yaxis={"title": {"text": "P(X = k) (probability)"}, "rangemode": "tozero", "tickformat": ".0%"},
        yaxis2={
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
        legend={"orientation": "h", "y": -0.2},
        margin={"r": 80},
        bargap=0.15,
    )
    return fig


# --------------------------------------------------------------------------------------------- heatmap
@dataclass(frozen=True)
class HeatmapOptions:
    """Options of :func:`efficiency_heatmap`.

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


_HOVER_NAMES = {
    "mean": "mean",
    "std": "standard deviation",
    "p_any": "P(at least one)",
    "p_all": "P(all)",
    "p_pinned": "P(pinned)",
    "mean_per_100pts": "expected per 100 pts",
}


def _ordered_unique(values: pd.Series) -> list:
    return list(dict.fromkeys(values.tolist()))


def efficiency_heatmap(df: pd.DataFrame, options: HeatmapOptions | None = None) -> go.Figure:
    """Weapons (rows) x targets (columns) coloured by one metric of a comparison DataFrame.

    Cells without a value (an ``error`` or a missing points cost) are blank; the hover says why.
    """
    o = options or HeatmapOptions()
    if o.metric not in df.columns:
        raise ValueError(f"metric: no column {o.metric!r} in the comparison (columns: {list(df.columns)})")
    frame = df.assign(
        _w=weapon_labels(df) if len(df) else pd.Series(dtype=str),
        _t=df["target"].map(escape) if len(df) else pd.Series(dtype=str),
    )
    rows, cols = _ordered_unique(frame["_w"]), _ordered_unique(frame["_t"])
    z = np.full((len(rows), len(cols)), np.nan)
    text = [["" for _ in cols] for _ in rows]
    hover = [["" for _ in cols] for _ in rows]
    ri, ci = {r: i for i, r in enumerate(rows)}, {c: j for j, c in enumerate(cols)}
    chance = is_chance(o.metric)
    for rec in frame.to_dict("records"):
        i, j = ri[rec["_w"]], ci[rec["_t"]]
        value = pd.to_numeric(rec.get(o.metric), errors="coerce")
        unit = _UNITS.get(str(rec.get("measure", "")), "")
        err = rec.get("error")
        lines = [f"{rec['_w']} vs {rec['_t']}"]
        if isinstance(err, str) and err:
            lines.append(f"error: {escape(err)}")
        if pd.notna(value):
            z[i, j] = float(value)
            text[i][j] = percent(value) if chance else number(value)
        for col in ("mean", "std", "p_any", "p_all", "p_pinned", "mean_per_100pts"):
            v = pd.to_numeric(rec.get(col), errors="coerce")
            if pd.notna(v):
                suffix = f" {unit}" if col in ("mean", "std") and unit else ""
                shown = percent(v) if is_chance(col) else number(v)
                lines.append(f"{_HOVER_NAMES.get(col, col)} = {shown}{suffix}")
        nm = rec.get("not_modelled")
        if isinstance(nm, (list, tuple)) and nm:
            nm = ", ".join(map(str, nm))
        if isinstance(nm, str) and nm:
            lines.append(f"not modelled: {escape(nm)}")
        hover[i][j] = "<br>".join(lines)
    label = METRIC_LABELS.get(o.metric, escape(o.metric))
    if o.metric == "mean" and o.unit:
        label = f"expected {escape(o.unit)}"
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=cols,
            y=rows,
            colorscale=o.colorscale,
            customdata=hover,
            hovertemplate="%{customdata}<extra></extra>",
            colorbar={"title": {"text": label, "side": "right"}, "tickformat": ".0%" if chance else None},
            zmin=0.0 if chance else None,
            zmax=1.0 if chance else None,
            text=text if o.annotate else None,
            texttemplate="%{text}" if o.annotate else None,
            hoverongaps=True,
        )
    )
    fig.update_layout(
        title=title_layout(escape(o.title) if o.title else f"Weapon x target: {label}"),
        xaxis={"title": {"text": "target (unit)"}, "side": "bottom"},
        yaxis={"title": {"text": escape(o.row_title)}, "autorange": "reversed", "automargin": True},
        height=max(320, 140 + 28 * len(rows)),
    )
    return fig


# ---------------------------------------------------------------------------------------- at-least curves
@dataclass(frozen=True)
class AtLeastOptions:
    """Options of :func:`at_least_curves`.

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


def at_least_curves(pmfs: Mapping[str, Any], options: AtLeastOptions | None = None) -> go.Figure:
    """One line of P(X >= k) against k per weapon, for several weapons on one target.

    Args:
        pmfs: weapon label -> distribution (Dist, result mapping or pmf sequence); insertion order is kept.
    """
    o = options or AtLeastOptions()
    fig = go.Figure()
    top = 0
    best = 0.0
    for i, (name, dist) in enumerate(pmfs.items()):
        tail = at_least(as_pmf(dist))
        k = np.arange(o.min_k, tail.size)
        top = max(top, tail.size - 1)
        best = max(best, float(tail[o.min_k :].max()) if tail.size > o.min_k else 0.0)
        fig.add_trace(
            go.Scatter(
                x=k,
                y=tail[o.min_k :],
                mode="lines+markers",
                name=escape(name),
                line={"shape": "hv", "color": colour(i)},
                marker={"color": colour(i)},
                hovertemplate=(
                    f"{escape(name)}<br>P(at least %{{x}} {escape(o.unit)}) = %{{y:{PCT_FMT}}}<extra></extra>"
                ),
            )
        )
    if best < 5e-4:
        fig.add_annotation(
            text=f"no weapon here has even a 0.05% chance of {o.min_k} or more {escape(o.unit)}",
            showarrow=False,
            xref="paper",
            yref="paper",
            x=0.5,
            y=0.5,
        )
    title = (
        escape(o.title) if o.title else "Chance of at least k" + (f" against {escape(o.target)}" if o.target else "")
    )
    fig.update_layout(
        title=title_layout(title),
        xaxis={"title": {"text": f"{escape(o.outcome)} k ({escape(o.unit)})"}, "dtick": 1 if top <= 30 else None},
        yaxis={"title": {"text": "P(X ≥ k) (probability)"}, "range": [0, 1.02], "tickformat": ".0%"},
        hovermode="closest",
        legend={"orientation": "h", "y": -0.25},
        margin={"b": 100},
    )
    return fig


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
    series = {"P(≥1 glancing hit)": [], "P(≥1 penetrating hit)": [], "P(wrecked)": []}
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
