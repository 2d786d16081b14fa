"""The dashboard's matchup tab: two loaded lists against each other, with the shooting tab's modifiers army-wide.

The reader loads two lists (``.ros``, ``.rosz`` or a ``.json`` list of datasheet blocks) and presses the
button; while the work goes on the tab says so (the button reads "Computing...", the status counts the fire
plans and pairs done); then it shows both fire plans as tables (as the report does), the units that matter
most and a heatmap of points removed per 100 points (the side and phase picked). The matchup report of what it
shows (the file that reproduces the view: the same lists, modifiers and numbers, offline) is made and
downloaded only when the reader presses "Download the report".

The modifiers (:class:`~praetor_analysis.views.dashboard.modifiers.Modifiers`) apply army-wide to my list's attacks
(re-rolls, +/-1 to hit and to wound, Preferred Enemy, Furious Charge) and to their units as targets (cover,
Feel No Pain); half range applies to both lists (they stand that close). Their attacks are unmodified. My
units carry the attacker's record itself (``FieldedUnit.modifiers``; a unit's own record gives way to an
army-wide one), never rules written into their statlines; the pairs' scenarios carry it as
``attacker.modifiers``. The chart waits for a computed matchup (no empty axes); until then the tab says what to
do. :func:`modified_lists` is pure; the widgets only present its result.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import ipywidgets as W

from praetor_analysis.analysis import ArmyList, ListUnit, Matchup, key_units, load_list
from praetor_analysis.analysis.list_matchup import matchup
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.io import atomic_write_bytes
from praetor_analysis.units import NO_MODIFIERS, target_record
from praetor_analysis.views.dashboard.modifiers import Modifiers, modifier_names
from praetor_analysis.views.download import Download
from praetor_analysis.views.figures.widgets import SharedFigureWidget
from praetor_analysis.views.report.matchup import heatmap, matchup_html, plan_table_html

__all__ = ["NOTHING_YET", "MatchupTab", "list_from_bytes", "modified_lists", "modifier_note"]


def _attacking(unit: ListUnit, m: Modifiers) -> ListUnit:
    # the typed record on the unit (FieldedUnit.modifiers): the engine applies it to every model's statline and
    # weapons, and the pairs' calc scenarios carry it as attacker.modifiers (views/pair_documents.pair_scenario)
    if m.attacker == NO_MODIFIERS:
        return unit
    return replace(unit, loadout=replace(unit.loadout, modifiers=m.attacker))


def _defending(unit: ListUnit, m: Modifiers) -> ListUnit:
    block = dict(unit.target_block)
    if m.cover not in ("", "-"):
        block["Cover"] = m.cover
    if m.fnp not in ("", "-") and not unit.target.is_vehicle:
        rules = [r for r in block.get("rules", []) if not str(r).startswith("Feel No Pain")]
        block["rules"] = [*rules, f"Feel No Pain ({m.fnp})"]
    if block == dict(unit.target_block):
        return unit
    return replace(unit, target_block=block, target=target_record(block))


def modified_lists(mine: ArmyList, theirs: ArmyList, m: Modifiers) -> tuple[ArmyList, ArmyList]:
    """My list attacking with the modifiers, and theirs defending with the target modifiers (see above).

    A unit is both an attacker and a target, so my units keep their own defence and their units their own
    attacks: mine gains the attack modifiers, theirs the cover and Feel No Pain.
    """
    a = replace(mine, units=tuple(_attacking(u, m) for u in mine.units))
    b = replace(theirs, units=tuple(_defending(u, m) for u in theirs.units))
    return a, b


def modifier_note(m: Modifiers) -> str:
    """The modifiers in force, one line."""
    names = [n for n in modifier_names(m) if n]
    return ", ".join(names) if names else "no modifiers"


def list_from_bytes(data: bytes, name: str) -> ArmyList:
    """A list from an uploaded file's bytes (read from a private temporary file, removed at once)."""
    suffix = Path(name).suffix.casefold()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"list{suffix}"
        atomic_write_bytes(path, bytes(data))
        return load_list(path)


def _upload(widget: W.FileUpload) -> tuple[bytes, str] | None:
    value = widget.value
    if not value:
        return None
    item = value[0] if isinstance(value, (list, tuple)) else next(iter(value.values()))
    return bytes(item["content"]), str(item["name"])


NOTHING_YET = (
    "Load my list and their list with the two buttons above (a .ros or .rosz roster as BattleScribe or New Recruit "
    "saves it, or a .json list of datasheets), then press 'Compute the matchup': the fire plans, the units that "
    "matter most and the chart of points removed follow."
)
"""What the tab says before a matchup is computed."""


