"""Rules a unit has from its Unit Type and sub-types (the unit-type rules of the game system file).

Names only, in a table: the profiles layer adds the granted rules to a unit's own (docs/rules.md#unit-types),
so they are applied, and reported under ``applied``, like any rule the unit lists.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Unit type or sub-type word -> the rules it grants, as printed.
TYPE_GRANTS: Mapping[str, tuple[str, ...]] = {
    "Dreadnought": ("Fearless",),
    "Automata": ("Fearless",),
    "Primarch": ("Eternal Warrior", "Fearless", "It Will Not Die (5+)", "Bulky (4)"),
    "Gargantuan": ("Eternal Warrior", "Fearless"),
}

#: Unit types and sub-types not affected by rules that lower their characteristics (Concussive's WS).
UNLOWERED_TYPES: tuple[str, ...] = ("Primarch", "Gargantuan")

#: Unit types and sub-types that never end Pinned: Cavalry and Monstrous cannot be Pinned, Daemons pass their
#: Pinning tests automatically (so the target is exempt: ``pinned`` is null).
PINNING_IMMUNE_TYPES: tuple[str, ...] = ("Cavalry", "Monstrous", "Daemon")


def type_words(unit_type: str) -> list[str]:
    """The words of ``TYPE_GRANTS`` and ``PINNING_IMMUNE_TYPES`` that ``unit_type`` names (case-insensitive)."""
    low = unit_type.lower()
    return [w for w in (*TYPE_GRANTS, *PINNING_IMMUNE_TYPES) if w.lower() in low]


def unlowered_type(unit_type: str) -> str | None:
    """The word of ``UNLOWERED_TYPES`` that ``unit_type`` names (its characteristics cannot be lowered), or None."""
    low = unit_type.lower()
    return next((w for w in UNLOWERED_TYPES if w.lower() in low), None)


def granted_rules(unit_type: str) -> list[tuple[str, str]]:
    """(rule as printed, the type word granting it) for every rule ``unit_type`` grants, in table order."""
    low = unit_type.lower()
    return [(rule, word) for word, rules in TYPE_GRANTS.items() if word.lower() in low for rule in rules]
