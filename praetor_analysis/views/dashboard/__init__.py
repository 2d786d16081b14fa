"""The interactive dashboard: ipywidgets tabs over pure views of their state.

The face of ``views/dashboard/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "adjust_targets": "praetor_analysis.views.dashboard.app",
    "attacker_for": "praetor_analysis.views.dashboard.app",
    "compute_view": "praetor_analysis.views.dashboard.app",
    "COVER_CHOICES": "praetor_analysis.views.dashboard.app",
    "Dashboard": "praetor_analysis.views.dashboard.app",
    "DashboardState": "praetor_analysis.views.dashboard.app",
    "DEFAULT_SELECTION": "praetor_analysis.views.dashboard.app",
    "EditionDashboard": "praetor_analysis.views.dashboard.editions",
    "Hh3Dashboard": "praetor_analysis.views.dashboard.hh3_tab",
    "FNP_CHOICES": "praetor_analysis.views.dashboard.app",
    "marker_view": "praetor_analysis.views.dashboard.app",
    "MarkerState": "praetor_analysis.views.dashboard.app",
    "View": "praetor_analysis.views.dashboard.app",
    "weapon_catalog": "praetor_analysis.views.dashboard.app",
}

__all__ = [
    "COVER_CHOICES",
    "DEFAULT_SELECTION",
    "FNP_CHOICES",
    "Dashboard",
    "DashboardState",
    "EditionDashboard",
    "Hh3Dashboard",
    "MarkerState",
    "View",
    "adjust_targets",
    "attacker_for",
    "compute_view",
    "marker_view",
    "weapon_catalog",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.views.dashboard.app import (
        COVER_CHOICES,
        DEFAULT_SELECTION,
        FNP_CHOICES,
        Dashboard,
        DashboardState,
        MarkerState,
        View,
        adjust_targets,
        attacker_for,
        compute_view,
        marker_view,
        weapon_catalog,
    )
    from praetor_analysis.views.dashboard.editions import EditionDashboard
    from praetor_analysis.views.dashboard.hh3_tab import Hh3Dashboard
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
