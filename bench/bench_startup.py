"""Start-up of the `praetor` command: CPU time of `praetor --help` and of a one-scenario `calc` (issue 36 item 5).

Each command runs in a fresh subprocess; its CPU time (user + system) is read from ``os.wait4``'s resource
usage, so the load of the shared machine barely moves it (wall times are printed beside, for reference).
The baseline is measured in the same run: the same command with pandas, scipy.spatial and scipy.special
imported first, as every command did before they were imported where first used. Bytecode caches are
written once before timing (an installed package has them; ``PYTHONDONTWRITEBYTECODE`` is removed from the
children's environment). Then ``-X importtime`` names the slowest imports of ``calc`` today.

    python bench/bench_startup.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

#: A one-scenario calc: the README's first example (a lascannon at five Terminators).
SCENARIO = {
    "attacker": {"BS": 4},
    "weapon": {"Strength": 9, "AP": 2, "Type": "Heavy 1, Lance"},
    "target": {"models": 5, "T": 4, "W": 1, "Save": "2+"},
}
#: What every command imported up front before issue 36 (the baseline pre-imports them).
EAGER = "import pandas, scipy.spatial, scipy.special"


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["OPENBLAS_NUM_THREADS"] = "1"
    return env


def _code(argv: list[str], eager: bool) -> str:
    pre = f"{EAGER}; " if eager else ""
    return f"{pre}import sys; from praetor_analysis.cli import main; sys.exit(main({argv!r}))"


def cpu_of(argv: list[str], eager: bool = False) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one `praetor ARGV` in a fresh interpreter."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", _code(argv, eager)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=_env(),
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"praetor {' '.join(argv)} failed")
    return usage.ru_utime + usage.ru_stime, wall


def importtime(argv: list[str], top: int = 8) -> list[tuple[int, str]]:
    """The ``top`` imports of ``argv`` by cumulative microseconds (``-X importtime``), outermost first."""
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", _code(argv, False)],
        capture_output=True,
        text=True,
        env=_env(),
        check=False,
    ).stderr
    rows = []
    for line in out.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        rows.append((int(cumulative), name.strip()))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs of each command (median printed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scenario = os.path.join(tmp, "one.json")
        with open(scenario, "w", encoding="utf-8") as fh:
            json.dump(SCENARIO, fh)
        commands = {"praetor --help": ["--help"], "praetor calc one.json": ["calc", scenario]}
        for argv in commands.values():  # write the bytecode caches, load the files into the page cache
            cpu_of(argv)
            cpu_of(argv, eager=True)
        print(f"load average {os.getloadavg()[0]:.1f}; CPU seconds (user + system), median of {args.repeat}")
        print(f"{'command':<24} {'today':>8} {'before':>8} {'ratio':>6}   wall today / before")
        for name, argv in commands.items():
            now: list[tuple[float, float]] = []
            then: list[tuple[float, float]] = []
            for _ in range(args.repeat):  # alternated, so that a drift of the machine moves both alike
                now.append(cpu_of(argv))
                then.append(cpu_of(argv, eager=True))
            a = statistics.median(c for c, _ in now)
            b = statistics.median(c for c, _ in then)
            wa = statistics.median(w for _, w in now)
            wb = statistics.median(w for _, w in then)
            print(f"{name:<24} {a:8.3f} {b:8.3f} {b / a:5.1f}x   {wa:.2f} s / {wb:.2f} s")
        print("slowest imports of `praetor calc one.json` today (-X importtime, cumulative ms):")
        for us, mod in importtime(commands["praetor calc one.json"]):
            print(f"  {us / 1000:7.1f}  {mod}")


if __name__ == "__main__":
    main()
