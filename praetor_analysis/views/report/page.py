"""Standalone HTML reports: what is assumed, the answer, the figures, then the raw tables.

One HTML path (as in ``plotly.io``): :func:`to_html` is the primitive, :func:`write_html` wraps it and
:meth:`Report._repr_html_` uses its fragment form. A full page embeds plotly.js once (no CDN), so the file
works offline; the interactive block (:mod:`praetor_analysis.views.report.explorer`) redraws in the page from data
embedded once. Every string that came from a data file is escaped with :func:`html.escape`; the figures'
JSON is escaped by Plotly (``<`` becomes ``\\u003c``).

:func:`build_report` computes (it calls :mod:`praetor_analysis.analysis.compare`); :func:`to_html` only
presents. A page reads, in order: the title (a roster's name and points), "Assumptions", "The answer" (the
best choices per target and per 100 points), the figures (one colour scale per measure: models removed,
unsaved wounds, hull points), "Explore" (pick a target and weapons), and the raw tables, collapsed.
"""

from __future__ import annotations

import html
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.offline import get_plotlyjs

from praetor_analysis.errors import PraetorError, counted_noun
from praetor_analysis.io import atomic_write_text
from praetor_analysis.views.figures import plots as F
from praetor_analysis.views.formats import PAGE_CSS, number
from praetor_analysis.views.report.answer import best_table, fielded_best_table, per_point_html
from praetor_analysis.views.report.explorer import MEASURE_NAMES, explorer_data, explorer_html
from praetor_analysis.views.report.exports import (
    DEFAULT_CHROMIUM,
    PngExportUnavailable,
    figure_to_png,
    select_targets,
    select_weapons,
    to_csv,
)
from praetor_analysis.views.report.roster_tables import data_script, notes_html, unit_rows
from praetor_analysis.views.tables import COMPARISON_COLUMNS, NO_COST, table_html

if TYPE_CHECKING:
    from praetor_analysis.analysis import AttackerProfile

