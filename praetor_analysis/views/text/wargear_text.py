"""`praetor wargear`'s text: each option once, with who may take it and the data's group, cut to the terminal.

The frame of :func:`~praetor_analysis.analysis.wargear.wargear_value` has a row per option, model slot and
phase; an option offered to several slots with the same price and the same result (a Volkite Charger for the
Sergeant, a Legionary and the whole squad) is one line here, its slots joined under "who".
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from praetor_analysis.views.text.fit import fit_table, wrap

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["option_lines", "slot_name", "wargear_screen", "wargear_title"]

AS_FIELDED = "(as fielded)"


def slot_name(model: str) -> str:
    """A model slot as a player says it: ``(unit)`` -> ``whole unit``; the data's trailing colon dropped."""
    text = model.strip().rstrip(":").strip()
    return "whole unit" if text == "(unit)" else text


def _number(x: float, fmt: str = "{:.3f}", none: str = "-") -> str:
    return none if x is None or (isinstance(x, float) and math.isnan(x)) else fmt.format(x)


def option_lines(frame: pd.DataFrame) -> list[dict[str, str]]:
    """The rated rows of a wargear frame, one per option, price, phase and result (slots joined), in order."""
    rated = frame[frame["phase"] != ""]
    out: dict[tuple[str, float, str, float], dict[str, str]] = {}
    for r in rated.to_dict(orient="records"):
        key = (str(r["option"]), float(r["points"]), str(r["phase"]), round(float(r["mean"]), 12))
        who = slot_name(str(r["model"])) if str(r["option"]) != AS_FIELDED else ""
        if key in out:
            if who and who not in out[key]["who"].split(", "):
                out[key]["who"] += f", {who}"
            continue
        noun = "HP" if r["measure"] == "hull_points" else "models"
        out[key] = {
            "option": str(r["option"]),
            "who": who,
            "group": str(r["group"]),
            "pts": f"+{float(r['points']):.0f}",
            "phase": str(r["phase"]),
            "result": f"{float(r['mean']):.3f} {noun}",
            "gain": _number(float(r["gain"]), "{:+.3f}"),
            "gain/100 pts": _number(float(r["gain_per_100_pts"]), "{:.3f}", "free" if r["points"] == 0 else "-"),
            "unit/100 pts": _number(float(r["per_100_pts"])),
        }
    return list(out.values())


def wargear_screen(frame: pd.DataFrame, title: str, *, width: int, top: int | None, show_all: bool) -> list[str]:
    """The text of ``praetor wargear``: a title, the options (the first ``top`` unless ``show_all``) and the
    options not rated, each line at most ``width`` characters."""
    lines = option_lines(frame)
    shown = lines if show_all or top is None else lines[:top]
    columns = ["option", "who", "group", "pts", "phase", "result", "gain/100 pts"]
    if show_all:
        columns += ["gain", "unit/100 pts"]
    rows = [[line[c] for c in columns] for line in shown]
    right = [i for i, c in enumerate(columns) if c in ("pts", "result", "gain", "gain/100 pts", "unit/100 pts")]
    table = fit_table(_headers(columns, frame), rows, width, right=right, shrink={2: 8, 1: 12, 0: 24})
    out = [x for text in title.splitlines() for x in wrap(text, width)] + table
    more = len(lines) - len(shown)
    if more:
        out += wrap(f"{more} more rated options: --top N or --all.", width)
    notes = frame[frame["phase"] == ""]
    for note, part in notes.groupby("note", sort=False):
        names = sorted({str(o) for o in part["option"]})
        if show_all:
            text = f"Not rated, {note} ({len(names)}): {', '.join(names)}."
            out += wrap(text, width, indent="  ")
        else:
            listed = ", ".join(names[:6]) + (f" and {len(names) - 6} more (--all)" if len(names) > 6 else "")
            out += wrap(f"Not rated, {note} ({len(names)}): {listed}.", width, indent="  ")
    return out


def _headers(columns: list[str], frame: pd.DataFrame) -> list[str]:
    """The columns as headers naming their unit: ``HP gain/100 pts`` (the noun of the rated rows' measure)."""
    measures = set(frame.loc[frame["phase"] != "", "measure"])
    noun = "HP" if measures == {"hull_points"} else "models" if "hull_points" not in measures else "models or HP"
    named = {"gain": f"{noun} gain", "gain/100 pts": f"{noun} gain/100 pts", "unit/100 pts": f"unit {noun}/100 pts"}
    return [named.get(c, c) for c in columns]


def wargear_title(frame: pd.DataFrame, datasheet: str, target: str, *, edition: str = "hh2", legion: str | None = None
                  ) -> str:  # fmt: skip
    """The title of ``praetor wargear``: the unit as fielded against the target, the measure, and which options are
    offered (the 2nd edition: those every Legion may take and the ``legion``'s; the 3rd: the datasheet's own)."""
    base = frame[frame["option"] == AS_FIELDED]
    points = base["unit_points"].iloc[0] if len(base) else float("nan")
    measure = "hull points" if (base["measure"] == "hull_points").any() else "models removed"
    as_is = ", ".join(f"{r['phase']} {r['mean']:.3f}" for _, r in base.iterrows())
    if edition == "hh3":
        offered = "3rd edition: every option the datasheet offers (a Legion's own are on its own datasheets)"
    else:
        offered = (f"Legion {legion}: its options and" if legion else "No Legion given:") + " the options every Legion "
        offered += "may take"
    return (
        f"{datasheet} against {target}: {points:.0f} pts as fielded ({as_is})\n"
        f"Mean = {measure}, the unit charging in melee. {offered}, each taken alone, ranked by gain per 100 points "
        "(free: no cost)."
    )
