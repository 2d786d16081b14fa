"""Rules of melee attack counts and of a whole round of combat (Initiative steps, extra attacks, tests)."""

from __future__ import annotations

from praetor_analysis.rules.registry import Holder, Stage, count, declare

TWO_HANDED = declare("Two-handed", Stage.MELEE_ATTACKS, summary="no extra attack for a second melee weapon")
SPECIALIST_WEAPON = declare(
    "Specialist Weapon",
    Stage.MELEE_ATTACKS,
    summary="the extra attack for two weapons only when both are Specialist Weapons",
)
UNWIELDY = declare(
    "Unwieldy", Stage.INITIATIVE, summary="strikes at Initiative step 1 (not Dreadnoughts or Monstrous models)"
)
REACH = declare("Reach", Stage.INITIATIVE, param=count(), summary="adds X to Initiative while striking with it")
RAMPAGE = declare(
    "Rampage", Stage.ROUND, param=count(), summary="extra attacks when outnumbered at the start of the round"
)
REAPING_BLOW = declare(
    "Reaping Blow", Stage.ROUND, param=count(), summary="extra attacks while two or more enemies are left"
)
CONCUSSIVE = declare(
    "Concussive",
    Stage.ROUND,
    param=count(),
    summary="a unit wounded tests Leadership at the end of the round or loses X WS",
)
BULKY = declare(
    "Bulky",
    Stage.ROUND,
    holder=Holder.UNIT,
    param=count(),
    sides=("target", "attacker"),
    summary="each model counts as X models for Rampage",
)

#: The rules a whole round of combat models (melee/blows reads them).
ROUND_RULES = (TWO_HANDED, SPECIALIST_WEAPON, UNWIELDY, REACH, RAMPAGE, REAPING_BLOW, CONCUSSIVE, BULKY)
