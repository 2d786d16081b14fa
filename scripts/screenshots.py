"""Take the README's screenshots (docs/images/*.png) in headless Chromium with Playwright.

    python scripts/screenshots.py [--out docs/images] [--chromium /usr/bin/chromium] [--port 8866]

1. report.png: the shipped default report (praetor_analysis.views.report.page.default_report), opened from a file;
   matchup.png: the matchup report of the two Dark Angels rosters of tests/fixtures/rosters/hh2.
   dashboard_matchup.png: the dashboard's Matchup tab with those two rosters uploaded (needs them).
2. dashboard.png, dashboard_workbench.png, dashboard_melee.png, dashboard_marker.png, dashboard_roster.png,
   dashboard_setup.png: notebooks/dashboard.ipynb served by Voila on 127.0.0.1 (a pre-heated kernel; started
   here, stopped by its process group), each of its tabs at 1280 px wide.

Uses the Debian Chromium only (never downloads a browser). Voila is started with the project's page template
(``share/jupyter/voila/templates/praetor``: Voila's lab page without the Font Awesome style sheets it would ask a
CDN for), so the page requests nothing beyond 127.0.0.1; :func:`offline` refuses and records any request that
would leave the machine (the browser tests fail on one). Exits 2 when Chromium or Voila is missing. The tests
and bench/bench_dashboard.py reuse :func:`voila_server` and :func:`offline`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Public 2nd-edition rosters (their sources: tests/fixtures/rosters/README.md).
FIXTURE_ROSTERS = ROOT / "tests" / "fixtures" / "rosters" / "hh2"
TEMPLATE = ROOT / "share" / "jupyter" / "voila" / "templates" / "praetor"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: A JavaScript predicate: at least ``{n}`` Plotly figures drawn (an svg each) and visible.
PLOTS_READY = (
    "() => [...document.querySelectorAll('.js-plotly-plot')]"
    ".filter(e => e.querySelector('.main-svg') && e.offsetParent !== null).length >= {n}"
)


def _wait_http(url: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.5)
    raise TimeoutError(f"{url} did not answer within {timeout:.0f} s")


LOCAL = ("http://127.0.0.1", "file:", "data:", "blob:", "ws://127.0.0.1")
"""The URL prefixes a page may request: this machine, and what the page makes itself."""


def offline(page: Any) -> list[str]:
    """Refuse every request of ``page`` that would leave 127.0.0.1; returns the list of their URLs (filled as
    they happen: a test asserts it stays empty)."""
    outside: list[str] = []

    def handle(route: Any) -> None:
        url = route.request.url
        if url.startswith(LOCAL):
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    page.route("**/*", handle)
    return outside


@contextlib.contextmanager
def voila_server(port: int, *, warm: float = 180.0, wait_pool: bool = True) -> Iterator[str]:
    """Serve notebooks/dashboard.ipynb as ``make dashboard`` does (a pre-heated kernel, the project's page
    template; this checkout first on the kernel's path); yields the URL once the kernel pool is filled (or, with
    ``wait_pool=False``, as soon as the server answers); stops the server's process group afterwards."""
    voila = Path(sys.executable).with_name("voila")
    if not voila.is_file():
        raise FileNotFoundError("voila is not installed in this environment (pip install voila)")
    from praetor_analysis.views.figures.widgets import install_bundle

    install_bundle(TEMPLATE / "static")  # plotly's bundle as a static file of the page (as make dashboard does)
    log_path = Path(tempfile.mkstemp(prefix="voila-", suffix=".log")[1])
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p),
        "JUPYTER_PATH": os.pathsep.join(
            p for p in (str(ROOT / "share" / "jupyter"), os.environ.get("JUPYTER_PATH")) if p
        ),
    }
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            [
                str(voila),
                str(ROOT / "notebooks" / "dashboard.ipynb"),
                "--no-browser",
                f"--port={port}",
                "--Voila.ip=127.0.0.1",
                "--template=praetor",
                "--preheat_kernel=True",
                "--pool_size=1",
                "--VoilaConfiguration.extension_denylist=jupyterlab-plotly",
                "--show_tracebacks=True",
            ],
            cwd=ROOT / "notebooks",
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env=env,
        )
        try:
            url = f"http://127.0.0.1:{port}/"
            _wait_http(url + "voila/static/voila.js", warm)  # a static file: no kernel taken from the pool
            end = time.monotonic() + warm
            while wait_pool and "is filled with" not in log_path.read_text() and time.monotonic() < end:
                time.sleep(0.5)
            if wait_pool:
                time.sleep(1.0)  # the pre-heated kernel finishes executing the notebook
            yield url
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
            log_path.unlink(missing_ok=True)


