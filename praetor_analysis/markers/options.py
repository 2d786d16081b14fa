"""How a marker is fired: the options every marker function takes, in one record."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TypedDict

import numpy as np

from praetor_analysis.markers.formation import Edges
from praetor_analysis.markers.scatter import arrow_distance_pmf

__all__ = ["MarkerFields", "MarkerOptions"]


class MarkerFields(TypedDict, total=False):
    """The keyword form of :class:`MarkerOptions` (``edges`` may also be the scenario's dict)."""

    bs: int
    indirect: bool
    twin_linked: bool
    aim: int | None
    aim_point: tuple[float, float] | None
    edges: Edges | dict[str, float] | None


@dataclass(frozen=True)
class MarkerOptions:
    """How a marker is fired.

    Attributes:
        bs: the firer's Ballistic Skill, subtracted from the 2D6 scatter (ignored when ``indirect``).
        indirect: an indirect Barrage: the full 2D6 scatter.
        twin_linked: re-roll the scatter when no Hit and the landing is worse than a fresh roll's mean.
        aim: index of the model the hole is placed over; default the best aim.
        aim_point: an explicit hole position (inches); overrides ``aim``.
        edges: battlefield limits; a marker whose centre ends beyond one misses.
    """

    bs: int = 0
    indirect: bool = False
    twin_linked: bool = False
    aim: int | None = None
    aim_point: tuple[float, float] | None = None
    edges: Edges | None = None

    @classmethod
    def of(cls, options: MarkerOptions | None, fields: MarkerFields) -> MarkerOptions:
        """The options of a call that gives either ``options`` or the keyword ``fields`` (not both)."""
        if options is not None and fields:
            raise TypeError(f"give options or the keywords {sorted(fields)}, not both")
        base = options if options is not None else cls()
        if not fields:
            return base
        edges = fields.get("edges")
        if isinstance(edges, dict):
            fields = {**fields, "edges": Edges.from_dict(edges)}
        return replace(base, **fields)  # type: ignore[arg-type]

    def distance_pmf(self) -> np.ndarray:
        """P(scatter distance = d inches | an arrow was rolled), d = 0..12."""
        return arrow_distance_pmf(self.bs, self.indirect)
