"""An attacker's modifiers as one typed record: re-rolls, +/-1 to hit and to wound, Preferred Enemy, Furious Charge.

The scenario contract carries them as ``attacker.modifiers`` (``{"reroll_hits": "all", "to_wound": 1, ...}``,
docs/scenario.md), for a statline attacker and a datasheet alike. :class:`Modifiers` is read once at the edge
(:meth:`Modifiers.from_block`) and applied to the typed records (:meth:`Modifiers.apply_unit`,
:meth:`Modifiers.apply_weapon`) as the rules the engine computes exactly (docs/rules.md):

- re-roll every failed hit: the weapon gains Twin-linked; every failed wound: Shred;
- re-roll hit or wound rolls of 1: the attacker's "Re-roll To Hit 1s" / "Re-roll To Wound 1s";
- +1/-1 to hit or to wound: "To Hit modifier (+1)" ... (the roll needed moves, not BS or Strength);
- Preferred Enemy: the attacker's "Preferred Enemy" (every target); Furious Charge: "Furious Charge (1)".

A rule the unit or the weapon already has is not given twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from praetor_analysis.errors import ScenarioError, show_value
from praetor_analysis.profiles import Rule, Unit, Weapon, parse_rule

__all__ = ["MODIFIER_FIELDS", "NO_MODIFIERS", "REROLL_CHOICES", "Modifiers", "split_modifiers"]

REROLL_CHOICES: tuple[str, ...] = ("none", "ones", "all")
"""Re-rolls: none, rolls of 1, every failed roll."""


@dataclass(frozen=True)
class Modifiers:
    """An attacker's modifiers.

    Attributes:
        reroll_hits, reroll_wounds: ``"none"``, ``"ones"`` or ``"all"`` (every failed roll).
        to_hit, to_wound: -1, 0 or +1.
        preferred_enemy: Re-roll hit and wound rolls of 1 against every target.
        furious_charge: +1 Strength on a turn the unit charged (melee).
    """

    reroll_hits: str = "none"
    reroll_wounds: str = "none"
    to_hit: int = 0
    to_wound: int = 0
    preferred_enemy: bool = False
    furious_charge: bool = False

    def __post_init__(self) -> None:
        for name in ("reroll_hits", "reroll_wounds"):
            value = getattr(self, name)
            if value not in REROLL_CHOICES:
                raise ScenarioError(f"modifiers.{name}: one of {', '.join(REROLL_CHOICES)}, got {show_value(value)}")
        for name in ("to_hit", "to_wound"):
            value = getattr(self, name)
            if isinstance(value, bool) or value not in (-1, 0, 1):
                raise ScenarioError(f"modifiers.{name}: -1, 0 or 1, got {show_value(value)}")
        for name in ("preferred_enemy", "furious_charge"):
            if not isinstance(getattr(self, name), bool):
                raise ScenarioError(f"modifiers.{name}: expected true or false, got {show_value(getattr(self, name))}")

    @classmethod
    def from_block(cls, block: Any, field: str = "attacker.modifiers") -> Modifiers:
        """The record of a contract block; refuses an unknown field or value on one line naming it."""
        if not isinstance(block, Mapping):
            raise ScenarioError(f"{field}: expected an object of modifiers, got {show_value(block)}")
        unknown = sorted(set(block) - MODIFIER_FIELDS)
        if unknown:
            raise ScenarioError(f"{field}.{unknown[0]}: not a modifier ({', '.join(sorted(MODIFIER_FIELDS))})")
        try:
            return cls(**dict(block))
        except ScenarioError as exc:
            raise ScenarioError(str(exc).replace("modifiers.", f"{field}.", 1)) from None

    def to_block(self) -> dict[str, Any]:
        """The contract block: the fields that differ from none (``{}`` for no modifier)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) != f.default}

    def unit_rules(self) -> tuple[str, ...]:
        """The attacker's rules these modifiers give, as printed."""
        out = []
        if self.reroll_hits == "ones":
            out.append("Re-roll To Hit 1s")
        if self.reroll_wounds == "ones":
            out.append("Re-roll To Wound 1s")
        if self.to_hit:
            out.append(f"To Hit modifier ({self.to_hit:+d})")
        if self.to_wound:
            out.append(f"To Wound modifier ({self.to_wound:+d})")
        if self.preferred_enemy:
            out.append("Preferred Enemy")
        if self.furious_charge:
            out.append("Furious Charge (1)")
        return tuple(out)

    def weapon_rules(self) -> tuple[str, ...]:
        """The weapon rules these modifiers give (re-roll every failed hit or wound), as printed."""
        wanted = ((self.reroll_hits == "all", "Twin-linked"), (self.reroll_wounds == "all", "Shred"))
        return tuple(rule for on, rule in wanted if on)

    def apply_unit(self, unit: Unit) -> Unit:
        """The attacker with these modifiers' rules (those it has are kept, not doubled)."""
        extra = _new(unit.rules, self.unit_rules())
        return replace(unit, rules=(*unit.rules, *extra)) if extra else unit

    def apply_weapon(self, weapon: Weapon) -> Weapon:
        """The weapon with Twin-linked / Shred for re-rolls of every failed hit / wound (kept if it has them)."""
        extra = _new(weapon.type.rules, self.weapon_rules())
        if not extra:
            return weapon
        text = ", ".join(t for t in (weapon.type.text, *(r.text for r in extra)) if t)
        return replace(weapon, type=replace(weapon.type, rules=(*weapon.type.rules, *extra), text=text))

    def words(self, *, melee: bool = False) -> tuple[str, ...]:
        """The modifiers in force, in words (a report's assumptions)."""
        out = []
        for name, what in (("reroll_hits", "hit"), ("reroll_wounds", "wound")):
            value = getattr(self, name)
            if value != "none":
                out.append(f"re-roll {'failed ' + what + 's' if value == 'all' else what + ' rolls of 1'}")
        if self.to_hit:
            out.append(f"{self.to_hit:+d} to hit")
        if self.to_wound:
            out.append(f"{self.to_wound:+d} to wound")
        if self.preferred_enemy:
            out.append("Preferred Enemy")
        if self.furious_charge and melee:
            out.append("Furious Charge")
        return tuple(out)


MODIFIER_FIELDS = frozenset(f.name for f in fields(Modifiers))
"""The fields of an ``attacker.modifiers`` block."""

NO_MODIFIERS = Modifiers()


def _new(have: tuple[Rule, ...], texts: tuple[str, ...]) -> tuple[Rule, ...]:
    names = {r.name for r in have}
    out = []
    for text in texts:
        rule = parse_rule(text, field_name="attacker.modifiers")
        if rule.name not in names:
            names.add(rule.name)
            out.append(rule)
    return tuple(out)


def split_modifiers(block: Any, field: str = "attacker") -> tuple[Any, Modifiers]:
    """An attacker block without its ``modifiers`` field, and the record of that field (none when absent)."""
    if not isinstance(block, Mapping) or "modifiers" not in block:
        return block, NO_MODIFIERS
    rest = {k: v for k, v in block.items() if k != "modifiers"}
    return rest, Modifiers.from_block(block["modifiers"], f"{field}.modifiers")
