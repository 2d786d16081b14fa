"""Rules that act only against vehicles and machines (armour penetration, the damage table, Disruption's
automatic wounds on Dreadnoughts and Automata)."""

from __future__ import annotations

from praetor_analysis.rules.hooks import Role
from praetor_analysis.rules.registry import Holder, Stage, declare, roll

LANCE = declare("Lance", Stage.VEHICLES, summary="armour above 12 counts as 12", roles=(Role.ARMOUR_AT_MOST_12,))
SUNDER = declare(
    "Sunder",
    Stage.VEHICLES,
    summary="re-rolls failed penetration, and a glance when a re-roll does better",
    roles=(Role.REROLL_PENETRATION,),
)
EXOSHOCK = declare(
    "Exoshock",
    Stage.VEHICLES,
    param=roll(),
    summary="each penetrating hit adds another on a D6 of X+",
    roles=(Role.PENETRATES_AGAIN,),
)
ORDNANCE = declare(
    "Ordnance", Stage.VEHICLES, summary="two penetration dice, the highest kept", roles=(Role.TWO_PENETRATION_DICE,)
)
ION_SHIELD = declare(
    "Ion Shield",
    Stage.VEHICLES,
    holder=Holder.UNIT,
    summary="an invulnerable save against shooting only: 4+ on the Front, 5+ on the Side",
    roles=(Role.FACING_INVULNERABLE,),
)
#: For the Disruption-like rules below: the unit types their wound effect needs.
MACHINE_TYPES = ("Dreadnought", "Automata")
TORSION_CRUSHER = declare(
    "Torsion Crusher",
    Stage.VEHICLES,
    pending=(Stage.VEHICLES,),
    summary="doubles the hull points it removes from a target with an Armour Value",
)
WRECKER = declare(
    "Wrecker",
    Stage.VEHICLES,
    pending=(Stage.VEHICLES,),
    summary="+1 to its rolls on the Vehicle (or Building) Damage table",
)
PLASMA_BURN = declare(
    "Plasma Burn",
    Stage.VEHICLES,
    pending=(Stage.VEHICLES,),
    summary="a vehicle that loses hull points to it loses D3 more on a D6 of 4+",
)
DISRUPTION = declare(
    "Disruption",
    Stage.TO_WOUND,
    Stage.VEHICLES,
    param=roll(),
    wound_targets=MACHINE_TYPES,
    pending=(Stage.TO_WOUND, Stage.VEHICLES),
    summary="To Hit rolls of X+ glance a vehicle or wound a Dreadnought or Automata automatically",
)
