"""Rules that change the To Wound roll or the kind of wound it makes (Fleshbane, Poisoned, Rending...).

Each declaration's ``wound`` hook takes the :class:`~praetor_analysis.rules.wound.WoundRoll` built from the
wound table and returns it changed; the wound stage applies the weapon's hooks by rank
(``RuleDecl.precedence``, the order printed among equals), then the target's (Eternal Warrior last).
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.rules.contexts import WoundSituation, variant_active
from praetor_analysis.rules.hooks import Hooks, Role
from praetor_analysis.rules.registry import TEXT, Holder, Stage, count, declare, roll
from praetor_analysis.rules.wound import WoundRoll

#: Where Haywire's wound table and Armourbane's wound re-roll act: Dreadnoughts, Automata, and the Mechanised
#: sub-type (affected by Haywire as a Dreadnought, and re-rolling failed Armourbane wounds against it).
DREADNOUGHT_TYPES = ("Dreadnought", "Automata", "Mechanised")


#: Unit types and sub-types that re-roll the successful wounds of Poisoned and Fleshbane attacks (their
#: unit-type rules; docs/rules.md#unit-types). Not Gargantuan: its sub-type gives Eternal Warrior, Fearless and
#: immunity to lowered characteristics only.
TOXIN_RESISTANT_TYPES = ("Dreadnought", "Automata", "Mechanised")


def _fleshbane(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, target=2, reroll_successful=r.reroll_successful or s.target_is(*TOXIN_RESISTANT_TYPES))


def _poisoned(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    x = value or 4
    target = x if r.target is None else min(r.target, x)
    return replace(
        r,
        target=target,
        reroll_failed=r.reroll_failed or (s.melee and s.strength > s.toughness),
        reroll_successful=r.reroll_successful or s.target_is(*TOXIN_RESISTANT_TYPES),
    )


def _shred(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, reroll_failed=True)


def _rending(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, rending=value)


def _breaching(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, breaching=value)


def _murderous(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, murderous=value)


def _instant_death(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, instant_death=True)


def _haywire(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, haywire=True)


def _armourbane(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    if not variant_active(variant, melee=s.melee, half_range=s.half_range):
        return r
    return replace(r, reroll_failed=True)


def _twin_linked_template(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, reroll_failed=True) if s.template else r


def _eternal_warrior(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, eternal_warrior=True)


FLESHBANE = declare(
    "Fleshbane",
    Stage.TO_WOUND,
    hooks=Hooks(wound=_fleshbane),
    reads_types=TOXIN_RESISTANT_TYPES,
    summary="wounds on 2+ (not Vehicles)",
    roles=(Role.TOXIN,),
)
POISONED = declare(
    "Poisoned",
    Stage.TO_WOUND,
    param=roll(4),
    spellings=("Poison",),
    hooks=Hooks(wound=_poisoned),
    reads_types=TOXIN_RESISTANT_TYPES,
    summary="wounds on X+ (4+ bare) unless the table is better; in melee re-rolls failed wounds when S > T",
    roles=(Role.TOXIN,),
)
SHRED = declare("Shred", Stage.TO_WOUND, hooks=Hooks(wound=_shred), summary="re-rolls failed To Wound rolls")
RENDING = declare(
    "Rending",
    Stage.TO_WOUND,
    Stage.AP,
    Stage.VEHICLES,
    param=roll(),
    hooks=Hooks(wound=_rending),
    summary="a standing wound roll of X+ wounds and is AP 2; against vehicles adds D3 to penetration",
    roles=(Role.REND_PENETRATION,),
)
BREACHING = declare(
    "Breaching", Stage.TO_WOUND, Stage.AP, param=roll(), hooks=Hooks(wound=_breaching), summary="wounds on X+ are AP 2"
)
MURDEROUS_STRIKE = declare(
    "Murderous Strike",
    Stage.TO_WOUND,
    Stage.DAMAGE,
    param=roll(),
    hooks=Hooks(wound=_murderous),
    summary="wound rolls of X+ cause Instant Death and are allocated first",
)
INSTANT_DEATH = declare(
    "Instant Death", Stage.DAMAGE, hooks=Hooks(wound=_instant_death), summary="an unsaved wound removes the whole model"
)
HAYWIRE = declare(
    "Haywire",
    Stage.TO_WOUND,
    Stage.VEHICLES,
    wound_targets=DREADNOUGHT_TYPES,
    hooks=Hooks(wound=_haywire),
    summary="a D6 instead of the wound roll against Dreadnoughts and Automata, and of penetration on vehicles",
    roles=(Role.D6_FOR_PENETRATION,),
)
ARMOURBANE = declare(
    "Armourbane",
    Stage.TO_WOUND,
    Stage.VEHICLES,
    param=TEXT,
    wound_targets=DREADNOUGHT_TYPES,
    hooks=Hooks(wound=_armourbane),
    variant_gated=True,
    summary="an extra penetration D6 (Melta: at half range); re-rolls failed wounds on Dreadnoughts and Automata",
    roles=(Role.EXTRA_PENETRATION_DIE,),
)
ETERNAL_WARRIOR = declare(
    "Eternal Warrior",
    Stage.DAMAGE,
    holder=Holder.UNIT,
    hooks=Hooks(wound=_eternal_warrior),
    summary="Instant Death wounds become single wounds (still without Feel No Pain)",
)


def _battle_hardened(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    # the Toughness that the Strength must double for Instant Death is X higher; the wound roll is unchanged
    return replace(r, strength_death=r.strength_death and s.strength >= 2 * (s.toughness + (value or 1)))


BATTLE_HARDENED = declare(
    "Battle-Hardened",
    Stage.DAMAGE,
    holder=Holder.UNIT,
    param=count(1, 10, 1),
    hooks=Hooks(wound=_battle_hardened),
    summary="its Toughness counts X higher (1 bare) when the Strength's Instant Death is decided, not for the "
    "wound roll",
)
#: Twin-linked's To Wound effect (Template weapons) is a hook of the hit rule; see hit_rules.
TWIN_LINKED_TEMPLATE_HOOK = _twin_linked_template
NEUTRON_FLUX = declare(
    "Neutron-flux",
    Stage.DAMAGE,
    wound_targets=("Automata",),
    hooks=Hooks(wound=_instant_death),
    summary="Instant Death against Automata",
)
