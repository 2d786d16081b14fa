"""Overload (X) Misfires of the volleys the edition 3 stages resolve (vehicles, markers): each resolved on its own
firing unit as the engine does, and reported apart (docs/rules-hh3.md)."""

from __future__ import annotations

from praetor_analysis.engine.hh3 import FireGroup, Hh3Volley, MisfireResult, group_counts, losses, resolve_group, start
from praetor_analysis.engine.hh3.volley import misfire_group
from praetor_analysis.scenario.hh3_limits import check_size

__all__ = ["misfire_of"]


def misfire_of(unit: int, index: int, volley: Hh3Volley, group: FireGroup) -> MisfireResult | None:
    """The Misfires of ``volley`` (its Fire Group ``group``) on its own unit, or None (no Overload, or a firer
    without T and W: the engine's report names it)."""
    misfires = misfire_group(volley, group)
    firer = volley.attacker
    if misfires is None or firer.w is None:
        return None
    check_size(misfires.dice.max, firer.models, firer.w, side="attacker", field="attacker.models")
    states = resolve_group(start(firer.models, firer.w), misfires, firer.w)
    counts = group_counts(misfires)
    casualties, damage = losses(states, firer.models, firer.w)
    return MisfireResult(
        unit, index, volley.weapon.name, misfires.dice, counts["wounds"], counts["unsaved"], casualties, damage
    )
