"""An HH3 vehicle target block read into a typed record (docs/rules-hh3.md#vehicles).

Fields as BattleScribe prints them: ``Type`` (``Vehicle (Transport)``, ``Vehicle (Knight)`` or ``Knight``,
``Vehicle (Flyer)``...; read by :func:`~praetor_analysis.profiles.hh3.read_type`), ``M``,
``BS``, ``Front Armour``, ``Side Armour``, ``Rear Armour``, ``HP``, ``Transport Capacity``; a Knight's ``WS``,
``S``, ``I``, ``A``, ``Front``, ``Rear``; and the scenario's ``facing``, ``Cover``, ``INV``, ``rules``, ``hp_left``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from praetor_analysis.errors import ProfileError, show_value
from praetor_analysis.prob import BoundedMemo, frozen_key
from praetor_analysis.profiles import check_text, parse_save, parse_stat, read_type
from praetor_analysis.rules import RuleRef, parse_rules
from praetor_analysis.vehicles.hh3.facing import FACINGS, Armour, Facing

__all__ = ["VEHICLE_FIELDS", "Hh3VehicleTarget", "is_vehicle_block", "read_vehicle", "vehicle_of_profile"]

VEHICLE_FIELDS = ("Front Armour", "Side Armour", "Rear Armour", "HP", "Front", "Rear", "Side")
_ALLOWED = frozenset(
    {"name", "Type", "M", "BS", "WS", "S", "I", "A", "HP", "Transport Capacity", "INV", "Cover", "rules", "facing",
     "models", "hp_left", "Front Armour", "Side Armour", "Rear Armour", "Front", "Rear", "Side"}
)  # fmt: skip


_UNIT_ONLY = ("T", "W", "SAV", "LD", "CL", "WP", "IN")


@dataclass(frozen=True)
class Hh3VehicleTarget:
    """One vehicle model as a target.

    Attributes:
        name, type, subtypes: as given (``Vehicle``, ``{"Transport"}``).
        armour: its armour values; ``facing``: the facing the attack sees (default Front).
        hp, hp_left: Hull Points, and those left before the attack.
        ws: its WS in melee (a Knight's own; other vehicles count as 1).
        inv, cover: invulnerable and cover save target numbers (None: none).
        rules: its special rules (Void Shields (X), Explodes (X), Feel No Pain (X), Shrouded (X) act).
    """

    name: str
    type: str
    subtypes: frozenset[str]
    armour: Armour
    facing: Facing
    hp: int
    hp_left: int
    ws: int
    inv: int | None
    cover: int | None
    rules: tuple[RuleRef, ...]

    def has(self, *names: str) -> bool:
        """Whether the type or a sub-type is one of ``names`` (case-insensitive)."""
        mine = {self.type.lower(), *(s.lower() for s in self.subtypes)}
        return any(n.lower() in mine for n in names)

    @property
    def glance_costs_hp(self) -> bool:
        """Super-heavy and Flyer vehicles lose 1 HP per Glancing Hit and roll no table."""
        return self.has("Super-heavy", "Flyer")

    def rule_number(self, name: str) -> int | None:
        """The number of the rule ``name`` (the best, lowest, when listed twice), or None."""
        values = [r.number(f"target.rules.{r.name}") for r in self.rules if r.name == name]
        return min(values) if values else None


def is_vehicle_block(data: Any) -> bool:
    """Whether a target block is a vehicle's (it prints armour values or Hull Points)."""
    return isinstance(data, Mapping) and any(k in data for k in VEHICLE_FIELDS)


def read_vehicle(data: Any, field: str = "target") -> Hh3VehicleTarget:
    """The vehicle record of a target block (memoised on the block's contents: the record is frozen).

    Raises:
        ProfileError: naming the field for an unknown field, a missing armour value or HP, or a bad value.
    """
    key = frozen_key(data)
    if key is None:
        return _read_vehicle(data, field)
    return _VEHICLES.get((key, field), lambda: _read_vehicle(data, field))


_VEHICLES: BoundedMemo[Hh3VehicleTarget] = BoundedMemo(1024)


def _read_vehicle(data: Any, field: str) -> Hh3VehicleTarget:
    if not isinstance(data, Mapping):
        raise ProfileError(f"{field}: expected an object, got {show_value(data)}", field=field)
    front, side, rear = (data.get(a) if data.get(a) is not None else data.get(b) for a, b in _FACES)
    return vehicle_of_profile(
        data.get("name", "vehicle"), data.get("Type"), front=front, side=side, rear=rear, hp=data.get("HP"),
        ws=data.get("WS"), inv=data.get("INV"), cover=data.get("Cover"), rules=data.get("rules"),
        hp_left=data.get("hp_left"), facing=data.get("facing", "Front"), models=data.get("models", 1),
        printed=tuple(data), field=field,
    )  # fmt: skip


_FACES = (("Front Armour", "Front"), ("Side Armour", "Side"), ("Rear Armour", "Rear"))


def _face(value: object, key: str, field: str) -> int | None:
    if value is None:
        return None
    parsed = parse_stat(value, f"{field}.{key}", lo=0, hi=20, allow_none=False)
    assert parsed is not None
    return parsed


def vehicle_of_profile(
    name: object, type_: object, *, front: object, side: object = None, rear: object = None, hp: object = None,
    ws: object = None, inv: object = None, cover: object = None, rules: object = None, hp_left: object = None,
    facing: object = "Front", models: object = 1, printed: Collection[str] = (), field: str = "target",
) -> Hh3VehicleTarget:  # fmt: skip
    """A vehicle target from its characteristics as printed (a typed roster or catalog statline's; None: not
    printed; ``hp_left`` None: every Hull Point left; ``printed``: the names of the characteristics it prints, a
    unit's or an unknown one refused): the checks and refusals of :func:`read_vehicle`, named under ``field``.

    Raises:
        ProfileError: naming the field for an unknown field, a missing armour value or HP, or a bad value.
    """
    statline = [k for k in _UNIT_ONLY if k in printed]
    if statline:
        armour = next((k for k in VEHICLE_FIELDS if k in printed), "Front Armour")
        raise ProfileError(
            f"{field}.{armour}: a vehicle's armour beside {field}.{statline[0]} (a vehicle has no T, W, SAV, LD "
            "or CL): give one or the other",
            field=f"{field}.{armour}",
        )
    for key in printed:
        if key not in _ALLOWED:
            raise ProfileError(
                f"{field}.{key}: unknown field for an edition 3 vehicle (allowed: {', '.join(sorted(_ALLOWED))})",
                field=f"{field}.{key}",
            )
    kind, subtypes = read_type(type_ or "Vehicle", f"{field}.Type")
    names = {kind.lower(), *(s.lower() for s in subtypes)}
    knight = "knight" in names
    keys = [next((k for k in pair if k in printed), pair[0]) for pair in _FACES]
    front_, side_, rear_ = (_face(v, k, field) for v, k in zip((front, side, rear), keys, strict=True))
    flyer = "flyer" in names
    if front_ is None:
        raise ProfileError(f"{field}.Front Armour: required for a vehicle", field=f"{field}.Front Armour")
    if flyer:
        side_ = rear_ = front_ if side_ is None else side_
        rear_ = front_ if rear_ is None else rear_
    if rear_ is None or (side_ is None and not knight):
        missing = "Rear Armour" if rear_ is None else "Side Armour"
        raise ProfileError(f"{field}.{missing}: required for a vehicle", field=f"{field}.{missing}")
    hull = parse_stat(hp, f"{field}.HP", lo=1, hi=100, allow_none=True)
    if hull is None:
        raise ProfileError(f"{field}.HP: required for a vehicle", field=f"{field}.HP")
    left = parse_stat(hull if hp_left is None else hp_left, f"{field}.hp_left", lo=1, hi=hull, allow_none=False)
    if models != 1:
        raise ProfileError(
            f"{field}.models: edition 3 vehicle targets are one model (squadrons are not modelled), got "
            f"{show_value(models)}",
            field=f"{field}.models",
        )
    if facing not in FACINGS:
        raise ProfileError(
            f"{field}.facing: expected one of Front, Side, Rear, got {show_value(facing)}", field=f"{field}.facing"
        )
    skill = parse_stat(ws, f"{field}.WS", lo=0, hi=20, allow_none=True) if knight else None
    return Hh3VehicleTarget(
        name=check_text(name, f"{field}.name"),
        type=kind,
        subtypes=subtypes,
        armour=Armour(front_, None if knight else side_, rear_, flyer=flyer),
        facing=facing,
        hp=hull,
        hp_left=int(left or hull),
        ws=skill if skill else 1,
        inv=parse_save(inv, f"{field}.INV"),
        cover=parse_save(cover, f"{field}.Cover"),
        rules=parse_rules(rules, field=f"{field}.rules"),
    )
