"""The dashboard of both editions: one switch at the top, the 2nd edition's dashboard or the 3rd's below it.

:class:`EditionDashboard` holds the 2nd edition's :class:`~praetor_analysis.views.dashboard.app.Dashboard` (made
at once) and the 3rd edition's :class:`~praetor_analysis.views.dashboard.hh3_tab.Hh3Dashboard` (its tabs in the
page at once, hidden; its shooting tab built the first time the reader switches to it): the switch shows one of
them whole, its targets, catalogs, modifiers and
statuses. A setup saved in one edition records it (``"edition"`` in each document); loaded in the other it is
refused on one line that says to switch.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from praetor_analysis.views.controls import labelled

__all__ = ["EDITION_CHOICES", "EditionDashboard"]

EDITION_CHOICES = (("2nd edition", "hh2"), ("3rd edition", "hh3"))
"""The switch's choices: label, edition."""


class EditionDashboard:
    """Both editions' dashboards behind one switch. ``widget`` is the page (the switch, then the dashboard shown);
    ``hh2`` the 2nd edition's dashboard, ``hh3`` the 3rd's; ``edition`` the switch.

    Args:
        edition: The edition shown first.
        **hh2: Passed to the 2nd edition's :class:`~praetor_analysis.views.dashboard.app.Dashboard`.
    """

    def __init__(self, edition: str = "hh2", **hh2: Any) -> None:
        from praetor_analysis.views.dashboard.app import Dashboard
        from praetor_analysis.views.dashboard.hh3_tab import Hh3Dashboard

        self.hh2 = Dashboard(**hh2)
        self.hh3 = Hh3Dashboard()  # its tabs in the page at once, hidden; its shooting tab built when first shown
        self.edition = labelled(
            W.ToggleButtons,
            "Edition",
            "The rules the whole dashboard uses: the 2nd edition's or the 3rd's (its catalogs, targets, modifiers "
            "and Tactical Statuses)",
            options=EDITION_CHOICES,
            value="hh2",
        )
        self.edition.tooltips = [
            "The 2nd edition (2022): its catalogs, targets and modifiers",
            "The 3rd edition (2025): its catalogs, standard targets and Tactical Statuses",
        ]
        # both dashboards in the page at once, one shown; a column: each takes the page's width, as alone
        self.hh3.widget.layout.display = "none"
        self.body = W.VBox([self.hh2.widget, self.hh3.widget])
        self.edition.observe(lambda change: self._show(str(change["new"])), names="value")
        self.widget = W.VBox([self.edition, self.body])
        if edition != "hh2":
            self.edition.value = edition

    @property
    def current(self) -> Any:
        """The dashboard the switch shows."""
        return self.hh3 if self.edition.value == "hh3" else self.hh2

    def _show(self, edition: str) -> None:
        if edition == "hh3":
            self.hh3.tabs.build(self.hh3.tabs.pager.selected_index or 0)
        self.hh3.widget.layout.display = None if edition == "hh3" else "none"
        self.hh2.widget.layout.display = "none" if edition == "hh3" else None
