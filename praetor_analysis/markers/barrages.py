"""Multiple Barrages and the Apocalyptic Barrage clover: markers placed against each other (docs/rules.md#barrage)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import NamedTuple, Unpack

import numpy as np

from praetor_analysis.markers.blasts import (
    TOL,
    TWO_PI,
    argmax_first,
    best_aim,
    choose_aim_point,
    circle_cells,
    circle_circle,
    edge_breaks,
    hit_matrix,
    pmf_mean,
    target_breaks,
)
from praetor_analysis.markers.formation import Edges, Formation
from praetor_analysis.markers.options import MarkerFields, MarkerOptions
from praetor_analysis.markers.scatter import MAX_SCATTER, P_HIT
from praetor_analysis.prob.convolution import convolve_power


def _without_twin_link(opts: MarkerOptions, what: str) -> MarkerOptions:
    if opts.twin_linked:
        raise ValueError(f"twin_linked: re-rolling the scatter of {what} is not modelled")
    return opts


# --------------------------------------------------------------------------- multiple barrages
class BarragePmf(NamedTuple):
    """A pmf obtained by numerical integration over the first marker's direction.

    Attributes:
        pmf: ``pmf[k]`` = P(k hits in total).
        error_bound: bound on ``max_k |pmf[k] - exact[k]|`` (see :func:`multiple_barrage_pmf`).
    """

    pmf: np.ndarray
    error_bound: float


def _best_touching_count(f: Formation, radius: float, centres: np.ndarray, edges: Edges | None) -> np.ndarray:
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
        cand.append(np.broadcast_to(fixed[None], (len(centres), *fixed.shape)))
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


def _barrage_conditional(
    f: Formation, radius: float, centres: np.ndarray, markers: int, edges: Edges | None, first: np.ndarray | None = None
) -> np.ndarray:
    """Pmf of the whole group's hits given the first marker's centre, one row per centre.

    ``first`` overrides the first marker's own count (known constant on a piece of the circle).
    """
    n = f.n
    size = markers * n + 1
    if first is None:
        first = hit_matrix(f, radius, centres).sum(axis=1)
        if edges is not None:
            first = np.where(edges.contains(centres), first, 0)
    best = _best_touching_count(f, radius, centres, edges)
    rows = np.zeros((len(centres), size))
    s = 2.0 * radius
    for r, c in enumerate(centres):
        pts, w = circle_cells(c, s, np.concatenate([target_breaks(f, radius, c, s), edge_breaks(c, s, edges)]))
        codes = hit_matrix(f, radius, pts).sum(axis=1)
        if edges is not None:
            codes = np.where(edges.contains(pts), codes, 0)
        other = (1.0 - P_HIT) * np.bincount(codes, weights=w, minlength=n + 1)
        other[best[r]] += P_HIT
        group = convolve_power(other, markers - 1)
        rows[r, first[r] : first[r] + len(group)] = group[: size - first[r]]
    return rows


def multiple_barrage_pmf(
    target: Formation,
    diameter: float = 3.0,
    markers: int = 2,
    options: MarkerOptions | None = None,
    *,
    n_theta: int = 256,
    **fields: Unpack[MarkerFields],
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

    ``options`` (or its keyword ``fields``): :class:`MarkerOptions`; Twin-linked is not modelled here.

    Returns:
        :class:`BarragePmf` with ``pmf`` of length ``markers * n + 1``.
    """
    if markers < 1:
        raise ValueError(f"markers must be >= 1, got {markers}")
    opts = _without_twin_link(MarkerOptions.of(options, fields), "Multiple Barrages")
    edges = opts.edges
    if target.n == 0:
        return BarragePmf(np.array([1.0]), 0.0)
    radius = diameter / 2.0
    center = choose_aim_point(target, opts, lambda: best_aim(target, diameter, opts))
    w = opts.distance_pmf()
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
        br = np.concatenate([[0.0], target_breaks(target, radius, center, d), edge_breaks(center, d, edges)])
        b = np.unique(np.concatenate([np.mod(br, TWO_PI), [TWO_PI]]))
        ts, mids, steps = [], [], []
        for lo, hi in itertools.pairwise(b):
            k = max(1, int(np.ceil((hi - lo) * n_theta / TWO_PI)))
            t = np.linspace(lo, hi, k + 1)
            ts.append(t)
            mids.append(0.5 * (t[:-1] + t[1:]))
            steps.append((t[1] - t[0], k))
        mid_t = np.concatenate(mids)
        mid_pts = center[None, :] + d * np.column_stack([np.cos(mid_t), np.sin(mid_t)])
        mid_first = hit_matrix(target, radius, mid_pts).sum(axis=1)
        if edges is not None:
            mid_first = np.where(edges.contains(mid_pts), mid_first, 0)
        mid_vals = _barrage_conditional(target, radius, mid_pts, markers, edges, mid_first)
        # Endpoint values: the piece's own first-marker count (its one-sided limit) with the
        # other markers evaluated at the endpoint.
        end_t = np.concatenate(ts)
        end_first = np.concatenate(
            [np.full(k + 1, mid_first[sum(s[1] for s in steps[:i])]) for i, (_, k) in enumerate(steps)]
        )
        end_pts = center[None, :] + d * np.column_stack([np.cos(end_t), np.sin(end_t)])
        end_vals = _barrage_conditional(target, radius, end_pts, markers, edges, end_first)
        pos_m = pos_e = 0
        for h, k in steps:
            total += weight * mid_vals[pos_m : pos_m + k].sum(axis=0) * h / TWO_PI
            ev = end_vals[pos_e : pos_e + k + 1]
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
    return np.stack([hit_matrix(f, r, pts + o).sum(axis=1) for o in offsets], axis=1)


