"""How long the Voila dashboard takes to show its plots and to load a roster, in Debian's Chromium.

    python bench/bench_dashboard.py [--runs 2] [--roster PATH.rosz] [--baseline CHECKOUT] [--rounds 2]

Serves notebooks/dashboard.ipynb as ``make dashboard`` does (a pre-heated kernel, the project's page
template) and prints, with the load average beside each figure (wall-clock seconds: what a reader waits):

1. **right after start**: a fresh server, the page opened as soon as the server answers (the pool still
   heating its kernel): seconds from the request to the HTML, to the first widget, to the three shooting plots;
   and the CPU seconds the page used meanwhile (Chromium's ThreadTime, its main thread, and ProcessTime, the
   renderer's: its own work, which the others' load stretches far less than the wall clock);
2. **started**: the same once the pool is filled, opened ``--runs`` times (first open, second open... each on a
   kernel the pool heated beforehand);
3. **roster**: in the last opened page, the Roster tab, the shared roster set in the upload control, and the
   seconds until its figure is drawn;
4. **workbench**: the seconds until the workbench tab's table and chart are drawn.

Before each "started" open the bench waits until the pool's kernel has run the notebook (its CPU idle for 2 s;
the wait is printed): Voila reports its pool filled when the kernel starts, before it has executed anything.

With ``--baseline`` (another checkout of the project, e.g. ``git worktree add /tmp/base COMMIT``), the whole
measurement alternates between that checkout and this one, ``--rounds`` times each, in the same minutes, and
ends with the ratios (this / baseline) of the medians: the others' load moves the absolute figures.

Goals (issue 27): plots within 6 s right after start, within 3 s started; a roster within 2 s. Every request
that would leave 127.0.0.1 is refused and counted (it should print 0).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import statistics
import sys
import time
from collections.abc import Callable
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


def _kernels(port: int) -> dict[int, float]:
    """The kernels of the Voila server on ``port``: their process ids and the CPU seconds each has used."""
    flag = f"--port={port}".encode()
    procs: dict[int, tuple[int, bytes, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        procs[int(entry.name)] = (int(stat[1]), cmd, (int(stat[11]) + int(stat[12])) / tick)  # parent, cpu
    servers = {pid for pid, (_, cmd, _) in procs.items() if flag in cmd and b"voila" in cmd}
    return {pid: cpu for pid, (parent, cmd, cpu) in procs.items() if parent in servers and b"ipykernel" in cmd}


def _wait_heated(port: int, used: set[int], timeout: float = 120.0) -> float:
    """Wait until a kernel not in ``used`` (the pool's) has run the notebook: its CPU idle for 2 s. Returns the
    seconds waited; adds the server's kernels to ``used``."""
    t0 = time.perf_counter()
    last, quiet = _kernels(port), 0
    while time.perf_counter() - t0 < timeout and quiet < 4:
        time.sleep(0.5)
        now = _kernels(port)
        fresh = [pid for pid in now if pid not in used and pid in last]
        quiet = quiet + 1 if fresh and all(now[pid] - last[pid] < 0.05 for pid in fresh) else 0
        last = now
    used.update(last)
    return time.perf_counter() - t0


def _open(browser: Any, shots: Any, url: str, label: str) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1280, "height": 1200})
    outside = shots.offline(page)
    received = [0]
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: received.__setitem__(0, received[0] + len(f))))
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    t0 = time.perf_counter()
    page.goto(url, timeout=180000)
    t_html = time.perf_counter() - t0
    page.wait_for_selector(".jupyter-widgets", timeout=180000)
    t_widget = time.perf_counter() - t0
    page.wait_for_function(shots.PLOTS_READY.replace("{n}", "3"), timeout=180000)
    t_plots = time.perf_counter() - t0
    busy = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    print(
        f"{label}: html {t_html:.1f} s, first widget {t_widget:.1f} s, plots {t_plots:.1f} s "
        f"(the page's CPU: main thread {busy['ThreadTime']:.1f} s, renderer {busy['ProcessTime']:.1f} s), "
        f"websocket {received[0] / 1e6:.1f} MB, outside requests {len(outside)} ({_load()})",
        flush=True,
    )
    FIGURES.setdefault(label, []).append(t_plots)
    FIGURES.setdefault(f"{label}, the page's main-thread CPU", []).append(busy["ThreadTime"])
    return page, outside


