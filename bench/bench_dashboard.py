"""How long the Voila dashboard takes to show its plots and to load a roster, in Debian's Chromium.

    python bench/bench_dashboard.py [--runs 2] [--roster PATH.rosz]

Serves notebooks/dashboard.ipynb as ``make dashboard`` does (a pre-heated kernel, the project's page
template) and prints, with the load average beside each figure (wall-clock seconds: what a reader waits):

1. **right after start**: a fresh server, the page opened as soon as the server answers (the pool still
   heating its kernel): seconds from the request to the HTML, to the first widget, to the three shooting plots;
2. **started**: the same once the pool is filled, opened ``--runs`` times (first open, second open... each on a
   kernel the pool heated beforehand);
3. **roster**: in the last opened page, the Roster tab, the shared roster set in the upload control, and the
   seconds until its figure is drawn;
4. **workbench**: the seconds until the workbench tab's table and chart are drawn.

Goals (issue 27): plots within 6 s right after start, within 3 s started; a roster within 2 s. Every request
that would leave 127.0.0.1 is refused and counted (it should print 0).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ROSTER = ROOT.parent / "shared" / "bsdata" / "rosters" / "HH2 - Dark Angels.rosz"


def _load() -> str:
    return "load {:.1f} {:.1f} {:.1f}".format(*os.getloadavg())


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _open(browser: Any, shots: Any, url: str, label: str) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 1200})
    outside = shots.offline(page)
    received = [0]
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.__setitem__(0, received[0] + len(f))))
    t0 = time.perf_counter()
    page.goto(url, timeout=180000)
    t_html = time.perf_counter() - t0
    page.wait_for_selector(".jupyter-widgets", timeout=180000)
    t_widget = time.perf_counter() - t0
    page.wait_for_function(shots.PLOTS_READY.replace("{n}", "3"), timeout=180000)
    t_plots = time.perf_counter() - t0
    print(
        f"{label}: html {t_html:.1f} s, first widget {t_widget:.1f} s, plots {t_plots:.1f} s, "
        f"websocket {received[0] / 1e6:.1f} MB, outside requests {len(outside)} ({_load()})",
        flush=True,
    )
    return page, outside


def _roster(page: Any, shots: Any, path: Path) -> None:
    page.get_by_role("tab", name="Roster").first.click()
    with page.expect_file_chooser(timeout=60000) as chooser:
        page.locator(".widget-upload", has_text="Load a roster").first.click()
    t0 = time.perf_counter()
    chooser.value.set_files(str(path))
    page.wait_for_function(shots.PLOTS_READY.replace("{n}", "1"), timeout=180000)
    print(f"roster {path.name}: drawn {time.perf_counter() - t0:.1f} s after the file was chosen ({_load()})")


def _workbench(page: Any, shots: Any) -> None:
    t0 = time.perf_counter()
    tab = page.get_by_role("tab", name="Workbench")
    if not tab.count():
        print("workbench: no Workbench tab")
        return
    tab.first.click()
    page.wait_for_function(shots.PLOTS_READY.replace("{n}", "2"), timeout=180000)
    print(f"workbench: table and chart drawn {time.perf_counter() - t0:.1f} s after the tab was clicked ({_load()})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--roster", default=str(ROSTER))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    if not Path(args.chromium).is_file():
        print(f"no Chromium at {args.chromium}", file=sys.stderr)
        return 2
    spec = importlib.util.spec_from_file_location("praetor_screenshots", ROOT / "scripts" / "screenshots.py")
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=shots.CHROMIUM_ARGS, headless=True)
        with shots.voila_server(_port(), wait_pool=False) as url:
            page, _ = _open(browser, shots, url, "right after start")
            page.close()
        with shots.voila_server(_port()) as url:
            page = None
            for run in range(args.runs):
                if page is not None:
                    page.close()
                    time.sleep(20)  # the pool heats the next kernel (it runs the whole notebook)
                page, _ = _open(browser, shots, url, f"started, open {run + 1}")
            if Path(args.roster).is_file():
                _roster(page, shots, Path(args.roster))
            else:
                print(f"roster: no file {args.roster}")
            _workbench(page, shots)
            page.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
