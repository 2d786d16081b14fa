"""The dashboard in the 3rd edition: its tabs as widgets over :mod:`praetor_analysis.views.dashboard.hh3_view`.

Shooting (the 3rd edition's catalog weapons at its standard targets, the firers' BS and models, cover, Feel No
Pain, Snap Shots, Stationary, the heatmap coloured by a mean or a Tactical Status, the focus pair's distribution,
the setup saved and loaded as ``praetor calc`` documents with ``"edition": "hh3"``), Melee (a whole round between
two units of the edition's catalog), Roster and Matchup (the 3rd edition's lists); the tabs that are the 2nd
edition's only (the workbench, the marker scatter, the targets and setup tab) say so on one line.
"""

from __future__ import annotations

import html
import json
from typing import Any

import ipywidgets as W
import pandas as pd

from praetor_analysis.errors import PraetorError
from praetor_analysis.views.controls import labelled, note
from praetor_analysis.views.dashboard.hh3_shooting import PART_FIELDS, Hh3Catalogs, Hh3Inputs, SetupControls
from praetor_analysis.views.dashboard.hh3_view import (
    HH3_DEFAULT_WEAPONS,
    HH3_METRICS,
    Hh3State,
    cached_calc,
    focus_pmf,
    hh3_melee_scenario,
    hh3_scenarios,
    hh3_state_from_setup,
    hh3_table,
    statuses_line,
)
from praetor_analysis.views.dashboard.lazy_tabs import LazyTabs, Page
from praetor_analysis.views.dashboard.pickers import update_focus_options, update_weapon_options, weapons_named
from praetor_analysis.views.figures import plots as F
from praetor_analysis.views.figures.live import sync_figure
from praetor_analysis.views.figures.widgets import SharedFigureWidget

__all__ = ["EDITION_2_ONLY", "SHOOTING_WIDGETS", "Hh3Dashboard"]

SHOOTING_WIDGETS = (
    "catalogs", "inputs", "setup_controls",
    "weapons", "melee_weapons", "targets", "units", "calc", "_labels", "search", "weapon_select", "target_select",
    "bs", "models", "cover", "fnp", "snap_shots", "stationary", "metric", "focus_target", "focus_weapon", "status",
    "table", "table_frame", "heatmap", "distribution", "save_button", "scenario_text", "load_button",
    "setup_status", "download",
)  # fmt: skip
"""The attributes the shooting tab's builder sets (with the catalogs): reading one builds the tab."""

EDITION_2_ONLY = {
    "Workbench": "The workbench is the 2nd edition's only: switch the edition at the top to use it.",
    "Marker scatter": "The marker scatter is the 2nd edition's only: switch the edition at the top to use it.",
    "Targets, setup": "The targets and setup tab is the 2nd edition's only (the 3rd edition's setup is saved and "
    "loaded in its Shooting tab): switch the edition at the top to use it.",
}
"""The one line each tab of the 2nd edition's only shows in the 3rd edition."""


