"""A whole round of melee from a scenario document (``"mode": "melee"`` with ``"target_weapon"``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.melee.combat import Side, resolve_combat
from praetor_analysis.profiles.records import Weapon, unit_from_mapping


def _weapons(value: Any, field_name: str) -> tuple[Weapon, ...]:
    items = value if isinstance(value, list) else [value]
    if not items:
        raise ScenarioError(f"{field_name}: expected a weapon or a list of profiles, got []")
    out = []
    for k, item in enumerate(items):
        name = field_name if not isinstance(value, list) else f"{field_name}[{k}]"
        w = Weapon.from_mapping(item, field_name=name)
        if not w.is_melee and w.type.kind not in {None, "Pistol"}:
            raise ScenarioError(f"{name}.Type: {w.type.text!r} is not a melee weapon")
        out.append(w)
    return tuple(out)


def _side(data: Mapping[str, Any], key: str, weapons: tuple[Weapon, ...]) -> Side:
    block = data.get(key)
    if not isinstance(block, Mapping):
        raise ScenarioError(f"{key}: expected an object, got {block!r}")
    block = dict(block)
    second = block.pop("second_weapon", None)
    second_w = None if second is None else _weapons(second, f"{key}.second_weapon")[0]
    unit = unit_from_mapping(block, field_name=key)
    for stat in ("WS", "S", "T", "W", "I", "A"):
        if getattr(unit, stat) is None:
            raise ScenarioError(f"{key}.{stat}: required for a whole round of melee, got None")
    if unit.models < 1:
        raise ScenarioError(f"{key}.models: must be at least 1, got {unit.models}")
    if unit.W is not None and unit.W < 1:
        raise ScenarioError(f"{key}.W: must be at least 1, got {unit.W}")
    if unit.is_vehicle:
        raise ScenarioError(f"{key}.Unit Type: a whole round of melee with a Vehicle is not modelled")
    for flag in ("charging", "two_weapons", "disordered"):
        if flag in unit.extra and not isinstance(unit.extra[flag], bool):
            raise ScenarioError(f"{key}.{flag}: expected true or false, got {unit.extra[flag]!r}")
    return Side(unit, weapons, second_w)


def handle_scenario(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A whole round when ``mode`` is melee and ``target_weapon`` is given, else None."""
    if data.get("mode") != "melee" or "target_weapon" not in data:
        return None
    for key in ("attacks", "hits", "formation", "firing_units"):
        if data.get(key) is not None:
            raise ScenarioError(
                f"{key}: not used in a whole round of melee (attacks follow the models alive), got {data[key]!r}"
            )
    if data.get("snap_shots"):
        raise ScenarioError("snap_shots: not used in melee, got true")
    if "weapon" not in data:
        raise ScenarioError("weapon: required, got nothing")
    try:
        attacker = _side(data, "attacker", _weapons(data["weapon"], "weapon"))
        target = _side(data, "target", _weapons(data["target_weapon"], "target_weapon"))
        return resolve_combat(attacker, target).to_dict()
    except ProfileError as exc:
        raise ScenarioError(str(exc)) from None
