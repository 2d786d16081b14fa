"""Blast markers, Barrage and Templates in the 3rd edition, exactly (docs/rules-hh3.md#markers-and-templates).

The geometry is the 2nd edition's (``markers.blasts``: a model is hit when its base touches the marker; for a
scatter distance ``d`` the centre runs over a circle, cut into exact arcs where a base starts or stops touching);
only the scatter law and the counting change:

- Blast (X): one marker and one Hit Test per point of Firepower. The hole goes over one model (the aim). A
  successful test hits every model under the marker where it lies; a failed one scatters the marker D6" (1..6,
  uniform; the 3rd edition's Hit face also carries a direction, so it always moves) in a uniform direction, and
  it hits every model it then covers. Every hit of one marker shares its test's result (critical, rending...).
- Barrage (X) fired indirectly: no Hit Test; the scatter die's Hit face (2 of 6) keeps the marker in place, an
  arrow moves it X D6" (``Barrage (0)``: it stays).
- Template: no Hit Test; FP hits for each model the template touches (placement as in ``markers.templates``).

The outcome of one marker is a pmf over the models hit where it lies (:attr:`BlastLaw.on_hit`) and after a
scatter (:attr:`BlastLaw.on_miss`); :func:`marker_hits_by_class` joins them with the Hit Test's classes over
every marker of the attack. Nothing is sampled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from praetor_analysis.markers.blasts import (
    Target,
    argmax_first,
    circle_cells,
    edge_breaks,
    hit_matrix,
    pmf_mean,
    target_breaks,
)
from praetor_analysis.markers.formation import Edges, Formation, Hull
from praetor_analysis.markers.scatter import P_HIT
from praetor_analysis.markers.templates import FLAME_TEMPLATE, HELLSTORM_TEMPLATE, firer_sides, place_template
from praetor_analysis.prob import BoundedMemo, Dist, convolve, convolve_power

__all__ = [
    "BlastLaw",
    "barrage_hh3",
    "blast_hh3",
    "direct_scatter_pmf",
    "hull_hit_probability",
    "indirect_scatter_pmf",
    "marker_hits_by_class",
    "scatter_tables",
    "template_hits_hh3",
    "template_touched",
]


def direct_scatter_pmf() -> np.ndarray:
    """P(a missed Blast marker moves d inches), d = 0..6: one D6, never 0."""
    out = np.full(7, 1.0 / 6.0)
    out[0] = 0.0
    return out


def indirect_scatter_pmf(dice: int) -> np.ndarray:
    """P(an indirect Barrage (``dice``) marker moves d inches), d = 0..6 x dice: the Hit face (2 of 6) stays,
    an arrow moves it ``dice`` D6 (``dice`` 0: it always stays)."""
    if dice < 0:
        raise ValueError(f"Barrage dice must be >= 0, got {dice}")
    one = direct_scatter_pmf()
    moved = convolve_power(one, dice)
    out = (1.0 - P_HIT) * moved
    out[0] += P_HIT
    return out


_TABLES: BoundedMemo[tuple[np.ndarray, np.ndarray]] = BoundedMemo(2048)


def scatter_tables(
    target: Target, radius: float, center: np.ndarray, max_distance: int, edges: Edges | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Models hit by a marker of ``radius`` centred on ``center`` (``at_aim``, a pmf over 0..n) and, for every
    whole distance d = 0..``max_distance``, the exact pmf over a uniform direction (``arrow[d]``). A centre
    beyond a battlefield edge hits nothing. Read-only arrays, remembered per target, marker, aim and edges."""
    where = (target.positions.tobytes(), target.base_radius) if isinstance(target, Formation) else target
    key = (where, float(radius), np.asarray(center, dtype=np.float64).tobytes(), int(max_distance), edges)

    def codes(pts: np.ndarray) -> np.ndarray:
        counts = hit_matrix(target, radius, pts).sum(axis=1)
        return counts if edges is None else np.where(edges.contains(pts), counts, 0)

    def build() -> tuple[np.ndarray, np.ndarray]:
        size = target.n + 1
        c = np.asarray(center, dtype=np.float64).reshape(2)
        at_aim = np.bincount(codes(c[None, :]), minlength=size).astype(np.float64)
        distances = range(1, max_distance + 1)
        touching = _formation_breaks(target, radius, c, distances) if isinstance(target, Formation) else None
        cells = []
        for i, d in enumerate(distances):
            br = touching[i] if touching is not None else target_breaks(target, radius, c, float(d))
            cells.append(circle_cells(c, float(d), np.concatenate([br, edge_breaks(c, float(d), edges)])))
        # every distance's cells classified at once; each distance's weights summed in its own bins
        arrow = np.zeros((max_distance + 1, size))
        if cells:
            pts = np.concatenate([p for p, _ in cells])
            starts = [d * size for d in distances]
            bins = np.concatenate([np.full(len(p), b, dtype=np.intp) for b, (p, _) in zip(starts, cells, strict=True)])
            weights = np.concatenate([w for _, w in cells])
            summed = np.bincount(bins + codes(pts), weights=weights, minlength=arrow.size)
            arrow = np.asarray(summed, dtype=np.float64).reshape(arrow.shape)
        arrow[0] = at_aim
        at_aim.setflags(write=False)
        arrow.setflags(write=False)
        return at_aim, arrow

    return _TABLES.get(key, build)