SHOWN_HEIGHT = """(toFigures) => {
  const scroller = document.querySelector('.jp-LabShell .lm-BoxPanel-child') || document.scrollingElement;
  scroller.scrollTop = 0;
  const figs = [...document.querySelectorAll('.js-plotly-plot')].filter(e => e.offsetParent !== null);
  if (toFigures && figs.length) return Math.max(...figs.map(e => e.getBoundingClientRect().bottom));
  const tabs = [...document.querySelectorAll('.jupyter-widget-TabPanel')].filter(e => e.offsetParent !== null);
  return tabs.length ? tabs[0].getBoundingClientRect().bottom : scroller.scrollHeight;
}"""
"""How tall a picture must be to show the page down to its last figure (``toFigures``) or to the bottom of its
tabs. Voila's page scrolls inside an element: a full-page shot would see the window only."""


def shoot_whole(page: Any, path: Path, *, to_figures: bool = False, max_height: int = 3200) -> Path:
    """A picture of ``page`` down to the bottom of its tabs (``to_figures``: of its last figure, leaving out a long
    table), at most ``max_height`` px tall, the mouse moved off the figures (no hover label, no plotly toolbar);
    the window keeps its width and gets its height back after."""
    page.mouse.move(2, 2)
    width, before = page.viewport_size["width"], page.viewport_size["height"]
    height = min(max_height, int(page.evaluate(SHOWN_HEIGHT, to_figures)) + 24)
    page.set_viewport_size({"width": width, "height": max(height, 600)})
    page.wait_for_timeout(800)  # the figures redraw at the new size
    page.screenshot(path=str(path))
    page.set_viewport_size({"width": width, "height": before})
    return path


def shoot_to_figure(page: Any, path: Path, index: int) -> Path:
    """A picture of ``page`` from its top down to the bottom of its figure ``index`` (its axis labels)."""
    page.mouse.move(2, 2)
    box = page.locator(".js-plotly-plot").nth(index).bounding_box()
    page.set_viewport_size({"width": page.viewport_size["width"], "height": int(box["y"] + box["height"]) + 24})
    page.wait_for_timeout(800)
    page.screenshot(path=str(path))
    return path


def shoot_report(browser: Any, out: Path) -> Path:
    from praetor_analysis.views.report.page import default_report

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.html"
        path.write_text(default_report(), encoding="utf-8")
        page = browser.new_page(viewport={"width": 1280, "height": 1400})
        page.goto(path.as_uri())
        page.wait_for_function(PLOTS_READY.replace("{n}", "3"), timeout=60000)
        target = shoot_to_figure(page, out / "report.png", 0)  # the answer and the first heatmap
        page.close()
    return target


def _matchup_lists() -> tuple[Any, Any]:
    """The two Dark Angels rosters shipped as test fixtures when they are there, else two small datasheet lists."""
    rosters = FIXTURE_ROSTERS
    mine, theirs = rosters / "HH2 - Dark Angels.rosz", rosters / "Dark Angels - HH2 - Test.ros"
    if mine.is_file() and theirs.is_file():
        return mine, theirs
    from praetor_analysis.analysis.army_list import read_list_json

    return (
        read_list_json({"name": "Mine", "units": ["Tactical Squad", "Heavy Support Squad", "Praetor"]}),
        read_list_json({"name": "Theirs", "units": ["Terminator Tartaros Squad", "Rhino Transport"]}),
    )


def shoot_matchup(browser: Any, out: Path) -> Path:
    """matchup.png: the matchup report of two lists, its opening answer and first heatmap."""
    from praetor_analysis.analysis.list_matchup import matchup
    from praetor_analysis.views.report.matchup import write_matchup_report

    with tempfile.TemporaryDirectory() as tmp:
        path = write_matchup_report(matchup(*_matchup_lists()), Path(tmp) / "matchup.html")
        page = browser.new_page(viewport={"width": 1280, "height": 1600})
        page.goto(path.as_uri())
        page.wait_for_function(PLOTS_READY.replace("{n}", "7"), timeout=120000)
        target = shoot_to_figure(page, out / "matchup.png", 2)  # the answer, the curves, the first heatmap
        page.close()
    return target


def shoot_matchup_tab(browser: Any, out: Path, port: int) -> Path:
    """dashboard_matchup.png: the dashboard's Matchup tab with the two lists uploaded and computed."""
    mine, theirs = _matchup_lists()
    if not isinstance(mine, Path):
        raise FileNotFoundError("the matchup tab's picture needs the two Dark Angels rosters of the test fixtures")
    with voila_server(port) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 1300})
        offline(page)
        page.goto(url, timeout=120000)
        page.wait_for_function(PLOTS_READY.replace("{n}", "3"), timeout=120000)
        page.get_by_role("tab", name="Matchup").first.click()
        page.wait_for_timeout(1500)
        for label, path in (("My list", mine), ("Their list", theirs)):
            with page.expect_file_chooser(timeout=60000) as chooser:
                page.locator("button", has_text=label).first.click()
            chooser.value.set_files(str(path))
            page.wait_for_timeout(500)
        page.get_by_role("button", name="Compute the matchup").click()
        page.wait_for_function(
            "() => [...document.querySelectorAll('.js-plotly-plot')].some(e => e.offsetParent !== null && "
            "e.querySelector('g.hm'))",
            timeout=300000,
        )
        page.wait_for_timeout(1500)
        target = shoot_whole(page, out / "dashboard_matchup.png", to_figures=True)
        page.close()
    return target


