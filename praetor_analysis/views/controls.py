"""Controls a reader can read: the whole label shown, and a tooltip saying what the control does."""

from __future__ import annotations

from typing import Any, TypeVar

import ipywidgets as W

__all__ = ["labelled", "note"]

T = TypeVar("T", bound=W.DOMWidget)

_LABEL = {"description_width": "initial"}


def labelled(cls: type[T], description: str, tooltip: str, *, width: str | None = None, **kwargs: Any) -> T:
    """A widget of ``cls`` whose label is never cut (it takes the width it needs) with ``tooltip`` on hover.

    Args:
        cls: An ipywidgets class (Dropdown, IntSlider, Checkbox, Button...).
        description: The label (a Button's text).
        tooltip: What the control does, in a sentence.
        width: The widget's CSS width (default: the label's and the control's own widths; 24em for a slider).
    """
    style = {} if issubclass(cls, (W.Button, W.FileUpload)) else dict(_LABEL)
    if width is None:
        width = "24em" if issubclass(cls, (W.IntSlider, W.FloatSlider)) else "auto"  # a slider needs room to slide
    layout = W.Layout(width=width)
    if issubclass(cls, W.Checkbox):
        kwargs.setdefault("indent", False)
    return cls(description=description, tooltip=tooltip, style=style, layout=layout, **kwargs)


def note(text: str) -> W.HTML:
    """A short explanation under a group of controls (HTML: escape what came from a file)."""
    return W.HTML(f'<div style="color:#555;font-size:90%;max-width:80em">{text}</div>')
