"""Formations of target models for marker and template weapons (docs/rules.md#markers-and-templates).

All lengths are in inches; base sizes are given in millimetres as printed (1" = 25.4 mm).
A :class:`Formation` is a set of round bases; a :class:`Hull` is a vehicle's rectangle.
Both are immutable value objects.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["DEFAULT_COLUMNS", "MM_PER_INCH", "PRESETS", "Edges", "Formation", "Hull"]

MM_PER_INCH = 25.4
#: Default number of columns of :meth:`Formation.grid`: lines of five, the usual deployment.
DEFAULT_COLUMNS = 5


@dataclass(frozen=True)
class Formation:
    """Round bases of identical size.

    Attributes:
        positions: ``(n, 2)`` array of base centres, inches.
        base_radius: radius of every base, inches.
    """

    positions: np.ndarray
    base_radius: float

    def __post_init__(self) -> None:
        pos = np.asarray(self.positions, dtype=np.float64).reshape(-1, 2)
        pos.setflags(write=False)
        object.__setattr__(self, "positions", pos)
        if not self.base_radius >= 0:
            raise ValueError(f"base_radius must be >= 0, got {self.base_radius!r}")
        object.__setattr__(self, "base_radius", float(self.base_radius))

    @property
    def n(self) -> int:
        """Number of models."""
        return int(self.positions.shape[0])

    def __len__(self) -> int:
        return self.n

    @classmethod
    def grid(cls, models: int, base_mm: float = 32, gap: float = 2.0, columns: int | None = None) -> Formation:
        """A rectangular grid (docs/scenario.md ``formation``).

        Model ``i`` stands at column ``i % columns`` and row ``i // columns``; centres are
        ``base_mm / 25.4 + gap`` inches apart along both axes; model 0 is at the origin, x grows
        along a row and y from row to row.

        Args:
            models: number of models (>= 0).
            base_mm: base diameter in millimetres.
            gap: distance between neighbouring base edges, inches.
            columns: models per row; default ``min(models, DEFAULT_COLUMNS)`` (lines of five).
        """
        if models < 0:
            raise ValueError(f"models must be >= 0, got {models}")
        if gap < 0 or base_mm < 0:
            raise ValueError("base_mm and gap must be >= 0")
        if columns is None:
            columns = max(1, min(models, DEFAULT_COLUMNS))
        if columns < 1:
            raise ValueError(f"columns must be >= 1, got {columns}")
        pitch = base_mm / MM_PER_INCH + gap
        i = np.arange(models)
        pos = np.column_stack([(i % columns) * pitch, (i // columns) * pitch]).astype(np.float64)
        return cls(pos, base_mm / MM_PER_INCH / 2.0)

    @classmethod
    def from_positions(cls, positions: np.ndarray | list, base_mm: float = 32) -> Formation:
        """Explicit base centres (inches) with a base diameter in millimetres."""
        return cls(np.asarray(positions, dtype=np.float64).reshape(-1, 2), base_mm / MM_PER_INCH / 2.0)

    def translated(self, dx: float, dy: float) -> Formation:
        """The same formation moved by ``(dx, dy)`` inches."""
        return Formation(self.positions + np.array([dx, dy]), self.base_radius)

    def rotated(self, angle: float, about: tuple[float, float] = (0.0, 0.0)) -> Formation:
        """The same formation turned by ``angle`` radians counter-clockwise about a point."""
        c, s = np.cos(angle), np.sin(angle)
        rot = np.array([[c, -s], [s, c]])
        o = np.asarray(about, dtype=np.float64)
        return Formation((self.positions - o) @ rot.T + o, self.base_radius)


@dataclass(frozen=True)
class Hull:
    """A vehicle hull: an axis-aligned rectangle centred on the origin.

    A marker of radius ``R`` centred at ``c`` hits the hull when the disc overlaps the rectangle,
    i.e. when the distance from ``c`` to the rectangle is ``<= R``.

    Attributes:
        length: extent along x, inches.
        width: extent along y, inches.
    """

    length: float
    width: float

    def __post_init__(self) -> None:
        if not (self.length >= 0 and self.width >= 0):
            raise ValueError("hull length and width must be >= 0")

    @property
    def n(self) -> int:
        """A hull is one model."""
        return 1

    def distance(self, points: np.ndarray) -> np.ndarray:
        """Distance from each point (``(..., 2)``) to the rectangle (0 inside)."""
        p = np.asarray(points, dtype=np.float64)
        dx = np.maximum(np.abs(p[..., 0]) - self.length / 2.0, 0.0)
        dy = np.maximum(np.abs(p[..., 1]) - self.width / 2.0, 0.0)
        return np.hypot(dx, dy)


@dataclass(frozen=True)
class Edges:
    """Battlefield limits (inches). A marker whose centre ends beyond one misses.

    A centre exactly on an edge is *not* beyond it (the tests are inclusive).
    """

    xmin: float = -np.inf
    xmax: float = np.inf
    ymin: float = -np.inf
    ymax: float = np.inf

    def contains(self, points: np.ndarray, tol: float = 0.0) -> np.ndarray:
        """Boolean mask: the point is on the battlefield (edges included, widened by ``tol``)."""
        p = np.asarray(points, dtype=np.float64)
        x, y = p[..., 0], p[..., 1]
        return (x >= self.xmin - tol) & (x <= self.xmax + tol) & (y >= self.ymin - tol) & (y <= self.ymax + tol)

    @classmethod
    def from_dict(cls, d: dict | None) -> Edges | None:
        """Build from docs/scenario.md ``edges`` (missing keys are unbounded); ``None`` passes through."""
        if d is None:
            return None
        return cls(
            **{
                k: float(d.get(k, default))
                for k, default in (("xmin", -np.inf), ("xmax", np.inf), ("ymin", -np.inf), ("ymax", np.inf))
            }
        )


def _blob(models: int, base_mm: float, gap: float) -> Formation:
    """A roughly square blob: ceil(sqrt(models)) columns."""
    return Formation.grid(models, base_mm, gap, columns=int(np.ceil(np.sqrt(models))))


#: Named formations for examples and benchmarks.
PRESETS: dict[str, Formation | Hull] = {
    "legion_tactical_10_32mm_2in": Formation.grid(10, 32, 2.0, 5),
    "legion_tactical_10_32mm_1in": Formation.grid(10, 32, 1.0, 5),
    "legion_tactical_10_32mm_2in_line": Formation.grid(10, 32, 2.0, 10),
    "terminators_5_40mm_2in": Formation.grid(5, 40, 2.0, 5),
    "terminators_5_40mm_1in": Formation.grid(5, 40, 1.0, 5),
    "militia_20_25mm_blob_1in": _blob(20, 25, 1.0),
    "auxilia_20_25mm_2in": Formation.grid(20, 25, 2.0, 10),
    "dreadnoughts_3_60mm_2in": Formation.grid(3, 60, 2.0, 3),
    "rhino_hull": Hull(4.5, 3.5),
    "land_raider_hull": Hull(7.0, 4.5),
}
