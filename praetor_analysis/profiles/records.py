"""Weapon, attacker and target records, parsed from datasheet text as BattleScribe prints it.

Every characteristic accepts the printed form (``"3+"``, ``"-"``, ``"User"``, ``"x2"``, ``'48"'``) or a
number. Bad values raise ``ProfileError`` naming the field and the value. Rule tokens become typed
``Rule`` records; names the engine does not know are kept and reported, never dropped.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any, Literal

from praetor_analysis.errors import ProfileError, show_value
from praetor_analysis.profiles.characteristics import (
    RangeSpec,
    StrengthSpec,
    check_text,
    clean_text,
    parse_ap,
    parse_range,
    parse_save,
    parse_stat,
    parse_strength,
)
from praetor_analysis.profiles.rule_tokens import Rule, RuleRef, parse_rule, parse_rules, rule_name
from praetor_analysis.profiles.weapon_type import WeaponType, parse_weapon_type
from praetor_analysis.rules import Holder, Role, granted_rules, lookup, roles_of, with_role

# --- records ------------------------------------------------------------------------------------


def is_vehicle_type(unit_type: object) -> bool:
    """True when a Unit Type (any value, None for none) names Vehicle: the one test of the package (Vehicles and
    Knights have armour and hull points)."""
    return unit_type is not None and "vehicle" in str(unit_type).lower()


@dataclass(frozen=True)
class Weapon:
    """A weapon profile: Range, Strength, AP, Type, as printed and parsed."""

    name: str
    range: RangeSpec
    strength: StrengthSpec
    ap: int | None
    type: WeaponType

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The weapon's special rules (from Type)."""
        return self.type.rules

    def has(self, rule: RuleRef) -> bool:
        """True when the weapon has the rule (a declaration or its canonical name)."""
        name = rule_name(rule)
        return self.type.has(name) or (name == "Template" and self.range.template is not None)

    def get(self, rule: RuleRef) -> Rule | None:
        """The rule's token, or None."""
        return self.type.get(rule_name(rule))

    @cached_property
    def roles(self) -> frozenset[Role]:
        """The roles its rules play (those its profile implies included)."""
        return roles_of(self.stage_rules)

    def plays(self, role: Role) -> bool:
        """True when a rule of the weapon (those its profile implies included) plays ``role``."""
        return role in self.roles

    def with_role(self, role: Role) -> Rule | None:
        """The first rule of the weapon (those its profile implies included) that plays ``role``, or None."""
        return with_role(role, self.stage_rules)

    @cached_property
    def stage_rules(self) -> tuple[Rule, ...]:
        """The rules the engine's stages read: the Type's tokens, plus those the profile implies (a
        Template or Hellstorm range, a ``Destroyer`` kind). Results report only the printed tokens."""
        implied = []
        if self.range.template is not None and not self.type.has(self.range.template):
            implied.append(Rule(name=self.range.template, text=self.range.template))
        if self.type.kind == "Destroyer" and not any(r.name == "Destroyer" for r in self.rules):
            implied.append(Rule(name="Destroyer", text="Destroyer"))
        return (*self.rules, *implied)

    @property
    def is_melee(self) -> bool:
        """True for a melee weapon (Type ``Melee`` or Range ``-``)."""
        return self.type.kind == "Melee"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, field_name: str = "weapon") -> Weapon:
        """Build from a docs/scenario.md weapon block (``name``, ``Range``, ``Strength``, ``AP``, ``Type``)."""
        if not isinstance(data, Mapping):
            raise ProfileError(f"{field_name}: expected an object, got {show_value(data)}")
        _reject_unknown(data, {"name", "Range", "Strength", "AP", "Type"}, field_name)
        name = data.get("name", "weapon")
        return cls.from_profile(
            "weapon" if name is None else name,
            data.get("Range", "-"),
            data.get("Strength", "User"),
            data.get("AP", "-"),
            data.get("Type", ""),
            field_name=field_name,
        )

    @classmethod
    def from_profile(
        cls, name: object, range_: object, strength: object, ap: object, type_: object, *, field_name: str = "weapon"
    ) -> Weapon:
        """Build from a profile's characteristics as printed (a typed catalog or roster row's): the checks and
        refusals of :meth:`from_mapping`, named under ``field_name``."""
        try:
            if not isinstance(name, (str, int, float)) or isinstance(name, bool) or _non_finite(name):
                raise ProfileError(f"name: expected text, got {show_value(name)}")
            weapon_type = parse_weapon_type(type_)
            _refuse_line_breaks(weapon_type)
            _refuse_unit_rules(weapon_type)
            return cls(
                name=check_text(name, "name"),
                range=parse_range(range_),
                strength=parse_strength(strength),
                ap=parse_ap(ap),
                type=weapon_type,
            )
        except ProfileError as exc:
            raise ProfileError(f"{field_name}.{exc}") from None


