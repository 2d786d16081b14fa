"""HTML tables of DataFrames: every string escaped, numbers a person reads."""

from __future__ import annotations

import contextlib
import html
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from praetor_analysis.analysis import COLUMNS
from praetor_analysis.views.formats import is_chance, number, percent

__all__ = ["COMPARISON_COLUMNS", "NO_COST", "row_at_max", "table_html"]

#: The columns of a weapons x targets comparison as the report and the dashboard print them (its ids left out).
COMPARISON_COLUMNS: tuple[str, ...] = tuple(c for c in COLUMNS if c not in ("weapon_id", "target_id"))
#: What a points cell says for a weapon the data gives no cost of its own (a unit's standard wargear).
NO_COST = "no cost of its own"


def row_at_max(frame: pd.DataFrame, values: pd.Series) -> pd.Series:
    """The row of ``frame`` at the label where ``values`` (a column of it, or aligned with it) is largest
    (the first such; NaN skipped): ``frame.loc[values.idxmax()]``."""
    return frame.loc[[values.idxmax()]].iloc[0]


def _cell(value: Any, column: str = "") -> tuple[str, bool]:
    """Escaped text of a cell (3 significant figures; chances as percentages) and whether it is a number."""
    if isinstance(value, (list, tuple, set)):
        return html.escape(", ".join(map(str, value))), False
    if isinstance(value, (bool, np.bool_)):
        return html.escape(str(value)), False
    if isinstance(value, (int, np.integer)):
        return str(int(value)), True
    if isinstance(value, (float, np.floating)):
        return html.escape(percent(value) if is_chance(column) else number(value)), True
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "", False
    return html.escape(str(value)), False


def table_html(
    df: pd.DataFrame,
    columns: Sequence[str] | None = None,
    *,
    caption: str | None = None,
    missing: Mapping[str, str] | None = None,
) -> str:
    """An HTML table of a DataFrame; every header and cell escaped; numbers to three significant figures,
    chances (``p_*`` columns) as percentages; columns with no value at all are left out, except those of
    ``missing``, whose missing values say its text instead."""
    cols = [c for c in (columns or df.columns) if c in df.columns]
    values = {c: df[c].tolist() for c in cols}
    for c, text in (missing or {}).items():
        if c in values:
            values[c] = [text if _missing(v) else v for v in values[c]]
    cols = [c for c in cols if c in (missing or {}) or not _empty_column(values[c])] or cols
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    rendered = [_column_cells(values[c], str(c)) for c in cols]
    body = ["<tr>" + "".join(row) + "</tr>" for row in zip(*rendered, strict=True)] if cols else ["<tr></tr>"] * len(df)
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="praetor">{cap}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _column_cells(values: list[Any], column: str) -> list[str]:
    """The ``<td>`` of each value of a column (a value seen before in the column is formatted once)."""
    if all(type(v) is float for v in values):  # a float column: each value formatted as _cell would
        fmt = percent if is_chance(column) else number
        return [f'<td class="num">{html.escape(fmt(v))}</td>' for v in values]
    seen: dict[tuple[type, Any], str] = {}  # keyed on the type too: True, 1 and 1.0 print differently
    out = []
    for v in values:
        key = (type(v), v)
        try:
            out.append(seen[key])
            continue
        except (KeyError, TypeError):  # new, or unhashable (a list)
            pass
        text, num = _cell(v, column)
        td = f'<td class="num">{text}</td>' if num else f"<td>{text}</td>"
        with contextlib.suppress(TypeError):
            seen[key] = td
        out.append(td)
    return out


def _missing(value: Any) -> bool:
    """None, NaN, NaT and NA (not a list or a string)."""
    if isinstance(value, str):
        return False
    if isinstance(value, float):
        return value != value
    return not isinstance(value, (list, tuple, set)) and bool(pd.isna(value))


def _empty_column(values: list[Any]) -> bool:
    """Whether every value of a column is missing or blank text (an empty column is not)."""
    if not values:
        return False
    return all(_missing(v) or not str(v).strip() for v in values)
