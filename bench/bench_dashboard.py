"""How long the Voila dashboard takes to show its plots in Debian's Chromium (the goal: within 12 s).

    python bench/bench_dashboard.py [--runs 3]

Serves notebooks/dashboard.ipynb as ``make dashboard`` does (a pre-heated kernel), opens it ``--runs`` times
and prints, per run, the seconds from the request to the HTML, to the first widget and to three drawn Plotly
figures, and the bytes received over the kernel's websocket (one plotly.js bundle is about 5 MB).
"""

from __future__ import annotations

import argparse
import importlib.util
import socket
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args(argv)
    if not Path(args.chromium).is_file():
        print(f"no Chromium at {args.chromium}", file=sys.stderr)
        return 2
    spec = importlib.util.spec_from_file_location("praetor_screenshots", ROOT / "scripts" / "screenshots.py")
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    from playwright.sync_api import sync_playwright

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    with shots.voila_server(port) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=shots.CHROMIUM_ARGS, headless=True)
        for run in range(args.runs):
            page = browser.new_page(viewport={"width": 1400, "height": 1200})
            shots.offline(page)
            received = [0]
            page.on(
                "websocket", lambda ws, r=received: ws.on("framereceived", lambda f: r.__setitem__(0, r[0] + len(f)))
            )
            t0 = time.perf_counter()
            page.goto(url, timeout=120000)
            t_html = time.perf_counter() - t0
            page.wait_for_selector(".jupyter-widgets", timeout=120000)
            t_widget = time.perf_counter() - t0
            page.wait_for_function(shots.PLOTS_READY.replace("{n}", "3"), timeout=120000)
            t_plots = time.perf_counter() - t0
            print(
                f"run {run + 1}: html {t_html:.1f} s, first widget {t_widget:.1f} s, plots {t_plots:.1f} s, "
                f"websocket {received[0] / 1e6:.1f} MB"
            )
            page.close()
            time.sleep(15)  # the pool pre-heats the next kernel
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
