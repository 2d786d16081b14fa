"""FigureWidgets that share one plotly.js per page.

Plotly's ``go.FigureWidget`` (an anywidget since plotly 6) sends its whole front-end bundle (plotly.js and
the widget code, about 5 MB) with every instance: five figures cost 25 MB per Voila session. Here the
bundle travels once, in a :class:`PlotlyRuntime` widget; each :class:`SharedFigureWidget` is a
``go.FigureWidget`` whose front-end module is a few lines that wait for that bundle, import it once per
page and call its widget factory (one figure model per instance, as plotly's own module does).

Put the runtime in the page (``PlotlyRuntime.instance()``, a zero-size widget) before the figures.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import anywidget
import plotly
import plotly.graph_objects as go
import traitlets

__all__ = ["PlotlyRuntime", "SharedFigureWidget", "bundle_path"]

_KEY = "__praetorPlotlyWidget"


def bundle_path() -> Path:
    """Plotly's anywidget bundle (plotly.js and the FigureWidget front end)."""
    return Path(plotly.__file__).parent / "package_data" / "widgetbundle.js"


_RUNTIME_ESM = f"""
export default {{
  initialize({{ model }}) {{
    const g = (globalThis.{_KEY} = globalThis.{_KEY} || {{}});
    if (g.source === undefined) {{ g.source = model.get("source"); }}
  }},
  render({{ el }}) {{ el.style.display = "none"; }},
}};
"""

_FIGURE_ESM = f"""
function source() {{
  return new Promise((resolve) => {{
    const tick = () => {{
      const g = globalThis.{_KEY};
      if (g && g.source !== undefined) {{ resolve(g); }} else {{ setTimeout(tick, 10); }}
    }};
    tick();
  }});
}}
export default async () => {{
  const g = await source();
  if (!g.module) {{
    const url = URL.createObjectURL(new Blob([g.source], {{ type: "text/javascript" }}));
    g.module = import(/* @vite-ignore */ url);
  }}
  const factory = (await g.module).default;
  return typeof factory === "function" ? factory() : factory;
}};
"""


class PlotlyRuntime(anywidget.AnyWidget):
    """The one copy of plotly's widget bundle in a page (hidden). Use :meth:`instance`."""

    _esm = _RUNTIME_ESM
    source = traitlets.Unicode("").tag(sync=True)
    _shared: ClassVar[PlotlyRuntime | None] = None

    @classmethod
    def instance(cls) -> PlotlyRuntime:
        """The kernel's runtime widget (created once, with the bundle read once)."""
        if cls._shared is None:
            cls._shared = cls(source=bundle_path().read_text(encoding="utf-8"))
        return cls._shared


class SharedFigureWidget(go.FigureWidget):
    """A ``go.FigureWidget`` whose front end comes from the page's :class:`PlotlyRuntime`."""

    _esm = _FIGURE_ESM

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        PlotlyRuntime.instance()
        super().__init__(*args, **kwargs)
