"""Rules of melee attack counts and of a whole round of combat (Initiative steps, extra attacks, tests), those
the round computes (``Role.ROUND_MODELLED``) and those it does not yet (pending)."""

from __future__ import annotations

from praetor_analysis.rules.hooks import Role
from praetor_analysis.rules.registry import Holder, Stage, count, declare

TWO_HANDED = declare(
    "Two-handed",
    Stage.MELEE_ATTACKS,
    summary="no extra attack for a second melee weapon",
    roles=(Role.NO_SECOND_WEAPON_ATTACK, Role.ROUND_MODELLED),
)
SPECIALIST_WEAPON = declare(
    "Specialist Weapon",
    Stage.MELEE_ATTACKS,
    summary="the extra attack for two weapons only when both are Specialist Weapons",
    roles=(Role.ROUND_MODELLED, Role.SPECIALIST_PAIR),
)
UNWIELDY = declare(
    "Unwieldy",
    Stage.INITIATIVE,
    summary="strikes at Initiative step 1 (not Dreadnoughts or Monstrous models)",
    roles=(Role.ROUND_MODELLED, Role.STRIKES_AT_ONE),
)
REACH = declare(
    "Reach",
    Stage.INITIATIVE,
    param=count(),
    summary="adds X to Initiative while striking with it",
    roles=(Role.ROUND_MODELLED, Role.INITIATIVE_BONUS),
)
RAMPAGE = declare(
    "Rampage",
    Stage.ROUND,
    param=count(),
    summary="extra attacks when outnumbered at the start of the round",
    roles=(Role.ROUND_MODELLED, Role.OUTNUMBERED_ATTACKS),
)
REAPING_BLOW = declare(
    "Reaping Blow",
    Stage.ROUND,
    param=count(),
    summary="extra attacks while two or more enemies are left",
    roles=(Role.ROUND_MODELLED, Role.ATTACKS_WHILE_MANY),
)
CONCUSSIVE = declare(
    "Concussive",
    Stage.ROUND,
    param=count(),
    summary="a unit wounded tests Leadership at the end of the round or loses X WS",
    roles=(Role.ROUND_MODELLED, Role.WS_TEST),
)
BULKY = declare(
    "Bulky",
    Stage.ROUND,
    holder=Holder.UNIT,
    param=count(),
    sides=("target", "attacker"),
    summary="each model counts as X models for Rampage",
    roles=(Role.ROUND_MODELLED, Role.COUNTS_AS_MODELS),
)
ELECTRO_CHARGE = declare(
    "Electro-charge",
    Stage.ROUND,
    pending=(Stage.ROUND,),
    summary="a model it wounds fights at Initiative 1 until its next turn: later in the round, or later turns",
)
THUNDEROUS_CHARGE = declare(
    "Thunderous Charge",
    Stage.INITIATIVE,
    pending=(Stage.INITIATIVE,),
    summary="on a successful charge the wielder ignores Unwieldy: the Initiative step of a round",
)
THE_DEVILS_DUE = declare(
    "The Devil's Due",
    Stage.ROUND,
    pending=(Stage.ROUND,),
    summary="one extra attack against a model whose Initiative was lowered, struck before it: a round",
)
SHIELD_MASTER = declare(
    "Shield Master",
    Stage.ROUND,
    pending=(Stage.ROUND,),
    summary="hits allocated to the wielder are at -1 Strength: the enemy's blows in a round",
)
