"""Take the README's screenshots (docs/images/*.png) in headless Chromium with Playwright.

    python scripts/screenshots.py [--out docs/images] [--chromium /usr/bin/chromium] [--port 8866]

1. report.png: the shipped default report (praetor_analysis.views.report.default_report), opened from a file.
2. dashboard.png: notebooks/dashboard.ipynb served by Voila on 127.0.0.1 (started here, stopped by its pid).
3. dashboard_marker.png: the dashboard's marker tab.

Uses the Debian Chromium only (never downloads a browser). Exits 2 when Chromium or Voila is missing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PLOTS_READY = (
    "() => { const d = [...document.querySelectorAll('.js-plotly-plot')];"
    " return d.length >= {n} && d.every(e => e.querySelector('.main-svg')); }"
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


def shoot_report(browser, out: Path) -> Path:
    from praetor_analysis.views.report import default_report

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "report.html"
        path.write_text(default_report(), encoding="utf-8")
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(path.as_uri())
        page.wait_for_function(PLOTS_READY.replace("{n}", "3"), timeout=60000)
        target = out / "report.png"
        page.screenshot(path=str(target))
        page.close()
    return target


def shoot_dashboard(browser, out: Path, port: int) -> list[Path]:
    voila = Path(sys.executable).with_name("voila")
    if not voila.is_file():
        raise SystemExit("voila is not installed in this environment (pip install voila)")
    log = open(out / ".voila.log", "w")
    proc = subprocess.Popen(
        [
            str(voila),
            str(ROOT / "notebooks" / "dashboard.ipynb"),
            "--no-browser",
            f"--port={port}",
            "--Voila.ip=127.0.0.1",
            "--show_tracebacks=True",
        ],
        cwd=ROOT / "notebooks",
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    shots = []
    try:
        url = f"http://127.0.0.1:{port}/"
        _wait_http(url, 60)
        page = browser.new_page(viewport={"width": 1400, "height": 1100})
        page.goto(url, timeout=120000)
        page.wait_for_function(PLOTS_READY.replace("{n}", "3"), timeout=120000)
        page.wait_for_timeout(1500)
        shots.append(out / "dashboard.png")
        page.screenshot(path=str(shots[-1]))
        page.get_by_text("Marker scatter").first.click()
        page.wait_for_function(PLOTS_READY.replace("{n}", "5"), timeout=60000)
        page.wait_for_timeout(1000)
        shots.append(out / "dashboard_marker.png")
        page.screenshot(path=str(shots[-1]))
        page.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()
        (out / ".voila.log").unlink(missing_ok=True)
    return shots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "docs" / "images"))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--port", type=int, default=8866)
    parser.add_argument("--skip-dashboard", action="store_true")
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
            made = [shoot_report(browser, out)]
            if not args.skip_dashboard:
                made += shoot_dashboard(browser, out, args.port)
        finally:
            browser.close()
    for path in made:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
