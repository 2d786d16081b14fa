"""Which armour value an HH3 hit meets (docs/rules-hh3.md#vehicles).

A vehicle prints Front, Side and Rear armour; a Knight prints Front and Rear only (a hit on its Side reads its
Rear); a Flyer has one value for every facing. Melee hits meet the Rear (the highest value in a challenge),
indirect fire the Side, and a marker or template that the firer sees over several facings the Side.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from praetor_analysis.errors import PraetorError, show_value

__all__ = ["FACINGS", "Armour", "Facing", "HitSource"]

Facing = Literal["Front", "Side", "Rear"]
FACINGS: tuple[Facing, ...] = ("Front", "Side", "Rear")

HitSource = Literal["shooting", "melee", "challenge", "indirect", "marker_several_facings"]
"""Where the hit comes from, as far as the facing is concerned."""


@dataclass(frozen=True)
class Armour:
    """A vehicle's armour values; ``side`` None for a Knight (its Side reads Rear), all three equal for a Flyer.

    Attributes:
        front, side, rear: armour values (0..20; 0 is penetrated automatically).
        flyer: one armour value for every facing (``front``).
    """

    front: int
    side: int | None
    rear: int
    flyer: bool = False

    def __post_init__(self) -> None:
        for name in ("front", "side", "rear"):
            value = getattr(self, name)
            if value is None and name == "side":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
                raise PraetorError(
                    f"target.{name.title()} Armour: expected a whole number 0..20, got {show_value(value)}",
                    field=f"target.{name.title()} Armour",
                    value=value,
                )

    def value(self, facing: Facing) -> int:
        """The armour value of ``facing`` (Knights: Side reads Rear; Flyers: always Front's value)."""
        if facing not in FACINGS:
            raise PraetorError(
                f"target.facing: expected one of Front, Side, Rear, got {show_value(facing)}",
                field="target.facing",
                value=facing,
            )
        if self.flyer:
            return self.front
        if facing == "Front":
            return self.front
        if facing == "Side":
            return self.rear if self.side is None else self.side
        return self.rear

    def for_hit(self, source: HitSource = "shooting", seen: Facing = "Front") -> int:
        """The armour value a hit meets: the facing the firer sees (``seen``), the Rear in melee, the highest
        value in a challenge, the Side for indirect fire and for a marker seen over several facings."""
        if source == "melee":
            return self.value("Rear")
        if source == "challenge":
            return max(self.value(f) for f in FACINGS)
        if source in ("indirect", "marker_several_facings"):
            return self.value("Side")
        return self.value(seen)
