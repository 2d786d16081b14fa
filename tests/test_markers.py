"""Exact blast-marker distributions: hand-worked cases, edge cases and invariants."""

import numpy as np
import pytest

from praetor_analysis.markers.barrages import (
    DEFAULT_CLOVER,
    CloverLayout,
    apocalyptic_barrage_pmf,
    multiple_barrage_pmf,
)
from praetor_analysis.markers.blasts import best_aim, marker_pmf, mean_models_hit, mega_blast_pmf
from praetor_analysis.markers.formation import Edges, Formation, Hull
from praetor_analysis.markers.scatter import (
    P_HIT,
    arrow_distance_pmf,
    resolve_scatter,
    scatter_distance_pmf,
)
from praetor_analysis.prob.dice import two_d6 as two_d6_pmf

R32 = 16 / 25.4
PITCH32 = 32 / 25.4 + 2.0


def sf(pmf):
    return np.cumsum(pmf[::-1])[::-1]


# ----------------------------------------------------------------------------- scatter
def test_two_d6_and_distances():
    p = two_d6_pmf()
    assert p.sum() == pytest.approx(1.0, abs=1e-15)
    assert p[7] == pytest.approx(6 / 36)
    w = arrow_distance_pmf(4)
    assert w[0] == pytest.approx(6 / 36)  # 2D6 of 2..4
    assert w[8] == pytest.approx(1 / 36)  # a 12
    assert np.array_equal(arrow_distance_pmf(4, indirect=True), p)
    assert arrow_distance_pmf(12)[0] == pytest.approx(1.0)
    assert scatter_distance_pmf(12)[0] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        arrow_distance_pmf(-1)


def test_resolve_scatter_twin_linked_by_hand():
    # Hit: 2 models. Arrow at distance 1: 0 or 3 models, half each.  Fresh mean = 2/3*? ...
    at_aim = np.array([0, 0, 1.0, 0])
    arrow = np.zeros((13, 4))
    arrow[1] = [0.5, 0, 0, 0.5]
    w = np.zeros(13)
    w[1] = 1.0
    fresh = resolve_scatter(at_aim, arrow, w)
    assert fresh == pytest.approx([1 / 3, 0, 1 / 3, 1 / 3])
    # E_fresh = 5/3: the attacker re-rolls the 0 only.
    twin = resolve_scatter(at_aim, arrow, w, twin_linked=True)
    expect = P_HIT * at_aim + (1 - P_HIT) * (np.array([0, 0, 0, 0.5]) + 0.5 * fresh)
    assert twin == pytest.approx(expect)
    assert twin.sum() == pytest.approx(1.0)


# ----------------------------------------------------------------------------- hand-worked
def test_blast_on_one_model_never_misses_when_scatter_is_short():
    # Hit radius 1.5 + 0.63 = 2.13"; BS 10 leaves at most 12 - 10 = 2" of scatter.
    f = Formation.grid(1)
    assert marker_pmf(f, 3.0, bs=10) == pytest.approx([0.0, 1.0], abs=1e-15)


def _line_hand(d_pmf, rho, pitch):
    """Five models in a line, aimed at the middle one; each side's arcs share a direction."""
    out = np.zeros(6)
    out[1] += P_HIT  # only the middle model is under the hole
    for d, wd in enumerate(d_pmf):
        if wd == 0:
            continue
        self_hit = 1 if d <= rho else 0
        if d == 0:
            out[1] += (1 - P_HIT) * wd
            continue
        h = [np.arccos(np.clip((d * d + D * D - rho**2) / (2 * d * D), -1, 1)) for D in (pitch, 2 * pitch)]
        q2, q1 = 2 * min(h) / np.pi, 2 * abs(h[0] - h[1]) / np.pi  # both sides together
        out[self_hit + 2] += (1 - P_HIT) * wd * q2
        out[self_hit + 1] += (1 - P_HIT) * wd * q1
        out[self_hit] += (1 - P_HIT) * wd * (1 - q1 - q2)
    return out


