"""The report's interactive block: the reader picks a target, a measure and weapons; the page redraws.

Everything runs in the page, offline: the distributions are embedded once as JSON (in a
``<script type="application/json">``, with ``<``, ``>`` and ``&`` written as ``\\u003c``...), the controls are
plain HTML, and a few lines of JavaScript call ``Plotly.react`` on one figure. The page's single plotly.js
(embedded by :func:`praetor_analysis.views.report.page.to_html`) draws it.

:func:`explorer_data` is pure data; :func:`explorer_html` only presents it.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from praetor_analysis.views.figures.plots import at_least, escape
from praetor_analysis.views.formats import PALETTE

__all__ = ["MEASURE_NAMES", "ExplorerData", "explorer_data", "explorer_html", "json_for_script"]

#: What each measure counts, for the controls and the axis (``(name, unit)``).
MEASURE_NAMES: dict[str, tuple[str, str]] = {
    "casualties": ("models removed", "models"),
    "wounds": ("unsaved wounds", "wounds"),
    "hull_points": ("hull points removed", "hull points"),
}


@dataclass(frozen=True)
class ExplorerData:
    """The data of the block.

    Attributes:
        rows: Row labels as typed (weapons or units), in order.
        targets: Target labels as typed, in order.
        cells: ``target index -> measure -> [tail per row or None]``: the P(X >= k) arrays from k = 0.
        defaults: The measure shown first for each target (the one with something to see).
    """

    rows: tuple[str, ...]
    targets: tuple[str, ...]
    cells: tuple[dict[str, list[list[float] | None]], ...]
    defaults: tuple[str, ...]


def _tail(pmf: Any) -> list[float]:
    tail = at_least(np.asarray(pmf, dtype=np.float64))
    keep = int(np.flatnonzero(tail > 1e-9)[-1]) + 1 if (tail > 1e-9).any() else 1
    return [float(f"{v:.5g}") for v in tail[: max(keep, 2)]]


def explorer_data(
    rows: Sequence[str],
    targets: Sequence[str],
    pmfs: Mapping[tuple[int, int, str], Any],
) -> ExplorerData:
    """Collect the tails of every ``(row index, target index, measure) -> pmf``.

    The default measure of a target is models removed (hull points for a vehicle) unless no row has a 5%
    chance of removing one, then unsaved wounds when known.
    """
    cells: list[dict[str, list[list[float] | None]]] = []
    defaults: list[str] = []
    for j in range(len(targets)):
        per: dict[str, list[list[float] | None]] = {}
        for measure in MEASURE_NAMES:
            col = [pmfs.get((i, j, measure)) for i in range(len(rows))]
            if any(p is not None for p in col):
                per[measure] = [None if p is None else _tail(p) for p in col]
        first = "hull_points" if "hull_points" in per else "casualties"
        tails = [t for t in per.get(first, []) if t is not None]
        best = max((t[1] for t in tails if len(t) > 1), default=0.0)
        if first == "casualties" and best < 0.05 and "wounds" in per:
            first = "wounds"
        if first not in per and per:
            first = next(iter(per))
        cells.append(per)
        defaults.append(first)
    return ExplorerData(tuple(rows), tuple(targets), tuple(cells), tuple(defaults))


def json_for_script(obj: Any) -> str:
    """JSON safe inside a ``<script>`` element (``<``, ``>`` and ``&`` as unicode escapes)."""
    text = json.dumps(obj, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


_JS = """
(function () {
  var root = document.getElementById("praetor-explorer");
  var data = JSON.parse(document.getElementById("praetor-explorer-data").textContent);
  var plot = document.getElementById("praetor-explorer-plot");
  var tSel = document.getElementById("praetor-explorer-target");
  var mSel = document.getElementById("praetor-explorer-measure");
  var boxes = root.querySelectorAll("input.praetor-row");
  function measures() {
    var per = data.cells[+tSel.value], want = data.defaults[+tSel.value], keep = mSel.value;
    mSel.innerHTML = "";
    Object.keys(per).forEach(function (m) {
      var o = document.createElement("option");
      o.value = m; o.textContent = data.measures[m][0];
      mSel.appendChild(o);
    });
    mSel.value = per[keep] && keep !== "" && mSel.dataset.touched ? keep : want;
  }
  function draw() {
    var j = +tSel.value, m = mSel.value, tails = data.cells[j][m] || [], unit = data.measures[m][1];
    var traces = [], top = 1;
    boxes.forEach(function (b) {
      var i = +b.value, t = tails[i];
      if (!b.checked || !t) { return; }
      var k = [], y = [];
      for (var n = 1; n < t.length; n++) { k.push(n); y.push(t[n]); }
      top = Math.max(top, t.length - 1);
      traces.push({type: "scatter", mode: "lines+markers", x: k, y: y, name: data.rows[i],
        line: {shape: "hv", color: data.palette[i % data.palette.length]},
        marker: {color: data.palette[i % data.palette.length]},
        hovertemplate: data.rows[i] + "<br>P(at least %{x} " + unit + ") = %{y:.1%}<extra></extra>"});
    });
    var layout = {title: {text: "Chance of at least k " + unit + " against " + data.targets[j], x: 0.02},
      xaxis: {title: {text: data.measures[m][0] + " k (" + unit + ")"}, dtick: top <= 30 ? 1 : null},
      yaxis: {title: {text: "P(X \\u2265 k) (probability)"}, range: [0, 1.02], tickformat: ".0%"},
      legend: {orientation: "h", y: -0.25}, margin: {t: 60}, height: 480,
      annotations: traces.length ? [] : [{text: "tick at least one row", showarrow: false,
        xref: "paper", yref: "paper", x: 0.5, y: 0.5}]};
    Plotly.react(plot, traces, layout, {displaylogo: false, responsive: true});
  }
  tSel.addEventListener("change", function () { measures(); draw(); });
  mSel.addEventListener("change", function () { mSel.dataset.touched = "1"; draw(); });
  boxes.forEach(function (b) { b.addEventListener("change", draw); });
  root.querySelector(".praetor-all").addEventListener("click", function () {
    boxes.forEach(function (b) { b.checked = true; }); draw(); });
  root.querySelector(".praetor-none").addEventListener("click", function () {
    boxes.forEach(function (b) { b.checked = false; }); draw(); });
  measures(); draw();
})();
"""


def explorer_html(data: ExplorerData, *, row_kind: str = "weapon", checked: int = 8) -> str:
    """The block: a target and a measure menu, one checkbox per row (the first ``checked`` ticked), one figure.

    Labels are HTML-escaped in the controls and Plotly-escaped in the figure (shown as typed).
    """
    if not data.rows or not data.targets:
        return ""
    payload = {
        "rows": [escape(r) for r in data.rows],
        "targets": [escape(t) for t in data.targets],
        "cells": list(data.cells),
        "defaults": list(data.defaults),
        "measures": {k: list(v) for k, v in MEASURE_NAMES.items()},
        "palette": list(PALETTE),
    }
    targets = "".join(f'<option value="{j}">{html.escape(t)}</option>' for j, t in enumerate(data.targets))
    boxes = "".join(
        f'<label><input type="checkbox" class="praetor-row" value="{i}"{" checked" if i < checked else ""}> '
        f"{html.escape(r)}</label>"
        for i, r in enumerate(data.rows)
    )
    kind = html.escape(row_kind)
    return (
        '<div id="praetor-explorer" class="explorer">'
        f'<div class="controls"><label>Target <select id="praetor-explorer-target">{targets}</select></label> '
        '<label>Measure <select id="praetor-explorer-measure"></select></label> '
        f'<button type="button" class="praetor-all">all {kind}s</button>'
        f'<button type="button" class="praetor-none">no {kind}</button></div>'
        f'<div class="rows">{boxes}</div>'
        '<div id="praetor-explorer-plot" class="figure"></div>'
        f'<script type="application/json" id="praetor-explorer-data">{json_for_script(payload)}</script>'
        f"<script>{_JS}</script></div>"
    )
