"""Weapon rules that set a model's melee attacks or its Strength on the charge in a one-way melee attack:
Ungainly, Measured Strike, Cumbersome, Detonation, Wrathful Blows, Rage (the weapon's or the unit's), Furious
Charge; and Sudden Strike (Initiative).

A ``blows`` hook takes ``(a, charge, other, charging, value)`` (the Attacks characteristic, the charge
bonus, the other bonuses such as a second weapon, whether the model charged without a Disordered Charge,
the rule's value) and returns the model's attacks; a ``charge_strength`` hook takes the value and returns
the bonus to the wielder's Strength on such a charge; a ``wielder_ws`` hook takes the wielder's WS and returns
the one it strikes with. A whole round of combat plans its blows on its own:
there these rules are pending (``not_modelled``).
"""

from __future__ import annotations

from typing import Any

from praetor_analysis.rules.hooks import Hooks, Role
from praetor_analysis.rules.registry import Holder, Stage, count, declare


def _ungainly(a: int, charge: int, other: int, charging: bool, value: int | None) -> int:
    return a if charging else 0  # only on a successful charge, and no bonus attacks


def _one(a: int, charge: int, other: int, charging: bool, value: int | None) -> int:
    return 1


def _wrathful(a: int, charge: int, other: int, charging: bool, value: int | None) -> int:
    return value or 1


def _rage(a: int, charge: int, other: int, charging: bool, value: int | None) -> int:
    return a + (value or 1 if charging else 0) + other  # X for charging instead of +1


def _furious(value: int | None) -> int:
    return value or 1


def _charging(s: Any) -> bool:  # a rules.classify.Situation
    return bool(s.charging)


UNGAINLY = declare(
    "Ungainly",
    Stage.MELEE_ATTACKS,
    Stage.ROUND,
    pending=(Stage.ROUND,),
    hooks=Hooks(blows=_ungainly),
    summary="strikes only on a turn it charged, with no bonus attacks: no attack unless charging",
)
MEASURED_STRIKE = declare(
    "Measured Strike",
    Stage.MELEE_ATTACKS,
    Stage.ROUND,
    pending=(Stage.ROUND,),
    hooks=Hooks(blows=_one),
    summary="a single attack whatever the Attacks and bonuses",
)


def _ws_one(ws: int) -> int:
    return 1


def _in_melee(s: Any) -> bool:  # a rules.classify.Situation
    return bool(s.melee)


CUMBERSOME = declare(
    "Cumbersome",
    Stage.MELEE_ATTACKS,
    Stage.TO_HIT,
    Stage.ROUND,
    pending=(Stage.ROUND,),
    hooks=Hooks(blows=_one, wielder_ws=_ws_one),
    condition=_in_melee,
    summary="a single attack at WS 1 whatever the profile, bonuses or other rules",
)
#: What a Detonation weapon may attack (Unit Type words); any other target suffers no attack from it.
DETONATION_TARGETS: tuple[str, ...] = ("Vehicle", "Dreadnought", "Automata", "Fortification", "Building")
DETONATION = declare(
    "Detonation",
    Stage.MELEE_ATTACKS,
    Stage.ROUND,
    hooks=Hooks(blows=_one),
    roles=(Role.ROUND_MODELLED, Role.SINGLE_BLOW),
    summary="one attack, and only against vehicles, Dreadnoughts, Automata and fortifications (no attack on "
    "any other target)",
    only_targets=DETONATION_TARGETS,
)
#: What a grenade may attack in melee instead of the model's attacks (Krak Grenades, Melta Bombs).
GRENADE_TARGETS: tuple[str, ...] = ("Vehicle", "Dreadnought", "Automata", "Fortification", "Building")
GRENADE_ATTACK = declare(
    "Grenade Attack",
    Stage.MELEE_ATTACKS,
    Stage.TO_HIT,
    Stage.ROUND,
    hooks=Hooks(blows=_one),
    auto_hit=True,
    only_targets=GRENADE_TARGETS,
    roles=(Role.ROUND_MODELLED, Role.GRENADE_BLOW),
    summary="the project's rule for a grenade used in melee (Krak Grenades): one automatic hit instead of the "
    "model's attacks, only against vehicles, Dreadnoughts, Automata and buildings, at Initiative 1 in a whole "
    "round",
)
WRATHFUL_BLOWS = declare(
    "Wrathful Blows",
    Stage.MELEE_ATTACKS,
    Stage.ROUND,
    param=count(1, 20),
    pending=(Stage.ROUND,),
    hooks=Hooks(blows=_wrathful),
    summary="X attacks whatever the Attacks and the charge",
)
RAGE = declare(
    "Rage",
    Stage.MELEE_ATTACKS,
    Stage.ROUND,
    holder=Holder.UNIT,
    param=count(1, 10),
    sides=("attacker",),
    pending=(Stage.ROUND,),
    hooks=Hooks(blows=_rage),
    condition=_charging,
    on_weapons=True,
    summary="X attacks for charging instead of +1 (not on a Disordered Charge); the weapon's or the unit's",
)
FURIOUS_CHARGE = declare(
    "Furious Charge",
    Stage.TO_WOUND,
    Stage.VEHICLES,
    Stage.ROUND,
    holder=Holder.UNIT,
    param=count(1, 10),
    sides=("attacker",),
    pending=(Stage.VEHICLES, Stage.ROUND),
    hooks=Hooks(charge_strength=_furious),
    condition=_charging,
    on_weapons=True,
    summary="+X to the wielder's Strength on a turn it charged (not on a Disordered Charge); a weapon's or the unit's",
)
SUDDEN_STRIKE = declare(
    "Sudden Strike",
    Stage.INITIATIVE,
    param=count(1, 10),
    pending=(Stage.INITIATIVE,),
    summary="+X Initiative on a turn it charged: the order of strikes in a whole round",
)
