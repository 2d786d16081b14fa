"""A Plotly renderer for notebooks that export to HTML offline, with their figures.

``use_offline_renderer()`` makes every displayed figure carry two forms: Plotly's JSON mimetype (JupyterLab
draws it with its plotly extension) and an HTML fragment (what ``jupyter nbconvert --to html`` keeps). The
first figure of the kernel embeds plotly.js itself (no CDN, no MathJax), the later ones reuse it, so an
exported notebook holds one copy of plotly.js and works with no network.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import plotly.io as pio
from plotly.io.base_renderers import MimetypeRenderer
from plotly.offline import get_plotlyjs

__all__ = ["RENDERER", "OfflineNotebookRenderer", "use_offline_renderer"]

#: The renderer's name in ``plotly.io.renderers``.
RENDERER = "praetor_offline"

# plotly.js is a UMD bundle: hide an AMD loader (require.js in nbconvert's template) while it loads, so it
# sets window.Plotly instead of registering an anonymous module.
_LOAD = (
    "<script>window.__praetorDefine = window.define; window.define = undefined;</script>"
    "<script>{js}</script>"
    "<script>window.define = window.__praetorDefine;</script>"
)


class OfflineNotebookRenderer(MimetypeRenderer):
    """Plotly's JSON mimetype plus an offline HTML fragment (plotly.js embedded in the first one)."""

    loaded: ClassVar[bool] = False  # per kernel: plotly copies renderers before each display

    def to_mimebundle(self, fig_dict: Any) -> dict[str, Any]:
        """The display bundle of one figure."""
        html = pio.to_html(
            fig_dict,
            include_plotlyjs=False,
            include_mathjax=False,
            full_html=False,
            default_width="100%",
            default_height=525,
            config={"displaylogo": False, "responsive": True},
        )
        if not OfflineNotebookRenderer.loaded:
            html = _LOAD.format(js=get_plotlyjs()) + html
            OfflineNotebookRenderer.loaded = True
        as_json = json.loads(pio.to_json(fig_dict, validate=False, remove_uids=False))
        return {"application/vnd.plotly.v1+json": as_json, "text/html": html}


def use_offline_renderer() -> str:
    """Register the renderer and make it the default; returns its name."""
    if RENDERER not in pio.renderers:
        pio.renderers[RENDERER] = OfflineNotebookRenderer()
    pio.renderers.default = RENDERER
    return RENDERER
