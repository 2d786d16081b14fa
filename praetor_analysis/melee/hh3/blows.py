"""How an HH3 model fights: its Combat Initiative and its attacks per Initiative Step (docs/rules-hh3.md#melee).

- Combat Initiative = I with the weapon's IM (``I`` keeps it, ``+N``/``-N`` add, ``xN`` multiplies, a bare number
  sets it), Impact (IM) +1 after a successful charge; any Tactical Status forces 1, whatever the weapon.
- Attacks = A with the weapon's AM, Impact (AM) +1 after a successful charge, and Reaping Blow (X) +X while the
  side is outnumbered at the step it strikes (models alive there, a model with Bulky (X) counting X).
- The defender's WS on the chart is its unit's majority WS (a uniform unit: its WS); a vehicle counts as WS 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Protocol

__all__ = ["Applies", "attacks_at_step", "combat_initiative", "majority"]


class Applies(Protocol):
    """A weapon modifier (IM, AM, SM): the characteristic it turns a model's value into."""

    def apply(self, value: int) -> int: ...


def combat_initiative(i: int, im: Applies | None, *, impact: bool = False, status: bool = False) -> int:
    """The Combat Initiative of a model of Initiative ``i`` with a weapon of modifier ``im``; ``impact``: Impact
    (IM) after a successful charge; ``status``: the unit holds a Tactical Status (then 1)."""
    if status:
        return 1
    value = i if im is None else im.apply(i)
    return max(value + (1 if impact else 0), 0)


def attacks_at_step(
    a: int,
    am: Applies | None,
    *,
    impact: bool = False,
    reaping_blow: int | None = None,
    counts: tuple[int, int] = (1, 1),
) -> Callable[[int, int], int]:
    """Attacks per model as a function of (own models alive, enemy models alive) at the step: A with AM, Impact
    (AM) +1, Reaping Blow (X) +X when outnumbered; ``counts``: what one model of each side counts for
    outnumbering (a model with Bulky (X) counts X)."""
    base = (a if am is None else am.apply(a)) + (1 if impact else 0)
    extra = reaping_blow or 0
    mine, theirs = counts

    def attacks(own: int, enemy: int) -> int:
        return base + (extra if own * mine < enemy * theirs else 0)

    return attacks


def majority(values: Sequence[int]) -> int:
    """The value most models have; a tie goes to the highest tied value (WS, Toughness)."""
    if not values:
        raise ValueError("majority of no models")
    counts = Counter(values)
    top = max(counts.values())
    return max(v for v, c in counts.items() if c == top)
