"""Weapon rules of the data that act outside one attack on a unit: in a challenge, in a later turn, on the
terrain left behind, on the firer, in a reaction, or as an option the firer may take; and the few of
those whose effect on the attack itself is small (Entangle, Retaliation, Bloodthirsty).

Each is reported under ``no_effect`` with its summary as the reason. Those that act in a whole round of
combat (Initiative steps, blows struck later in the round) or on vehicles name those stages as *pending*:
a resolution that models them lists the rule under ``not_modelled`` instead.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from praetor_analysis.errors import ProfileError
from praetor_analysis.rules.contexts import WoundSituation
from praetor_analysis.rules.hooks import Hooks, Role
from praetor_analysis.rules.registry import TEXT, RuleDecl, Stage, count, declare, roll
from praetor_analysis.rules.tables import to_wound
from praetor_analysis.rules.wound import WoundRoll


def _outside(name: str, summary: str, **kw: object) -> RuleDecl:
    return declare(name, Stage.ELSEWHERE, summary=summary, **kw)  # type: ignore[arg-type]


def _option(name: str, summary: str, **kw: object) -> RuleDecl:
    """A benefit the attacker may choose to take; the engine resolves the attack as printed, without it."""
    return _outside(name, f"an option the attacker may take ({summary}); resolved without it", **kw)


# --- challenges: one model against one, not a unit's attack --------------------------------------------
DUELLISTS_EDGE = _outside(
    "Duellist's Edge",
    "+X Initiative in a challenge only: no challenge is fought here",
    param=count(0, 10, 1),
    spellings=("Duelist's Edge",),
)
DUELLISTS_AEGIS = _outside(
    "Duellist's Aegis", "+X Weapon Skill in a challenge only: no challenge is fought here", param=count()
)
EDGE_OF_TRUTH = _outside("Edge of Truth", "extra rules in a challenge only: no challenge is fought here")

# --- later turns and the battlefield left behind --------------------------------------------------------
RAD_PHAGE = _outside(
    "Rad-phage",
    "a model that loses a wound and survives has Toughness -1 for the rest of the battle: after this attack",
)
SHOCK_PULSE = _outside(
    "Shock Pulse", "a vehicle, Dreadnought or Automata it damages fires only Snap Shots next time: a later turn"
)
LINGERING_DEATH = _outside("Lingering Death", "its blast marker stays as dangerous terrain: after this attack")
SEISMIC_SHOCK = _outside(
    "Seismic Shock", "a unit that loses wounds moves at half speed and cannot Run or react: after this attack"
)
GRAV_WAVE = _outside("Grav Wave", "charges against the wielder's unit are Disordered: movement")
FEARSOME_RUIN = _outside(
    "Fearsome Ruin", "a unit that loses models rolls an extra die for an Assault phase Morale check: not Pinning"
)
IMPALE = _outside(
    "Impale", "the attacking unit may re-roll its charge; a wounded unit has -1 Initiative afterwards: later"
)
VOX_SILENCE = _outside(
    "Vox Silence", "a unit hit has -2 Leadership until its next turn: after this attack", leadership=-2
)
HYDRAS_WAIL = _outside(
    "Hydra's Wail",
    "a unit hit has -1 Leadership until its next turn: after this attack",
    spellings=("Hydra's Wail",),
    leadership=-1,
)
ELECTRO_CHARGE = declare(
    "Electro-charge",
    Stage.ROUND,
    pending=(Stage.ROUND,),
    summary="a model it wounds fights at Initiative 1 until its next turn: later in the round, or later turns",
)
THE_VENEM = _outside("The Venem", "a model it wounds may suffer a further wound at the start of each turn: later")

# --- the firer, reactions and firing permissions --------------------------------------------------------
MALFUNCTION = _outside("Malfunction", "gains Gets Hot when fired in a Reaction; not a Reaction here")
ARDEX_DEFENSOR = _outside("Ardex-defensor", "who may fire it in an Overwatch Reaction", spellings=("Ardex-Defensor",))
FEEDBACK = _outside("Feedback", "on a failed wound or penetration roll, a D6 of 1 costs the firer a wound: the firer")
OVERCHARGED = _outside("Overcharged", "after the combat the wielder may suffer a wound on a D6 of 1: the wielder")
RAM = _outside("Ram", "extra hits in a Ram attack, a vehicle's move: not a shooting or melee attack", param=TEXT)

# --- options the attacker may take ----------------------------------------------------------------------
REACTOR_OVERLOAD = _option("Reactor Overload", "twice the shots for D3 unsaved wounds or hull points on the firer")
ROCKET_BARRAGE = _option("Rocket Barrage", "Rending (4+) and Pinning when the model did not move")
DEADLY_AIM = _option("Deadly Aim", "Brutal (2) when the model did not move, and then no charge")
BLADE_CHARGE = _option("Blade Charge", "Rending (3+) for one Assault phase a battle", spellings=("Blade charge",))
FIGHTING_STYLE = _option("Fighting Style", "one of Murderous Strike (4+), Rage (4) or Sudden Strike (3) a phase")
CHARGED_ATTACKS = _option("Charged Attacks", "half the attacks at Strength x3")
WEB_OF_STEEL = _option("Web of Steel", 'one attack on each enemy model within 2" instead of its attacks')
TEMPEST = _option("Tempest", "one automatic hit on each model in base contact at Initiative 2 instead")

# --- the whole round of combat -------------------------------------------------------------------------
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

#: For the Disruption-like rules below: the unit types their wound effect needs.
MACHINE_TYPES = ("Dreadnought", "Automata")

# --- vehicles and machines only --------------------------------------------------------------------------
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


def _damaged_target_possible(s: Any) -> bool:  # a rules.classify.Situation
    return not s.target_fresh_single_wound


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
)
RETALIATION = declare(
    "Retaliation",
    Stage.TO_HIT,
    auto_hit=True,
    summary="fired only in a Reaction, and hits automatically (the attack computed is that Reaction)",
)
BLOODTHIRSTY = declare(
    "Bloodthirsty",
    Stage.TO_HIT,
    pending=(Stage.TO_HIT,),
    condition=_damaged_target_possible,
    summary="+1 To Hit while a target model has lost wounds: never against untouched single-wound models",
)

# --- known, not computed yet (each says why) ----------------------------------------------------------------
LIGHTNING_BLOWS = declare(
    "Lightning Blows",
    Stage.TO_HIT,
    Stage.ROUND,
    param=roll(6),
    pending=(Stage.ROUND,),
    hooks=Hooks(hit_again=lambda value: value or 6),
    summary="each hit on a To Hit roll of X+ makes one more To Hit roll, which makes no more",
)
HALLUCINATIONS = declare(
    "Hallucinations",
    Stage.MORALE,
    summary="a unit hit takes an immediate Pinning test, each hit adding one to the roll (weapons without a "
    "Strength; with one, not computed yet)",
    roles=(Role.PINNING_ON_HITS,),
)
GRAVITON_SINGULARITY = declare(
    "Graviton Singularity",
    Stage.ATTACKS,
    modelled=False,
    summary="a D6 before firing: 1 wounds the firer, 6 adds Vortex, a rule the data gives no text for",
)
PYROMANTIC_DESOLATION = declare(
    "Pyromantic Desolation",
    Stage.MARKERS,
    Stage.ROUND,
    modelled=False,
    summary='in a round, automatic hits on every model under a 3" blast around the wielder: not computed yet',
)
