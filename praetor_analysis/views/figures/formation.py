"""The formation picture: bases, the blast marker at the aim point and the ring of its furthest scatter."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import plotly.graph_objects as go

from praetor_analysis.errors import counted_noun
from praetor_analysis.views.formats import escape, title_layout

__all__ = ["FormationOptions", "formation_figure"]


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
    aim_point: Sequence[float] | np.ndarray,
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
        title=title_layout(f"{escape(o.title)}: {counted_noun(len(pos), 'model')}, {len(under)} under the marker"),
        xaxis={"title": {"text": "x (inches)"}, "zeroline": False},
        yaxis={"title": {"text": "y (inches)"}, "scaleanchor": "x", "scaleratio": 1, "zeroline": False},
        legend={"orientation": "h", "y": -0.2},
    )
    return fig
