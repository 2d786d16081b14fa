"""The dashboard's setup tab: targets added from the catalog or as a statline; the setup saved, loaded and
exported as downloads (a component the :class:`~praetor_analysis.views.dashboard.app.Dashboard` holds as
``setup``)."""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Any, Protocol

import ipywidgets as W
import pandas as pd

from praetor_analysis.catalog import frame_rows
from praetor_analysis.errors import ScenarioError
from praetor_analysis.units import UnitRow
from praetor_analysis.views.controls import labelled, note
from praetor_analysis.views.dashboard.view import (
    DashboardState,
    assumptions_of,
    inputs_of,
    setup_scenarios,
    state_from_scenarios,
)
from praetor_analysis.views.download import Download

__all__ = ["SAVED_FIELDS", "SetupHost", "SetupTab", "unit_label"]

#: The fields a saved setup (scenarios) carries beside its weapons and targets.
SAVED_FIELDS = (
    "bs", "attacker_models", "cover", "fnp", "half_range", "reroll_hits", "reroll_wounds", "charging",
    "preferred_enemy",
)  # fmt: skip


def unit_label(row: dict[str, Any]) -> str:
    """A unit profile's label in the pickers: name — unit (faction)."""
    return f"{row['name']} — {row.get('unit', '')} ({row.get('faction', '')})"


class SetupHost(Protocol):
    """What the setup tab reads of the dashboard: its catalogs (``targets`` grows as targets are added), the
    shooting inputs (``state()``), and the two ways it changes them."""

    units: pd.DataFrame
    weapons: pd.DataFrame
    targets: pd.DataFrame

    def state(self) -> DashboardState: ...

    def add_target(self, row: Mapping[str, object]) -> str: ...

    def apply_state(self, s: DashboardState, names: tuple[str, ...] | None = None) -> None: ...


