"""A Tab whose pages are built the first time they are opened (the dashboard's first tab alone at start).

A page's builder runs once, when the reader first selects its tab or when the code asks for it
(:meth:`LazyTabs.build`); until then the tab holds an empty box, so the page's widgets neither cost the kernel
their construction nor the browser their models.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as W

__all__ = ["LazyTabs", "Page"]


@dataclass(frozen=True)
class Page:
    """One tab: its title, the builder of its content, and the names of the attributes its builder sets on the
    owner (reading one of them before the tab is opened builds it: :meth:`LazyTabs.page_of`)."""

    title: str
    build: Callable[[], W.Widget]
    widgets: tuple[str, ...] = ()


class LazyTabs:
    """``widget`` is a ``W.Tab`` of ``pages``; page 0 is built at once (unless ``build_first`` is false: a Tab
    placed in the page hidden, built when shown), the others on demand."""

    def __init__(self, pages: Sequence[Page], *, build_first: bool = True, bar: str = "") -> None:
        self.pages = tuple(pages)
        self._boxes = [W.VBox() for _ in pages]
        self._built = [False] * len(pages)
        self.titles = tuple(p.title for p in pages)
        self.pager: W.Tab | W.Stack
        if bar:  # a row of buttons over a Stack (a second Tab in one page takes no clicks in the browser)
            self.buttons = W.ToggleButtons(options=[(t, i) for i, t in enumerate(self.titles)], value=0, tooltip=bar,
                                           style={"button_width": "auto"})  # fmt: skip
            self.buttons.tooltips = [f"{bar}: {t}" for t in self.titles]
            self.pager = W.Stack(children=self._boxes, selected_index=0)
            W.link((self.buttons, "value"), (self.pager, "selected_index"))
            self.widget: W.Widget = W.VBox([self.buttons, self.pager])
        else:
            self.pager = W.Tab(children=self._boxes, titles=list(self.titles))
            self.widget = self.pager
        self.pager.observe(self._on_select, names="selected_index")
        if build_first:
            self.build(0)

    def index(self, title: str) -> int:
        """The index of the page titled ``title``."""
        return next(i for i, p in enumerate(self.pages) if p.title == title)

    def page_of(self, name: str) -> int | None:
        """The index of the page whose builder sets the attribute ``name`` (None: no page does)."""
        return next((i for i, p in enumerate(self.pages) if name in p.widgets), None)

    def built(self, index: int) -> bool:
        """Whether page ``index`` has been built."""
        return self._built[index]

    def build(self, index: int) -> W.Widget:
        """Build page ``index`` if it was not (idempotent); returns its content."""
        if not self._built[index]:
            self._built[index] = True  # first: a builder that reads another page's attribute must not recurse
            try:
                self._boxes[index].children = (self.pages[index].build(),)
            except BaseException:
                self._built[index] = False
                raise
        return self._boxes[index].children[0]

    def build_all(self) -> None:
        """Build every page (a test that walks all controls, a screenshot of each tab)."""
        for i in range(len(self.pages)):
            self.build(i)

    def _on_select(self, change: dict[str, Any]) -> None:
        if change["new"] is not None:
            self.build(int(change["new"]))
