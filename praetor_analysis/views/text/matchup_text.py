"""`praetor matchup`'s text: the fire plans as tables, each unit's best target per phase, the pair table.

A fire plan's spread is given at fixed chances (9 games in 10, half, 1 in 10), so that two runs, or two
lists, are read on the same levels. Every number says its unit: points of the other list, models or HP.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from praetor_analysis.views.text.fit import fit_table, wrap
from praetor_analysis.views.text.roster_text import measure_noun, short_reason

if TYPE_CHECKING:
    import pandas as pd

    from praetor_analysis.analysis import FirePlan

__all__ = ["LEVELS", "at_least", "matchup_units", "pair_table", "plan_lines"]

LEVELS = ((0.9, "in 9 games of 10"), (0.5, "in half"), (0.1, "in 1 of 10"))
"""The fixed chances at which a fire plan's points are given: at least k points with this probability."""


def at_least(pmf: Mapping[float, float], q: float) -> float:
    """The most points removed with probability at least ``q`` (the largest k with P(X >= k) >= q)."""
    best = 0.0
    tail = 0.0
    for k in sorted(pmf, reverse=True):
        tail += pmf[k]
        if tail >= q - 1e-12:
            return k
    return best


def plan_lines(plan: FirePlan, *, width: int) -> list[str]:
    """One fire plan: a title, a table (target, the units firing at it, the points expected), the spread."""
    title = (
        f"{plan.attacker_list} shooting at {plan.target_list}: {plan.expected:.1f} points of "
        f"{plan.target_list} removed on average (no plan removes more than {plan.bound:.1f} on average; plan found "
        f"by {plan.method})"
    )
    rows = [  # one line per unit firing; the target and its points on its first
        [s.target if i == 0 else "", f"{s.expected:.1f}" if i == 0 else "", unit]
        for s in plan.shots
        for i, unit in enumerate(s.units)
    ]
    out = wrap(title, width) + fit_table(
        ["target", "points removed (mean)", "fired at by"], rows, width, right=[1], shrink={0: 16, 2: 16}
    )
    if plan.idle:
        out += wrap(f"Idle (no weapon that hurts any target): {', '.join(plan.idle)}.", width, indent="  ")
    pmf = plan.pmf()
    spread = ", ".join(f"{at_least(pmf, q):.0f} {words}" for q, words in LEVELS)
    out += wrap(f"Points removed, at least: {spread}.", width, indent="  ")
    return out


def matchup_units(
    pairs: pd.DataFrame,
    names: Mapping[str, str],
    *,
    width: int,
    phases: Sequence[str] = ("shooting", "melee"),
    sort: str = "best",
    top: int | None = None,
) -> list[str]:
    """Each unit of both lists, its points and its best target per phase, a line each: the points of the other
    list it removes there (and what: models or HP of the named unit). ``names`` maps ``mine``/``theirs`` to the
    lists' names; ``sort`` is best (points removed), a phase (its lines only), points or unit."""
    lines: list[tuple[str, str, float, str, float, str]] = []  # side, unit, pts, phase, points removed, what
    for (side, unit), group in pairs.groupby(["side", "attacker"], sort=False):
        for phase in phases:
            mine = group[group["phase"] == phase]
            rated = mine[mine["error"] == ""].dropna(subset=["points_removed"])
            if rated.empty:
                reason = short_reason(str(mine["error"].iloc[0])) if len(mine) else "not rated"
                lines.append((str(side), str(unit), float(group["attacker_points"].iloc[0]), phase, -math.inf, reason))
                continue
            pick = rated.iloc[int(np.argmax(rated["points_removed"].to_numpy(dtype=float)))]
            what = f"{pick['mean']:.2f} {measure_noun(str(pick['measure']))} of {pick['target']}"
            lines.append(
                (str(side), str(unit), float(pick["attacker_points"]), phase, float(pick["points_removed"]), what)
            )

    def key(line: tuple[str, str, float, str, float, str]) -> tuple[float, ...]:
        if sort == "unit":
            return (0.0,)
        if sort == "points":
            return (-line[2],)
        return (-line[4],)

    keyed = [x for x in lines if sort in ("best", "points", "unit") or x[3] == sort]
    ordered = sorted(keyed, key=key) if sort != "unit" else sorted(keyed, key=lambda x: (x[1].casefold(), x[3]))
    shown = ordered if top is None else ordered[:top]
    header = ["side", "unit", "pts", "phase", "pts removed", "removed at its best target"]
    rows = [
        [names.get(s, s), unit, f"{pts:.0f}", phase, "-" if math.isinf(got) else f"{got:.1f}", what]
        for s, unit, pts, phase, got, what in shown
    ]
    intro = wrap(
        "Each unit at its best target in each phase (melee: charging): the points of the other list it removes "
        "there on average, and what (models, or HP: hull points of a vehicle).",
        width,
    )
    more = len(ordered) - len(shown)
    tail = wrap(f"{more} more lines: --top N.", width) if more else []
    return intro + fit_table(header, rows, width, right=[2, 4], shrink={5: 24, 1: 18, 0: 8}) + tail


def pair_table(pairs: pd.DataFrame, names: Mapping[str, str], *, width: int) -> list[str]:
    """Every pair (``--table``): the side attacking, each measure with its unit (P(all): of the target unit
    destroyed; pts removed/100 pts: points removed per 100 of the attacker's points)."""
    header = ["side", "attacker", "target", "phase", "removed", "pts removed", "P(all)", "pts removed/100 pts"]
    rows = []
    for r in pairs.itertuples(index=False):
        side = names.get(str(r.side), str(r.side))
        if r.error:
            rows.append([side, str(r.attacker), str(r.target), str(r.phase), short_reason(str(r.error)), "-", "-", "-"])
            continue
        rows.append([
            side, str(r.attacker), str(r.target), str(r.phase), f"{r.mean:.3f} {measure_noun(str(r.measure))}",
            f"{r.points_removed:.1f}", f"{r.p_destroyed:.3f}", f"{r.points_removed_per_100_pts:.3f}",
        ])  # fmt: skip
    return fit_table(header, rows, width, right=[4, 5, 6, 7], shrink={0: 8, 1: 18, 2: 18})
