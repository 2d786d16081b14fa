"""The matchup report: one offline HTML file answering "how does my list do against theirs?".

It opens with both lists' names and points and the answer (each side's fire plan, the points it removes, the
units that matter most), then heatmaps of expected points removed per 100 points (mine against theirs and
theirs against mine, shooting and melee), a pair explorer (the reader picks a pair and sees its whole
distribution, "at least k", drawn in the page), a card per unit (its best targets and worst threats), and
the tables last. The rows are embedded once as JSON (``<script type="application/json" id="praetor-data">``:
``{"lists", "pairs", "plans"}`` as ``praetor matchup --json`` prints them); plotly.js is embedded once; every
string from a file is escaped (HTML with :func:`html.escape`, figure labels with ``formats.escape``, the
page's script writes names with ``textContent``).
"""

from __future__ import annotations

import html
import os
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.offline import get_plotlyjs

from praetor_analysis.analysis import FirePlan, Matchup, key_units
from praetor_analysis.errors import counted_noun
from praetor_analysis.io import atomic_write_text
from praetor_analysis.views.formats import PAGE_CSS, escape, number, percent, title_layout
from praetor_analysis.views.report.explorer import json_for_script
from praetor_analysis.views.tables import table_html

__all__ = [
    "DATA_ID",
    "PLOT_ID",
    "heatmap",
    "matchup_body",
    "matchup_html",
    "plan_figure",
    "plan_table_html",
    "write_matchup_report",
]

DATA_ID = "praetor-data"
"""The id of the embedded JSON rows."""
PLOT_ID = "praetor-matchup-plot"
"""The id of the pair explorer's figure."""

_CSS = (
    PAGE_CSS
    + """
table.praetor th{background:#f3f3f3}table.praetor td.num{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#555;font-size:.85rem}.figure{margin:1rem 0}details{margin:.6rem 0}summary{cursor:pointer;font-weight:600}
.answer{display:grid;grid-template-columns:1fr 1fr;gap:1.5rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:.8rem}
.card{border:1px solid #ddd;border-radius:6px;padding:.5rem .8rem;font-size:.85rem}
.card h3{font-size:1rem;margin:.2rem 0 .4rem}.card ul{margin:.2rem 0 .4rem;padding-left:1.1rem}
.controls{display:flex;gap:1rem;flex-wrap:wrap;align-items:center;margin:.5rem 0}
"""
)

_JS = """
(function () {
  var data = JSON.parse(document.getElementById("praetor-data").textContent);
  var side = document.getElementById("pm-side"), phase = document.getElementById("pm-phase");
  var atk = document.getElementById("pm-attacker"), tgt = document.getElementById("pm-target");
  var summary = document.getElementById("pm-summary");
  function esc(s) { return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;"); }
  function fill(sel, values) {
    var keep = sel.value;
    while (sel.firstChild) { sel.removeChild(sel.firstChild); }
    values.forEach(function (v) { var o = document.createElement("option"); o.value = v; o.textContent = v;
      sel.appendChild(o); });
    if (values.indexOf(keep) >= 0) { sel.value = keep; }
  }
  function uniq(rows, key) { var seen = []; rows.forEach(function (r) { if (seen.indexOf(r[key]) < 0) {
    seen.push(r[key]); } }); return seen; }
  function refill() {
    var rows = data.pairs.filter(function (r) { return r.side === side.value; });
    fill(atk, uniq(rows, "attacker")); fill(tgt, uniq(rows, "target")); draw();
  }
  function draw() {
    var row = data.pairs.find(function (r) { return r.side === side.value && r.attacker === atk.value &&
      r.target === tgt.value && r.phase === phase.value; });
    if (!row) { return; }
    var pmf = row.removed || [1], tail = new Array(pmf.length), s = 0;
    for (var k = pmf.length - 1; k >= 0; k--) { s += pmf[k]; tail[k] = Math.min(1, s); }
    var unit = row.measure === "hull_points" ? "hull points" : "models";
    var ks = tail.map(function (_, k) { return k; });
    var title = esc(row.attacker) + " against " + esc(row.target) + " (" + row.phase + ")";
    Plotly.react("praetor-matchup-plot", [{type: "bar", x: ks, y: tail, marker: {color: "#4c78a8"},
      hovertemplate: "at least %{x} " + unit + ": %{y:.1%}<extra></extra>"}],
      {title: {text: title, x: 0.02, xanchor: "left"}, height: 380, margin: {t: 60, l: 60, r: 20, b: 50},
       xaxis: {title: {text: "at least k " + unit + " removed"}, dtick: 1},
       yaxis: {title: {text: "P(at least k)"}, range: [0, 1.02], tickformat: ".0%"}},
      {displaylogo: false, responsive: true});
    summary.textContent = row.error ? row.error : ("expected " + (row.mean || 0).toFixed(2) + " " + unit +
      ", " + (row.points_removed || 0).toFixed(1) + " points (" + (row.points_removed_per_100_pts || 0).toFixed(1) +
      " per 100 points of the attacker), P(destroyed) " + ((row.p_destroyed || 0) * 100).toFixed(1) + "%");
  }
  side.addEventListener("change", refill);
  [phase, atk, tgt].forEach(function (el) { el.addEventListener("change", draw); });
  refill();
})();
"""