#: the seconds measured, by what (the figures of the checkout being measured; see main)
FIGURES: dict[str, list[float]] = {}


def _roster(page: Any, shots: Any, path: Path) -> None:
    page.get_by_role("tab", name="Roster").first.click()
    with page.expect_file_chooser(timeout=60000) as chooser:
        page.locator(".widget-upload", has_text="Load a roster").first.click()
    t0 = time.perf_counter()
    chooser.value.set_files(str(path))
    page.wait_for_function(shots.PLOTS_READY.replace("{n}", "1"), timeout=180000)
    took = time.perf_counter() - t0
    FIGURES.setdefault("roster", []).append(took)
    print(f"roster {path.name}: drawn {took:.1f} s after the file was chosen ({_load()})")


def _workbench(page: Any, shots: Any) -> None:
    t0 = time.perf_counter()
    tab = page.get_by_role("tab", name="Workbench")
    if not tab.count():
        print("workbench: no Workbench tab")
        return
    tab.first.click()
    page.wait_for_function(shots.PLOTS_READY.replace("{n}", "2"), timeout=180000)
    took = time.perf_counter() - t0
    FIGURES.setdefault("workbench", []).append(took)
    print(f"workbench: table and chart drawn {took:.1f} s after the tab was clicked ({_load()})")


def _shots(root: Path) -> Any:
    """The checkout's scripts/screenshots.py (its voila_server serves that checkout's notebook and template)."""
    spec = importlib.util.spec_from_file_location(
        f"praetor_screenshots_{abs(hash(root))}", root / "scripts" / "screenshots.py"
    )
    assert spec is not None and spec.loader is not None
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    return shots


def _measure(browser: Any, shots: Any, runs: int, roster: Path) -> None:
    port = _port()
    with shots.voila_server(port, wait_pool=False) as url:
        page, _ = _open(browser, shots, url, "right after start")
        page.close()
    port = _port()
    with shots.voila_server(port) as url:
        page, used = None, set[int]()
        for run in range(runs):
            if page is not None:
                page.close()
                time.sleep(2.0)  # Voila starts the next kernel 1 s after one is taken
            waited = _wait_heated(port, used)
            print(f"(the pool's kernel had run the notebook {waited:.1f} s later)", flush=True)
            page, _ = _open(browser, shots, url, f"started, open {run + 1}")
        if roster.is_file():
            _roster(page, shots, roster)
        else:
            print(f"roster: no file {roster}")
        _workbench(page, shots)
        page.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--roster", default=str(ROSTER))
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--baseline", help="another checkout of the project, measured alternately with this one")
    parser.add_argument("--rounds", type=int, default=2, help="with --baseline: the alternations")
    args = parser.parse_args(argv)
    if not Path(args.chromium).is_file():
        print(f"no Chromium at {args.chromium}", file=sys.stderr)
        return 2
    checkouts = [("this checkout", ROOT)]
    if args.baseline:
        base = Path(args.baseline).resolve()
        if not (base / "scripts" / "screenshots.py").is_file():
            print(f"--baseline: no project checkout at {base}", file=sys.stderr)
            return 2
        checkouts = [("baseline", base), ("this checkout", ROOT)]
    figures: dict[str, dict[str, list[float]]] = {name: {} for name, _ in checkouts}
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=_shots(ROOT).CHROMIUM_ARGS, headless=True)
        for _ in range(args.rounds if args.baseline else 1):
            for name, root in checkouts:
                print(f"--- {name} ({root})", flush=True)
                FIGURES.clear()
                _measure(browser, _shots(root), args.runs, Path(args.roster))
                for what, values in FIGURES.items():
                    figures[name].setdefault(what, []).extend(values)
        browser.close()
    if args.baseline:
        _ratios(figures["baseline"], figures["this checkout"])
    return 0


def _ratios(base: dict[str, list[float]], new: dict[str, list[float]]) -> None:
    med: Callable[[list[float]], float] = statistics.median
    print(f"medians, this checkout against the baseline ({_load()}):")
    for what in base:
        if what in new:
            b, n = med(base[what]), med(new[what])
            print(f"  {what}: {n:.1f} s against {b:.1f} s, x{n / b:.2f}")


if __name__ == "__main__":
    sys.exit(main())