@pytest.mark.parametrize("bs,indirect", [(0, False), (2, False), (4, True)])
def test_five_model_line_matches_hand_arcs(bs, indirect):
    # 3" blast, 32 mm bases 2" apart: reach 2.13" < pitch 3.26", so each side's arcs are narrower
    # than a half circle and the two sides never overlap.
    f = Formation.grid(5, 32, 2.0, columns=5)
    pitch = PITCH32
    rho = 1.5 + R32
    got = marker_pmf(f, 3.0, bs=bs, indirect=indirect, aim=2)
    expect = _line_hand(arrow_distance_pmf(bs, indirect), rho, pitch)
    assert got == pytest.approx(expect, abs=1e-14)


def test_closed_form_mean_agrees_with_sweep():
    f = Formation.grid(10, 32, 2.0, 5)
    for i in range(f.n):
        swept = mean_models_hit(f, 7.0, bs=4, aim=i)
        pmf = marker_pmf(f, 7.0, bs=4, aim_point=f.positions[i])
        assert swept == pytest.approx(np.dot(np.arange(len(pmf)), pmf), abs=1e-13)
    from praetor_analysis.markers.blasts import _closed_form_means

    cf = _closed_form_means(f, 3.5, 4, False)
    assert cf == pytest.approx([mean_models_hit(f, 7.0, bs=4, aim=i) for i in range(f.n)], abs=1e-13)
    assert best_aim(f, 7.0, bs=4) == int(np.argmax(cf))


# ----------------------------------------------------------------------------- edge cases
def test_bs_above_every_roll_means_no_scatter():
    f = Formation.grid(10, 32, 2.0, 5)
    p = marker_pmf(f, 7.0, bs=12, aim=2)
    assert p[4] == pytest.approx(1.0)


def test_nothing_in_reach():
    f = Formation.grid(10, 32, 2.0, 5)
    p = marker_pmf(f, 3.0, aim_point=(100.0, 100.0))
    assert p[0] == pytest.approx(1.0) and p.sum() == pytest.approx(1.0)
    assert marker_pmf(Formation.grid(0), 3.0).tolist() == [1.0]


def test_centre_exactly_on_the_edge_is_not_beyond():
    f = Formation.grid(1)
    assert marker_pmf(f, 3.0, bs=12, edges={"xmax": 0.0})[1] == pytest.approx(1.0)
    assert marker_pmf(f, 3.0, bs=12, edges={"xmin": 0.0, "ymin": 0.0})[1] == pytest.approx(1.0)
    assert marker_pmf(f, 3.0, bs=12, edges={"xmax": -1e-6})[0] == pytest.approx(1.0)


def test_edge_halves_the_short_scatters():
    # Model at the origin on the x = 0 edge, BS 0: only a 2" scatter (1/36) can still hit; half of
    # those directions stay on the table; longer scatters all miss the model.
    p = marker_pmf(Formation.grid(1), 3.0, bs=0, edges=Edges(xmax=0.0))
    assert p[1] == pytest.approx(P_HIT + (1 - P_HIT) * (1 / 36) * 0.5, abs=1e-15)


def test_hull_against_dense_quadrature():
    h = Hull(4.5, 3.5)
    p = marker_pmf(h, 3.0, bs=3, aim_point=(1.0, 0.5))
    w = arrow_distance_pmf(3)
    t = (np.arange(400_000) + 0.5) * 2 * np.pi / 400_000
    expect = P_HIT
    for d, wd in enumerate(w):
        pts = np.column_stack([1.0 + d * np.cos(t), 0.5 + d * np.sin(t)])
        expect += (1 - P_HIT) * wd * (h.distance(pts) <= 1.5).mean()
    assert p[1] == pytest.approx(expect, abs=1e-5)


