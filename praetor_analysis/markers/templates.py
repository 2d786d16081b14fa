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

import numpy as np

from praetor_analysis.markers.blasts import TOL, cos_sin_roots
from praetor_analysis.markers.formation import Formation

__all__ = [
    "FLAME_TEMPLATE",
    "HELLSTORM_TEMPLATE",
    "Teardrop",
    "TemplatePlacement",
    "firer_in_front",
    "place_template",
    "template_pmf",
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
    hits = _hits_at(target, shape, pivot, firer_radius, cand)
    counts = hits.sum(axis=1)
    i = int(np.argmax(counts))
    tip = pivot + firer_radius * np.array([np.cos(cand[i]), np.sin(cand[i])])
    return TemplatePlacement(int(counts[i]), float(cand[i]), (float(tip[0]), float(tip[1])), hits[i])


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
    """
    f0 = np.asarray(firer, dtype=np.float64).reshape(2)
    best = place_template(target, firer, shape=shape, firer_radius=firer_radius)
    if target.n == 0:
        return best
    lim = reach + firer_radius
    g = np.arange(-lim, lim + grid_step / 2, grid_step)
    gx, gy = np.meshgrid(g, g)
    tips = np.column_stack([gx.ravel(), gy.ravel()]) + f0
    tips = tips[np.hypot(*(tips - f0).T) <= lim + 1e-12]
    near = np.hypot(*(tips[:, None, :] - target.positions[None]).transpose(2, 0, 1))
    tips = tips[near.min(axis=1) <= shape.length + target.base_radius]
    for tip in tips:
        v = tip - f0
        nv = float(np.hypot(*v))
        if nv > 0:
            c = -shape.length / 2.0
            ends = cos_sin_roots(np.array(v[0]), np.array(v[1]), np.array(c))
            if ends.size:
                centre_dir = np.arctan2(v[1], v[0])
                half = float(np.arccos(np.clip(c / nv, -1, 1)))
                allowed = (np.mod(centre_dir - half, TWO_PI), 2 * half)
            else:
                allowed = None  # constraint always holds
        else:
            allowed = None
        cand = _candidates(_critical_angles(target, shape, tip, 0.0), allowed)
        if cand.size == 0:
            continue
        hits = _hits_at(target, shape, tip, 0.0, cand)
        counts = hits.sum(axis=1)
        i = int(np.argmax(counts))
        if counts[i] > best.hits:
            best = TemplatePlacement(int(counts[i]), float(cand[i]), (float(tip[0]), float(tip[1])), hits[i])
    return best


def wall_of_death_pmf(hellstorm: bool = False) -> np.ndarray:
    """Wall of Death (snap shot): D3 automatic hits, D6 for a Hellstorm. Index = hits."""
    faces = 6 if hellstorm else 3
    return np.concatenate([[0.0], np.full(faces, 1.0 / faces)])


def firer_in_front(target: Formation, distance: float, firer_radius: float = 0.0) -> tuple[float, float]:
    """A firer centred on the formation's x-extent, ``distance`` inches base-to-base in front (-y)."""
    pos = target.positions
    x = 0.5 * (pos[:, 0].min() + pos[:, 0].max())
    y = pos[:, 1].min() - target.base_radius - distance - firer_radius
    return (float(x), float(y))
