"""The workbench's view as one offline HTML page: the table, the chart, the picked cell's distribution, every
cell's chance of at least k, and the setup (the ``praetor calc`` scenarios) embedded to reproduce it (pure).

plotly.js is embedded once; the page asks no network for anything.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.offline import get_plotlyjs

from praetor_analysis.views.formats import PAGE_CSS
from praetor_analysis.views.report.explorer import json_for_script
from praetor_analysis.views.tables import table_html
from praetor_analysis.views.workbench.view import cell_pmf

__all__ = ["SETUP_ID", "at_least_table", "workbench_html"]

SETUP_ID = "praetor-workbench-setup"
"""The id of the page's ``<script type="application/json">`` holding the setup (``praetor calc`` scenarios)."""
_COLUMNS = [
    "attacker",
    "points",
    "target",
    "measure",
    "models",
    "wounds",
    "p_any",
    "points_removed",
    "per_100_pts",
    "not_modelled",
    "error",
]


def at_least_table(labels: Sequence[str], results: Sequence[dict[str, Any] | str], most: int = 10) -> pd.DataFrame:
    """One row per cell: its label, what it counts and P(at least k) for k = 1 ... ``most`` (columns
    ``p_ge_1``...; a refused cell has none)."""
    rows = []
    for label, result in zip(labels, results, strict=True):
        pmf, unit = cell_pmf(result)
        refused = isinstance(result, str)
        row: dict[str, Any] = {"cell": label, "counts": "refused" if refused else unit}
        row.update({f"p_ge_{k}": None if refused else float(sum(pmf[k:])) for k in range(1, most + 1)})
        rows.append(row)
    return pd.DataFrame(rows)


def _figure(fig: go.Figure | None) -> str:
    if fig is None:
        return ""
    div = pio.to_html(fig, full_html=False, include_plotlyjs=False, config={"displaylogo": False, "responsive": True})
    return f'<div class="figure">{div}</div>'


def workbench_html(
    table: pd.DataFrame,
    labels: Sequence[str],
    results: Sequence[dict[str, Any] | str],
    scenarios: Sequence[dict[str, Any]],
    *,
    chart: go.Figure | None = None,
    cell: go.Figure | None = None,
) -> str:
    """The whole page: ``table`` (:func:`~praetor_analysis.views.workbench.view.cells_table`), the figures, P(at
    least k) of each cell (``labels``, ``results``) and the setup ``scenarios``."""
    title = "Praetor analysis: workbench"
    body = [
        f"<h1>{html.escape(title)}</h1>",
        "<p>Expected models removed (a vehicle: the chance it is wrecked), wounds (hull points) and points removed "
        "per 100 points of each attacker; every cell is the <code>praetor calc</code> scenario of the setup below.</p>",
        _figure(chart),
        _figure(cell),
        table_html(table, _COLUMNS),
        "<h2>The chance of at least k</h2>",
        table_html(at_least_table(labels, results)),
        "<h2>The setup</h2>",
        "<p>The scenarios of this page (saved as a .json file, <code>praetor calc FILE</code> gives these numbers; "
        "a roster's unit names its roster by file name, read from the folder it is run in).</p>",
        f'<script type="application/json" id="{SETUP_ID}">{json_for_script(list(scenarios))}</script>',
        f"<details><summary>{len(scenarios)} scenarios</summary><pre>{html.escape(_pretty(scenarios))}</pre></details>",
    ]
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><style>{PAGE_CSS}</style><script type="text/javascript">{get_plotlyjs()}'
        f"</script></head><body>\n{''.join(body)}\n</body></html>\n"
    )


def _pretty(scenarios: Sequence[dict[str, Any]]) -> str:
    return json.dumps(list(scenarios), indent=1)
