"""The workbench tab: units side by side, each with its loadout and its own modifiers, against several targets.

Build an attacker (a datasheet at a size with options from its own list as ``praetor calc`` reads them for the
force's Legion, priced; a statline with a weapon; or a unit of a loaded roster, priced as the roster prices it:
:mod:`praetor_analysis.views.workbench.roster`), set its modifiers and phase, add it (up to
:data:`~praetor_analysis.views.workbench.view.MAX_ATTACKERS`); choose the targets (a datasheet or a roster's
unit too: "Add as target"). The table and the chart give expected models, wounds (hull points) and points
removed per 100 points; a click on a cell of the chart (or the cell picker) shows that cell's whole
distribution and the chance of at least k. "Save setup" downloads the setup as scenarios ``praetor calc``
runs; a saved file loads back; "Export report" downloads the view as an offline page. The numbers are
:mod:`praetor_analysis.views.workbench.view`'s; no probability is computed here.
"""

from __future__ import annotations

import html
import json
import shutil
import tempfile
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as W
import pandas as pd
import plotly.graph_objects as go

from praetor_analysis.catalog import frame_rows
from praetor_analysis.units import REROLL_CHOICES, Modifiers
from praetor_analysis.views.controls import labelled, note
from praetor_analysis.views.download import Download
from praetor_analysis.views.figures import specs as S
from praetor_analysis.views.figures.live import sync_figure
from praetor_analysis.views.figures.plots import figure_of
from praetor_analysis.views.figures.widgets import SharedFigureWidget
from praetor_analysis.views.formats import counted_noun, number
from praetor_analysis.views.tables import table_html
from praetor_analysis.views.workbench.roster import LoadedRoster, local_scenarios, read_loaded_roster, roster_name_of
from praetor_analysis.views.workbench.targets import cells_heatmap, setup_targets, sheet_target, statline_target
from praetor_analysis.views.workbench.view import (
    MAX_ATTACKERS,
    Attacker,
    Target,
    cell_pmf,
    cells_table,
    legion_choices,
    loadout_item,
    option_choices,
    run_cells,
    setup_from_scenarios,
    setup_scenarios,
)

__all__ = ["Workbench"]

_MODS = (("-1", -1), ("0", 0), ("+1", 1))
_DEFAULT_TARGETS = ("Legionary (Tactical Squad)", "Tartaros Terminator", "Rhino")
_MEASURES = [
    ("Points removed per 100 points of the attacker", "per_100_pts"),
    ("Expected models removed (a vehicle: P(wrecked))", "models"),
    ("Expected wounds (a vehicle: hull points)", "wounds"),
]
_SAVES = ["-", "2+", "3+", "4+", "5+", "6+"]
_KINDS = ["Datasheet", "Statline", "Roster unit"]
_COLUMNS = ["attacker", "points", "target", "measure", "models", "wounds", "p_any", "points_removed", "per_100_pts"]


def _sheet_label(r: dict[str, Any]) -> str:
    lo, hi = int(r["min_models"]), int(r["max_models"])
    size = f"{lo}" if lo == hi else f"{lo}-{hi}"
    return f"{r['name']} ({r['faction']}; {counted_noun(size, 'model')}, {number(r['base_points'])} pts)"


