"""HTML tables of DataFrames: every string escaped, numbers a person reads."""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from praetor_analysis.views.formats import is_chance, number, percent

__all__ = ["table_html"]


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


def table_html(df: pd.DataFrame, columns: Sequence[str] | None = None, *, caption: str | None = None) -> str:
    """An HTML table of a DataFrame; every header and cell escaped; numbers to three significant figures,
    chances (``p_*`` columns) as percentages; columns with no value at all are left out."""
    cols = [c for c in (columns or df.columns) if c in df.columns]
    cols = [c for c in cols if not _empty_column(df[c])] or cols
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = []
    for row in df[cols].itertuples(index=False, name=None):
        cells = []
        for col, v in zip(cols, row, strict=True):
            text, num = _cell(v, str(col))
            cells.append(f'<td class="num">{text}</td>' if num else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="praetor">{cap}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _empty_column(col: pd.Series) -> bool:
    if len(col) == 0:
        return False
    as_text = col.map(lambda v: "" if v is None or (not isinstance(v, (list, tuple, set, str)) and pd.isna(v)) else v)
    return bool((as_text.astype(str).str.strip() == "").all())
