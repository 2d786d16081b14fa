"""The dashboard's roster tab: a loaded list's units against the chosen targets (pure).

:func:`roster_view` reads the roster bytes (``.ros`` or ``.rosz``), runs the list analysis
(:func:`praetor_analysis.analysis.list_analysis.analyse_roster`) and draws units x targets; bad files give a
message, never an exception. The list analysis is imported with this module, so a pre-heated kernel has it
ready before a reader loads a list.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from praetor_analysis.analysis import WHOLE_LIST, analyse_roster
from praetor_analysis.bsdata import UntrustedFileError, read_roster_bytes
from praetor_analysis.catalog import load_targets
from praetor_analysis.errors import PraetorError
from praetor_analysis.units import read_roster_units
from praetor_analysis.views.figures import plots as F
from praetor_analysis.views.formats import number, title_layout
from praetor_analysis.views.tables import row_at_max

__all__ = ["RosterView", "roster_view"]


@dataclass(frozen=True)
class RosterView:
    """The figure (expected models removed, unit x target), a summary line and the analysis table."""

    figure: go.Figure
    summary: str
    table: pd.DataFrame


def roster_view(data: bytes | None, name: str, targets: pd.DataFrame, *, half_range: bool = False) -> RosterView:
    """The list analysis of roster bytes against ``targets`` (targets that are not vehicles are drawn)."""
    empty = pd.DataFrame()
    if not data:
        fig = go.Figure(layout={"title": title_layout("Load a roster (.ros or .rosz) to see its units here")})
        return RosterView(fig, "No roster loaded.", empty)
    try:
        roster = read_roster_bytes(bytes(data), name)
    except (UntrustedFileError, ValueError) as exc:
        fig = go.Figure(layout={"title": title_layout("The roster could not be read")})
        return RosterView(fig, f"Not read: {exc}", empty)
    if roster.edition == "hh3" and "SAV" not in targets.columns:  # a 3rd-edition roster: that edition's targets
        targets = load_targets("hh3")
    try:
        table = analyse_roster(roster, targets, half_range=half_range)
    except PraetorError as exc:
        fig = go.Figure(layout={"title": title_layout("The roster's units could not be read")})
        return RosterView(fig, f"Not read: {exc}", empty)
    units = table[(table["unit"] != WHOLE_LIST) & (table["measure"] == "casualties")]
    label = units["unit"].astype(str) + " (" + units["phase"].astype(str) + ")"
    frame = units.assign(weapon=label, weapon_id=units["unit_index"].astype(str) + ":" + units["phase"].astype(str))
    title = f"{roster.name} ({number(roster.points)} pts): expected models removed, shooting and melee (charging)"
    fig = F.efficiency_heatmap(frame, F.HeatmapOptions(metric="mean", title=title, row_title="unit", unit="models"))
    whole = table[table["unit"] == WHOLE_LIST]
    whole = whole[whole["measure"] == "casualties"]
    best = row_at_max(whole, pd.to_numeric(whole["mean"], errors="coerce")) if len(whole) else None
    summary = read_roster_units(bytes(data), name).account()
    if best is not None:
        summary += (
            f"; the whole list does most to {best['target']} in {best['phase']} ({number(best['mean'])} "
            f"{best['measure']}, the sum over its units, each at a fresh target)"
        )
    return RosterView(fig, summary.replace("_", " "), table)
