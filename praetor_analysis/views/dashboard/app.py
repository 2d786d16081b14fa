"""An interactive dashboard: ipywidgets on top of :mod:`praetor_analysis.views.dashboard.view`.

The widgets are thin. Each figure is a FigureWidget built once (:class:`~praetor_analysis.views.figures.widgets.
SharedFigureWidget`: the page holds one plotly.js, however many figures); a change of any input calls a
refresh, which reads the inputs into a state, asks a pure function for the new figures and copies them into the
FigureWidgets. The shooting tab asks its :class:`~praetor_analysis.views.dashboard.shooting_view.ShootingSession` (which
computes only the cells it has not computed before) for the figures as data, and
:class:`~praetor_analysis.views.figures.live.LiveFigure` sends each widget only the values that changed, in one
update; the other tabs (:func:`melee_view`, :func:`marker_view`) copy whole figures in ``batch_update()``.
No probability is computed in a callback.

Tabs: shooting (weapons x targets, with re-rolls, +/-1 to hit and to wound, cover, Feel No Pain, half
range, charging, Preferred Enemy, Furious Charge), melee (a whole round, both sides striking), markers
(blast scatter over a formation), and setup (targets from the whole catalog or a custom statline; the
setup saved and loaded as ``praetor calc`` scenario JSON; the current view exported as the offline
HTML report).

Run it in a notebook (``Dashboard().widget``) or as a web app:
``make dashboard``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any

import ipywidgets as W
import pandas as pd

from praetor_analysis.catalog import frame_rows
from praetor_analysis.views.controls import labelled, note
from praetor_analysis.views.dashboard.address import WORKBENCH_TAB, PageAddress
from praetor_analysis.views.dashboard.fragment import PageFragment, encode_view
from praetor_analysis.views.dashboard.lazy_tabs import LazyTabs, Page
from praetor_analysis.views.dashboard.marker_tab import MarkerTab
from praetor_analysis.views.dashboard.melee_view import MeleeState, MeleeView, melee_view
from praetor_analysis.views.dashboard.modifiers import Modifiers
from praetor_analysis.views.dashboard.pickers import update_focus_options, update_weapon_options, weapons_named
from praetor_analysis.views.dashboard.roster_view import RosterView, roster_view
from praetor_analysis.views.dashboard.setup import SetupTab, unit_label
from praetor_analysis.views.dashboard.shooting_inputs import SHOOTING_INPUTS, ShootingInputs
from praetor_analysis.views.dashboard.shooting_view import (
    CompareFn,
    DistFn,
    ShootingSession,
    ShootingSpecs,
    View,
    compute_view,
)
from praetor_analysis.views.dashboard.view import (
    COVER_CHOICES,
    DEFAULT_SELECTION,
    FNP_CHOICES,
    DashboardState,
    MarkerState,
    adjust_targets,
    attacker_for,
    marker_view,
    weapon_catalog,
    weapon_label,
)
from praetor_analysis.views.figures.live import LiveFigure, sync_figure
from praetor_analysis.views.figures.plots import figure_of
from praetor_analysis.views.figures.widgets import PlotlyRuntime, SharedFigureWidget

__all__ = [
    "COVER_CHOICES",
    "DEFAULT_SELECTION",
    "FNP_CHOICES",
    "Dashboard",
    "DashboardState",
    "MarkerState",
    "View",
    "adjust_targets",
    "attacker_for",
    "compute_view",
    "marker_view",
    "weapon_catalog",
]

MELEE_TAB = "Melee"


class Dashboard:
    """The dashboard. ``widget`` is the root ipywidget (a Tab); the figures are ``heatmap``, ``curves``,
    ``distribution``, ``melee`` and ``roster`` (FigureWidgets); the marker tab is ``markers`` (a :class:`MarkerTab`)
    and the setup tab (targets added, the setup saved, loaded and exported) is ``setup`` (a :class:`SetupTab`).
    The shooting inputs are ``inputs`` (a :class:`ShootingInputs`), each also read as an attribute (``bs``).

    Args:
        weapons: Weapon catalog (default :func:`catalog.load_weapons`, distinct profiles).
        targets: Target catalog (default :func:`catalog.load_targets`).
        units: Unit catalog for melee sides and added targets (default :func:`catalog.load_units`).
        selection: Weapon names chosen at start.
        compare_fn, distributions_fn: The engine functions (injectable for tests).
    """

    def __init__(
        self,
        weapons: pd.DataFrame | None = None,
        targets: pd.DataFrame | None = None,
        *,
        units: pd.DataFrame | None = None,
        selection: Sequence[str] = DEFAULT_SELECTION,
        compare_fn: CompareFn | None = None,
        distributions_fn: DistFn | None = None,
    ) -> None:
        from praetor_analysis import catalog

        self.weapons = weapon_catalog(weapons)
        self.targets = catalog.load_targets() if targets is None else targets
        self.units = (catalog.load_units() if units is None else units).reset_index(drop=True)
        self.session = ShootingSession(compare_fn=compare_fn, distributions_fn=distributions_fn)
        self._quiet = False
        self._unit_opts: list[tuple[str, int]] | None = None
        self._labels = {i: weapon_label(r) for i, r in zip(self.weapons.index, frame_rows(self.weapons), strict=True)}
        self.runtime = PlotlyRuntime.instance()
        self.inputs = ShootingInputs.build(list(self.targets["archetype"]))
        self._update_weapon_options(selected=weapons_named(self.weapons, selection))
        self._update_focus_options()
        self._build_figures(self.session.specs(self.state(), self.weapons, self.targets))
        # the view in the page's URL fragment: read when the page opens, written after every change
        self.fragment = PageFragment(fragment=encode_view(self.state()))
        self.address = PageAddress(self)
        self._wire()
        self.tabs = LazyTabs(self._pages())
        self.widget = self.tabs.widget
        self.widget.observe(lambda _: self.address.write(), names="selected_index")  # after the tab is built
        self.fragment.on_open(self.address.open, after=self.widget.model_id)

    def _build_figures(self, specs: ShootingSpecs) -> None:
        """The shooting figures (each a FigureWidget built once), their live copies, and the table."""
        self.heatmap = SharedFigureWidget(figure_of(specs.heatmap))
        self.curves = SharedFigureWidget(figure_of(specs.curves))
        self.distribution = SharedFigureWidget(figure_of(specs.distribution))
        self._live = tuple(
            LiveFigure(w, spec)
            for w, spec in ((self.heatmap, specs.heatmap), (self.curves, specs.curves),
                            (self.distribution, specs.distribution))
        )  # fmt: skip
        # no empty axes: the figures are hidden while no weapon or no target is chosen (the status says so)
        self.figures = W.VBox([self.heatmap, W.HBox([self.curves, self.distribution])])
        self._table_shown: pd.DataFrame | None = None
        self._show_table(specs)

    def _pages(self) -> list[Page]:
        """The tabs, in order: a title, the builder of its page and the attributes the builder sets."""
        return [
            Page("Shooting", self._shooting_tab),
            Page(WORKBENCH_TAB, self._workbench_tab, ("workbench",)),
            Page(MELEE_TAB, self._melee_tab, ("melee_inputs", "melee_status", "melee")),
            Page("Marker scatter", self._marker_tab, ("markers",)),
            Page("Roster", self._roster_tab, ("roster_upload", "roster_status", "roster", "roster_box")),
            Page("Matchup", self._matchup_tab, ("matchup_tab",)),
            Page("Targets, setup", self._build_setup_tab, ("setup",)),
        ]

    def __getattr__(self, name: str) -> Any:
        # a shooting input: the inputs' widget (``dashboard.bs`` is ``dashboard.inputs.bs``)
        inputs = self.__dict__.get("inputs")
        if inputs is not None and name in SHOOTING_INPUTS:
            return getattr(inputs, name)
        # a widget of a tab not built yet: build that tab (tests and callers read them before any click)
        tabs = self.__dict__.get("tabs")
        page = tabs.page_of(name) if tabs is not None else None
        if page is None or tabs is None or tabs.built(page):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        tabs.build(page)
        return self.__dict__[name]

    def build_tabs(self) -> None:
        """Build every tab now (they are built on their first opening otherwise)."""
        self.tabs.build_all()

    # --- the tabs built on their first opening ----------------------------------------------------------
    def _unit_options(self) -> list[tuple[str, int]]:
        if self._unit_opts is None:
            self._unit_opts = [(unit_label(r), i) for i, r in enumerate(frame_rows(self.units))]
        return self._unit_opts

    def _melee_tab(self) -> W.Widget:
        """A whole round of melee between two units of the catalog."""
        unit_opts = self._unit_options()
        melee_w = self.weapons[self.weapons["Type"].astype(str).str.contains("Melee")]
        weapon_opts = [(self._labels[i], i) for i in melee_w.index]
        legionary = self._first_unit("Legionary", "Assault Squad")
        chainsword = self._first_weapon(melee_w, "Chainsword")
        pick = "34em"  # two columns of pickers within 1280 px
        self.melee_inputs: dict[str, W.ValueWidget] = {
            "attacker": labelled(
                W.Dropdown, "Attacker", "The unit profile that strikes first in the order of Initiative",
                options=unit_opts, value=legionary, width=pick,
            ),
            "weapon": labelled(
                W.Dropdown, "Weapon", "The attacker's melee weapon", options=weapon_opts, value=chainsword, width=pick
            ),
            "attacker_models": labelled(
                W.IntSlider, "Models", "Models in the attacking unit", value=10, min=1, max=30
            ),
            "target": labelled(
                W.Dropdown, "Defender", "The unit profile that fights back", options=unit_opts, value=legionary,
                width=pick,
            ),
            "target_weapon": labelled(
                W.Dropdown, "Its weapon", "The defender's melee weapon", options=weapon_opts, value=chainsword,
                width=pick,
            ),
            "target_models": labelled(W.IntSlider, "Models", "Models in the defending unit", value=10, min=1, max=30),
        }  # fmt: skip
        self.melee_status = W.HTML()
        mv = melee_view(self.melee_state())
        self.melee = SharedFigureWidget(mv.figure)
        self.melee._praetor_layout = mv.figure.layout.to_plotly_json()
        self._show_melee(mv)
        for w in self.melee_inputs.values():
            w.observe(self._on_melee, names="value")
        m = list(self.melee_inputs.values())
        return W.VBox(
            [
                W.HBox([W.VBox(m[:3]), W.VBox(m[3:])]),
                W.HTML("<small>The shooting tab's charging, Furious Charge, re-roll and +/-1 choices apply.</small>"),
                self.melee,
                self.melee_status,
            ]
        )

    def _marker_tab(self) -> W.Widget:
        """A blast marker scattering over a formation."""
        self.markers = MarkerTab()
        return self.markers.widget

    def _roster_tab(self) -> W.Widget:
        """A loaded roster: its units against the chosen targets."""
        self.roster_upload = labelled(
            W.FileUpload,
            "Load a roster",
            "A BattleScribe or New Recruit list (.ros or .rosz): each unit fires at the shooting tab's targets",
            accept=".ros,.rosz",
            multiple=False,
        )
        self.roster_status = W.HTML()
        rv = roster_view(None, "", self.targets)
        self.roster = SharedFigureWidget(rv.figure)
        self.roster._praetor_layout = rv.figure.layout.to_plotly_json()
        self.roster_box = W.Box([self.roster], layout=W.Layout(display="none"))  # shown once a list is loaded
        self._show_roster(rv)
        self.roster_upload.observe(self._on_roster, names="value")
        return W.VBox(
            [
                note("The units of the list fire at the targets chosen in the shooting tab."),
                self.roster_upload,
                self.roster_status,
                self.roster_box,
            ]
        )

    def _workbench_tab(self) -> W.Widget:
        """Units with loadouts side by side, each with its own modifiers."""
        from praetor_analysis.views.workbench.tab import Workbench

        self.workbench = Workbench(self.targets, roster=getattr(self, "_roster_file", None))
        self.workbench.on_refresh.append(self.address.write)
        return self.workbench.widget

    def _matchup_tab(self) -> W.Widget:
        """Two lists against each other, the modifiers army-wide."""
        from praetor_analysis.views.dashboard.matchup_tab import MatchupTab

        self.matchup_tab = MatchupTab(lambda: self.state().modifiers)
        return self.matchup_tab.widget

    def _build_setup_tab(self) -> W.Widget:
        """Targets from the catalog or a custom statline; save, load, export."""
        self.setup = SetupTab(self, self._unit_options())
        return self.setup.widget

    # --- the shooting tab (built at start) ---------------------------------------------------------------
    def _shooting_tab(self) -> W.Widget:
        return W.VBox([self.inputs.panel(), self.figures, self.inputs.table, self.runtime, self.fragment])

    def _wire(self) -> None:
        for w in self.inputs.observed():
            w.observe(self._on_change, names="value")
        for w in self.inputs.melee_modifiers():
            w.observe(self._on_melee, names="value")
        self.inputs.search.observe(self._on_search, names="value")

    def _first_unit(self, name: str, unit: str) -> int:
        hit = self.units.index[(self.units["name"] == name) & (self.units["unit"] == unit)]
        return int(hit[0]) if len(hit) else 0

    def _first_weapon(self, weapons: pd.DataFrame, name: str) -> Any:
        hit = weapons.index[weapons["name"] == name]
        return hit[0] if len(hit) else weapons.index[0]

    # --- reading the inputs ----------------------------------------------------------------------
    def state(self) -> DashboardState:
        """The shooting tab's inputs as a :class:`DashboardState`."""
        return self.inputs.state()

    def melee_state(self) -> MeleeState:
        """The melee tab's inputs (and the shooting tab's attacker modifiers) as a :class:`MeleeState`."""
        from praetor_analysis.units import UnitRow, WeaponRow

        v = {k: w.value for k, w in self.melee_inputs.items()}
        return MeleeState(
            attacker=UnitRow.from_row(self.units.loc[v["attacker"]]).to_block(),
            weapon=WeaponRow.from_row(self.weapons.loc[v["weapon"]]).to_block(),
            target=UnitRow.from_row(self.units.loc[v["target"]]).to_block(),
            target_weapon=WeaponRow.from_row(self.weapons.loc[v["target_weapon"]]).to_block(),
            attacker_models=v["attacker_models"],
            target_models=v["target_models"],
            modifiers=Modifiers(self.state().modifiers.attacker, charging=self.inputs.charging.value),
        )

    # --- setting the inputs ----------------------------------------------------------------------
    def add_target(self, row: Mapping[str, object]) -> str:
        """Add a target (a row of the target catalog; its label is made unique) and choose it; returns its label."""
        label = base = str(row["archetype"])
        n = 2
        while label in set(self.targets["archetype"]):
            label, n = f"{base} #{n}", n + 1
        self.targets = pd.concat([self.targets, pd.DataFrame([{**row, "archetype": label}])], ignore_index=True)
        self._quiet = True
        try:
            self.inputs.target_select.options = list(self.targets["archetype"])
        finally:
            self._quiet = False
        self.inputs.target_select.value = (*self.inputs.target_select.value, label)
        return label

    def apply_state(self, s: DashboardState, names: tuple[str, ...] | None = None) -> None:
        """Set the shooting inputs to ``s`` (its weapons, targets and the fields ``names``, default all) and
        refresh once."""
        names = tuple(f.name for f in fields(s) if f.name not in ("weapons", "targets")) if names is None else names
        focus = ("focus_target", "focus_weapon")
        self._quiet = True
        try:
            self._update_weapon_options(selected=list(s.weapons))
            self._quiet = True
            self.inputs.target_select.value = s.targets
            for name in (n for n in names if n not in focus):
                getattr(self.inputs, name).value = getattr(s, name)
        finally:
            self._quiet = False
        self._update_focus_options()
        self._quiet = True
        try:
            for name in (n for n in focus if n in names and getattr(s, n) is not None):
                options = getattr(self, name).options
                if getattr(s, name) in [o[1] if isinstance(o, tuple) else o for o in options]:
                    getattr(self.inputs, name).value = getattr(s, name)
        finally:
            self._quiet = False
        self.refresh()

    # --- callbacks: read, call the pure functions, assign ---------------------------------------------
    def refresh(self) -> ShootingSpecs:
        """Recompute the shooting view from the inputs (only the cells not computed before) and send the
        figures the values that changed."""
        specs = self.session.specs(self.state(), self.weapons, self.targets)
        heatmap, curves, distribution = self._live
        heatmap.show(specs.heatmap)
        curves.show(specs.curves)
        distribution.show(specs.distribution)
        self._show_table(specs)
        self.address.write()
        return specs

    def refresh_melee(self) -> MeleeView:
        """Recompute the round of melee and update its figure in place."""
        mv = melee_view(self.melee_state())
        sync_figure(self.melee, mv.figure)
        self._show_melee(mv)
        return mv

    def _show_table(self, view: View | ShootingSpecs) -> None:
        from praetor_analysis.views.tables import COMPARISON_COLUMNS, NO_COST, table_html

        if view.table is not self._table_shown:  # the same table object: the same HTML (the report's columns)
            missing = {"points": NO_COST} if len(view.table) else None
            self.inputs.table.value = table_html(view.table, COMPARISON_COLUMNS, missing=missing)
            self._table_shown = view.table
        self.inputs.status.value = "<br>".join(html.escape(m) for m in view.messages)
        empty = not self.inputs.weapon_select.value or not self.inputs.target_select.value
        self.figures.layout.display = "none" if empty else None
        if empty:
            self.inputs.status.value = (
                "Choose at least one weapon (type part of its name in Search to find more) and one target: the "
                "heatmap, the curves and the distribution follow."
            )

    def _show_melee(self, mv: MeleeView) -> None:
        lines = [mv.summary, *mv.notes]
        self.melee_status.value = "<br>".join(html.escape(x) for x in lines)

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        if change["owner"] in (self.inputs.weapon_select, self.inputs.target_select):
            self._update_focus_options()
        self.refresh()

    def _on_melee(self, change: dict[str, Any]) -> None:
        if not self._quiet and self.tabs.built(self.tabs.index(MELEE_TAB)):
            self.refresh_melee()

    def load_roster(self, data: bytes | None, name: str) -> RosterView:
        """Analyse roster bytes against the chosen targets and show the units x targets figure."""
        chosen = self.targets[self.targets["archetype"].isin(self.inputs.target_select.value)]
        rv = roster_view(data, name, chosen, half_range=self.inputs.half_range.value)
        sync_figure(self.roster, rv.figure)
        self._show_roster(rv)
        if data is not None and not rv.table.empty:  # the workbench offers the list's units too
            self._roster_file = (bytes(data), name)
            if self.tabs.built(self.tabs.index(WORKBENCH_TAB)):
                self.workbench.use_roster(*self._roster_file)
        return rv

    def _show_roster(self, rv: RosterView) -> None:
        if rv.table.empty:
            hint = (
                "Load a roster (.ros or .rosz, as BattleScribe or New Recruit save it) with the button above: "
                "each of its units is rated against the targets chosen in the shooting tab."
            )
            self.roster_status.value = f"{html.escape(rv.summary)}<br>{hint}"
            self.roster_box.layout.display = "none"
        else:
            self.roster_status.value = html.escape(rv.summary)
            self.roster_box.layout.display = None

    def _on_roster(self, change: dict[str, Any]) -> None:
        files = change["new"] or ()
        if files:
            self.load_roster(bytes(files[0]["content"]), str(files[0]["name"]))

    def _on_search(self, change: dict[str, Any]) -> None:
        self._update_weapon_options(selected=list(self.inputs.weapon_select.value))

    def _update_weapon_options(self, selected: Sequence[Any]) -> None:
        update_weapon_options(self, selected)

    def _update_focus_options(self) -> None:
        update_focus_options(self)
