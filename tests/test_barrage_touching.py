"""Multiple Barrages: a Hit marker touches the first marker or any arrow marker (issue 13, defect 12)."""

import numpy as np
import pytest

from praetor_analysis.markers.barrages import _barrage_conditional, _Group, multiple_barrage_pmf
from praetor_analysis.markers.blasts import TWO_PI, circle_cells, edge_breaks, hit_matrix, target_breaks
from praetor_analysis.markers.formation import Edges, Formation
from praetor_analysis.markers.options import MarkerOptions
from praetor_analysis.markers.scatter import MAX_SCATTER, P_HIT
from praetor_analysis.markers.touching import Touching
from praetor_analysis.prob.convolution import convolve_power

R = 1.5  # Blast (3")

FORMATIONS = {
    "one": (Formation.grid(1, 32, 2.0), None),
    "pair": (Formation.grid(2, 32, 1.0), None),
    "three": (Formation.from_positions([[0.0, 0.0], [3.0, 0.5], [1.2, 3.1]], 32), None),
    "three_edges": (Formation.grid(3, 32, 1.0), Edges(xmin=-1.0, ymax=1.5)),
    "ten": (Formation.grid(10, 32, 2.0), None),
    "ten_edges": (Formation.grid(10, 32, 1.0), Edges(xmin=-2.0, ymin=-1.0, xmax=11.0)),
}


def _mean(pmf):
    return float(np.dot(np.arange(len(pmf)), pmf))


def _counts(f, pts, edges):
    k = hit_matrix(f, R, pts).sum(axis=1)
    return k if edges is None else np.where(edges.contains(pts), k, 0)


def test_three_indirect_mortars_at_one_model():
    # Pinned: issue 13, defect 12 gives 0.762 expected hits for three indirect Blast (3") Barrages (mortars)
    # at one model on a 32 mm base; the lead's Monte Carlo of this reading (4M samples, each Hit marker at the
    # best spot touching the first marker or an arrow marker) gave 0.7614 +- 0.0005. With one model the
    # conditional pmf does not depend on the first marker's direction, so the result is exact.
    res = multiple_barrage_pmf(Formation.grid(1, 32, 2.0), 3.0, 3, bs=4, indirect=True)
    mean = _mean(res.pmf)
    assert res.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert res.error_bound < 1e-12
    assert abs(mean - 0.762) <= res.error_bound + 1e-3
    assert abs(mean - 0.7614) <= 3 * 0.0005
    assert mean > 0.7340504343638431 + 0.02  # the engine before: Hit markers touched the first marker only


def test_two_markers_as_before():
    # Pinned: the engine before this change (commit a92c326), where a Hit marker touched only the first
    # marker. With two markers the first is all there is to touch, so nothing may change.
    res = multiple_barrage_pmf(Formation.grid(10, 32, 2.0), 3.0, 2, bs=4, aim=2, n_theta=64)
    before = [0.08478312609987149, 0.17646005817205648, 0.30902603694811404, 0.3732116308063773, 0.0565191479735805]
    assert res.pmf == pytest.approx(before + [0.0] * 16, abs=1e-12)
    assert res.error_bound == pytest.approx(0.006048864345420098, rel=1e-9)
    one = multiple_barrage_pmf(Formation.grid(1, 32, 2.0), 3.0, 2, bs=4, indirect=True)
    assert one.pmf == pytest.approx([0.5774293317022245, 0.3021901934877034, 0.12038047481007204], abs=1e-12)


@pytest.mark.parametrize("name", list(FORMATIONS))
def test_touching_breaks_are_complete(name):
    """Between consecutive breaks the best touching count of an arrow's centre is constant (dense check)."""
    f, edges = FORMATIONS[name]
    touch = Touching(f, R, edges)
    rng = np.random.default_rng(11)
    lo, hi = f.positions.min(axis=0) - 5.0, f.positions.max(axis=0) + 5.0
    c1 = rng.uniform(lo, hi, size=(12, 2))
    b0 = touch.best(c1)
    t = (np.arange(20_000) + 0.5) * TWO_PI / 20_000
    for c, floor in zip(c1, b0, strict=True):
        pts = c + 2 * R * np.column_stack([np.cos(t), np.sin(t)])
        g = touch.best(pts)
        if edges is not None:
            g = np.where(edges.contains(pts), g, 0)
        for level, cut in ((g, -1), (np.maximum(g, floor), floor)):  # every break; those above the floor
            br = touch.breaks(c[None, :], 2 * R, np.array([cut]))[0]
            br = np.sort(br[np.isfinite(br)])
            piece = np.searchsorted(br, t) % max(len(br), 1)  # the arc from the last break wraps round
            for p in np.unique(piece):
                assert len(np.unique(level[piece == p])) == 1, (name, c, p)