# ----------------------------------------------------------------------------- invariants
def _random_scenarios(count=25, seed=7):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        n = int(rng.integers(1, 12))
        pos = rng.uniform(0, 8, size=(n, 2))
        yield (
            Formation.from_positions(pos, float(rng.choice([25, 32, 40, 60]))),
            float(rng.choice([3.0, 5.0, 7.0, 10.0])),
            int(rng.integers(0, 7)),
            bool(rng.integers(2)),
            rng.uniform(0, 8, size=2),
        )


def test_pmfs_sum_to_one_and_more_models_never_hurt():
    for f, diam, bs, ind, aim in _random_scenarios():
        for twin in (False, True):
            p = marker_pmf(f, diam, bs=bs, indirect=ind, twin_linked=twin, aim_point=aim)
            assert p.sum() == pytest.approx(1.0, abs=1e-12) and (p >= -1e-15).all()
            extra = Formation(np.vstack([f.positions, aim + 1.0]), f.base_radius)
            q = marker_pmf(extra, diam, bs=bs, indirect=ind, twin_linked=twin, aim_point=aim)
            s_p, s_q = sf(p), sf(q)[: len(p)]
            if not twin:  # twin-linked re-roll thresholds move with the formation
                assert (s_q >= s_p - 1e-12).all()


def test_twin_linked_never_lowers_the_mean():
    for f, diam, bs, ind, aim in _random_scenarios(seed=11):
        plain = mean_models_hit(f, diam, bs=bs, indirect=ind, aim_point=aim)
        twin = mean_models_hit(f, diam, bs=bs, indirect=ind, aim_point=aim, twin_linked=True)
        assert twin >= plain - 1e-12


def test_multiple_blasts_convolve():
    f = Formation.grid(10, 32, 2.0, 5)
    one = marker_pmf(f, 3.0, bs=4)
    three = marker_pmf(f, 3.0, bs=4, shots=3)
    assert three == pytest.approx(np.convolve(np.convolve(one, one), one), abs=1e-15)
    assert len(three) == 31


def test_mega_blast_marginals_match_single_markers():
    f = Formation.grid(10, 32, 1.0, 5)
    joint = mega_blast_pmf(f, bs=3, aim=2)
    assert joint.sum() == pytest.approx(1.0, abs=1e-12)
    m = f.n + 1
    i, j, k = np.indices(joint.shape)
    total = np.bincount((i + j + k).ravel(), joint.ravel(), minlength=3 * m)[:m]
    inner = joint.sum(axis=(1, 2))
    inner_mid = np.bincount((i + j).ravel(), joint.ravel())[:m]
    assert total == pytest.approx(marker_pmf(f, 10.0, bs=3, aim=2), abs=1e-13)
    assert inner == pytest.approx(marker_pmf(f, 5.0, bs=3, aim=2), abs=1e-13)
    assert inner_mid == pytest.approx(marker_pmf(f, 7.0, bs=3, aim=2), abs=1e-13)
    two = mega_blast_pmf(f, bs=3, aim=2, shots=2)
    assert two.shape == (21, 21, 21) and two.sum() == pytest.approx(1.0, abs=1e-12)


def test_multiple_barrage_with_one_marker_is_a_blast():
    f = Formation.grid(10, 32, 2.0, 5)
    res = multiple_barrage_pmf(f, 3.0, 1, bs=4, aim=2, n_theta=32)
    assert res.pmf == pytest.approx(marker_pmf(f, 3.0, bs=4, aim=2), abs=1e-13)
    assert res.error_bound == pytest.approx(0.0, abs=1e-13)


def test_multiple_barrage_converges_and_sums_to_one():
    f = Formation.grid(10, 32, 2.0, 5)
    coarse = multiple_barrage_pmf(f, 3.0, 3, bs=4, aim=2, n_theta=128)
    fine = multiple_barrage_pmf(f, 3.0, 3, bs=4, aim=2, n_theta=512)
    assert fine.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert fine.error_bound < coarse.error_bound
    assert np.abs(fine.pmf - coarse.pmf).max() <= coarse.error_bound + fine.error_bound
    # Three markers never hit fewer than one.
    assert np.dot(np.arange(len(fine.pmf)), fine.pmf) > mean_models_hit(f, 3.0, bs=4, aim=2)


