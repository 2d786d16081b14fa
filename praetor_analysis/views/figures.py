"""Plotly figures: data in, ``go.Figure`` out.

Every function takes the data first (a distribution, a comparison DataFrame from
:func:`praetor_analysis.analysis.compare.compare`, positions...) and a typed options dataclass, and returns a new
``go.Figure``; none calls ``show()`` or computes probabilities beyond reading the input (a cumulative sum
for "at least k" excepted). Every figure has a title, labelled axes with units and hover text with the
values to six significant figures.

Strings that come from data files (weapon, target and faction names) are HTML-escaped before they reach
Plotly, whose labels understand a little HTML: a name such as ``<b>Bolter</b>`` shows as typed.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

__all__ = [
    "METRIC_LABELS",
    "AtLeastOptions",
    "DistributionOptions",
    "FormationOptions",
    "HeatmapOptions",
    "PointsOptions",
    "VehicleOptions",
    "as_pmf",
    "at_least",
    "at_least_curves",
    "distribution_figure",
    "efficiency_heatmap",
    "escape",
    "formation_figure",
    "points_efficiency_bars",
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
_UNITS = {"casualties": "models", "hull_points": "hull points"}
_HOVER_FMT = ".6g"


def escape(text: object) -> str:
    """A data string made safe for Plotly labels (``<``, ``>`` and ``&`` escaped; Plotly shows them as typed).

    Quotes are kept: Plotly's labels treat them as text, and it does not decode ``&quot;``.
    """
    return html.escape("" if text is None else str(text), quote=False)


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


def _title(text: str) -> dict[str, Any]:
    return {"text": text, "x": 0.02, "xanchor": "left"}


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
            hovertemplate=f"k = %{{x}} {escape(o.unit)}<br>P(X = k) = %{{y:{_HOVER_FMT}}}<extra></extra>",
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
            hovertemplate=f"k = %{{x}} {escape(o.unit)}<br>P(X ≥ k) = %{{y:{_HOVER_FMT}}}<extra></extra>",
        )
    )
    fig.update_layout(
        title=_title(f"{escape(o.title)} (mean {mean:.4g} {escape(o.unit)})"),
        xaxis={"title": {"text": f"{escape(o.outcome)} k ({escape(o.unit)})"}, "dtick": 1 if pmf.size <= 30 else None},
        yaxis={"title": {"text": "P(X = k) (probability)"}, "rangemode": "tozero"},
        yaxis2={
            "title": {"text": "P(X ≥ k) (probability)"},
            "overlaying": "y",
            "side": "right",
            "range": [0, 1.02],
            "showgrid": False,
            "tickmode": "linear",
            "tick0": 0,
            "dtick": 0.2,
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
    """

    metric: str = "mean"
    title: str | None = None
    colorscale: str = "Viridis"
    annotate: bool = True


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
            text[i][j] = f"{float(value):.3g}"
        for col in ("mean", "std", "p_any", "p_all", "p_pinned", "mean_per_100pts"):
            v = pd.to_numeric(rec.get(col), errors="coerce")
            if pd.notna(v):
                suffix = f" {unit}" if col in ("mean", "std") and unit else ""
                lines.append(f"{col} = {float(v):{_HOVER_FMT}}{suffix}")
        nm = rec.get("not_modelled")
        if isinstance(nm, (list, tuple)) and nm:
            nm = ", ".join(map(str, nm))
        if isinstance(nm, str) and nm:
            lines.append(f"not modelled: {escape(nm)}")
        hover[i][j] = "<br>".join(lines)
    label = METRIC_LABELS.get(o.metric, escape(o.metric))
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=cols,
            y=rows,
            colorscale=o.colorscale,
            customdata=hover,
            hovertemplate="%{customdata}<extra></extra>",
            colorbar={"title": {"text": label, "side": "right"}},
            text=text if o.annotate else None,
            texttemplate="%{text}" if o.annotate else None,
            hoverongaps=True,
        )
    )
    fig.update_layout(
        title=_title(escape(o.title) if o.title else f"Weapon x target: {label}"),
        xaxis={"title": {"text": "target (unit)"}, "side": "bottom"},
        yaxis={"title": {"text": "weapon (profile)"}, "autorange": "reversed"},
        height=max(320, 120 + 28 * len(rows)),
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
    for name, dist in pmfs.items():
        tail = at_least(as_pmf(dist))
        k = np.arange(o.min_k, tail.size)
        top = max(top, tail.size - 1)
        fig.add_trace(
            go.Scatter(
                x=k,
                y=tail[o.min_k :],
                mode="lines+markers",
                name=escape(name),
                line={"shape": "hv"},
                hovertemplate=(
                    f"{escape(name)}<br>P(at least %{{x}} {escape(o.unit)}) = %{{y:{_HOVER_FMT}}}<extra></extra>"
                ),
            )
        )
    title = (
        escape(o.title) if o.title else "Chance of at least k" + (f" against {escape(o.target)}" if o.target else "")
    )
    fig.update_layout(
        title=_title(title),
        xaxis={"title": {"text": f"{escape(o.outcome)} k ({escape(o.unit)})"}, "dtick": 1 if top <= 30 else None},
        yaxis={"title": {"text": "P(X ≥ k) (probability)"}, "range": [0, 1.02]},
        hovermode="closest",
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
    """

    metric: str = "mean_per_100pts"
    title: str | None = None
    sort: bool = True


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
    for target, part in frame.groupby("target", sort=False):
        part = part[part["_v"].notna()]
        pts = pd.to_numeric(part.get("points", pd.Series(np.nan, index=part.index)), errors="coerce")
        fig.add_trace(
            go.Bar(
                x=part["_v"],
                y=part["_w"],
                orientation="h",
                name=escape(target),
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
    missing = sorted(set(frame["_w"]) - set(order))
    label = METRIC_LABELS.get(o.metric, escape(o.metric))
    title = escape(o.title) if o.title else f"Points efficiency: {label}"
    if missing:
        shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
        title += f"<br><sup>no points cost: {shown}</sup>"
    fig.update_layout(
        title=_title(title),
        barmode="group",
        xaxis={"title": {"text": label}, "rangemode": "tozero"},
        yaxis={"title": {"text": "weapon (profile)"}, "categoryorder": "array", "categoryarray": order[::-1]},
        height=max(320, 140 + 22 * max(1, len(order)) * max(1, len(fig.data)) ** 0.5),
    )
    return fig


# ------------------------------------------------------------------------------------- formation/scatter
@dataclass(frozen=True)
class FormationOptions:
    """Options of :func:`formation_figure`.

    Attributes:
        title: Figure title (escaped).
        scatter_max: Radius of the scatter range ring around the aim point, inches (2D6 - BS at most:
            ``12 - BS``; 12 for an indirect Barrage). ``None``: no ring.
        hit_models: Indices of models to colour as under the marker at the aim point (default: those
            whose base overlaps the marker there).
    """

    title: str = "Formation and scatter"
    scatter_max: float | None = 8.0
    hit_models: Sequence[int] | None = None


def _circle_path(cx: float, cy: float, r: float, n: int = 64) -> tuple[np.ndarray, np.ndarray]:
    t = np.linspace(0.0, 2.0 * np.pi, n + 1)
    return cx + r * np.cos(t), cy + r * np.sin(t)


def formation_figure(
    positions: Any,
    base_radius: float,
    marker_diameter: float,
    aim_point: Sequence[float],
    options: FormationOptions | None = None,
) -> go.Figure:
    """Bases as circles, the marker at the aim point and the ring of its furthest scatter.

    Args:
        positions: ``(n, 2)`` base centres, inches.
        base_radius: radius of every base, inches.
        marker_diameter: marker diameter, inches (3, 5, 7...).
        aim_point: ``(x, y)`` of the marker's centre before scatter, inches.
    """
    o = options or FormationOptions()
    pos = np.asarray(positions, dtype=np.float64).reshape(-1, 2)
    ax, ay = (float(v) for v in aim_point)
    r_marker = marker_diameter / 2.0
    if o.hit_models is None:
        dist = np.hypot(pos[:, 0] - ax, pos[:, 1] - ay) if len(pos) else np.zeros(0)
        under = set(np.flatnonzero(dist <= r_marker + base_radius).tolist())
    else:
        under = {int(i) for i in o.hit_models}
    fig = go.Figure()
    for i, (x, y) in enumerate(pos):
        fig.add_shape(
            type="circle",
            xref="x",
            yref="y",
            x0=x - base_radius,
            x1=x + base_radius,
            y0=y - base_radius,
            y1=y + base_radius,
            line={"color": "#333333", "width": 1},
            fillcolor="#E45756" if i in under else "#9ECAE9",
            opacity=0.8,
            layer="below",
        )
    fig.add_trace(
        go.Scatter(
            x=pos[:, 0],
            y=pos[:, 1],
            mode="markers+text",
            name="models",
            text=[str(i) for i in range(len(pos))],
            textposition="middle center",
            marker={"size": 2, "color": "#333"},
            customdata=[[i, "under the marker" if i in under else "clear"] for i in range(len(pos))],
            hovertemplate="model %{customdata[0]} at (%{x:.4g}, %{y:.4g}) in<br>%{customdata[1]}<extra></extra>",
        )
    )
    mx, my = _circle_path(ax, ay, r_marker)
    fig.add_trace(
        go.Scatter(
            x=mx,
            y=my,
            mode="lines",
            name=f'marker ({marker_diameter:g}")',
            fill="toself",
            line={"color": "#F58518", "width": 2},
            fillcolor="rgba(245,133,24,0.25)",
            hovertemplate=f'marker {marker_diameter:g}" at ({ax:.4g}, {ay:.4g}) in<extra></extra>',
        )
    )
    if o.scatter_max is not None and o.scatter_max > 0:
        rx, ry = _circle_path(ax, ay, float(o.scatter_max), 128)
        fig.add_trace(
            go.Scatter(
                x=rx,
                y=ry,
                mode="lines",
                name=f'scatter range ({o.scatter_max:g}")',
                line={"color": "#54A24B", "dash": "dash"},
                hovertemplate=f"furthest scatter of the centre: {o.scatter_max:g} in<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[ax],
            y=[ay],
            mode="markers",
            name="aim point",
            marker={"symbol": "x", "size": 10, "color": "#000"},
            hovertemplate="aim point (%{x:.4g}, %{y:.4g}) in<extra></extra>",
        )
    )
    fig.update_layout(
        title=_title(f"{escape(o.title)}: {len(pos)} models, {len(under)} under the marker"),
        xaxis={"title": {"text": "x (inches)"}, "zeroline": False},
        yaxis={"title": {"text": "y (inches)"}, "scaleanchor": "x", "scaleratio": 1, "zeroline": False},
        legend={"orientation": "h", "y": -0.2},
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
                    f"%{{x}}<br>{label} = %{{y:{_HOVER_FMT}}}"
                    f"<br>mean hull points removed = %{{customdata:{_HOVER_FMT}}}<extra></extra>"
                ),
            )
        )
    title = escape(o.title) if o.title else "Vehicle outcomes" + (f" against {escape(o.target)}" if o.target else "")
    fig.update_layout(
        title=_title(title),
        barmode="group",
        xaxis={"title": {"text": "weapon (profile)"}},
        yaxis={"title": {"text": "probability"}, "range": [0, 1.02]},
    )
    return fig