def _formation_breaks(target: Formation, radius: float, center: np.ndarray, distances: range) -> list[np.ndarray]:
    """:func:`~praetor_analysis.markers.blasts.target_breaks` of a formation at every distance, the roots computed
    for all distances at once (the same arithmetic per distance: the same angles)."""
    rho = np.full(target.n, radius + target.base_radius)
    w = center[None, :] - target.positions.reshape(-1, 2)
    out = []
    d = np.asarray(distances, dtype=np.float64)[:, None]
    a, b = 2 * d * w[None, :, 0], 2 * d * w[None, :, 1]
    c = rho[None, :] ** 2 - d * d - (w**2).sum(axis=1)[None, :]
    m = np.hypot(a, b)
    ok = (m > 0) & (np.abs(c) <= m)
    for i in range(len(distances)):
        row = ok[i]
        base = np.arctan2(b[i][row], a[i][row])
        h = np.arccos(np.clip(c[i][row] / m[i][row], -1.0, 1.0))
        out.append(np.mod(np.concatenate([base - h, base + h]), 2.0 * np.pi))
    return out


@dataclass(frozen=True)
class BlastLaw:
    """One marker's models hit: where it lies (``on_hit``) and after its scatter (``on_miss``), pmfs over 0..n.

    Attributes:
        on_hit: the Hit Test succeeded (for an indirect Barrage: the pmf of the whole scatter, no test).
        on_miss: the Hit Test failed and the marker scattered.
        aim: the model the hole was placed over (None for an explicit point or a hull).
    """

    on_hit: np.ndarray
    on_miss: np.ndarray
    aim: int | None

    def pmf(self, p_test: float) -> np.ndarray:
        """Models hit by the marker when its Hit Test succeeds with probability ``p_test``."""
        return p_test * self.on_hit + (1.0 - p_test) * self.on_miss


def _aim_centres(
    target: Target, aim: int | None, aim_point: tuple[float, float] | None
) -> list[tuple[int | None, np.ndarray]]:
    if aim_point is not None:
        return [(None, np.asarray(aim_point, dtype=np.float64).reshape(2))]
    if isinstance(target, Hull) or target.n == 0:
        return [(None, np.zeros(2))]
    if aim is not None:
        if not 0 <= aim < target.n:
            raise ValueError(f"aim model {aim} out of range 0..{target.n - 1}")
        return [(aim, target.positions[aim].copy())]
    return [(i, target.positions[i].copy()) for i in range(target.n)]


def _best(laws: list[BlastLaw], p_test: float) -> BlastLaw:
    """The aim with the most expected models hit (ties: the lowest index)."""
    return laws[argmax_first(np.array([pmf_mean(law.pmf(p_test)) for law in laws]))]


def blast_hh3(
    target: Target,
    diameter: float,
    *,
    p_test: float = 0.5,
    aim: int | None = None,
    aim_point: tuple[float, float] | None = None,
    edges: Edges | None = None,
) -> BlastLaw:
    """One Blast (X) marker fired with a Hit Test: the hole over model ``aim`` (default: the model giving the most
    expected hits when the test succeeds with ``p_test``), or over ``aim_point``; a miss scatters D6". Memoised
    on the target's bases, the marker, the test and the aim (the law is shared: read it, never change it)."""

    def build() -> BlastLaw:
        scatter = direct_scatter_pmf()
        laws = []
        for index, centre in _aim_centres(target, aim, aim_point):
            at_aim, arrow = scatter_tables(target, diameter / 2.0, centre, scatter.size - 1, edges)
            laws.append(BlastLaw(at_aim, _frozen(scatter @ arrow), index))
        return _best(laws, p_test)

    key = ("blast", _where(target), float(diameter), float(p_test), aim, aim_point, edges)
    return _LAWS.get(key, build)


