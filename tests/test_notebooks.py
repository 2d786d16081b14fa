"""Every notebook in notebooks/ executes top to bottom in a kernel of this Python (kernel name python3)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("plotly")
pytest.importorskip("ipywidgets")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
NAMES = [
    "01_tour.ipynb",
    "02_weapon_comparison.ipynb",
    "03_list_analysis.ipynb",
    "04_third_edition.ipynb",
    "dashboard.ipynb",
]


def test_all_notebooks_listed():
    assert sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")) == sorted(NAMES)


@pytest.mark.parametrize(
    "name",
    # the three story notebooks take about 7 s of CPU each: the slow tier's; the fast one runs the dashboard's
    [pytest.param(n, marks=pytest.mark.slow) if n[0].isdigit() else n for n in NAMES],
)
def test_notebook_executes(name, tmp_path):
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    assert all(not c.get("outputs") for c in nb.cells if c.cell_type == "code"), "commit notebooks without outputs"
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    shown = [
        o
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "application/vnd.plotly.v1+json" in o.get("data", {})
        or "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert shown, "the notebook showed no figure or widget"
    if name != "dashboard.ipynb":  # a live app; the others export to HTML with their figures, offline
        executed = tmp_path / name
        nbformat.write(nb, executed)
        jupyter = Path(sys.executable).with_name("jupyter")
        subprocess.run(
            [
                str(jupyter),
                "nbconvert",
                "--to",
                "html",
                "--HTMLExporter.mathjax_url=",
                "--HTMLExporter.require_js_url=",
                str(executed),
            ],
            check=True,
            capture_output=True,
        )
        page = executed.with_suffix(".html").read_text(encoding="utf-8")
        figures = page.count("Plotly.newPlot(")
        assert figures == sum(1 for o in shown if "application/vnd.plotly.v1+json" in o.get("data", {}))
        assert figures >= 1 and page.count("window.__praetorDefine = window.define") == 1  # one plotly.js
        assert not re.search(r"<(script|link)[^>]+(src|href)=\"https?:", page)  # nothing fetched
