"""Benchmark: the default report (``make demo``), with and without its per-point section (issue 24, item 8).

Times, as CPU of this process, the default report's page (:func:`praetor_analysis.views.report.page.default_report`)
against the same page without the per-point section (the comparison report of the iconic weapons alone), run
in turn (a, b, a, b...) so that their ratio holds on a machine whose speed drifts; then the per-point table
alone, cold (memoised parses and per-hit tables cleared) and warm. The catalogs are loaded once, outside the
timing. Prints figures; never a pass/fail test (the goal: ``make demo`` stays a few seconds).

Run: make bench (or .venv/bin/python bench/bench_report.py [REPEAT]).
"""

from __future__ import annotations

import sys
import time

from timing import alternate_cpu, median_cpu

from praetor_analysis.analysis.per_point import per_point_table
from praetor_analysis.analysis.unit_ratings import standard_targets
from praetor_analysis.catalog import load_targets
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.views import report as R


def main(repeat: int) -> None:
    targets = load_targets()
    units = standard_targets()

    def with_per_point() -> str:
        return R.to_html(R.iconic_report(targets))

    def without() -> str:
        return R.to_html(R.build_report(R.select_weapons(R.DEFAULT_WEAPONS), targets))

    with_per_point()  # imports and catalogs
    new, old = alternate_cpu([with_per_point, without], repeat)
    print(f"default report, CPU median of {repeat}: {new:.2f} s with the per-point section, {old:.2f} s without "
          f"({new - old:+.2f} s, {new / old:.2f}x)")  # fmt: skip
    clear_memos()
    c0 = time.process_time()
    frame = per_point_table(units)
    cold = time.process_time() - c0
    warm = median_cpu(lambda: per_point_table(units), repeat)
    rows = f"{len(frame)} rows (fielded x targets x phases)"
    print(f"per-point table alone: {rows}, CPU cold {cold:.2f} s, warm {warm:.2f} s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
