"""The shooting tab's view: a :class:`~praetor_analysis.views.dashboard.view.DashboardState` in, the comparison
table and its three figures out.

:func:`compute_view` builds everything afresh (``go.Figure`` objects). :class:`ShootingSession` is the
dashboard's fast path: it remembers the chosen rows of the last state and every computed cell
(:class:`~praetor_analysis.analysis.compare_cache.ComparisonCache`), so an update computes only the cells
that changed, and returns the figures as :class:`~praetor_analysis.views.figures.specs.FigureSpec` data for
:class:`~praetor_analysis.views.figures.live.LiveFigure`. Both go through :func:`shooting_specs`, so their
figures are the same (tests).
"""

from __future__ import annotations

import html
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from praetor_analysis.views.dashboard.view import DashboardState, chosen_targets, chosen_weapons, state_attacker
from praetor_analysis.views.figures import specs as S
from praetor_analysis.views.figures.plots import figure_of

__all__ = ["CompareFn", "DistFn", "ShootingSession", "ShootingSpecs", "View", "compute_view", "shooting_specs"]

CompareFn = Callable[..., pd.DataFrame]
DistFn = Callable[..., Mapping[tuple[str, str], np.ndarray]]
FocusFn = Callable[[str], Mapping[tuple[str, str], np.ndarray]]


@dataclass(frozen=True)
class View:
    """What the dashboard shows for one state: the table and the figures."""

    table: pd.DataFrame
    heatmap: go.Figure
    curves: go.Figure
    distribution: go.Figure
    messages: tuple[str, ...] = field(default_factory=tuple)


@dataclass(frozen=True, eq=False)
class ShootingSpecs:
    """The table and the three figures of one state, the figures as data."""

    table: pd.DataFrame
    heatmap: S.FigureSpec
    curves: S.FigureSpec
    distribution: S.FigureSpec
    messages: tuple[str, ...] = ()
    metric: str = "mean"

    def view(self) -> View:
        """The same as ``go.Figure`` objects."""
        return View(
            self.table, figure_of(self.heatmap), figure_of(self.curves), figure_of(self.distribution), self.messages
        )


def shooting_specs(
    state: DashboardState,
    w: pd.DataFrame,
    t: pd.DataFrame,
    table: pd.DataFrame,
    focus_distributions: FocusFn,
    messages: list[str],
    previous: ShootingSpecs | None = None,
) -> ShootingSpecs:
    """The figures of a state from its chosen rows and comparison table.

    Args:
        state: The inputs.
        w, t: The chosen weapon and target rows (:func:`~praetor_analysis.views.dashboard.view.inputs_of`).
        table: Their comparison.
        focus_distributions: The pmfs by ``(weapon_id, target_id)`` of the weapons against one target (by its
            ``archetype`` label).
        messages: What to tell the user so far (added to).
        previous: The specs of an earlier state: its heatmap is kept when the table and the metric are the same.
    """
    if previous is not None and previous.table is table and previous.metric == state.metric:
        heatmap = previous.heatmap
    else:
        heatmap = S.heatmap_spec(table, S.HeatmapOptions(metric=state.metric))
    archetypes = t["archetype"].tolist()
    focus_t = state.focus_target if state.focus_target in archetypes else (archetypes[0] if archetypes else None)
    pmfs: dict[str, np.ndarray] = {}
    dist: S.FigureSpec | None = None
    measure = "casualties"
    if focus_t is not None and not w.empty:
        dists = focus_distributions(focus_t)
        rows = [n for n, target in enumerate(table["target"].tolist()) if target == focus_t]
        columns = {c: table[c].tolist() for c in ("weapon", "weapon_id", "error", "measure")}
        columns["faction"] = table["faction"].tolist() if "faction" in table.columns else columns["weapon_id"]
        names, wids, errors, measures, factions = ([col[n] for n in rows] for col in columns.values())
        if rows:
            measure = str(measures[0])
        labels = S.label_list([str(n) for n in names], [str(i) for i in wids], [str(f) for f in factions])
        tid = str(table["target_id"].iat[rows[0]]) if rows else ""  # read only with rows
        for label, name, wid, err in zip(labels, names, wids, errors, strict=True):
            pmf = dists.get((wid, tid))
            if pmf is None:
                messages.append(f"{name} vs {focus_t}: {err or 'no distribution'}")
                continue
            pmfs[html.unescape(label)] = pmf
        unit = "hull points" if measure == "hull_points" else "models"
        index = list(w.index)
        pos = index.index(state.focus_weapon if state.focus_weapon in index else index[0])
        if pos < len(rows) and (wids[pos], tid) in dists:
            dist = S.distribution_spec(
                dists[(wids[pos], tid)],
                S.DistributionOptions(
                    title=f"{names[pos]} vs {focus_t}", outcome=measure.replace("_", " "), unit=unit, name="P(X = k)"
                ),
            )
    if dist is None:
        dist = S.distribution_spec([1.0], S.DistributionOptions(title="No weapon chosen"))
    curves = S.at_least_spec(
        pmfs,
        S.AtLeastOptions(
            target=focus_t,
            outcome=measure.replace("_", " "),
            unit="hull points" if measure == "hull_points" else "models",
        ),
    )
    return ShootingSpecs(table, heatmap, curves, dist, tuple(messages), state.metric)