__all__ = [
    "DEFAULT_CHROMIUM",
    "DEFAULT_WEAPONS",
    "Assumptions",
    "PngExportUnavailable",
    "Report",
    "build_report",
    "default_report",
    "figure_to_png",
    "iconic_report",
    "report_main",
    "select_targets",
    "select_weapons",
    "table_html",
    "to_csv",
    "to_html",
    "write_html",
    "write_text",
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
_TABLE_COLUMNS = list(COMPARISON_COLUMNS)

_CSS = (
    PAGE_CSS
    + """
table.praetor th{background:#f3f3f3;position:sticky;top:0}
table.praetor td.num{text-align:right;font-variant-numeric:tabular-nums}
dl.assumptions{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;font-size:.92rem}
dl.assumptions dt{font-weight:600}dl.assumptions dd{margin:0}
.note{color:#555;font-size:.85rem}.figure{margin:1rem 0}
details{margin:.6rem 0}summary{cursor:pointer;font-weight:600}
.explorer .controls{display:flex;gap:1rem;flex-wrap:wrap;align-items:center;margin:.5rem 0}
.explorer .rows{display:flex;flex-wrap:wrap;gap:.2rem 1rem;font-size:.85rem}
"""
)


# --------------------------------------------------------------------------------------------- data
@dataclass(frozen=True)
class Assumptions:
    """What a report assumes, said before any number.

    Attributes:
        attacker: The attacker (a statline; ``models`` fire each weapon); None: the comparison's default.
        half_range: Targets at half range (Rapid Fire twice, Melta).
        charging: The attacker charged (melee weapons: +1 Attack).
        modifiers: Other modifiers in force, as rule names (``"Twin-linked"``...); none by default.
        notes: Further sentences (the roster's pistols...).
        targets: One sentence per target that carries rules or a caveat (a Knight's Ion Shield).
        attacker_text: Said instead of the attacker's statline and skill (a roster: each unit its own).
    """

    attacker: AttackerProfile | None = None
    half_range: bool = False
    charging: bool = False
    modifiers: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    attacker_text: str | None = None
    targets: tuple[str, ...] = ()

    def rows(self) -> list[tuple[str, str]]:
        """``(topic, sentence)`` pairs, in reading order (plain text, escaped when shown)."""
        from praetor_analysis.analysis import DEFAULT_ATTACKER

        a = self.attacker or DEFAULT_ATTACKER
        models = a.models
        stats = ", ".join(f"{k} {getattr(a, k)}" for k in ("WS", "BS", "S", "A", "I") if getattr(a, k) is not None)
        bs = a.BS
        hit = f" (hits on {max(7 - bs, 2)}+)" if bs is not None and 1 <= bs <= 5 else ""
        who = (
            [("Attacker", self.attacker_text)]
            if self.attacker_text
            else [
                ("Attacker", f"{a.name}: {stats}"),
                ("Skill", f"BS {bs}{hit} for shooting; WS {a.WS} in melee"),
                ("Models", f"{counted_noun(models, 'model')} fire{'s' if models == 1 else ''} each weapon"),
            ]
        )
        return [
            *who,
            ("Range", "half range (Rapid Fire fires twice, Melta applies)" if self.half_range else "full range"),
            ("Charging", "yes (+1 Attack in melee)" if self.charging else "no"),
            ("Modifiers", ", ".join(self.modifiers) if self.modifiers else "none (no re-rolls, no +1/-1, no cover)"),
            (
                "Marker weapons",
                "laid as praetor calc lays them, over a default formation of a unit that is not a Vehicle (its "
                'models in lines of five on their Unit Type\'s base, a coherency range apart: 2", Skirmish 3", '
                "Close-order 1\"), each marker scattering by the attacker's BS; at a Vehicle, whose hull is not "
                "in the data, To Hit is rolled and the marker rules are listed as not modelled",
            ),
            (
                "Casualties",
                "models removed from the target unit (a model counts once its last wound is lost); "
                "hull points for vehicles; unsaved wounds are shown apart for multi-wound models",
            ),
            *(("Target", t) for t in self.targets),
            *(("Note", n) for n in self.notes),
        ]


def target_sentences(targets: pd.DataFrame) -> tuple[str, ...]:
    """``"name: rules (caveat)"`` for each target row with rules or a note, in row order."""
    from praetor_analysis.units import UnitRow

    out = []
    for row in UnitRow.from_frame(targets):
        note = row.note
        if not (row.rules or note):
            continue
        name = row.archetype or row.name or "target"
        what = "; ".join(row.rules)
        out.append(f"{name}: {what}{f' ({note})' if what and note else note}")
    return tuple(out)


@dataclass(frozen=True)
class Report:
    """The data of a report (computed by :func:`build_report`, presented by :func:`to_html`).

    Attributes:
        title: Page title.
        comparison: The comparison DataFrame (one row per weapon x target, :func:`compare.compare` columns).
        distributions: ``(weapon_id, target_id) -> pmf`` of the comparison's measure (may be empty).
        roster: Raw tables about a roster (name -> DataFrame), shown last, collapsed.
        notes: Sentences shown under the title.
        assumptions: What the numbers assume (default: the comparison's default attacker).
        wounds: ``(weapon_id, target_id) -> pmf`` of unsaved wounds, for targets that are not vehicles.
        roster_name, roster_points: The list's name and points, for the heading.
        roster_analysis: The list analysis (:func:`list_analysis.analyse_roster` columns), for the answer
            and the summary chart.
        per_point: The iconic weapons fielded on datasheets and iconic datasheets, per 100 points
            (:func:`praetor_analysis.analysis.per_point.per_point_table`): the per-point answer of the default.
    """

    title: str
    comparison: pd.DataFrame
    distributions: Mapping[tuple[str, str], np.ndarray] = field(default_factory=dict)
    roster: Mapping[str, pd.DataFrame] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    assumptions: Assumptions = field(default_factory=Assumptions)
    wounds: Mapping[tuple[str, str], np.ndarray] = field(default_factory=dict)
    roster_name: str | None = None
    roster_points: float | None = None
    roster_analysis: pd.DataFrame | None = None
    per_point: pd.DataFrame | None = None

    def _repr_html_(self) -> str:
        return to_html(self, full_html=False)


def wound_distributions(
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    *,
    attacker: AttackerProfile | None = None,
    half_range: bool = False,
) -> dict[tuple[str, str], np.ndarray]:
    """The pmf of unsaved wounds per ``(weapon_id, target_id)`` for every target that is not a vehicle."""
    from praetor_analysis.analysis import cell_of_rows, row_ids
    from praetor_analysis.errors import PraetorError
    from praetor_analysis.scenario import run
    from praetor_analysis.units import UnitRow, WeaponRow

    out: dict[tuple[str, str], np.ndarray] = {}
    t_all = zip(row_ids(targets), UnitRow.from_frame(targets), strict=False)
    t_rows = [(tid, row) for tid, row in t_all if not row.is_vehicle]
    for wid, wrow in zip(row_ids(weapons), WeaponRow.from_frame(weapons), strict=False):
        for tid, trow in t_rows:
            try:  # the full result (the comparison's quick path keeps casualties only), from the rows' records
                result = run(cell_of_rows(wrow, trow, attacker=attacker, half_range=half_range)[0])
            except PraetorError:
                continue  # the comparison's row says why
            if "unsaved" in result:
                out[(wid, tid)] = np.asarray(result["unsaved"]["pmf"], dtype=np.float64)
    return out


def build_report(
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    *,
    attacker: AttackerProfile | None = None,
    title: str = "Weapon comparison",
    roster: Mapping[str, pd.DataFrame] | None = None,
    notes: Sequence[str] = (),
    half_range: bool = False,
) -> Report:
    """Compute the comparison, its distributions and the unsaved wounds of weapons against targets."""
    from praetor_analysis.analysis import compare_with_distributions

    table, dists = compare_with_distributions(weapons, targets, attacker=attacker, half_range=half_range)
    wounds = wound_distributions(weapons, targets, attacker=attacker, half_range=half_range)
    return Report(
        title=title,
        comparison=table,
        distributions=dists,
        roster=dict(roster or {}),
        notes=tuple(notes),
        assumptions=Assumptions(attacker=attacker, half_range=half_range, targets=target_sentences(targets)),
        wounds=wounds,
    )


# ------------------------------------------------------------------------------------------ presentation
def _figure_div(fig: go.Figure) -> str:
    return (
        '<div class="figure">'
        + pio.to_html(fig, full_html=False, include_plotlyjs=False, config={"displaylogo": False, "responsive": True})
        + "</div>"
    )


def _assumptions_html(a: Assumptions) -> str:
    items = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in a.rows())
    return f'<h2 id="assumptions">Assumptions</h2><dl class="assumptions">{items}</dl>'


