"""`make docs` builds a gallery whose links resolve, and notebooks exported as HTML ask no CDN (issue 36 item 7).

The gallery's pages were written into notebooks/out/docs while its index sat in out/docs (nbconvert runs in
notebooks/ and was given the relative folder): here nbconvert's export is stood in for by a function that
writes where nbconvert would (its --output-dir read from the working directory it is given), so the test is
fast and checks the paths, not the notebooks (tests/test_notebooks.py executes them).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _build_docs() -> Any:
    spec = importlib.util.spec_from_file_location("build_docs", ROOT / "scripts" / "build_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gallery_links_resolve_with_a_relative_out(tmp_path, monkeypatch) -> None:
    build_docs = _build_docs()

    def nbconvert(cmd: list[str], cwd: Path, **_: Any) -> subprocess.CompletedProcess[bytes]:
        out = Path(next(a for a in cmd if a.startswith("--output-dir=")).split("=", 1)[1])
        out = out if out.is_absolute() else Path(cwd) / out  # where nbconvert itself would write
        out.mkdir(parents=True, exist_ok=True)
        (out / Path(cmd[-1]).name.replace(".ipynb", ".html")).write_text("<html></html>", encoding="utf-8")
        return subprocess.CompletedProcess(cmd, 0)

    monkeypatch.setattr(build_docs.subprocess, "run", nbconvert)
    monkeypatch.chdir(tmp_path)
    assert build_docs.main(["--out", "out/docs"]) == 0  # as the Makefile calls it: a relative folder
    index = tmp_path / "out" / "docs" / "index.html"
    links = re.findall(r'href="([^"]+)"', index.read_text(encoding="utf-8"))
    assert len(links) == len(build_docs.STORIES) + 1
    missing = [link for link in links if not (index.parent / link).is_file()]
    assert not missing, missing


def test_the_makefile_builds_docs_with_a_folder_the_script_resolves() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "scripts/build_docs.py --out out/docs" in makefile
    assert "Path(args.out).resolve()" in (ROOT / "scripts" / "build_docs.py").read_text(encoding="utf-8")


def test_plain_nbconvert_asks_no_cdn(tmp_path) -> None:
    """`jupyter nbconvert --to html` with the project's config (installed into the venv by make; any Jupyter
    with JUPYTER_CONFIG_PATH=share/jupyter) writes no script from a CDN: no require.js, no MathJax. The lab
    template also names mermaid's URL (not configurable in this nbconvert: the trait has no config tag), which
    its script imports only when the page holds a mermaid diagram: our notebooks hold none."""
    config = json.loads((ROOT / "share" / "jupyter" / "jupyter_nbconvert_config.json").read_text(encoding="utf-8"))
    assert config == {"HTMLExporter": {"mathjax_url": "", "require_js_url": ""}}
    assert "share/jupyter/jupyter_nbconvert_config.json" in (ROOT / "Makefile").read_text(encoding="utf-8")
    jupyter = Path(sys.executable).with_name("jupyter")
    env = {**os.environ, "JUPYTER_CONFIG_PATH": str(ROOT / "share" / "jupyter")}
    page = tmp_path / "tour.html"
    subprocess.run(
        [str(jupyter), "nbconvert", "--to", "html", str(ROOT / "notebooks" / "01_tour.ipynb"),
         f"--output-dir={tmp_path}", "--output=tour"],
        check=True, capture_output=True, env=env, timeout=300,
    )  # fmt: skip
    text = page.read_text(encoding="utf-8")
    remote = re.findall(r'<script[^>]+src="(https?:[^"]*)"', text)
    assert remote == [], remote
    assert "require.min.js" not in text and "mathjax/2.7.7" not in text
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        assert "```mermaid" not in nb.read_text(encoding="utf-8"), nb.name
