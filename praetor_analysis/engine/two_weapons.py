"""The extra attack for two melee weapons: the one place that decides whether a pair gives it
(docs/rules.md#two-melee-weapons)."""

from __future__ import annotations

from collections.abc import Sequence

from praetor_analysis.profiles import Weapon
from praetor_analysis.rules import Role


def pair_denial(weapon: Weapon, other: Weapon) -> str | None:
    """Why a model fighting with ``weapon`` and carrying ``other`` gets no +1 Attack for two melee weapons, or
    None when it gets it (docs/rules.md#two-melee-weapons): "Two-handed" when either weapon is Two-handed; "Specialist
    Weapon" when one of the two is a Specialist Weapon and the other is not. A pair of one weapon (the
    scenario's ``two_weapons`` without a second weapon named) is ``other`` = ``weapon``."""
    if weapon.plays(Role.NO_SECOND_WEAPON_ATTACK) or other.plays(Role.NO_SECOND_WEAPON_ATTACK):
        return "Two-handed"
    if weapon.plays(Role.SPECIALIST_PAIR) != other.plays(Role.SPECIALIST_PAIR):
        return "Specialist Weapon"
    return None


PAIR_OF_TWO = frozenset({"ravenstalon", "ravenstalons"})
"""Weapons (names folded: letters only, lower case) whose pair gives +2 Attacks instead of +1: the Raven's Talons'
own profile text (docs/rules.md#profile-text)."""


def _folded(weapon: Weapon) -> str:
    return "".join(c for c in weapon.name.lower() if "a" <= c <= "z")


def pair_attacks(weapon: Weapon, other: Weapon) -> int:
    """The Attacks a pair gives a model fighting with ``weapon`` and carrying ``other`` once
    :func:`pair_denial` allows it: 2 when both are Raven's Talons (their profile text), else 1."""
    return 2 if _folded(weapon) in PAIR_OF_TWO and _folded(other) in PAIR_OF_TWO else 1


def pair_note(extra: int) -> str:
    """The ``applied`` note of a pair's extra Attacks (:func:`pair_attacks`)."""
    return "two melee weapons (+1 A)" if extra == 1 else f"two Raven's Talons (+{extra} A)"


def denial_note(rule: str) -> str:
    """The ``applied`` note of a pair that gives no +1 Attack because of ``rule`` (``pair_denial``)."""
    if rule == "Two-handed":
        return "Two-handed (no +1 A for a second weapon)"
    return "Specialist Weapon (no +1 A: only one of the two weapons is a Specialist Weapon)"


def second_weapon_for(weapon: Weapon, others: Sequence[Weapon]) -> Weapon | None:
    """The other weapon of ``others`` that a model fighting with ``weapon`` pairs it with: the first that gives
    the +1 Attack, else the first (its Reach and the note say why there is none), None without others."""
    candidates = [o for o in others if o is not weapon]
    return next((o for o in candidates if pair_denial(weapon, o) is None), candidates[0] if candidates else None)