def _refuse_line_breaks(weapon_type: WeaponType) -> None:
    """A Type whose text goes on after a line break: the cleaning of imported data drops that part (rules prose
    in some catalogues), so a weapon block refuses it rather than lose rules without a word."""
    text = weapon_type.text.strip()
    if "\n" in text or "\r" in text:
        raise ProfileError(
            f"Type: {show_value(weapon_type.text)} goes on after a line break: give its rules on one line, "
            "separated by commas"
        )


def _refuse_unit_rules(weapon_type: WeaponType) -> None:
    """A unit's rule in a weapon's Type would act for neither side (or for the wrong one): refused, naming where
    it belongs; those a weapon may carry for its wielder (``RuleDecl.on_weapons``: Skyfire, Rage) stay."""
    for token in weapon_type.rules:
        decl = lookup(token.name)
        if decl is not None and decl.holder is Holder.UNIT and not decl.on_weapons:
            raise ProfileError(
                f"Type: {token.text!r} is a unit rule, not a weapon's: give it in attacker.rules (the wielder's) "
                "or target.rules"
            )


@dataclass(frozen=True)
class Armour:
    """A vehicle's armour values and hull points, as given (None when the block leaves one out)."""

    front: int | None = None
    side: int | None = None
    rear: int | None = None
    hp: int | None = None


#: Most models in one unit block (``models``).
MAX_MODELS = 1000
#: Unit fields that are whole numbers, and their largest values (a ``Unit`` built directly is checked too).
_UNIT_BOUNDS = (
    ("models", MAX_MODELS), ("WS", 10), ("BS", 10), ("S", 10), ("T", 10), ("W", 20), ("I", 10), ("A", 20),
    ("Ld", 12), ("save", 7), ("invulnerable", 7), ("cover", 7), ("wounds_taken", 30),
)  # fmt: skip
#: Facings a vehicle can be hit on.
FACINGS = ("Front", "Side", "Rear")
Facing = Literal["Front", "Side", "Rear"]
"""A vehicle facing (one of :data:`FACINGS`)."""
#: Fields of a unit block that only a Vehicle may carry.
VEHICLE_FIELDS = ("Front", "Side", "Rear", "HP", "facing", "moved")
_ARMOUR_FIELDS = {"Front": "front", "Side": "side", "Rear": "rear", "HP": "hp"}


