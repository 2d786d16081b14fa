"""The dashboard update measured (shared by bench_batch.py and bench_catalog.py): 20 ranged weapons x 8 targets.

CPU times of this process (``time.process_time``), medians of several runs, engine memos warm (a dashboard's
case: the per-hit tables of a weapon are built once per session):

- the comparison alone (``compare_with_distributions`` of the 160 cells: engine and table, no figure);
- ``compute_view``: the table and the three figures built afresh as ``go.Figure`` objects;
- widget changes on a ``Dashboard``, from the assignment to the widget's value to the FigureWidgets' trace
  data updated (callback, engine, table HTML, ``plotly_update``): a BS change with the session's cell memory
  cleared first (every cell recomputed: the worst case; timed alternately with the comparison alone, so that
  their ratio is fair on a drifting machine), a colour-measure change, a focus-target change, one weapon
  added, one target added (the weapon or target never seen before: parsed and its per-hit tables built).
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from collections.abc import Callable
from typing import Any

from timing import median_cpu

from praetor_analysis.analysis.compare import compare_with_distributions
from praetor_analysis.catalog import load_targets, load_weapons

RUNS = 9


def _cpu(action: Callable[[], object]) -> float:
    t0 = time.process_time()
    action()
    return time.process_time() - t0


def measure() -> dict[str, float]:
    """Median CPU seconds of each kind of update (keys as printed by :func:`report`)."""
    from praetor_analysis.views.dashboard.app import Dashboard
    from praetor_analysis.views.dashboard.shooting_view import compute_view
    from praetor_analysis.views.dashboard.view import DashboardState, inputs_of, weapon_catalog

    weapons, targets = load_weapons(), load_targets()
    wc = weapon_catalog(weapons)
    ranged = wc[~wc["Type"].str.contains("Melee")]
    chosen, spare = ranged.head(20), ranged.iloc[20 : 20 + RUNS]
    state = DashboardState(weapons=tuple(chosen.index), targets=tuple(targets["archetype"][:8]))
    compute_view(state, wc, targets)  # imports, parses and per-hit tables outside the timing
    out: dict[str, float] = {}
    out["compute_view"] = statistics.median(
        median_cpu(lambda b=b: compute_view(dataclasses.replace(state, bs=b), wc, targets), 3) for b in (2, 3, 5)
    )
    d = Dashboard(weapons, targets, selection=())
    d.target_select.value = state.targets
    d.weapon_select.options = [(d._labels[i], i) for i in (*chosen.index, *spare.index)]
    d.weapon_select.value = state.weapons
    for b in (2, 3, 5, 4):  # every BS once, so that the engine's per-hit tables are warm
        d.bs.value = b
    comparison, bs_cold = [], []
    for b in (5, 3, 4, 2, 5, 3, 4, 2, 4):  # interleaved, so that the machine's drift hits both alike
        w, t, attacker = inputs_of(dataclasses.replace(state, bs=b), wc, targets)
        comparison.append(_cpu(lambda w=w, t=t, a=attacker: compare_with_distributions(w, t, attacker=a)))
        d.session.cells.clear()  # every cell recomputed
        bs_cold.append(_cpu(lambda b=b: setattr(d.bs, "value", b)))
    out["comparison"], out["bs_cold"] = statistics.median(comparison), statistics.median(bs_cold)
    metrics = ("p_any", "mean", "std", "p_all", "p_pinned", "mean", "p_any", "mean", "std")
    out["metric"] = statistics.median(_cpu(lambda m=m: setattr(d.metric, "value", m)) for m in metrics)
    focus = list(state.targets) * 2
    out["focus"] = statistics.median(_cpu(lambda f=f: setattr(d.focus_target, "value", f)) for f in focus[1:RUNS])
    added = []
    for i in spare.index:  # one more weapon each time (never seen: parsed, its per-hit tables built)
        added.append(_cpu(lambda i=i: setattr(d.weapon_select, "value", (*state.weapons, i))))
    out["weapon_added"] = statistics.median(added)
    d.weapon_select.value = state.weapons
    extra = [a for a in targets["archetype"] if a not in state.targets][:RUNS]  # never seen, as above
    out["target_added"] = statistics.median(
        _cpu(lambda a=a: setattr(d.target_select, "value", (*state.targets, a))) for a in extra
    )
    return out


def report(prefix: str, load: Callable[[], str] | None = None, target_ms: float = 30.0) -> dict[str, Any]:
    """Measure and print one line per figure; returns the figures in ms."""
    ms = {k: v * 1e3 for k, v in measure().items()}
    base = ms["comparison"]
    tail = f"; {load()}" if load else ""
    print(
        f"{prefix}dashboard update, 20 weapons x 8 targets (CPU, median of {RUNS}): "
        f"the comparison alone {base:.1f} ms; compute_view afresh (table, three go.Figures) "
        f"{ms['compute_view']:.1f} ms{tail}"
    )
    print(
        f"   widget change to updated FigureWidget trace data (target < {target_ms:.0f} ms): "
        f"BS, every cell recomputed {ms['bs_cold']:.1f} ms ({ms['bs_cold'] / base:.2f}x the comparison alone); "
        f"colour measure {ms['metric']:.1f} ms; focus target {ms['focus']:.1f} ms; "
        f"one weapon added {ms['weapon_added']:.1f} ms; one target added {ms['target_added']:.1f} ms"
    )
    return ms