def _best_rotation(f: Formation, layout: CloverLayout, center: np.ndarray) -> float:
    """Rotation maximising the models under any circle at the aim point (then the sum over circles).

    Counts are piecewise constant in the rotation: all critical angles are enumerated exactly and
    the midpoint of the first best interval is used.
    """
    r = layout.circle_diameter / 2.0 + f.base_radius
    offs = np.asarray(layout.offsets, dtype=float)
    br = [
        np.mod(
            circle_circle(center, float(np.hypot(*o)), f.positions, np.full(f.n, r)) - np.arctan2(o[1], o[0]), TWO_PI
        )
        for o in offs
        if np.hypot(*o) > 0
    ]
    b = np.unique(np.concatenate([[0.0, TWO_PI], *br]))
    mids = 0.5 * (b[:-1] + b[1:])[np.diff(b) > 0]
    best, best_key = 0.0, (-1, -1)
    for psi in mids:
        c, s = np.cos(psi), np.sin(psi)
        rot = offs @ np.array([[c, s], [-s, c]])
        hits = np.stack([hit_matrix(f, layout.circle_diameter / 2.0, center[None] + o)[0] for o in rot])
        key = (int(hits.any(axis=0).sum()), int(hits.sum()))
        if key > best_key:
            best, best_key = float(psi), key
    return best


def apocalyptic_barrage_pmf(
    target: Formation,
    attacks: int,
    *,
    layout: CloverLayout = DEFAULT_CLOVER,
    options: MarkerOptions | None = None,
    rotation: float | None = None,
    **fields: Unpack[MarkerFields],
) -> np.ndarray:
    """Exact pmf of the total hits of an Apocalyptic Barrage with ``attacks`` dice.

    The marker is rotated (``rotation`` radians, default :func:`_best_rotation`), scattered once as a
    Blast keeping its orientation, then each die strikes one circle (``layout.faces``) and hits every
    model under it. Exact: for each elementary interval of direction the per-circle counts are constant.
    Default aim: the model giving the most expected total hits (ties: lowest index). ``options`` (or its
    keyword ``fields``): :class:`MarkerOptions`; Twin-linked is not modelled here.
    """
    opts = _without_twin_link(MarkerOptions.of(options, fields), "the Apocalyptic Barrage")
    edges = opts.edges
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
                cache[key] = convolve_power(die, attacks)
            return cache[key]

        def mixture(pts: np.ndarray, w: np.ndarray) -> np.ndarray:
            counts = _clover_counts(target, layout, offs, pts)
            if edges is not None:
                counts[~edges.contains(pts)] = 0
            return sum(wi * pmf_for(ci) for wi, ci in zip(w, counts, strict=False))

        wd = opts.distance_pmf()
        at_aim = mixture(center[None, :], np.array([1.0]))
        out = P_HIT * at_aim
        for d in range(MAX_SCATTER + 1):
            if wd[d] == 0.0:
                continue
            if d == 0:
                out = out + (1.0 - P_HIT) * wd[d] * at_aim
                continue
            br = np.concatenate(
                [circle_circle(center + o, float(d), target.positions, np.full(target.n, r)) for o in offs]
                + [edge_breaks(center, float(d), edges)]
            )
            pts, w = circle_cells(center, float(d), br)
            out = out + (1.0 - P_HIT) * wd[d] * mixture(pts, w)
        return out

    if opts.aim_point is not None or opts.aim is not None:
        return run(choose_aim_point(target, opts, lambda: 0))
    results = [run(target.positions[i]) for i in range(target.n)]
    return results[argmax_first(np.array([pmf_mean(p) for p in results]))]
