"""Exact distribution of the models hit by blast markers (MECHANICS.md section 6).

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

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from .formation import Edges, Formation, Hull
from .scatter import MAX_SCATTER, P_HIT, arrow_distance_pmf, resolve_scatter

__all__ = [
    "MARKER_DIAMETERS",
    "MEGA_BLAST_ZONES",
    "TOL",
    "marker_pmf",
    "mean_models_hit",
    "best_aim",
    "mega_blast_pmf",
    "BarragePmf",
    "multiple_barrage_pmf",
    "CloverLayout",
    "DEFAULT_CLOVER",
    "apocalyptic_barrage_pmf",
]

TWO_PI = 2.0 * np.pi
#: Marker diameters in inches.
MARKER_DIAMETERS = {"blast": 3.0, "large": 5.0, "massive": 7.0, "apocalyptic": 10.0}
#: Apocalyptic Mega-blast zone diameters (inner, middle, outer), inches.
MEGA_BLAST_ZONES = (5.0, 7.0, 10.0)
#: Touching tolerance, inches.
TOL = 1e-9

Target = Formation | Hull
EdgesLike = Edges | dict | None


# --------------------------------------------------------------------------- geometry primitives
def _cos_sin_roots(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """All angles ``t`` in [0, 2 pi) with ``a cos t + b sin t = c`` (arrays broadcast)."""
    a, b, c = (np.ravel(x) for x in np.broadcast_arrays(a, b, c))
    m = np.hypot(a, b)
    ok = (m > 0) & (np.abs(c) <= m)
    base = np.arctan2(b[ok], a[ok])
    h = np.arccos(np.clip(c[ok] / m[ok], -1.0, 1.0))
    return np.mod(np.concatenate([base - h, base + h]), TWO_PI)


def _circle_circle(center: np.ndarray, d: float, centres: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Angles of the points ``center + d u(t)`` at distance ``radii`` from ``centres``."""
    w = center[None, :] - np.asarray(centres).reshape(-1, 2)
    c = np.asarray(radii) ** 2 - d * d - (w**2).sum(axis=1)
    return _cos_sin_roots(2 * d * w[:, 0], 2 * d * w[:, 1], c)


def _edge_breaks(center: np.ndarray, d: float, edges: Edges | None) -> np.ndarray:
    """Angles where ``center + d u(t)`` crosses a battlefield edge."""
    if edges is None:
        return np.empty(0)
    out = []
    for value, axis in ((edges.xmin, 0), (edges.xmax, 0), (edges.ymin, 1), (edges.ymax, 1)):
        if np.isfinite(value):
            a, b = (d, 0.0) if axis == 0 else (0.0, d)
            out.append(_cos_sin_roots(np.array(a), np.array(b), np.array(value - center[axis])))
    return np.concatenate(out) if out else np.empty(0)


