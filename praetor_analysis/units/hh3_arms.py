"""A 3rd-edition model group's weapon: one firing mode (or melee profile) of a weapon it carries, typed.

A roster's weapon selection (:mod:`praetor_analysis.units.hh3_roster`) or a datasheet's option
(:mod:`praetor_analysis.units.hh3_datasheet`) gives one :class:`Hh3Arm` per profile of the weapon, ranged modes
first: the profile record as the data prints it, the weapon's name (the modes of one weapon share it) and how
many of that weapon the group has.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from praetor_analysis.bsdata import Hh3MeleeProfile, Hh3RangedProfile

__all__ = ["Hh3Arm"]


@dataclass(frozen=True)
class Hh3Arm:
    """One profile of a weapon a 3rd-edition model group carries.

    Attributes:
        profile: The firing mode (or melee profile) as the data prints it.
        weapon: The weapon's (or option's) name: the modes of one weapon share it.
        count: How many of that weapon the group has (a roster's total, a datasheet's per group).
    """

    profile: Hh3RangedProfile | Hh3MeleeProfile
    weapon: str
    count: int

    @property
    def name(self) -> str:
        """The profile's name (``"Bolter"``, ``"Missile launcher - Krak"``)."""
        return self.profile.name

    @cached_property
    def melee(self) -> bool:
        """Whether it is a melee profile (it prints an Initiative modifier, ``IM``)."""
        return "IM" in self.profile.as_block()

    @property
    def special_rules(self) -> str:
        """Its Special Rules as printed, joined with ``", "`` (``""`` when none)."""
        return ", ".join(self.profile.special_rules)
