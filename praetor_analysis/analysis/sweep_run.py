"""Where a sweep's tasks run: in this process, on a local Dask cluster, or on an existing one.

:func:`run_tasks` calls ``done(task, frame, failure)`` in this process as each task completes, in the order
they complete: ``frame`` is the task's rows, or None with ``failure`` (one line: the error's type and message)
when the task raised. Only the cluster paths import ``distributed`` (the ``sweep`` extra); the tasks carry their
inputs (:class:`~praetor_analysis.analysis.faction_sweep.Field` holds a roster's bytes), so a worker needs the
package and nothing of this machine's files.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from praetor_analysis.errors import ScenarioError

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["CONNECT_TIMEOUT", "Task", "run_task", "run_tasks"]


class Task(Protocol):
    """A sweep's task (:class:`~praetor_analysis.analysis.faction_sweep.SweepTask`): picklable, it runs anywhere."""

    def run(self) -> pd.DataFrame:
        """The task's rows."""
        ...


T = TypeVar("T", bound=Task)

CONNECT_TIMEOUT = "10s"
"""How long to wait for a Dask scheduler given by its address."""


def run_task(task: Task) -> pd.DataFrame:
    """One task's rows (what a worker runs)."""
    return task.run()


def _failure(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())


def run_tasks(
    tasks: Sequence[T],
    done: Callable[[T, pd.DataFrame | None, str | None], None],
    *,
    workers: int = 1,
    scheduler: Any = None,
) -> None:
    """Run ``tasks``: on the cluster of ``scheduler`` (an address or a ``distributed.Client``), else on a
    local cluster of ``workers`` processes when ``workers > 1``, else here, one after another.

    Raises:
        ScenarioError: The scheduler cannot be reached, or ``distributed`` is not installed.
    """
    if not tasks:
        return
    if scheduler is None and workers <= 1:
        for task in tasks:
            try:
                frame = run_task(task)
            except Exception as exc:  # a task's failure is recorded for its part, the others go on
                done(task, None, _failure(exc))
            else:
                done(task, frame, None)
        return
    try:
        import distributed
    except ImportError as exc:
        raise ScenarioError(
            f"workers: a Dask cluster needs the sweep extra (pip install 'praetor_analysis[sweep]'): {exc}"
        ) from None
    if scheduler is not None:
        _on_cluster(tasks, done, scheduler)
        return
    with distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        silence_logs=logging.ERROR,
    ) as cluster:
        _on_cluster(tasks, done, cluster.scheduler_address)


def _on_cluster(tasks: Sequence[T], done: Callable[[T, pd.DataFrame | None, str | None], None], scheduler: Any) -> None:
    from distributed import Client, as_completed

    if isinstance(scheduler, Client):
        client = scheduler
    else:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError, ValueError) as exc:
            raise ScenarioError(
                f"scheduler: cannot reach a Dask scheduler at {scheduler!r}: {_failure(exc)}",
                field="scheduler",
                value=scheduler,
            ) from None
    try:
        futures = client.map(run_task, list(tasks), pure=False)
        index = {f.key: t for f, t in zip(futures, tasks, strict=True)}
        for fut in as_completed(futures):
            task = index[fut.key]
            if fut.status == "finished":
                done(task, fut.result(), None)
            else:
                error = fut.exception()
                done(task, None, _failure(error) if error is not None else fut.status)
            fut.release()
    finally:
        if client is not scheduler:
            client.close()
