"""The dashboard's view in the page's address: written after every change, set from the address the page was
opened with (:mod:`praetor_analysis.views.dashboard.fragment` encodes and decodes it)."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any, Protocol

import ipywidgets as W
import pandas as pd

from praetor_analysis.views.dashboard.fragment import PageFragment, decode_page, decode_view, encode_page, encode_view
from praetor_analysis.views.dashboard.view import DashboardState

if TYPE_CHECKING:
    from praetor_analysis.views.dashboard.lazy_tabs import LazyTabs

__all__ = ["PageAddress"]

WORKBENCH_TAB = "Workbench"
"""The title of the tab whose setup the address carries once it is built."""


class Addressed(Protocol):
    """What the address reads of the dashboard: its Tab, its lazy ``tabs`` (once made), the page's ``fragment``,
    the ``status`` line, the ``workbench`` (read once its tab is built), the catalogs, ``state()`` and
    ``apply_state()``."""

    widget: W.Tab
    fragment: PageFragment
    status: W.HTML
    workbench: Any
    weapons: pd.DataFrame
    targets: pd.DataFrame

    def state(self) -> DashboardState: ...

    def apply_state(self, s: DashboardState, names: tuple[str, ...] | None = None) -> None: ...


class PageAddress:
    """The page's address of one dashboard (``owner``): :meth:`write` after every change, :meth:`open` when the
    page opens."""

    def __init__(self, owner: Addressed) -> None:
        self.owner = owner

    def write(self) -> None:
        """Write the view (the shooting inputs, the open tab, the workbench's setup once built) in the page's
        address (:func:`~praetor_analysis.views.dashboard.fragment.encode_page`)."""
        d = self.owner
        tabs: LazyTabs | None = vars(d).get("tabs")
        if tabs is None:  # the tabs not made yet: the shooting inputs alone
            d.fragment.fragment = encode_view(d.state())
            return
        titles = list(d.widget.titles)
        tab = d.widget.selected_index
        built = tabs.built(tabs.index(WORKBENCH_TAB))
        workbench = d.workbench.scenarios() if built else None
        d.fragment.fragment = encode_page(encode_view(d.state()), titles[tab] if tab else None, workbench)

    def open(self, text: str) -> bool:
        """Set the view from the page's URL fragment: the shooting inputs, the workbench's setup, the open tab
        (:func:`~praetor_analysis.views.dashboard.fragment.decode_page`); true if it was used. What cannot be used
        is said under the shooting controls (or the workbench's, for its setup) and that part of the view stays."""
        from praetor_analysis.errors import PraetorError

        d = self.owner
        try:
            view, tab, setup = decode_page(text, d.widget.titles)
        except PraetorError as exc:
            d.status.value = f"The page's address was not used: {html.escape(str(exc))}"
            return False
        if self.open_view(view) is None or (setup is not None and not d.workbench.load_setup(setup)):
            return False
        if tab is not None:
            d.widget.selected_index = list(d.widget.titles).index(tab)
        return True

    def open_view(self, text: str) -> DashboardState | None:
        """Set the shooting view from a URL fragment (:func:`~praetor_analysis.views.dashboard.fragment.decode_view`);
        one that cannot be used is said under the controls, and the view stays."""
        from praetor_analysis.errors import PraetorError

        d = self.owner
        try:
            s = decode_view(text, d.weapons.index, list(d.targets["archetype"]))
        except PraetorError as exc:
            d.status.value = f"The page's address was not used: {html.escape(str(exc))}"
            return None
        d.apply_state(s)
        return s
