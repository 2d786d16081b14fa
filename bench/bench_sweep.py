"""Benchmark: ``praetor sweep`` as a Parquet dataset (issue 37 item 7), each run a fresh process, cold.

1. One faction (default: Dark Angels, a Legion: the datasheets every Legion may take and its own) against the
   standard targets, in one process (``--workers 1``): wall time and the CPU time of the process.
2. The same on a local Dask cluster of two worker processes (``--workers 2``): wall time (the cluster's start
   and each worker's imports and catalogs included, as a user waits for them), the table checked equal.
3. A stop and a resume: the sweep on two workers killed (SIGKILL to its process group) once half the parts are
   written, then resumed in one process: the parts kept, the parts written and the resume's wall time, the
   table checked equal to the one of section 1; then a second resume with nothing left to do.

The machine is shared (two cores for everyone): the load average is printed beside each figure, and on two
busy cores two workers cannot give 2x. ``--quick``: every fourth datasheet. Prints figures; never a pass/fail
test.

Run: .venv/bin/python bench/bench_sweep.py [--faction NAME] [--quick]
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pandas as pd

from praetor_analysis.analysis.faction_sweep import sweep_tasks
from praetor_analysis.analysis.sweep_dataset import read_sweep

ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def _command(faction: str, out: Path, workers: int, names: list[str] | None) -> list[str]:
    picked = ["--datasheets", *names] if names else []
    return [sys.executable, "-m", "praetor_analysis.cli", "sweep", faction, "--workers", str(workers), *picked,
            "-o", str(out)]  # fmt: skip


def _run(command: list[str]) -> tuple[subprocess.CompletedProcess[str], float, float]:
    """The command's result, its wall time and the CPU time of it and of the descendants it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True, check=False, env=ENV)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"{' '.join(command[3:])}: exit {run.returncode}: {run.stderr.strip()}")
    return run, wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _parts(folder: Path) -> int:
    return len(list(folder.glob("part-*.parquet"))) if folder.exists() else 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--faction", default="Dark Angels")
    parser.add_argument("--quick", action="store_true", help="every fourth datasheet")
    args = parser.parse_args()
    tasks = sweep_tasks(args.faction)
    names = [t.datasheet for t in tasks][::4] if args.quick else None
    total = len(names) if names else len(tasks)
    what = f"{args.faction!r}, {total} datasheets{' (every fourth)' if names else ''}, standard targets"
    with tempfile.TemporaryDirectory() as tmp:
        one, two, stopped = Path(tmp) / "one", Path(tmp) / "two", Path(tmp) / "stopped"
        run, wall, cpu = _run(_command(args.faction, one, 1, names))
        table = read_sweep(one)
        print(f"1. {what}, one process, cold: wall {wall:.1f} s, CPU {cpu:.1f} s, {len(table)} rows  load {_load()}")

        run, wall2, _ = _run(_command(args.faction, two, 2, names))
        pd.testing.assert_frame_equal(read_sweep(two), table)
        print(
            f"2. the same on a local Dask cluster of 2 workers (its start, imports and catalogs included): wall "
            f"{wall2:.1f} s ({wall2 / wall:.2f}x one process); the table equal  load {_load()}"
        )

        proc = subprocess.Popen(_command(args.faction, stopped, 2, names), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True, env=ENV)  # fmt: skip
        t0 = time.perf_counter()
        while proc.poll() is None and _parts(stopped) < total // 2:
            time.sleep(0.05)
        before_kill = time.perf_counter() - t0
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        kept = _parts(stopped)
        run, wall3, cpu3 = _run(_command(args.faction, stopped, 1, names))
        pd.testing.assert_frame_equal(read_sweep(stopped), table)
        print(
            f"3. stopped (SIGKILL) after {before_kill:.1f} s with {kept} of {total} parts written; resumed in one "
            f"process: wall {wall3:.1f} s, CPU {cpu3:.1f} s ({run.stdout.strip()}); the table equal to 1.  "
            f"load {_load()}"
        )
        run, wall4, cpu4 = _run(_command(args.faction, stopped, 1, names))
        print(f"   resumed again, nothing left to do: wall {wall4:.1f} s, CPU {cpu4:.1f} s ({run.stdout.strip()})")


if __name__ == "__main__":
    main()
