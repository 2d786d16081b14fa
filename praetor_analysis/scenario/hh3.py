"""The edition 3 door of ``praetor calc``: ``"edition": "hh3"`` documents parsed into typed records
(:mod:`praetor_analysis.profiles.hh3`, :mod:`praetor_analysis.engine.hh3`), resolved, and written back as JSON.

The edition is read here once (:func:`edition_of`); the 2nd edition's path never sees an edition 3 document,
and ``"edition": "hh2"`` is removed before the 2nd edition's parser reads the rest.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from praetor_analysis.engine import Hh3Context, Hh3Volley, one_attack, resolve_hh3
from praetor_analysis.errors import PraetorError, ScenarioError, show_value
from praetor_analysis.prob import DiceExpr, parse_dice
from praetor_analysis.profiles import Hh3Unit, read_unit, read_weapon

__all__ = ["EDITIONS", "Hh3Scenario", "calc_hh3", "edition_of", "is_hh3", "parse_hh3", "without_edition"]

EDITIONS = ("hh2", "hh3")
VOLLEY_FIELDS = frozenset(
    {"mode", "attacker", "weapon", "attacks", "snap_shots", "stationary", "charging", "range", "hits", "engaged"}
)
TOP_FIELDS = VOLLEY_FIELDS | {"edition", "name", "target", "options", "firing_units"}
OPTIONS = {"group_order": ("created", "largest_damage_first")}
#: Fields of the 2nd edition's door that edition 3 does not read yet, with where they will act.
_NOT_YET = {
    "target_weapon": "a whole melee round (the edition 3 melee stage is not wired yet)",
    "formation": "marker placement (the edition 3 markers stage is not wired yet); give `hits`",
    "aim": "marker placement (the edition 3 markers stage is not wired yet); give `hits`",
    "indirect": "marker placement (the edition 3 markers stage is not wired yet); give `hits`",
    "edges": "marker placement (the edition 3 markers stage is not wired yet); give `hits`",
    "half_range": "an edition 2 field (edition 3 reads `range`)",
    "metric": "profile lists (not in edition 3 yet)",
}


def edition_of(data: Any) -> str:
    """The edition a document asks for (``hh2`` by default).

    Raises:
        ScenarioError: naming ``edition`` when it is not ``hh2`` or ``hh3``.
    """
    if not isinstance(data, Mapping) or "edition" not in data:
        return "hh2"
    value = data["edition"]
    if not isinstance(value, str) or value.strip().lower() not in EDITIONS:
        raise ScenarioError(f"edition: expected 'hh2' or 'hh3', got {show_value(value)}", field="edition", value=value)
    return value.strip().lower()


def is_hh3(data: Any) -> bool:
    """Whether a document is an edition 3 scenario (its ``edition`` is checked)."""
    return edition_of(data) == "hh3"


def without_edition(data: Any) -> Any:
    """An edition 2 document without its ``edition`` field (the 2nd edition's parser does not know it)."""
    if isinstance(data, Mapping) and "edition" in data and edition_of(data) == "hh2":
        return {k: v for k, v in data.items() if k != "edition"}
    return data


@dataclass(frozen=True)
class Hh3Scenario:
    """A parsed edition 3 document: the target and the volleys of each firing unit."""

    target: Hh3Unit
    firing_units: tuple[tuple[Hh3Volley, ...], ...]


def _flag(data: Mapping[str, Any], key: str, field: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ScenarioError(f"{field}: expected true or false, got {show_value(value)}", field=field, value=value)
    return value


def _dice(data: Mapping[str, Any], key: str, field: str) -> DiceExpr | None:
    if data.get(key) is None:
        return None
    try:
        return parse_dice(data[key], field=field)
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=field, value=data[key]) from None


def _whole(value: Any, field: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ScenarioError(f"{field}: expected a whole number {lo}..{hi}, got {show_value(value)}", field=field)
    return value


def _check_fields(data: Mapping[str, Any], allowed: frozenset[str], prefix: str) -> None:
    for key in data:
        if key in _NOT_YET and key not in allowed:
            raise ScenarioError(f"{prefix}{key}: {_NOT_YET[key]}", field=f"{prefix}{key}")
        if key not in allowed:
            raise ScenarioError(
                f"{prefix}{key}: unknown field in an edition 3 scenario (allowed: {', '.join(sorted(allowed))})",
                field=f"{prefix}{key}",
            )


def _options(data: Any) -> dict[str, str]:
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ScenarioError(f"options: expected an object, got {show_value(data)}", field="options")
    out = {}
    for key, value in data.items():
        if key not in OPTIONS:
            raise ScenarioError(f"options.{key}: unknown option (known: {', '.join(OPTIONS)})", field=f"options.{key}")
        if value not in OPTIONS[key]:
            raise ScenarioError(
                f"options.{key}: expected one of {', '.join(OPTIONS[key])}, got {show_value(value)}",
                field=f"options.{key}",
                value=value,
            )
        out[key] = value
    return out


# flags that can only act in one mode: set in the other, they are refused rather than ignored
_MODE_FLAGS = (
    ("charging", "melee", "a successful charge changes melee blows only"),
    ("snap_shots", "shooting", "melee Hit Tests use WS"),
    ("stationary", "shooting", "Heavy and Ordnance are ranged rules"),
)


def _volley(data: Any, prefix: str, options: Mapping[str, str]) -> Hh3Volley:
    if not isinstance(data, Mapping):
        raise ScenarioError(f"{prefix or 'scenario'}: expected an object, got {show_value(data)}")
    mode = data.get("mode", "shooting")
    if mode not in ("shooting", "melee"):
        raise ScenarioError(f"{prefix}mode: expected 'shooting' or 'melee', got {show_value(mode)}", field="mode")
    if "weapon" not in data or "attacker" not in data:
        missing = "weapon" if "weapon" not in data else "attacker"
        raise ScenarioError(f"{prefix}{missing}: required", field=f"{prefix}{missing}")
    if not isinstance(data["weapon"], Mapping):
        raise ScenarioError(
            f"{prefix}weapon: edition 3 needs the weapon's profile (R, FP, RS, AP, D... or IM, AM, SM, AP, D), got "
            f"{show_value(data['weapon'])}",
            field=f"{prefix}weapon",
        )
    weapon = read_weapon(data["weapon"], f"{prefix}weapon")
    if weapon.melee != (mode == "melee"):
        raise ScenarioError(
            f"{prefix}weapon: a {'melee' if weapon.melee else 'ranged'} profile in a {mode} volley",
            field=f"{prefix}weapon",
        )
    engaged = data.get("engaged")
    if engaged is not None and mode != "melee":
        raise ScenarioError(f"{prefix}engaged: only in melee (the models that strike)", field=f"{prefix}engaged")
    if isinstance(engaged, bool):
        engaged = None if engaged else 0
    for flag, only, why in _MODE_FLAGS:
        if mode != only and data.get(flag) is True:
            raise ScenarioError(f"{prefix}{flag}: only in {only} ({why}), got True", field=f"{prefix}{flag}")
    context = Hh3Context(
        mode,
        _flag(data, "snap_shots", f"{prefix}snap_shots"),
        _flag(data, "stationary", f"{prefix}stationary"),
        _flag(data, "charging", f"{prefix}charging"),
        None if data.get("range") is None else _whole(data["range"], f"{prefix}range", 0, 1000),
        _dice(data, "attacks", f"{prefix}attacks"),
        _dice(data, "hits", f"{prefix}hits"),
        None if engaged is None else _whole(engaged, f"{prefix}engaged", 0, 1000),
        options.get("group_order", "created"),
    )
    return Hh3Volley(read_unit(data["attacker"], f"{prefix}attacker"), weapon, context)


def parse_hh3(data: Any) -> Hh3Scenario:
    """The typed records of an edition 3 document.

    Raises:
        ScenarioError: naming the field and the value for bad, unknown or edition 2 fields.
    """
    if not isinstance(data, Mapping):
        raise ScenarioError(f"scenario: expected an object, got {show_value(data)}")
    try:
        _check_fields(data, TOP_FIELDS, "")
        options = _options(data.get("options"))
        if "target" not in data:
            raise ScenarioError("target: required", field="target")
        if not isinstance(data["target"], Mapping):
            raise ScenarioError(f"target: edition 3 needs the target's profile, got {show_value(data['target'])}")
        target = read_unit(data["target"], "target", target=True)
        units = data.get("firing_units")
        if units is None:
            _check_fields(data, TOP_FIELDS, "")
            return Hh3Scenario(target, (one_attack((_volley(data, "", options),)),))
        clash = sorted(set(data) & VOLLEY_FIELDS)
        if clash:
            raise ScenarioError(f"{clash[0]}: not beside firing_units (give it in each volley)", field=clash[0])
        if not isinstance(units, list) or not units or not all(isinstance(u, list) and u for u in units):
            raise ScenarioError("firing_units: expected a non-empty list of non-empty lists of volleys")
        parsed = []
        for i, unit in enumerate(units):
            volleys = []
            for j, v in enumerate(unit):
                if isinstance(v, Mapping):
                    _check_fields(v, VOLLEY_FIELDS, f"firing_units[{i}][{j}].")
                volleys.append(_volley(v, f"firing_units[{i}][{j}].", options))
            parsed.append(one_attack(volleys))  # a firing unit's attack: its Checks take the largest X
        return Hh3Scenario(target, tuple(parsed))
    except ScenarioError:
        raise
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None


def calc_hh3(data: Any) -> dict[str, Any]:
    """The result mapping of an edition 3 document (the edition 3 keys of docs/scenario.md)."""
    scenario = parse_hh3(data)
    try:
        result = resolve_hh3(scenario.target, scenario.firing_units).to_dict()
    except PraetorError as exc:
        raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None
    melee = all(v.context.melee for unit in scenario.firing_units for v in unit)
    result["phase"] = "melee" if melee else "shooting"
    result["target"] = {"name": scenario.target.name, "models": scenario.target.models}
    return result
