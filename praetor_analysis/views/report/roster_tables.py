"""A list analysis as the report shows it: unit rows labelled by phase, and the table embedded as JSON.

Pure functions of :func:`praetor_analysis.analysis.list_analysis.analyse_roster`'s frame.
"""

from __future__ import annotations

import html
import json

import pandas as pd

__all__ = ["data_script", "notes_html", "unit_rows"]


def unit_rows(analysis: pd.DataFrame) -> pd.DataFrame:
    """The unit rows of a list analysis, labelled by unit and phase (``Tactical Squad (melee)``)."""
    from praetor_analysis.analysis import WHOLE_LIST

    units = analysis[analysis["unit"] != WHOLE_LIST]
    label = units["unit"].astype(str) + " (" + units["phase"].astype(str) + ")"
    ids = units["unit_index"].astype(str) + ":" + units["phase"].astype(str)
    return units.assign(unit=label, weapon=label, weapon_id=ids)


def data_script(analysis: pd.DataFrame) -> str:
    """The list's unit rows as JSON (``praetor roster --json`` rows), for other tools to read from the page."""
    from praetor_analysis.views.text import list_json_rows

    text = json.dumps(list_json_rows(analysis), allow_nan=False, ensure_ascii=True)
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return f'<script type="application/json" id="praetor-data">{text}</script>'


def notes_html(analysis: pd.DataFrame) -> str:
    """The footnote of the roster table: each unit's notes of what was not modelled (escaped), or nothing."""
    from praetor_analysis.analysis import WHOLE_LIST, unit_notes

    units = analysis[analysis["unit"] != WHOLE_LIST]
    column = units["notes"] if "notes" in units else units["not_modelled"]
    notes = unit_notes(zip(units["unit"].astype(str), column, strict=True))
    if not notes:
        return ""
    items = "".join(
        f"<li><strong>{html.escape(unit)}</strong>: {html.escape('; '.join(found))}</li>"
        for unit, found in notes.items()
    )
    return f'<div class="note not-modelled"><p>Not modelled ({len(notes)} units):</p><ul>{items}</ul></div>'
