"""Exact distribution of the models hit by blast markers (docs/rules.md#markers-and-templates).

Method. For a scatter distance ``d`` the marker's centre lies on the circle of radius ``d`` around
the aim point, at a uniform direction. Model ``j`` is hit when that centre is within
``R + r`` of its base centre: a set of directions that is an arc, whose ends solve
``A cos t + B sin t = C`` in closed form. All arc ends (and, with battlefield edges, the directions
where the centre crosses an edge) cut the circle into elementary intervals on which the outcome is
constant; the outcome is read at each interval's midpoint and weighted by its length / 2 pi. Summing
over the discrete 2D6 distance and the Hit faces gives the exact pmf: the only error is floating point.

Choices (documented contract):
    * A base touching the marker's rim is hit (tolerance ``TOL`` = 1e-9 inch).
    * A centre exactly on a battlefield edge is on the table; beyond it the marker misses entirely.
    * Default aim: the model whose centre, as the hole's position, gives the most expected hits
      (ties: lowest index); a :class:`Hull` is aimed at its centre.
    * Multiple Blasts: every shot aims at the same point and scatters on its own; hits add up.
    * Mega-blast: a model counts in the innermost zone it touches; the joint pmf over zones is exact.
    * Multiple Barrages and the Apocalyptic Barrage clover: see their functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Unpack

import numpy as np

from praetor_analysis.markers.formation import Edges, Formation, Hull
from praetor_analysis.markers.kinds import MEGA_BLAST_ZONES
from praetor_analysis.markers.options import MarkerFields, MarkerOptions
from praetor_analysis.markers.scatter import MAX_SCATTER, P_HIT, arrow_distance_pmf, resolve_scatter
from praetor_analysis.prob import BoundedMemo, convolve_power

__all__ = [
    "TOL",
    "best_aim",
    "marker_pmf",
    "mean_models_hit",
    "mega_blast_pmf",
]


TWO_PI = 2.0 * np.pi


#: Touching tolerance, inches.
TOL = 1e-9


Target = Formation | Hull


# --------------------------------------------------------------------------- geometry primitives
def cos_sin_roots(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """All angles ``t`` in [0, 2 pi) with ``a cos t + b sin t = c`` (arrays broadcast)."""
    a, b, c = (np.ravel(x) for x in np.broadcast_arrays(a, b, c))
    m = np.hypot(a, b)
    ok = (m > 0) & (np.abs(c) <= m)
    base = np.arctan2(b[ok], a[ok])
    h = np.arccos(np.clip(c[ok] / m[ok], -1.0, 1.0))
    return np.mod(np.concatenate([base - h, base + h]), TWO_PI)


def circle_circle(center: np.ndarray, d: float, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Angles of the points ``center + d u(t)`` at distance ``radii`` from ``centres``."""
    w = center[None, :] - np.asarray(centres).reshape(-1, 2)
    c = np.asarray(radii) ** 2 - d * d - (w**2).sum(axis=1)
    return cos_sin_roots(2 * d * w[:, 0], 2 * d * w[:, 1], c)


def edge_breaks(center: np.ndarray, d: float, edges: Edges | None) -> np.ndarray:
    """Angles where ``center + d u(t)`` crosses a battlefield edge."""
    if edges is None:
        return np.empty(0)
    out = []
    for value, axis in ((edges.xmin, 0), (edges.xmax, 0), (edges.ymin, 1), (edges.ymax, 1)):
        if np.isfinite(value):
            a, b = (d, 0.0) if axis == 0 else (0.0, d)
            out.append(cos_sin_roots(np.array(a), np.array(b), np.array(value - center[axis])))
    return np.concatenate(out) if out else np.empty(0)


