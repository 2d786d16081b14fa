"""Standalone HTML reports, CSV and PNG exports.

One HTML path (as in ``plotly.io``): :func:`to_html` is the primitive, :func:`write_html` wraps it and
:meth:`Report._repr_html_` uses its fragment form. A full page embeds plotly.js once (no CDN), so the file
works offline. Every string that came from a data file is escaped with :func:`html.escape`; the figures'
JSON is escaped by Plotly (``<`` becomes ``\\u003c``).

:func:`build_report` computes (it calls :mod:`praetor_analysis.analysis.compare`); :func:`to_html` only presents.
"""

from __future__ import annotations

import html
import io
import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.offline import get_plotlyjs

from praetor_analysis.views import figures as F

__all__ = [
    "DEFAULT_CHROMIUM",
    "DEFAULT_WEAPONS",
    "PngExportUnavailable",
    "Report",
    "build_report",
    "default_report",
    "figure_to_png",
    "report_main",
    "select_targets",
    "select_weapons",
    "to_csv",
    "to_html",
    "write_html",
]

#: The iconic weapons of the default report, by their name in the shipped catalog.
DEFAULT_WEAPONS: tuple[str, ...] = (
    "Bolter",
    "Heavy Bolter",
    "Autocannon",
    "Lascannon",
    "Missile Launcher - Krak",
    "Missile Launcher - Frag",
    "Plasma Gun",
    "Meltagun",
    "Multi-Melta",
    "Volkite Culverin",
    "Heavy Flamer",
    "Praetor Launcher",
    "Conversion Beam Cannon (2)",
)
#: Where Debian puts Chromium; PNG export points kaleido at it (nothing is downloaded).
DEFAULT_CHROMIUM = "/usr/bin/chromium"
_PROFILE_KEY = ["name", "Range", "Strength", "AP", "Type"]
_TABLE_COLUMNS = [
    "weapon",
    "faction",
    "Range",
    "Strength",
    "AP",
    "Type",
    "target",
    "models",
    "measure",
    "mean",
    "std",
    "p_any",
    "p_all",
    "p_pinned",
    "points",
    "mean_per_100pts",
    "not_modelled",
    "error",
]

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:1.5rem auto;max-width:1200px;
color:#222;padding:0 1rem}
h1{font-size:1.6rem}h2{font-size:1.25rem;border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}
table.praetor{border-collapse:collapse;font-size:.82rem;margin:.5rem 0 1rem}
table.praetor th,table.praetor td{border:1px solid #ddd;padding:.2rem .45rem;text-align:left;vertical-align:top}
table.praetor th{background:#f3f3f3;position:sticky;top:0}
table.praetor td.num{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#555;font-size:.85rem}.figure{margin:1rem 0}
"""


@dataclass(frozen=True)
class Report:
    """The data of a report (computed by :func:`build_report`, presented by :func:`to_html`).

    Attributes:
        title: Page title.
        comparison: The comparison DataFrame (one row per weapon x target, :func:`compare.compare` columns).
        distributions: ``(weapon_id, target_id) -> pmf``, for the "at least k" curves (may be empty).
        roster: Tables about a roster (name -> DataFrame), shown after the comparison.
        notes: Sentences shown under the title.
    """

    title: str
    comparison: pd.DataFrame
    distributions: Mapping[tuple[str, str], np.ndarray] = field(default_factory=dict)
    roster: Mapping[str, pd.DataFrame] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def _repr_html_(self) -> str:
        return to_html(self, full_html=False)


class PngExportUnavailable(RuntimeError):
    """PNG export needs kaleido and a local Chromium; neither is downloaded at run time."""


# ----------------------------------------------------------------------------------------- selection
def _distinct(weapons: pd.DataFrame) -> pd.DataFrame:
    return weapons.drop_duplicates(_PROFILE_KEY) if set(_PROFILE_KEY) <= set(weapons.columns) else weapons


def select_weapons(names: Sequence[str], weapons: pd.DataFrame | None = None) -> pd.DataFrame:
    """Distinct weapon profiles by name: an exact (case-insensitive) match, else every name containing it.

    Raises:
        ValueError: naming the first name that matches nothing.
    """
    if weapons is None:
        from praetor_analysis.catalog import load_weapons

        weapons = load_weapons()
    cat = _distinct(weapons)
    lower = cat["name"].str.lower()
    parts = []
    for name in names:
        key = name.strip().lower()
        hit = cat[lower == key]
        if hit.empty:
            hit = cat[lower.str.contains(key, regex=False)]
        if hit.empty:
            raise ValueError(f"--weapons: no weapon named {name!r} in the catalog")
        parts.append(hit)
    return _distinct(pd.concat(parts)) if parts else cat.iloc[0:0]


def select_targets(names: Sequence[str] | None = None, targets: pd.DataFrame | None = None) -> pd.DataFrame:
    """Target archetypes by label (exact, case-insensitive, else containing); all of them for ``None``.

    Raises:
        ValueError: naming the first name that matches nothing.
    """
    if targets is None:
        from praetor_analysis.catalog import load_targets

        targets = load_targets()
    if not names:
        return targets
    lower = targets["archetype"].str.lower()
    parts = []
    for name in names:
        key = name.strip().lower()
        hit = targets[lower == key]
        if hit.empty:
            hit = targets[lower.str.contains(key, regex=False)]
        if hit.empty:
            raise ValueError(f"--targets: no target named {name!r} (have: {', '.join(targets['archetype'])})")
        parts.append(hit)
    return pd.concat(parts).drop_duplicates("archetype")


def build_report(
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    *,
    attacker: Mapping[str, Any] | None = None,
    title: str = "Weapon comparison",
    roster: Mapping[str, pd.DataFrame] | None = None,
    notes: Sequence[str] = (),
) -> Report:
    """Compute the comparison (and the distributions for the curves) of weapons against targets."""
    from praetor_analysis.analysis.compare import compare, compare_distributions

    table = compare(weapons, targets, attacker=attacker)
    try:
        dists = compare_distributions(weapons, targets, attacker=attacker)
    except Exception as exc:
        dists = {}
        notes = (*notes, f"Distributions unavailable: {type(exc).__name__}: {exc}")
    return Report(title=title, comparison=table, distributions=dists, roster=dict(roster or {}), notes=tuple(notes))


# ------------------------------------------------------------------------------------------ presentation
def _cell(value: Any) -> tuple[str, bool]:
    """Escaped text of a cell and whether it is a number."""
    if isinstance(value, (list, tuple, set)):
        return html.escape(", ".join(map(str, value))), False
    if isinstance(value, (bool, np.bool_)):
        return html.escape(str(value)), False
    if isinstance(value, (int, np.integer)):
        return str(int(value)), True
    if isinstance(value, (float, np.floating)):
        return ("" if np.isnan(value) else f"{float(value):.6g}"), True
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return "", False
    return html.escape(str(value)), False


def table_html(df: pd.DataFrame, columns: Sequence[str] | None = None, *, caption: str | None = None) -> str:
    """An HTML table of a DataFrame; every header and cell escaped, numbers to six significant figures."""
    cols = [c for c in (columns or df.columns) if c in df.columns]
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in cols)
    body = []
    for row in df[cols].itertuples(index=False, name=None):
        cells = []
        for v in row:
            text, num = _cell(v)
            cells.append(f'<td class="num">{text}</td>' if num else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f'<table class="praetor">{cap}<thead><tr>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>'


def _figure_div(fig: go.Figure) -> str:
    return (
        '<div class="figure">'
        + pio.to_html(fig, full_html=False, include_plotlyjs=False, config={"displaylogo": False, "responsive": True})
        + "</div>"
    )


def _curves(report: Report) -> list[tuple[str, go.Figure]]:
    df = report.comparison
    if not report.distributions or df.empty:
        return []
    out = []
    labels = F.weapon_labels(df)
    for target, part in df.groupby("target", sort=False):
        pmfs = {}
        for idx, rec in part.iterrows():
            pmf = report.distributions.get((rec["weapon_id"], rec["target_id"]))
            if pmf is not None:
                # labels are escaped already: unescape so the figure escapes them exactly once
                pmfs[html.unescape(labels[idx])] = pmf
        if pmfs:
            measure = str(part["measure"].iloc[0]) if "measure" in part else "casualties"
            unit = "hull points" if measure == "hull_points" else "models"
            out.append(
                (
                    str(target),
                    F.at_least_curves(
                        pmfs, F.AtLeastOptions(target=str(target), outcome=measure.replace("_", " "), unit=unit)
                    ),
                )
            )
    return out


def _report_body(report: Report) -> str:
    df = report.comparison
    parts = [f"<h1>{html.escape(report.title)}</h1>"]
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    n_w = df["weapon_id"].nunique() if "weapon_id" in df else 0
    n_t = df["target_id"].nunique() if "target_id" in df else 0
    parts.append(
        f'<p class="note">{n_w} weapon profiles x {n_t} targets; exact probabilities '
        f"(no sampling); made by praetor_analysis on {stamp}.</p>"
    )
    parts += [f'<p class="note">{html.escape(n)}</p>' for n in report.notes]
    if not df.empty:
        parts.append("<h2>Expected damage</h2>")
        parts.append(_figure_div(F.efficiency_heatmap(df, F.HeatmapOptions(metric="mean"))))
        parts.append(_figure_div(F.efficiency_heatmap(df, F.HeatmapOptions(metric="p_any", colorscale="Cividis"))))
        if "mean_per_100pts" in df and pd.to_numeric(df["mean_per_100pts"], errors="coerce").notna().any():
            parts.append("<h2>Points efficiency</h2>")
            parts.append(_figure_div(F.points_efficiency_bars(df)))
        curves = _curves(report)
        if curves:
            parts.append("<h2>Chance of at least k, per target</h2>")
            parts += [_figure_div(fig) for _, fig in curves]
        parts.append("<h2>Comparison table</h2>")
        parts.append(table_html(df, _TABLE_COLUMNS))
        if "error" in df:
            bad = df[df["error"].fillna("").astype(str).str.len() > 0]
            if not bad.empty:
                parts.append("<h2>Not computed</h2>")
                parts.append(table_html(bad, ["weapon", "target", "error"]))
    for name, table in report.roster.items():
        parts.append(f"<h2>{html.escape(str(name))}</h2>")
        if {"unit", "target", "target_id", "mean"} <= set(table.columns) and len(table):
            ids = table["unit_index"].astype(str) if "unit_index" in table else table["unit"].astype(str)
            as_compare = table.rename(columns={"unit": "weapon"}).assign(weapon_id=ids)
            parts.append(
                _figure_div(
                    F.efficiency_heatmap(
                        as_compare,
                        F.HeatmapOptions(
                            metric="mean", title=f"{name}: expected casualties or hull points, unit x target"
                        ),
                    )
                )
            )
        parts.append(table_html(table))
    return "\n".join(parts)


def to_html(
    obj: Report | pd.DataFrame | go.Figure, *, full_html: bool = True, include_plotlyjs: bool | None = None
) -> str:
    """HTML of a report, a comparison DataFrame (tables and figures) or one figure.

    Args:
        obj: a :class:`Report`, a comparison DataFrame or a ``go.Figure``.
        full_html: a whole standalone page (``<!DOCTYPE html>`` ... ``</html>``) or a fragment (a ``<div>``).
        include_plotlyjs: embed plotly.js (about 4.6 MB, once, no CDN); default: only in a full page.
    """
    if include_plotlyjs is None:
        include_plotlyjs = full_html
    if isinstance(obj, go.Figure):
        title = obj.layout.title.text or "Figure"
        body = _figure_div(obj)
    elif isinstance(obj, pd.DataFrame):
        title = "Weapon comparison"
        body = _report_body(Report(title=title, comparison=obj))
    elif isinstance(obj, Report):
        title = obj.title
        body = _report_body(obj)
    else:
        raise TypeError(f"obj: expected a Report, a DataFrame or a go.Figure, got {type(obj).__name__}")
    script = f'<script type="text/javascript">{get_plotlyjs()}</script>' if include_plotlyjs else ""
    if not full_html:
        return f'<div class="praetor-report">{script}{body}</div>'
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style>{script}</head>"
        f"<body>\n{body}\n</body></html>\n"
    )


def write_html(obj: Report | pd.DataFrame | go.Figure, path: str | os.PathLike[str]) -> Path:
    """Write :func:`to_html` (a full page) to ``path`` in UTF-8; returns the path."""
    out = Path(path)
    out.write_text(to_html(obj, full_html=True), encoding="utf-8")
    return out


# ------------------------------------------------------------------------------------------------ exports
def to_csv(df: pd.DataFrame, path: str | os.PathLike[str] | None = None) -> str:
    """A comparison (or any) table as CSV text (lists joined with ``"; "``); written to ``path`` if given."""
    flat = df.copy()
    for col in flat.columns:
        if flat[col].dtype == object:
            flat[col] = flat[col].map(lambda v: "; ".join(map(str, v)) if isinstance(v, (list, tuple, set)) else v)
    buf = io.StringIO()
    flat.to_csv(buf, index=False, lineterminator="\n")
    text = buf.getvalue()
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


def figure_to_png(
    fig: go.Figure,
    path: str | os.PathLike[str] | None = None,
    *,
    width: int = 1000,
    height: int = 600,
    browser: str = DEFAULT_CHROMIUM,
) -> bytes:
    """A figure as PNG bytes via kaleido and the local Chromium (never downloaded); written to ``path``.

    Raises:
        PngExportUnavailable: kaleido is not installed or no Chromium is found at ``browser``
            (or ``$BROWSER_PATH``).
    """
    chrome = os.environ.get("BROWSER_PATH") or browser
    if not Path(chrome).is_file():
        raise PngExportUnavailable(f"PNG export needs Chromium at {chrome!r} (apt-get install chromium)")
    try:
        import kaleido  # noqa: F401
    except ImportError:
        raise PngExportUnavailable("PNG export needs the kaleido package (pip install kaleido)") from None
    os.environ["BROWSER_PATH"] = chrome
    data = pio.to_image(fig, format="png", width=width, height=height)
    if path is not None:
        Path(path).write_bytes(data)
    return data


# ------------------------------------------------------------------------------------------ entry points
def default_report() -> str:
    """The shipped default: the iconic weapons of :data:`DEFAULT_WEAPONS` against every standard target."""
    from praetor_analysis.catalog import load_targets, load_weapons

    weapons = select_weapons(DEFAULT_WEAPONS, load_weapons())
    report = build_report(
        weapons,
        load_targets(),
        title="Praetor analysis: iconic weapons vs standard targets",
        notes=("Attacker: the engine's default (BS 4, one model).",),
    )
    return to_html(report)


def _roster_tables(path: str, targets: pd.DataFrame) -> dict[str, pd.DataFrame]:
    from praetor_analysis.bsdata.roster import read_roster, roster_units_frame, roster_weapons_frame

    roster = read_roster(path)
    tables: dict[str, pd.DataFrame] = {
        f"Roster {roster.name}: units": roster_units_frame(roster),
        f"Roster {roster.name}: weapons": roster_weapons_frame(roster),
    }
    try:
        from praetor_analysis.analysis.list_analysis import analyse_roster
    except ImportError:
        return tables
    result = analyse_roster(roster, targets)
    if isinstance(result, pd.DataFrame):
        tables[f"Roster {roster.name}: analysis"] = result
    elif isinstance(result, Mapping):
        tables.update({f"Roster {roster.name}: {k}": v for k, v in result.items() if isinstance(v, pd.DataFrame)})
    return tables


def report_main(
    weapons: Sequence[str] | None = None,
    targets: Sequence[str] | None = None,
    roster: str | None = None,
    out: str | None = None,
) -> int:
    """``praetor report``: write the HTML report to ``out`` (standard output when ``None`` or ``"-"``).

    Without ``weapons`` or ``roster`` it reports :data:`DEFAULT_WEAPONS`. Bad names raise ``ValueError``
    naming the option and the value.
    """
    from praetor_analysis.catalog import load_targets

    tgt = select_targets(targets, load_targets())
    if roster and not Path(roster).is_file():
        raise ValueError(f"--roster: no such file: {roster!r}")
    roster_tables = _roster_tables(roster, tgt) if roster else {}
    if weapons:
        report = build_report(
            select_weapons(weapons), tgt, title="Praetor analysis: weapon comparison", roster=roster_tables
        )
    elif roster:
        report = Report(
            title="Praetor analysis: roster", comparison=pd.DataFrame(columns=_TABLE_COLUMNS), roster=roster_tables
        )
    else:
        report = build_report(
            select_weapons(DEFAULT_WEAPONS), tgt, title="Praetor analysis: iconic weapons vs standard targets"
        )
    text = to_html(report)
    if out in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(out).write_text(text, encoding="utf-8")
    return 0
