"""A whole edition 3 round of combat at the door: ``target_weapon`` (docs/rules-hh3.md#melee).

The document is parsed and checked here; the round is resolved by
:func:`praetor_analysis.units.hh3_combat.resolve_round` and written back with its ``to_dict()``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.errors import ScenarioError
from praetor_analysis.profiles import read_weapon
from praetor_analysis.scenario.hh3 import parse_hh3
from praetor_analysis.units import resolve_round, round_sides

__all__ = ["calc_round"]


def calc_round(rest: Mapping[str, Any], mine: Mapping[str, Any], *, check_only: bool) -> dict[str, Any] | None:
    """The result mapping of a whole round (None when ``check_only``)."""
    for key in mine:
        if key != "target_weapon":
            raise ScenarioError(f"{key}: markers are not used in a round of combat", field=key)
    if rest.get("mode", "shooting") != "melee" or "firing_units" in rest:
        raise ScenarioError("target_weapon: a whole round of combat is one melee volley (mode: melee)",
                            field="target_weapon")  # fmt: skip
    scenario = parse_hh3(rest)
    volley = scenario.firing_units[0][0]
    if not volley.weapon.melee:
        raise ScenarioError("weapon: a round of combat needs a melee weapon (IM, AM, SM)", field="weapon")
    if volley.context.hits is not None or volley.context.attacks is not None or volley.context.engaged is not None:
        field = next(k for k in ("hits", "attacks", "engaged") if getattr(volley.context, k) is not None)
        raise ScenarioError(f"{field}: a whole round counts its own attacks from the models alive", field=field)
    target_weapon = read_weapon(mine["target_weapon"], "target_weapon")
    if not target_weapon.melee:
        raise ScenarioError("target_weapon: a melee profile (IM, AM, SM) is needed", field="target_weapon")
    back, a_side, t_side = round_sides(volley, target_weapon, scenario.target)
    if check_only:
        return None
    return resolve_round(volley, back, a_side, t_side).to_dict()
