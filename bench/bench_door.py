"""Benchmark: the door's own share of the public path (issue 37, item 5) on the 600 infantry cells of
``bench_batch.py``: keying the documents, parsing them cold (memos cleared, the keys given), finding the records of
documents parsed before, and the whole ``calc_many`` cold and warm. Prints figures measured in this one process
(CPU times, a document each, min and median of 15 runs in turn), never a pass/fail test; compare two checkouts by
running it in each, in turn.

Run: .venv/bin/python bench/bench_door.py
"""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from typing import Any

from bench_batch import infantry_cells, load

from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.scenario import work
from praetor_analysis.scenario.calc import calc_many
from praetor_analysis.scenario.document import parse_scenario

#: The documents keyed together (a checkout before ``work.document_keys`` keyed them one at a time).
document_keys = getattr(work, "document_keys", None) or (lambda items: [work.document_key(i) for i in items])

RUNS = 15


def main() -> None:
    docs = infantry_cells()
    n = len(docs)
    calc_many(docs)
    times: dict[str, list[float]] = {}

    def timed(name: str, fn: Callable[[], Any]) -> Any:
        t0 = time.process_time()
        out = fn()
        times.setdefault(name, []).append((time.process_time() - t0) / n * 1e6)
        return out

    print(f"the door's share, {n} documents of bench_batch.py section 1; {load()}")
    for _ in range(RUNS):
        gc.disable()  # the parts alone: no collection lands in one of them
        clear_memos()
        keys = timed("keying the documents (document_keys)", lambda: document_keys(docs))

        def parse(keys: list[Any] = keys) -> list[Any]:
            return [parse_scenario(d, k) for d, k in zip(docs, keys, strict=True)]

        timed("parse_scenario cold (memos cleared, keys given)", parse)
        timed("parse_scenario warm (the records found)", parse)
        del keys, parse
        gc.enable()
        clear_memos()
        timed("calc_many cold", lambda: calc_many(docs))
        timed("calc_many warm", lambda: calc_many(docs))
    for name, values in times.items():
        print(f"   {name}: {min(values):.1f} us a document (min), {statistics.median(values):.1f} (median of {RUNS})")
    print(f"   {load()}")


if __name__ == "__main__":
    main()
