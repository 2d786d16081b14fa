"""Rules of damage: Brutal, Destroyer, Deflagrate (Instant Death and Murderous Strike are wound rules)."""

from __future__ import annotations

from praetor_analysis.rules.contexts import WoundSituation
from praetor_analysis.rules.hooks import Hooks, Role
from praetor_analysis.rules.registry import Holder, Stage, count, declare

#: Destroyer's damage on a unit with Toughness: D3 wounds per unsaved wound (index = wounds lost).
D3_DAMAGE = (0.0, 1 / 3, 1 / 3, 1 / 3)


def _swarm(value: int | None, variant: str | None, s: WoundSituation) -> tuple[float, ...] | None:
    return (0.0, 0.0, 1.0) if s.blast or s.template else None  # each unsaved wound becomes two


def _d3_damage(value: int | None, variant: str | None, s: WoundSituation) -> tuple[float, ...]:
    return D3_DAMAGE


BRUTAL = declare(
    "Brutal",
    Stage.DAMAGE,
    param=count(1, 10, 1),
    summary="each wound allocated becomes X wounds, saved one by one; the excess on a dying model is lost",
    roles=(Role.WOUNDS_EACH,),
)
DESTROYER = declare(
    "Destroyer",
    Stage.DAMAGE,
    Stage.VEHICLES,
    hooks=Hooks(damage=_d3_damage),
    summary="each unsaved wound does D3 damage (excess lost); D3 hull points against vehicles",
    roles=(Role.D3_HULL_POINTS,),
)
DEFLAGRATE = declare(
    "Deflagrate",
    Stage.DAMAGE,
    summary="as many extra automatic hits as unsaved wounds, which cannot Deflagrate again",
    roles=(Role.EXTRA_HITS,),
)
SWARM = declare(
    "Swarm",
    Stage.DAMAGE,
    holder=Holder.UNIT,
    hooks=Hooks(multiplied=_swarm),
    summary="each unsaved wound of a Blast or Template weapon becomes two, on the model it was allocated to "
    "(an Instant Death wound removes the model anyway)",
)
