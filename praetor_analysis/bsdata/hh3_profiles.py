"""Typed records of the 3rd edition's profiles, as BattleScribe data and rosters write them.

A ranged weapon has R, FP, RS, AP, D, Special Rules and Traits; a melee weapon IM, AM, SM, AP, D, Special Rules and
Traits; a model's ``Profile`` Type, M, WS, BS, S, T, W, I, A, LD, CL, WP, IN, SAV, INV; a ``Vehicle`` Type, M, BS,
Front/Side/Rear Armour, HP, Transport Capacity, Access Points; a ``Knight`` Type, M, WS, BS, S, Front, Rear, I, A, HP.
Values are kept as written (``"2+"``, ``"-"``, ``"12"``): reading them as numbers is the engine's job. A
characteristic these records have no field for is kept in ``extra``, never dropped.

These are the roster reader's records, values as written; ``as_block()`` gives them under the data's names, the
block the 3rd edition's profile readers take (:func:`praetor_analysis.profiles.hh3.read_weapon`, ``read_unit``),
which parse the values for the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, Self

__all__ = [
    "HH3_MELEE_TYPES",
    "HH3_RANGED_TYPES",
    "HH3_STATLINE_TYPES",
    "Hh3MeleeProfile",
    "Hh3RangedProfile",
    "Hh3Statline",
    "Hh3WeaponProfile",
    "profile_kind",
    "split_rules",
]

HH3_RANGED_TYPES = frozenset({"Ranged Weapon", "Psychic Ranged Weapon"})
HH3_MELEE_TYPES = frozenset({"Melee Weapon", "Psychic Melee Weapon"})
HH3_STATLINE_TYPES = frozenset(
    {
        "Profile",
        "Vehicle",
        "Knight",
        "Titan Head",
        "Titan Carapace",
        "Titan Arms",
        "Titan Legs",
        "Ordinatus Carriage",
        "Battlefield fortification",
    }
)

_STATLINE_FIELDS = {
    "Type": "unit_type",
    "M": "move",
    "WS": "ws",
    "BS": "bs",
    "S": "strength",
    "T": "toughness",
    "W": "wounds",
    "I": "initiative",
    "A": "attacks",
    "LD": "leadership",
    "CL": "cool",
    "WP": "willpower",
    "IN": "intelligence",
    "SAV": "save",
    "INV": "invulnerable",
    "Front Armour": "front",
    "Front": "front",
    "Side Armour": "side",
    "Rear Armour": "rear",
    "Rear": "rear",
    "Armour": "front",
    "Primary Armour": "front",
    "Exposed Armour": "rear",
    "HP": "hull_points",
    "Transport Capacity": "transport_capacity",
    "Access Points": "access_points",
}
_LISTS = {"Special Rules": "special_rules", "Traits": "traits"}
_RANGED_FIELDS = {"R": "range", "FP": "fire_power", "RS": "ranged_strength", "AP": "ap", "D": "damage", **_LISTS}
_MELEE_FIELDS = {
    "IM": "initiative_modifier",
    "AM": "attacks_modifier",
    "SM": "strength_modifier",
    "AP": "ap",
    "D": "damage",
    **_LISTS,
}


def profile_kind(type_name: str) -> str:
    """A profile's ``typeName`` without stray spaces or the trailing colon some data writes (``Gambit:``)."""
    return " ".join(type_name.split()).rstrip(":").strip()


def split_rules(text: str) -> tuple[str, ...]:
    """Names in a ``Special Rules`` or ``Traits`` text, split at commas outside brackets
    (``"Breaching (5+), Blast (3\\")"`` -> ``("Breaching (5+)", 'Blast (3")')``); ``"-"`` is none."""
    out: list[str] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return tuple(n for n in (" ".join(p.split()) for p in out) if n and n != "-")


def _fields(chars: Mapping[str, str], table: Mapping[str, str]) -> tuple[dict[str, str], tuple[tuple[str, str], ...]]:
    known: dict[str, str] = {}
    extra: list[tuple[str, str]] = []
    for key, value in chars.items():
        name = table.get(key)
        if name is None or name in known:
            extra.append((key, value))
        else:
            known[name] = value
    return known, tuple(extra)