def barrage_hh3(
    target: Target,
    diameter: float,
    dice: int,
    *,
    aim: int | None = None,
    aim_point: tuple[float, float] | None = None,
    edges: Edges | None = None,
) -> BlastLaw:
    """One Blast marker of a Barrage (``dice``) weapon fired indirectly: no Hit Test; ``on_hit`` (= ``on_miss``)
    is the pmf of the models hit after the Indirect Scatter Roll; the default aim gives the most expected hits.
    Memoised as :func:`blast_hh3`."""

    def build() -> BlastLaw:
        scatter = indirect_scatter_pmf(dice)
        laws = []
        for index, centre in _aim_centres(target, aim, aim_point):
            _, arrow = scatter_tables(target, diameter / 2.0, centre, scatter.size - 1, edges)
            pmf = _frozen(scatter @ arrow)
            laws.append(BlastLaw(pmf, pmf, index))
        return _best(laws, 1.0)

    key = ("barrage", _where(target), float(diameter), int(dice), aim, aim_point, edges)
    return _LAWS.get(key, build)


_LAWS: BoundedMemo[BlastLaw] = BoundedMemo(2048)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _where(target: Target) -> object:
    """The memo key of a target's bases (a Formation holds an array: its bytes, shape and base)."""
    if isinstance(target, Formation):
        return (target.positions.shape, target.positions.tobytes(), target.base_radius)
    return target


def marker_hits_by_class(
    law: BlastLaw, test: Mapping[str, float], markers: int, *, scattered: str = "hit", p_miss: float | None = None
) -> tuple[tuple[str, ...], np.ndarray]:
    """The joint pmf of the hits of ``markers`` independent markers, split by the class of their Hit Test.

    Args:
        law: one marker's :class:`BlastLaw`.
        test: P(the Hit Test succeeds with each class), e.g. ``{"hit": 0.5, "critical": 1/6}``; the rest is a miss.
        markers: markers fired (one per point of Firepower).
        scattered: the class of the hits of a scattered marker (a plain hit).
        p_miss: P(the test fails); default the rest of ``test``'s mass. A smaller one gives a sub-distribution
            (the markers given some condition on their dice, e.g. no natural 5 or 6).

    Returns:
        ``(classes, joint)``: ``joint[k1, k2, ...]`` = P(k1 hits of ``classes[0]``, ...), every hit of one marker
        in the class of its test.
    """
    classes: tuple[str, ...] = tuple(dict.fromkeys([*test, scattered]))
    if p_miss is None:
        p_miss = 1.0 - sum(test.values())
    if p_miss < -1e-12:
        raise ValueError(f"Hit Test classes sum above 1: {dict(test)}")
    size = law.on_hit.size
    one = np.zeros((size,) * len(classes))
    for axis, name in enumerate(classes):
        index = [0] * len(classes)
        for k in range(size):
            index[axis] = k
            one[tuple(index)] += test.get(name, 0.0) * law.on_hit[k]
            if name == scattered:
                one[tuple(index)] += max(p_miss, 0.0) * law.on_miss[k]
    out = np.ones((1,) * len(classes))
    for _ in range(markers):
        out = convolve(out, one)
    return classes, out


def template_hits_hh3(models_touched: int, firepower: Dist | int, templates: int = 1) -> Dist:
    """Hits of ``templates`` Template weapons, each touching ``models_touched`` models: FP hits per model touched
    (FP a count, or its distribution per weapon, rolled for each)."""
    fp = Dist.point(firepower) if isinstance(firepower, int) else firepower
    per = np.zeros(fp.max * models_touched + 1)
    for k, p in enumerate(fp.probabilities):
        per[k * models_touched] += p
    return Dist.from_trusted(convolve_power(per, templates))


def hull_hit_probability(law: BlastLaw) -> tuple[float, float]:
    """(P(the hull is under the marker where it lies), P(it is under the scattered marker)) for a one-model target."""
    return float(law.on_hit[1:].sum()), float(law.on_miss[1:].sum())


def template_touched(target: Formation, firer_distance: float, *, hellstorm: bool = False) -> tuple[int, str]:
    """(models one template touches, the side of the unit it is fired from): placed from whichever side of the
    unit's bounding box covers the most (ties: the front), turned about the firer exactly (``markers.templates``).
    Memoised on the formation's bases (their bytes), the distance and the template."""
    key = (target.positions.shape, target.positions.tobytes(), target.base_radius, firer_distance, hellstorm)
    return _TOUCHED.get(key, lambda: _touched(target, firer_distance, hellstorm))


_TOUCHED: BoundedMemo[tuple[int, str]] = BoundedMemo(1024)


def _touched(target: Formation, firer_distance: float, hellstorm: bool) -> tuple[int, str]:
    shape = HELLSTORM_TEMPLATE if hellstorm else FLAME_TEMPLATE
    best: tuple[int, str] | None = None
    for side, firer in firer_sides(target, firer_distance):
        placement = place_template(target, firer, shape=shape)
        if best is None or placement.hits > best[0]:
            best = (placement.hits, side)
    assert best is not None
    return best
