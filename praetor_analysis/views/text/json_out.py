"""Tables as the JSON the commands print (``praetor roster --json``, ``praetor roster --list --json``) and the
roster report embeds: rows of plain values, NaN as null."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd

from praetor_analysis.analysis import JSON_COLUMNS, WHOLE_LIST, listing_frame, note_list
from praetor_analysis.bsdata import Hh3Roster

__all__ = ["json_rows", "list_json_rows", "listing_json"]


def json_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The rows of a rating frame as ``praetor roster --json`` prints them (:data:`JSON_COLUMNS`; points as a
    whole number, NaN as null), each with ``not_modelled`` (a list of notes) and ``reasons`` (note -> why)."""
    rows = frame[JSON_COLUMNS].astype(object).where(frame[JSON_COLUMNS].notna(), None)
    notes = frame["notes"] if "notes" in frame else frame.get("not_modelled", pd.Series([""] * len(frame)))
    whys = frame["reasons"] if "reasons" in frame else pd.Series([""] * len(frame))
    return [
        {**{str(k): v for k, v in r.items()}, "points": round(r["points"]), "not_modelled": note_list(n),
         "reasons": json.loads(w) if isinstance(w, str) and w else {}}
        for r, n, w in zip(rows.to_dict(orient="records"), notes.tolist(), whys.tolist(), strict=True)
    ]  # fmt: skip


def list_json_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The unit rows of :func:`~praetor_analysis.analysis.analyse_roster` (not the whole list) as
    ``praetor roster --json`` prints them."""
    units = frame[frame["unit"] != WHOLE_LIST]
    return json_rows(units.rename(columns={"unit_points": "points", "mean_per_100pts": "per_100_pts"}))


def listing_json(roster: Hh3Roster) -> dict[str, Any]:
    """The listing as JSON: the roster's edition, name, declared points, units and the selections outside units."""
    return {
        "edition": roster.edition,
        "roster": roster.name,
        "points": roster.points,
        "units": listing_frame(roster).to_dict(orient="records"),
        "not_in_units": [{"name": n.name, "force": n.force, "points": n.points} for n in roster.not_read],
        "unaccounted": roster.unaccounted(),
    }
