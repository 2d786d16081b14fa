"""Typed rows -> the engine's records: a 2nd-edition statline to a :class:`~praetor_analysis.profiles.Unit` of some
models, a weapon row to a :class:`~praetor_analysis.profiles.Weapon`, directly (no block between them).

The readings and refusals are those of the door's block readers (``profiles.unit_from_mapping``,
``profiles.Weapon.from_mapping``): the same checks of each characteristic as printed, the same one-line errors
naming ``attacker.<field>`` (or ``target.<field>``). Records are immutable, so each is built once (a bounded
memo keyed by the frozen rows).
"""

from __future__ import annotations

from functools import lru_cache

from praetor_analysis.errors import ProfileError, show_value
from praetor_analysis.profiles import (
    MAX_MODELS,
    Armour,
    Unit,
    Weapon,
    check_text,
    is_vehicle_type,
    parse_rules,
    parse_save,
    parse_stat,
    with_type_rules,
)
from praetor_analysis.units.catalog_rows import WeaponRow
from praetor_analysis.units.records import Statline

__all__ = ["clear_records", "unit_record", "weapon_record"]

#: The characteristics of a statline and their bounds (lowest, highest), as the door reads them.
_BOUNDS = {"WS": (0, 10), "BS": (0, 10), "S": (0, 10), "T": (1, 10), "W": (0, 20), "I": (0, 10), "A": (0, 20),
           "Ld": (0, 12)}  # fmt: skip
#: A vehicle's armour: the record's attribute and bounds of each.
_ARMOUR = {"Front": ("front", 9, 15), "Side": ("side", 9, 15), "Rear": ("rear", 9, 15), "HP": ("hp", 1, 30)}


@lru_cache(maxsize=8192)
def weapon_record(row: WeaponRow, field: str = "weapon") -> Weapon:
    """The engine's weapon of a profile row (an empty name is ``weapon``, an empty characteristic ``-``)."""
    return Weapon.from_profile(
        row.name or "weapon",
        "-" if row.range is None else row.range,
        "-" if row.strength is None else row.strength,
        "-" if row.ap is None else row.ap,
        row.type,
        field_name=field,
    )


@lru_cache(maxsize=8192)
def unit_record(statline: Statline, models: int, field: str = "attacker") -> Unit:
    """The engine's unit of ``models`` models of ``statline``, read as ``field`` (a target's Wounds are at least 1).

    Raises:
        ProfileError: A characteristic the door would refuse, naming ``field.<characteristic>``.
    """
    count = int(parse_stat(models, f"{field}.models", lo=0, hi=MAX_MODELS) or 0)
    unit_type = "Infantry" if statline.unit_type is None else statline.unit_type
    check_text(unit_type, f"{field}.Unit Type")
    name = statline.name or field
    check_text(name, f"{field}.name")
    given = [k for k in _ARMOUR if statline.stat(k) is not None]
    vehicle = is_vehicle_type(unit_type)
    if given and not vehicle:
        raise ProfileError(
            f"{field}.{given[0]}: only a Vehicle has {given[0]!r}, got Unit Type {show_value(unit_type)}"
        )
    armour = None
    if given:
        armour = Armour(**{attr: parse_stat(statline.stat(key), f"{field}.{key}", lo=lo, hi=hi, allow_none=True)
                           for key, (attr, lo, hi) in _ARMOUR.items()})  # fmt: skip
    stats = {
        key: parse_stat(statline.stat(key), f"{field}.{key}", lo=1 if key == "W" and field.endswith("target") else lo,
                        hi=hi, allow_none=True)
        for key, (lo, hi) in _BOUNDS.items()
    }  # fmt: skip
    return Unit(
        name=name,
        unit_type=unit_type,
        models=count,
        WS=stats["WS"],
        BS=stats["BS"],
        S=stats["S"],
        T=stats["T"],
        W=stats["W"],
        I=stats["I"],
        A=stats["A"],
        Ld=stats["Ld"],
        save=parse_save(statline.Save, f"{field}.Save"),
        invulnerable=parse_save(statline.Invulnerable, f"{field}.Invulnerable"),
        cover=None,
        rules=with_type_rules(parse_rules(list(statline.rules), field_name=f"{field}.rules"), unit_type),
        armour=armour,
        charging=statline.charging,
        two_weapons=statline.two_weapons,
        disordered=statline.disordered,
    )


def clear_records() -> None:
    """Forget the records built (a test that changes the rule tables)."""
    weapon_record.cache_clear()
    unit_record.cache_clear()
