"""Timing helpers shared by the benchmark scripts."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


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
