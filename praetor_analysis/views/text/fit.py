"""Plain-text tables that fit the terminal: columns cut with "..." rather than lines that wrap.

Every table the command prints goes through :func:`fit_table`; its width is :func:`terminal_width` (the
``COLUMNS`` of the environment or the terminal's, 100 when the output is not a terminal).
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Mapping, Sequence

__all__ = ["DEFAULT_WIDTH", "MIN_WIDTH", "cut", "fit_lines", "fit_table", "natural_width", "terminal_width", "wrap"]

DEFAULT_WIDTH = 100
"""Columns of a table when the output is not a terminal and ``COLUMNS`` is not set."""
MIN_WIDTH = 40
"""Narrowest table drawn (a smaller ``COLUMNS`` is read as this)."""
_ELLIPSIS = "..."
_GAP = "  "


def terminal_width() -> int:
    """The columns a table may use: ``COLUMNS`` if set, else the terminal's, else :data:`DEFAULT_WIDTH`."""
    return max(MIN_WIDTH, shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)


def cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, the cut marked with "..."."""
    if len(text) <= width:
        return text
    if width <= len(_ELLIPSIS):
        return text[:width]
    return text[: width - len(_ELLIPSIS)] + _ELLIPSIS


def fit_lines(lines: Sequence[str], width: int) -> list[str]:
    """Free text lines (headers, notes) cut to ``width``."""
    return [cut(line, width) for line in lines]


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """Prose (a title, a legend, a note) folded into lines of at most ``width`` characters."""
    return textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]


def natural_width(header: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """The width of a table whose columns are as wide as their longest cell."""
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(header)]
    return sum(widths) + len(_GAP) * (len(widths) - 1)


def fit_table(
    header: Sequence[str],
    rows: Sequence[Sequence[str]],
    width: int,
    *,
    right: Sequence[int] = (),
    shrink: Mapping[int, int] | Sequence[int] = (),
) -> list[str]:
    """A table of text cells as lines no longer than ``width``.

    Args:
        header: Column titles.
        rows: Cells, already formatted (numbers with their unit in the title or the cell).
        width: The longest line allowed.
        right: Indices of right-aligned columns (numbers).
        shrink: The columns that may be cut, each with the narrowest it may become (a sequence of indices: 8
            characters each). The widest of them gives way first, a character at a time, so that they end
            level; the other columns keep their width.

    Returns:
        The header line, a rule, then one line per row; a line still too long (too many fixed columns) is cut.
    """
    floors = dict(shrink) if isinstance(shrink, Mapping) else dict.fromkeys(shrink, 8)
    widths = [len(h) for h in header]
    for row in rows:
        for i, cell in enumerate(row):
            widths[i] = max(widths[i], len(cell))
    total = sum(widths) + len(_GAP) * (len(widths) - 1)
    while total > width:
        open_ = [i for i, lo in floors.items() if widths[i] > lo]
        if not open_:
            break
        i = max(open_, key=lambda j: (widths[j] - floors[j], widths[j]))
        widths[i] -= 1
        total -= 1

    def line(cells: Sequence[str]) -> str:
        out = []
        for i, cell in enumerate(cells):
            text = cut(cell, widths[i])
            out.append(text.rjust(widths[i]) if i in right else text.ljust(widths[i]))
        return cut(_GAP.join(out).rstrip(), width)

    return [line(header), cut("-" * total, width), *(line(r) for r in rows)]
