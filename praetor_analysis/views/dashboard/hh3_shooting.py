"""The parts of the 3rd edition's shooting tab as records: its catalogs, its inputs (read as an
:class:`~praetor_analysis.views.dashboard.hh3_view.Hh3State`) and its setup controls (save, load). The
:class:`~praetor_analysis.views.dashboard.hh3_tab.Hh3Dashboard` builds them when the tab is first shown."""

from __future__ import annotations

from dataclasses import dataclass, fields

import ipywidgets as W
import pandas as pd

from praetor_analysis.views.controls import labelled
from praetor_analysis.views.dashboard.hh3_view import HH3_COVER, HH3_METRICS, Hh3State, hh3_weapon_catalog
from praetor_analysis.views.dashboard.shooting_inputs import observed_inputs, state_of_inputs
from praetor_analysis.views.dashboard.view import FNP_CHOICES
from praetor_analysis.views.download import Download

__all__ = ["PART_FIELDS", "Hh3Catalogs", "Hh3Inputs", "SetupControls"]


def _given(column: pd.Series) -> pd.Series:
    """Which cells of a column hold a value (not empty, not ``nan``)."""
    return ~column.astype(str).str.strip().isin(("", "nan"))


@dataclass(frozen=True, eq=False)
class Hh3Catalogs:
    """The 3rd edition's catalogs the dashboard reads: ranged and melee weapons, standard targets, and the units
    that can fight a round (a body and blows: WS, A, I, T and W given as numbers)."""

    weapons: pd.DataFrame
    melee_weapons: pd.DataFrame
    targets: pd.DataFrame
    units: pd.DataFrame

    @classmethod
    def load(
        cls, weapons: pd.DataFrame | None, targets: pd.DataFrame | None, units: pd.DataFrame | None
    ) -> Hh3Catalogs:
        """The catalogs given, the shipped ``data/hh3`` ones for those not given."""
        from praetor_analysis.catalog import load_targets, load_units

        catalog = hh3_weapon_catalog(weapons)
        units = load_units("hh3") if units is None else units
        fighting = pd.concat(
            [units[k].astype(str).str.strip().str.isdigit() for k in ("WS", "A", "I", "T", "W")], axis=1
        )
        return cls(
            weapons=catalog[_given(catalog["R"])],
            melee_weapons=catalog[_given(catalog["IM"])],
            targets=load_targets("hh3") if targets is None else targets,
            units=units[fighting.all(axis=1)].reset_index(drop=True),
        )


@dataclass(frozen=True, eq=False)
class Hh3Inputs:
    """The shooting tab's widgets, one field each (the fields of :class:`Hh3State` among them, by name)."""

    search: W.Text
    weapon_select: W.SelectMultiple
    target_select: W.SelectMultiple
    bs: W.IntSlider
    models: W.IntSlider
    snap_shots: W.Checkbox
    stationary: W.Checkbox
    cover: W.Dropdown
    fnp: W.Dropdown
    metric: W.Dropdown
    focus_target: W.Dropdown
    focus_weapon: W.Dropdown
    status: W.HTML
    table: W.HTML

    @classmethod
    def build(cls, targets: list[str]) -> Hh3Inputs:
        """The widgets at their start values; ``targets`` are the target labels offered (all chosen)."""
        return cls(
            search=W.Text(
                description="Search",
                placeholder="weapon name, e.g. plasma",
                tooltip="Type part of a weapon's name: its profiles join the list below (the chosen stay)",
            ),
            weapon_select=W.SelectMultiple(
                description="Weapons",
                rows=8,
                layout=W.Layout(width="98%"),
                tooltip="The 3rd edition's weapons compared (Ctrl- or Shift-click to choose several)",
            ),
            target_select=W.SelectMultiple(options=targets, value=tuple(targets), description="Targets", rows=7,
                                           layout=W.Layout(width="98%"), tooltip="The 3rd edition's standard targets"),
            **cls._firers(),
            cover=labelled(W.Dropdown, "Cover", "The targets' cover save", options=HH3_COVER, value="-"),
            fnp=labelled(W.Dropdown, "Feel No Pain", "Feel No Pain given to every target that is not a vehicle",
                         options=FNP_CHOICES),
            metric=labelled(W.Dropdown, "Colour by",
                            "What the heatmap's colours show: a mean, or the chance of each Tactical Status",
                            options=[(v, k) for k, v in HH3_METRICS.items()], value="mean"),
            focus_target=labelled(W.Dropdown, "Focus target", "The target of the distribution"),
            focus_weapon=labelled(W.Dropdown, "Focus weapon", "The weapon of the distribution"),
            status=W.HTML(),
            table=W.HTML(),
        )  # fmt: skip

    @staticmethod
    def _firers() -> dict[str, W.Widget]:
        """The firing Legionaries: their BS and number, Snap Shots, Stationary."""
        return {
            "bs": labelled(W.IntSlider, "BS", "Ballistic Skill of the firing Legionaries", value=4, min=1, max=10),
            "models": labelled(W.IntSlider, "Firing models", "Legionaries firing each weapon", value=10, min=1, max=20),
            "snap_shots": labelled(W.Checkbox, "Snap Shots", "The firers fire Snap Shots", value=False),
            "stationary": labelled(W.Checkbox, "Stationary", "The firers stood still (Heavy, Ordnance)", value=False),
        }

    def state(self) -> Hh3State:
        """The inputs as an :class:`Hh3State`."""
        return state_of_inputs(self, Hh3State)

    def observed(self) -> tuple[W.ValueWidget, ...]:
        """The inputs a change of which refreshes the view (all but the search box and the outputs)."""
        return observed_inputs(self)

    def options(self) -> W.HBox:
        """The firers', the targets' and the view's options in three columns."""
        return W.HBox(
            [
                W.VBox([self.bs, self.models, self.snap_shots, self.stationary]),
                W.VBox([self.cover, self.fnp]),
                W.VBox([self.metric, self.focus_target, self.focus_weapon]),
            ]
        )


@dataclass(frozen=True, eq=False)
class SetupControls:
    """Save the shooting setup (a download and the text box), load one pasted in the box, and the status line."""

    save_button: W.Button
    scenario_text: W.Textarea
    load_button: W.Button
    setup_status: W.HTML
    download: Download

    @classmethod
    def build(cls) -> SetupControls:
        return cls(
            save_button=W.Button(
                description="Save setup",
                icon="download",
                tooltip="Download the shooting setup as praetor calc documents (edition hh3)",
            ),
            scenario_text=W.Textarea(
                placeholder="paste a saved 3rd-edition setup here",
                layout=W.Layout(width="98%"),
                tooltip="A setup saved by 'Save setup' (JSON)",
            ),
            load_button=W.Button(description="Load setup", tooltip="Set the shooting inputs from the setup above"),
            setup_status=W.HTML(),
            download=Download(),
        )

    def widget(self) -> W.VBox:
        return W.VBox(
            [W.HBox([self.save_button, self.load_button, self.download]), self.scenario_text, self.setup_status]
        )


#: The attribute names of the records' fields (a dashboard reads each as its own).
PART_FIELDS = {
    "catalogs": frozenset(f.name for f in fields(Hh3Catalogs)),
    "inputs": frozenset(f.name for f in fields(Hh3Inputs)),
    "setup_controls": frozenset(f.name for f in fields(SetupControls)),
}