def _heatmaps(df: pd.DataFrame, wounds: pd.DataFrame | None, row_kind: str) -> list[str]:
    """Expected damage heatmaps, one per measure (its own colour scale), then P(at least one)."""
    out = []
    measures = [("casualties", "Expected models removed"), ("hull_points", "Expected hull points removed")]
    for measure, title in measures:
        part = df[df["measure"] == measure]
        if len(part) and pd.to_numeric(part["mean"], errors="coerce").notna().any():
            unit = MEASURE_NAMES[measure][1]
            opts = F.HeatmapOptions(metric="mean", title=title, row_title=row_kind, unit=unit)
            out.append(_figure_div(F.efficiency_heatmap(part, opts)))
    if wounds is not None and len(wounds):
        opts = F.HeatmapOptions(
            metric="mean", title="Expected unsaved wounds (non-vehicles)", row_title=row_kind, unit="wounds"
        )
        out.append(_figure_div(F.efficiency_heatmap(wounds, opts)))
    if "p_any" in df and pd.to_numeric(df["p_any"], errors="coerce").notna().any():
        opts = F.HeatmapOptions(
            metric="p_any",
            colorscale="Cividis",
            title="Chance of at least one model or hull point",
            row_title=row_kind,
        )
        out.append(_figure_div(F.efficiency_heatmap(df, opts)))
    return out


