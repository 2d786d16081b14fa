"""Formations, hulls and battlefield edges."""

import numpy as np
import pytest

from praetor_analysis.markers.formation import DEFAULT_COLUMNS, MM_PER_INCH, PRESETS, Edges, Formation, Hull


def test_grid_follows_scenario_layout():
    f = Formation.grid(10, base_mm=32, gap=2.0, columns=5)
    pitch = 32 / 25.4 + 2.0
    assert f.n == 10
    assert f.base_radius == pytest.approx(16 / 25.4)
    for i in range(10):
        assert f.positions[i] == pytest.approx([(i % 5) * pitch, (i // 5) * pitch])


def test_grid_default_columns_is_lines_of_five():
    assert DEFAULT_COLUMNS == 5
    f = Formation.grid(12)
    assert f.positions[:, 1].max() == pytest.approx(2 * (32 / MM_PER_INCH + 2.0))
    assert Formation.grid(3).positions[:, 1].max() == 0.0  # fewer than five: one line
    assert Formation.grid(0).n == 0


def test_from_positions_and_transforms():
    f = Formation.from_positions([[0, 0], [1, 2]], base_mm=40)
    assert f.base_radius == pytest.approx(20 / 25.4)
    g = f.translated(1, -1).rotated(np.pi / 2, about=(1, -1))
    assert g.positions[1] == pytest.approx([1 - 2, -1 + 1])
    with pytest.raises(ValueError):
        f.positions[0, 0] = 3.0  # immutable


def test_grid_rejects_bad_input():
    with pytest.raises(ValueError):
        Formation.grid(-1)
    with pytest.raises(ValueError):
        Formation.grid(3, columns=0)


def test_hull_distance():
    h = Hull(4.0, 2.0)
    pts = np.array([[0, 0], [2, 0], [3, 0], [0, 2], [3, 2]])
    assert h.distance(pts) == pytest.approx([0, 0, 1, 1, np.hypot(1, 1)])


def test_edges_inclusive_and_from_dict():
    e = Edges.from_dict({"xmin": 0, "xmax": 10})
    assert e.contains(np.array([[0.0, 5.0], [10.0, -99.0]])).all()
    assert not e.contains(np.array([[10.0 + 1e-9, 0.0]]))[0]
    assert Edges.from_dict(None) is None


def test_presets_are_valid():
    for name, target in PRESETS.items():
        assert target.n >= 1, name
    assert PRESETS["legion_tactical_10_32mm_2in"].n == 10
    assert PRESETS["militia_20_25mm_blob_1in"].n == 20
