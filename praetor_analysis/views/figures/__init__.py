"""Plotly figures, their plain-data specs and the widgets that show them.

The face of ``views/figures/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "as_pmf": "praetor_analysis.views.figures.plots",
    "at_least": "praetor_analysis.views.figures.plots",
    "at_least_curves": "praetor_analysis.views.figures.plots",
    "AtLeastOptions": "praetor_analysis.views.figures.plots",
    "distribution_figure": "praetor_analysis.views.figures.plots",
    "DistributionOptions": "praetor_analysis.views.figures.plots",
    "efficiency_heatmap": "praetor_analysis.views.figures.plots",
    "escape": "praetor_analysis.views.figures.plots",
    "figure_of": "praetor_analysis.views.figures.plots",
    "formation_figure": "praetor_analysis.views.figures.plots",
    "FormationOptions": "praetor_analysis.views.figures.plots",
    "HeatmapOptions": "praetor_analysis.views.figures.plots",
    "METRIC_LABELS": "praetor_analysis.views.figures.plots",
    "points_efficiency_bars": "praetor_analysis.views.figures.plots",
    "PointsOptions": "praetor_analysis.views.figures.plots",
    "summary_bars": "praetor_analysis.views.figures.plots",
    "SummaryOptions": "praetor_analysis.views.figures.plots",
    "vehicle_outcome_bars": "praetor_analysis.views.figures.plots",
    "VehicleOptions": "praetor_analysis.views.figures.plots",
    "weapon_labels": "praetor_analysis.views.figures.plots",
}

__all__ = [
    "METRIC_LABELS",
    "AtLeastOptions",
    "DistributionOptions",
    "FormationOptions",
    "HeatmapOptions",
    "PointsOptions",
    "SummaryOptions",
    "VehicleOptions",
    "as_pmf",
    "at_least",
    "at_least_curves",
    "distribution_figure",
    "efficiency_heatmap",
    "escape",
    "figure_of",
    "formation_figure",
    "points_efficiency_bars",
    "summary_bars",
    "vehicle_outcome_bars",
    "weapon_labels",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.views.figures.plots import (
        METRIC_LABELS,
        AtLeastOptions,
        DistributionOptions,
        FormationOptions,
        HeatmapOptions,
        PointsOptions,
        SummaryOptions,
        VehicleOptions,
        as_pmf,
        at_least,
        at_least_curves,
        distribution_figure,
        efficiency_heatmap,
        escape,
        figure_of,
        formation_figure,
        points_efficiency_bars,
        summary_bars,
        vehicle_outcome_bars,
        weapon_labels,
    )
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
