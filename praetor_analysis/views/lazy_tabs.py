"""A Tab whose pages are built the first time they are opened (the dashboard's first tab alone at start).

A page's builder runs once, when the reader first selects its tab or when the code asks for it
(:meth:`LazyTabs.build`); until then the tab holds an empty box, so the page's widgets neither cost the kernel
their construction nor the browser their models.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

__all__ = ["LazyTabs"]


class LazyTabs:
    """``widget`` is a ``W.Tab`` of ``pages`` (title, builder); page 0 is built at once, the others on demand."""

    def __init__(self, pages: Sequence[tuple[str, Callable[[], W.Widget]]]) -> None:
        self._builders = [b for _, b in pages]
        self._boxes = [W.VBox() for _ in pages]
        self._built = [False] * len(pages)
        self.widget = W.Tab(children=self._boxes, titles=[t for t, _ in pages])
        self.widget.observe(self._on_select, names="selected_index")
        self.build(0)

    def built(self, index: int) -> bool:
        """Whether page ``index`` has been built."""
        return self._built[index]

    def build(self, index: int) -> W.Widget:
        """Build page ``index`` if it was not (idempotent); returns its content."""
        if not self._built[index]:
            self._built[index] = True  # first: a builder that reads another page's attribute must not recurse
            try:
                self._boxes[index].children = (self._builders[index](),)
            except BaseException:
                self._built[index] = False
                raise
        return self._boxes[index].children[0]

    def build_all(self) -> None:
        """Build every page (a test that walks all controls, a screenshot of each tab)."""
        for i in range(len(self._builders)):
            self.build(i)

    def _on_select(self, change: dict[str, Any]) -> None:
        if change["new"] is not None:
            self.build(int(change["new"]))
