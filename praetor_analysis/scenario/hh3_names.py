"""Names and roster units in an edition 3 document, resolved in that edition (``data/hh3``, the 3rd edition's
standard targets, a 3rd-edition roster's units) before the edition 3 door reads it.

- ``"target"``: a standard target's name (``"Rhino"``, ``"Legionary (Tactical Squad)"``), a unit profile's name in
  the 3rd edition's catalog (``"Questoris Knight"``; ``models`` beside it in an object: ``{"name", "models"}``), or a
  roster's unit ``{"roster": PATH, "unit": LABEL}`` (read as its most common statline at its size);
- ``"weapon"``: a weapon profile's name in the 3rd edition's catalog (``"Lascannon"``): its first profile of that
  name (the catalog's row named in ``reasons``);
- ``"attacker"``: a unit profile's name (one model; ``models`` beside it in an object), or a roster's unit
  ``{"roster", "unit"}`` without a ``weapon``: the unit attacks with its own weapons, as ``praetor roster`` rates it
  (:mod:`praetor_analysis.units.hh3_attack`), in the document's ``mode`` (``shooting`` or ``melee``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from praetor_analysis.catalog import load_units, load_weapons
from praetor_analysis.errors import ScenarioError, show_value
from praetor_analysis.profiles import read_unit
from praetor_analysis.scenario.hh3_door import check_hh3_stages
from praetor_analysis.units import (
    Hh3Target,
    as_scenario_error,
    hh3_one_way,
    hh3_shooting,
    hh3_standard_targets,
    hh3_target_of_characteristics,
    hh3_target_of_unit,
    is_hh3_datasheet,
    roster_unit,
)
from praetor_analysis.vehicles import is_vehicle_block, read_vehicle

if TYPE_CHECKING:  # pandas is loaded by the first catalog read, not by importing the door
    import pandas as pd

__all__ = ["check_hh3_document", "has_hh3_names", "resolve_hh3_names", "unit_attack_hh3"]

_WEAPON_COLUMNS = ("R", "FP", "RS", "IM", "AM", "SM", "AP", "D", "Special Rules", "Traits")
_UNIT_COLUMNS = ("Type", "M", "WS", "BS", "S", "T", "W", "I", "A", "LD", "CL", "WP", "IN", "SAV", "INV", "HP")
_ARMOUR = {"Front": "Front Armour", "Side": "Side Armour", "Rear": "Rear Armour"}


def _named(value: Any) -> tuple[str, int | None] | None:
    if isinstance(value, str):
        return value, None
    if isinstance(value, Mapping) and set(value) <= {"name", "models"} and isinstance(value.get("name"), str):
        models = value.get("models")
        if models is not None and (isinstance(models, bool) or not isinstance(models, int) or models < 1):
            raise ScenarioError(f"models: expected a whole number of models, got {show_value(models)}")
        return str(value["name"]), models
    return None


def _is_roster(value: Any) -> bool:
    return isinstance(value, Mapping) and "roster" in value


def has_hh3_names(data: Any) -> bool:
    """Whether an edition 3 document names something (a string or ``{"name"[, "models"]}``) or a roster's unit."""
    if not isinstance(data, Mapping):
        return False
    parts = [data.get("target"), data.get("attacker"), data.get("weapon")]
    return any(isinstance(p, str) or _is_roster(p) or (_named(p) is not None) for p in parts if p is not None)


@lru_cache(maxsize=1)
def _weapons() -> pd.DataFrame:
    return load_weapons("hh3")


@lru_cache(maxsize=1)
def _units() -> pd.DataFrame:
    return load_units("hh3")


def _row(frame: pd.DataFrame, name: str, field: str, what: str) -> pd.Series:
    rows = frame[frame["name"].str.casefold() == name.strip().casefold()]
    if rows.empty:
        raise ScenarioError(
            f"{field}: no {what} named {name!r} in the 3rd edition's shipped data (give its profile, or import the "
            "full data: praetor import)",
            field=field,
            value=name,
        )
    return rows.iloc[0]


def _weapon(name: str, field: str) -> dict[str, Any]:
    row = _row(_weapons(), name, field, "weapon profile")
    return {"name": str(row["name"]), **{c: str(row[c]) for c in _WEAPON_COLUMNS if str(row[c]).strip()}}


def _unit(name: str, models: int | None, field: str) -> dict[str, Any]:
    row = _row(_units(), name, field, "unit profile")
    block: dict[str, Any] = {"name": str(row["name"])}
    for c in _UNIT_COLUMNS:
        if str(row[c]).strip():
            block[c] = str(row[c])
    knight = str(row["profile_type"]) == "Knight"
    for c, long in _ARMOUR.items():
        if str(row[c]).strip():
            block[c if knight else long] = str(row[c])
    vehicle = any(k in block for k in ("Front", "Front Armour"))
    block["models"] = 1 if vehicle or models is None else models
    return block


