"""Numbers and colours a person reads: significant figures, percentages, one colour per trace.

Pure functions shared by the figures, the report and the dashboard (no plotly import); ``counted_noun`` (``1 model``,
``2 models``) is the package's one plural helper, from :mod:`praetor_analysis.errors`.
"""

from __future__ import annotations

import functools
import html
import math
import textwrap
from typing import Any

from praetor_analysis.errors import counted_noun

__all__ = [
    "PAGE_CSS",
    "PALETTE",
    "PCT_FMT",
    "SIG_FMT",
    "TITLE_LINE",
    "colour",
    "counted_noun",
    "escape",
    "is_chance",
    "number",
    "percent",
    "title_layout",
    "wrapped_title",
]

#: 24 distinct colours (Plotly's Dark24 then Alphabet order): trace i gets ``PALETTE[i % 24]``.
PALETTE: tuple[str, ...] = (
    "#2E91E5",
    "#E15F99",
    "#1CA71C",
    "#FB0D0D",
    "#DA16FF",
    "#222A2A",
    "#B68100",
    "#750D86",
    "#EB663B",
    "#511CFB",
    "#00A08B",
    "#FB00D1",
    "#FC0080",
    "#B2828D",
    "#6C7C32",
    "#778AAE",
    "#862A16",
    "#A777F1",
    "#620042",
    "#1616A7",
    "#DA60CA",
    "#6C4516",
    "#0D2A63",
    "#AF0038",
)
#: d3-format of a count or an expectation in hover text and labels (three significant figures).
SIG_FMT = ".3~g"
#: d3-format of a chance (a percentage with one decimal).
PCT_FMT = ".1%"
_CHANCE_COLUMNS = frozenset({"p_any", "p_all", "p_pinned", "wrecked", "attack_happens", "perils"})


PAGE_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5rem auto;max-width:1200px;
color:#222;padding:0 1rem}
h1{font-size:1.6rem;margin-bottom:.3rem}h2{font-size:1.25rem;border-bottom:1px solid #ddd;padding-bottom:.2rem;
margin-top:2rem}
table.praetor{border-collapse:collapse;font-size:.82rem;margin:.5rem 0 1rem}
table.praetor th,table.praetor td{border:1px solid #ddd;padding:.2rem .45rem;text-align:left;vertical-align:top}
"""
"""The style sheet the standalone pages share (the report and the matchup report): page, headings, tables."""


def colour(i: int) -> str:
    """The colour of trace ``i`` (distinct for 24 traces, then repeating)."""
    return PALETTE[i % len(PALETTE)]


def is_chance(column: str) -> bool:
    """Whether a column holds a probability (shown as a percentage)."""
    return column in _CHANCE_COLUMNS or column.startswith("p_")


@functools.lru_cache(maxsize=8192, typed=True)
def _number(x: float, digits: int) -> str:
    if math.isnan(x):
        return ""
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if x == 0:
        return "0"
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    if abs(x) < 1e-4:
        return "< 0.0001" if x > 0 else "> -0.0001"
    places = max(digits - 1 - math.floor(math.log10(abs(x))), 0)
    text = f"{x:,.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def number(value: Any, digits: int = 3) -> str:
    """A number to ``digits`` significant figures, without exponent notation down to 1e-4.

    ``nan`` and ``None`` give ``""``; integers print whole; values below 1e-4 print ``"< 0.0001"``.
    """
    if value is None:
        return ""
    try:
        x = float(value)
    except (TypeError, ValueError):
        return str(value)
    return _number(x, digits)  # the same numbers recur (a table and a heatmap's hover text): formatted once


def percent(p: Any) -> str:
    """A chance as a percentage: ``"12%"``, ``"3.4%"``, ``"0.05%"``; tiny non-zero chances ``"< 0.01%"``."""
    if p is None:
        return ""
    try:
        x = float(p)
    except (TypeError, ValueError):
        return str(p)
    if math.isnan(x):
        return ""
    pct = 100.0 * x
    if pct == 0:
        return "0%"
    if pct >= 100.0 - 5e-3 and pct < 100.0:
        return "> 99.99%"
    if pct >= 99.5:
        return "100%" if pct >= 100.0 else f"{pct:.2f}%"
    if pct < 0.01:
        return "< 0.01%"
    if pct >= 10:
        return f"{pct:.0f}%"
    if pct >= 1:
        return f"{pct:.1f}%"
    return f"{pct:.2f}%"


def escape(text: object) -> str:
    """A data string made safe for Plotly labels (``<``, ``>`` and ``&`` escaped; Plotly shows them as typed).

    Quotes are kept: Plotly's labels treat them as text, and it does not decode ``&quot;``.
    """
    return html.escape("" if text is None else str(text), quote=False)


TITLE_LINE = 60
"""Characters in a line of a figure's title that :func:`wrapped_title` breaks: a title fits a narrow figure
(the workbench's distribution is about 550 px wide) instead of running past its edge."""


def wrapped_title(text: str, width: int = TITLE_LINE) -> str:
    """An escaped title broken into lines (``<br>``) of at most ``width`` characters, at spaces only."""
    return "<br>".join(textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)) or text


def title_layout(text: str) -> dict[str, Any]:
    """A figure title, left-aligned (the layout's ``title``)."""
    return {"text": text, "x": 0.02, "xanchor": "left"}
