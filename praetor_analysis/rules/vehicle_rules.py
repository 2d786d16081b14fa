"""Rules that act only against vehicles (armour penetration and the damage table)."""

from __future__ import annotations

from praetor_analysis.rules.registry import Holder, Stage, declare, roll

LANCE = declare("Lance", Stage.VEHICLES, summary="armour above 12 counts as 12")
SUNDER = declare(
    "Sunder", Stage.VEHICLES, summary="re-rolls failed penetration, and a glance when a re-roll does better"
)
EXOSHOCK = declare("Exoshock", Stage.VEHICLES, param=roll(), summary="each penetrating hit adds another on a D6 of X+")
ORDNANCE = declare("Ordnance", Stage.VEHICLES, summary="two penetration dice, the highest kept")
ION_SHIELD = declare(
    "Ion Shield",
    Stage.VEHICLES,
    holder=Holder.UNIT,
    summary="an invulnerable save against shooting only: 4+ on the Front, 5+ on the Side",
)