def _block(record: Hh3WeaponProfile | Hh3Statline, table: Mapping[str, str]) -> dict[str, str]:
    """``record``'s non-empty fields under the first data name ``table`` gives each, then its ``extra``."""
    out = {"name": record.name}
    done: set[str] = set()
    for key, attr in table.items():
        value = getattr(record, attr)
        text = ", ".join(value) if isinstance(value, tuple) else str(value)
        if text and attr not in done:
            out[key] = text
            done.add(attr)
    out.update(record.extra)
    return out


@dataclass(frozen=True)
class Hh3WeaponProfile:
    """What every weapon profile has: a name, AP, D, its Special Rules and Traits (names, values in them), whether
    it is psychic, and the characteristics without a field."""

    FIELDS: ClassVar[Mapping[str, str]] = {"AP": "ap", "D": "damage", **_LISTS}

    name: str
    ap: str = ""
    damage: str = ""
    special_rules: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    psychic: bool = False
    extra: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_characteristics(cls, name: str, kind: str, chars: Mapping[str, str]) -> Self:
        """The record of a weapon profile's characteristics (``kind``: its ``typeName``)."""
        known, extra = _fields(chars, cls.FIELDS)
        rules = split_rules(known.pop("special_rules", ""))
        traits = split_rules(known.pop("traits", ""))
        return cls(name, **known, special_rules=rules, traits=traits, psychic=kind.startswith("Psychic"), extra=extra)

    def as_block(self) -> dict[str, str]:
        """The profile under the data's characteristic names (``{"name", "R", "FP", ...}``), rule and trait lists
        joined with ``", "``: what the 3rd edition's profile readers take."""
        return _block(self, self.FIELDS)


@dataclass(frozen=True)
class Hh3RangedProfile(Hh3WeaponProfile):
    """One firing mode of a ranged weapon (as written: ``range="24"``, ``fire_power="2"``, ``ap="5"``)."""

    FIELDS: ClassVar[Mapping[str, str]] = _RANGED_FIELDS

    range: str = ""
    fire_power: str = ""
    ranged_strength: str = ""


@dataclass(frozen=True)
class Hh3MeleeProfile(Hh3WeaponProfile):
    """One profile of a melee weapon: its modifiers to the wielder's I, A and S (``"+1"``, ``"-"``, ``"I"``)."""

    FIELDS: ClassVar[Mapping[str, str]] = _MELEE_FIELDS

    initiative_modifier: str = ""
    attacks_modifier: str = ""
    strength_modifier: str = ""


@dataclass(frozen=True)
class Hh3Statline:
    """A model's, vehicle's, knight's, titan part's or fortification's profile; ``kind`` is its ``typeName``.

    Fields a kind does not have are ``""`` (a vehicle has no toughness; an infantry model no armour).
    """

    name: str
    kind: str
    unit_type: str = ""
    move: str = ""
    ws: str = ""
    bs: str = ""
    strength: str = ""
    toughness: str = ""
    wounds: str = ""
    initiative: str = ""
    attacks: str = ""
    leadership: str = ""
    cool: str = ""
    willpower: str = ""
    intelligence: str = ""
    save: str = ""
    invulnerable: str = ""
    front: str = ""
    side: str = ""
    rear: str = ""
    hull_points: str = ""
    transport_capacity: str = ""
    access_points: str = ""
    extra: tuple[tuple[str, str], ...] = ()

    @classmethod
    def from_characteristics(cls, name: str, kind: str, chars: Mapping[str, str]) -> Hh3Statline:
        """The record of a statline profile's characteristics."""
        known, extra = _fields(chars, _STATLINE_FIELDS)
        return cls(name, kind, **known, extra=extra)

    def as_block(self) -> dict[str, str]:
        """The statline under the data's characteristic names (the first name of each field: ``Front Armour``),
        empty ones left out."""
        return _block(self, _STATLINE_FIELDS)

    @property
    def is_vehicle(self) -> bool:
        """True for a profile with armour values (vehicles, knights, titans, fortifications)."""
        return bool(self.front)
