"""The dashboard's view in the page's address (a mixin of :class:`~praetor_analysis.views.dashboard.Dashboard`):
written after every change, set from the address the page was opened with (:mod:`praetor_analysis.views.fragment`
encodes and decodes it)."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import ipywidgets as W

from praetor_analysis.views.dashboard_view import DashboardState
from praetor_analysis.views.fragment import PageFragment, decode_page, encode_page, encode_view

if TYPE_CHECKING:
    from praetor_analysis.views.lazy_tabs import LazyTabs

__all__ = ["PageAddress"]

WORKBENCH_TAB = "Workbench"
"""The title of the tab whose setup the address carries once it is built."""


class PageAddress:
    """The dashboard supplies ``widget`` (its Tab), ``tabs``, ``fragment``, ``status``, ``workbench``,
    ``state()`` and ``open_fragment()``."""

    widget: W.Tab
    fragment: PageFragment
    status: W.HTML
    workbench: Any
    # the dashboard's methods the address calls
    state: Callable[[], DashboardState]
    open_fragment: Callable[[str], DashboardState | None]

    def _write_fragment(self) -> None:
        """Write the view (the shooting inputs, the open tab, the workbench's setup once built) in the page's
        address (:func:`~praetor_analysis.views.fragment.encode_page`)."""
        tabs: LazyTabs | None = self.__dict__.get("tabs")
        if tabs is None:  # the tabs not made yet: the shooting inputs alone
            self.fragment.fragment = encode_view(self.state())
            return
        titles = list(self.widget.titles)
        tab = self.widget.selected_index
        built = tabs.built(titles.index(WORKBENCH_TAB))
        workbench = self.workbench.scenarios() if built else None
        self.fragment.fragment = encode_page(encode_view(self.state()), titles[tab] if tab else None, workbench)

    def open_page(self, text: str) -> bool:
        """Set the view from the page's URL fragment: the shooting inputs, the workbench's setup, the open tab
        (:func:`~praetor_analysis.views.fragment.decode_page`); true if it was used. What cannot be used is said
        under the shooting controls (or the workbench's, for its setup) and that part of the view stays."""
        from praetor_analysis.errors import PraetorError

        try:
            view, tab, setup = decode_page(text, self.widget.titles)
        except PraetorError as exc:
            self.status.value = f"The page's address was not used: {html.escape(str(exc))}"
            return False
        if self.open_fragment(view) is None or (setup is not None and not self.workbench.load_setup(setup)):
            return False
        if tab is not None:
            self.widget.selected_index = list(self.widget.titles).index(tab)
        return True