@dataclass(frozen=True)
class Unit:
    """An attacking or target unit of identical models (a statline, a model count and rules)."""

    name: str = "unit"
    unit_type: str = "Infantry"
    models: int = 1
    WS: int | None = 4
    BS: int | None = 4
    S: int | None = 4
    T: int | None = 4
    W: int | None = 1
    I: int | None = 4
    A: int | None = 1
    Ld: int | None = 7
    save: int | None = None
    invulnerable: int | None = None
    cover: int | None = None
    rules: tuple[Rule, ...] = ()
    armour: Armour | None = None  # vehicles: Front, Side, Rear, HP
    facing: Facing = "Front"  # vehicles: the facing hit
    moved: bool = False  # vehicles: moved this turn (hit on 4+ in melee when without WS)
    wounds_taken: int = 0  # wounds (or hull points) the first model has already lost
    charging: bool = False  # melee: +1 A
    two_weapons: bool = False  # melee: +1 A for a second weapon
    disordered: bool = False  # melee: a Disordered Charge (no +1 A for charging)

    def __post_init__(self) -> None:
        """Whole numbers where the engine counts (models, characteristics, wounds taken), within bounds."""
        for name, hi in _UNIT_BOUNDS:
            value = getattr(self, name)
            if value is None and name not in ("models", "wounds_taken"):
                continue
            if isinstance(value, bool) or not isinstance(value, int):
                raise ProfileError(f"{name}: expected a whole number, got {show_value(value)}", field=name, value=value)
            if not 0 <= value <= hi:
                raise ProfileError(f"{name}: expected 0..{hi}, got {value}", field=name, value=value)
        for name in ("moved", "charging", "two_weapons", "disordered"):
            if not isinstance(getattr(self, name), bool):
                raise ProfileError(f"{name}: expected True or False, got {show_value(getattr(self, name))}", field=name)

    def has(self, rule: RuleRef) -> bool:
        """True when the unit has the rule (a declaration or its canonical name)."""
        name = rule_name(rule)
        return any(r.name == name for r in self.rules)

    def get(self, rule: RuleRef) -> Rule | None:
        """The rule's token, or None."""
        name = rule_name(rule)
        return next((r for r in self.rules if r.name == name), None)

    @cached_property
    def roles(self) -> frozenset[Role]:
        """The roles its rules play."""
        return roles_of(self.rules)

    def plays(self, role: Role) -> bool:
        """True when a rule of the unit plays ``role``."""
        return role in self.roles

    def with_role(self, role: Role) -> Rule | None:
        """The first rule of the unit that plays ``role``, or None."""
        return with_role(role, self.rules)

    def has_type(self, word: str) -> bool:
        """True when ``word`` appears in the Unit Type (``Vehicle``, ``Heavy``, ``Dreadnought``...)."""
        return word.lower() in self.unit_type.lower()

    @property
    def is_vehicle(self) -> bool:
        """True for a unit whose Unit Type contains Vehicle (:func:`is_vehicle_type`)."""
        return is_vehicle_type(self.unit_type)


_UNIT_FIELDS = {
    "name",
    "Unit Type",
    "models",
    "WS",
    "BS",
    "S",
    "T",
    "W",
    "I",
    "A",
    "Ld",
    "Save",
    "Invulnerable",
    "Cover",
    "rules",
    "Move",
    "M",
    "Front",
    "Side",
    "Rear",
    "HP",
    "facing",
    "charging",
    "two_weapons",
    "wounds_taken",
    "points",
    "disordered",
    "moved",
}


def _non_finite(value: object) -> bool:
    return isinstance(value, float) and not math.isfinite(value)


