"""Benchmark: units by name against the same scenarios written as statlines (issue 37, item 5). Prints figures
and ratios measured in this one process; never a pass/fail test. CPU times (``time.process_time``), medians.

1. 2,000 copies of ``{"attacker": {"name": "Tactical Squad", "size": 10}, "target": "Legionary (Tactical Squad)"}``
   through ``calc_json`` (the text of ``praetor calc``), against 2,000 copies of the same volley written as a
   statline (the squad's ten Bolters: BS 4, 10 shots, the catalog's Bolter, the same target).
2. 2,000 varied: sizes 10 to 20 against four targets (44 distinct documents, repeated), named and as statlines.
3. 20,000 of the named document (the goal: within 20 s).

Run: .venv/bin/python bench/bench_names.py
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from timing import alternate_cpu

from praetor_analysis.scenario.calc import calc_json

NAMED = {"attacker": {"name": "Tactical Squad", "size": 10}, "target": "Legionary (Tactical Squad)"}
STATLINE = {"attacker": {"BS": 4, "S": 4}, "weapon": "Bolter", "attacks": 10, "target": "Legionary (Tactical Squad)"}
TARGETS = [
    "Legionary (Tactical Squad)",
    "Cataphractii Terminator",
    "Militia (Infantry Squad)",
    "Contemptor Dreadnought",
]


def load() -> str:
    return "load {:.1f}/{:.1f}/{:.1f}".format(*os.getloadavg())


def varied(named: bool, n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(n):
        size, target = 10 + i % 11, TARGETS[(i // 11) % 4]
        if named:
            out.append({"attacker": {"name": "Tactical Squad", "size": size}, "target": target})
        else:
            out.append({"attacker": {"BS": 4, "S": 4}, "weapon": "Bolter", "attacks": size, "target": target})
    return out


def main() -> None:
    print(f"bench_names: {load()}")
    named, statline = json.dumps([NAMED] * 2000), json.dumps([STATLINE] * 2000)
    (one,) = calc_json(json.dumps([NAMED]))  # the catalogs loaded, the unit fielded once
    (two,) = calc_json(json.dumps([STATLINE]))
    assert abs(one["casualties"]["mean"] - two["casualties"]["mean"]) < 1e-12, (one["casualties"], two["casualties"])
    t_named, t_stat = alternate_cpu([lambda: calc_json(named), lambda: calc_json(statline)], 5)
    print(
        f"1. 2,000 equal documents: by name {t_named:.3f} s ({t_named / 2000 * 1e6:.0f} us each), as statlines "
        f"{t_stat:.3f} s ({t_stat / 2000 * 1e6:.0f} us each): {t_named / t_stat:.2f}x (goal <= 2x); {load()}"
    )
    vn, vs = json.dumps(varied(True, 2000)), json.dumps(varied(False, 2000))
    t_vn, t_vs = alternate_cpu([lambda: calc_json(vn), lambda: calc_json(vs)], 5)
    print(
        f"2. 2,000 varied (44 distinct: sizes 10 to 20, four targets): by name {t_vn:.3f} s, as statlines "
        f"{t_vs:.3f} s: {t_vn / t_vs:.2f}x; {load()}"
    )
    text = json.dumps([NAMED] * 20_000)
    t0, c0 = time.perf_counter(), time.process_time()
    calc_json(text)
    print(
        f"3. 20,000 by name: {time.process_time() - c0:.2f} s CPU, {time.perf_counter() - t0:.2f} s wall "
        f"(goal within 20 s); {load()}"
    )


if __name__ == "__main__":
    main()
