"""Template weapons: teardrop and Hellstorm placement, Wall of Death, Torrent (docs/rules.md#template).

A template never scatters, so the models hit are a deterministic count once it is placed; the
functions return that count, the placement, and a one-point pmf for the wound chain.

Shape. A teardrop is the convex hull of two circles on its axis: a small one at the narrow end (the
tip touches the firer) and a large one at the wide end; ``length`` runs from the tip to the far rim.
A base is hit when it overlaps the shape (distance from its centre to the shape ``<= base radius``).

Placement. With the tip on the firer's base edge (``firer_radius``, 0 for a point) and the axis
pointing away from the firer's centre, the number of models hit is piecewise constant in the angle.
Every angle where a base starts or stops touching the template is found in closed form (the base's
centre, seen from the template, moves on a circle; it meets the dilated outline's two circles and two
straight sides), and the count is evaluated at every critical angle and between each consecutive pair:
the maximum is exact. Friendly models are not modelled (the caller chooses a firer position clear of them).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import numpy as np

from praetor_analysis.markers.blasts import TOL, cos_sin_roots
from praetor_analysis.markers.formation import Formation
from praetor_analysis.prob import BoundedMemo

__all__ = [
    "FLAME_TEMPLATE",
    "HELLSTORM_TEMPLATE",
    "Teardrop",
    "TemplatePlacement",
    "firer_in_front",
    "firer_sides",
    "place_template",
    "template_pmf",
    "tip_bounds",
    "torrent_placement",
    "wall_of_death_pmf",
]

TWO_PI = 2.0 * np.pi


@dataclass(frozen=True)
class Teardrop:
    """A teardrop template, inches.

    Attributes:
        length: tip of the narrow end to the far rim of the wide end.
        narrow_width: diameter of the narrow end's rounded tip.
        wide_width: diameter of the wide end (the template's greatest width).
    """

    length: float = 8.25
    narrow_width: float = 0.75
    wide_width: float = 3.5

    def __post_init__(self) -> None:
        s0, s1 = self.narrow_width / 2, self.wide_width / 2
        if not (0 <= s0 <= s1 and self.length - s0 - s1 > s1 - s0):
            raise ValueError(f"not a teardrop: {self}")

    def _parts(self, dilate: float) -> tuple[float, float, float, float, float, float]:
        s0, s1 = self.narrow_width / 2, self.wide_width / 2
        h = self.length - s0 - s1
        b = (s0 - s1) / h
        a = np.sqrt(1.0 - b * b)
        return s0, s1, h, a, b, dilate

    def distance(self, local: np.ndarray) -> np.ndarray:
        """Signed distance from points in the template frame (tip at origin, axis +x) to the shape."""
        s0, s1, h, a, b, _ = self._parts(0.0)
        p = np.asarray(local, dtype=np.float64)
        along, lat = p[..., 0] - s0, np.abs(p[..., 1])
        k = -b * lat + a * along
        d_small = np.hypot(lat, along) - s0
        d_big = np.hypot(lat, along - h) - s1
        d_side = a * lat + b * along - s0
        return np.where(k < 0, d_small, np.where(k > a * h, d_big, d_side))


#: The standard flamer template: 8.25" long, 3.5" at the widest, a 0.75" rounded tip.
FLAME_TEMPLATE = Teardrop(8.25, 0.75, 3.5)
#: Hellstorm template, an assumed default (measure yours and pass a Teardrop): 10" long, 5" wide, 1" tip.
HELLSTORM_TEMPLATE = Teardrop(10.0, 1.0, 5.0)


@dataclass(frozen=True)
class TemplatePlacement:
    """Where the template went and what it hit.

    Attributes:
        hits: number of models hit.
        angle: direction of the template's axis, radians (counter-clockwise from +x).
        tip: position of the narrow end, inches.
        hit: boolean mask of the models hit.
    """

    hits: int
    angle: float
    tip: tuple[float, float]
    hit: np.ndarray


def _critical_angles(f: Formation, shape: Teardrop, pivot: np.ndarray, offset: float) -> np.ndarray:
    """Axis angles where a base starts/stops touching a template whose tip is ``pivot + offset u``."""
    s0, s1, h, a, b, _ = shape._parts(0.0)
    r = f.base_radius
    w = f.positions - pivot[None, :]
    dist = np.hypot(w[:, 0], w[:, 1])
    phi = np.arctan2(w[:, 1], w[:, 0])
    keep = dist > 0.0
    dist, phi = dist[keep], phi[keep]
    if dist.size == 0:
        return np.empty(0)
    # Base centre seen from the template: (-offset, 0) + dist (cos al, sin al), al = phi - theta.
    q = np.array([-offset, 0.0])
    out = []
    for cx, rad in ((s0, s0 + r), (s0 + h, s1 + r)):
        w2 = q[0] - cx
        out.append(_roots_per_model(2 * dist * w2, np.zeros_like(dist), rad**2 - dist**2 - w2**2, phi))
    c = s0 + r + b * s0 + b * offset
    for sign in (1.0, -1.0):
        out.append(_roots_per_model(b * dist, sign * a * dist, np.full_like(dist, c), phi))
    return np.mod(np.concatenate(out), TWO_PI)


def _roots_per_model(ca: np.ndarray, cb: np.ndarray, cc: np.ndarray, phi: np.ndarray) -> np.ndarray:
    """Axis angles ``phi - al`` for every root ``al`` of ``ca cos al + cb sin al = cc`` (per model)."""
    m = np.hypot(ca, cb)
    ok = (m > 0) & (np.abs(cc) <= m)
    base = np.arctan2(cb[ok], ca[ok])
    hh = np.arccos(np.clip(cc[ok] / m[ok], -1.0, 1.0))
    return np.concatenate([phi[ok] - base + hh, phi[ok] - base - hh])


def _hits_at(f: Formation, shape: Teardrop, pivot: np.ndarray, offset: float, angles: np.ndarray) -> np.ndarray:
    """Boolean ``(len(angles), n)``: base hit for each axis angle."""
    u = np.column_stack([np.cos(angles), np.sin(angles)])
    tips = pivot[None, :] + offset * u
    rel = f.positions[None, :, :] - tips[:, None, :]
    along = rel[..., 0] * u[:, None, 0] + rel[..., 1] * u[:, None, 1]
    lat = -rel[..., 0] * u[:, None, 1] + rel[..., 1] * u[:, None, 0]
    return shape.distance(np.stack([along, lat], axis=-1)) <= f.base_radius + TOL


#: Most (angle, model) cells tested at once: the candidate angles are taken in chunks of this many cells, so a
#: template at 1,000 models (8,000 angles) holds about 16 MB of each temporary array, not 64 MB.
CHUNK_CELLS = 2_000_000


def _best_angle(
    f: Formation, shape: Teardrop, pivot: np.ndarray, offset: float, cand: np.ndarray
) -> tuple[int, np.ndarray]:
    """The index of the first candidate angle that hits the most models, and its hits (bounded memory)."""
    step = max(1, CHUNK_CELLS // max(1, f.n))
    best, best_count = 0, -1
    for lo in range(0, cand.size, step):
        counts = _hits_at(f, shape, pivot, offset, cand[lo : lo + step]).sum(axis=1)
        i = int(np.argmax(counts))
        if counts[i] > best_count:  # strictly more: ties keep the earlier angle
            best, best_count = lo + i, int(counts[i])
    return best, _hits_at(f, shape, pivot, offset, cand[best : best + 1])[0]


def _candidates(crit: np.ndarray, allowed: tuple[float, float] | None = None) -> np.ndarray:
    """Critical angles and the midpoints between consecutive ones (optionally within an arc)."""
    b = np.unique(np.concatenate([[0.0, TWO_PI], crit]))
    cand = np.concatenate([b[:-1], 0.5 * (b[:-1] + b[1:])])
    if allowed is not None:
        lo, width = allowed
        cand = np.concatenate([cand, [lo, lo + width]])
        cand = cand[np.mod(cand - lo, TWO_PI) <= width + 1e-12]
    return np.mod(cand, TWO_PI)


def place_template(
    target: Formation,
    firer: tuple[float, float],
    *,
    shape: Teardrop = FLAME_TEMPLATE,
    firer_radius: float = 0.0,
) -> TemplatePlacement:
    """Turn the template about the firer to hit the most models (exact over all angles).

    Args:
        target: the target unit's formation.
        firer: centre of the firing model, inches.
        shape: :data:`FLAME_TEMPLATE` or :data:`HELLSTORM_TEMPLATE` or your own.
        firer_radius: the firer's base radius; the tip touches that base edge. 0 = a point (a barrel).

    Returns:
        The best placement (ties: the smallest angle in [0, 2 pi) among the candidates).
    """
    pivot = np.asarray(firer, dtype=np.float64).reshape(2)
    if target.n == 0:
        return TemplatePlacement(0, 0.0, (float(pivot[0] + firer_radius), float(pivot[1])), np.zeros(0, dtype=bool))
    cand = _candidates(_critical_angles(target, shape, pivot, firer_radius))
    i, hits = _best_angle(target, shape, pivot, firer_radius, cand)
    tip = pivot + firer_radius * np.array([np.cos(cand[i]), np.sin(cand[i])])
    return TemplatePlacement(int(hits.sum()), float(cand[i]), (float(tip[0]), float(tip[1])), hits)


def template_pmf(
    target: Formation, firer: tuple[float, float], *, shape: Teardrop = FLAME_TEMPLATE, firer_radius: float = 0.0
) -> np.ndarray:
    """The models hit as a pmf (one entry of 1.0), length ``n + 1``. See :func:`place_template`."""
    out = np.zeros(target.n + 1)
    out[place_template(target, firer, shape=shape, firer_radius=firer_radius).hits] = 1.0
    return out


def torrent_placement(
    target: Formation,
    firer: tuple[float, float],
    reach: float,
    *,
    shape: Teardrop = FLAME_TEMPLATE,
    firer_radius: float = 0.0,
    grid_step: float = 0.25,
) -> TemplatePlacement:
    """Torrent (X): the tip anywhere within ``reach`` inches of the firer's base, then turned.

    The wide end must be no closer to the firer's centre than the tip: with ``v = tip - firer``
    this is ``u . v >= -length / 2`` (the far point ``tip + length u`` at least as far as the tip).
    Tips are tried on a square grid of ``grid_step`` inches inside the reach disc (plus the firer's
    base edge itself: plain template placement); for each tip the angle is optimised exactly. The
    grid makes the result a lower bound of the true optimum; halving the step rarely changes it.

    The answer is the first tip, in grid order, that hits the most models (the firer's base edge first).
    Tips are searched in order of :func:`tip_bounds` (an upper bound of what each can hit), and a tip whose
    bound cannot beat the best found is not searched: the answer is that of the search of every tip. Each
    answer is remembered (a bounded memo, by the formation, firer, reach, shape and grid): many weapons share
    a Torrent's reach, and its placement reads nothing else. Its ``hit`` mask is read-only.
    """
    f = target
    key = (f.positions.tobytes(), f.base_radius, tuple(map(float, firer)), float(reach), shape, firer_radius, grid_step)
    return _TORRENTS.get(key, lambda: _read_only(_torrent_search(f, firer, reach, shape, firer_radius, grid_step)))


_TORRENTS: BoundedMemo[TemplatePlacement] = BoundedMemo(1024)


def _read_only(placement: TemplatePlacement) -> TemplatePlacement:
    placement.hit.setflags(write=False)
    return placement


def _torrent_search(
    target: Formation,
    firer: tuple[float, float],
    reach: float,
    shape: Teardrop,
    firer_radius: float,
    grid_step: float,
) -> TemplatePlacement:
    """The search of :func:`torrent_placement`."""
    f0 = np.asarray(firer, dtype=np.float64).reshape(2)
    best = place_template(target, firer, shape=shape, firer_radius=firer_radius)
    if target.n == 0:
        return best
    lim = reach + firer_radius
    g = np.arange(-lim, lim + grid_step / 2, grid_step)
    gx, gy = np.meshgrid(g, g)
    tips = np.column_stack([gx.ravel(), gy.ravel()]) + f0
    tips = tips[np.hypot(*(tips - f0).T) <= lim + 1e-12]
    rel = target.positions[None, :, :] - tips[:, None, :]
    near = np.hypot(rel[..., 0], rel[..., 1])
    keep = near.min(axis=1) <= shape.length + target.base_radius
    tips = tips[keep]
    bound = _bounds(target, shape, rel[keep], near[keep], best.hits)
    found: dict[int, TemplatePlacement | None] = {}
    most = best.hits
    for i in np.argsort(-bound, kind="stable").tolist():  # the largest bounds first: the most is found soon
        if bound[i] <= most:
            break
        found[i] = placed = _turned_at(target, shape, tips[i], f0)
        if placed is not None and placed.hits > most:
            most = placed.hits
    if most == best.hits:
        return best
    for i in np.flatnonzero(bound >= most).tolist():  # grid order: the first tip that hits the most
        placed = found[i] if i in found else _turned_at(target, shape, tips[i], f0)
        if placed is not None and placed.hits == most:
            return placed
    raise AssertionError("unreachable: the tip that hit the most was searched")


def _turned_at(target: Formation, shape: Teardrop, tip: np.ndarray, firer: np.ndarray) -> TemplatePlacement | None:
    """The best turn of a template whose tip is at ``tip`` (the wide end no closer to ``firer``), None when no
    angle is allowed."""
    v = tip - firer
    nv = float(np.hypot(*v))
    allowed = None  # the constraint always holds
    if nv > 0:
        c = -shape.length / 2.0
        ends = cos_sin_roots(np.array(v[0]), np.array(v[1]), np.array(c))
        if ends.size:
            centre_dir = np.arctan2(v[1], v[0])
            half = float(np.arccos(np.clip(c / nv, -1, 1)))
            allowed = (np.mod(centre_dir - half, TWO_PI), 2 * half)
    cand = _candidates(_critical_angles(target, shape, tip, 0.0), allowed)
    if cand.size == 0:
        return None
    i, hits = _best_angle(target, shape, tip, 0.0, cand)
    return TemplatePlacement(int(hits.sum()), float(cand[i]), (float(tip[0]), float(tip[1])), hits)


_BOUND_SLACK = 1e-6  # inches added to the base radius in the bounds: far above TOL and rounding
_BOUND_STEPS = 1024  # distances tabulated by _arc_table


@lru_cache(maxsize=64)
def _arc_table(shape: Teardrop, base_radius: float) -> tuple[np.ndarray, np.ndarray]:
    """Distances ``d`` from the tip and, for each, the largest angle off the axis at which a base centre ``d``
    from the tip touches the template (pi: at any angle; -1: at none), a little widened.

    The template widened by a base radius is convex with the tip inside, and its reach from the tip shrinks
    as the angle off the axis grows, so a base at distance ``d`` touches it exactly within an arc about the
    axis, and the arc narrows as ``d`` grows: the table's entry at the distance just below a base's is an arc
    that holds every angle at which the base is touched. Each entry is bisected to 2^-40 of pi, rounding up.
    """
    rr = base_radius + _BOUND_SLACK
    d = np.linspace(0.0, shape.length + rr, _BOUND_STEPS + 1)

    def touched(angle: np.ndarray) -> np.ndarray:
        return shape.distance(np.stack([d * np.cos(angle), d * np.sin(angle)], axis=-1)) <= rr

    lo, hi = np.zeros_like(d), np.full_like(d, np.pi)
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        inside = touched(mid)
        lo, hi = np.where(inside, mid, lo), np.where(inside, hi, mid)
    arc = np.where(touched(np.full_like(d, np.pi)), np.pi, hi)
    arc = np.where(touched(np.zeros_like(d)), arc, -1.0)
    d.setflags(write=False)
    arc.setflags(write=False)
    return d, arc


def tip_bounds(target: Formation, shape: Teardrop, tips: np.ndarray, floor: int = -1) -> np.ndarray:
    """For each tip, at least the most models a template with its narrow end there can hit at any angle.

    Each base is touched within one arc of axis angles (:func:`_arc_table`, widened by 1e-9 radians at each
    end); the most arcs that share an angle is the bound. A tip with at most ``floor`` bases in reach is
    given that count instead (a bound too, for a caller that only needs to know whether ``floor`` is beaten).
    """
    rel = target.positions[None, :, :] - tips[:, None, :]
    return _bounds(target, shape, rel, np.hypot(rel[..., 0], rel[..., 1]), floor)


def _bounds(target: Formation, shape: Teardrop, rel: np.ndarray, dist: np.ndarray, floor: int) -> np.ndarray:
    """:func:`tip_bounds` from the bases' offsets from each tip and their distances."""
    table_d, table_arc = _arc_table(shape, target.base_radius)
    out = (dist < table_d[-1]).sum(axis=1)  # in reach: a base touched is within length + radius + TOL
    more = out > floor
    if more.any():
        near = dist[more]
        last = table_d.size - 1
        row = np.minimum((near * (last / table_d[-1])).astype(np.int64), last)  # the distance at or below,
        row -= table_d[row] > near  # as searchsorted finds it (the product is off by one at most)
        row += (row < last) & (table_d[np.minimum(row + 1, last)] <= near)
        half = np.where(row < last, table_arc[row], -1.0)
        out[more] = _most_overlapping(np.arctan2(rel[more, :, 1], rel[more, :, 0]), half)
    return out


def _most_overlapping(centre: np.ndarray, half: np.ndarray) -> np.ndarray:
    """Per row, the most arcs ``centre +- half`` (``half`` < 0: no arc, >= pi: the whole circle) that share an
    angle, each arc widened by 1e-9 radians at each end.

    Counted at each arc's start, where the most overlapping arcs always meet: the arcs started at or before
    it, less those ended before it, plus those that wrap past 2 pi to reach it, each a sorted search (every row
    in one, each row shifted by :data:`_ROW_SHIFT`; a rounding there can only count an arc more, never less).
    """
    width = 2.0 * half + 2e-9
    full = (half >= 0) & (width >= TWO_PI)
    part = (half >= 0) & ~full
    start = np.mod(centre - half - 1e-9, TWO_PI)
    end = start + width
    t, n = part.shape
    shift = (np.arange(t, dtype=np.float64) * _ROW_SHIFT)[:, None]
    starts = np.sort(np.where(part, start, _FAR), axis=1)
    at = (starts + shift).ravel()  # where the arcs' starts are counted (in order: fast searches)
    base = np.repeat(np.arange(t) * n, n)

    def ranked(values: np.ndarray, side: Literal["left", "right"]) -> np.ndarray:
        """Per row, how many of its values fall before each ``at`` (side as numpy's searchsorted)."""
        return np.searchsorted((np.sort(values, axis=1) + shift).ravel(), at, side=side) - base

    ended = ranked(np.where(part, end, _FAR), "left")  # end < at
    wrapped = n - ranked(np.where(part & (end > TWO_PI), end - TWO_PI, -1.0), "left")  # end - 2 pi >= at
    started = np.searchsorted(at, at, side="right") - base  # start <= at
    counts = np.where(starts.ravel() < _FAR, started - ended + wrapped, 0).reshape(t, n)
    return (counts.max(axis=1) if n else np.zeros(t, dtype=np.int64)) + full.sum(axis=1)


_ROW_SHIFT = 32.0  # wider than any row's values (-1 to _FAR)
_FAR = 13.0  # beyond any arc's end (less than 4 pi + 2e-9 is 12.57)


def wall_of_death_pmf(hellstorm: bool = False) -> np.ndarray:
    """Wall of Death (snap shot): D3 automatic hits, D6 for a Hellstorm. Index = hits."""
    faces = 6 if hellstorm else 3
    return np.concatenate([[0.0], np.full(faces, 1.0 / faces)])


def firer_sides(
    target: Formation, distance: float, firer_radius: float = 0.0
) -> tuple[tuple[str, tuple[float, float]], ...]:
    """A firer ``distance`` inches base-to-base from each side of the formation's bounding box, centred on it:
    in front (-y, :func:`firer_in_front`), behind (+y), on the left (-x) and on the right (+x)."""
    pos, reach = target.positions, target.base_radius + distance + firer_radius
    x = float(0.5 * (pos[:, 0].min() + pos[:, 0].max()))
    y = float(0.5 * (pos[:, 1].min() + pos[:, 1].max()))
    return (
        ("front", firer_in_front(target, distance, firer_radius)),
        ("behind", (x, float(pos[:, 1].max() + reach))),
        ("left", (float(pos[:, 0].min() - reach), y)),
        ("right", (float(pos[:, 0].max() + reach), y)),
    )


def firer_in_front(target: Formation, distance: float, firer_radius: float = 0.0) -> tuple[float, float]:
    """A firer centred on the formation's x-extent, ``distance`` inches base-to-base in front (-y)."""
    pos = target.positions
    x = 0.5 * (pos[:, 0].min() + pos[:, 0].max())
    y = pos[:, 1].min() - target.base_radius - distance - firer_radius
    return (float(x), float(y))