def _wounds_frame(report: Report) -> pd.DataFrame | None:
    if not report.wounds:
        return None
    df = report.comparison
    rows = []
    for rec in df.to_dict("records"):
        pmf = report.wounds.get((rec["weapon_id"], rec["target_id"]))
        if pmf is None:
            continue
        mean = float(np.arange(pmf.size) @ pmf)
        rows.append({**rec, "measure": "wounds", "mean": mean, "p_any": float(pmf[1:].sum())})
    return pd.DataFrame(rows) if rows else None


def _explorer(report: Report) -> str:
    df = report.comparison
    if df.empty or not (report.distributions or report.wounds):
        return ""
    labels = F.weapon_labels(df)
    rows = list(dict.fromkeys(html.unescape(v) for v in labels))
    targets = list(dict.fromkeys(df["target"].astype(str)))
    pmfs: dict[tuple[int, int, str], Any] = {}
    ri, ti = {r: i for i, r in enumerate(rows)}, {t: j for j, t in enumerate(targets)}
    for label, (_, rec) in zip(labels.tolist(), df.iterrows(), strict=True):
        key = (rec["weapon_id"], rec["target_id"])
        i, j = ri[html.unescape(label)], ti[str(rec["target"])]
        if key in report.distributions:
            pmfs[(i, j, str(rec["measure"]))] = report.distributions[key]
        if key in report.wounds:
            pmfs[(i, j, "wounds")] = report.wounds[key]
    return explorer_html(explorer_data(rows, targets, pmfs))


def _roster_summary(analysis: pd.DataFrame) -> list[str]:
    """The whole list's expected damage per target (one figure per phase and measure), then unit x target."""
    from praetor_analysis.analysis import WHOLE_LIST

    out = []
    whole = analysis[analysis["unit"] == WHOLE_LIST]
    for phase in dict.fromkeys(whole["phase"]):
        for measure, title in (("casualties", "models removed"), ("hull_points", "hull points removed")):
            part = whole[(whole["measure"] == measure) & (whole["phase"] == phase)]
            if len(part):
                unit = MEASURE_NAMES[measure][1]
                fig = F.summary_bars(
                    part["target"].astype(str).tolist(),
                    pd.to_numeric(part["mean"], errors="coerce").tolist(),
                    F.SummaryOptions(
                        title=f"Whole list, {phase}: expected {title}, the sum over its units, each at a fresh target",
                        unit=unit,
                    ),
                )
                out.append(_figure_div(fig))
    out += _heatmaps(unit_rows(analysis), None, "unit")[:2]
    return out