def test_clover_reduces_to_one_circle():
    f = Formation.grid(10, 32, 2.0, 5)
    single = CloverLayout(circle_diameter=5.0, offsets=((0.0, 0.0),), faces=(0,) * 6)
    p = apocalyptic_barrage_pmf(f, 1, layout=single, bs=3, aim=2, rotation=0.0)
    assert p == pytest.approx(marker_pmf(f, 5.0, bs=3, aim=2), abs=1e-13)
    q = apocalyptic_barrage_pmf(f, 2, layout=single, bs=12, aim=2, rotation=0.0)
    assert q[2 * int(np.argmax(marker_pmf(f, 5.0, bs=12, aim=2)))] == pytest.approx(1.0)


def test_default_clover_sums_to_one():
    f = Formation.grid(10, 32, 2.0, 5)
    p = apocalyptic_barrage_pmf(f, 4, layout=DEFAULT_CLOVER, bs=3)
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    assert len(p) == 4 * 10 + 1


def _clover_cell_by_cell(f, attacks, bs, aim, edges=None):
    """The Apocalyptic Barrage summed one elementary interval of direction at a time, each cell's dice raised
    to ``attacks`` on their own (the library adds the cells that share their circles' counts first)."""
    from praetor_analysis.markers.barrages import _best_rotation, _clover_counts
    from praetor_analysis.markers.blasts import circle_cells, circle_circle, edge_breaks
    from praetor_analysis.prob.convolution import convolve_power

    center = f.positions[aim]
    psi = _best_rotation(f, DEFAULT_CLOVER, center)
    c, s = np.cos(psi), np.sin(psi)
    offs = np.asarray(DEFAULT_CLOVER.offsets) @ np.array([[c, s], [-s, c]])
    r = DEFAULT_CLOVER.circle_diameter / 2 + f.base_radius

    def at(pts, w):
        counts = _clover_counts(f, DEFAULT_CLOVER, offs, pts)
        if edges is not None:
            counts[~edges.contains(pts)] = 0
        out = 0.0
        for wi, ci in zip(w, counts, strict=True):
            die = np.zeros(f.n + 1)
            for face in DEFAULT_CLOVER.faces:
                die[max(ci) if face is None else ci[face]] += 1 / 6
            out = out + wi * convolve_power(die, attacks)
        return out

    wd = arrow_distance_pmf(bs)
    total = (P_HIT + (1 - P_HIT) * wd[0]) * at(center[None], [1.0])
    for d in range(1, 13):
        if wd[d]:
            br = np.concatenate([circle_circle(center + o, d, f.positions, np.full(f.n, r)) for o in offs])
            if edges is not None:
                br = np.concatenate([br, edge_breaks(center, d, edges)])
            pts, w = circle_cells(center, float(d), br)
            total = total + (1 - P_HIT) * wd[d] * at(pts, w)
    return total


@pytest.mark.parametrize(
    ("models", "attacks", "bs", "edges"), [(10, 3, 4, None), (5, 1, 2, None), (7, 4, 3, Edges(ymax=3.0))]
)
def test_clover_equals_the_cell_by_cell_sum(models, attacks, bs, edges):
    f = Formation.grid(models, 32, 2.0, 5)
    for aim in (0, models // 2):
        want = _clover_cell_by_cell(f, attacks, bs, aim, edges)
        got = apocalyptic_barrage_pmf(f, attacks, bs=bs, aim=aim, edges=edges)
        assert got == pytest.approx(want, abs=1e-13)
    # fewer dice (as after Gets Hot) mix the same places: the same answer as a fresh computation
    from praetor_analysis.prob.memo import clear_memos

    fewer = apocalyptic_barrage_pmf(f, attacks + 1, bs=bs, edges=edges)
    clear_memos()
    assert np.array_equal(fewer, apocalyptic_barrage_pmf(f, attacks + 1, bs=bs, edges=edges))