def _target(value: Any, field: str) -> Hh3Target:
    if _is_roster(value):
        label, unit = roster_unit(value.get("roster"), value.get("unit"), field)
        if unit.edition != "hh3":
            raise ScenarioError(f"{field}.roster: a {unit.edition} roster's unit in an edition 3 scenario")
        return hh3_target_of_unit(unit, label)[0]
    named = _named(value)
    if named is not None:
        name, models = named
        for label, t in hh3_standard_targets():
            if name.casefold() in (label.casefold(), t.statline.name.casefold()):
                return t.sized(t.models if models is None else models, label)
        block = _unit(name, models, field)
        vehicle = any(k in block for k in ("Front", "Front Armour"))
        return hh3_target_of_characteristics(str(block["name"]), block, int(block["models"]), vehicle=vehicle)
    raise ScenarioError(f"{field}: expected a profile, a name or a roster's unit, got {show_value(value)}")


def resolve_hh3_names(data: Mapping[str, Any]) -> dict[str, Any]:
    """The document with its names and roster target resolved to profiles (the attacker of a unit attack aside)."""
    out = dict(data)
    if "target" in out and not (isinstance(out["target"], Mapping) and not _is_roster(out["target"])
                                and _named(out["target"]) is None):  # fmt: skip
        out["target"] = _target(out["target"], "target").to_block()
    if isinstance(out.get("weapon"), str):
        out["weapon"] = _weapon(out["weapon"], "weapon")
    named = _named(out.get("attacker"))
    if named is not None:
        if not _has_profile(named[0]) and is_hh3_datasheet(named[0]):
            raise ScenarioError(
                f"attacker: {named[0]!r} is a 3rd-edition datasheet, not yet an attacker of calc; give a roster's "
                'unit {"roster": PATH, "unit": LABEL} or a statline (praetor wargear rates a datasheet)',
                field="attacker",
                value=named[0],
            )
        out["attacker"] = _unit(named[0], named[1], "attacker")
    return out


def _has_profile(name: str) -> bool:
    units = _units()
    return bool((units["name"].str.casefold() == name.strip().casefold()).any())


def unit_attack_hh3(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A roster's unit attacking with its own weapons (``{"roster", "unit"}`` attacker, no ``weapon``), or None.

    Raises:
        ScenarioError: a field such a document does not take, or a bad block.
    """
    attacker = data.get("attacker")
    if not isinstance(attacker, Mapping) or "roster" not in attacker or "weapon" in data:
        return None
    extra = sorted(set(data) - {"edition", "attacker", "target", "mode"})
    if extra:
        raise ScenarioError(f"{extra[0]}: not read with a roster's unit as the attacker (edition, attacker, target, "
                            "mode)", field=extra[0])  # fmt: skip
    unknown = sorted(set(attacker) - {"roster", "unit"})
    if unknown:
        raise ScenarioError(f"attacker.{unknown[0]}: not a field of a roster's unit (roster, unit)")
    label, unit = roster_unit(attacker.get("roster"), attacker.get("unit"), "attacker")
    if unit.edition != "hh3":
        raise ScenarioError("attacker.roster: a 2nd-edition roster's unit in an edition 3 scenario")
    if "target" not in data:
        raise ScenarioError("target: required", field="target")
    target = _target(data["target"], "target") if not isinstance(data["target"], Mapping) or _is_roster(
        data["target"]) or _named(data["target"]) is not None else _profile_target(data["target"])  # fmt: skip
    mode = data.get("mode", "shooting")
    if mode not in ("shooting", "melee"):
        raise ScenarioError(f"mode: expected 'shooting' or 'melee', got {show_value(mode)}", field="mode")
    result = hh3_shooting(unit, target) if mode == "shooting" else hh3_one_way(unit, target)
    out = result.to_dict()
    out["edition"] = "hh3"
    out["phase"] = mode
    out["attacker"] = {"roster": str(attacker["roster"]), "unit": label, "points": unit.points}
    out["target"] = {"name": target.name, "models": target.models}
    return out


def _profile_target(block: Mapping[str, Any]) -> Hh3Target:
    models = block.get("models", 1)
    n = models if isinstance(models, int) and not isinstance(models, bool) and models > 0 else 1
    vehicle = any(k in block for k in ("Front", "Front Armour", "HP"))
    full = {**block, "models": 1 if vehicle else n}
    with as_scenario_error():
        record = read_vehicle(full) if is_vehicle_block(full) else read_unit(full, "target", target=True)
    name = str(block.get("name", "target"))
    statline = hh3_target_of_characteristics(name, full, n, vehicle=vehicle).statline
    return Hh3Target(name, statline, n, vehicle, given=record)


def check_hh3_document(data: Any) -> None:
    """Parse an edition 3 document as ``praetor calc`` would, without computing: its names resolved, a roster's unit
    read (bad input raises ``ScenarioError`` naming the field)."""
    if not has_hh3_names(data):
        check_hh3_stages(data)
        return
    attacker = data.get("attacker")
    if isinstance(attacker, Mapping) and "roster" in attacker and "weapon" not in data:
        roster_unit(attacker.get("roster"), attacker.get("unit"), "attacker")
        _target(data.get("target"), "target") if "target" in data else None
        return
    check_hh3_stages(resolve_hh3_names(data))
