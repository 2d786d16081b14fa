"""Multiple Barrages and the Apocalyptic Barrage clover: markers placed against each other (docs/rules.md#barrage)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import NamedTuple, Unpack

import numpy as np

from praetor_analysis.markers.blasts import (
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
from praetor_analysis.markers.touching import Touching, circle_roots, line_roots
from praetor_analysis.prob import BoundedMemo, compound_many


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


#: Entries of a conditional pmf this small are the Fourier transform's rounding (about 1e-17), set to 0.
ROUNDING = 1e-14


def _best_touching_count(f: Formation, radius: float, centres: np.ndarray, edges: Edges | None) -> np.ndarray:
    """Most models one marker can hit when its centre is within ``2 radius`` of each centre (see :class:`Touching`)."""
    return Touching(f, radius, edges).best(centres)


@dataclass(frozen=True)
class _Group:
    """What every first-marker position of one Multiple Barrage shares."""

    target: Formation
    radius: float
    markers: int
    edges: Edges | None
    touch: Touching


def _pieces(breaks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Row index, mid angle and weight (length / 2 pi) of every elementary arc, from NaN-padded break rows."""
    k = len(breaks)
    b = np.sort(np.concatenate([np.zeros((k, 1)), breaks, np.full((k, 1), TWO_PI)], axis=1), axis=1)
    lengths = np.diff(b, axis=1)
    keep = lengths > 0  # NaN (padding) compares False
    rows, cols = np.nonzero(keep)
    return rows, 0.5 * (b[rows, cols] + b[rows, cols + 1]), lengths[rows, cols] / TWO_PI


def _barrage_conditional(group: _Group, centres: np.ndarray, first: np.ndarray | None = None) -> np.ndarray:
    """Pmf of the whole group's hits given the first marker's centre, one row per centre.

    The other markers roll the scatter die on their own: with ``a`` arrows and ``h`` Hits, each arrow's
    direction is uniform on the circle of radius ``2 R``; on every arc piece its count ``f`` and the best
    count ``g`` of a marker touching it are constant. The Hits all go to the best spot touching the first
    marker (``b0``) or an arrow: ``M = max(b0, max g)``. With ``F_v`` the pmf of ``f`` restricted to
    ``max(b0, g) <= v``, the generating function of the others is
    ``q^(m-1) x^((m-1) b0) + sum_v (p F_v + q x^v)^(m-1) - (p F_(v-1) + q x^v)^(m-1)`` (``p`` arrow, ``q``
    Hit): the binomial sum over ``a`` of ``P(sum f = s, M = v) x^(h v)``. It is evaluated on the discrete
    Fourier grid of the pmf's length (exact up to rounding: no term wraps around).
    ``first`` overrides the first marker's own count (known constant on a piece of the circle).
    """
    f, radius, m, edges = group.target, group.radius, group.markers, group.edges
    n = f.n
    size = m * n + 1
    if first is None:
        first = hit_matrix(f, radius, centres).sum(axis=1)
        if edges is not None:
            first = np.where(edges.contains(centres), first, 0)
    b0 = group.touch.best(centres)
    rows = np.zeros((len(centres), size))
    s = 2.0 * radius
    rho = np.full(n, radius + f.base_radius)
    half = size // 2 + 1
    z = np.exp(-2j * np.pi * np.arange(half) / size)
    step = max(1, 2_000_000 // ((1 if m == 2 else n + 1) * half))
    p, q = 1.0 - P_HIT, P_HIT
    for lo in range(0, len(centres), step):
        c = centres[lo : lo + step]
        k = len(c)
        parts = [circle_roots(c, s, f.positions, rho), line_roots(c, s, edges)]
        if m >= 3:  # with one other marker, a Hit can touch the first marker only
            parts.append(group.touch.breaks(c, s, b0[lo : lo + step]))
        row, mid, w = _pieces(np.concatenate(parts, axis=1))
        pts = c[row] + s * np.column_stack([np.cos(mid), np.sin(mid)])
        count = hit_matrix(f, radius, pts).sum(axis=1)
        # With one other marker the level does not matter (p F_v - p F_(v-1) sums to p F): one level.
        level = b0[lo : lo + step][row] if m >= 3 else np.zeros(len(row), dtype=np.int64)
        if m >= 3:  # max(b0, g); an arrow beyond an edge offers nothing (g = 0)
            raised = group.touch.best(pts, level)
            level = raised if edges is None else np.where(edges.contains(pts), raised, level)
        if edges is not None:
            count = np.where(edges.contains(pts), count, 0)
        # Only the levels reached in this chunk: below them F_v is 0, above them F_v = F_(v-1).
        vmin, vmax = int(level.min()), int(level.max())  # every circle has at least one piece
        nv = vmax - vmin + 1
        cells = np.bincount((row * nv + level - vmin) * (n + 1) + count, weights=w, minlength=k * nv * (n + 1))
        cum = np.cumsum(cells.reshape(k, nv, n + 1), axis=1)  # F_v, v = vmin..vmax
        fh = np.fft.rfft(cum, n=size, axis=2)
        zv = np.power(z[None, :], np.arange(vmin, vmax + 1)[:, None])  # x^v on the grid
        below = np.concatenate([np.zeros((k, 1, half)), fh[:, :-1]], axis=1)
        total = (np.power(p * fh + q * zv, m - 1) - np.power(p * below + q * zv, m - 1)).sum(axis=1)
        hits_only = q ** (m - 1) * np.exp(-2j * np.pi * np.outer((m - 1) * b0[lo : lo + step], np.arange(half)) / size)
        shift = np.exp(-2j * np.pi * np.outer(first[lo : lo + step], np.arange(half)) / size)
        rows[lo : lo + step] = np.fft.irfft((total + hits_only) * shift, n=size, axis=1)
    rows[np.abs(rows) <= ROUNDING] = 0.0  # the transform's rounding, where no outcome can fall
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
    ``2 R`` from the first centre, direction uniform). The arrows are placed first; a Hit lets the attacker
    place it touching the first marker or any arrow marker, overlap allowed, where it hits the most models
    (centre within ``2 R`` of one of their centres, on the table; see :class:`Touching`), so all Hit
    markers stack on that spot (chaining off another Hit marker is not used). An arrow marker whose centre
    is beyond an edge misses and offers nothing to touch. A model under two markers is hit twice.

    Given the first centre, the rest is exact (arc sweep, see :func:`_barrage_conditional`); the pmf over
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
    group = _Group(target, radius, markers, edges, Touching(target, radius, edges))
    at_aim = _barrage_conditional(group, center[None, :])[0]
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
        mid_vals = _barrage_conditional(group, mid_pts, mid_first)
        # Endpoint values: the piece's own first-marker count (its one-sided limit) with the
        # other markers evaluated at the endpoint.
        end_t = np.concatenate(ts)
        end_first = np.concatenate(
            [np.full(k + 1, mid_first[sum(s[1] for s in steps[:i])]) for i, (_, k) in enumerate(steps)]
        )
        end_pts = center[None, :] + d * np.column_stack([np.cos(end_t), np.sin(end_t)])
        end_vals = _barrage_conditional(group, end_pts, end_first)
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
    if target.n == 0 or attacks == 0:
        return np.array([1.0])
    times = np.zeros(attacks + 1)
    times[attacks] = 1.0

    def run(center: np.ndarray) -> np.ndarray:
        dies, weight = _clover_dies(target, layout, opts, rotation, center)
        return weight @ compound_many(np.broadcast_to(times, (len(dies), attacks + 1)), dies)

    if opts.aim_point is not None or opts.aim is not None:
        return run(choose_aim_point(target, opts, lambda: 0))
    results = [run(target.positions[i]) for i in range(target.n)]
    return results[argmax_first(np.array([pmf_mean(p) for p in results]))]


