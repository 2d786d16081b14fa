"""The cyclic garbage collector paused while a batch of scenarios builds its records.

A batch of documents makes many short-lived containers (parsed records, result mappings, the engine's keys);
each few hundred of them start a collection, and the collections that reach the oldest generation walk every
object of the process (the catalogs, the memos). Paused for one ``calc_many`` batch, the collector runs once
it is enabled again: nothing the batch leaves in cycles is kept longer than that. The results are the same.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic collector for the ``with`` block (left as it was if already paused)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