class Hh3Dashboard:
    """The 3rd edition's dashboard. ``widget`` is its pages under a row of buttons (``tabs``); ``heatmap``,
    ``distribution`` and ``melee`` its figures.

    Args:
        weapons, targets, units: The 3rd edition's catalogs (default: the shipped ``data/hh3``).
    """

    def __init__(
        self,
        weapons: pd.DataFrame | None = None,
        targets: pd.DataFrame | None = None,
        units: pd.DataFrame | None = None,
    ) -> None:
        self._catalogs = (weapons, targets, units)
        self._quiet = False
        pages = [
            Page("Shooting", self._shooting_tab, SHOOTING_WIDGETS),
            Page("Workbench", lambda: note(EDITION_2_ONLY["Workbench"])),
            Page("Melee", self._melee_tab, ("melee_inputs", "melee", "melee_status")),
            Page("Marker scatter", lambda: note(EDITION_2_ONLY["Marker scatter"])),
            Page("Roster", self._roster_tab, ("roster_upload", "roster_status", "roster")),
            Page("Matchup", self._matchup_tab, ("matchup_tab",)),
            Page("Targets, setup", lambda: note(EDITION_2_ONLY["Targets, setup"])),
        ]
        self.tabs = LazyTabs(pages, build_first=False, bar="The 3rd edition's page shown")  # built when first shown
        self.widget = self.tabs.widget

    def _build_shooting(self) -> None:
        """The catalogs and the shooting tab's parts (when the tab is first shown or read)."""
        self.catalogs = Hh3Catalogs.load(*self._catalogs)
        self.calc = cached_calc()
        self._labels = {i: self._label(r) for i, r in self.catalogs.weapons.iterrows()}
        self.inputs = Hh3Inputs.build(list(self.catalogs.targets["archetype"]))
        self.setup_controls = SetupControls.build()
        update_weapon_options(self, weapons_named(self.catalogs.weapons, HH3_DEFAULT_WEAPONS))
        update_focus_options(self)
        self.table_frame = hh3_table(self.state(), self.catalogs.weapons, self.catalogs.targets, self.calc)
        self.heatmap = SharedFigureWidget(self._heatmap_figure())
        self.distribution = SharedFigureWidget(self._distribution_figure())
        self._show()
        for w in self.inputs.observed():
            w.observe(self._on_change, names="value")
        search, setup = self.inputs.search, self.setup_controls
        search.observe(lambda _: update_weapon_options(self, list(self.inputs.weapon_select.value)), names="value")
        setup.save_button.on_click(lambda _: self.save_setup())
        setup.load_button.on_click(lambda _: self.load_setup(setup.scenario_text.value))

    def __getattr__(self, name: str) -> Any:
        # a field of the shooting tab's parts (``dashboard.bs`` is ``dashboard.inputs.bs``), once they are built
        for part, names in PART_FIELDS.items():
            record = self.__dict__.get(part)
            if record is not None and name in names:
                return getattr(record, name)
        # a widget of a tab not built yet: build that tab
        tabs = self.__dict__.get("tabs")
        page = tabs.page_of(name) if tabs is not None else None
        if page is None or tabs is None or tabs.built(page):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        tabs.build(page)
        return getattr(self, name)

    @staticmethod
    def _label(row: pd.Series) -> str:
        return (
            f"{row['name']} ({row.get('faction', '')}) R{row.get('R', '')} FP{row.get('FP', '')} "
            f"RS{row.get('RS', '')} AP{row.get('AP', '')} D{row.get('D', '')}"
        )

    # --- the shooting tab -----------------------------------------------------------------------------
    def state(self) -> Hh3State:
        """The shooting inputs as an :class:`Hh3State`."""
        return self.inputs.state()

    def scenarios(self) -> list[dict[str, Any]]:
        """The shooting setup as ``praetor calc`` documents (``"edition": "hh3"``)."""
        return hh3_scenarios(self.state(), self.catalogs.weapons, self.catalogs.targets)

    def _heatmap_figure(self) -> Any:
        s = self.state()
        frame = self.table_frame if len(self.table_frame) else pd.DataFrame(columns=["weapon", "target", s.metric])
        title = f"3rd edition: {HH3_METRICS[s.metric]}, {s.models} firers at BS {s.bs}"
        return F.efficiency_heatmap(frame, F.HeatmapOptions(metric=s.metric, title=title, unit="models"))

    def _distribution_figure(self) -> Any:
        s = self.state()
        pmf, label, measure = focus_pmf(self.table_frame, s.focus_target, s.focus_weapon)
        unit = "hull points" if measure == "hull_points" else "models"
        return F.distribution_figure(
            pmf,
            F.DistributionOptions(title=label or "Choose a weapon and a target", outcome=f"{unit} removed", unit=unit),
        )

    def refresh(self) -> pd.DataFrame:
        """Recompute the shooting table (each document once: the answers are kept) and the figures."""
        self.table_frame = hh3_table(self.state(), self.catalogs.weapons, self.catalogs.targets, self.calc)
        sync_figure(self.heatmap, self._heatmap_figure())
        sync_figure(self.distribution, self._distribution_figure())
        self._show()
        return self.table_frame

    def _show(self) -> None:
        t = self.table_frame
        if t.empty:
            self.inputs.status.value = (
                "Choose at least one weapon and one target: the heatmap and the distribution follow."
            )
            self.inputs.table.value = ""
            return
        errors = [f"{w} vs {tg}: {e}" for w, tg, e in zip(t["weapon"], t["target"], t["error"], strict=True) if e]
        self.inputs.status.value = "<br>".join(html.escape(x) for x in [statuses_line(t), *errors[:3]])
        cols = ["weapon", "target", "measure", *HH3_METRICS]
        self.inputs.table.value = t[cols].to_html(index=False, float_format=lambda v: f"{v:.3f}", na_rep="-")

    def _on_change(self, change: dict[str, Any]) -> None:
        if self._quiet:
            return
        if change["owner"] in (self.inputs.weapon_select, self.inputs.target_select):
            update_focus_options(self)
        self.refresh()

    def save_setup(self) -> list[dict[str, Any]]:
        """Download the shooting setup as ``praetor_setup_hh3.json`` and put it in the text box."""
        docs = self.scenarios()
        text = json.dumps(docs, indent=1)
        self.setup_controls.scenario_text.value = text
        self.setup_controls.download.offer(text, "praetor_setup_hh3.json", "application/json")
        self.setup_controls.setup_status.value = (
            f"{len(docs)} documents (edition hh3) sent to your browser as praetor_setup_hh3.json;"
            " <code>praetor calc praetor_setup_hh3.json</code> reruns them."
        )
        return docs

    def load_setup(self, text: str) -> Hh3State | None:
        """Set the shooting inputs from a saved setup; a bad one (or one of the 2nd edition) is said on one line."""
        try:
            s = hh3_state_from_setup(text, self.catalogs.weapons, self.catalogs.targets)
        except PraetorError as exc:
            self.setup_controls.setup_status.value = f"Not loaded: {html.escape(str(exc))}"
            return None
        self._quiet = True
        try:
            update_weapon_options(self, list(s.weapons))
            self._quiet = True
            self.inputs.target_select.value = s.targets
            for name in ("bs", "models", "cover", "fnp", "snap_shots", "stationary"):
                getattr(self.inputs, name).value = getattr(s, name)
        finally:
            self._quiet = False
        update_focus_options(self)
        self.refresh()
        self.setup_controls.setup_status.value = (
            f"Loaded {len(s.weapons)} weapons x {len(s.targets)} targets (edition hh3)."
        )
        return s

    def _shooting_tab(self) -> W.Widget:
        self._build_shooting()
        i = self.inputs
        figures = W.HBox([self.heatmap, self.distribution])
        parts = [i.search, i.weapon_select, i.target_select, i.options(), i.status, figures, i.table]
        return W.VBox([*parts, self.setup_controls.widget()])

    # --- the melee tab --------------------------------------------------------------------------------
    def _unit_options(self) -> list[tuple[str, int]]:
        return [
            (f"{r['name']} — {r.get('unit', '')} ({r.get('faction', '')})", n)
            for n, r in enumerate(self.catalogs.units.to_dict("records"))
        ]

    def _melee_tab(self) -> W.Widget:
        units = self._unit_options()
        blades = [
            (f"{r['name']} ({r.get('faction', '')}) IM{r['IM']} AM{r['AM']} SM{r['SM']} AP{r['AP']} D{r['D']}", i)
            for i, r in self.catalogs.melee_weapons.iterrows()
        ]
        first_blade = next((i for label, i in blades if label.startswith("Chainsword ")), blades[0][1])
        pick = "34em"
        self.melee_inputs: dict[str, W.ValueWidget] = {
            "attacker": labelled(
                W.Dropdown, "Attacker", "The unit profile that charges", options=units, value=units[0][1], width=pick
            ),
            "weapon": labelled(
                W.Dropdown, "Weapon", "The attacker's melee weapon", options=blades, value=first_blade, width=pick
            ),
            "attacker_models": labelled(W.IntSlider, "Models", "Models in the attacking unit", value=10, min=1, max=30),
            "target": labelled(
                W.Dropdown,
                "Defender",
                "The unit profile that strikes back",
                options=units,
                value=units[0][1],
                width=pick,
            ),
            "target_weapon": labelled(
                W.Dropdown, "Its weapon", "The defender's melee weapon", options=blades, value=first_blade, width=pick
            ),
            "target_models": labelled(W.IntSlider, "Models", "Models in the defending unit", value=10, min=1, max=30),
            "charging": labelled(W.Checkbox, "Charging", "The attacker charged (Impact)", value=True),
        }
        self.melee_status = W.HTML()
        self.melee = SharedFigureWidget(self._melee_figure())
        for w in self.melee_inputs.values():
            w.observe(lambda _: self.refresh_melee(), names="value")
        m = list(self.melee_inputs.values())
        return W.VBox([W.HBox([W.VBox(m[:3]), W.VBox(m[3:])]), self.melee, self.melee_status])

    def melee_scenario(self) -> dict[str, Any]:
        """The melee tab's round as a ``praetor calc`` document (``"edition": "hh3"``)."""
        v = {k: w.value for k, w in self.melee_inputs.items()}
        return hh3_melee_scenario(
            self.catalogs.units.loc[v["attacker"]].to_dict(),
            self.catalogs.melee_weapons.loc[v["weapon"]].to_dict(),
            self.catalogs.units.loc[v["target"]].to_dict(),
            self.catalogs.melee_weapons.loc[v["target_weapon"]].to_dict(),
            (v["attacker_models"], v["target_models"]),
            charging=v["charging"],
        )

    def _melee_figure(self) -> Any:
        import plotly.graph_objects as go

        from praetor_analysis.views.dashboard.melee_view import melee_figure

        doc = self.melee_scenario()
        try:
            result = self.calc(doc)
        except PraetorError as exc:
            self.melee_status.value = f"Not computed: {html.escape(str(exc))}"
            return go.Figure(layout={"title": {"text": "This round cannot be computed"}})
        c = result["combat"]
        self.melee_status.value = html.escape(
            f"The defender loses {result['casualties']['mean']:.2f} models, the attacker "
            f"{result['attacker_casualties']['mean']:.2f}; P(the loser is Routed): attacker "
            f"{result['routed']['attacker']:.1%}, defender {result['routed']['target']:.1%}; "
            f"draw {c['draw']:.1%}."
        )
        return melee_figure(result, doc["attacker"]["name"], doc["target"]["name"])

    def refresh_melee(self) -> dict[str, Any]:
        """Recompute the round and update its figure; returns its document."""
        sync_figure(self.melee, self._melee_figure())
        return self.melee_scenario()

    # --- the lists ------------------------------------------------------------------------------------
    def _roster_tab(self) -> W.Widget:
        from praetor_analysis.views.dashboard.roster_view import roster_view

        self.roster_upload = labelled(
            W.FileUpload,
            "Load a roster",
            "A 3rd-edition list (.ros or .rosz): each unit strikes the shooting tab's targets",
            accept=".ros,.rosz",
            multiple=False,
        )
        self.roster_status = W.HTML()
        rv = roster_view(None, "", self.catalogs.targets)
        self.roster = SharedFigureWidget(rv.figure)
        self.roster_status.value = html.escape(rv.summary)
        self.roster_upload.observe(self._on_roster, names="value")
        return W.VBox(
            [
                note("The units of a 3rd-edition list at the chosen standard targets."),
                self.roster_upload,
                self.roster_status,
                self.roster,
            ]
        )

    def load_roster(self, data: bytes, name: str) -> Any:
        """Rate a roster's units at the chosen targets and show them."""
        from praetor_analysis.views.dashboard.roster_view import roster_view

        chosen = self.catalogs.targets[self.catalogs.targets["archetype"].isin(self.inputs.target_select.value)]
        rv = roster_view(data, name, chosen)
        sync_figure(self.roster, rv.figure)
        self.roster_status.value = html.escape(rv.summary)
        return rv

    def _on_roster(self, change: dict[str, Any]) -> None:
        files = change["new"] or ()
        if files:
            self.load_roster(bytes(files[0]["content"]), str(files[0]["name"]))

    def _matchup_tab(self) -> W.Widget:
        from praetor_analysis.views.dashboard.matchup_tab import MatchupTab
        from praetor_analysis.views.dashboard.modifiers import Modifiers

        self.matchup_tab = MatchupTab(Modifiers, edition="hh3")
        line = note("Two 3rd-edition lists: the 2nd edition's army-wide modifiers do not apply here.")
        return W.VBox([line, self.matchup_tab.widget])
