"""FigureWidgets that share one plotly.js per page.

Plotly's ``go.FigureWidget`` (an anywidget since plotly 6) sends its whole front-end bundle (plotly.js and
the widget code, about 5 MB) with every instance: five figures cost 25 MB per Voila session. Here the
bundle travels once, in a :class:`PlotlyRuntime` widget; each :class:`SharedFigureWidget` is a
``go.FigureWidget`` whose front-end module is a few lines that wait for that bundle, import it once per
page and call its widget factory (one figure model per instance, as plotly's own module does). anywidget
allows a model two seconds to initialise, less than importing plotly.js takes on a loaded machine: the
module's ``initialize`` returns at once, sets plotly's model up once the bundle has loaded, and replays the
figure changes that arrived meanwhile, in order.

Put the runtime in the page (``PlotlyRuntime.instance()``, a zero-size widget) before the figures.
"""

from __future__ import annotations

import uuid
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
function starter() {{
  // plotly.js is compiled once the page's widget models are set up (the first figure drawn, or 3 s on): its
  // compilation holds the page for seconds on a slow machine, and anywidget fails a model not ready in 2 s
  const g = (globalThis.{_KEY} = globalThis.{_KEY} || {{}});
  if (!g.start) {{
    g.start = new Promise((resolve) => {{ g.go = resolve; setTimeout(resolve, 3000); }});
  }}
  return g;
}}
async function plotlyWidget() {{
  await starter().start;
  const g = await source();
  if (!g.module) {{
    const url = URL.createObjectURL(new Blob([g.source], {{ type: "text/javascript" }}));
    g.module = import(/* @vite-ignore */ url);
  }}
  const factory = (await g.module).default;
  return typeof factory === "function" ? factory() : factory;
}}
const READY = new Map();  // by the figure's _praetor_id (initialize and render see different model objects)
export default {{
  initialize(ctx) {{
    // anywidget gives initialize 2 s: return at once, set plotly's model up when its code has loaded, and replay
    // the changes the kernel sent meanwhile (plotly reads each from model.get in its handler)
    const model = ctx.model;
    const queue = [];
    const handlers = [];
    let replaying = null;
    const record = (event) => queue.push([event, event.startsWith("change:") ? model.get(event.slice(7)) : null]);
    const names = ["addTraces", "deleteTraces", "moveTraces", "restyle", "relayout", "update", "animate",
      "removeLayoutProps", "removeTraceProps"];  // the kernel's messages (its figure state is read at set-up)
    const early = names.map((n) => {{
      const e = "change:_py2js_" + n;
      const f = () => record(e);
      model.on(e, f);
      return [e, f];
    }});
    const proxy = new Proxy(model, {{
      get(target, prop) {{
        if (prop === "get") {{
          return (name) => (replaying && replaying[0] === "change:" + name ? replaying[1] : target.get(name));
        }}
        if (prop === "on") {{
          return (event, cb) => {{ handlers.push([event, cb]); target.on(event, cb); }};
        }}
        const v = target[prop];
        return typeof v === "function" ? v.bind(target) : v;
      }},
    }});
    const ready = plotlyWidget().then(async (def) => {{
      const cleanup = def.initialize ? await def.initialize({{ ...ctx, model: proxy }}) : undefined;
      for (const [e, f] of early) {{ model.off(e, f); }}
      for (const item of queue) {{
        replaying = item;
        for (const [event, cb] of handlers) {{ if (event === item[0]) {{ cb(); }} }}
      }}
      replaying = null;
      return {{ def, cleanup }};
    }});
    READY.set(model.get("_praetor_id"), ready);
    return () => {{
      READY.delete(model.get("_praetor_id"));
      ready.then(({{ cleanup }}) => {{ if (typeof cleanup === "function") {{ cleanup(); }} }});
    }};
  }},
  async render(ctx) {{
    starter().go();
    const {{ def }} = await READY.get(ctx.model.get("_praetor_id"));
    return def.render(ctx);
  }},
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
    _praetor_id = traitlets.Unicode("").tag(sync=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        PlotlyRuntime.instance()
        super().__init__(*args, **kwargs)
        self._praetor_id = uuid.uuid4().hex
