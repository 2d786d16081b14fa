"""Canonical special rule names, and the families the engine models.

Names only (facts); the rules' meaning lives in the modules of this package and in docs/rules.md.
"""

from __future__ import annotations

import re

#: Rules the engine models for attacks on units with Toughness and Wounds (shooting or melee).
WOUND_CHAIN_RULES = frozenset(
    {
        "Rending",
        "Breaching",
        "Murderous Strike",
        "Shred",
        "Fleshbane",
        "Poisoned",
        "Instant Death",
        "Brutal",
        "Deflagrate",
        "Gets Hot",
        "Twin-linked",
        "Master-crafted",
        "Ignores Cover",
        "Pinning",
        "Shell Shock",
        "Psychic Focus",
        "Armourbane",
        "Sniper",
        "Precision Shots",
        "Precision Strikes",
        "Destroyer",
        "Haywire",
    }
)

#: Marker and template rules (hits from geometry or the ``hits`` field).
MARKER_RULES = frozenset(
    {
        "Blast",
        "Large Blast",
        "Massive Blast",
        "Apocalyptic Blast",
        "Apocalyptic Mega-blast",
        "Barrage",
        "Apocalyptic Barrage",
        "Template",
        "Hellstorm",
        "Torrent",
    }
)

#: Rules that only act against Vehicles (modelled by the vehicle engine).
VEHICLE_ONLY_RULES = frozenset({"Lance", "Sunder", "Exoshock"})

#: Rules that only matter in a round of melee (Initiative order, attack counts).
MELEE_ROUND_RULES = frozenset(
    {
        "Two-handed",
        "Specialist Weapon",
        "Unwieldy",
        "Reach",
        "Rampage",
        "Reaping Blow",
        "Concussive",
    }
)

#: Rules that change nothing the engine computes (movement, firing permissions, targeting).
NO_EFFECT_RULES = frozenset(
    {
        "Skyfire",
        "One Shot",
        "One Use",
        "Limited Ammunition",
        "Guided Fire",
        "Cumbersome",
        "Blind",
    }
)

#: Target and attacker unit rules the engine reads.
UNIT_RULES = frozenset(
    {
        "Feel No Pain",
        "Shrouded",
        "Eternal Warrior",
        "Fearless",
        "Pinned",
        "Locked in Combat",
        "Embarked",
        "Stubborn",
        "Inexorable",
        "It Will Not Die",
        "Bulky",
        "Psyker",
    }
)

OTHER_KNOWN = frozenset(
    {
        "Force",
        "Rad-phage",
        "Shock Pulse",
        "Psy-shock",
        "Crawling Fire",
        "Lingering Death",
        "Disruption",
        "Duellist's Edge",
        "Sudden Strike",
        "Entangle",
        "Graviton Pulse",
        "Graviton Collapse",
        "Seismic Shock",
        "Wrecker",
        "Destructor",
        "Grav Wave",
        "Neutron-flux",
        "Rocket Barrage",
        "Reactor Overload",
        "Torsion Crusher",
        "Sanctic",
        "Malfunction",
        "Impale",
        "Plasma Burn",
        "Heavy Beam",
        "Detonation",
        "Deathstorm",
        "Feedback",
        "Precision",
        "Hatred",
        "Preferred Enemy",
        "Rage",
        "Furious Charge",
        "Counter-Attack",
        "Hammer of Wrath",
        "Relentless",
        "Slow and Purposeful",
        "Monster Hunter",
        "Split Fire",
        "Achean Force",
        "Cybertheurgic Focus",
        "Immaterial Blades",
        "Data-djinn",
        "Dragon's Breath",
        "Fearsome Ruin",
        "Moonsilver",
        "Ardex-defensor",
        "Ungainly",
        "Malignant Force",
    }
)

RULE_NAMES = (
    WOUND_CHAIN_RULES
    | MARKER_RULES
    | VEHICLE_ONLY_RULES
    | MELEE_ROUND_RULES
    | NO_EFFECT_RULES
    | UNIT_RULES
    | OTHER_KNOWN
)

_BY_KEY = {re.sub(r"[^a-z]", "", n.lower()): n for n in RULE_NAMES}
_ALIASES = {
    "poison": "Poisoned",
    "mastercrafted": "Master-crafted",
    "twinlinked": "Twin-linked",
    "twohanded": "Two-handed",
    "locked": "Locked in Combat",
    "lockedincombat": "Locked in Combat",
    "duelistsedge": "Duellist's Edge",
    "precisionshot": "Precision Shots",
    "precisionstrike": "Precision Strikes",
    "fnp": "Feel No Pain",
}


def canonical_rule_name(name: str) -> str:
    """The canonical spelling of a rule name (case, hyphens, quotes, stray marks folded)."""
    cleaned = name.replace("\u2019", "'").replace("&apos;", "'").strip(" .*\u2020")
    key = re.sub(r"[^a-z]", "", cleaned.lower())
    if key in _BY_KEY:
        return _BY_KEY[key]
    if key in _ALIASES:
        return _ALIASES[key]
    return cleaned
