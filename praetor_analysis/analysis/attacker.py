"""The attacker of a comparison: one typed record of the unit that fires (or strikes with) every weapon of a
:func:`~praetor_analysis.analysis.compare.compare` table, its statline, its size and how it strikes.

:meth:`AttackerProfile.from_mapping` reads the ``attacker`` block of a ``praetor calc`` scenario (the fields a
comparison's attacker uses), refusing a bad one on one line naming the field as ``calc`` does;
:meth:`AttackerProfile.unit` is the engine's record of it, built from the typed statline (no block between);
:meth:`AttackerProfile.to_block` writes the block back (the cell's scenario, the dashboard's saved setup).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from praetor_analysis.errors import PraetorError, ScenarioError, show_value
from praetor_analysis.profiles import Unit, unit_from_mapping
from praetor_analysis.units import NO_MODIFIERS, Modifiers, Statline, unit_record

__all__ = ["DEFAULT_ATTACKER", "AttackerProfile"]

#: The block's statline fields and the record's attribute of each.
_STATLINE = {"WS": "WS", "BS": "BS", "S": "S", "T": "T", "W": "W", "I": "I", "A": "A", "Ld": "Ld"}
#: Fields of a scenario's attacker block that change nothing in a comparison, and why (refused, not dropped).
NO_EFFECT = {
    "points": "a comparison's points are the weapon row's Pts",
    "Cover": "a cover save protects a target, not the attacker",
    "Move": "a comparison does not move",
    "M": "a comparison does not move",
    "Front": "an attacker's armour is not hit in a comparison",
    "Side": "an attacker's armour is not hit in a comparison",
    "Rear": "an attacker's armour is not hit in a comparison",
    "HP": "an attacker's hull points are not hit in a comparison",
    "facing": "it names the facing of a target that is hit",
    "moved": "it changes how a vehicle target is hit in melee",
    "wounds_taken": "it counts a target's wounds lost",
}
_FLAGS = ("charging", "two_weapons", "disordered")
#: The fields of an attacker block :meth:`AttackerProfile.from_mapping` reads.
FIELDS = frozenset({"name", "models", "Unit Type", *_STATLINE, "Save", "Invulnerable", "rules", *_FLAGS, "modifiers"})


def _plus(value: int | None) -> str | None:
    return None if value is None else f"{value}+"


@dataclass(frozen=True)
class AttackerProfile:
    """The attacker of a comparison (default: one Legionary, BS 4, WS 4, S 4, A 1, Save 3+).

    Attributes:
        name: A label (it changes no number).
        models: Models in the unit, at least 1 (each fires the weapon or strikes with it).
        unit_type: The Unit Type (``Infantry``, ``Infantry (Character)``...).
        WS, BS, S, T, W, I, A, Ld: The statline (None: ``-``, as a model without that characteristic).
        save, invulnerable: The armour and invulnerable saves as ``X`` of ``X+`` (None: none).
        rules: The attacker's special rules as printed (``"Preferred Enemy"``, ``"Furious Charge"``...).
        charging, two_weapons, disordered: How it strikes in melee (a shooting cell does not read them).
        modifiers: Its modifiers (re-rolls, +/-1 to hit and wound...).

    Raises:
        ScenarioError: A field ``praetor calc`` would refuse in an attacker block (the message names it).
    """

    name: str = "Legionary"
    models: int = 1
    unit_type: str = "Infantry"
    WS: int | None = 4
    BS: int | None = 4
    S: int | None = 4
    T: int | None = 4
    W: int | None = 1
    I: int | None = 4
    A: int | None = 1
    Ld: int | None = 7
    save: int | None = 3
    invulnerable: int | None = None
    rules: tuple[str, ...] = ()
    charging: bool = False
    two_weapons: bool = False
    disordered: bool = False
    modifiers: Modifiers = NO_MODIFIERS

    def __post_init__(self) -> None:
        if not isinstance(self.rules, tuple) or not all(isinstance(r, str) for r in self.rules):
            raise ScenarioError(f"attacker.rules: expected a tuple of rule names, got {show_value(self.rules)}")
        if not isinstance(self.modifiers, Modifiers):
            raise ScenarioError(f"attacker.modifiers: expected a Modifiers record, got {show_value(self.modifiers)}")
        for key in ("save", "invulnerable"):
            value = getattr(self, key)
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise ScenarioError(f"attacker.{key}: expected X of X+ as a whole number, got {show_value(value)}")
        for flag in _FLAGS:
            if not isinstance(getattr(self, flag), bool):
                value = getattr(self, flag)
                raise ScenarioError(f"attacker.{flag}: expected true or false, got {show_value(value)}")
        unit = self.unit()  # every other field as calc reads the block it stands for: the same one-line errors
        if unit.models < 1:
            raise ScenarioError(f"attacker.models: must be at least 1, got {unit.models}", field="attacker.models")

    def statline(self, *, mode: str = "melee") -> Statline:
        """Its statline record (in ``mode="shooting"`` without what acts in melee alone: how it strikes)."""
        melee = mode == "melee"
        return Statline(
            self.name,
            self.unit_type,
            **{key: getattr(self, attr) for key, attr in _STATLINE.items()},
            Save=_plus(self.save),
            Invulnerable=_plus(self.invulnerable),
            rules=self.rules,
            charging=self.charging and melee,
            disordered=self.disordered and melee,
            two_weapons=self.two_weapons and melee,
        )

    def unit(self, *, mode: str = "melee") -> Unit:
        """The engine's record of the unit that fires or strikes (its modifiers not applied: the volley applies
        them, :func:`~praetor_analysis.units.volley_record`).

        Raises:
            ScenarioError: A field ``praetor calc`` would refuse in its block (the message names it).
        """
        try:
            unit = unit_record(self.statline(mode=mode), self.models)
        except PraetorError as exc:
            raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None
        return unit if unit.name == self.name else replace(unit, name=self.name)  # an empty name stays empty

    @classmethod
    def from_mapping(cls, data: object) -> AttackerProfile:
        """The record of a scenario's ``attacker`` block; a field it leaves out keeps the default Legionary's.

        Raises:
            ScenarioError: Not a mapping, an unknown field, one that changes nothing in a comparison, or a bad
                value: one line naming ``attacker.<field>``.
        """
        if isinstance(data, AttackerProfile):
            return data
        if not isinstance(data, Mapping):
            raise ScenarioError(f"attacker: expected an attacker block, got {show_value(data)}", field="attacker")
        for key in sorted(k for k in data if k in NO_EFFECT):
            raise ScenarioError(f"attacker.{key}: not used by a comparison's attacker ({NO_EFFECT[key]})")
        for key in sorted(k for k in data if k not in FIELDS):
            raise ScenarioError(f"attacker.{key}: unknown field {key!r} (allowed: {', '.join(sorted(FIELDS))})")
        block = dict(data)
        modifiers = Modifiers.from_block(block.pop("modifiers", None) or {})
        try:
            unit = unit_from_mapping({**DEFAULT_ATTACKER.to_block(), **block}, field_name="attacker")
        except PraetorError as exc:
            raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None
        return cls(
            name=unit.name,
            models=unit.models,
            unit_type=unit.unit_type,
            **{attr: getattr(unit, attr) for attr in _STATLINE.values()},
            save=unit.save,
            invulnerable=unit.invulnerable,
            rules=tuple(r.text or r.name for r in unit.rules),
            **{flag: getattr(unit, flag) for flag in _FLAGS},
            modifiers=modifiers,
        )

    def to_block(self, *, mode: str = "melee") -> dict[str, Any]:
        """The scenario's ``attacker`` block; in ``mode="shooting"`` without what acts in melee alone (how it
        strikes), as a comparison applies its options where they act."""
        block: dict[str, Any] = {"name": self.name}
        block.update({key: getattr(self, attr) for key, attr in _STATLINE.items()})
        block["Save"] = _plus(self.save)
        if self.invulnerable is not None:
            block["Invulnerable"] = _plus(self.invulnerable)
        if self.models != 1:
            block["models"] = self.models
        if self.unit_type != "Infantry":
            block["Unit Type"] = self.unit_type
        if self.rules:
            block["rules"] = list(self.rules)
        if mode == "melee":
            block.update({flag: True for flag in _FLAGS if getattr(self, flag)})
        if self.modifiers != NO_MODIFIERS:
            block["modifiers"] = self.modifiers.to_block()
        return block


DEFAULT_ATTACKER = AttackerProfile()
"""The attacker when none is given: a Legionary statline (BS 4, WS 4, S 4, A 1), one model."""
