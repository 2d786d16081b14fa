"""The workbench's targets beyond the target list, and its chart (pure).

A target may be a datasheet at a size, Legion and loadout (points per model as ``praetor calc`` prices it), a
custom statline (models, T, W, saves, points per model if given) or a unit of a loaded roster
(:mod:`praetor_analysis.views.workbench.roster`). :func:`setup_targets` reads them back from a saved setup;
:func:`cells_heatmap` draws one measure of every cell.
"""

from __future__ import annotations

import html
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from praetor_analysis.views.formats import number, title_layout
from praetor_analysis.views.workbench.roster import LoadedRoster, roster_name_of
from praetor_analysis.views.workbench.view import Attacker, Target

__all__ = ["cells_heatmap", "setup_targets", "sheet_target", "statline_target"]


def sheet_target(label: str, block: Mapping[str, Any]) -> Target:
    """A datasheet block as a target, its points per model as ``praetor calc`` prices its loadout.

    Raises:
        ScenarioError: A bad block (a size or an option the data does not allow), naming ``target``.
    """
    from praetor_analysis.units import fielded_unit

    unit = fielded_unit(dict(block), "target")
    return Target(label, dict(block), unit.points / unit.size if unit.size else float("nan"))


def statline_target(models: int, toughness: int, wounds: int, save: str, invulnerable: str, per: int) -> Target:
    """A custom statline as a target (``per``: points per model, 0 for none)."""
    label = f"{models} x T{toughness} W{wounds} Sv{save}" + (f" Inv{invulnerable}" if invulnerable != "-" else "")
    label += " (statline)"
    block: dict[str, Any] = {"name": label, "models": models, "T": toughness, "W": wounds}
    block.update({"Save": save, "Invulnerable": invulnerable})
    if per:
        block["points"] = per * models
    return Target(label, block, float(per) if per else float("nan"))


def setup_targets(
    attackers: Sequence[Attacker], targets: Sequence[Target], roster: LoadedRoster | None, known: Collection[str]
) -> dict[str, Target]:
    """The datasheet, statline and roster targets of a loaded setup (priced again), after checking that each
    roster unit it names is one of the loaded ``roster``'s; a plain name must be one of ``known``.

    Raises:
        ScenarioError: A roster not loaded, or a unit it does not have; a name not in the list; a bad datasheet.
    """
    from praetor_analysis.errors import ScenarioError

    extra: dict[str, Target] = {}
    for what, block, label in [
        *(("attacker", a.block, a.label) for a in attackers),
        *(("target", t.block, t.label) for t in targets),
    ]:
        name = roster_name_of(block)
        if name is not None:
            unit = str(block.get("unit"))
            if roster is None or roster.name != name or unit not in roster.labels:
                raise ScenarioError(f"{what} {label!r} is unit {unit!r} of the roster {name!r}: load that roster first")
            if what == "target":
                extra[label] = roster.target(roster.labels.index(unit))
        elif what == "target" and isinstance(block, Mapping) and "T" in block:  # a statline
            points = block.get("points")
            per = float(points) / int(block.get("models", 1)) if isinstance(points, (int, float)) else float("nan")
            extra[label] = Target(label, dict(block), per)
        elif what == "target" and isinstance(block, Mapping) and set(block) - {"name"}:
            extra[label] = sheet_target(label, block)
        elif what == "target" and label not in known:
            raise ScenarioError(f"target {label!r} is not in the target list")
    return extra


def cells_heatmap(
    frame: pd.DataFrame, rows: Sequence[str], columns: Sequence[str], measure: str, title: str
) -> go.Figure:
    """The heatmap of one measure of the cells (``frame``: :func:`cells_table`, attackers ``rows`` x targets
    ``columns``); a cell without it says so ('no points', 'refused'), never drawn as another measure."""
    z = np.full((len(rows), len(columns)), np.nan)
    text = [["" for _ in columns] for _ in rows]
    for n, row in enumerate(frame.to_dict("records")):
        i, j = divmod(n, len(columns))
        value = row.get(measure)
        if value is not None and value == value:
            z[i, j] = value
            text[i][j] = number(value)
        else:
            text[i][j] = "refused" if row.get("error") else "no points"
    return go.Figure(
        go.Heatmap(
            z=z.tolist(),
            x=list(columns),
            y=list(rows),
            text=text,
            texttemplate="%{text}",
            colorscale="Viridis",
            hovertemplate="%{y}<br>vs %{x}<br>%{text}<extra></extra>",
        ),
        layout={
            "title": title_layout(html.escape(title)),
            "height": 160 + 40 * len(rows),
            "yaxis": {"autorange": "reversed", "automargin": True},
            "xaxis": {"automargin": True},
            "margin": {"l": 10, "r": 10, "t": 50, "b": 10},
        },
    )
