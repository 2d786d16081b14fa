"""The two sides of a whole round of melee from a scenario (``"mode": "melee"`` with ``"target_weapon"``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.errors import PraetorError, ScenarioError, show_value
from praetor_analysis.melee import Side, resolve_combat
from praetor_analysis.profiles import VEHICLE_FIELDS, Weapon, unit_from_mapping
from praetor_analysis.units import NO_MODIFIERS, split_modifiers

#: Most weapon profiles one side may list.
MAX_SIDE_WEAPONS = 16


def _weapons(value: Any, field_name: str) -> tuple[Weapon, ...]:
    if value is True and field_name == "target_weapon":
        raise ScenarioError(
            "target_weapon: true (the target fights back with its own wargear) needs a datasheet or a roster's "
            "unit as the attacker and as the target; give the target's weapon profiles here"
        )
    items = value if isinstance(value, list) else [value]
    if not items:
        raise ScenarioError(f"{field_name}: expected a weapon or a list of profiles, got []")
    if len(items) > MAX_SIDE_WEAPONS:
        raise ScenarioError(f"{field_name}: {len(items)} profiles (limit {MAX_SIDE_WEAPONS})")
    out = []
    for k, item in enumerate(items):
        name = field_name if not isinstance(value, list) else f"{field_name}[{k}]"
        if isinstance(item, list):
            raise ScenarioError(f"{name}: expected a weapon profile, got a list inside the list")
        if isinstance(item, Mapping) and not item:
            raise ScenarioError(f"{name}: an empty weapon block; give a profile (Range, Strength, AP, Type) or a name")
        w = Weapon.from_mapping(item, field_name=name)
        if not w.is_melee and w.type.kind not in {None, "Pistol"}:
            raise ScenarioError(f"{name}.Type: {w.type.text!r} is not a melee weapon")
        out.append(w)
    return tuple(out)


def _side(data: Mapping[str, Any], key: str, weapons: tuple[Weapon, ...]) -> Side:
    block = data.get(key)
    if not isinstance(block, Mapping):
        raise ScenarioError(f"{key}: expected an object, got {show_value(block)}")
    block = dict(block)
    modifiers = NO_MODIFIERS
    if key == "attacker":  # the target fights back unmodified
        block, modifiers = split_modifiers(block, key)
        weapons = tuple(modifiers.apply_weapon(w) for w in weapons)
    second = block.pop("second_weapon", None)
    second_w = None if second is None else modifiers.apply_weapon(_weapons(second, f"{key}.second_weapon")[0])
    if isinstance(second, list) and len(second) > 1:
        raise ScenarioError(f"{key}.second_weapon: one weapon, got a list of {len(second)}")
    vehicle_only = [k for k in VEHICLE_FIELDS if k in block]
    if vehicle_only:
        raise ScenarioError(f"{key}.{vehicle_only[0]}: a whole round of melee with a Vehicle is not modelled")
    if key == "attacker" and "Save" not in block:  # the contract asks T, W and Save of the side struck back at
        raise ScenarioError(f'{key}.Save: required for a whole round of melee ("-" for none), got nothing')
    unit = modifiers.apply_unit(unit_from_mapping(block, field_name=key))
    for stat in ("WS", "S", "T", "W", "I", "A"):
        if getattr(unit, stat) is None:
            raise ScenarioError(f"{key}.{stat}: required for a whole round of melee, got None")
    if unit.models < 1:
        raise ScenarioError(f"{key}.models: must be at least 1, got {unit.models}")
    if unit.W is not None and unit.W < 1:
        raise ScenarioError(f"{key}.W: must be at least 1, got {unit.W}")
    if unit.is_vehicle:
        raise ScenarioError(f"{key}.Unit Type: a whole round of melee with a Vehicle is not modelled")
    if not unit.wounds_taken < (unit.W or 1):
        raise ScenarioError(f"{key}.wounds_taken: must be 0..{(unit.W or 1) - 1}, got {unit.wounds_taken}")
    return Side(unit, weapons, second_w)


def parse_melee_round(data: Mapping[str, Any]) -> tuple[Side, Side]:
    """The attacker's and the target's sides of a whole round."""
    for key in ("attacks", "hits", "formation", "firing_units", "half_range"):
        if data.get(key) is not None and data.get(key) is not False:
            raise ScenarioError(
                f"{key}: not used in a whole round of melee (attacks follow the models alive), "
                f"got {show_value(data[key])}"
            )
    if data.get("snap_shots") is not None and data.get("snap_shots") is not False:
        raise ScenarioError(f"snap_shots: not used in melee, got {show_value(data['snap_shots'])}")
    if "weapon" not in data:
        raise ScenarioError("weapon: required, got nothing")
    attacker = _side(data, "attacker", _weapons(data["weapon"], "weapon"))
    target = _side(data, "target", _weapons(data["target_weapon"], "target_weapon"))
    return attacker, target


def handle_scenario(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A whole round when ``mode`` is melee and ``target_weapon`` is given (the result mapping), else None."""
    if data.get("mode") != "melee" or "target_weapon" not in data:
        return None
    try:
        attacker, target = parse_melee_round(data)
    except ScenarioError:
        raise
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None
    return resolve_combat(attacker, target).to_dict()
