"""Benchmark: reading weapons' Type lines cold (issue 37, item 5): every weapon of the shipped 2nd edition catalogue
(``catalog.load_weapons``), its Type line alone (``parse_weapon_type``) and its whole block (``Weapon.from_mapping``),
then the 15 weapons of ``bench_batch.py`` section 1, each run after ``clear_memos``. Prints CPU times a weapon (min
and median), never a pass/fail test; compare two checkouts by running it in each, in turn.

Run: .venv/bin/python bench/bench_types.py
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Callable

from bench_batch import infantry_cells, load

from praetor_analysis.catalog import load_weapons
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.profiles import Weapon, parse_weapon_type


def types(blocks: list[dict[str, str]]) -> None:
    for block in blocks:
        with contextlib.suppress(ProfileError):
            parse_weapon_type(block["Type"])


def weapons(blocks: list[dict[str, str]]) -> None:
    for block in blocks:
        with contextlib.suppress(ProfileError):
            Weapon.from_mapping(block)


def main() -> None:
    shipped = load_weapons()[["name", "Range", "Strength", "AP", "Type"]].astype(str).to_dict("records")
    bench = list({d["weapon"]["Type"]: d["weapon"] for d in infantry_cells()}.values())
    print(f"Type lines read cold (memos cleared before each run); {load()}")
    cases: list[tuple[str, Callable[[list[dict[str, str]]], None], list[dict[str, str]], int]] = [
        (f"every shipped Type line ({len(shipped)})", types, shipped, 9),
        (f"every shipped weapon block ({len(shipped)})", weapons, shipped, 9),
        (f"bench_batch's {len(bench)} Type lines", types, bench, 101),
        (f"bench_batch's {len(bench)} weapon blocks", weapons, bench, 101),
    ]
    for label, run, blocks, runs in cases:
        times = []
        for _ in range(runs):
            clear_memos()
            t0 = time.process_time()
            run(blocks)
            times.append((time.process_time() - t0) / len(blocks) * 1e6)
        print(f"   {label}: {min(times):.1f} us each (min), {statistics.median(times):.1f} (median of {runs})")
    print(f"   {load()}")


if __name__ == "__main__":
    main()