def _dense_best(f, centre, edges, step=0.01):
    g = np.arange(-2 * R, 2 * R + step / 2, step)
    gx, gy = np.meshgrid(g, g)
    off = np.column_stack([gx.ravel(), gy.ravel()])
    pts = centre + off[np.hypot(*off.T) <= 2 * R]
    return int(_counts(f, pts, edges).max())


@pytest.mark.parametrize("name", ["three", "three_edges", "ten_edges"])
def test_touching_count_against_dense_search(name):
    """The candidate search is never beaten by a dense grid, and never more than one above it (the grid may miss
    a sliver); with edges it finds spots along the edge (a first marker beyond the edge included)."""
    f, edges = FORMATIONS[name]
    rng = np.random.default_rng(3)
    lo, hi = f.positions.min(axis=0) - 4.5, f.positions.max(axis=0) + 4.5
    centres = rng.uniform(lo, hi, size=(25, 2))
    got = Touching(f, R, edges).best(centres)
    for c, k in zip(centres, got, strict=True):
        brute = _dense_best(f, c, edges)
        assert brute <= k <= brute + 1, (c, k, brute)
    if edges is not None:  # reached across the edge, the on-table part of a model disc only
        far = np.array([[edges.xmin - 2.7, f.positions[0, 1]]])
        assert Touching(f, R, edges).best(far)[0] == _dense_best(f, far[0], edges) == 1


def _oracle_conditional(f, edges, c1, markers, n_dir):
    """The group's pmf given the first centre, by a uniform grid of arrow directions (no arc sweep, no max
    trick): every Hit marker takes the best of the first marker's and the arrows' touching counts.

    Where two neighbouring grid directions differ, the change is located by bisection, so each arc's length
    is exact but for arcs narrower than a grid step that the grid does not see. Returns the pmf and a bound
    on its error when no such arc is missed: four times the changes seen, times a bisection's last step and
    the shift of a change by the touching tolerance.
    """
    touch = Touching(f, R, edges)

    def look(t):
        pts = c1 + 2 * R * np.column_stack([np.cos(t), np.sin(t)])
        fk, gk = _counts(f, pts, edges), touch.best(pts)
        return fk, gk if edges is None else np.where(edges.contains(pts), gk, 0)

    h = TWO_PI / n_dir
    t = np.arange(n_dir) * h
    fk, gk = look(t)
    code = fk * (f.n + 1) + gk
    change = np.flatnonzero(code != np.roll(code, -1))  # between t[i] and t[i] + h
    lo, hi = t[change], t[change] + h
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        fm, gm = look(mid)
        same = fm * (f.n + 1) + gm == code[change]
        lo, hi = np.where(same, mid, lo), np.where(same, hi, mid)
    # the arc ending at change j carries the code of the grid point just before that change
    weight = np.zeros(n_dir)
    if len(change) == 0:
        weight[0] = 1.0
    else:
        weight[change] = np.mod(hi - np.roll(hi, 1), TWO_PI) / TWO_PI
    b0 = int(touch.best(c1[None, :])[0])
    first = int(_counts(f, c1[None, :], edges)[0])
    fw = np.bincount(fk, weights=weight, minlength=f.n + 1)
    size = markers * f.n + 1
    out = np.zeros(size)
    p, q = 1 - P_HIT, P_HIT
    others = markers - 1
    assert others in (1, 2)
    if others == 1:
        out[first + b0] += q
        out[first : first + f.n + 1] += p * fw
    else:
        out[first + 2 * b0] += q * q
        one = np.bincount(fk + np.maximum(b0, gk), weights=weight, minlength=2 * f.n + 1)
        out[first : first + 2 * f.n + 1] += 2 * p * q * one
        out[first : first + 2 * f.n + 1] += p * p * np.convolve(fw, fw)
    return out, 4 * (len(change) + 1) * (h / 2**40 + 1e-8)  # 1e-8: the touching tolerance moves a change


@pytest.mark.parametrize("name", list(FORMATIONS))
def test_conditional_against_direction_grid(name):
    f, edges = FORMATIONS[name]
    group = _Group(f, R, 3, edges, Touching(f, R, edges))
    rng = np.random.default_rng(17)
    lo, hi = f.positions.min(axis=0) - 4.0, f.positions.max(axis=0) + 4.0
    c1 = np.vstack([f.positions[:1], rng.uniform(lo, hi, size=(6, 2))])
    rows = _barrage_conditional(group, c1)
    for c, row in zip(c1, rows, strict=True):
        oracle, tol = _oracle_conditional(f, edges, c, 3, 2_000)
        assert row.sum() == pytest.approx(1.0, abs=1e-12)
        assert np.abs(row - oracle).max() <= tol, (name, c)