def _figure_div(fig: go.Figure) -> str:
    config = {"displaylogo": False, "responsive": True}
    return '<div class="figure">' + pio.to_html(fig, full_html=False, include_plotlyjs=False, config=config) + "</div>"


def heatmap(pairs: pd.DataFrame, side: str, phase: str, title: str) -> go.Figure:
    """Expected points removed per 100 points of the attacker: attackers down, targets across."""
    rows = pairs[(pairs["side"] == side) & (pairs["phase"] == phase)]
    attackers = list(dict.fromkeys(rows["attacker"]))
    targets = list(dict.fromkeys(rows["target"]))
    grid = rows.pivot_table(
        index="attacker", columns="target", values="points_removed_per_100_pts", aggfunc="first", sort=False
    )
    grid = grid.reindex(index=attackers, columns=targets)
    points = rows.pivot_table(index="attacker", columns="target", values="points_removed", aggfunc="first", sort=False)
    points = points.reindex(index=attackers, columns=targets)
    text = [[number(v, 2) for v in r] for r in points.to_numpy()]
    fig = go.Figure(
        go.Heatmap(
            z=grid.to_numpy(),
            x=[escape(t) for t in targets],
            y=[escape(a) for a in attackers],
            text=text,
            colorscale="Viridis",
            colorbar={"title": {"text": "pts per 100"}},
            hovertemplate="%{y} at %{x}<br>%{z:.2f} points per 100 points<br>%{text} points<extra></extra>",
        )
    )
    fig.update_layout(
        title=title_layout(escape(title)),
        height=max(360, 26 * len(attackers) + 200),
        margin={"l": 220, "b": 160, "t": 60, "r": 20},
        yaxis={"autorange": "reversed"},
    )
    return fig


def plan_figure(plan: FirePlan) -> go.Figure:
    """P(at least x points removed) by the plan."""
    pmf = plan.pmf()
    xs = sorted(pmf)
    tail, s = [], 0.0
    for x in reversed(xs):
        s += pmf[x]
        tail.append(min(1.0, s))
    tail.reverse()
    fig = go.Figure(go.Scatter(x=xs, y=tail, mode="lines", line={"shape": "hv"}, name="P(at least)"))
    fig.update_layout(
        title=title_layout(escape(f"{plan.attacker_list} shooting: P(at least x points removed)")),
        xaxis={"title": {"text": "points removed"}},
        yaxis={"title": {"text": "P(at least)"}, "range": [0, 1.02], "tickformat": ".0%"},
        height=320,
        margin={"t": 50, "l": 60, "r": 20, "b": 50},
    )
    return fig


def plan_table_html(plan: FirePlan) -> str:
    """A fire plan as the report and the dashboard's matchup tab show it: a heading, the points expected, a
    table (target, the units firing at it, the points removed) with its CSV link, and the units not firing."""
    rows = pd.DataFrame(
        [{"target": s.target, "fired at by": ", ".join(s.units), "points removed": s.expected} for s in plan.shots]
    )
    head = (
        f"<h3>{html.escape(plan.attacker_list)} shooting at {html.escape(plan.target_list)}</h3>"
        f"<p><strong>{plan.expected:.1f} points</strong> expected (no plan removes more than "
        f"{plan.bound:.1f} on average; {html.escape(plan.method)}).</p>"
    )
    idle = f'<p class="note">Not firing: {html.escape(", ".join(plan.idle))}</p>' if plan.idle else ""
    return head + table_html(rows, download="fire_plan.csv") + idle


def _plan_html(plan: FirePlan) -> str:
    return plan_table_html(plan) + _figure_div(plan_figure(plan))


