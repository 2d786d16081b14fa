"""FigureWidgets that share one plotly.js per page.

Plotly's ``go.FigureWidget`` (an anywidget since plotly 6) sends its whole front-end bundle (plotly.js and
the widget code, about 5 MB) with every instance: five figures cost 25 MB per Voila session. Here the
bundle reaches the page once, through a :class:`PlotlyRuntime` widget; each :class:`SharedFigureWidget` is a
``go.FigureWidget`` whose front-end module is a few lines that wait for that bundle, import it once per
page and call its widget factory (one figure model per instance, as plotly's own module does). anywidget
allows a model two seconds to initialise, less than importing plotly.js takes on a loaded machine: the
module's ``initialize`` returns at once, sets plotly's model up once the bundle has loaded, and replays the
figure changes that arrived meanwhile, in order.

Served by Voila with the project's template, the page preloads the bundle as a static file of the template
(put there by :func:`install_bundle`: ``make dashboard`` does it; its URL carries a hash of the file, so a
browser keeps it), beside the widgets' states rather than inside them: the widgets appear while it loads.
Elsewhere (a notebook) the runtime asks the kernel for it over its comm.

Put the runtime in the page (``PlotlyRuntime.instance()``, a zero-size widget) before the figures.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
import uuid
from pathlib import Path
from typing import Any, ClassVar


def _defer_iri_grammar() -> None:
    """Build rfc3987_syntax's IRI grammar on its first use, not at import.

    ``go.FigureWidget`` imports plotly's renderers, which import nbformat, whose jsonschema imports
    rfc3987_syntax: that module compiles an Earley grammar when imported (2.5 s, two thirds of the dashboard
    kernel's imports). Nothing here validates IRIs, so the package is stood in for by a module whose
    ``is_valid_syntax`` imports the real parser when first called (the same answers, later)."""
    name = "rfc3987_syntax"
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or spec.submodule_search_locations is None:
        return
    stub = types.ModuleType(name, "rfc3987_syntax, its grammar compiled on first use (praetor_analysis)")
    stub.__path__ = list(spec.submodule_search_locations)  # its submodules import as usual

    def is_valid_syntax(term: str, value: str) -> Any:
        return importlib.import_module(f"{name}.syntax_helpers").is_valid_syntax(term, value)

    def parse(term: str, value: str) -> Any:
        return importlib.import_module(f"{name}.syntax_helpers").parse(term, value)

    stub.is_valid_syntax = is_valid_syntax  # type: ignore[attr-defined]
    stub.parse = parse  # type: ignore[attr-defined]
    sys.modules[name] = stub


_defer_iri_grammar()

import anywidget  # noqa: E402  (after the deferral above)
import plotly  # noqa: E402
import plotly.graph_objects as go  # noqa: E402
import traitlets  # noqa: E402

from praetor_analysis.io import atomic_write_bytes  # noqa: E402

__all__ = ["BUNDLE_NAME", "PlotlyRuntime", "SharedFigureWidget", "bundle_path", "install_bundle"]

_KEY = "__praetorPlotlyWidget"


def bundle_path() -> Path:
    """Plotly's anywidget bundle (plotly.js and the FigureWidget front end)."""
    return Path(plotly.__file__).parent / "package_data" / "widgetbundle.js"


#: The bundle's file name in the project's Voila template (``static/``), which preloads it.
BUNDLE_NAME = "plotly-widgetbundle.js"


def install_bundle(static_dir: Path) -> Path:
    """Copy plotly's widget bundle into ``static_dir`` (the Voila template's ``static`` folder) as
    :data:`BUNDLE_NAME`, unless the same bytes are there already; returns its path."""
    target = static_dir / BUNDLE_NAME
    data = bundle_path().read_bytes()
    if not target.is_file() or target.read_bytes() != data:
        static_dir.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(target, data)
    return target


_RUNTIME_ESM = f"""
export default {{
  initialize({{ model }}) {{
    const g = (globalThis.{_KEY} = globalThis.{_KEY} || {{}});
    if (g.source !== undefined || g.asked) {{ return; }}
    g.asked = true;
    const fromKernel = () => {{
      const take = () => {{ if (model.get("source")) {{ g.source = model.get("source"); }} }};
      model.on("change:source", take);
      take();
      if (g.source === undefined) {{ model.send({{ want: "source" }}); }}
    }};
    // the project's Voila template preloads the bundle (a static file); elsewhere the kernel sends it
    const link = document.querySelector("link[data-praetor-plotly]");
    if (!link) {{ fromKernel(); return; }}
    const found = (r) => {{ if (r.ok) {{ g.url = link.href; g.source = ""; }} else {{ fromKernel(); }} }};
    fetch(link.href, {{ method: "HEAD" }}).then(found, fromKernel);
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
    const url = g.url || URL.createObjectURL(new Blob([g.source], {{ type: "text/javascript" }}));
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
    """Where a page finds plotly's widget bundle (hidden): the file the page preloads, else ``source``,
    filled when the page asks for it. Use :meth:`instance`."""

    _esm = _RUNTIME_ESM
    source = traitlets.Unicode("").tag(sync=True)
    _shared: ClassVar[PlotlyRuntime | None] = None

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(self._on_page_message)

    def _on_page_message(self, _widget: Any, content: Any, _buffers: Any) -> None:
        if isinstance(content, dict) and content.get("want") == "source" and not self.source:
            self.source = bundle_path().read_text(encoding="utf-8")

    @classmethod
    def instance(cls) -> PlotlyRuntime:
        """The kernel's runtime widget (created once)."""
        if cls._shared is None:
            cls._shared = cls()
        return cls._shared


class SharedFigureWidget(go.FigureWidget):
    """A ``go.FigureWidget`` whose front end comes from the page's :class:`PlotlyRuntime`."""

    _esm = _FIGURE_ESM
    _praetor_id = traitlets.Unicode("").tag(sync=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        PlotlyRuntime.instance()
        super().__init__(*args, **kwargs)

    @traitlets.default("_praetor_id")
    def _new_id(self) -> str:
        # in the state the model opens with: a figure made after the page loaded is found by its first id
        return uuid.uuid4().hex
