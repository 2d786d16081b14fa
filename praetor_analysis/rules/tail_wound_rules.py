"""Wound, save and damage rules of the long tail: Graviton Pulse and Collapse (a roll against the target's
Strength instead of the wound roll), Data-djinn, Immaterial Blades, Synaptic Disruptor and Phase Shift,
Sanctic, Curse of Dead Worlds, Destructor and Moonsilver.

Hooks as in :mod:`~praetor_analysis.rules.wound_rules` (``wound``), :mod:`~praetor_analysis.rules.save_rules`
(``save``); a ``damage`` hook gives the pmf of the wounds one unsaved wound does (index = wounds lost), or
None where it does not act; a ``strength`` hook gives the Strength a footnoted Strength (``*``, ``†``)
stands for when the footnote names the rule.
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.errors import ProfileError
from praetor_analysis.prob.dice import two_d6
from praetor_analysis.rules.contexts import SaveSituation, WoundSituation
from praetor_analysis.rules.hooks import Hooks
from praetor_analysis.rules.registry import TEXT, Stage, declare
from praetor_analysis.rules.saves import SaveContext
from praetor_analysis.rules.wound import WoundRoll

#: Unit types a Graviton roll against Strength does not act on (they are wounded, or hit, as usual).
GRAVITON_IMMUNE = ("Vehicle", "Dreadnought", "Automata")
#: Unit types Data-djinn can wound.
DATA_DJINN_TARGETS = ("Automata", "Vehicle", "Dreadnought", "Building", "Fortification")
#: Targets on which Destructor does 2D6 wounds instead of D6.
DESTRUCTOR_LARGE = ("Knight", "Titan", "Super-heavy", "Building", "Fortification", "Monstrous")


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


def _curse_of_dead_worlds(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return c if c.invulnerable is None else replace(c, invulnerable=min(c.invulnerable + 1, 6))


def _destructor(value: int | None, variant: str | None, s: WoundSituation) -> tuple[float, ...]:
    return tuple(two_d6()) if s.target_is(*DESTRUCTOR_LARGE) else (0.0, *([1 / 6] * 6))


def _moonsilver(value: int | None, variant: str | None, s: WoundSituation) -> tuple[float, ...] | None:
    return (0.0, 0.0, 1.0) if s.target_is("Daemon", "Psyker") else None


GRAVITON_PULSE = declare(
    "Graviton Pulse",
    Stage.TO_WOUND,
    hooks=Hooks(wound=_graviton_pulse, strength=_no_strength),
    reads_types=GRAVITON_IMMUNE,
    reads_fields=("S",),
    summary="instead of the wound roll a D6 against the target's Strength: wounded on S+ (a 6 always); "
    "not on vehicles, Dreadnoughts or Automata",
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
)
DATA_DJINN = declare(
    "Data-djinn",
    Stage.TO_WOUND,
    hooks=Hooks(wound=_data_djinn),
    reads_types=DATA_DJINN_TARGETS,
    summary="never wounds a unit that is not Automata, a Dreadnought, a vehicle or a building",
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
CURSE_OF_DEAD_WORLDS = declare(
    "Curse of Dead Worlds",
    Stage.SAVES,
    Stage.VEHICLES,
    pending=(Stage.VEHICLES,),
    hooks=Hooks(save=_curse_of_dead_worlds),
    summary="invulnerable saves against it are one worse, down to 6+ (a vehicle's too: not computed yet)",
)
DESTRUCTOR = declare(
    "Destructor",
    Stage.DAMAGE,
    Stage.VEHICLES,
    pending=(Stage.VEHICLES,),
    hooks=Hooks(damage=_destructor),
    reads_types=DESTRUCTOR_LARGE,
    summary="each unsaved wound does D6 wounds (2D6 on Knights, Titans, Super-heavies, buildings and "
    "Monstrous models), the excess lost; D6 hull points on vehicles",
)
MOONSILVER = declare(
    "Moonsilver",
    Stage.DAMAGE,
    wound_targets=("Daemon", "Psyker"),
    hooks=Hooks(damage=_moonsilver),
    summary="an unsaved wound on a Daemon or Psyker counts as two, the excess lost; nothing on others",
)
PSY_SHOCK = declare(
    "Psy-shock",
    Stage.DAMAGE,
    wound_targets=("Daemon", "Psyker"),
    pending=(Stage.DAMAGE,),
    summary="a Psyker or Daemon unit it wounds also suffers Perils of the Warp; nothing on others",
)
MALIGNANT_FORCE = declare(
    "Malignant Force",
    Stage.ELSEWHERE,
    summary="to fire the Malignant profile the psyker's own unit first suffers Perils of the Warp: the firer",
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
