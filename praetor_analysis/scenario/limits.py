"""Cost bounds, checked on the typed records before any work: what a scenario may ask for.

Each limit is a documented constant; a scenario beyond one is refused with a ``ScenarioError`` naming the
field, before anything is allocated or computed. The limits sit far above what a game asks for (a 50-model
Militia blob under a battery of Large Blasts, a whole roster's firing units, a round of melee between two
full units) and well below what would take minutes or gigabytes.
"""

from __future__ import annotations

from typing import Any

from praetor_analysis.errors import ScenarioError
from praetor_analysis.melee import Side

#: Scenarios in one JSON array (a sweep).
MAX_SCENARIOS = 20_000
#: Volleys in one scenario's ``firing_units``, all firing units together.
MAX_VOLLEYS = 256
#: Profiles in one weapon list (Transmutative armaments).
MAX_PROFILES = 16
#: Estimated cells of a whole round of melee (:func:`melee_cells`): 30 vs 30 models of W2 are 2.8 million.
MAX_MELEE_CELLS = 4_000_000


def check_firing_units(units: list[Any] | tuple[Any, ...]) -> None:
    """Refuse more than :data:`MAX_VOLLEYS` volleys (counted before any is parsed)."""
    total = sum(len(u) for u in units)
    if total > MAX_VOLLEYS:
        raise ScenarioError(
            f"firing_units: {total} volleys in {len(units)} firing units (limit {MAX_VOLLEYS} volleys)",
            field="firing_units",
            value=total,
        )


def melee_cells(attacker: Side, target: Side) -> int:
    """An upper estimate of the cells a whole round allocates (see :data:`MAX_MELEE_CELLS`)."""
    sizes, blows = [], []
    for side in (attacker, target):
        u = side.unit
        sizes.append((u.models + 1) * int(u.W or 1))
        blows.append(u.models * (int(u.A or 0) + 4))  # charging, a second weapon, Rampage, Reaping Blow
    sa, st = sizes
    ua, ut = blows
    # each side's transition tables (state, state, unsaved) and the joint round table
    return st * st * (ua + 1) + sa * sa * (ut + 1) + sa * st * (ua + ut + 1)


def check_melee_round(attacker: Side, target: Side) -> None:
    """Refuse a whole round of melee beyond :data:`MAX_MELEE_CELLS`."""
    cells = melee_cells(attacker, target)
    if cells > MAX_MELEE_CELLS:
        raise ScenarioError(
            f"target.models: a round between {attacker.unit.models} x W{attacker.unit.W} and "
            f"{target.unit.models} x W{target.unit.W} models needs about {cells:.1e} state cells "
            f"(limit {MAX_MELEE_CELLS:.0e}); use fewer models",
            field="target.models",
            value=target.unit.models,
        )
