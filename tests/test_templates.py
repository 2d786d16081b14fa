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
    tip_bounds,
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


# --- the Torrent search: pruned by bounds, the same answer as trying every tip -----------------------------
def _every_tip(target, firer, reach, shape, firer_radius, grid_step):
    """The Torrent search as first written: every tip of the grid turned exactly, the first best kept."""
    from praetor_analysis.markers.templates import _turned_at

    f0 = np.asarray(firer, dtype=np.float64)
    best = place_template(target, firer, shape=shape, firer_radius=firer_radius)
    lim = reach + firer_radius
    g = np.arange(-lim, lim + grid_step / 2, grid_step)
    gx, gy = np.meshgrid(g, g)
    tips = np.column_stack([gx.ravel(), gy.ravel()]) + f0
    tips = tips[np.hypot(*(tips - f0).T) <= lim + 1e-12]
    near = np.hypot(*(tips[:, None, :] - target.positions[None]).transpose(2, 0, 1))
    for tip in tips[near.min(axis=1) <= shape.length + target.base_radius]:
        placed = _turned_at(target, shape, tip, f0)
        if placed is not None and placed.hits > best.hits:
            best = placed
    return best


def test_torrent_search_equals_trying_every_tip():
    rng = np.random.default_rng(11)
    for trial in range(30):
        n = int(rng.integers(1, 13))
        f = Formation.from_positions(rng.uniform(0, 9, size=(n, 2)), float(rng.choice([25, 32, 40, 60])))
        firer = (float(rng.uniform(-3, 12)), float(rng.uniform(-9, -1)))
        shape = (FLAME_TEMPLATE, HELLSTORM_TEMPLATE)[trial % 2]
        reach, radius = float(rng.choice([3.0, 6.0])), float(rng.choice([0.0, R32]))
        want = _every_tip(f, firer, reach, shape, radius, 0.5)
        got = torrent_placement(f, firer, reach, shape=shape, firer_radius=radius, grid_step=0.5)
        assert (got.hits, got.angle, got.tip) == (want.hits, want.angle, want.tip), trial
        assert np.array_equal(got.hit, want.hit)
    squad = Formation.grid(10, 32, 2.0, 5)  # a default formation, the catalog's reach
    firer = firer_in_front(squad, 1.0)
    want = _every_tip(squad, firer, 12.0, FLAME_TEMPLATE, 0.0, 0.5)
    got = torrent_placement(squad, firer, 12.0, grid_step=0.5)
    assert (got.hits, got.angle, got.tip) == (want.hits, want.angle, want.tip) and got.hits == 5


def test_tip_bounds_hold_every_exact_count():
    from praetor_analysis.markers.templates import _turned_at

    rng = np.random.default_rng(5)
    tight = total = 0
    for trial in range(20):
        n = int(rng.integers(1, 15))
        f = Formation.from_positions(rng.uniform(0, 8, size=(n, 2)), float(rng.choice([25, 32, 60])))
        shape = (FLAME_TEMPLATE, HELLSTORM_TEMPLATE)[trial % 2]
        tips = rng.uniform(-6, 14, size=(40, 2))
        bounds = tip_bounds(f, shape, tips)
        for tip, bound in zip(tips, bounds, strict=True):
            placed = _turned_at(f, shape, tip, tip - np.array([0.0, 1.0]))  # the turns allowed from a firer
            dense = _hits_at(f, shape, tip, 0.0, np.linspace(0, 2 * np.pi, 2001)).sum(axis=1).max()  # any turn
            assert placed is None or placed.hits <= bound
            assert dense <= bound
            tight += int(dense == bound)
            total += 1
    assert tight >= 0.95 * total  # a bound that prunes: the most hit at some turn, but for tangencies


def test_arc_table_holds_every_touching_angle():
    from praetor_analysis.markers.templates import _arc_table

    angles = np.linspace(0.0, np.pi, 4001)
    for shape in (FLAME_TEMPLATE, HELLSTORM_TEMPLATE, Teardrop(8.0, 1.0, 3.0)):
        for radius in (0.0, R32, 30 / 25.4):
            dist, arc = _arc_table(shape, radius)
            assert (np.diff(arc) <= 0).all()  # narrows as the distance grows
            for d, half in zip(dist[::7], arc[::7], strict=True):
                pts = np.stack([d * np.cos(angles), d * np.sin(angles)], axis=-1)
                touched = shape.distance(pts) <= radius + 1e-9
                assert not touched[angles > half + 1e-12].any(), (shape, radius, d)


@pytest.mark.parametrize(("models", "gap"), [(5, 2.0), (4, 2.0), (3, 1.0)])
def test_a_template_is_placed_from_whichever_side_covers_the_most(models, gap):
    # Source: by hand. A single row of 32 mm bases (radius 0.63"), centres 1.26" + gap apart. From the end of
    # the row (the firer 1" off the last base) the 8.25" teardrop lies along the row: with gap 2 the centres
    # are 1.63", 4.89" and 8.15" from its tip, three within it (the fourth at 11.41" is not); with gap 1 the
    # row is 3 models long and all three are covered. From the front only two fit across the 3.5" width.
    from praetor_analysis.scenario.calc import calc

    weapon = {"name": "F", "Range": "Template", "Strength": "4", "AP": "5", "Type": "Assault 1"}
    target = {"name": "X", "models": models, "T": 4, "W": 1, "Ld": 7, "Save": "-"}
    formation = {"models": models, "base_mm": 32, "gap": gap, "columns": models}
    got = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": target, "formation": formation})
    assert got["hits"]["pmf"] == [0.0, 0.0, 0.0, 1.0]
    assert any("covering 3 models" in a and "of the unit" in a for a in got["applied"])
    front = place_template(
        Formation.grid(models, base_mm=32, gap=gap, columns=models),
        firer_in_front(Formation.grid(models, base_mm=32, gap=gap, columns=models), 1.0),
    )
    assert front.hits == 2  # the front alone, as before
