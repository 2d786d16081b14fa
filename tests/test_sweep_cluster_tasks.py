"""A sweep's tasks on a Dask cluster (``analysis.sweep_run.run_tasks`` with a scheduler), on an in-process
cluster of one thread: every task reported once with its rows, a failing task with its error in one line, and
a client given by the caller left open (one made from an address is closed)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import pandas as pd
import pytest

from praetor_analysis.analysis.sweep_run import run_tasks

distributed = pytest.importorskip("distributed")


@dataclass(frozen=True)
class _Task:
    token: int

    def run(self) -> pd.DataFrame:
        if self.token == 2:
            raise ValueError("no  rows\nfor two")
        return pd.DataFrame({"token": [self.token] * self.token})


def test_tasks_on_a_cluster_report_rows_and_failures() -> None:
    tasks = [_Task(1), _Task(2), _Task(3)]
    seen: dict[int, tuple[list[int] | None, str | None]] = {}

    def done(task: _Task, frame: pd.DataFrame | None, error: str | None) -> None:
        assert task.token not in seen
        seen[task.token] = (None if frame is None else list(frame["token"]), error)

    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=logging.ERROR
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        run_tasks(tasks, done, scheduler=client)
        assert client.status == "running"  # the caller's client stays open
        assert seen == {1: ([1], None), 2: (None, "ValueError: no rows for two"), 3: ([3, 3, 3], None)}
        seen.clear()
        run_tasks(tasks[2:], done, scheduler=cluster.scheduler_address)
        assert seen == {3: ([3, 3, 3], None)}
