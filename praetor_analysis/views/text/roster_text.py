"""`praetor roster`'s first screen: one line per unit, its points and its best result in each phase.

A unit's best result in a phase is against the target of which it removes the largest share (models of a
squad, hull points of a vehicle: comparable across targets, where a count of models and one of hull points
are not); the number shown is what it removes of that target per 100 of its points, with its unit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from praetor_analysis.views.text.fit import fit_table, natural_width, wrap

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SORTS", "UnitLine", "best_lines", "measure_noun", "roster_long", "roster_screen", "short_reason"]

SORTS = ("best", "shooting", "melee", "points", "unit")
"""What the first screen may be sorted by: the best share of a target removed per 100 points over the phases
shown, one phase's, the unit's points (highest first) or its name."""


def measure_noun(measure: str) -> str:
    """The unit of a rating's mean, in a player's words."""
    return "HP" if measure == "hull_points" else "models"


def short_name(target: str) -> str:
    """A target's name without its bracket: ``Militia (Infantry Squad)`` -> ``Militia``."""
    head = target.split(" (", 1)[0].strip()
    return head or target


def short_reason(error: str) -> str:
    """A few words for why a unit has no result in a phase (the whole text is in ``--all`` and the files)."""
    text = error.casefold()
    if "fights in melee" in text or "no melee" in text:
        return "no melee"
    if "no weapon" in text or "unarmed" in text:
        return "no weapon"
    if "range" in text:
        return "out of range"
    return "not rated"


@dataclass(frozen=True)
class PhaseBest:
    """One unit's best result in one phase: per 100 points of the unit, of the named target."""

    per_100_pts: float
    measure: str
    target: str
    share_per_100_pts: float
    reason: str = ""

    def cell(self) -> str:
        """``3.35 models`` (or the reason there is none)."""
        if self.reason:
            return self.reason
        return f"{self.per_100_pts:.2f} {measure_noun(self.measure)}"


@dataclass(frozen=True)
class UnitLine:
    """A unit of the first screen: its label, points and best result per phase."""

    unit: str
    points: float
    best: dict[str, PhaseBest]

    def key(self, sort: str, phases: Sequence[str]) -> tuple[float, str]:
        if sort == "unit":
            return (0.0, self.unit.casefold())
        if sort == "points":
            return (-self.points, self.unit.casefold())
        shown = phases if sort == "best" else [sort]
        shares = [self.best[p].share_per_100_pts for p in shown if p in self.best]
        return (-max(shares, default=-math.inf), self.unit.casefold())


def best_lines(frame: pd.DataFrame, phases: Sequence[str]) -> list[UnitLine]:
    """One :class:`UnitLine` per unit of a rating frame (``rate_roster``), in the frame's first-seen order."""
    out = []
    for unit, rows in frame.groupby("unit", sort=False):
        best: dict[str, PhaseBest] = {}
        points = float(rows["points"].iloc[0])
        for phase in phases:
            mine = rows[rows["phase"] == phase]
            rated = mine[mine["error"] == ""]
            if rated.empty:
                reason = short_reason(str(mine["error"].iloc[0])) if len(mine) else "not rated"
                if len(mine) and mine["no_weapon"].astype(bool).all():  # the rows' typed fact (not "0.00 models")
                    reason = "no ranged weapon" if phase == "shooting" else "no weapon"
                best[phase] = PhaseBest(math.nan, "", "", -math.inf, reason)
                continue
            per_point = 100.0 / points if points > 0 else math.nan
            pick = rated.iloc[int(np.argmax(rated["share"].to_numpy(dtype=float)))]
            best[phase] = PhaseBest(
                float(pick["per_100_pts"]),
                str(pick["measure"]),
                str(pick["target"]),
                float(pick["share"]) * per_point if points > 0 else float(pick["share"]),
            )
        out.append(UnitLine(str(unit), points, best))
    return out