class MatchupTab:
    """The tab's widgets. ``widget`` is its root; ``compute(mine, theirs)`` runs it without uploads."""

    def __init__(self, modifiers: Callable[[], Modifiers], edition: str = "hh2") -> None:
        self._modifiers = modifiers
        self.edition = edition
        self.mine_upload = W.FileUpload(
            accept=".ros,.rosz,.json",
            multiple=False,
            description="My list",
            tooltip="My list: a .ros/.rosz roster or a JSON list of datasheets",
        )
        self.theirs_upload = W.FileUpload(
            accept=".ros,.rosz,.json",
            multiple=False,
            description="Their list",
            tooltip="Their list: a .ros/.rosz roster or a JSON list of datasheets",
        )
        self.button = W.Button(
            description="Compute the matchup",
            button_style="primary",
            tooltip="Rate every unit of each list against the other",
        )
        self.status = W.HTML(f"<small>{NOTHING_YET}</small>")
        self.answer = W.HTML()
        self.side = W.Dropdown(
            options=[("mine attacking", "mine"), ("theirs attacking", "theirs")],
            description="Side",
            tooltip="Which list attacks in the chart",
        )
        self.phase = W.Dropdown(options=["shooting", "melee"], description="Phase", tooltip="Shooting or melee")
        self.figure = SharedFigureWidget(layout={"height": 420, "title": {"text": "Load two lists"}})
        self.report_button = W.Button(
            description="Download the report",
            icon="download",
            disabled=True,
            tooltip="Make the matchup report of this view (one HTML file that works offline) and download it",
        )
        self.report_button.on_click(lambda _: self._offer_report())
        self.download = Download()
        self.result: Matchup | None = None
        self.button.on_click(lambda _: self._on_compute())
        for w in (self.side, self.phase):
            w.observe(lambda _: self._draw(), names="value")
        # no empty axes: the chart and its pickers are shown once a matchup is computed
        self.chart_box = W.VBox([W.HBox([self.side, self.phase]), self.figure], layout=W.Layout(display="none"))
        self.widget = W.VBox(
            [
                W.HBox([self.mine_upload, self.theirs_upload, self.button]),
                self.status,
                self.answer,
                self.chart_box,
                W.HBox([self.report_button, self.download]),
            ]
        )

    def compute(self, mine: ArmyList, theirs: ArmyList) -> Matchup:
        """The matchup of two lists with the modifiers in force; shown in the tab and offered as a report.

        Raises:
            ScenarioError: a list of the other edition than the dashboard's (one line that says to switch).
        """
        for army in (mine, theirs):
            if army.units and army.edition != self.edition:
                ordinal = "3rd" if army.edition == "hh3" else "2nd"
                raise ScenarioError(
                    f"{army.name}: a list of the {ordinal} edition; switch the dashboard to the {ordinal} edition "
                    "(the switch at the top) to match it"
                )
        m = self._modifiers()
        a, b = modified_lists(mine, theirs, m)
        self.report_button.disabled = True
        self.button.disabled = True
        self.button.description = "Computing..."
        self.status.value = self._computing("starting", 0, 0, a, b)
        try:
            self.result = matchup(
                a,
                b,
                half_range=m.half_range,
                progress=lambda stage, done, total: self._progress(stage, done, total, a, b),
            )
        finally:
            self.button.disabled = False
            self.button.description = "Compute the matchup"
        self._show(m)
        return self.result

    @staticmethod
    def _computing(stage: str, done: int, total: int, a: ArmyList, b: ArmyList) -> str:
        count = f": {stage} {done} of {total}" if total else ""
        return f"<b>Computing the matchup</b> ({len(a.units)} units against {len(b.units)}; some seconds){count}..."

    def _progress(self, stage: str, done: int, total: int, a: ArmyList, b: ArmyList) -> None:
        if stage != "pairs" or done == total or done % 8 == 0:  # a message to the page every few pairs
            self.status.value = self._computing(stage, done, total, a, b)

    def _on_compute(self) -> None:
        mine, theirs = _upload(self.mine_upload), _upload(self.theirs_upload)
        if mine is None or theirs is None:
            self.status.value = "<small>Load both lists first.</small>"
            return
        try:
            self.compute(list_from_bytes(*mine), list_from_bytes(*theirs))
        except (PraetorError, OSError) as exc:
            self.status.value = f"<small>Not read: {_esc(str(exc))}</small>"

    def _show(self, m: Modifiers) -> None:
        r = self.result
        assert r is not None
        parts = [f"<b>{_esc(r.mine.name)}</b> ({r.mine.points:.0f} pts) against <b>{_esc(r.theirs.name)}</b> "
                 f"({r.theirs.points:.0f} pts); {_esc(modifier_note(m))}"]  # fmt: skip
        plans = "".join(plan_table_html(plan) for plan in r.plans)
        keys = []
        for side, army in (("mine", r.mine), ("theirs", r.theirs)):
            best = ", ".join(f"{_esc(u)} ({p:.0f} pts)" for u, p in key_units(r.pairs, side))
            keys.append(f"{_esc(army.name)}: the units that matter most (points removed at their best target): {best}")
        self.answer.value = "<br>".join(parts) + plans + "<br>".join(keys)
        self.status.value = (
            "<small>Computed. 'Download the report' makes one HTML file of this view that works offline.</small>"
        )
        self.report_button.disabled = False
        self._draw()

    def _offer_report(self) -> None:
        """Make the report of the matchup shown and hand it to the browser (only when the reader asks)."""
        if self.result is None:
            return
        self.status.value = "<small>Making the report...</small>"
        self.download.offer(matchup_html(self.result), "matchup.html", "text/html")
        self.status.value = "<small>The report is downloading (matchup.html).</small>"

    def _draw(self) -> None:
        if self.result is None:
            return
        r = self.result
        atk, tgt = (r.mine, r.theirs) if self.side.value == "mine" else (r.theirs, r.mine)
        fig = heatmap(r.pairs, self.side.value, self.phase.value, f"{atk.name} against {tgt.name}: {self.phase.value}")
        with self.figure.batch_update():
            self.figure.data = ()
            self.figure.add_traces(fig.data)
            self.figure.layout = fig.layout
        self.chart_box.layout.display = None


def _esc(text: Any) -> str:
    import html

    return html.escape(str(text))