def _report_body(report: Report) -> str:
    df = report.comparison
    roster = report.roster_analysis
    parts = [f"<h1>{html.escape(report.title)}</h1>"]
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    if report.roster_name is not None:
        pts = f", {number(report.roster_points)} points" if report.roster_points else ""
        n_units = roster.loc[roster["unit"] != "Whole list", "unit_index"].nunique() if roster is not None else 0
        parts.append(f'<p class="lead"><strong>{html.escape(report.roster_name)}</strong>{pts}; {n_units} units.</p>')
    what = []
    if not df.empty:
        what.append(f"{df['weapon_id'].nunique()} weapon profiles x {df['target_id'].nunique()} targets")
    if roster is not None and len(roster):
        n = roster.loc[roster["unit"] != "Whole list", "unit_index"].nunique()
        what.append(f"{n} units x {roster['target'].nunique()} targets")
    parts.append(
        f'<p class="note">{"; ".join(what) + "; " if what else ""}exact probabilities '
        f"(no sampling); made by praetor_analysis on {stamp}.</p>"
    )
    parts += [f'<p class="note">{html.escape(n)}</p>' for n in report.notes]
    parts.append(_assumptions_html(report.assumptions))
    if roster is not None and len(roster):
        parts.append("<h2>The list at a glance</h2>")
        parts += _roster_summary(roster)
        parts.append("<h2>The answer: the best unit per target</h2>")
        parts.append(best_table(unit_rows(roster), "unit", "unit"))
        parts.append(notes_html(roster))
        parts.append(data_script(roster))
    if df.empty and report.per_point is not None and len(report.per_point):  # datasheets alone (the 3rd edition)
        parts.append("<h2>The answer: the best datasheet per target</h2>")
        parts.append(fielded_best_table(report.per_point))
        parts.append("<h2>Per 100 points, as fielded</h2>")
        parts.append(per_point_html(report.per_point))
    if not df.empty:
        parts.append("<h2>The answer: the best weapon per target</h2>")
        wounds = _wounds_frame(report)
        labelled = df.assign(_label=F.weapon_labels(df).map(html.unescape))
        if wounds is not None:
            wounds = wounds.assign(_label=F.weapon_labels(wounds).map(html.unescape))
        parts.append(best_table(labelled, "_label", "weapon", wounds, report.per_point))
        parts.append("<h2>Expected damage</h2>")
        parts += _heatmaps(df, wounds, "weapon")
        if "mean_per_100pts" in df and pd.to_numeric(df["mean_per_100pts"], errors="coerce").notna().any():
            parts.append("<h2>Points efficiency</h2>")
            parts.append(_figure_div(F.points_efficiency_bars(df)))
        if report.per_point is not None and len(report.per_point):
            parts.append("<h2>Per 100 points, as fielded</h2>")
            parts.append(per_point_html(report.per_point))
        block = _explorer(report)
        if block:
            parts.append("<h2>Explore: chance of at least k</h2>")
            parts.append(
                '<p class="note">Pick a target, a measure and the weapons; the figure redraws in the page.</p>'
            )
            parts.append(block)
    raw: list[tuple[str, str]] = []
    if not df.empty:
        raw.append(
            ("Comparison table", table_html(df, _TABLE_COLUMNS, missing={"points": NO_COST}, download="comparison.csv"))
        )
        if "error" in df:
            bad = df[df["error"].fillna("").astype(str).str.len() > 0]
            if not bad.empty:
                raw.append(
                    ("Not computed", table_html(bad, ["weapon", "target", "error"], download="not_computed.csv"))
                )
    raw += [
        (str(name), table_html(table, download=f"{_file_stem(str(name))}.csv")) for name, table in report.roster.items()
    ]
    if raw:
        parts.append("<h2>Raw tables</h2>")
        parts += [f"<details><summary>{html.escape(name)}</summary>{body}</details>" for name, body in raw]
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
    atomic_write_text(out, to_html(obj, full_html=True))
    return out


# ------------------------------------------------------------------------------------------ entry points
def default_report() -> str:
    """The shipped default: the iconic weapons of :data:`DEFAULT_WEAPONS` against every standard target, and per
    100 points as fielded on datasheets (:func:`iconic_report`)."""
    from praetor_analysis.catalog import load_targets

    return to_html(iconic_report(load_targets()))


def iconic_report(targets: pd.DataFrame) -> Report:
    """The iconic weapons against ``targets`` (one model at BS 4), and per 100 points: the weapons fielded on the
    datasheets that carry them and a few iconic datasheets (:mod:`praetor_analysis.analysis.per_point`)."""
    from praetor_analysis.analysis import per_point_table
    from praetor_analysis.scenario import target_of_block
    from praetor_analysis.units import UnitRow, target_from_row

    report = build_report(
        select_weapons(DEFAULT_WEAPONS), targets, title="Praetor analysis: iconic weapons vs standard targets"
    )
    units = [(r.archetype, target_of_block(target_from_row(r).to_block())) for r in UnitRow.from_frame(targets)]
    return replace(report, per_point=per_point_table(units))