class Workbench:
    """The workbench's widgets (``widget``), its attackers and targets, and the figures ``chart`` (a heatmap of
    points removed per 100 points, attacker x target: click a cell) and ``cell`` (the clicked cell's
    distribution and its chance of at least k). ``roster``: the bytes and file name of a roster loaded elsewhere
    (the roster tab), whose units it offers."""

    def __init__(self, targets: pd.DataFrame | None = None, *, roster: tuple[bytes, str] | None = None) -> None:
        from praetor_analysis import catalog

        self.sheets = catalog.load_datasheets()
        self.sheets = self.sheets[~self.sheets["hidden"]].reset_index(drop=True)
        self.weapons = catalog.load_weapons().drop_duplicates("name")
        self.target_rows = catalog.load_targets() if targets is None else targets
        self.attackers: list[Attacker] = []
        self.roster: LoadedRoster | None = None
        self.extra_targets: dict[str, Target] = {}  # datasheets and roster units added as targets, by label
        self._roster_paths: dict[str, Path] = {}  # every roster loaded, by the file name a setup names
        self._roster_dir = Path(tempfile.mkdtemp(prefix="praetor-workbench-"))
        weakref.finalize(self, shutil.rmtree, self._roster_dir, True)
        self.results: list[dict[str, Any] | str] = []
        self.table_frame = pd.DataFrame()
        self._sheet_labels = [(_sheet_label(r), i) for i, r in enumerate(frame_rows(self.sheets))]

        self.kind = labelled(
            W.ToggleButtons,
            "Attacker",
            "A datasheet with its size and options, a statline with one weapon, or a unit of a loaded roster",
            options=_KINDS,
        )
        self.find = labelled(W.Text, "Find", "Part of a datasheet's name", placeholder="e.g. Tactical")
        self.sheet = labelled(W.Dropdown, "Datasheet", "The unit's datasheet", width="46em")
        self.legion = labelled(
            W.Dropdown,
            "Legion",
            "The Legion of the force fielding it: the options the data shows only to some Legions follow it",
            options=legion_choices(),
            width="30em",
        )
        self.size = labelled(W.IntSlider, "Size", "Models in the unit (the datasheet's limits)", min=1, max=1)
        self.loadout = labelled(
            W.SelectMultiple,
            "Options",
            "Wargear options the datasheet offers, with their cost (Ctrl-click for several)",
            rows=6,
            width="46em",
        )
        self.bs = labelled(W.IntSlider, "BS", "The statline's Ballistic Skill", value=4, min=1, max=10)
        self.models = labelled(
            W.IntSlider, "Models", "Models with the weapon (as a target: models in the unit)", value=1, min=1, max=20
        )
        self.unit_points = labelled(
            W.BoundedIntText,
            "Unit pts",
            "The statline unit's points (0: none; then no points removed per 100)",
            max=5000,
        )
        self.toughness = labelled(W.IntSlider, "T", "As a target: Toughness", value=4, min=1, max=10)
        self.wounds = labelled(W.IntSlider, "W", "As a target: Wounds of each model", value=1, min=1, max=10)
        self.armour = labelled(W.Dropdown, "Save", "As a target: armour save", options=_SAVES, value="3+")
        self.invulnerable = labelled(W.Dropdown, "Invulnerable", "As a target: invulnerable save", options=_SAVES)
        self.target_points = labelled(
            W.BoundedIntText, "Pts/model", "As a target: points per model (0: none, no points removed)", max=1000
        )
        self.weapon = labelled(
            W.Dropdown, "Weapon", "The statline's weapon", options=sorted(self.weapons["name"]), width="30em"
        )
        self.roster_upload = labelled(
            W.FileUpload,
            "Load a roster",
            "A BattleScribe or New Recruit list (.ros or .rosz); the roster tab's list comes here too",
            accept=".ros,.rosz",
            multiple=False,
        )
        self.roster_status = W.HTML("No roster loaded: load one here or in the roster tab.")
        self.roster_unit = labelled(
            W.Dropdown, "Roster unit", "A unit of the loaded roster, priced as the roster prices it", width="46em"
        )
        self.add_target = labelled(
            W.Button, "Add as target", "Add the datasheet, statline or roster unit built above to the targets"
        )
        self.phase = labelled(W.ToggleButtons, "Phase", "Shooting, or blows in melee", options=["shooting", "melee"])
        self.reroll_hits = labelled(
            W.Dropdown, "Re-roll hits", "This attacker re-rolls failed hits", options=REROLL_CHOICES
        )
        self.reroll_wounds = labelled(
            W.Dropdown, "Re-roll wounds", "This attacker re-rolls failed wounds", options=REROLL_CHOICES
        )
        self.to_hit = labelled(W.Dropdown, "To hit", "+1 or -1 to its hit rolls", options=_MODS, value=0)
        self.to_wound = labelled(W.Dropdown, "To wound", "+1 or -1 to its wound rolls", options=_MODS, value=0)
        self.preferred_enemy = labelled(W.Checkbox, "Preferred Enemy", "Re-roll hit and wound rolls of 1")
        self.charging = labelled(W.Checkbox, "Charging", "It charged this turn (melee: +1 Attack)")
        self.furious_charge = labelled(W.Checkbox, "Furious Charge", "+1 Strength on the charge")
        self.add = labelled(W.Button, "Add attacker", f"Add this attacker to the table (at most {MAX_ATTACKERS})")
        self.chosen = labelled(W.Select, "Attackers", "The attackers side by side", rows=4, width="46em")
        self.remove = labelled(W.Button, "Remove", "Remove the attacker chosen above")
        labels = list(self.target_rows["archetype"])
        self.targets = labelled(
            W.SelectMultiple,
            "Targets",
            "The targets (Ctrl-click for several)",
            options=labels,
            value=tuple(t for t in _DEFAULT_TARGETS if t in labels),
            rows=6,
            width="30em",
        )
        self.half_range = labelled(W.Checkbox, "Half range", "Within half range: Rapid Fire twice, Melta")
        self.measure = labelled(
            W.Dropdown,
            "Chart",
            "What the chart shows of each cell (the table has them all)",
            options=_MEASURES,
            value="per_100_pts",
            width="30em",
        )
        self.pick = labelled(W.Dropdown, "Cell", "The cell whose distribution is drawn (or click the chart)")
        self.save = labelled(
            W.Button, "Save setup", "Download the setup as workbench_setup.json (praetor calc runs it)"
        )
        self.export = labelled(
            W.Button,
            "Export report",
            "Download this view as workbench_report.html: the table, the charts, P(at least k) and the setup",
        )
        self.load = labelled(
            W.FileUpload, "Load a setup", "A file saved by 'Save setup'", accept=".json", multiple=False
        )
        self.download = Download()
        self.status = W.HTML()
        self.table = W.HTML()
        # The figures are made with their first content: a kernel Voila heats before the page connects sends
        # the page the widgets' state, not the updates made before it connected.
        self.chart: SharedFigureWidget | None = None
        self.cell: SharedFigureWidget | None = None
        self.chart_box = W.Box(layout=W.Layout(display="none"))
        self.cell_box = W.Box(layout=W.Layout(display="none"))
        self._quiet = False
        self.on_refresh: list[Callable[[], object]] = []  # called at each refresh (the page's address follows)
        self._wire()
        self._filter_sheets("")
        self.widget = self._layout()
        self.add_attacker()  # a Tactical Squad to start with, so the tab opens with numbers
        if roster is not None:  # a roster loaded elsewhere (the roster tab): its units to add
            self.use_roster(*roster)

    # --- layout and wiring ------------------------------------------------------------------------------
    def _layout(self) -> W.VBox:
        sheet = W.VBox([self.find, self.sheet, self.legion, self.size, self.loadout])
        statline = W.VBox(
            [
                W.HBox(
                    [
                        W.VBox([self.bs, self.models, self.weapon, self.unit_points]),
                        W.VBox([self.toughness, self.wounds]),
                    ]
                ),
                W.HBox([self.armour, self.invulnerable, self.target_points]),
            ]
        )
        roster = W.VBox([self.roster_upload, self.roster_status, self.roster_unit])
        self.builder = W.Stack([sheet, statline, roster], selected_index=0)
        mods = W.HBox(
            [
                W.VBox([self.phase, self.charging, self.furious_charge]),
                W.VBox([self.reroll_hits, self.reroll_wounds, self.preferred_enemy]),
                W.VBox([self.to_hit, self.to_wound]),
            ]
        )
        return W.VBox(
            [
                note(
                    "Build an attacker, set its own modifiers and press 'Add attacker'; add up to "
                    f"{MAX_ATTACKERS} and choose the targets. Click a cell of the chart for its whole distribution."
                ),
                self.kind,
                self.builder,
                mods,
                W.HBox([self.add, self.add_target]),
                W.HBox([self.chosen, self.remove]),
                W.HBox([self.targets, W.VBox([self.half_range, self.save, self.export, self.load, self.download])]),
                self.status,
                self.chart_box,
                W.HBox([self.measure, self.pick]),
                self.cell_box,
                self.table,
            ]
        )

    def _wire(self) -> None:
        self.kind.observe(lambda c: setattr(self.builder, "selected_index", _KINDS.index(c["new"])), "value")
        self.find.observe(lambda c: self._filter_sheets(str(c["new"])), "value")
        self.sheet.observe(lambda c: self._sheet_chosen(), "value")
        self.legion.observe(lambda c: self._list_options(), "value")
        self.add.on_click(lambda _: self.add_attacker())
        self.remove.on_click(lambda _: self.remove_attacker(self.chosen.index))
        for w in (self.targets, self.half_range):
            w.observe(lambda c: None if self._quiet else self.refresh(), "value")
        self.pick.observe(lambda c: self._show_cell(), "value")
        self.measure.observe(lambda c: self._show_chart(self.chosen_targets()) if self.results else None, "value")
        self.save.on_click(lambda _: self.save_setup())
        self.export.on_click(lambda _: self.export_report())
        self.load.observe(self._on_load, "value")
        self.roster_upload.observe(self._on_roster, "value")
        self.add_target.on_click(lambda _: self.add_built_target())

    def _filter_sheets(self, text: str) -> None:
        key = text.strip().lower()
        opts = [o for o in self._sheet_labels if key in o[0].lower()][:300] if key else self._sheet_labels[:300]
        default = next((i for label, i in opts if label.startswith("Tactical Squad (")), opts[0][1] if opts else None)
        self.sheet.options = opts
        if opts:
            self.sheet.value = default if self.sheet.value not in [i for _, i in opts] else self.sheet.value
        self._sheet_chosen()

    def _sheet_chosen(self) -> None:
        if self.sheet.value is None:
            return
        r = self.sheets.iloc[int(self.sheet.value)]
        lo, hi = int(r["min_models"]), int(r["max_models"])
        self.size.min, self.size.max = 1, max(hi, 1)
        self.size.min, self.size.value = lo, lo
        self.size.disabled = lo == hi
        self.loadout.value = ()
        self._list_options()

    def _list_options(self) -> None:
        """The chosen datasheet's options as ``praetor calc`` reads them for the chosen Legion (those taken
        that still show stay taken)."""
        if self.sheet.value is None:
            return
        r = self.sheets.iloc[int(self.sheet.value)]
        taken = set(self.loadout.value)
        self.loadout.options = option_choices(str(r["name"]), str(r["faction"]), self.legion.value or None)
        self.loadout.value = tuple(v for _, v in self.loadout.options if v in taken)

    # --- reading the builder ------------------------------------------------------------------------------
    def modifiers(self) -> Modifiers:
        """The builder's modifiers."""
        return Modifiers(
            reroll_hits=self.reroll_hits.value,
            reroll_wounds=self.reroll_wounds.value,
            to_hit=self.to_hit.value,
            to_wound=self.to_wound.value,
            preferred_enemy=self.preferred_enemy.value,
            furious_charge=self.furious_charge.value,
        )

    def built(self) -> Attacker:
        """The attacker the builder describes (not yet added).

        Raises:
            ValueError: A roster unit is asked for and no roster is loaded.
        """
        words = self.modifiers().words(melee=self.phase.value == "melee")
        extra = [self.phase.value] + (["charging"] if self.charging.value and self.phase.value == "melee" else [])
        if self.kind.value == "Roster unit":
            if self.roster is None or self.roster_unit.value is None:
                raise ValueError("no roster loaded")
            a = self.roster.attacker(
                int(self.roster_unit.value), self.phase.value, self.modifiers(), charging=self.charging.value
            )
            return Attacker(
                f"{a.label} [{', '.join([*extra, *words])}]", a.block, a.weapon, a.phase, a.modifiers, a.charging
            )
        if self.kind.value == "Statline":
            block: dict[str, Any] = {"BS": self.bs.value, "models": self.models.value}
            label, weapon = f"{self.models.value} x {self.weapon.value} (BS {self.bs.value})", self.weapon.value
            if self.unit_points.value:  # a label for calc; the table reads it (docs/scenario.md: unit block)
                block["points"] = int(self.unit_points.value)
                label = f"{label[:-1]}, {self.unit_points.value} pts)"
        else:
            block, label = self.sheet_block()
            weapon = None
        label = f"{label} [{', '.join([*extra, *words])}]"
        return Attacker(label, block, weapon, self.phase.value, self.modifiers(), self.charging.value)

    def sheet_block(self) -> tuple[dict[str, Any], str]:
        """The datasheet the builder describes as a scenario block (name, faction, size, Legion, loadout) and its
        label (``Tactical Squad x10, Dark Angels (Power Fist)``)."""
        r = self.sheets.iloc[int(self.sheet.value)]
        block: dict[str, Any] = {"name": str(r["name"]), "faction": str(r["faction"]), "size": int(self.size.value)}
        if self.legion.value:
            block["legion"] = self.legion.value
        items = [loadout_item(i) for i in self.loadout.value]
        if items:
            block["loadout"] = items
        names = ", ".join(i if isinstance(i, str) else i["option"] for i in items)
        label = f"{r['name']} x{self.size.value}" + (f", {self.legion.value}" if self.legion.value else "")
        return block, label + (f" ({names})" if names else "")

    def statline_target(self) -> Target:
        """The statline builder as a target: its models, T, W, saves and points per model (0: none)."""
        return statline_target(
            int(self.models.value),
            int(self.toughness.value),
            int(self.wounds.value),
            str(self.armour.value),
            str(self.invulnerable.value),
            int(self.target_points.value),
        )

    def chosen_targets(self) -> list[Target]:
        """The targets chosen, as scenario target blocks (the target list's own model counts), then the roster
        units added as targets that are chosen."""
        rows = self.target_rows[self.target_rows["archetype"].isin(self.targets.value)]
        out = []
        for r in rows.to_dict("records"):
            pts = pd.to_numeric(pd.Series([r.get("points")]), errors="coerce").iloc[0]
            out.append(Target(str(r["archetype"]), {"name": str(r["archetype"])}, float(pts)))
        return out + [t for label, t in self.extra_targets.items() if label in self.targets.value]

    # --- a loaded roster ------------------------------------------------------------------------------------------
    def use_roster(self, data: bytes, name: str) -> bool:
        """Load roster bytes: its units become the roster units to add (as attackers or targets); bad bytes
        are said, not raised. The attackers and targets of another roster already added stay as they are."""
        from praetor_analysis.errors import PraetorError

        try:
            roster = read_loaded_roster(data, name, self._roster_dir / str(len(list(self._roster_dir.iterdir()))))
        except PraetorError as exc:
            self.roster_status.value = f"Not read: {html.escape(str(exc))}"
            return False
        self.roster = roster
        self._roster_paths[roster.name] = roster.path
        self.roster_unit.options = roster.choices()
        self.roster_unit.value = 0
        total = sum(u.points for u in roster.units)
        self.roster_status.value = html.escape(
            f"{roster.name}: {len(roster.units)} units, {total:g} pts. A saved setup names it by this file name: "
            "run praetor calc in the folder holding it."
        )
        return True

    def add_built_target(self) -> Target | None:
        """Add the datasheet (at its size, Legion and loadout), the statline (:meth:`statline_target`) or the
        roster unit of the builder to the targets."""
        if self.kind.value == "Roster unit":
            return self.add_roster_target()
        if self.kind.value == "Statline":
            made = self.statline_target()
            self._add_extra_target(made)
            return made
        from praetor_analysis.errors import PraetorError

        block, label = self.sheet_block()
        try:
            t = sheet_target(f"{label} (target)", block)
        except PraetorError as exc:
            self.status.value = f"Not added: {html.escape(str(exc))}"
            return None
        self._add_extra_target(t)
        return t

    def _add_extra_target(self, t: Target) -> None:
        self.extra_targets[t.label] = t
        self._set_targets((*[v for v in self.targets.value if v != t.label], t.label))

    def add_roster_target(self, index: int | None = None) -> Target | None:
        """Add a unit of the loaded roster (the one chosen, or ``index``) to the targets, chosen."""
        if self.roster is None:
            self.status.value = "Load a roster first (the roster tab or 'Roster unit' here)."
            return None
        t = self.roster.target(int(self.roster_unit.value if index is None else index))
        self._add_extra_target(t)
        return t

    def _set_targets(self, chosen: tuple[str, ...], *, refresh: bool = True) -> None:
        self._quiet = True
        self.targets.options = [*self.target_rows["archetype"], *self.extra_targets]
        self.targets.value = chosen
        self._quiet = False
        if refresh:
            self.refresh()

    def _on_roster(self, change: dict[str, Any]) -> None:
        files = change["new"] or ()
        if files:
            self.use_roster(bytes(files[0]["content"]), str(files[0]["name"]))

    # --- actions ----------------------------------------------------------------------------------------------
    def add_attacker(self, attacker: Attacker | None = None) -> Attacker | None:
        """Add the builder's attacker (or ``attacker``); says why not when there are already eight."""
        if attacker is None and self.kind.value == "Roster unit" and self.roster is None:
            self.status.value = "Load a roster first (the roster tab or 'Roster unit' here)."
            return None
        a = attacker or self.built()
        if len(self.attackers) >= MAX_ATTACKERS:
            self.status.value = f"At most {MAX_ATTACKERS} attackers side by side: remove one first."
            return None
        labels = {x.label for x in self.attackers}
        base, n = a.label, 2
        while a.label in labels:
            a = Attacker(f"{base} #{n}", a.block, a.weapon, a.phase, a.modifiers, a.charging)
            n += 1
        self.attackers.append(a)
        self.refresh()
        return a

    def remove_attacker(self, index: int | None) -> None:
        """Remove the attacker at ``index`` of the list."""
        if index is not None and 0 <= index < len(self.attackers):
            del self.attackers[index]
            self.refresh()

    def scenarios(self) -> list[dict[str, Any]]:
        """The setup as ``praetor calc`` scenarios (one per attacker and target)."""
        return setup_scenarios(self.attackers, self.chosen_targets(), half_range=self.half_range.value)

    def refresh(self) -> pd.DataFrame:
        """Compute every cell (``praetor calc``'s numbers) and show the table, the chart and the picked cell."""
        for callback in self.on_refresh:
            callback()
        self.chosen.options = [(a.label, i) for i, a in enumerate(self.attackers)]
        targets = self.chosen_targets()
        if not self.attackers or not targets:
            self.results, self.table_frame = [], pd.DataFrame()
            self.status.value = "Add an attacker and choose at least one target: the table and the chart follow."
            self.table.value = ""
            self.chart_box.layout.display = self.cell_box.layout.display = "none"
            self.pick.options = []
            return self.table_frame
        self.results = run_cells(local_scenarios(self.scenarios(), self._roster_paths))
        self.table_frame = cells_table(self.attackers, targets, self.results)
        self.table.value = table_html(self.table_frame, [*_COLUMNS, "not_modelled", "error"])
        errors = self.table_frame["error"].astype(str).str.len().gt(0).sum() if "error" in self.table_frame else 0
        self.status.value = f"{len(self.attackers)} attackers x {len(targets)} targets" + (
            f"; {errors} cells refused (see the table)" if errors else ""
        )
        self._show_chart(targets)
        cells = [
            (f"{a.label} vs {t.label}", i) for i, (a, t) in enumerate((a, t) for a in self.attackers for t in targets)
        ]
        self._quiet = True
        keep = self.pick.value if self.pick.value is not None and self.pick.value < len(cells) else 0
        self.pick.options = cells
        self._quiet = False
        self.pick.value = keep
        self._show_cell()
        return self.table_frame

    def _show_chart(self, targets: list[Target]) -> None:
        title = f"{self.measure.label}: click a cell for its whole distribution"
        fig = cells_heatmap(
            self.table_frame, [a.label for a in self.attackers], [t.label for t in targets], self.measure.value, title
        )
        if self.chart is None:
            self.chart = SharedFigureWidget(fig)
            self.chart.data[0].on_click(self._on_click)
            self.chart_box.children = (self.chart,)
        else:
            sync_figure(self.chart, fig)
        self.chart_box.layout.display = None

    def _on_click(self, trace: Any, points: Any, state: Any) -> None:
        if not points.point_inds:
            return
        i, j = points.point_inds[0] if isinstance(points.point_inds[0], (list, tuple)) else (0, points.point_inds[0])
        n = int(i) * len(self.chosen_targets()) + int(j)
        if 0 <= n < len(self.results):
            self.pick.value = n

    def _show_cell(self) -> None:
        if self._quiet or self.pick.value is None or self.pick.value >= len(self.results):
            return
        pmf, unit = cell_pmf(self.results[self.pick.value])
        label = self.pick.label or ""
        spec = S.distribution_spec(
            pmf, S.DistributionOptions(title=label, outcome=unit, unit=unit, name="P(X = k)")
        )  # bars of P(X = k) and the line of P(X >= k)
        if self.cell is None:
            self.cell = SharedFigureWidget(figure_of(spec))
            self.cell_box.children = (self.cell,)
        else:
            sync_figure(self.cell, figure_of(spec))
        self.cell_box.layout.display = None

    def save_setup(self) -> list[dict[str, Any]]:
        """Download the setup as ``workbench_setup.json`` (``praetor calc`` runs it); returns the scenarios."""
        docs = self.scenarios()
        self.download.offer(json.dumps(docs, indent=1), "workbench_setup.json", "application/json")
        rosters = sorted({n for d in docs for k in ("attacker", "target") if (n := roster_name_of(d.get(k)))})
        where = f" Run praetor calc on it in the folder holding {', '.join(map(repr, rosters))}." if rosters else ""
        self.status.value = html.escape(f"{len(docs)} scenarios sent to your browser as workbench_setup.json.{where}")
        return docs

    def export_report(self) -> str:
        """Download the view as ``workbench_report.html`` (offline: plotly.js inside); returns the page."""
        from praetor_analysis.views.workbench.report import workbench_html

        page = workbench_html(
            self.table_frame,
            [str(label) for label, _ in self.pick.options],
            self.results,
            self.scenarios(),
            chart=None if self.chart is None else go.Figure(self.chart.to_dict()),
            cell=None if self.cell is None else go.Figure(self.cell.to_dict()),
        )
        self.download.offer(page, "workbench_report.html", "text/html")
        self.status.value = f"The view sent to your browser as workbench_report.html ({len(page) // 1024} kB)."
        return page

    def load_setup(self, text: str) -> bool:
        """Set the attackers, targets and half range from a saved setup; bad input is said, not raised."""
        from praetor_analysis.errors import PraetorError

        try:
            attackers, targets, half = setup_from_scenarios(text)
        except PraetorError as exc:
            self.status.value = f"Not loaded: {html.escape(str(exc))}"
            return False
        try:
            extra = setup_targets(attackers, targets, self.roster, set(self.target_rows["archetype"]))
        except PraetorError as exc:
            self.status.value = f"Not loaded: {html.escape(str(exc))}"
            return False
        self.attackers = attackers
        self.extra_targets.update(extra)
        self._quiet = True
        self.half_range.value = half
        self._quiet = False
        self._set_targets(tuple(t.label for t in targets))
        return True

    def _on_load(self, change: dict[str, Any]) -> None:
        files = change["new"] or ()
        if files:
            self.load_setup(bytes(files[0]["content"]).decode("utf-8", errors="replace"))