def _old_conditional(f, edges, c1, markers):
    """The reading before: a Hit marker at the best spot touching the first marker only."""
    first = int(_counts(f, c1[None, :], edges)[0])
    b0 = int(Touching(f, R, edges).best(c1[None, :])[0])
    br = np.concatenate([target_breaks(f, R, c1, 2 * R), edge_breaks(c1, 2 * R, edges)])
    pts, w = circle_cells(c1, 2 * R, br)
    other = (1 - P_HIT) * np.bincount(_counts(f, pts, edges), weights=w, minlength=f.n + 1)
    other[b0] += P_HIT
    out = np.zeros(markers * f.n + 1)
    group = convolve_power(other, markers - 1)
    out[first : first + len(group)] = group
    return out


@pytest.mark.parametrize("markers", [2, 3, 5])
@pytest.mark.parametrize("name", ["ten", "ten_edges"])
def test_more_places_to_touch_never_hit_fewer(name, markers):
    """Given the first centre, the pmf dominates the first-marker-only reading (equal with two markers)."""
    f, edges = FORMATIONS[name]
    group = _Group(f, R, markers, edges, Touching(f, R, edges))
    rng = np.random.default_rng(23)
    c1 = rng.uniform(f.positions.min(axis=0) - 3, f.positions.max(axis=0) + 3, size=(20, 2))
    rows = _barrage_conditional(group, c1)
    for c, row in zip(c1, rows, strict=True):
        old = _old_conditional(f, edges, c, markers)
        assert row.sum() == pytest.approx(1.0, abs=1e-12) and row.min() >= 0.0
        assert np.all(np.cumsum(row) <= np.cumsum(old) + 1e-12)
        if markers == 2:
            assert row == pytest.approx(old, abs=1e-12)


def _oracle_pmf(f, edges, markers, bs, indirect, aim, n_first, n_dir):
    """The whole pmf by uniform grids over the first marker's direction and the arrows' directions."""
    opts = MarkerOptions(bs=bs, indirect=indirect, aim=aim, edges=edges)
    w = opts.distance_pmf()
    centre = f.positions[aim]
    at_aim, tol = _oracle_conditional(f, edges, centre, markers, n_dir)
    total = (P_HIT + (1 - P_HIT) * w[0]) * at_aim
    err = (P_HIT + (1 - P_HIT) * w[0]) * tol
    t = (np.arange(n_first) + 0.5) * TWO_PI / n_first
    for d in range(1, MAX_SCATTER + 1):
        if w[d] == 0:
            continue
        rows = [_oracle_conditional(f, edges, centre + d * np.array([np.cos(a), np.sin(a)]), markers, n_dir) for a in t]
        vals = np.array([r for r, _ in rows])
        total += (1 - P_HIT) * w[d] * vals.mean(axis=0)
        # the outer midpoint rule: at most the variation over each step, halved; plus the inner grids' errors
        spread = np.abs(np.diff(np.vstack([vals, vals[:1]]), axis=0)).sum(axis=0) / n_first
        err += (1 - P_HIT) * w[d] * (spread.max() + np.mean([e for _, e in rows]))
    return total, err


@pytest.mark.parametrize(
    "name,bs,indirect,aim",
    [
        ("one", 4, True, 0),
        pytest.param("pair", 4, False, 0, marks=pytest.mark.slow),
        pytest.param("three", 3, True, 1, marks=pytest.mark.slow),
        pytest.param("three_edges", 4, False, 0, marks=pytest.mark.slow),
    ],
)
def test_pmf_against_direction_grids(name, bs, indirect, aim):
    f, edges = FORMATIONS[name]
    res = multiple_barrage_pmf(f, 3.0, 3, bs=bs, indirect=indirect, aim=aim, edges=edges, n_theta=128)
    oracle, err = _oracle_pmf(f, edges, 3, bs, indirect, aim, n_first=96, n_dir=500)
    assert res.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.abs(res.pmf - oracle).max() <= res.error_bound + err


def test_a_tangent_circle_is_met_at_its_one_point():
    # circle_roots: a model circle that the scatter circle only touches is met (touching counts, as a base
    # touching a marker is hit), at the angle of the point of contact; outside it, not met (NaN).
    from praetor_analysis.markers.touching import circle_roots

    centre = np.array([[0.0, 0.0]])
    outside = circle_roots(centre, 1.0, np.array([[3.0, 0.0]]), np.array([2.0]))  # |w| = d + r: outer tangent
    inside = circle_roots(centre, 1.0, np.array([[0.0, 1.0]]), np.array([2.0]))  # |w| = r - d: inner tangent
    assert np.allclose(np.mod(outside, TWO_PI), [[0.0, 0.0]], atol=1e-12)
    assert np.allclose(inside, [[3 * np.pi / 2, 3 * np.pi / 2]], atol=1e-12)
    assert np.isnan(circle_roots(centre, 1.0, np.array([[3.5, 0.0]]), np.array([2.0]))).all()
