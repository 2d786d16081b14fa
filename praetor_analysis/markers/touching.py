"""The best spot for a marker placed touching another: the most models it can hit (docs/rules.md#barrage).

A marker of radius ``R`` touching a marker centred at ``c`` has its centre within ``2 R`` of ``c``. It hits
model ``j`` when its centre is within ``rho = R + r`` of the model's centre, so the most models it can hit is
the greatest depth of the arrangement of model discs (radius ``rho``) inside the reach disc ``D(c, 2 R)``
(and on the table). That maximum is attained at one of finitely many candidate points: where two boundary
curves (model circles, the reach circle, battlefield edges) meet, or the point of a model disc nearest ``c``.
The points that do not depend on ``c`` (model circles meeting each other or an edge, the table's corners) are
found once per formation with their depths.
"""

from __future__ import annotations

import numpy as np

from praetor_analysis.markers.blasts import TOL
from praetor_analysis.markers.formation import Edges, Formation

__all__ = ["Touching", "circle_roots", "line_roots"]

#: Rows of candidate work per numpy batch (bounds the memory of one step).
_BATCH = 1_000_000


def circle_roots(centres: np.ndarray, d: float, targets: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """Angles of the points ``c + d u(t)`` at distance ``radii`` from ``targets``, for each row ``c``.

    Returns ``(k, 2 m)`` angles in ``[0, 2 pi)``, NaN where a circle is not met.
    """
    w = centres[:, None, :] - np.asarray(targets).reshape(1, -1, 2)
    a, b = 2 * d * w[..., 0], 2 * d * w[..., 1]
    c = np.asarray(radii)[None, :] ** 2 - d * d - (w**2).sum(axis=2)
    m = np.hypot(a, b)
    ok = (m > 0) & (np.abs(c) <= m)
    base = np.arctan2(b, a)
    h = np.arccos(np.clip(c / np.where(m > 0, m, 1.0), -1.0, 1.0))
    out = np.mod(np.concatenate([base - h, base + h], axis=1), 2 * np.pi)
    return np.where(np.concatenate([ok, ok], axis=1), out, np.nan)


def line_roots(centres: np.ndarray, d: float, edges: Edges | None, offset: float = 0.0) -> np.ndarray:
    """Angles where ``c + d u(t)`` crosses a battlefield edge moved by ``offset`` either way (NaN if not)."""
    if edges is None:
        return np.empty((len(centres), 0))
    out = []
    for value, axis in ((edges.xmin, 0), (edges.xmax, 0), (edges.ymin, 1), (edges.ymax, 1)):
        if not np.isfinite(value):
            continue
        for shift in {-offset, offset}:
            rel = value + shift - centres[:, axis]
            ok = np.abs(rel) <= d
            h = np.arccos(np.clip(rel / d, -1.0, 1.0))
            base = 0.0 if axis == 0 else np.pi / 2
            pair = np.mod(np.column_stack([base - h, base + h]), 2 * np.pi)
            out.append(np.where(ok[:, None], pair, np.nan))
    return np.concatenate(out, axis=1) if out else np.empty((len(centres), 0))


def _edge_lines(edges: Edges | None) -> list[tuple[int, float]]:
    if edges is None:
        return []
    pairs = ((0, edges.xmin), (0, edges.xmax), (1, edges.ymin), (1, edges.ymax))
    return [(axis, float(v)) for axis, v in pairs if np.isfinite(v)]


class Touching:
    """Most models hit by a marker touching a marker, for one formation, marker radius and battlefield.

    Attributes:
        fixed: ``(v, 2)`` candidate points independent of the touched marker (on the table).
        fixed_depth: models hit by a marker centred on each fixed point.
    """

    def __init__(self, f: Formation, radius: float, edges: Edges | None) -> None:
        self.pos = f.positions
        self.rho = radius + f.base_radius
        self.reach = 2.0 * radius
        self.edges = edges
        self.lines = _edge_lines(edges)
        n, rho = f.n, self.rho
        fixed = [np.empty((0, 2))]
        i, j = np.triu_indices(n, 1)
        dv = self.pos[j] - self.pos[i]
        dd = np.hypot(dv[:, 0], dv[:, 1])
        ok = (dd > 0) & (dd <= 2 * rho)
        if ok.any():
            mid = 0.5 * (self.pos[i][ok] + self.pos[j][ok])
            h = np.sqrt(np.maximum(rho**2 - (dd[ok] / 2) ** 2, 0.0))
            perp = np.column_stack([-dv[ok, 1], dv[ok, 0]]) / dd[ok, None]
            fixed += [mid + h[:, None] * perp, mid - h[:, None] * perp]
        # The deepest point of model disc i (off the table too): its centre or a crossing on its circle.
        vertices = np.concatenate(fixed)
        on_circle = np.hypot(*(vertices[None, :, :] - self.pos[:, None, :]).transpose(2, 0, 1)) <= rho + TOL
        top = np.where(on_circle, self._depth_all(vertices)[None, :], 0).max(axis=1, initial=0)
        self.disc_depth = np.maximum(top, self._depth_all(self.pos)) if n else np.zeros(0, dtype=np.int64)
        for axis, value in self.lines:  # model circles meet an edge
            rel = value - self.pos[:, axis]
            near = np.abs(rel) <= rho
            h = np.sqrt(np.maximum(rho**2 - rel[near] ** 2, 0.0))
            for sign in (1.0, -1.0):
                pt = self.pos[near].copy()
                pt[:, axis] = value
                pt[:, 1 - axis] += sign * h
                fixed.append(pt)
        xs = [v for axis, v in self.lines if axis == 0]
        ys = [v for axis, v in self.lines if axis == 1]
        fixed += [np.array([[x, y]]) for x in xs for y in ys]  # the table's corners
        pts = np.concatenate(fixed)
        if edges is not None:
            pts = pts[edges.contains(pts, TOL)]
        self.fixed = pts
        self.fixed_depth = self._depth_all(pts)
        levels = np.unique(self.fixed_depth)[::-1]
        from scipy.spatial import cKDTree  # imported when first needed: ~0.3 s at start-up

        self.trees = [(int(d), cKDTree(pts[self.fixed_depth == d])) for d in levels if d > 0]
        # Discs that can contain a point of model disc i: those within 2 rho of model i (and i itself).
        gap = np.hypot(*(self.pos[:, None, :] - self.pos[None, :, :]).transpose(2, 0, 1))
        near = gap <= 2 * rho + 1e-6
        k = int(near.sum(axis=1).max()) if n else 0
        order = np.argsort(~near, axis=1, kind="stable")[:, :k]
        self.neighbours = np.where(np.take_along_axis(near, order, axis=1), order, n)
        self.padded = np.vstack([self.pos, [[np.inf, np.inf]]])

    def _depth_all(self, pts: np.ndarray) -> np.ndarray:
        d = pts[..., None, :] - self.pos
        return (np.hypot(d[..., 0], d[..., 1]) <= self.rho + TOL).sum(axis=-1)

    def best(self, centres: np.ndarray, floor: np.ndarray | None = None) -> np.ndarray:
        """Most models one marker can hit with its centre within ``2 R`` of each centre (and on the table).

        With ``floor`` (one count per centre) the result is the larger of the two: candidates that cannot
        beat the floor are not examined.
        """
        centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
        n = len(self.pos)
        low = np.zeros(len(centres), dtype=np.int64) if floor is None else np.asarray(floor, dtype=np.int64)
        if n == 0 or len(centres) == 0:
            return low
        step = max(1, _BATCH // (4 * n))
        return np.concatenate(
            [self._best(centres[i : i + step], low[i : i + step]) for i in range(0, len(centres), step)]
        )

    def _best(self, centres: np.ndarray, floor: np.ndarray) -> np.ndarray:
        pos, rho, s = self.pos, self.rho, self.reach
        out = floor.copy()
        for depth, tree in self.trees:  # deepest first: a centre keeps the first depth it reaches
            todo = np.flatnonzero(out < depth)
            gap, _ = tree.query(centres[todo], distance_upper_bound=s + 2 * TOL)
            out[todo[gap <= s + TOL]] = depth
        # On model circle i (or inside disc i): the nearest point to the centre, the reach circle's crossings;
        # only for the (centre, model) pairs close enough to reach.
        v = centres[:, None, :] - pos[None, :, :]
        dist = np.hypot(v[..., 0], v[..., 1])
        # A pair matters only if disc i is deep enough to beat the fixed points already reached.
        row, i = np.nonzero((dist <= rho + s + TOL) & (self.disc_depth[None, :] > out[:, None]))
        q = self.neighbours.shape[1]
        step = max(1, _BATCH // (3 * q))
        for lo in range(0, len(row), step):
            r, j = row[lo : lo + step], i[lo : lo + step]
            val = self._circle_candidates(centres[r], v[r, j], dist[r, j], j)
            starts = np.flatnonzero(np.r_[True, r[1:] != r[:-1]])
            out[r[starts]] = np.maximum(out[r[starts]], np.maximum.reduceat(val, starts))
        for axis, value in self.lines:  # the reach circle crosses an edge
            rel = value - centres[:, axis]
            h = np.sqrt(np.maximum(s**2 - rel**2, 0.0))
            for sign in (1.0, -1.0):
                pt = centres.copy()
                pt[:, axis] = value
                pt[:, 1 - axis] += sign * h
                good = (np.abs(rel) <= s) & self.edges.contains(pt, TOL)  # type: ignore[union-attr]
                out = np.maximum(out, np.where(good, self._depth_all(pt), 0))
        return out

    def _circle_candidates(self, c: np.ndarray, v: np.ndarray, dist: np.ndarray, i: np.ndarray) -> np.ndarray:
        """Best depth among the candidates on or in disc ``i`` for a marker touching one centred at ``c``."""
        pos, rho, s = self.pos, self.rho, self.reach
        safe = np.where(dist > 0, dist, 1.0)
        scale = np.where(dist > rho, rho / safe, 1.0)
        cand = [pos[i] + v * scale[:, None]]
        a = (dist**2 + s**2 - rho**2) / (2 * safe)
        hh = np.sqrt(np.maximum(s**2 - a**2, 0.0))
        meet = (dist > 0) & (np.abs(a) <= s)
        u = -v / safe[:, None]
        base = c + a[:, None] * u
        perp = np.column_stack([-u[:, 1], u[:, 0]])
        for sign in (1.0, -1.0):
            cand.append(np.where(meet[:, None], base + sign * hh[:, None] * perp, c))
        pts = np.stack(cand, axis=1)  # (pairs, 3, 2): candidates on or in disc i
        nb = self.padded[self.neighbours[i]]  # (pairs, q, 2)
        dpt = pts[:, :, None, :] - nb[:, None, :, :]
        depth = (np.hypot(dpt[..., 0], dpt[..., 1]) <= rho + TOL).sum(axis=-1)
        off = pts - c[:, None, :]
        ok = np.hypot(off[..., 0], off[..., 1]) <= s + TOL
        if self.edges is not None:
            ok &= self.edges.contains(pts, TOL)
        return np.where(ok, depth, 0).max(axis=1)

    def breaks(self, centres: np.ndarray, d: float, floor: np.ndarray) -> np.ndarray:
        """Angles on the circle ``c + d u(t)`` where :meth:`best` may change (``(k, b)``, NaN padded).

        The best count reaches ``k`` where the reach disc meets the region of depth ``k``, whose 2 R offset
        is bounded by circles of radius ``rho + 2 R`` around models, circles of radius ``2 R`` around the
        fixed points, and lines ``2 R`` either side of each edge (the edges themselves too). Only depths above
        ``floor`` (one per centre) are followed: a circle or point no deeper cannot raise the count past it.
        """
        s = self.reach
        models = circle_roots(centres, d, self.pos, np.full(len(self.pos), self.rho + s))
        points = circle_roots(centres, d, self.fixed, np.full(len(self.fixed), s))
        deep = np.tile(self.disc_depth, 2)[None, :] > floor[:, None]
        deeper = np.tile(self.fixed_depth, 2)[None, :] > floor[:, None]
        parts = [
            np.where(deep, models, np.nan),
            np.where(deeper, points, np.nan),
            line_roots(centres, d, self.edges, s),
            line_roots(centres, d, self.edges),
        ]
        return np.concatenate(parts, axis=1)
