"""Rules of where a marker, template or beam lands and whom it touches: with the hits given (``hits``)
they cannot matter; with a formation their geometry is pending; Dragon's Breath acts in Wall of Death.

Marker hits are made by the geometry (``placement`` "formation"), by Wall of Death ("wall of death"), or
given: see :func:`~praetor_analysis.rules.classify.wound_chain`.
"""

from __future__ import annotations

from typing import Any

from praetor_analysis.rules.hooks import Role
from praetor_analysis.rules.registry import RuleDecl, Stage, declare


def _geometry(name: str, summary: str) -> RuleDecl:
    """A rule of the geometry the engine does not compute yet: no effect when the hits are given."""
    return declare(name, Stage.PLACEMENT, pending=(Stage.PLACEMENT,), summary=summary)


def _in_wall_of_death(s: Any) -> bool:  # a rules.classify.Situation
    return s.placement == "wall of death"


CRAWLING_FIRE = _geometry(
    "Crawling Fire", 'the firer may move the placed blast up to 2" to cover more models (given hits stand)'
)
CRUDE_EXEGESIS = _geometry(
    "Crude Exegesis", "a double on the scatter dice puts the template over the firer (given hits stand)"
)
HEAVY_BEAM = _geometry("Heavy Beam", "every model under a 1\" wide line to the weapon's range is hit")
RADIATION_BEAM = _geometry(
    "Radiation Beam", "every model under a thin line is hit, a large model stopping it with D3 hits"
)
SONIC_WAVE = _geometry(
    "Sonic Wave", 'a 5" marker swept from the firer: every model it passes over is hit (S10 on the largest)'
)
DRAGONS_BREATH = declare(
    "Dragon's Breath",
    Stage.PLACEMENT,
    condition=_in_wall_of_death,
    summary="D6 automatic hits instead of D3 in Wall of Death; nothing otherwise",
    roles=(Role.WALL_OF_DEATH_D6,),
)
DEATHSTORM = declare(
    "Deathstorm",
    Stage.ELSEWHERE,
    summary="the same attack also against up to three other units: each unit's attack is the profile's",
)