def add_workbench_attacker(page: Any) -> None:
    """A second attacker on the workbench (its tab shown): a Heavy Support Squad with lascannons, drawn."""
    page.get_by_placeholder("e.g. Tactical").fill("Heavy Support Squad")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.widget-select-multiple')]"
        ".filter(e => e.querySelector('.widget-label')?.textContent === 'Options')"
        ".some(e => [...e.querySelectorAll('option')].some(o => o.textContent.startsWith('Lascannon')))",
        timeout=60000,
    )
    options = page.locator(".widget-select-multiple", has_text="Options").locator("select")
    options.select_option(
        label=next(t for t in options.locator("option").all_text_contents() if t.startswith("Lascannon"))
    )
    page.wait_for_timeout(500)
    page.get_by_role("button", name="Add attacker").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.js-plotly-plot')].some(e => e.offsetParent !== null && "
        "e.textContent.includes('Heavy Support Squad'))",
        timeout=120000,
    )


def click_workbench_cell(page: Any, row: float, column: float) -> None:
    """Click the workbench chart at a fraction of its width (``column``) and height (``row``)."""
    drag = page.locator(".js-plotly-plot:visible .nsewdrag").first
    drag.scroll_into_view_if_needed()  # a click outside the viewport reaches nothing
    box = drag.bounding_box()
    page.mouse.click(box["x"] + box["width"] * column, box["y"] + box["height"] * row)


def _workbench(page: Any) -> None:
    add_workbench_attacker(page)
    click_workbench_cell(page, 0.75, 0.5)
    page.wait_for_timeout(2000)


def _roster(page: Any) -> None:
    """The Dark Angels roster of the test fixtures loaded in the roster tab (when it is there)."""
    path = FIXTURE_ROSTERS / "HH2 - Dark Angels.rosz"
    if not path.is_file():
        return
    with page.expect_file_chooser(timeout=60000) as chooser:
        page.locator(".widget-upload", has_text="Load a roster").first.click()
    chooser.value.set_files(str(path))
    page.wait_for_function(PLOTS_READY.replace("{n}", "1"), timeout=120000)


def shoot_dashboard(browser: Any, out: Path, port: int) -> list[Path]:
    """The dashboard's tabs at 1280 px wide, one picture each (the workbench with two attackers, the roster tab
    with a list loaded)."""
    shots = []
    with voila_server(port) as url:
        page = browser.new_page(viewport={"width": 1280, "height": 1300})
        offline(page)
        page.goto(url, timeout=120000)
        page.wait_for_function(PLOTS_READY.replace("{n}", "3"), timeout=120000)
        page.wait_for_timeout(1500)
        shots.append(shoot_whole(page, out / "dashboard.png", to_figures=True))  # not the long table
        tabs = (
            ("Workbench", "dashboard_workbench.png", 2, _workbench),
            ("Melee", "dashboard_melee.png", 1, None),
            ("Marker scatter", "dashboard_marker.png", 2, None),
            ("Roster", "dashboard_roster.png", 0, _roster),
            ("Targets, setup", "dashboard_setup.png", 0, None),
        )
        for tab, name, n, act in tabs:
            page.get_by_role("tab", name=tab).first.click()
            page.wait_for_function(PLOTS_READY.replace("{n}", str(n)), timeout=60000)
            if act is not None:
                act(page)
            page.wait_for_timeout(1000)
            shots.append(shoot_whole(page, out / name, to_figures=tab == "Workbench"))
        page.close()
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument("--skip-dashboard", action="store_true")
    parser.add_argument(
        "--only", choices=("report", "matchup", "matchup-tab", "dashboard"), help="take one kind of picture only"
    )
    args = parser.parse_args(argv)
    if not Path(args.chromium).is_file() and not shutil.which(args.chromium):
        print(f"screenshots: no Chromium at {args.chromium!r} (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS, headless=True)
        try:
            made = []
            if args.only in (None, "report"):
                made.append(shoot_report(browser, out))
            if args.only in (None, "matchup"):
                made.append(shoot_matchup(browser, out))
            if args.only in (None, "dashboard") and not args.skip_dashboard:
                made += shoot_dashboard(browser, out, args.port)
            if args.only in (None, "matchup-tab") and not args.skip_dashboard:
                made.append(shoot_matchup_tab(browser, out, args.port))
        finally:
            browser.close()
    for path in made:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
