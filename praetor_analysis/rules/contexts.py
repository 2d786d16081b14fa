"""What the stage hooks of rule declarations see: the situation of one hit, free of game records."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class WoundSituation:
    """One hit rolling To Wound: Strength, Toughness, melee or shooting, range, the target's Unit Type."""

    strength: int
    toughness: int
    melee: bool = False
    half_range: bool = False
    template: bool = False  # the weapon is a Template or Hellstorm
    blast: bool = False  # the weapon is a Blast (any size), Barrage or template (Swarm reads it)
    unit_type: str = "Infantry"
    target_strength: int | None = None  # the target's S (Graviton weapons roll against it)
    hit_six: float = 0.0  # P(a hit's standing To Hit die shows 6), for rules that read it (0 without a roll)
    target_name: str = ""  # the target's name (Preferred Enemy (X) reads it)
    target_wounds: int | None = None  # the target's Wounds characteristic (Entangle reads it)

    def target_is(self, *words: str) -> bool:
        """True when the target's Unit Type names one of ``words`` (``Dreadnought``, ``Heavy``...)."""
        low = self.unit_type.lower()
        return any(w.lower() in low for w in words)


@dataclass(frozen=True)
class HitSituation:
    """One shot or blow rolling To Hit: melee or shooting, the target's name and Unit Type."""

    melee: bool = False
    target_name: str = ""
    unit_type: str = "Infantry"


@dataclass(frozen=True)
class SaveSituation:
    """One wound being saved: melee or shooting, the target's Unit Type."""

    melee: bool = False
    unit_type: str = "Infantry"
    weapon_rules: frozenset[str] = frozenset()  # the canonical names of the weapon's rules (Adamantium Will)

    def target_is(self, *words: str) -> bool:
        """True when the target's Unit Type names one of ``words``."""
        low = self.unit_type.lower()
        return any(w.lower() in low for w in words)


def variant_active(variant: str | None, *, melee: bool, half_range: bool) -> bool:
    """Whether a rule with a range or mode variant acts: ``(Melta)`` at half range only, ``(Melee)`` in
    melee only, ``(Ranged)`` when shooting only; no variant, always."""
    v = (variant or "").lower()
    if v == "melta":
        return half_range
    if v == "melee":
        return melee
    if v == "ranged":
        return not melee
    return True
