"""Benchmark: Multiple Barrages, the engine against its previous algorithm (issue 13, defect 12).

The previous algorithm let a marker whose scatter die shows Hit touch only the first marker; the engine now
lets it touch the first marker or any arrow marker, which needs the arcs of every arrow's best touching count.
The old algorithm is copied below (bench only) so both run in one process; the ratio new/old is printed with
each case's mean and error bound. Never a pass/fail test.

Run: .venv/bin/python bench/bench_barrage.py
"""

from __future__ import annotations

import itertools
import os
import time

import numpy as np

from praetor_analysis.markers.barrages import multiple_barrage_pmf
from praetor_analysis.markers.blasts import (
    TOL,
    TWO_PI,
    best_aim,
    choose_aim_point,
    circle_cells,
    edge_breaks,
    hit_matrix,
    target_breaks,
)
from praetor_analysis.markers.formation import Edges, Formation
from praetor_analysis.markers.options import MarkerOptions
from praetor_analysis.markers.scatter import MAX_SCATTER, P_HIT
from praetor_analysis.prob.convolution import convolve_power


# --------------------------------------------------------------------------- the previous algorithm (copy)
def old_best_touching_count(f: Formation, radius: float, centres: np.ndarray, edges: Edges | None) -> np.ndarray:
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


def old_barrage_conditional(
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
    best = old_best_touching_count(f, radius, centres, edges)
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


def old_multiple_barrage(
    target: Formation, diameter: float, markers: int, opts: MarkerOptions, n_theta: int = 256
) -> tuple[np.ndarray, float]:
    """The previous ``multiple_barrage_pmf`` (Hit markers touch the first marker only)."""
    edges = opts.edges
    radius = diameter / 2.0
    center = choose_aim_point(target, opts, lambda: best_aim(target, diameter, opts))
    w = opts.distance_pmf()
    at_aim = old_barrage_conditional(target, radius, center[None, :], markers, edges)[0]
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
        mid_vals = old_barrage_conditional(target, radius, mid_pts, markers, edges, mid_first)
        # Endpoint values: the piece's own first-marker count (its one-sided limit) with the
        # other markers evaluated at the endpoint.
        end_t = np.concatenate(ts)
        end_first = np.concatenate(
            [np.full(k + 1, mid_first[sum(s[1] for s in steps[:i])]) for i, (_, k) in enumerate(steps)]
        )
        end_pts = center[None, :] + d * np.column_stack([np.cos(end_t), np.sin(end_t)])
        end_vals = old_barrage_conditional(target, radius, end_pts, markers, edges, end_first)
        pos_m = pos_e = 0
        for h, k in steps:
            total += weight * mid_vals[pos_m : pos_m + k].sum(axis=0) * h / TWO_PI
            ev = end_vals[pos_e : pos_e + k + 1]
            err += weight * np.abs(np.diff(ev, axis=0)).sum(axis=0) * h / 2 / TWO_PI
            pos_m += k
            pos_e += k + 1
    return total, float(err.max())


# --------------------------------------------------------------------------- the comparison
#: (models, Barrages, base mm, gap inches, marker diameter): lines of five (a 50-model blob: lines of eight)
CASES = [
    (1, 3, 32, 2.0, 3.0),
    (10, 3, 32, 2.0, 3.0),
    (20, 3, 32, 2.0, 3.0),
    (50, 2, 32, 2.0, 3.0),
    (50, 3, 25, 1.0, 5.0),
]


def main() -> None:
    """Time old and new on each case (indirect Blast (3") Barrages, BS 4) and print the ratio (CPU seconds)."""
    opts = MarkerOptions(bs=4, indirect=True)
    print(f"load average {os.getloadavg()[0]:.1f}; CPU seconds of this process")
    print(f"{'case':<26}{'old s':>8}{'new s':>8}{'new/old':>9}{'old mean':>10}{'new mean':>10}{'bound':>9}")
    for models, markers, base, gap, diameter in CASES:
        f = Formation.grid(models, base, gap, columns=8 if models == 50 and base == 25 else None)
        t0 = time.process_time()
        old, _ = old_multiple_barrage(f, diameter, markers, opts)
        t1 = time.process_time()
        new = multiple_barrage_pmf(f, diameter, markers, opts)
        t2 = time.process_time()
        k = np.arange(len(old))
        name = f"{markers} x {diameter:g}in, {models} x {base}mm {gap:g}in"
        print(
            f"{name:<26}{t1 - t0:8.2f}{t2 - t1:8.2f}{(t2 - t1) / (t1 - t0):9.2f}"
            f"{np.dot(k, old):10.4f}{np.dot(k, new.pmf):10.4f}{new.error_bound:9.1e}"
        )


if __name__ == "__main__":
    main()
