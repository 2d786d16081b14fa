"""The dashboard's marker tab: a blast marker scattering over a formation (a component the
:class:`~praetor_analysis.views.dashboard.app.Dashboard` holds as ``markers``)."""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from praetor_analysis.views.controls import labelled
from praetor_analysis.views.dashboard.view import MARKER_CHOICES, MarkerState, marker_view
from praetor_analysis.views.figures.live import sync_figure
from praetor_analysis.views.figures.widgets import SharedFigureWidget

__all__ = ["MarkerTab"]


class MarkerTab:
    """``widget`` is the page; ``inputs`` its controls by name; ``formation`` (the picture) and
    ``distribution`` (the models hit) are its FigureWidgets, updated in place on every change."""

    def __init__(self) -> None:
        self.inputs: dict[str, W.ValueWidget] = {
            "models": labelled(W.IntSlider, "Models", "Models in the target formation", value=10, min=1, max=30),
            "base_mm": labelled(
                W.Dropdown, "Base (mm)", "The models' base diameter", options=[25.0, 32.0, 40.0, 60.0], value=32.0
            ),
            "gap": labelled(
                W.FloatSlider, 'Gap (")', "Inches between neighbouring bases", value=2.0, min=0.0, max=4.0, step=0.5
            ),
            "columns": labelled(W.IntSlider, "Columns", "Models per rank of the formation", value=5, min=1, max=10),
            "marker": labelled(
                W.Dropdown, "Marker", "The blast marker fired", options=list(MARKER_CHOICES), value='Blast (3")'
            ),
            "bs": labelled(
                W.IntSlider, "BS", "The firer's Ballistic Skill (taken off the scatter)", value=4, min=1, max=10
            ),
            "indirect": labelled(
                W.Checkbox, "Indirect barrage", "Fired without line of sight: the full 2D6 scatter", value=False
            ),
            "aim": labelled(
                W.IntSlider, "Aim at model", "The model the marker's hole is placed over", value=0, min=0, max=29
            ),
        }
        picture, dist = marker_view(self.state())
        self.formation = SharedFigureWidget(picture)
        self.distribution = SharedFigureWidget(dist)
        for w in self.inputs.values():
            w.observe(self._on_change, names="value")
        mk = list(self.inputs.values())
        self.widget = W.VBox([W.HBox([W.VBox(mk[:4]), W.VBox(mk[4:])]), W.HBox([self.formation, self.distribution])])

    def state(self) -> MarkerState:
        """The tab's inputs as a :class:`MarkerState`."""
        return MarkerState(**{k: w.value for k, w in self.inputs.items()})

    def _on_change(self, change: dict[str, Any]) -> None:
        picture, dist = marker_view(self.state())
        sync_figure(self.formation, picture)
        sync_figure(self.distribution, dist)
