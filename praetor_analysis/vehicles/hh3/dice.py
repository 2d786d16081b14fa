"""What one attack die does to an HH3 vehicle before its Armour Penetration Test (docs/rules-hh3.md#vehicles).

A die (one Hit Test, one blast marker, or one template hit) ends in one of a few *outcomes*: a probability,
whether its natural hit roll showed 5 or 6 (Shock (X) reads that, hit or miss), and the hit it makes: none,
a plain hit, or a Critical Hit. :class:`DieOutcomes` lists them; the chain treats the dice as independent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from praetor_analysis.errors import PraetorError, show_value

__all__ = ["DieOutcome", "DieOutcomes", "HitClass"]

HitClass = Literal["none", "hit", "critical"]


@dataclass(frozen=True)
class DieOutcome:
    """One way an attack die can end: its probability, a natural 5-6 on its hit roll, the hit it makes."""

    p: float
    shock_face: bool
    hit: HitClass


@dataclass(frozen=True)
class DieOutcomes:
    """The outcomes of one attack die (their probabilities sum to 1)."""

    outcomes: tuple[DieOutcome, ...]

    def __post_init__(self) -> None:
        total = sum(o.p for o in self.outcomes)
        if abs(total - 1.0) > 1e-9 or any(o.p < 0 for o in self.outcomes):
            raise ValueError(f"die outcomes must be probabilities summing to 1, got {total!r}")

    @classmethod
    def from_faces(cls, faces: Sequence[HitClass], *, automatic: bool = False) -> DieOutcomes:
        """A Hit Test: ``faces[i]`` is what the natural result ``i + 1`` makes. ``automatic`` (BS 10, no snap):
        no die is rolled and the hit counts as a natural 6 (``faces`` unread: a Critical Hit)."""
        if automatic:
            return cls((DieOutcome(1.0, True, "critical"),))
        if len(faces) != 6 or any(f not in ("none", "hit", "critical") for f in faces):
            raise PraetorError(f"hit faces: expected six of none/hit/critical, got {show_value(faces)}")
        return cls(tuple(DieOutcome(1.0 / 6.0, i >= 4, f) for i, f in enumerate(faces)))

    @classmethod
    def from_test(cls, target: int | None, critical_from: int | None = None) -> DieOutcomes:
        """A Hit Test on ``target``+ (a natural 1 always fails; above 6 never hits), the hit Critical from a
        natural ``critical_from`` up; 1 or less: no die is rolled, the hit is
        automatic and counts as a natural 6 (a Critical Hit).

        ``target`` None is a Hit Test that cannot be made (BS 1 Snap Shots, BS 0, WS 0): no die is rolled, so
        no natural 5-6 for Shock (X) either (docs/rules-hh3.md, Hit Tests: such a miss triggers nothing)."""
        if target is None:
            return cls((DieOutcome(1.0, False, "none"),))
        if target <= 1:
            return cls.from_faces(["critical"] * 6, automatic=True)
        faces: list[HitClass] = []
        for face in range(1, 7):
            if face == 1 or face < target:
                faces.append("none")
            elif critical_from is not None and face >= critical_from:
                faces.append("critical")
            else:
                faces.append("hit")
        return cls.from_faces(faces)

    @classmethod
    def marker(cls, test: DieOutcomes, p_scatter_hits: float) -> DieOutcomes:
        """A blast marker over a vehicle: its Hit Test ``test``; a failed test scatters and still hits the hull
        with probability ``p_scatter_hits`` (a plain hit: no critical or other hit-roll effect)."""
        out: list[DieOutcome] = []
        for o in test.outcomes:
            if o.hit != "none":
                out.append(o)
                continue
            out.append(DieOutcome(o.p * p_scatter_hits, o.shock_face, "hit"))
            out.append(DieOutcome(o.p * (1.0 - p_scatter_hits), o.shock_face, "none"))
        return cls(tuple(out))

    @classmethod
    def certain_hit(cls) -> DieOutcomes:
        """A hit with no Hit Test (a template's, a given hit): plain, no natural roll for Shock."""
        return cls.without_test(1.0)

    @classmethod
    def without_test(cls, p_hit: float) -> DieOutcomes:
        """A plain hit with probability ``p_hit`` and no Hit Test (an indirect Barrage marker over the hull)."""
        if p_hit >= 1.0:
            return cls((DieOutcome(1.0, False, "hit"),))
        return cls((DieOutcome(p_hit, False, "hit"), DieOutcome(1.0 - p_hit, False, "none")))

    def p_hit(self, hit: HitClass) -> float:
        """P(the die makes a hit of class ``hit``)."""
        return sum(o.p for o in self.outcomes if o.hit == hit)