def roster_screen(
    frame: pd.DataFrame,
    title: str,
    *,
    width: int,
    phases: Sequence[str] = ("shooting", "melee"),
    sort: str = "best",
    top: int | None = None,
) -> list[str]:
    """The first screen of ``praetor roster``: a title line, the table, and what was left out.

    Args:
        frame: A rating frame (:func:`~praetor_analysis.analysis.unit_ratings.rate_roster`).
        title: The first lines: the roster's name (folded at ``width``), then its points account, kept whole on
            one line (it names every point not rated, and a reader reads it as one sentence).
        width: The longest line.
        phases: The phases shown (a column pair each).
        sort: One of :data:`SORTS`.
        top: Show this many units (all when None).
    """
    lines = sorted(best_lines(frame, phases), key=lambda u: u.key(sort, phases))
    shown = lines if top is None else lines[:top]
    header = ["unit", "pts"]
    for phase in phases:
        header += [phase, "target"]

    def cells(name: Callable[[str], str]) -> list[list[str]]:
        rows = []
        for u in shown:
            row = [u.unit, f"{u.points:.0f}"]
            for phase in phases:
                b = u.best[phase]
                row += [b.cell(), name(b.target)]
            rows.append(row)
        return rows

    rows = cells(str)
    shortened: list[str] = []  # "Militia (Infantry Squad)" -> "Militia" when the names stay distinct
    if natural_width(header, rows) > width:
        targets = {b.target for u in shown for b in u.best.values() if b.target}
        if len({short_name(t) for t in targets}) == len(targets):
            rows = cells(short_name)
            shortened = sorted(t for t in targets if short_name(t) != t)
    right = [1] + [2 + 2 * i for i in range(len(phases))]
    longest = max((len(u.unit) for u in shown), default=4)  # a label is cut last: two squads differ at its end
    shrink = {3 + 2 * i: 8 for i in range(len(phases))} | {0: min(32, longest)}
    by = {"best": "best share of a target removed per 100 pts", "points": "points", "unit": "name"}.get(
        sort, f"{sort}: share of its best target removed per 100 pts"
    )
    legend = (
        "Per unit and phase (melee: the unit charging), what it removes of its best target per 100 of its points: "
        "models, or HP (hull points of a vehicle); the best target is the one of which it removes the largest "
        f"share. Sorted by {by}."
    )
    more = len(lines) - len(shown)
    tail = (
        f"{more} more units: --top N. " if more else ""
    ) + "Every unit against every target: --all. Files: --csv FILE, --parquet FILE."
    if shortened:  # a short name may be another entry's (--target Militia is a 1-model profile): say the full one
        tail = "Targets: " + "; ".join(f"{short_name(t)} = {t}" for t in shortened) + ". " + tail
    first, *account = title.splitlines() or [""]
    intro = [*wrap(first, width), *account]
    table = fit_table(header, rows, width, right=right, shrink=shrink)
    return intro + wrap(legend, width) + table + wrap(tail, width)


def roster_long(frame: pd.DataFrame, *, width: int) -> list[str]:
    """Every row of a rating frame (``praetor roster --all``): each measure with its unit, cut to ``width``
    (``removed`` and ``removed/100 pts`` in the unit the ``of`` column names: models, or HP)."""
    header = ["unit", "pts", "target", "phase", "removed", "of", "P(any)", "removed/100 pts", "weapons or reason"]
    rows = []
    for r in frame.itertuples(index=False):
        error = str(r.error)
        if error:
            rows.append([str(r.unit), f"{r.points:.0f}", str(r.target), str(r.phase), "-", "", "-", "-", error])
            continue
        rows.append([
            str(r.unit), f"{r.points:.0f}", str(r.target), str(r.phase), f"{r.mean:.3f}", measure_noun(str(r.measure)),
            f"{r.p_any:.3f}", f"{r.per_100_pts:.3f}", str(r.weapons),
        ])  # fmt: skip
    return fit_table(header, rows, width, right=[1, 4, 6, 7], shrink={8: 12, 0: 20, 2: 12})
