"""Build the HTML gallery of the notebooks (``make docs``): out/docs/index.html and one page per notebook.

    python scripts/build_docs.py [--out out/docs]

Each notebook of notebooks/ is executed in a fresh kernel (this checkout's package first on the path) and
exported with its figures (one plotly.js per page, no CDN: the notebooks use
``praetor_analysis.views.figures.notebook.use_offline_renderer``). The dashboard needs a live kernel, so its page
shows the screenshots of docs/images and how to start it. Works with no network.
"""

from __future__ import annotations

import argparse
import html
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
STORIES = {
    "01_tour.ipynb": "A tour: the Praetor launcher against Terminators, a Rhino and a spread squad",
    "02_weapon_comparison.ipynb": "A comparison: iconic weapons against the standard targets",
    "03_list_analysis.ipynb": "A list analysis: a roster's units in shooting and melee, unit by unit and per point",
    "04_third_edition.ipynb": "The third edition: bolters at its standard targets, a whole round, a unit rated",
}
_CSS = (
    "body{font-family:system-ui,sans-serif;max-width:1000px;margin:2rem auto;padding:0 1rem;color:#222}"
    "li{margin:.6rem 0}img{max-width:100%;border:1px solid #ddd}"
)


def export(name: str, out: Path) -> Path:
    """Execute one notebook and write its HTML (figures embedded, no CDN scripts) to ``out``."""
    jupyter = Path(sys.executable).with_name("jupyter")
    subprocess.run(
        [
            str(jupyter),
            "nbconvert",
            "--to",
            "html",
            "--execute",
            "--ExecutePreprocessor.timeout=600",
            "--HTMLExporter.mathjax_url=",
            "--HTMLExporter.require_js_url=",
            f"--output-dir={out}",
            str(NOTEBOOKS / name),
        ],
        cwd=NOTEBOOKS,
        check=True,
        capture_output=True,
    )
    return out / name.replace(".ipynb", ".html")


def dashboard_page(out: Path) -> Path:
    """The dashboard's page: its screenshots and the command that serves it."""
    images = out / "images"
    images.mkdir(exist_ok=True)
    shots = []
    for png in sorted((ROOT / "docs" / "images").glob("dashboard*.png")):
        shutil.copy2(png, images / png.name)
        shots.append(f'<p><img src="images/{html.escape(png.name)}" alt="{html.escape(png.stem)}"></p>')
    page = out / "dashboard.html"
    page.write_text(
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>The dashboard</title>"
        f"<style>{_CSS}</style></head><body><h1>The dashboard</h1>"
        "<p>A live app (it needs a kernel): <code>.venv/bin/voila --preheat_kernel=True "
        "notebooks/dashboard.ipynb</code>, or open <code>notebooks/dashboard.ipynb</code> in JupyterLab.</p>"
        + "".join(shots)
        + "</body></html>\n",
        encoding="utf-8",
    )
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "out" / "docs"))
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()  # nbconvert runs in notebooks/: a relative folder would land in notebooks/out/docs
    out.mkdir(parents=True, exist_ok=True)
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    items = []
    for name, story in STORIES.items():
        page = export(name, out)
        items.append(f'<li><a href="{page.name}">{html.escape(story)}</a></li>')
        print(page)
    page = dashboard_page(out)
    items.append(f'<li><a href="{page.name}">The dashboard: shooting, melee, markers, setup (screenshots)</a></li>')
    index = out / "index.html"
    index.write_text(
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>praetor_analysis notebooks</title>"
        f"<style>{_CSS}</style></head><body><h1>praetor_analysis: the notebooks</h1><ul>{''.join(items)}</ul>"
        "</body></html>\n",
        encoding="utf-8",
    )
    print(index)
    return 0


if __name__ == "__main__":
    sys.exit(main())