def _reject_unknown(data: Mapping[str, Any], allowed: set[str], field_name: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ProfileError(
            f"{field_name}.{unknown[0]}: unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})"
        )


def unit_from_mapping(data: Mapping[str, Any], *, field_name: str, defaults: Mapping[str, Any] | None = None) -> Unit:
    """Build a Unit from a docs/scenario.md attacker or target block."""
    if not isinstance(data, Mapping):
        raise ProfileError(f"{field_name}: expected an object, got {show_value(data)}")
    _reject_unknown(data, _UNIT_FIELDS, field_name)
    d = dict(defaults or {})
    d.update(data)

    def stat(key: str, lo: int = 0, hi: int = 10, allow_none: bool = True) -> int | None:
        return parse_stat(d.get(key), f"{field_name}.{key}", lo=lo, hi=hi, allow_none=allow_none)

    models = parse_stat(d.get("models", 1), f"{field_name}.models", lo=0, hi=MAX_MODELS)
    rules = d.get("rules", [])
    if rules is not None and not isinstance(rules, (list, tuple, str)):
        raise ProfileError(f"{field_name}.rules: expected a list of rule names, got {show_value(rules)}")
    unit_type = d.get("Unit Type", "Infantry")
    if unit_type is None:
        unit_type = "Infantry"
    if not isinstance(unit_type, str):
        raise ProfileError(f"{field_name}.Unit Type: expected text, got {show_value(unit_type)}")
    check_text(unit_type, f"{field_name}.Unit Type")
    name = d.get("name", field_name)
    if name is None:
        name = field_name
    if isinstance(name, bool) or not isinstance(name, (str, int, float)) or _non_finite(name):
        raise ProfileError(f"{field_name}.name: expected text, got {show_value(name)}")
    check_text(name, f"{field_name}.name")
    flags = {}
    for flag in ("charging", "two_weapons", "disordered", "moved"):
        value = d.get(flag, False)
        if not isinstance(value, bool):
            raise ProfileError(f"{field_name}.{flag}: expected true or false, got {show_value(value)}")
        flags[flag] = value
    taken = parse_stat(d.get("wounds_taken", 0), f"{field_name}.wounds_taken", lo=0, hi=30, allow_none=True) or 0
    facing = d.get("facing", "Front")
    if facing not in FACINGS:
        raise ProfileError(f"{field_name}.facing: expected Front, Side or Rear, got {show_value(facing)}")
    is_vehicle = is_vehicle_type(unit_type)
    misplaced = [k for k in VEHICLE_FIELDS if k in d and not is_vehicle]
    if misplaced:
        raise ProfileError(
            f"{field_name}.{misplaced[0]}: only a Vehicle has {misplaced[0]!r}, got Unit Type {show_value(unit_type)}"
        )
    armour = None
    if any(k in d for k in _ARMOUR_FIELDS):
        armour = Armour(
            **{
                attr: parse_stat(
                    d.get(key),
                    f"{field_name}.{key}",
                    lo=1 if key == "HP" else 9,
                    hi=30 if key == "HP" else 15,
                    allow_none=True,
                )
                for key, attr in _ARMOUR_FIELDS.items()
            }
        )
    for key in ("Move", "M"):
        if key in d:
            _check_move(d[key], f"{field_name}.{key}")
    if "points" in d:
        _check_points(d["points"], f"{field_name}.points")
    return Unit(
        name=str(name),
        unit_type=unit_type,
        models=int(models or 0),
        WS=stat("WS", 0, 10),
        BS=stat("BS", 0, 10),
        S=stat("S", 0, 10),
        T=stat("T", 1, 10),
        W=stat("W", 1 if field_name.endswith("target") else 0, 20),
        I=stat("I", 0, 10),
        A=stat("A", 0, 20),
        Ld=stat("Ld", 0, 12),
        save=parse_save(d.get("Save"), f"{field_name}.Save"),
        invulnerable=parse_save(d.get("Invulnerable"), f"{field_name}.Invulnerable"),
        cover=parse_save(d.get("Cover"), f"{field_name}.Cover"),
        rules=with_type_rules(parse_rules(rules, field_name=f"{field_name}.rules"), unit_type),
        armour=armour,
        facing=facing,
        wounds_taken=taken,
        **flags,
    )


def _check_move(value: Any, field_name: str) -> None:
    """A Move characteristic (not used by the engine, but checked): inches 0..60 (``7"``, ``9*``) or ``"-"``."""
    if isinstance(value, str):
        value = clean_text(value).rstrip('"*').strip()
    parse_stat(value, field_name, lo=0, hi=60, allow_none=True)


def _check_points(value: Any, field_name: str) -> None:
    """A points cost (not used by the engine, but checked): a finite number 0..100000, or None."""
    if value is None:
        return
    if isinstance(value, str) and len(value) < 20:
        with contextlib.suppress(ValueError):
            value = float(clean_text(value))
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ProfileError(f"{field_name}: expected a number of points, got {show_value(value)}")
    if not 0 <= value <= 100_000:
        raise ProfileError(f"{field_name}: must be between 0 and 100000, got {show_value(value)}")


def vehicle_armour(unit: Unit, field_name: str = "target") -> tuple[int, int, int, int]:
    """(Front, Side, Rear, HP) of a Vehicle target; refuses a missing value or ``wounds_taken`` >= HP."""
    armour = unit.armour or Armour()
    values = []
    for key, attr in _ARMOUR_FIELDS.items():
        value = getattr(armour, attr)
        if value is None:
            raise ProfileError(f"{field_name}.{key}: required for a Vehicle target, got nothing")
        values.append(value)
    front, side, rear, hp = values
    if not 0 <= unit.wounds_taken < hp:
        raise ProfileError(
            f"{field_name}.wounds_taken: hull points already lost must be 0..{hp - 1}, got {unit.wounds_taken}"
        )
    return front, side, rear, hp


def with_type_rules(rules: tuple[Rule, ...], unit_type: str) -> tuple[Rule, ...]:
    """``rules`` plus those the Unit Type grants (Fearless for a Dreadnought...), each marked with its source
    (``"Fearless (from Dreadnought)"``); a rule the unit already has is not granted twice."""
    have = {r.name for r in rules}
    extra = []
    for text, word in granted_rules(unit_type):
        rule = parse_rule(text, field_name="Unit Type")
        if rule.name not in have:
            have.add(rule.name)
            extra.append(replace(rule, text=f"{text} (from {word})"))
    return (*rules, *extra)