def circle_cells(center: np.ndarray, d: float, breaks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Midpoints (as points) and weights (length / 2 pi) of the elementary intervals."""
    b = np.unique(np.concatenate([[0.0, TWO_PI], np.mod(breaks, TWO_PI)]))
    lengths = np.diff(b)
    keep = lengths > 0
    mids = 0.5 * (b[:-1] + b[1:])[keep]
    pts = center[None, :] + d * np.column_stack([np.cos(mids), np.sin(mids)])
    return pts, lengths[keep] / TWO_PI


def target_breaks(target: Target, radius: float, center: np.ndarray, d: float) -> np.ndarray:
    """Angles where a marker of ``radius`` centred on the circle starts/stops touching a model."""
    if isinstance(target, Hull):
        hl, hw = target.length / 2, target.width / 2
        corners = np.array([[hl, hw], [hl, -hw], [-hl, hw], [-hl, -hw]])
        lines = [cos_sin_roots(np.array(d), np.array(0.0), np.array(s * (hl + radius) - center[0])) for s in (-1, 1)]
        lines += [cos_sin_roots(np.array(0.0), np.array(d), np.array(s * (hw + radius) - center[1])) for s in (-1, 1)]
        return np.concatenate([*lines, circle_circle(center, d, corners, np.full(4, radius))])
    rho = np.full(target.n, radius + target.base_radius)
    return circle_circle(center, d, target.positions, rho)


def hit_matrix(target: Target, radius: float, points: np.ndarray) -> np.ndarray:
    """Boolean ``(m, n)``: model ``j`` touched by a marker of ``radius`` centred at ``points[i]``."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if isinstance(target, Hull):
        return (target.distance(pts) <= radius + TOL)[:, None]
    diff = pts[:, None, :] - target.positions[None, :, :]
    return np.hypot(diff[..., 0], diff[..., 1]) <= radius + target.base_radius + TOL


# --------------------------------------------------------------------------- generic placement
Classifier = Callable[[np.ndarray], np.ndarray]


def _scatter_tables(
    center: np.ndarray,
    dist_pmf: np.ndarray,
    breaks: Callable[[np.ndarray, float], np.ndarray],
    classify: Classifier,
    size: int,
    edges: Edges | None,
) -> tuple[np.ndarray, np.ndarray]:
    """Outcome pmf at the aim point and, per arrow distance, the exact pmf over directions.

    ``classify`` maps points ``(m, 2)`` to integer outcome codes in ``[0, size)``; code 0 must mean
    "nothing hit" (used for a centre beyond an edge).
    """

    def codes_at(pts: np.ndarray) -> np.ndarray:
        codes = np.asarray(classify(pts), dtype=np.int64)
        if edges is not None:
            codes = np.where(edges.contains(pts), codes, 0)
        return codes

    at_aim = np.zeros(size)
    at_aim[codes_at(center[None, :])[0]] = 1.0
    arrow = np.zeros((MAX_SCATTER + 1, size))
    for d in range(MAX_SCATTER + 1):
        if dist_pmf[d] == 0.0:
            continue
        if d == 0:
            arrow[0] = at_aim
            continue
        br = np.concatenate([breaks(center, float(d)), edge_breaks(center, float(d), edges)])
        pts, w = circle_cells(center, float(d), br)
        arrow[d] = np.bincount(codes_at(pts), weights=w, minlength=size)
    return at_aim, arrow


def _single_marker(target: Target, diameter: float, center: np.ndarray, opts: MarkerOptions) -> np.ndarray:
    at_aim, arrow = _marker_tables(target, diameter / 2.0, center, opts.edges)
    return resolve_scatter(at_aim, arrow, opts.distance_pmf(), twin_linked=opts.twin_linked)


_TABLES: BoundedMemo[tuple[np.ndarray, np.ndarray]] = BoundedMemo(4096)
_EVERY_DISTANCE = np.ones(MAX_SCATTER + 1)


def _marker_tables(
    target: Target, radius: float, center: np.ndarray, edges: Edges | None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_scatter_tables` of one marker at every distance (read-only arrays): they do not read the BS, so
    they are remembered by the target, the marker, the aim point and the edges, and a change of BS, Twin-linked
    or indirect fire only mixes them anew (a distance the scatter cannot reach weighs exactly 0)."""
    where = (target.positions.tobytes(), target.base_radius) if isinstance(target, Formation) else target
    key = (where, radius, np.asarray(center, dtype=np.float64).tobytes(), edges)

    def build() -> tuple[np.ndarray, np.ndarray]:
        at_aim, arrow = _scatter_tables(
            center,
            _EVERY_DISTANCE,
            lambda c, d: target_breaks(target, radius, c, d),
            lambda pts: hit_matrix(target, radius, pts).sum(axis=1),
            target.n + 1,
            edges,
        )
        at_aim.setflags(write=False)
        arrow.setflags(write=False)
        return at_aim, arrow

    return _TABLES.get(key, build)


def _closed_form_means(target: Formation, radius: float, bs: int, indirect: bool) -> np.ndarray:
    """Expected models hit for every model centre as aim point (no edges, no twin-link)."""
    pos = target.positions
    rho = radius + target.base_radius
    dist = np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))  # (aim, model)
    w = arrow_distance_pmf(bs, indirect)
    at_aim = (dist <= rho + TOL).sum(axis=1).astype(float)
    arrow = np.zeros(len(pos))
    for d in range(MAX_SCATTER + 1):
        if w[d] == 0.0:
            continue
        if d == 0:
            arrow += w[d] * at_aim
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            c = (d * d + dist**2 - rho**2) / (2.0 * d * dist)
        frac = np.where(dist == 0.0, float(d <= rho), np.arccos(np.clip(c, -1.0, 1.0)) / np.pi)
        arrow += w[d] * frac.sum(axis=1)
    return P_HIT * at_aim + (1.0 - P_HIT) * arrow


def argmax_first(values: np.ndarray) -> int:
    """Index of the largest value; ties (within 1e-12) go to the lowest index."""
    values = np.asarray(values, dtype=float)
    return int(np.flatnonzero(values >= values.max() - 1e-12)[0])


def best_aim(
    target: Target,
    diameter: float = 3.0,
    options: MarkerOptions | None = None,
    **fields: Unpack[MarkerFields],
) -> int:
    """Index of the model whose centre, as the aim point, gives the most expected models hit.

    Ties go to the lowest index. A hull (one model) returns 0. ``options`` (or its keyword ``fields``):
    :class:`MarkerOptions`; ``aim`` and ``aim_point`` are not read.
    """
    opts = MarkerOptions.of(options, fields)
    if isinstance(target, Hull) or target.n <= 1:
        return 0
    if opts.edges is None and not opts.twin_linked:
        return argmax_first(_closed_form_means(target, diameter / 2.0, opts.bs, opts.indirect))
    means = [pmf_mean(_single_marker(target, diameter, target.positions[i], opts)) for i in range(target.n)]
    return argmax_first(np.array(means))


def pmf_mean(pmf: np.ndarray) -> float:
    return float(np.dot(np.arange(len(pmf)), pmf))


def choose_aim_point(target: Target, opts: MarkerOptions, chooser: Callable[[], int]) -> np.ndarray:
    """The hole's position: ``opts.aim_point``, else the centre of model ``opts.aim``, else of ``chooser()``."""
    if opts.aim_point is not None:
        return np.asarray(opts.aim_point, dtype=np.float64).reshape(2)
    if isinstance(target, Hull):
        return np.zeros(2)
    if target.n == 0:
        return np.zeros(2)
    idx = chooser() if opts.aim is None else int(opts.aim)
    if not 0 <= idx < target.n:
        raise ValueError(f"aim model {idx} out of range 0..{target.n - 1}")
    return target.positions[idx].copy()


# --------------------------------------------------------------------------- public: blasts
def marker_pmf(
    target: Target,
    diameter: float = 3.0,
    options: MarkerOptions | None = None,
    *,
    shots: int = 1,
    **fields: Unpack[MarkerFields],
) -> np.ndarray:
    """Exact pmf of the models hit by ``shots`` blast markers (Multiple Blasts add up).

    Args:
        target: a :class:`Formation` or a vehicle :class:`Hull`.
        diameter: marker diameter, inches (see :data:`~praetor_analysis.markers.kinds.MARKER_DIAMETERS`).
        options: how the marker is fired (:class:`MarkerOptions`: BS, indirect, Twin-linked, aim, aim point,
            edges); the default aim is :func:`best_aim`.
        shots: number of markers, each scattering on its own.
        **fields: the options as keywords instead (``bs=4, aim=0``...).

    Returns:
        ``pmf[k]`` = P(k hits in total), length ``shots * n + 1``.
    """
    if shots < 0:
        raise ValueError(f"shots must be >= 0, got {shots}")
    opts = MarkerOptions.of(options, fields)
    if target.n == 0:
        return np.array([1.0])
    center = choose_aim_point(target, opts, lambda: best_aim(target, diameter, opts))
    one = _single_marker(target, diameter, center, opts)
    return convolve_power(one, shots)


def mean_models_hit(
    target: Target, diameter: float = 3.0, options: MarkerOptions | None = None, **fields: Unpack[MarkerFields]
) -> float:
    """Exact mean number of models hit by one marker (the options as for :func:`marker_pmf`)."""
    return pmf_mean(marker_pmf(target, diameter, options, **fields))


def mega_blast_pmf(
    target: Target,
    zones: tuple[float, float, float] = MEGA_BLAST_ZONES,
    options: MarkerOptions | None = None,
    *,
    shots: int = 1,
    **fields: Unpack[MarkerFields],
) -> np.ndarray:
    """Exact joint pmf of models hit per Mega-blast zone.

    A model touching several zones counts in the innermost. Returns a 3-D array ``p[i, j, k]`` =
    P(i models in the inner zone, j in the middle, k in the outer), each axis of length
    ``shots * n + 1``. Twin-linked re-rolls and the default aim maximise the total models hit.
    ``options`` (or its keyword ``fields``) as for :func:`marker_pmf`.
    """
    opts = MarkerOptions.of(options, fields)
    n = target.n
    radii = np.asarray(zones, dtype=float) / 2.0
    if n == 0:
        return np.ones((1, 1, 1))
    m = n + 1

    def classify(pts: np.ndarray) -> np.ndarray:
        c = [hit_matrix(target, r, pts).sum(axis=1) for r in radii]
        return (c[0] * m + (c[1] - c[0])) * m + (c[2] - c[1])

    def breaks(c: np.ndarray, d: float) -> np.ndarray:
        return np.concatenate([target_breaks(target, r, c, d) for r in radii])

    center = choose_aim_point(target, opts, lambda: best_aim(target, float(zones[2]), opts))
    w = opts.distance_pmf()
    at_aim, arrow = _scatter_tables(center, w, breaks, classify, m**3, opts.edges)
    one = resolve_scatter(at_aim.reshape(m, m, m), arrow.reshape(-1, m, m, m), w, twin_linked=opts.twin_linked)
    return convolve_power(one, shots)
