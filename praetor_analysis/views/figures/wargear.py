"""The figure of wargear per point: what each option of a datasheet adds for each point it costs."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from praetor_analysis.views.formats import colour, escape, title_layout

__all__ = ["WargearOptions", "wargear_figure"]


@dataclass(frozen=True)
class WargearOptions:
    """Options of :func:`wargear_figure`.

    Attributes:
        title: Figure title (default: wargear per point).
        top: Most options drawn, best first.
    """

    title: str | None = None
    top: int = 20


def wargear_figure(df: pd.DataFrame, options: WargearOptions | None = None) -> go.Figure:
    """Horizontal bars of ``gain_per_100_pts`` per option, one colour (trace) per phase.

    Args:
        df: :func:`~praetor_analysis.analysis.wargear.wargear_value`.
        options: Title and how many options to draw.

    Free options (no gain per point) are named in the subtitle rather than drawn; the rows of the datasheet as
    fielded and of the options not rated (no weapon, refused) are left out.
    """
    o = options or WargearOptions()
    df = df[(df["phase"] != "") & (df["option"] != "(as fielded)")] if "phase" in df else df  # rated options only
    frame = df.assign(_label=df["option"] + " (" + df["model"] + ", " + df["points"].map("{:.0f} pts".format) + ")")
    drawn = frame[frame["gain_per_100_pts"].notna()]
    order = list(dict.fromkeys(drawn.sort_values("gain_per_100_pts", ascending=False)["_label"]))[: o.top]
    fig = go.Figure()
    for n, (phase, part) in enumerate(drawn[drawn["_label"].isin(order)].groupby("phase", sort=False)):
        fig.add_trace(
            go.Bar(
                x=part["gain_per_100_pts"],
                y=part["_label"].map(escape),
                orientation="h",
                name=escape(phase),
                marker_color=colour(n),
                customdata=np.column_stack([part["gain"].to_numpy(float), part["mean"].to_numpy(float)]),
                hovertemplate="%{y}<br>gain per 100 pts = %{x:.3g}<br>gain = %{customdata[0]:.3g}"
                "<br>mean with it = %{customdata[1]:.3g}<extra></extra>",
            )
        )
    free = sorted(set(frame.loc[frame["gain_per_100_pts"].isna(), "option"]))
    what = "hull points" if "measure" in df and (df["measure"] == "hull_points").any() else "models removed"
    title = escape(o.title) if o.title else f"Wargear per point: {what} added per 100 points of the option"
    if free:
        title += f"<br><sup>free options: {escape(', '.join(free[:6]))}{' ...' if len(free) > 6 else ''}</sup>"
    fig.update_layout(
        title=title_layout(title),
        barmode="group",
        xaxis={"title": {"text": "gain per 100 pts"}},
        yaxis={"categoryorder": "array", "categoryarray": [escape(x) for x in order[::-1]]},
        height=max(320, 140 + 24 * max(1, len(order))),
    )
    return fig
