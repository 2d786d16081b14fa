"""Timing helpers shared by the benchmark scripts."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
import types
from collections.abc import Callable, Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def median_time(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """Median time of ``fn`` over ``repeat`` runs, in seconds (wall time unless ``clock`` says otherwise)."""
    times = []
    for _ in range(repeat):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def median_cpu(fn: Callable[[], object], repeat: int) -> float:
    """Median CPU time of this process for ``fn`` (on a loaded shared machine the wall time mostly measures
    the others)."""
    return median_time(fn, repeat, clock=time.process_time)


def alternate_cpu(fns: list[Callable[[], object]], repeat: int) -> list[float]:
    """Median CPU time of each of ``fns``, run in turn ``repeat`` times (a, b, a, b...): on a machine whose
    speed drifts, their ratios stay side by side."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeat):
        for fn, out in zip(fns, times, strict=True):
            t0 = time.process_time()
            fn()
            out.append(time.process_time() - t0)
    return [statistics.median(t) for t in times]


def from_git(commit: str, path: str, name: str, moved: Mapping[str, str] | None = None) -> types.ModuleType | None:
    """``path`` as it was at ``commit``, as a module of this process named ``name`` (None without git), the
    module names in ``moved`` replaced by where they went since: the code before, timed beside today's."""
    try:
        source = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{commit}:{path}"], capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    for old, new in (moved or {}).items():
        source = source.replace(old, new)
    module = types.ModuleType(name)
    sys.modules[module.__name__] = module  # its dataclasses look their module up
    exec(compile(source, f"{commit}:{path}", "exec"), module.__dict__)  # our own history, not input
    return module