def _compared(
    state: DashboardState,
    w: pd.DataFrame,
    t: pd.DataFrame,
    engines: tuple[CompareFn | None, DistFn | None],
    cells: Any = None,
    previous: ShootingSpecs | None = None,
) -> ShootingSpecs:
    """Compare the chosen rows (through ``cells``, a ComparisonCache, when given and no engine is injected)."""
    from praetor_analysis.analysis import compare as C

    compare_fn, distributions_fn = engines
    attacker = state_attacker(state)
    messages: list[str] = []
    pmfs: Mapping[tuple[str, str], np.ndarray] = {}
    if w.empty or t.empty:
        table = pd.DataFrame(columns=C.COLUMNS)
        messages.append("Choose at least one weapon and one target.")
    elif compare_fn is None and distributions_fn is None:
        one_pass = C.compare_with_distributions if cells is None else cells.compare_with_distributions
        table, pmfs = one_pass(w, t, attacker=attacker, half_range=state.half_range)
    else:
        table = (compare_fn or C.compare)(w, t, attacker=attacker, half_range=state.half_range)
    dist_fn = distributions_fn or (C.compare_distributions if compare_fn is not None else None)

    def focus(label: str) -> Mapping[tuple[str, str], np.ndarray]:
        if dist_fn is None:
            return pmfs
        return dist_fn(w, t[t["archetype"] == label], attacker=attacker, half_range=state.half_range)

    return shooting_specs(state, w, t, table, focus, messages, previous)


def compute_view(
    state: DashboardState,
    weapons: pd.DataFrame,
    targets: pd.DataFrame,
    *,
    compare_fn: CompareFn | None = None,
    distributions_fn: DistFn | None = None,
) -> View:
    """The table and figures for a state, built afresh (pure: the catalogs and the engine in, figures out).

    Args:
        state: The inputs.
        weapons: The weapon catalog the state's ``weapons`` labels index.
        targets: The target catalog (``archetype`` labels).
        compare_fn, distributions_fn: :func:`compare.compare` and :func:`compare.compare_distributions`
            (injectable for tests).
    """
    w, t = chosen_weapons(state, weapons), chosen_targets(state, targets)
    return _compared(state, w, t, (compare_fn, distributions_fn)).view()


class ShootingSession:
    """The shooting view with memory: the chosen rows of the last state and every cell computed.

    Args:
        compare_fn, distributions_fn: As :func:`compute_view` (injected engines are called every update).
    """

    def __init__(self, *, compare_fn: CompareFn | None = None, distributions_fn: DistFn | None = None) -> None:
        from praetor_analysis.analysis import ComparisonCache

        self.cells = ComparisonCache()
        self._engines = (compare_fn, distributions_fn)
        self._weapons: tuple[Any, ...] | None = None  # (catalog, key, rows)
        self._targets: tuple[Any, ...] | None = None
        self._last: ShootingSpecs | None = None

    def clear(self) -> None:
        """Forget the computed cells and the chosen rows."""
        self.cells.clear()
        self._weapons = self._targets = self._last = None

    def chosen(self, state: DashboardState, weapons: pd.DataFrame, targets: pd.DataFrame) -> tuple[Any, Any]:
        """The chosen weapon and target rows (the same objects while what they depend on is unchanged)."""
        wkey = (state.weapons, state.reroll_hits, state.reroll_wounds)
        if self._weapons is None or self._weapons[0] is not weapons or self._weapons[1] != wkey:
            self._weapons = (weapons, wkey, chosen_weapons(state, weapons))
        tkey = (state.targets, state.target_models, state.cover, state.fnp)
        if self._targets is None or self._targets[0] is not targets or self._targets[1] != tkey:
            self._targets = (targets, tkey, chosen_targets(state, targets))
        return self._weapons[2], self._targets[2]

    def specs(self, state: DashboardState, weapons: pd.DataFrame, targets: pd.DataFrame) -> ShootingSpecs:
        """The table and figures (as data) of a state; only the cells not computed before are computed."""
        w, t = self.chosen(state, weapons, targets)
        self._last = _compared(state, w, t, self._engines, self.cells, self._last)
        return self._last