def _circle_cells(center: np.ndarray, d: float, breaks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Midpoints (as points) and weights (length / 2 pi) of the elementary intervals."""
    b = np.unique(np.concatenate([[0.0, TWO_PI], np.mod(breaks, TWO_PI)]))
    lengths = np.diff(b)
    keep = lengths > 0
    mids = 0.5 * (b[:-1] + b[1:])[keep]
    pts = center[None, :] + d * np.column_stack([np.cos(mids), np.sin(mids)])
    return pts, lengths[keep] / TWO_PI


def _target_breaks(target: Target, radius: float, center: np.ndarray, d: float) -> np.ndarray:
    """Angles where a marker of ``radius`` centred on the circle starts/stops touching a model."""
    if isinstance(target, Hull):
        hl, hw = target.length / 2, target.width / 2
        corners = np.array([[hl, hw], [hl, -hw], [-hl, hw], [-hl, -hw]])
        lines = [_cos_sin_roots(np.array(d), np.array(0.0), np.array(s * (hl + radius) - center[0]))
                 for s in (-1, 1)]
        lines += [_cos_sin_roots(np.array(0.0), np.array(d), np.array(s * (hw + radius) - center[1]))
                  for s in (-1, 1)]
        return np.concatenate(lines + [_circle_circle(center, d, corners, np.full(4, radius))])
    rho = np.full(target.n, radius + target.base_radius)
    return _circle_circle(center, d, target.positions, rho)


def _hit_matrix(target: Target, radius: float, points: np.ndarray) -> np.ndarray:
    """Boolean ``(m, n)``: model ``j`` touched by a marker of ``radius`` centred at ``points[i]``."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if isinstance(target, Hull):
        return (target.distance(pts) <= radius + TOL)[:, None]
    diff = pts[:, None, :] - target.positions[None, :, :]
    return np.hypot(diff[..., 0], diff[..., 1]) <= radius + target.base_radius + TOL


def _as_edges(edges: EdgesLike) -> Edges | None:
    return Edges.from_dict(edges) if isinstance(edges, dict) else edges


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
        br = np.concatenate([breaks(center, float(d)), _edge_breaks(center, float(d), edges)])
        pts, w = _circle_cells(center, float(d), br)
        arrow[d] = np.bincount(codes_at(pts), weights=w, minlength=size)
    return at_aim, arrow


def _single_marker(
    target: Target, diameter: float, center: np.ndarray, bs: int, indirect: bool,
    twin_linked: bool, edges: Edges | None,
) -> np.ndarray:
    radius = diameter / 2.0
    n = target.n
    at_aim, arrow = _scatter_tables(
        center, arrow_distance_pmf(bs, indirect),
        lambda c, d: _target_breaks(target, radius, c, d),
        lambda pts: _hit_matrix(target, radius, pts).sum(axis=1),
        n + 1, edges)
    return resolve_scatter(at_aim, arrow, arrow_distance_pmf(bs, indirect), twin_linked=twin_linked)


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


def _argmax_first(values: np.ndarray) -> int:
    """Index of the largest value; ties (within 1e-12) go to the lowest index."""
    values = np.asarray(values, dtype=float)
    return int(np.flatnonzero(values >= values.max() - 1e-12)[0])


def best_aim(
    target: Target, diameter: float = 3.0, *, bs: int = 0, indirect: bool = False,
    twin_linked: bool = False, edges: EdgesLike = None,
) -> int:
    """Index of the model whose centre, as the aim point, gives the most expected models hit.

    Ties go to the lowest index. A hull (one model) returns 0.
    """
    edges = _as_edges(edges)
    if isinstance(target, Hull) or target.n <= 1:
        return 0
    if edges is None and not twin_linked:
        return _argmax_first(_closed_form_means(target, diameter / 2.0, bs, indirect))
    means = [_mean(_single_marker(target, diameter, target.positions[i], bs, indirect,
                                  twin_linked, edges)) for i in range(target.n)]
    return _argmax_first(np.array(means))


def _mean(pmf: np.ndarray) -> float:
    return float(np.dot(np.arange(len(pmf)), pmf))


def _aim_point(target: Target, aim: int | None, aim_point, chooser: Callable[[], int]) -> np.ndarray:
    if aim_point is not None:
        return np.asarray(aim_point, dtype=np.float64).reshape(2)
    if isinstance(target, Hull):
        return np.zeros(2)
    if target.n == 0:
        return np.zeros(2)
    idx = chooser() if aim is None else int(aim)
    if not 0 <= idx < target.n:
        raise ValueError(f"aim model {idx} out of range 0..{target.n - 1}")
    return target.positions[idx].copy()


def _conv_power(pmf: np.ndarray, k: int) -> np.ndarray:
    out = np.array([1.0])
    for _ in range(k):
        out = np.convolve(out, pmf)
    return out


# --------------------------------------------------------------------------- public: blasts
def marker_pmf(
    target: Target,
    diameter: float = 3.0,
    *,
    bs: int = 0,
    indirect: bool = False,
    twin_linked: bool = False,
    aim: int | None = None,
    aim_point: tuple[float, float] | None = None,
    edges: EdgesLike = None,
    shots: int = 1,
) -> np.ndarray:
    """Exact pmf of the models hit by ``shots`` blast markers (Multiple Blasts add up).

    Args:
        target: a :class:`Formation` or a vehicle :class:`Hull`.
        diameter: marker diameter, inches (see :data:`MARKER_DIAMETERS`).
        bs: firer's Ballistic Skill, subtracted from the 2D6 (ignored when ``indirect``).
        indirect: indirect Barrage, full 2D6 scatter.
        twin_linked: re-roll the scatter when no Hit and the landing is worse than a fresh roll's mean.
        aim: index of the model the hole is placed over; default :func:`best_aim`.
        aim_point: explicit hole position (inches); overrides ``aim``.
        edges: battlefield limits (:class:`Edges` or the SCENARIO.md dict); beyond one = miss.
        shots: number of markers, each scattering on its own.

    Returns:
        ``pmf[k]`` = P(k hits in total), length ``shots * n + 1``.
    """
    if shots < 0:
        raise ValueError(f"shots must be >= 0, got {shots}")
    edges = _as_edges(edges)
    if target.n == 0:
        return np.array([1.0])
    center = _aim_point(target, aim, aim_point, lambda: best_aim(
        target, diameter, bs=bs, indirect=indirect, twin_linked=twin_linked, edges=edges))
    one = _single_marker(target, diameter, center, bs, indirect, twin_linked, edges)
    return _conv_power(one, shots)


def mean_models_hit(target: Target, diameter: float = 3.0, **kwargs) -> float:
    """Exact mean number of models hit (same arguments as :func:`marker_pmf`)."""
    return _mean(marker_pmf(target, diameter, **kwargs))


def mega_blast_pmf(
    target: Target,
    zones: tuple[float, float, float] = MEGA_BLAST_ZONES,
    *,
    bs: int = 0,
    indirect: bool = False,
    twin_linked: bool = False,
    aim: int | None = None,
    aim_point: tuple[float, float] | None = None,
    edges: EdgesLike = None,
    shots: int = 1,
) -> np.ndarray:
    """Exact joint pmf of models hit per Mega-blast zone.

    A model touching several zones counts in the innermost. Returns a 3-D array ``p[i, j, k]`` =
    P(i models in the inner zone, j in the middle, k in the outer), each axis of length
    ``shots * n + 1``. Twin-linked re-rolls and the default aim maximise the total models hit.
    """
    edges = _as_edges(edges)
    n = target.n
    radii = np.asarray(zones, dtype=float) / 2.0
    if n == 0:
        return np.ones((1, 1, 1))
    m = n + 1

    def classify(pts: np.ndarray) -> np.ndarray:
        c = [_hit_matrix(target, r, pts).sum(axis=1) for r in radii]
        return (c[0] * m + (c[1] - c[0])) * m + (c[2] - c[1])

    def breaks(c: np.ndarray, d: float) -> np.ndarray:
        return np.concatenate([_target_breaks(target, r, c, d) for r in radii])

    center = _aim_point(target, aim, aim_point, lambda: best_aim(
        target, float(zones[2]), bs=bs, indirect=indirect, twin_linked=twin_linked, edges=edges))
    w = arrow_distance_pmf(bs, indirect)
    at_aim, arrow = _scatter_tables(center, w, breaks, classify, m**3, edges)
    one = resolve_scatter(at_aim.reshape(m, m, m), arrow.reshape(-1, m, m, m), w,
                          twin_linked=twin_linked)
    out = np.ones((1, 1, 1))
    for _ in range(shots):
        out = _convolve3(out, one)
    return out


def _convolve3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Direct 3-D convolution of two pmfs (no FFT, tails keep their precision)."""
    out = np.zeros(tuple(x + y - 1 for x, y in zip(a.shape, b.shape)))
    for idx in zip(*np.nonzero(a)):
        i, j, k = idx
        out[i:i + b.shape[0], j:j + b.shape[1], k:k + b.shape[2]] += a[idx] * b
    return out


# --------------------------------------------------------------------------- multiple barrages
class BarragePmf(NamedTuple):
    """A pmf obtained by numerical integration over the first marker's direction.

    Attributes:
        pmf: ``pmf[k]`` = P(k hits in total).
        error_bound: bound on ``max_k |pmf[k] - exact[k]|`` (see :func:`multiple_barrage_pmf`).
    """

    pmf: np.ndarray
    error_bound: float


def _best_touching_count(f: Formation, radius: float, centres: np.ndarray,
                         edges: Edges | None) -> np.ndarray:
    """Most models one marker can hit when its centre is within ``2 radius`` of each centre.

    The maximum depth of the arrangement of discs (radius ``radius + r`` around the models)
    inside the reachable disc is attained at one of: a pairwise intersection of model circles,
    an intersection of a model circle with the reachable circle, or the point of a model disc
    nearest the first marker's centre. All are tested (with edges, only points on the table).
    """
    pos, rho, s = f.positions, radius + f.base_radius, 2.0 * radius
    n = f.n
    cand = []
    # Pairwise intersections of model circles (fixed points).
    i, j = np.triu_indices(n, 1)
    dv = pos[j] - pos[i]
    dd = np.hypot(dv[:, 0], dv[:, 1])
    ok = (dd > 0) & (dd <= 2 * rho)
    if ok.any():
        mid = 0.5 * (pos[i][ok] + pos[j][ok])
        h = np.sqrt(np.maximum(rho**2 - (dd[ok] / 2) ** 2, 0.0))
        perp = np.column_stack([-dv[ok, 1], dv[ok, 0]]) / dd[ok, None]
        fixed = np.concatenate([mid + h[:, None] * perp, mid - h[:, None] * perp])
        cand.append(np.broadcast_to(fixed[None], (len(centres),) + fixed.shape))
    # Nearest points of each model disc to the centre, and the centre itself.
    v = centres[:, None, :] - pos[None, :, :]
    dist = np.hypot(v[..., 0], v[..., 1])
    scale = np.where(dist > rho, rho / np.where(dist > 0, dist, 1.0), 1.0)
    cand.append(pos[None] + v * scale[..., None])
    # Model circles meet the reachable circle.
    a = (dist**2 + s**2 - rho**2) / (2 * np.where(dist > 0, dist, 1.0))
    hh = np.sqrt(np.maximum(s**2 - a**2, 0.0))
    meet = (dist > 0) & (np.abs(a) <= s)
    u = -v / np.where(dist > 0, dist, 1.0)[..., None]
    base = centres[:, None, :] + a[..., None] * u
    perp = np.stack([-u[..., 1], u[..., 0]], axis=-1)
    for sign in (1.0, -1.0):
        pts = base + sign * hh[..., None] * perp
        cand.append(np.where(meet[..., None], pts, centres[:, None, :]))
    pts = np.concatenate(cand, axis=1)  # (m, c, 2)
    reach = np.hypot(*(pts - centres[:, None, :]).transpose(2, 0, 1)) <= s + TOL
    if edges is not None:
        reach &= edges.contains(pts, TOL)
    dpt = pts[:, :, None, :] - pos[None, None, :, :]
    depth = (np.hypot(dpt[..., 0], dpt[..., 1]) <= rho + TOL).sum(axis=2)
    return np.where(reach, depth, 0).max(axis=1)


def _barrage_conditional(f: Formation, radius: float, centres: np.ndarray, markers: int,
                         edges: Edges | None, first: np.ndarray | None = None) -> np.ndarray:
    """Pmf of the whole group's hits given the first marker's centre, one row per centre.

    ``first`` overrides the first marker's own count (known constant on a piece of the circle).
    """
    n = f.n
    size = markers * n + 1
    if first is None:
        first = _hit_matrix(f, radius, centres).sum(axis=1)
        if edges is not None:
            first = np.where(edges.contains(centres), first, 0)
    best = _best_touching_count(f, radius, centres, edges)
    rows = np.zeros((len(centres), size))
    s = 2.0 * radius
    for r, c in enumerate(centres):
        pts, w = _circle_cells(c, s, np.concatenate(
            [_target_breaks(f, radius, c, s), _edge_breaks(c, s, edges)]))
        codes = _hit_matrix(f, radius, pts).sum(axis=1)
        if edges is not None:
            codes = np.where(edges.contains(pts), codes, 0)
        other = (1.0 - P_HIT) * np.bincount(codes, weights=w, minlength=n + 1)
        other[best[r]] += P_HIT
        group = _conv_power(other, markers - 1)
        rows[r, first[r]:first[r] + len(group)] = group[: size - first[r]]
    return rows


def multiple_barrage_pmf(
    target: Formation,
    diameter: float = 3.0,
    markers: int = 2,
    *,
    bs: int = 0,
    indirect: bool = False,
    aim: int | None = None,
    aim_point: tuple[float, float] | None = None,
    edges: EdgesLike = None,
    n_theta: int = 256,
) -> BarragePmf:
    """Total models hit by a Multiple Barrage of ``markers`` markers fired together.

    The first marker scatters as a Blast (BS subtracted unless ``indirect``). Every other marker rolls
    the scatter die: an arrow puts it touching the first marker's rim in that direction (centre at
    ``2 R`` from the first centre, direction uniform); a Hit lets the attacker place it touching any part
    of the first marker, overlap allowed: it goes where it hits the most models (centre within ``2 R`` of
    the first centre; chaining off later markers is not used, a small conservative simplification).
    Every marker whose centre is beyond an edge misses on its own. A model under two markers is hit twice.

    Given the first centre, the other markers are independent and exact (arc sweep); the pmf over
    the first marker's direction is integrated numerically: the circle is cut at every arc end of the
    first marker (where its own count jumps) and each piece into steps of at most ``2 pi / n_theta``;
    each step uses the midpoint rule. ``error_bound`` is ``sum |f(b) - f(a)| h / 2`` over steps (the
    largest over k), a bound that holds when each pmf entry is monotone within every step; the Hit faces
    and whole-inch distances are exact.

    Returns:
        :class:`BarragePmf` with ``pmf`` of length ``markers * n + 1``.
    """
    if markers < 1:
        raise ValueError(f"markers must be >= 1, got {markers}")
    edges = _as_edges(edges)
    if target.n == 0:
        return BarragePmf(np.array([1.0]), 0.0)
    radius = diameter / 2.0
    center = _aim_point(target, aim, aim_point, lambda: best_aim(
        target, diameter, bs=bs, indirect=indirect, edges=edges))
    w = arrow_distance_pmf(bs, indirect)
    at_aim = _barrage_conditional(target, radius, center[None, :], markers, edges)[0]
    total = P_HIT * at_aim
    err = np.zeros_like(total)
    for d in range(MAX_SCATTER + 1):
        if w[d] == 0.0:
            continue
        weight = (1.0 - P_HIT) * w[d]
        if d == 0:
            total += weight * at_aim
            continue
        br = np.concatenate([[0.0], _target_breaks(target, radius, center, d),
                             _edge_breaks(center, d, edges)])
        b = np.unique(np.concatenate([np.mod(br, TWO_PI), [TWO_PI]]))
        ts, mids, steps = [], [], []
        for lo, hi in zip(b[:-1], b[1:]):
            k = max(1, int(np.ceil((hi - lo) * n_theta / TWO_PI)))
            t = np.linspace(lo, hi, k + 1)
            ts.append(t)
            mids.append(0.5 * (t[:-1] + t[1:]))
            steps.append((t[1] - t[0], k))
        mid_t = np.concatenate(mids)
        mid_pts = center[None, :] + d * np.column_stack([np.cos(mid_t), np.sin(mid_t)])
        mid_first = _hit_matrix(target, radius, mid_pts).sum(axis=1)
        if edges is not None:
            mid_first = np.where(edges.contains(mid_pts), mid_first, 0)
        mid_vals = _barrage_conditional(target, radius, mid_pts, markers, edges, mid_first)
        # Endpoint values: the piece's own first-marker count (its one-sided limit) with the
        # other markers evaluated at the endpoint.
        end_t = np.concatenate(ts)
        end_first = np.concatenate([np.full(k + 1, mid_first[sum(s[1] for s in steps[:i])])
                                    for i, (_, k) in enumerate(steps)])
        end_pts = center[None, :] + d * np.column_stack([np.cos(end_t), np.sin(end_t)])
        end_vals = _barrage_conditional(target, radius, end_pts, markers, edges, end_first)
        pos_m = pos_e = 0
        for h, k in steps:
            total += weight * mid_vals[pos_m:pos_m + k].sum(axis=0) * h / TWO_PI
            ev = end_vals[pos_e:pos_e + k + 1]
            err += weight * np.abs(np.diff(ev, axis=0)).sum(axis=0) * h / 2 / TWO_PI
            pos_m += k
            pos_e += k + 1
    return BarragePmf(total, float(err.max()))


# --------------------------------------------------------------------------- apocalyptic barrage
@dataclass(frozen=True)
class CloverLayout:
    """The Apocalyptic Barrage marker: circles around the marker's centre.

    Attributes:
        circle_diameter: diameter of each circle, inches.
        offsets: circle centres relative to the marker's centre before rotation, inches.
        faces: for each D6 face 1..6, the index of the circle it strikes, or ``None`` for the
            attacker's choice (the circle over the most models at the final position).
    """

    circle_diameter: float = 5.0
    offsets: tuple[tuple[float, float], ...] = ((2.5, 0.0), (0.0, 2.5), (-2.5, 0.0), (0.0, -2.5))
    faces: tuple[int | None, ...] = (0, 1, 2, 3, None, None)


#: Default clover: four 5" circles whose centres sit 2.5" from the marker centre at right angles
#: (each passes through the centre), faces 1-4 strike circles 1-4, 5-6 the attacker's choice.
#: A documented assumption: override it with the marker you own.
DEFAULT_CLOVER = CloverLayout()


def _clover_counts(f: Formation, layout: CloverLayout, offsets: np.ndarray, pts: np.ndarray) -> np.ndarray:
    r = layout.circle_diameter / 2.0
    return np.stack([_hit_matrix(f, r, pts + o).sum(axis=1) for o in offsets], axis=1)


def _best_rotation(f: Formation, layout: CloverLayout, center: np.ndarray) -> float:
    """Rotation maximising the models under any circle at the aim point (then the sum over circles).

    Counts are piecewise constant in the rotation: all critical angles are enumerated exactly and
    the midpoint of the first best interval is used.
    """
    r = layout.circle_diameter / 2.0 + f.base_radius
    offs = np.asarray(layout.offsets, dtype=float)
    br = [np.mod(_circle_circle(center, float(np.hypot(*o)), f.positions, np.full(f.n, r))
                 - np.arctan2(o[1], o[0]), TWO_PI) for o in offs if np.hypot(*o) > 0]
    b = np.unique(np.concatenate([[0.0, TWO_PI]] + br))
    mids = 0.5 * (b[:-1] + b[1:])[np.diff(b) > 0]
    best, best_key = 0.0, (-1, -1)
    for psi in mids:
        c, s = np.cos(psi), np.sin(psi)
        rot = offs @ np.array([[c, s], [-s, c]])
        hits = np.stack([_hit_matrix(f, layout.circle_diameter / 2.0, center[None] + o)[0] for o in rot])
        key = (int(hits.any(axis=0).sum()), int(hits.sum()))
        if key > best_key:
            best, best_key = float(psi), key
    return best


def apocalyptic_barrage_pmf(
    target: Formation,
    attacks: int,
    *,
    layout: CloverLayout = DEFAULT_CLOVER,
    bs: int = 0,
    indirect: bool = False,
    aim: int | None = None,
    aim_point: tuple[float, float] | None = None,
    rotation: float | None = None,
    edges: EdgesLike = None,
) -> np.ndarray:
    """Exact pmf of the total hits of an Apocalyptic Barrage with ``attacks`` dice.

    The marker is rotated (``rotation`` radians, default :func:`_best_rotation`), scattered once as a
    Blast keeping its orientation, then each die strikes one circle (``layout.faces``) and hits every
    model under it. Exact: for each elementary interval of direction the per-circle counts are constant.
    Default aim: the model giving the most expected total hits (ties: lowest index).
    """
    edges = _as_edges(edges)
    if target.n == 0 or attacks == 0:
        return np.array([1.0])

    def run(center: np.ndarray) -> np.ndarray:
        psi = _best_rotation(target, layout, center) if rotation is None else rotation
        c, s = np.cos(psi), np.sin(psi)
        offs = np.asarray(layout.offsets, dtype=float) @ np.array([[c, s], [-s, c]])
        r = layout.circle_diameter / 2.0 + target.base_radius
        cache: dict[tuple, np.ndarray] = {}

        def pmf_for(counts: np.ndarray) -> np.ndarray:
            key = tuple(int(x) for x in counts)
            if key not in cache:
                die = np.zeros(target.n + 1)
                for face in layout.faces:
                    die[max(key) if face is None else key[face]] += 1.0 / len(layout.faces)
                cache[key] = _conv_power(die, attacks)
            return cache[key]

        def mixture(pts: np.ndarray, w: np.ndarray) -> np.ndarray:
            counts = _clover_counts(target, layout, offs, pts)
            if edges is not None:
                counts[~edges.contains(pts)] = 0
            return sum(wi * pmf_for(ci) for wi, ci in zip(w, counts))

        wd = arrow_distance_pmf(bs, indirect)
        at_aim = mixture(center[None, :], np.array([1.0]))
        out = P_HIT * at_aim
        for d in range(MAX_SCATTER + 1):
            if wd[d] == 0.0:
                continue
            if d == 0:
                out = out + (1.0 - P_HIT) * wd[d] * at_aim
                continue
            br = np.concatenate([_circle_circle(center + o, float(d), target.positions,
                                                np.full(target.n, r)) for o in offs]
                                + [_edge_breaks(center, float(d), edges)])
            pts, w = _circle_cells(center, float(d), br)
            out = out + (1.0 - P_HIT) * wd[d] * mixture(pts, w)
        return out

    if aim_point is not None or aim is not None:
        return run(_aim_point(target, aim, aim_point, lambda: 0))
    results = [run(target.positions[i]) for i in range(target.n)]
    return results[_argmax_first(np.array([_mean(p) for p in results]))]