class SetupTab:
    """The setup tab of one dashboard (``host``): ``widget`` is its page; ``unit_opts`` are the catalog's units as
    picker options (label, row position)."""

    def __init__(self, host: SetupHost, unit_opts: list[tuple[str, int]]) -> None:
        self.host = host
        self._build_setup(unit_opts)
        self._wire_setup()
        self.widget = self._setup_tab()

    def _target_options(self, unit_opts: list[tuple[str, int]]) -> list[tuple[str, int]]:
        """The unit options that can be a target (a profile without Toughness or armour values cannot)."""
        units = self.host.units
        profiles = UnitRow.from_frame(units)
        return [o for o in unit_opts if profiles[o[1]].is_target_profile]  # options number rows by position

    def _build_setup(self, unit_opts: list[tuple[str, int]]) -> None:
        self.unit_search = labelled(
            W.Text, "Find a unit", "Part of a unit's name: the list beside it narrows", placeholder="e.g. Contemptor"
        )
        self.unit_pick = labelled(
            W.Dropdown,
            "Unit",
            "The unit profile added as a target",
            options=self._target_options(unit_opts)[:200],
            width="60em",
        )
        self.unit_models = labelled(
            W.BoundedIntText, "Models", "Models in the added target (a vehicle is one)", value=5, min=1, max=50
        )
        self.add_unit = labelled(W.Button, "Add as a target", "Add the unit to the shooting tab's targets")
        self.custom = {
            "name": labelled(W.Text, "Name", "The custom target's name", value="Custom squad"),
            "models": labelled(W.BoundedIntText, "Models", "Models in the unit", value=10, min=1, max=50),
            "T": labelled(W.BoundedIntText, "T", "Toughness", value=4, min=1, max=10),
            "W": labelled(W.BoundedIntText, "W", "Wounds of each model", value=1, min=1, max=20),
            "Save": labelled(
                W.Dropdown, "Save", "Armour save", options=["2+", "3+", "4+", "5+", "6+", "-"], value="3+"
            ),
            "Invulnerable": labelled(
                W.Dropdown, "Invulnerable", "Invulnerable save", options=["-", "3+", "4+", "5+", "6+"], value="-"
            ),
        }
        self.add_custom = labelled(W.Button, "Add custom target", "Add this statline to the shooting tab's targets")
        self.scenario_text = W.Textarea(
            placeholder="praetor calc scenario JSON: paste a saved setup here and press 'Load the text'",
            tooltip="A saved setup (the JSON 'Save setup' writes, as praetor calc reads it): paste it, then load it",
            layout=W.Layout(width="98%", height="160px"),
        )
        self.save_button = labelled(
            W.Button,
            "Save setup",
            "Download the setup as praetor_setup.json: one praetor calc scenario per weapon and target",
        )
        self.load_file = labelled(
            W.FileUpload, "Load a setup file", "A JSON file saved by 'Save setup'", accept=".json", multiple=False
        )
        self.load_button = labelled(W.Button, "Load the text", "Set the inputs from the scenario JSON in the box")
        self.export_button = labelled(
            W.Button,
            "Export report",
            "Download the shooting tab's view as one offline HTML file (praetor_report.html)",
        )
        self.download = Download()
        self.setup_status = W.HTML()

    def _setup_tab(self) -> W.VBox:
        return W.VBox(
            [
                W.HTML("<b>Add a target from the unit catalog</b>"),
                W.HBox([self.unit_search, self.unit_models]),
                W.HBox([self.unit_pick, self.add_unit]),
                W.HTML("<b>Or a custom statline</b>"),
                W.HBox([W.VBox(list(self.custom.values())[:3]), W.VBox(list(self.custom.values())[3:])]),
                self.add_custom,
                W.HTML("<b>The setup as <code>praetor calc</code> scenarios</b>"),
                note(
                    "'Save setup' downloads the shooting tab's setup as a JSON file that "
                    "<code>praetor calc FILE.json</code> runs; load it back from the file or paste it in the box. "
                    "'Export report' downloads the view as one HTML file that works offline."
                ),
                W.HBox([self.save_button, self.load_file, self.load_button, self.export_button, self.download]),
                self.scenario_text,
                self.setup_status,
            ]
        )

    def _wire_setup(self) -> None:
        self.unit_search.observe(self._on_unit_search, names="value")
        self.add_unit.on_click(lambda _: self.add_target_unit(self.unit_pick.value, self.unit_models.value))
        self.add_custom.on_click(lambda _: self.add_custom_target())
        self.save_button.on_click(lambda _: self.save_setup())
        self.load_button.on_click(lambda _: self.load_setup(self.scenario_text.value))
        self.load_file.observe(self._on_setup_file, names="value")
        self.export_button.on_click(lambda _: self.export_report())

    def _on_setup_file(self, change: dict[str, Any]) -> None:
        files = change["new"] or ()
        if files:
            self.load_setup(bytes(files[0]["content"]).decode("utf-8", errors="replace"))

    def _on_unit_search(self, change: dict[str, Any]) -> None:
        text = str(change["new"]).strip().lower()
        labels = [(unit_label(r), i) for i, r in enumerate(frame_rows(self.host.units))]
        self.unit_pick.options = [o for o in self._target_options(labels) if text in o[0].lower()][:200]

    # --- targets, save, load, export ----------------------------------------------------------------
    def add_target_unit(self, unit_index: int, models: int) -> str:
        """Add a unit of the catalog as a target of ``models`` models (vehicles: one); returns its label."""
        row = {str(k): v for k, v in self.host.units.loc[unit_index].items()}
        profile = UnitRow.from_row(row)
        if not profile.is_target_profile:
            raise ScenarioError(f"unit: {row['name']!r} has no Toughness or armour values in the data: not a target")
        vehicle = profile.is_vehicle
        label = f"{row['name']} ({row.get('unit', '')})"
        return self.host.add_target({**row, "archetype": label, "models": 1 if vehicle else int(models)})

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
        return self.host.add_target(row)

    def save_setup(self) -> list[dict[str, Any]]:
        """Download the setup (one ``praetor calc`` scenario per weapon and target) as ``praetor_setup.json``
        and put it in the text box."""
        scenarios = setup_scenarios(self.host.state(), self.host.weapons, self.host.targets)
        text = json.dumps(scenarios, indent=1)
        self.scenario_text.value = text
        self.download.offer(text, "praetor_setup.json", "application/json")
        self.setup_status.value = (
            f"{len(scenarios)} scenarios sent to your browser as praetor_setup.json; "
            "<code>praetor calc praetor_setup.json</code> reruns them."
        )
        return scenarios

    def load_setup(self, text: str) -> DashboardState | None:
        """Set the inputs from saved scenarios (see :func:`state_from_scenarios`); bad input is said, not raised."""
        from praetor_analysis.errors import PraetorError

        try:
            s = state_from_scenarios(text, self.host.weapons, self.host.targets)
        except PraetorError as exc:
            self.setup_status.value = f"Not loaded: {html.escape(str(exc))}"
            return None
        self.host.apply_state(s, SAVED_FIELDS)
        self.setup_status.value = f"Loaded {len(s.weapons)} weapons x {len(s.targets)} targets."
        return s

    def report_html(self) -> str:
        """The current shooting view as the offline HTML report (one page)."""
        from praetor_analysis.analysis import compare_with_distributions
        from praetor_analysis.views.report.page import Report, to_html, wound_distributions

        state = self.host.state()
        w, t, attacker = inputs_of(state, self.host.weapons, self.host.targets)
        table, dists = compare_with_distributions(w, t, attacker=attacker, half_range=state.half_range)
        report = Report(
            title="Praetor analysis: dashboard view",
            comparison=table,
            distributions=dists,
            assumptions=assumptions_of(state),
            wounds=wound_distributions(w, t, attacker=attacker, half_range=state.half_range),
        )
        return to_html(report)

    def export_report(self) -> str:
        """Send the current shooting view to the reader's browser as ``praetor_report.html``; returns the page."""
        page = self.report_html()
        self.download.offer(page, "praetor_report.html", "text/html")
        self.setup_status.value = "The report was sent to your browser as praetor_report.html."
        return page
