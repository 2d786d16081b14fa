"""Weapon rules of the data that act outside one attack on a unit: in a challenge, in a later turn, on the
terrain left behind, on the firer, in a reaction, or as an option the firer may take that changes more than
the profile (Web of Steel, Tempest; those a profile can express are in ``option_rules``).

Each is reported under ``no_effect`` with its summary as the reason. A rule that acts on a roll, the round
of combat or a vehicle is declared in the family of that stage (``hit_rules``, ``tail_wound_rules``,
``melee_rules``, ``vehicle_rules``...), not here.
"""

from __future__ import annotations

from praetor_analysis.rules.registry import TEXT, RuleDecl, Stage, count, declare


def _outside(name: str, summary: str, **kw: object) -> RuleDecl:
    return declare(name, Stage.ELSEWHERE, summary=summary, **kw)  # type: ignore[arg-type]


def _option(name: str, summary: str, **kw: object) -> RuleDecl:
    """A benefit the attacker may choose to take; the engine resolves the attack as printed, without it."""
    return _outside(
        name,
        f"an option the attacker may take ({summary}); resolved without it: give the profile with it taken in a "
        "weapon list to have the better one chosen",
        **kw,
    )


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
THE_VENEM = _outside("The Venem", "a model it wounds may suffer a further wound at the start of each turn: later")

# --- the firer, reactions and firing permissions --------------------------------------------------------
MALFUNCTION = _outside("Malfunction", "gains Gets Hot when fired in a Reaction; not a Reaction here")
ARDEX_DEFENSOR = _outside("Ardex-defensor", "who may fire it in an Overwatch Reaction", spellings=("Ardex-Defensor",))
FEEDBACK = _outside("Feedback", "on a failed wound or penetration roll, a D6 of 1 costs the firer a wound: the firer")
OVERCHARGED = _outside("Overcharged", "after the combat the wielder may suffer a wound on a D6 of 1: the wielder")
RAM = _outside("Ram", "extra hits in a Ram attack, a vehicle's move: not a shooting or melee attack", param=TEXT)

# --- options the attacker may take ----------------------------------------------------------------------
# (the options the scenario's ``options`` may take, computed when taken, are in ``option_rules``)
WEB_OF_STEEL = _option("Web of Steel", 'one attack on each enemy model within 2" instead of its attacks')
TEMPEST = _option("Tempest", "one automatic hit on each model in base contact at Initiative 2 instead")
MALIGNANT_FORCE = declare(
    "Malignant Force",
    Stage.ELSEWHERE,
    summary="to fire the Malignant profile the psyker's own unit first suffers Perils of the Warp: the firer",
)
