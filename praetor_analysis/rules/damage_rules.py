"""Rules of damage: Brutal, Destroyer, Deflagrate, Destructor, Moonsilver, Psy-shock (Instant Death and Murderous
Strike are wound rules); a ``damage`` hook gives the pmf of the wounds one unsaved wound does (index = wounds
lost), or None where it does not act."""

from __future__ import annotations

from praetor_analysis.prob import two_d6
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
#: Targets on which Destructor does 2D6 wounds instead of D6.
DESTRUCTOR_LARGE = ("Knight", "Titan", "Super-heavy", "Building", "Fortification", "Monstrous")


def _destructor(value: int | None, variant: str | None, s: WoundSituation) -> tuple[float, ...]:
    return tuple(two_d6()) if s.target_is(*DESTRUCTOR_LARGE) else (0.0, *([1 / 6] * 6))


def _moonsilver(value: int | None, variant: str | None, s: WoundSituation) -> tuple[float, ...] | None:
    return (0.0, 0.0, 1.0) if s.target_is("Daemon", "Psyker") else None


DESTRUCTOR = declare(
    "Destructor",
    Stage.DAMAGE,
    Stage.VEHICLES,
    pending=(Stage.VEHICLES,),
    hooks=Hooks(damage=_destructor),
    reads_types=DESTRUCTOR_LARGE,
    summary="each unsaved wound does D6 wounds (2D6 on Knights, Titans, Super-heavies, buildings and "
    "Monstrous models), the excess lost; D6 hull points on vehicles",
    precedence=2,
)
MOONSILVER = declare(
    "Moonsilver",
    Stage.DAMAGE,
    wound_targets=("Daemon", "Psyker"),
    hooks=Hooks(damage=_moonsilver),
    summary="an unsaved wound on a Daemon or Psyker counts as two, the excess lost; nothing on others",
    precedence=1,
)
PSY_SHOCK = declare(
    "Psy-shock",
    Stage.DAMAGE,
    wound_targets=("Daemon", "Psyker"),
    pending=(Stage.DAMAGE,),
    summary="a Psyker or Daemon unit it wounds also suffers Perils of the Warp; nothing on others",
)
