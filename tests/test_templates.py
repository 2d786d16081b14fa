"""Template placement: exact angle search against brute force, Torrent, Wall of Death."""

import numpy as np
import pytest

from praetor_analysis.markers.formation import Formation
from praetor_analysis.markers.templates import (
    FLAME_TEMPLATE,
    HELLSTORM_TEMPLATE,
    Teardrop,
    _hits_at,
    firer_in_front,
    place_template,
    template_pmf,
    torrent_placement,
    wall_of_death_pmf,
)

R32 = 16 / 25.4


def test_teardrop_distance_by_hand():
    t = Teardrop(8.0, 1.0, 3.0)  # tip circle r 0.5 at x=0.5, wide circle r 1.5 at x=6.5
    pts = np.array([[0.5, 0.0], [-1.0, 0.0], [9.0, 0.0], [6.5, 2.5], [8.0, 0.0]])
    assert t.distance(pts) == pytest.approx([-0.5, 1.0, 1.0, 1.0, 0.0])
    with pytest.raises(ValueError):
        Teardrop(2.0, 1.0, 3.0)


def test_single_model_reach():
    one = Formation.from_positions([[0.0, 5.0]], 32)
    assert place_template(one, (0.0, 0.0)).hits == 1
    far = Formation.from_positions([[0.0, 8.25 + R32 + 0.01]], 32)
    assert place_template(far, (0.0, 0.0)).hits == 0
    touching = Formation.from_positions([[0.0, 8.25 + R32]], 32)
    assert place_template(touching, (0.0, 0.0)).hits == 1
    assert template_pmf(one, (0.0, 0.0)).tolist() == [0.0, 1.0]


def test_exact_search_matches_dense_brute_force():
    rng = np.random.default_rng(3)
    angles = np.linspace(0, 2 * np.pi, 40_001)
    for _ in range(25):
        f = Formation.from_positions(rng.uniform(0, 8, size=(int(rng.integers(1, 12)), 2)), 25)
        firer = np.array([rng.uniform(-2, 10), rng.uniform(-8, -0.5)])
        for shape in (FLAME_TEMPLATE, HELLSTORM_TEMPLATE):
            p = place_template(f, firer, shape=shape, firer_radius=R32)
            brute = _hits_at(f, shape, firer, R32, angles).sum(axis=1).max()
            assert p.hits >= brute  # exact search never misses a dense-grid optimum
            assert p.hits == int(p.hit.sum())
            assert p.hits <= brute + 1  # and differs only on a measure-zero tangency


def test_legion_squad_in_front():
    f = Formation.grid(10, 32, 2.0, 5)
    firer = firer_in_front(f, 1.0, R32)
    assert place_template(f, firer, firer_radius=R32).hits == 3
    assert place_template(f, firer, firer_radius=R32, shape=HELLSTORM_TEMPLATE).hits >= 3


def test_torrent_reaches_further_than_a_template():
    f = Formation.grid(10, 32, 2.0, 5)
    firer = firer_in_front(f, 12.0, R32)
    assert place_template(f, firer, firer_radius=R32).hits == 0
    t = torrent_placement(f, firer, 12.0, firer_radius=R32, grid_step=0.5)
    assert t.hits >= 3
    tip = np.array(t.tip)
    assert np.hypot(*(tip - firer)) <= 12.0 + R32 + 1e-9
    u = np.array([np.cos(t.angle), np.sin(t.angle)])
    assert np.hypot(*(tip + 8.25 * u - firer)) >= np.hypot(*(tip - firer)) - 1e-9


def test_wall_of_death():
    assert wall_of_death_pmf() == pytest.approx([0, 1 / 3, 1 / 3, 1 / 3])
    assert wall_of_death_pmf(hellstorm=True) == pytest.approx([0] + [1 / 6] * 6)


def test_empty_formation():
    assert template_pmf(Formation.grid(0), (0.0, 0.0)).tolist() == [1.0]