_CLOVERS: BoundedMemo[tuple[np.ndarray, np.ndarray]] = BoundedMemo(1024)


def _clover_dies(
    target: Formation, layout: CloverLayout, opts: MarkerOptions, rotation: float | None, center: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """One die's hits at each distinct place the clover can land when aimed at ``center`` (rows of a matrix,
    read-only), and the probability of each place: remembered by all they read, so a Barrage of another
    number of dice (or its count after Gets Hot) mixes the same places."""
    where = (target.positions.tobytes(), target.base_radius, center.tobytes())
    key = (where, layout, replace(opts, aim=None, aim_point=None), rotation)

    def build() -> tuple[np.ndarray, np.ndarray]:
        edges = opts.edges
        psi = _best_rotation(target, layout, center) if rotation is None else rotation
        c, s = np.cos(psi), np.sin(psi)
        offs = np.asarray(layout.offsets, dtype=float) @ np.array([[c, s], [-s, c]])
        r = layout.circle_diameter / 2.0 + target.base_radius
        wd = opts.distance_pmf()
        places, weights = [center[None, :]], [np.array([P_HIT + (1.0 - P_HIT) * wd[0]])]  # a Hit or 0"
        for d in range(1, MAX_SCATTER + 1):
            if wd[d] == 0.0:
                continue
            br = np.concatenate(
                [circle_circle(center + o, float(d), target.positions, np.full(target.n, r)) for o in offs]
                + [edge_breaks(center, float(d), edges)]
            )
            pts, w = circle_cells(center, float(d), br)
            places.append(pts)
            weights.append((1.0 - P_HIT) * wd[d] * w)
        dies, weight = _clover_places(target, layout, offs, np.concatenate(places), np.concatenate(weights), edges)
        dies.setflags(write=False)
        weight.setflags(write=False)
        return dies, weight

    return _CLOVERS.get(key, build)


def _clover_places(
    target: Formation,
    layout: CloverLayout,
    offsets: np.ndarray,
    places: np.ndarray,
    weights: np.ndarray,
    edges: Edges | None,
) -> tuple[np.ndarray, np.ndarray]:
    """One die's hits (a pmf row) for each distinct outcome of the marker's centre at ``places``, and the
    weight of each (``weights`` added up over the places that share it).

    At one place each die strikes a circle (``layout.faces``): the models under it are the die's hits. Places
    with the same models under each circle share that pmf, so their weights are added first.
    """
    counts = _clover_counts(target, layout, offsets, places)
    if edges is not None:
        counts[~edges.contains(places)] = 0
    kinds, which = np.unique(counts, axis=0, return_inverse=True)
    weight = np.bincount(which.ravel(), weights=weights, minlength=len(kinds))
    rows = np.arange(len(kinds))
    dies = np.zeros((len(kinds), target.n + 1))
    for face in layout.faces:
        dies[rows, kinds.max(axis=1) if face is None else kinds[:, face]] += 1.0 / len(layout.faces)
    return dies, weight
