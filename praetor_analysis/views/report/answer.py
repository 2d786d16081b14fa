"""The answer of a report: the best choice per target, and per 100 points (re-exported by ``views.report.page``).

:func:`best_table` ranks the rows of a comparison (or a roster's units) per target, by expected damage and by
expected damage per 100 points. A weapon has no points of its own; the per-point answer of the default report
comes from the iconic weapons fielded on the datasheets that carry them
(:func:`praetor_analysis.analysis.per_point.per_point_table`), shown by :func:`per_point_html`.
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from praetor_analysis.views.figures import plots as F
from praetor_analysis.views.formats import number, percent
from praetor_analysis.views.report.explorer import MEASURE_NAMES
from praetor_analysis.views.tables import row_at_max, table_html

__all__ = ["best_table", "fielded_best_table", "fielded_labels", "per_point_html"]


def _numbers(df: pd.DataFrame) -> pd.DataFrame:
    per_pt = df["mean_per_100pts"] if "mean_per_100pts" in df else pd.Series(np.nan, index=df.index)
    return df.assign(_m=pd.to_numeric(df["mean"], errors="coerce"), _p=pd.to_numeric(per_pt, errors="coerce"))


def fielded_labels(per_point: pd.DataFrame) -> pd.Series:
    """``"Lascannon: Heavy Support Squad (5 models, Lascannon; 150 pts)"``, one per row of a per-point table."""
    points = per_point["points"].map(lambda p: f"{p:.0f} pts" if p == p else "no price")
    own = per_point["label"] == per_point["datasheet"]
    named = per_point["label"] + ": " + per_point["datasheet"]
    return named.where(~own, per_point["label"]) + " (" + per_point["loadout"] + "; " + points + ")"


def _fielded_best(per_point: pd.DataFrame | None, target: str) -> tuple[str, float, str] | None:
    """The fielded row with the most effect per 100 points against ``target``: (label, value, unit)."""
    if per_point is None or per_point.empty:
        return None
    part = per_point[(per_point["target"] == target)]
    part = part[pd.to_numeric(part["per_100_pts"], errors="coerce").notna()]
    if part.empty:
        return None
    best = row_at_max(part, pd.to_numeric(part["per_100_pts"]))
    unit = MEASURE_NAMES.get(str(best["measure"]), ("", "models"))[1]
    phase = "" if best["phase"] == "shooting" else f", {best['phase']}"
    return f"{fielded_labels(part.loc[[best.name]]).iloc[0]}{phase}", float(best["per_100_pts"]), unit


def best_table(
    df: pd.DataFrame,
    row_col: str,
    row_kind: str,
    wounds: pd.DataFrame | None = None,
    per_point: pd.DataFrame | None = None,
) -> str:
    """One line per target: the best row by expected damage and by expected damage per 100 points.

    Where no row has a 5% chance of removing a model and ``wounds`` has the target, unsaved wounds rank.
    Rows without a points cost of their own (catalog weapons) are ranked per point through ``per_point``:
    the best fielded datasheet per 100 points against the target.
    """
    frame = _numbers(df)
    spare = _numbers(wounds) if wounds is not None and len(wounds) else None
    lines = []
    for target, part in frame.groupby("target", sort=False):
        part = part[part["_m"].notna()]
        if part.empty:
            continue
        tiny = pd.to_numeric(part["p_any"], errors="coerce").max() < 0.05
        if str(part["measure"].iloc[0]) == "casualties" and tiny and spare is not None:
            alt = spare[(spare["target"] == target) & spare["_m"].notna()]
            part = alt if len(alt) else part
        unit = MEASURE_NAMES.get(str(part["measure"].iloc[0]), ("", "models"))[1]
        best = row_at_max(part, part["_m"])
        row = {
            "target": target,
            f"best {row_kind}": best[row_col] if best["_m"] > 0 else "none does any damage",
            "expected": f"{number(best['_m'])} {unit}",
            "P(at least one)": percent(best.get("p_any")),
        }
        costed = part[part["_p"].notna()]
        fielded = _fielded_best(per_point, str(target))
        if len(costed):
            good = row_at_max(costed, costed["_p"])
            row[f"best {row_kind} per 100 pts"] = good[row_col]
            row["expected per 100 pts"] = f"{number(good['_p'])} {unit}"
        elif fielded is not None:
            row[f"best {row_kind} per 100 pts, as fielded"] = fielded[0]
            row["expected per 100 pts"] = f"{number(fielded[1])} {fielded[2]}"
        lines.append(row)
    out = pd.DataFrame(lines)
    note = ""
    if len(out) and not any(str(c).startswith(f"best {row_kind} per 100 pts") for c in out.columns):
        kind = html.escape(row_kind)
        note = f'<p class="note">No {kind} here has a points cost of its own, so none is ranked per point.</p>'
    return table_html(out) + note if len(out) else ""


def fielded_best_table(per_point: pd.DataFrame) -> str:
    """:func:`best_table` of a per-point table alone (no weapon comparison): the best fielded row per target, by
    expected effect and per 100 points (each row with its phase)."""
    rated = per_point[pd.to_numeric(per_point["mean"], errors="coerce").notna()]
    labels = fielded_labels(rated) + rated["phase"].map(lambda p: "" if p == "shooting" else f" [{p}]")
    return best_table(rated.assign(_label=labels, mean_per_100pts=rated["per_100_pts"]), "_label", "datasheet")


def _figure_div(fig: go.Figure) -> str:
    config = {"displaylogo": False, "responsive": True}
    return f'<div class="figure">{pio.to_html(fig, full_html=False, include_plotlyjs=False, config=config)}</div>'


def per_point_html(per_point: pd.DataFrame) -> str:
    """The per-point section: heatmaps of effect per 100 points (one per measure and phase) of the iconic
    weapons fielded on datasheets and of the iconic datasheets, then the table (collapsed)."""
    rated = per_point[pd.to_numeric(per_point["per_100_pts"], errors="coerce").notna()]
    if rated.empty:
        return ""
    frame = rated.assign(
        weapon=fielded_labels(rated) + rated["phase"].map(lambda p: "" if p == "shooting" else f" [{p}]"),
        mean_per_100pts=rated["per_100_pts"],
    )
    frame = frame.assign(weapon_id=frame["weapon"])
    parts = [
        '<p class="note">A weapon has no points of its own: each iconic weapon is rated as the option that puts it '
        "on a named datasheet, the whole unit fielded and priced as <code>praetor calc</code> reads it, and a few "
        "iconic datasheets as fielded; models removed (hull points of a vehicle) by the unit per 100 of its points. "
        "In melee the unit charges and the target does not strike back. <code>praetor wargear DATASHEET --target "
        "NAME</code> ranks every option of a datasheet.</p>"
    ]
    for measure, title in (
        ("casualties", "Models removed per 100 points"),
        ("hull_points", "Hull points per 100 points"),
    ):
        part = frame[frame["measure"] == measure]
        if len(part):
            opts = F.HeatmapOptions(metric="mean_per_100pts", title=title, row_title="fielded", unit=None)
            parts.append(_figure_div(F.efficiency_heatmap(part, opts)))
    columns = ["kind", "label", "datasheet", "loadout", "points", "target", "phase", "mean", "per_100_pts", "measure",
               "weapons", "not_modelled", "error"]  # fmt: skip
    parts.append(f"<details><summary>Per 100 points, as fielded: the table</summary>{table_html(per_point, columns)}"
                 "</details>")  # fmt: skip
    return "\n".join(parts)
