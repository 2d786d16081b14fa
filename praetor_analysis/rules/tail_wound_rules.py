"""To Wound rules of the long tail: Graviton Pulse and Collapse (a roll against the target's Strength instead
of the wound roll), Entangle (by Strength against Strength, its wounds discarded), Data-djinn, Immaterial
Blades, Synaptic Disruptor and Phase Shift, Sanctic, Molecular Dissonance (their save effects ride along).

Hooks as in :mod:`~praetor_analysis.rules.wound_rules` (``wound``) and :mod:`~praetor_analysis.rules.save_rules`
(``save``); a ``strength`` hook gives the Strength a footnoted Strength (``*``, ``†``) stands for when the
footnote names the rule.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import two_d6
from praetor_analysis.rules.contexts import SaveSituation, WoundSituation
from praetor_analysis.rules.hooks import Hooks, Role
from praetor_analysis.rules.registry import TEXT, Stage, count, declare
from praetor_analysis.rules.saves import SaveContext
from praetor_analysis.rules.tables import to_wound
from praetor_analysis.rules.wound import WoundRoll

#: Unit types a Graviton roll against Strength does not act on (they are wounded, or hit, as usual).
GRAVITON_IMMUNE = ("Vehicle", "Dreadnought", "Automata")
#: Unit types Data-djinn can wound.
DATA_DJINN_TARGETS = ("Automata", "Vehicle", "Dreadnought", "Building", "Fortification")


def _target_strength(s: WoundSituation, rule: str) -> int:
    if s.target_strength is None:
        raise ProfileError(f"target.S: {rule} rolls against the target's Strength, got None")
    return s.target_strength


def _no_strength(user_s: int | None) -> int:
    """A Graviton weapon's footnoted Strength: its wound roll never reads the weapon's Strength."""
    return 0


def _graviton_pulse(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    if s.target_is(*GRAVITON_IMMUNE):
        return r
    # the model avoids the wound on a D6 under its Strength: wounded on S or more, a 6 always wounds
    strength = _target_strength(s, "Graviton Pulse")
    return replace(r, target=min(max(strength, 2), 6), strength_death=False)


def _graviton_collapse(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    # the model avoids the wound on 2D6 at most its Strength
    strength = _target_strength(s, "Graviton Collapse")
    p_avoid = float(two_d6()[: max(0, min(strength, 12)) + 1].sum())
    return replace(r, fixed_p=1.0 - p_avoid, strength_death=False)


def _no_shrouded(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, shrouded_denied=True)


def _data_djinn(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return r if s.target_is(*DATA_DJINN_TARGETS) else replace(r, fixed_p=0.0)


def _immaterial_blades(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, six_ap=immaterial_ap(variant))


def immaterial_ap(variant: str | None) -> int:
    """The AP of Immaterial Blades ``(AP2)``."""
    text = (variant or "").upper().replace(" ", "").removeprefix("AP")
    if not text.isdigit() or not 1 <= int(text) <= 6:
        raise ProfileError(f"weapon.Type: Immaterial Blades needs an AP such as (AP2), got {variant!r}")
    return int(text)


def _six_unsavable(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, six_unsavable=True)


def _sanctic_wound(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, target=2)


def _sanctic_save(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, reroll_passed_invulnerable=True) if s.target_is("Daemon") else c


GRAVITON_PULSE = declare(
    "Graviton Pulse",
    Stage.TO_WOUND,
    hooks=Hooks(wound=_graviton_pulse, strength=_no_strength),
    reads_types=GRAVITON_IMMUNE,
    reads_fields=("S",),
    summary="instead of the wound roll a D6 against the target's Strength: wounded on S+ (a 6 always); "
    "not on vehicles, Dreadnoughts or Automata",
    precedence=2,
)
GRAVITON_COLLAPSE = declare(
    "Graviton Collapse",
    Stage.TO_WOUND,
    Stage.MITIGATION,
    Stage.VEHICLES,
    hooks=Hooks(wound=_graviton_collapse, save=_no_shrouded, strength=_no_strength),
    reads_fields=("S",),
    summary="instead of the wound roll 2D6 against the target's Strength: wounded above S; no Shrouded; "
    "4D6 armour penetration on vehicles",
    roles=(Role.FOUR_D6_PENETRATION,),
    precedence=2,
)
DATA_DJINN = declare(
    "Data-djinn",
    Stage.TO_WOUND,
    hooks=Hooks(wound=_data_djinn),
    reads_types=DATA_DJINN_TARGETS,
    summary="never wounds a unit that is not Automata, a Dreadnought, a vehicle or a building",
    precedence=3,
)
IMMATERIAL_BLADES = declare(
    "Immaterial Blades",
    Stage.AP,
    Stage.VEHICLES,
    param=TEXT,
    pending=(Stage.VEHICLES,),
    hooks=Hooks(wound=_immaterial_blades),
    summary="a wound roll of 6 is resolved at the AP in brackets (the better of it and the wound's own); "
    "penetration rolls of 6 on vehicles likewise",
)
SYNAPTIC_DISRUPTOR = declare(
    "Synaptic Disruptor",
    Stage.TO_WOUND,
    hooks=Hooks(wound=_six_unsavable),
    summary="a wound roll of 6 always wounds, with no save or damage mitigation",
)
PHASE_SHIFT = declare(
    "Phase Shift",
    Stage.TO_WOUND,
    hooks=Hooks(wound=_six_unsavable),
    summary="a wound roll of 6 always wounds, with no save or damage mitigation",
)
SANCTIC = declare(
    "Sanctic",
    Stage.TO_WOUND,
    Stage.SAVES,
    wound_targets=("Daemon",),
    hooks=Hooks(wound=_sanctic_wound, save=_sanctic_save),
    summary="wounds Daemons on 2+ and makes them re-roll passed invulnerable saves; nothing on others",
)
#: The Unit Types a To Hit roll of 6 of Molecular Dissonance does not wound automatically.
MOLECULAR_IMMUNE = ("Primarch", "Vehicle")


def _molecular(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return r if s.target_is(*MOLECULAR_IMMUNE) else replace(r, auto_p=s.hit_six)


MOLECULAR_DISSONANCE = declare(
    "Molecular Dissonance",
    Stage.TO_HIT,
    Stage.TO_WOUND,
    hooks=Hooks(wound=_molecular),
    reads_types=MOLECULAR_IMMUNE,
    reads_hit_six=True,
    summary="a To Hit roll of 6 wounds automatically (not Primarchs or vehicles); the other hits roll",
)


#: Entangle has no effect on these Unit Types (nor on Vehicles, which roll no wounds), or on models of at
#: least ``ENTANGLE_WOUNDS`` Wounds.
ENTANGLE_IMMUNE_TYPES = ("Primarch",)
ENTANGLE_WOUNDS = 6


def entangle_spares(unit_type: str, wounds: int | None) -> bool:
    """True when Entangle has no effect on a target of this Unit Type and Wounds (docs/rules.md#entangle)."""
    low = unit_type.lower()
    return any(w.lower() in low for w in (*ENTANGLE_IMMUNE_TYPES, "Vehicle")) or (wounds or 0) >= ENTANGLE_WOUNDS


def _entangle(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    # the wound roll compares the attack's Strength with the target's Strength; its wounds are then
    # discarded (the Movement they take away is for later). A Primarch or a model of 6+ Wounds rolls no
    # wound at all: its hits are discarded.
    if entangle_spares(s.unit_type, s.target_wounds):
        return replace(r, fixed_p=0.0, instant_death=False, strength_death=False, discarded=True)
    if s.target_strength is None:
        raise ProfileError("target.S: Entangle rolls against the target's Strength, got None")
    return replace(
        r, target=to_wound(s.strength, s.target_strength), instant_death=False, strength_death=False, discarded=True
    )


def _entangle_acts(s: Any) -> bool:  # a rules.classify.Situation
    return not entangle_spares(s.target_type, s.target_wounds)


ENTANGLE = declare(
    "Entangle",
    Stage.TO_WOUND,
    param=count(),
    hooks=Hooks(wound=_entangle),
    condition=_entangle_acts,
    reads_types=(*ENTANGLE_IMMUNE_TYPES, "Vehicle"),
    reads_fields=("S", "W"),
    summary="wounds by Strength against the target's Strength; its wounds are discarded (no save, no loss) "
    "and take X Movement away until the next turn; nothing on Primarchs, Vehicles or models of 6+ Wounds",
    roles=(Role.HARMLESS_TO_VEHICLES,),
    precedence=-1,
)