def roster_report(path: str, targets: pd.DataFrame, *, half_range: bool = False) -> Report:
    """The report of a roster: its name and points, the whole list per target, the best unit per target."""
    from praetor_analysis.analysis import analyse_roster
    from praetor_analysis.bsdata import (
        read_roster,
        roster_units_frame,
        roster_weapons_frame,
    )
    from praetor_analysis.catalog import load_targets
    from praetor_analysis.units import read_roster_units

    roster = read_roster(path)
    if roster.edition == "hh3" and "SAV" not in targets.columns:  # the 3rd edition's standard targets
        targets = load_targets("hh3")
    analysis = analyse_roster(roster, targets, half_range=half_range)
    account = read_roster_units(roster.document, Path(path).name).account()
    tables = {
        f"{roster.name}: list analysis": analysis,
        f"{roster.name}: units": roster_units_frame(roster),
        f"{roster.name}: weapons": roster_weapons_frame(roster),
    }
    return Report(
        title=f"{roster.name}: list analysis",
        comparison=pd.DataFrame(columns=_TABLE_COLUMNS),
        roster=tables,
        assumptions=Assumptions(
            half_range=half_range,
            attacker_text="each unit of the list as fielded, with its own statlines and wargear, against a fresh "
            "target: in shooting each model fires one ranged weapon, its best for the target (Vehicles, "
            "Dreadnoughts, Monstrous and Mechanised models fire every weapon); in melee each model strikes with "
            "its best melee weapon, charging, the target not striking back",
            targets=target_sentences(targets),
        ),
        notes=(account,),
        roster_name=str(roster.name),
        roster_points=float(roster.points) if roster.points else None,
        roster_analysis=analysis,
    )


def report_main(
    weapons: Sequence[str] | None = None,
    targets: Sequence[str] | None = None,
    roster: str | None = None,
    out: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> int:
    """``praetor report``: write the HTML report to ``out`` (standard output when ``None`` or ``"-"``).

    Without ``weapons`` or ``roster`` it reports :data:`DEFAULT_WEAPONS`. Bad names raise ``PraetorError``
    naming the option and the value. ``progress(stage, done, total)`` is told each stage as it starts.
    """
    from praetor_analysis.catalog import load_targets

    tell = progress or (lambda stage, done, total: None)
    tgt = select_targets(targets, load_targets())
    if roster and not Path(roster).is_file():
        raise PraetorError(f"--roster: no such file: {roster!r}")
    if roster:
        stages = 3 if weapons else 2
        tell("rating every unit of the roster", 1, stages)
        report = roster_report(roster, tgt)
        if weapons:
            tell("comparing the weapons", 2, stages)
            extra = build_report(select_weapons(weapons), tgt)
            report = replace(
                report, comparison=extra.comparison, distributions=extra.distributions, wounds=extra.wounds
            )
    elif weapons:
        report = build_report(select_weapons(weapons), tgt, title="Praetor analysis: weapon comparison")
    else:
        report = iconic_report(tgt)
    if roster:
        tell("writing the page", stages, stages)
    text = to_html(report)
    write_text(text, out)
    return 0


def write_text(text: str, out: str | None) -> None:
    """A page to ``out`` (standard output when ``None`` or ``"-"``; a file written whole or not at all)."""
    if out in (None, "-"):
        sys.stdout.write(text)
    else:
        atomic_write_text(str(out), text)


def _file_stem(name: str) -> str:
    """A table's name as a file name: ``Roster units`` -> ``roster_units``."""
    return "_".join("".join(ch if ch.isalnum() else " " for ch in name.casefold()).split()) or "table"
