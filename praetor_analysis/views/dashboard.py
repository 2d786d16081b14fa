"""An interactive dashboard: ipywidgets on top of :mod:`praetor_analysis.views.dashboard_view`.

The widgets are thin. Each figure is a FigureWidget built once (:class:`~praetor_analysis.views.widgets.
SharedFigureWidget`: the page holds one plotly.js, however many figures); a change of any input calls a
refresh, which reads the inputs into a state, asks a pure function for the new figures and copies them into the
FigureWidgets. The shooting tab asks its :class:`~praetor_analysis.views.shooting_view.ShootingSession` (which
computes only the cells it has not computed before) for the figures as data, and
:class:`~praetor_analysis.views.live_figure.LiveFigure` sends each widget only the values that changed, in one
update; the other tabs (:func:`melee_view`, :func:`marker_view`) copy whole figures in ``batch_update()``.
No probability is computed in a callback.

Tabs: shooting (weapons x targets, with re-rolls, +/-1 to hit and to wound, cover, Feel No Pain, half
range, charging, Preferred Enemy, Furious Charge), melee (a whole round, both sides striking), markers
(blast scatter over a formation), and setup (targets from the whole catalog or a custom statline; the
setup saved and loaded as ``praetor calc`` scenario JSON; the current view exported as the offline
HTML report).

Run it in a notebook (``Dashboard().widget``) or as a web app:
``voila --preheat_kernel=True notebooks/dashboard.ipynb``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import ipywidgets as W
import pandas as pd

from praetor_analysis.views import figures as F
from praetor_analysis.views.dashboard_view import (
    COVER_CHOICES,
    DEFAULT_SELECTION,
    FNP_CHOICES,
    MARKER_CHOICES,
    DashboardState,
    MarkerState,
    adjust_targets,
    assumptions_of,
    attacker_for,
    inputs_of,
    marker_view,
    setup_scenarios,
    state_from_scenarios,
    weapon_catalog,
    weapon_label,
)
from praetor_analysis.views.figures import figure_of
from praetor_analysis.views.live_figure import LiveFigure, sync_figure
from praetor_analysis.views.melee_view import MeleeState, MeleeView, melee_view
from praetor_analysis.views.modifiers import REROLL_CHOICES, Modifiers
from praetor_analysis.views.roster_view import RosterView, roster_view
from praetor_analysis.views.shooting_view import CompareFn, DistFn, ShootingSession, ShootingSpecs, View, compute_view
from praetor_analysis.views.widgets import PlotlyRuntime, SharedFigureWidget

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

_MODS = [("-1", -1), ("0", 0), ("+1", 1)]
_WIDE = {"description_width": "initial"}


def _unit_label(row: dict[str, Any]) -> str:
    return f"{row['name']} — {row.get('unit', '')} ({row.get('faction', '')})"


class Dashboard:
    """The dashboard. ``widget`` is the root ipywidget (a Tab); the figures are ``heatmap``, ``curves``,
    ``distribution``, ``melee``, ``formation``, ``marker_distribution`` and ``roster`` (FigureWidgets).

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
        self._labels = {
            i: weapon_label(r) for i, r in zip(self.weapons.index, self.weapons.to_dict("records"), strict=True)
        }
        names = self.weapons["name"].str.lower()
        chosen = [self.weapons.index[names == n.lower()][0] for n in selection if (names == n.lower()).any()]
        arche = list(self.targets["archetype"])
        self.runtime = PlotlyRuntime.instance()

        # --- shooting inputs
        self.search = W.Text(description="Search", placeholder="weapon name, e.g. melta")
        self.weapon_select = W.SelectMultiple(description="Weapons", rows=10, layout=W.Layout(width="98%"))
        self.target_select = W.SelectMultiple(options=arche, value=tuple(arche[:6]), description="Targets", rows=8)
        self.bs = W.IntSlider(value=4, min=1, max=10, description="BS")
        self.attacker_models = W.IntSlider(value=1, min=1, max=20, description="Firing models", style=_WIDE)
        self.target_models = W.IntSlider(
            value=0, min=0, max=30, description="Target models", tooltip="0 keeps each target's own count", style=_WIDE
        )
        self.cover = W.Dropdown(options=COVER_CHOICES, value="-", description="Cover")
        self.fnp = W.Dropdown(options=FNP_CHOICES, value="-", description="Feel No Pain", style=_WIDE)
        self.half_range = W.Checkbox(value=False, description="Half range")
        self.reroll_hits = W.Dropdown(options=REROLL_CHOICES, value="none", description="Re-roll hits", style=_WIDE)
        self.reroll_wounds = W.Dropdown(options=REROLL_CHOICES, value="none", description="Re-roll wounds", style=_WIDE)
        self.to_hit = W.Dropdown(options=_MODS, value=0, description="To hit")
        self.to_wound = W.Dropdown(options=_MODS, value=0, description="To wound")
        self.charging = W.Checkbox(value=False, description="Charging")
        self.preferred_enemy = W.Checkbox(value=False, description="Preferred Enemy")
        self.furious_charge = W.Checkbox(value=False, description="Furious Charge")
        self.metric = W.Dropdown(
            options=[(v, k) for k, v in F.METRIC_LABELS.items()], value="mean", description="Colour by", style=_WIDE
        )
        self.focus_target = W.Dropdown(description="Focus target", style=_WIDE)
        self.focus_weapon = W.Dropdown(description="Focus weapon", style=_WIDE)
        self.status = W.HTML()
        self.table = W.HTML()
        self._table_shown: pd.DataFrame | None = None
        self._update_weapon_options(selected=chosen)
        self._update_focus_options()
        specs = self.session.specs(self.state(), self.weapons, self.targets)
        self.heatmap = SharedFigureWidget(figure_of(specs.heatmap))
        self.curves = SharedFigureWidget(figure_of(specs.curves))
        self.distribution = SharedFigureWidget(figure_of(specs.distribution))
        self._live = (
            LiveFigure(self.heatmap, specs.heatmap),
            LiveFigure(self.curves, specs.curves),
            LiveFigure(self.distribution, specs.distribution),
        )
        self._show_table(specs)

        # --- melee inputs (a whole round)
        unit_opts = [(_unit_label(r), i) for i, r in enumerate(self.units.to_dict("records"))]
        melee_w = self.weapons[self.weapons["Type"].astype(str).str.contains("Melee")]
        weapon_opts = [(self._labels[i], i) for i in melee_w.index]
        legionary = self._first_unit("Legionary", "Assault Squad")
        chainsword = self._first_weapon(melee_w, "Chainsword")
        self.melee_inputs: dict[str, W.ValueWidget] = {
            "attacker": W.Dropdown(options=unit_opts, value=legionary, description="Attacker", style=_WIDE),
            "weapon": W.Dropdown(options=weapon_opts, value=chainsword, description="Weapon", style=_WIDE),
            "attacker_models": W.IntSlider(value=10, min=1, max=30, description="Models", style=_WIDE),
            "target": W.Dropdown(options=unit_opts, value=legionary, description="Defender", style=_WIDE),
            "target_weapon": W.Dropdown(options=weapon_opts, value=chainsword, description="Its weapon", style=_WIDE),
            "target_models": W.IntSlider(value=10, min=1, max=30, description="Models", style=_WIDE),
        }
        self.melee_status = W.HTML()
        mv = melee_view(self.melee_state())
        self.melee = SharedFigureWidget(mv.figure)
        self.melee._praetor_layout = mv.figure.layout.to_plotly_json()
        self._show_melee(mv)

        # --- markers
        self.marker_inputs = {
            "models": W.IntSlider(value=10, min=1, max=30, description="Models"),
            "base_mm": W.Dropdown(options=[25.0, 32.0, 40.0, 60.0], value=32.0, description="Base (mm)"),
            "gap": W.FloatSlider(value=2.0, min=0.0, max=4.0, step=0.5, description='Gap (")'),
            "columns": W.IntSlider(value=5, min=1, max=10, description="Columns"),
            "marker": W.Dropdown(options=list(MARKER_CHOICES), value='Blast (3")', description="Marker"),
            "bs": W.IntSlider(value=4, min=1, max=10, description="BS"),
            "indirect": W.Checkbox(value=False, description="Indirect barrage"),
            "aim": W.IntSlider(value=0, min=0, max=29, description="Aim at model", style=_WIDE),
        }
        picture, mdist = marker_view(self.marker_state())
        self.formation = SharedFigureWidget(picture)
        self.marker_distribution = SharedFigureWidget(mdist)

        # --- a loaded roster: its units against the chosen targets
        self.roster_upload = W.FileUpload(accept=".ros,.rosz", multiple=False, description="Load a roster")
        self.roster_status = W.HTML()
        rv = roster_view(None, "", self.targets)
        self.roster = SharedFigureWidget(rv.figure)
        self.roster._praetor_layout = rv.figure.layout.to_plotly_json()
        self._show_roster(rv)

        # --- setup: targets from the catalog or a custom statline; save, load, export
        self.unit_search = W.Text(description="Find a unit", placeholder="e.g. Contemptor", style=_WIDE)
        self.unit_pick = W.Dropdown(options=unit_opts[:200], description="Unit", layout=W.Layout(width="60%"))
        self.unit_models = W.BoundedIntText(value=5, min=1, max=50, description="Models")
        self.add_unit = W.Button(description="Add as a target")
        self.custom = {
            "name": W.Text(value="Custom squad", description="Name"),
            "models": W.BoundedIntText(value=10, min=1, max=50, description="Models"),
            "T": W.BoundedIntText(value=4, min=1, max=10, description="T"),
            "W": W.BoundedIntText(value=1, min=1, max=20, description="W"),
            "Save": W.Dropdown(options=["2+", "3+", "4+", "5+", "6+", "-"], value="3+", description="Save"),
            "Invulnerable": W.Dropdown(options=["-", "3+", "4+", "5+", "6+"], value="-", description="Invulnerable"),
        }
        self.add_custom = W.Button(description="Add custom target")
        self.scenario_text = W.Textarea(
            placeholder="praetor calc scenario JSON", layout=W.Layout(width="98%", height="160px")
        )
        self.save_button = W.Button(description="Save setup as JSON")
        self.load_button = W.Button(description="Load JSON")
        self.export_path = W.Text(value="dashboard_report.html", description="Report file", style=_WIDE)
        self.export_button = W.Button(description="Export report (HTML)")
        self.setup_status = W.HTML()

        self._wire()
        self.widget = self._layout()

    # --- layout -------------------------------------------------------------------------------
    def _layout(self) -> W.Tab:
        mods = W.HBox(
            [
                W.VBox([self.bs, self.attacker_models, self.half_range, self.charging]),
                W.VBox([self.reroll_hits, self.reroll_wounds, self.to_hit, self.to_wound]),
                W.VBox([self.target_models, self.cover, self.fnp, self.preferred_enemy, self.furious_charge]),
            ]
        )
        inputs = W.VBox(
            [
                self.search,
                self.weapon_select,
                self.target_select,
                mods,
                W.HBox([self.metric, self.focus_target, self.focus_weapon]),
                self.status,
            ]
        )
        shooting = W.VBox([inputs, self.heatmap, W.HBox([self.curves, self.distribution]), self.table, self.runtime])
        m = list(self.melee_inputs.values())
        melee = W.VBox(
            [
                W.HBox([W.VBox(m[:3]), W.VBox(m[3:])]),
                W.HTML("<small>The shooting tab's charging, Furious Charge, re-roll and +/-1 choices apply.</small>"),
                self.melee,
                self.melee_status,
            ]
        )
        mk = list(self.marker_inputs.values())
        markers = W.VBox([W.HBox([W.VBox(mk[:4]), W.VBox(mk[4:])]), W.HBox([self.formation, self.marker_distribution])])
        setup = W.VBox(
            [
                W.HTML("<b>Add a target from the unit catalog</b>"),
                W.HBox([self.unit_search, self.unit_models]),
                W.HBox([self.unit_pick, self.add_unit]),
                W.HTML("<b>Or a custom statline</b>"),
                W.HBox([W.VBox(list(self.custom.values())[:3]), W.VBox(list(self.custom.values())[3:])]),
                self.add_custom,
                W.HTML("<b>The setup as <code>praetor calc</code> scenarios</b>"),
                W.HBox([self.save_button, self.load_button]),
                self.scenario_text,
                W.HBox([self.export_path, self.export_button]),
                self.setup_status,
            ]
        )
        roster = W.VBox(
            [
                W.HTML("<small>The units fire at the targets chosen in the shooting tab.</small>"),
                self.roster_upload,
                self.roster_status,
                self.roster,
            ]
        )
        tab = W.Tab(children=[shooting, melee, markers, roster, setup])
        for i, title in enumerate(("Shooting", "Melee", "Marker scatter", "Roster", "Targets, setup")):
            tab.set_title(i, title)
        return tab

    def _wire(self) -> None:
        for w in self._shooting_inputs():
            w.observe(self._on_change, names="value")
        for w in (self.charging, self.furious_charge, self.preferred_enemy, self.reroll_hits, self.reroll_wounds):
            w.observe(self._on_melee, names="value")
        for w in (self.to_hit, self.to_wound, *self.melee_inputs.values()):
            w.observe(self._on_melee, names="value")
        self.search.observe(self._on_search, names="value")
        for w in self.marker_inputs.values():
            w.observe(self._on_marker, names="value")
        self.unit_search.observe(self._on_unit_search, names="value")
        self.roster_upload.observe(self._on_roster, names="value")
        self.add_unit.on_click(lambda _: self.add_target_unit(self.unit_pick.value, self.unit_models.value))
        self.add_custom.on_click(lambda _: self.add_custom_target())
        self.save_button.on_click(lambda _: self.save_setup())
        self.load_button.on_click(lambda _: self.load_setup(self.scenario_text.value))
        self.export_button.on_click(lambda _: self.export_report(self.export_path.value))

    def _shooting_inputs(self) -> tuple[W.ValueWidget, ...]:
        return (
            self.weapon_select,
            self.target_select,
            self.bs,
            self.attacker_models,
            self.target_models,
            self.cover,
            self.fnp,
            self.half_range,
            self.metric,
            self.focus_target,
            self.focus_weapon,
            self.reroll_hits,
            self.reroll_wounds,
            self.to_hit,
            self.to_wound,
            self.charging,
            self.preferred_enemy,
            self.furious_charge,
        )

    def _first_unit(self, name: str, unit: str) -> int:
        hit = self.units.index[(self.units["name"] == name) & (self.units["unit"] == unit)]
        return int(hit[0]) if len(hit) else 0

    def _first_weapon(self, weapons: pd.DataFrame, name: str) -> Any:
        hit = weapons.index[weapons["name"] == name]
        return hit[0] if len(hit) else weapons.index[0]

    # --- reading the inputs ----------------------------------------------------------------------
    def state(self) -> DashboardState:
        """The shooting tab's inputs as a :class:`DashboardState`."""
        return DashboardState(
            weapons=tuple(self.weapon_select.value),
            targets=tuple(self.target_select.value),
            bs=self.bs.value,
            attacker_models=self.attacker_models.value,
            target_models=self.target_models.value,
            cover=self.cover.value,
            fnp=self.fnp.value,
            half_range=self.half_range.value,
            metric=self.metric.value,
            focus_target=self.focus_target.value,
            focus_weapon=self.focus_weapon.value,
            reroll_hits=self.reroll_hits.value,
            reroll_wounds=self.reroll_wounds.value,
            to_hit=self.to_hit.value,
            to_wound=self.to_wound.value,
            charging=self.charging.value,
            furious_charge=self.furious_charge.value,
            preferred_enemy=self.preferred_enemy.value,
        )

    def melee_state(self) -> MeleeState:
        """The melee tab's inputs (and the shooting tab's attacker modifiers) as a :class:`MeleeState`."""
        from praetor_analysis.scenario.blocks import target_block, weapon_block

        v = {k: w.value for k, w in self.melee_inputs.items()}
        return MeleeState(
            attacker=target_block(self.units.loc[v["attacker"]]),
            weapon=weapon_block(self.weapons.loc[v["weapon"]]),
            target=target_block(self.units.loc[v["target"]]),
            target_weapon=weapon_block(self.weapons.loc[v["target_weapon"]]),
            attacker_models=v["attacker_models"],
            target_models=v["target_models"],
            modifiers=Modifiers(
                reroll_hits=self.reroll_hits.value,
                reroll_wounds=self.reroll_wounds.value,
                to_hit=self.to_hit.value,
                to_wound=self.to_wound.value,
                charging=self.charging.value,
                preferred_enemy=self.preferred_enemy.value,
                furious_charge=self.furious_charge.value,
            ),
        )

    def marker_state(self) -> MarkerState:
        """The marker tab's inputs as a :class:`MarkerState`."""
        return MarkerState(**{k: w.value for k, w in self.marker_inputs.items()})

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
        return specs

    def refresh_melee(self) -> MeleeView:
        """Recompute the round of melee and update its figure in place."""
        mv = melee_view(self.melee_state())
        sync_figure(self.melee, mv.figure)
        self._show_melee(mv)
        return mv

    def _show_table(self, view: View | ShootingSpecs) -> None:
        from praetor_analysis.views.tables import table_html

        shown = ["weapon", "target", "measure", "mean", "std", "p_any", "p_all", "p_pinned", "not_modelled", "error"]
        if view.table is not self._table_shown:  # the same table object: the same HTML
            self.table.value = table_html(view.table, shown)
            self._table_shown = view.table
        self.status.value = "<br>".join(html.escape(m) for m in view.messages)

    def _show_melee(self, mv: MeleeView) -> None:
        lines = [mv.summary, *mv.notes]
        self.melee_status.value = "<br>".join(html.escape(x) for x in lines)

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        if change["owner"] in (self.weapon_select, self.target_select):
            self._update_focus_options()
        self.refresh()

    def _on_melee(self, change: dict[str, Any]) -> None:
        if not self._quiet:
            self.refresh_melee()

    def load_roster(self, data: bytes | None, name: str) -> RosterView:
        """Analyse roster bytes against the chosen targets and show the units x targets figure."""
        chosen = self.targets[self.targets["archetype"].isin(self.target_select.value)]
        rv = roster_view(data, name, chosen, half_range=self.half_range.value)
        sync_figure(self.roster, rv.figure)
        self._show_roster(rv)
        return rv

    def _show_roster(self, rv: RosterView) -> None:
        self.roster_status.value = html.escape(rv.summary)

    def _on_roster(self, change: dict[str, Any]) -> None:
        files = change["new"] or ()
        if files:
            self.load_roster(bytes(files[0]["content"]), str(files[0]["name"]))

    def _on_search(self, change: dict[str, Any]) -> None:
        self._update_weapon_options(selected=list(self.weapon_select.value))

    def _on_marker(self, change: dict[str, Any]) -> None:
        picture, dist = marker_view(self.marker_state())
        sync_figure(self.formation, picture)
        sync_figure(self.marker_distribution, dist)

    def _on_unit_search(self, change: dict[str, Any]) -> None:
        text = str(change["new"]).strip().lower()
        labels = [(_unit_label(r), i) for i, r in enumerate(self.units.to_dict("records"))]
        self.unit_pick.options = [o for o in labels if text in o[0].lower()][:200]

    def _update_weapon_options(self, selected: Sequence[Any]) -> None:
        """Options: the chosen weapons first, then up to 200 matches of the search text."""
        text = self.search.value.strip().lower()
        names = self.weapons["name"].str.lower()
        matches = self.weapons.index[names.str.contains(text, regex=False)] if text else self.weapons.index
        keep = list(dict.fromkeys([*selected, *list(matches[:200])]))
        self._quiet = True
        try:
            self.weapon_select.options = [(self._labels[i], i) for i in keep]
            self.weapon_select.value = tuple(selected)
        finally:
            self._quiet = False

    def _update_focus_options(self) -> None:
        targets = list(self.target_select.value)
        weapons = [(self._labels[i], i) for i in self.weapon_select.value]
        for dd, opts in ((self.focus_target, targets), (self.focus_weapon, weapons)):
            values = [o[1] if isinstance(o, tuple) else o for o in opts]
            current = dd.value if dd.value in values else (values[0] if values else None)
            self._quiet = True
            try:
                dd.options = opts
                dd.value = current
            finally:
                self._quiet = False

    # --- targets, save, load, export ----------------------------------------------------------------
    def _add_target_row(self, row: dict[str, Any]) -> str:
        label = str(row["archetype"])
        n = 2
        while label in set(self.targets["archetype"]):
            label, n = f"{row['archetype']} #{n}", n + 1
        row = {**row, "archetype": label}
        self.targets = pd.concat([self.targets, pd.DataFrame([row])], ignore_index=True)
        self._quiet = True
        try:
            self.target_select.options = list(self.targets["archetype"])
        finally:
            self._quiet = False
        self.target_select.value = (*self.target_select.value, label)
        return label

    def add_target_unit(self, unit_index: int, models: int) -> str:
        """Add a unit of the catalog as a target of ``models`` models (vehicles: one); returns its label."""
        row = self.units.loc[unit_index].to_dict()
        vehicle = "vehicle" in str(row.get("Unit Type", "")).lower()
        label = f"{row['name']} ({row.get('unit', '')})"
        return self._add_target_row({**row, "archetype": label, "models": 1 if vehicle else int(models)})

    def add_custom_target(self) -> str:
        """Add the custom statline as a target; returns its label."""
        c = {k: w.value for k, w in self.custom.items()}
        row = {
            "archetype": str(c["name"]) or "Custom squad",
            "name": str(c["name"]) or "Custom squad",
            "Unit Type": "Infantry",
            "models": int(c["models"]),
            "WS": "4",
            "BS": "4",
            "S": "4",
            "T": str(c["T"]),
            "W": str(c["W"]),
            "I": "4",
            "A": "1",
            "Ld": "8",
            "Save": c["Save"],
            "Invulnerable": "" if c["Invulnerable"] == "-" else c["Invulnerable"],
        }
        return self._add_target_row(row)

    def save_setup(self) -> list[dict[str, Any]]:
        """Put the setup (one ``praetor calc`` scenario per weapon and target) in the text box as JSON."""
        scenarios = setup_scenarios(self.state(), self.weapons, self.targets)
        self.scenario_text.value = json.dumps(scenarios, indent=1)
        self.setup_status.value = f"{len(scenarios)} scenarios; <code>praetor calc FILE.json</code> reruns them."
        return scenarios

    def load_setup(self, text: str) -> DashboardState | None:
        """Set the inputs from saved scenarios (see :func:`state_from_scenarios`); bad input is said, not raised."""
        from praetor_analysis.errors import PraetorError

        try:
            s = state_from_scenarios(text, self.weapons, self.targets)
        except PraetorError as exc:
            self.setup_status.value = f"Not loaded: {html.escape(str(exc))}"
            return None
        self._quiet = True
        try:
            self._update_weapon_options(selected=list(s.weapons))
            self._quiet = True
            self.target_select.value = s.targets
            for name in ("bs", "attacker_models", "cover", "fnp", "half_range", "reroll_hits", "reroll_wounds"):
                getattr(self, name).value = getattr(s, name)
            self.charging.value, self.preferred_enemy.value = s.charging, s.preferred_enemy
        finally:
            self._quiet = False
        self._update_focus_options()
        self.refresh()
        self.setup_status.value = f"Loaded {len(s.weapons)} weapons x {len(s.targets)} targets."
        return s

    def export_report(self, path: str) -> Path:
        """Write the current shooting view as the offline HTML report; returns the path."""
        from praetor_analysis.analysis.compare import compare_with_distributions
        from praetor_analysis.views.report import Report, to_html, wound_distributions

        state = self.state()
        w, t, attacker = inputs_of(state, self.weapons, self.targets)
        table, dists = compare_with_distributions(w, t, attacker=attacker, half_range=state.half_range)
        report = Report(
            title="Praetor analysis: dashboard view",
            comparison=table,
            distributions=dists,
            assumptions=assumptions_of(state),
            wounds=wound_distributions(w, t, attacker=attacker, half_range=state.half_range),
        )
        out = Path(path or "dashboard_report.html")
        out.write_text(to_html(report), encoding="utf-8")
        self.setup_status.value = f"Wrote {html.escape(str(out.resolve()))}"
        return out
