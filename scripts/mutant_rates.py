"""Kill rates per module of a mutmut run (``make mutants``), read from ``mutants/**/*.meta``.

    python scripts/mutant_rates.py                      # every mutant tried so far
    python scripts/mutant_rates.py --names sample.txt   # only the names (or globs) listed, one a line
    python scripts/mutant_rates.py --sample 100 --seed 38 fire_plan roster   # print a seeded sample of names

A mutant is killed when a test failed (or timed out); it survives when every test passed, and has no tests when
no selected test calls its function (counted as surviving). Mutants not tried yet are left out of the rate.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import random
from collections import Counter
from pathlib import Path

STATUS = {1: "killed", 3: "killed", 0: "survived", 5: "no tests", 33: "no tests", 34: "skipped", 35: "suspicious"}
TIMEOUTS = {24, -24, 36, 152, 255}
KILLED = {"killed", "timeout", "segfault"}


def results(folder: Path) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for meta in sorted(folder.rglob("*.meta")):
        out.update(json.loads(meta.read_text(encoding="utf-8"))["exit_code_by_key"])
    return out


def status(code: int | None) -> str:
    if code is None:
        return "not run"
    if code in TIMEOUTS:
        return "timeout"
    if code < 0:
        return "segfault"
    return STATUS.get(code, f"exit {code}")


def module(name: str) -> str:
    """``praetor_analysis.analysis.fire_plan`` of ``praetor_analysis.analysis.fire_plan.x_fire_plan__mutmut_3``."""
    return ".".join(name.split(".")[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("modules", nargs="*", help="with --sample: module names (the last part, e.g. fire_plan)")
    ap.add_argument("--names", type=Path, help="count only these mutant names or globs, one a line")
    ap.add_argument("--sample", type=int, help="print this many mutant names of each module, seeded")
    ap.add_argument("--seed", type=int, default=38)
    ap.add_argument("--survivors", type=Path, help="write the surviving (and untested) names to this file")
    ap.add_argument("--folder", type=Path, default=Path("mutants"))
    args = ap.parse_args()
    codes = results(args.folder)
    if args.sample:
        rng = random.Random(args.seed)
        for mod in args.modules:
            names = sorted(k for k in codes if module(k).endswith("." + mod))
            print("\n".join(sorted(rng.sample(names, min(args.sample, len(names))))))
        return
    if args.names:
        wanted = [line.strip() for line in args.names.read_text(encoding="utf-8").splitlines() if line.strip()]
        codes = {k: v for k, v in codes.items() if any(k == w or fnmatch.fnmatch(k, w) for w in wanted)}
    by: dict[str, Counter[str]] = {}
    for name, code in codes.items():
        by.setdefault(module(name), Counter())[status(code)] += 1
    total: Counter[str] = Counter()
    for mod, counts in sorted(by.items()):
        total += counts
        _line(mod, counts)
    _line("all", total)
    if args.survivors:
        left = sorted(k for k, c in codes.items() if status(c) in ("survived", "no tests"))
        args.survivors.write_text("".join(f"{k}\n" for k in left), encoding="utf-8")


def _line(label: str, counts: Counter[str]) -> None:
    tried = sum(v for k, v in counts.items() if k != "not run")
    killed = sum(counts[k] for k in KILLED)
    rate = f"{100 * killed / tried:.1f}%" if tried else "-"
    parts = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"{label:42s} {killed}/{tried} killed ({rate}); {parts}")


if __name__ == "__main__":
    main()
