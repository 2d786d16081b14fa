"""HH3 markers and templates (MECHANICS-HH3 section 8): the scatter law, the shared test result, Templates."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from praetor_analysis.markers.formation import Edges, Formation, Hull
from praetor_analysis.markers.hh3_blast import (
    barrage_hh3,
    blast_hh3,
    direct_scatter_pmf,
    hull_hit_probability,
    indirect_scatter_pmf,
    marker_hits_by_class,
    scatter_tables,
    template_hits_hh3,
)
from praetor_analysis.prob.dice import parse_dice

SQUAD = Formation.grid(5, 32, 1.0, columns=3)  # two rows, 1" apart: a 5" marker covers several
RHINO = Hull(4.5, 3.5)


def _dense(
    target: Formation, radius: float, centre: np.ndarray, d: float, edges: Edges | None = None, k: int = 200_000
) -> np.ndarray:
    """The pmf over directions read at ``k`` evenly spaced angles (offset half a step): converges as 1/k."""
    t = (np.arange(k) + 0.5) * 2 * np.pi / k
    pts = centre[None, :] + d * np.column_stack([np.cos(t), np.sin(t)])
    gap = np.hypot(*(pts[:, None, :] - target.positions[None, :, :]).transpose(2, 0, 1))
    counts = (gap <= radius + target.base_radius).sum(axis=1)
    if edges is not None:
        counts = np.where(edges.contains(pts), counts, 0)
    return np.bincount(counts, minlength=target.n + 1) / k


@pytest.mark.parametrize("aim", range(5))
def test_arrow_tables_mean_is_the_closed_form_arc(aim: int) -> None:
    # For a model at distance D from the aim, the directions reaching it form an arc of half-angle
    # arccos((d^2 + D^2 - rho^2) / (2 d D)): the expected models hit is the sum of those arcs / pi (exact).
    radius = 2.5
    centre = SQUAD.positions[aim]
    _, arrow = scatter_tables(SQUAD, radius, centre, 12)
    rho = radius + SQUAD.base_radius
    dist = np.hypot(*(SQUAD.positions - centre).T)
    for d in range(1, 13):
        with np.errstate(divide="ignore", invalid="ignore"):
            c = (d * d + dist**2 - rho**2) / (2.0 * d * dist)
        frac = np.where(dist == 0, float(d <= rho), np.arccos(np.clip(c, -1, 1)) / np.pi)
        assert float(np.dot(np.arange(SQUAD.n + 1), arrow[d])) == pytest.approx(frac.sum(), abs=1e-12)


@pytest.mark.parametrize("edges", [None, Edges(xmin=-1.0, ymax=3.0)])
def test_arrow_tables_equal_a_dense_sweep_of_directions(edges: Edges | None) -> None:
    centre = SQUAD.positions[1]
    _, arrow = scatter_tables(SQUAD, 2.5, centre, 6, edges)
    for d in range(1, 7):
        assert np.abs(arrow[d] - _dense(SQUAD, 2.5, centre, d, edges)).max() < 1e-4


def test_scatter_laws_by_hand() -> None:
    # Direct: a miss always moves, D6 inches. Indirect Barrage (1): the Hit face 2/6 stays, else D6.
    assert direct_scatter_pmf().tolist() == pytest.approx([0] + [1 / 6] * 6, abs=1e-15)
    one = indirect_scatter_pmf(1)
    assert one[0] == pytest.approx(1 / 3, abs=1e-15) and one[3] == pytest.approx(2 / 3 / 6, abs=1e-15)
    # Barrage (2): 7" is 6 of 36 of the arrows: 2/3 * 6/36 = 1/9.
    assert indirect_scatter_pmf(2)[7] == pytest.approx(1 / 9, abs=1e-15)
    assert indirect_scatter_pmf(0).tolist() == [1.0]  # Barrage (0): the marker stays


def test_one_model_by_hand() -> None:
    # A 3" marker over one 32 mm base: hit in place. A miss moves 1..6": the base is still touched when the
    # centre is within 1.5 + 0.63 = 2.13", so on 1 and 2: P(scatter hits) = 2/6. With BS 4 (3+, P 2/3):
    # P(hit) = 2/3 + 1/3 * 1/3 = 7/9.
    law = blast_hh3(Formation.grid(1, 32), 3.0)
    assert law.on_hit.tolist() == [0.0, 1.0]
    assert law.on_miss[1] == pytest.approx(1 / 3, abs=1e-12)
    assert law.pmf(2 / 3)[1] == pytest.approx(7 / 9, abs=1e-12)


def test_a_missed_blast_never_stays() -> None:
    # BS is not subtracted and the Hit face moves it too: a 1" marker over a 25 mm base misses it on a miss
    # (1" < 0.5 + 0.49 is false for every distance of 1..6).
    law = blast_hh3(Formation.grid(1, 25), 1.0)
    assert law.on_miss[0] == pytest.approx(1.0, abs=1e-12)


def test_default_aim_maximises_expected_hits() -> None:
    law = blast_hh3(SQUAD, 5.0, p_test=0.5)
    means = [float(np.dot(np.arange(6), blast_hh3(SQUAD, 5.0, p_test=0.5, aim=i).pmf(0.5))) for i in range(5)]
    assert law.aim == int(np.argmax(means))
    assert float(np.dot(np.arange(6), law.pmf(0.5))) == pytest.approx(max(means), abs=1e-12)


def test_every_hit_of_a_marker_shares_its_test() -> None:
    # Enumerate the two markers' Hit Test dice (hits on 4+, critical on 6) and their placements: every hit of
    # a marker takes its own test's class; a miss scatters into plain hits.
    law = blast_hh3(SQUAD, 5.0)
    classes, joint = marker_hits_by_class(law, {"hit": 2 / 6, "critical": 1 / 6}, 2)
    assert classes == ("hit", "critical")
    want = np.zeros_like(joint)
    for faces in itertools.product(range(1, 7), repeat=2):
        parts = []
        for f in faces:
            pmf = law.on_hit if f >= 4 else law.on_miss
            parts.append([(k, p, "critical" if f == 6 else "hit") for k, p in enumerate(pmf) if p > 0])
        for (k1, p1, c1), (k2, p2, c2) in itertools.product(*parts):
            idx = [0, 0]
            idx[classes.index(c1)] += k1
            idx[classes.index(c2)] += k2
            want[tuple(idx)] += p1 * p2 / 36
    assert np.abs(joint - want).max() < 1e-12
    assert joint.sum() == pytest.approx(1.0, abs=1e-12)


def test_barrage_indirect_mixes_stay_and_scatter() -> None:
    # Barrage (1) over one model: stays 1/3 (hit), else D6: hit on 1 and 2 for a 3" marker and 32 mm base.
    law = barrage_hh3(Formation.grid(1, 32), 3.0, 1)
    assert law.on_hit[1] == pytest.approx(1 / 3 + 2 / 3 * 2 / 6, abs=1e-12)
    assert barrage_hh3(Formation.grid(1, 32), 3.0, 0).on_hit[1] == 1.0


def test_vehicle_hull_under_a_marker() -> None:
    # A 3" marker aimed at a Rhino's centre: a scatter of d <= 1.75 + 1.5 (width) always still touches;
    # in place it always hits.
    law = blast_hh3(RHINO, 3.0)
    in_place, scattered = hull_hit_probability(law)
    assert in_place == 1.0
    assert 3 / 6 - 1e-12 <= scattered <= 1.0  # d = 1, 2, 3 always touch


def test_template_hits_are_firepower_times_models() -> None:
    assert template_hits_hh3(3, 2).pmf(6) == 1.0
    d3 = template_hits_hh3(3, parse_dice("D3").dist)
    assert [d3.pmf(k) for k in (3, 6, 9)] == pytest.approx([1 / 3] * 3, abs=1e-15)
    two = template_hits_hh3(2, 1, templates=2)
    assert two.pmf(4) == 1.0


@pytest.mark.slow
def test_blast_law_against_a_seeded_simulation() -> None:
    # The whole law (test, D6 scatter, direction) sampled: every pmf entry within 5 standard errors.
    rng = np.random.default_rng(20261205)
    law = blast_hh3(SQUAD, 5.0, p_test=0.5, aim=1)
    k = 400_000
    hit = rng.random(k) < 0.5
    d = rng.integers(1, 7, size=k)
    t = rng.random(k) * 2 * np.pi
    centre = SQUAD.positions[1]
    pts = centre + np.where(hit[:, None], 0.0, d[:, None] * np.column_stack([np.cos(t), np.sin(t)]))
    gap = np.hypot(*(pts[:, None, :] - SQUAD.positions[None, :, :]).transpose(2, 0, 1))
    counts = (gap <= 2.5 + SQUAD.base_radius).sum(axis=1)
    got = np.bincount(counts, minlength=6) / k
    want = law.pmf(0.5)
    se = np.sqrt(want * (1 - want) / k) + 1e-9
    assert np.all(np.abs(got - want) <= 5 * se)