def _cards(m: Matchup) -> str:
    out = []
    pairs = m.pairs[m.pairs["points_removed"].notna()]
    for side, army in (("mine", m.mine), ("theirs", m.theirs)):
        out.append(f"<h3>{html.escape(army.name)}</h3><div class='cards'>")
        for u in army.units:
            best = pairs[(pairs["side"] == side) & (pairs["attacker"] == u.label)].nlargest(3, "points_removed")
            threat = pairs[(pairs["side"] != side) & (pairs["target"] == u.label)].nlargest(3, "points_removed")

            def item(r: Any, who: str) -> str:
                return (
                    f"<li>{html.escape(str(r[who]))} ({html.escape(str(r['phase']))}): "
                    f"{number(r['points_removed'], 3)} pts, P(destroyed) {percent(r['p_destroyed'])}</li>"
                )

            notes = "".join(f'<p class="note">{html.escape(n)}</p>' for n in u.notes)
            out.append(
                f"<div class='card'><h3>{html.escape(u.label)} <span class='note'>{u.loadout.points:.0f} pts, "
                f"{counted_noun(u.loadout.size, 'model')}</span></h3><strong>Best targets</strong><ul>"
                + "".join(item(r, "target") for _, r in best.iterrows())
                + "</ul><strong>Worst threats</strong><ul>"
                + "".join(item(r, "attacker") for _, r in threat.iterrows())
                + f"</ul>{notes}</div>"
            )
        out.append("</div>")
    return "".join(out)


def _explorer(m: Matchup) -> str:
    def options(values: list[tuple[str, str]]) -> str:
        return "".join(f'<option value="{html.escape(v)}">{html.escape(t)}</option>' for v, t in values)

    sides = [("mine", f"{m.mine.name} attacking"), ("theirs", f"{m.theirs.name} attacking")]
    return (
        '<h2 id="pair">Pick a pair</h2><div class="controls">'
        f'<label>Side <select id="pm-side">{options(sides)}</select></label>'
        f'<label>Phase <select id="pm-phase">{options([("shooting", "shooting"), ("melee", "melee")])}</select></label>'
        '<label>Attacker <select id="pm-attacker"></select></label>'
        '<label>Target <select id="pm-target"></select></label></div>'
        f'<p id="pm-summary" class="note"></p><div class="figure"><div id="{PLOT_ID}" style="height:380px"></div></div>'
    )


_SHOWN = ["side", "attacker", "target", "phase", "measure", "mean", "wounds_mean", "p_any", "p_destroyed",
          "points_removed", "points_removed_per_100_pts", "returned", "weapons", "not_modelled", "error"]  # fmt: skip


def matchup_body(m: Matchup) -> str:
    """The page's body (see the module docstring)."""
    a, b = m.mine, m.theirs
    parts = [
        f"<h1>{html.escape(a.name)} ({a.points:.0f} pts) against {html.escape(b.name)} ({b.points:.0f} pts)</h1>",
        '<p class="note">Each pair from the start of a phase: shooting with each unit\'s best weapon per model; '
        "melee with the attacker charging and the target fighting back for the whole round. Points removed: a "
        "model removed is worth its unit's points over its models, a vehicle its points when wrecked.</p>",
        '<h2 id="answer">The answer</h2><div class="answer">',
        *[f"<div>{_plan_html(p)}</div>" for p in m.plans],
        "</div>",
    ]
    for side, army in (("mine", a), ("theirs", b)):
        keys = ", ".join(f"{html.escape(u)} ({p:.0f} pts)" for u, p in key_units(m.pairs, side))
        parts.append(f"<p>{html.escape(army.name)}: the units that matter most (points removed at their best "
                     f"target, either phase): {keys or 'none'}.</p>")  # fmt: skip
    parts.append('<h2 id="heatmaps">Expected points removed per 100 points</h2>')
    for side, atk, tgt in (("mine", a, b), ("theirs", b, a)):
        for phase in ("shooting", "melee"):
            parts.append(_figure_div(heatmap(m.pairs, side, phase, f"{atk.name} against {tgt.name}: {phase}")))
    parts.append(_explorer(m))
    parts.append('<h2 id="units">Units</h2>' + _cards(m))
    parts.append('<h2 id="tables">Tables</h2><details><summary>Every pair</summary>'
                 + table_html(m.pairs, _SHOWN, download="pairs.csv") + "</details>")  # fmt: skip
    parts.append(f'<script type="application/json" id="{DATA_ID}">{json_for_script(m.to_dict())}</script>')
    parts.append(f"<script>{_JS}</script>")
    return "\n".join(parts)


def matchup_html(m: Matchup) -> str:
    """The whole standalone page (plotly.js embedded once, no network)."""
    title = f"{m.mine.name} against {m.theirs.name}"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><style>{_CSS}</style><script type="text/javascript">{get_plotlyjs()}'
        f"</script></head><body>\n{matchup_body(m)}\n</body></html>\n"
    )


def write_matchup_report(m: Matchup, path: str | os.PathLike[str]) -> Path:
    """Write :func:`matchup_html` to ``path``; returns the path."""
    out = Path(path)
    atomic_write_text(out, matchup_html(m))
    return out
