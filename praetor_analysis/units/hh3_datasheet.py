"""A 3rd-edition datasheet of the shipped catalogs (``data/hh3``) as fielded: the same :class:`FieldedUnit`
(``edition="hh3"``) a 3rd-edition roster's unit is (:mod:`praetor_analysis.units.hh3_roster`), so the ratings,
``praetor wargear`` and ``praetor sweep`` read both alike.

How the data is read (docs/editions.md, "The 3rd edition's datasheets fielded"):

- **models**: each model slot at its ``min`` (a slot of ``min`` 0 is not fielded); a larger ``size`` adds models to
  the first slot that can grow; the statline is the slot's profile (``units.csv`` by ``profile_id``);
- **default wargear**: the options the data gives unless another is chosen (``default``) and those it requires
  (``min`` 1 or more), resolved and not hidden; a slot's weapons go to each of its models, the unit's own
  (``(unit)``) to every model (grenades; a vehicle's turret); other items are the group's ``wargear`` by name (the
  catalogs hold no wargear text: their rules and saves are named in the unit's notes, not applied);
- **an option taken alone** (:func:`hh3_fielded_datasheet` ``option``): one model of its slot takes it (the unit's
  own: the whole unit); it replaces that slot's default of the same group, if the group has one, else it is added;
- **points**: ``base_points`` (the unit's cost and each slot's ``min`` times its cost), each model beyond the
  minimum at ``points_per_model``, and the option's cost as written (a cost the data changes by a modifier,
  ``points_modified``, is not applied: the unit's ``notes`` say so);
- **weapons**: each profile name of an option read from ``weapons.csv``, preferring the profiles defined on the
  option's own entry, then in the datasheet's catalogue, then anywhere (the weapon libraries); one block per
  profile under the data's names, with ``weapon`` (the option's name) and ``count``, as a roster's.

Legions: the 3rd edition's data gives each Legion its own catalogue (``I - Dark Angels``), and the datasheets
every Legion may take are in ``Legiones Astartes``, which the shipped snapshot lacks; its options carry no Legion
condition. A datasheet of one Legion's catalogue is refused for another (``legion``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from praetor_analysis.bsdata import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline
from praetor_analysis.catalog import (
    load_datasheet_models,
    load_datasheets,
    load_provenance,
    load_units,
    load_wargear_options,
    load_weapons,
)
from praetor_analysis.errors import ScenarioError, counted_noun
from praetor_analysis.units.hh3_arms import Hh3Arm
from praetor_analysis.units.names import fold, suggestions
from praetor_analysis.units.records import FieldedUnit, ModelGroup

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "UNIT_SLOT",
    "Hh3Option",
    "hh3_datasheet_names",
    "hh3_datasheet_row",
    "hh3_fielded_datasheet",
    "hh3_legion",
    "hh3_legion_factions",
    "hh3_option_named",
    "hh3_options",
    "is_hh3_datasheet",
]

UNIT_SLOT = "(unit)"
"""The ``model`` of an option the whole unit takes."""

_LEGION = re.compile(r"^([IVXL]+)\s*-\s*(.+)$")
_ARMOUR = {"Front": "Front Armour", "Side": "Side Armour", "Rear": "Rear Armour"}
_WEAPON_STATS = ("R", "FP", "RS", "IM", "AM", "SM", "AP", "D", "Special Rules", "Traits")
_STATLINE_STATS = ("Type", "M", "WS", "BS", "S", "T", "W", "I", "A", "LD", "CL", "WP", "IN", "SAV", "INV", "Front",
                   "Side", "Rear", "HP", "Transport Capacity", "Access Points")  # fmt: skip


@dataclass(frozen=True)
class Hh3Option:
    """One option row of a 3rd-edition datasheet (``load_wargear_options("hh3")``), typed.

    Attributes:
        option: Its name as the data writes it.
        model: The model slot offering it, or :data:`UNIT_SLOT`.
        group: The data's group holding it (``""``: none).
        points: Its cost per selection, as written.
        weapons: The weapon profile names it brings (empty: armour, an item, a rule).
        default: The option its group gives unless another is chosen.
        required: The data requires it (``min`` 1 or more).
        hidden: Hidden unless some condition of the army shows it (a Rite of War, a Tercio...).
        resolved: Its link resolves in the shipped data.
        points_modified: The data changes its cost by a modifier (not applied).
    """

    option: str
    model: str
    group: str
    points: float
    weapons: tuple[str, ...]
    default: bool
    required: bool
    hidden: bool
    resolved: bool
    points_modified: bool

    @property
    def carried(self) -> bool:
        """Carried by the datasheet as fielded: a default or required option the data resolves and shows."""
        return (self.default or self.required) and self.resolved and not self.hidden

    @property
    def in_default_loadout(self) -> bool:
        """Part of the datasheet's weapons as fielded (:attr:`carried`, with weapons)."""
        return self.carried and bool(self.weapons)

    @property
    def label(self) -> str:
        """The option and its slot: ``Power fist (Auxilia Sergeant)``; the unit's own: its name alone."""
        return self.option if self.model == UNIT_SLOT else f"{self.option} ({self.model})"


# --- the catalogs, read once ------------------------------------------------------------------------------
@cache
def _sheets() -> pd.DataFrame:
    return load_datasheets("hh3")


@cache
def _folded_names() -> pd.Series:
    """The datasheets' names folded (:func:`fold`), read once: a datasheet is looked up by name for every option."""
    return _sheets()["name"].map(fold)


@cache
def _models() -> dict[tuple[str, str], list[dict[str, Any]]]:
    out: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for r in _records(load_datasheet_models("hh3")):
        out.setdefault((str(r["datasheet"]), str(r["faction"])), []).append(r)
    return out


@cache
def _options() -> dict[tuple[str, str], tuple[Hh3Option, ...]]:
    out: dict[tuple[str, str], list[Hh3Option]] = {}
    for r in _records(load_wargear_options("hh3")):
        low = r["min"]
        option = Hh3Option(
            option=str(r["option"]),
            model=str(r["model"]),
            group=str(r["group"]),
            points=0.0 if _nan(r["points"]) else float(r["points"]),
            weapons=tuple(w.strip() for w in str(r["weapons"]).split(";") if w.strip()),
            default=bool(r["default"]),
            required=not _nan(low) and float(low) >= 1,
            hidden=bool(r["hidden"]),
            resolved=bool(r["resolved"]),
            points_modified=bool(r["points_modified"]),
        )
        out.setdefault((str(r["datasheet"]), str(r["faction"])), []).append(option)
    return {k: tuple(v) for k, v in out.items()}


@cache
def _statlines() -> dict[str, dict[str, Any]]:
    return {str(r["profile_id"]): r for r in _records(load_units("hh3"))}


@cache
def _weapon_rows() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in _records(load_weapons("hh3")):
        out.setdefault(str(r["name"]), []).append(r)
    return out


def _records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): v for k, v in r.items()} for r in frame.to_dict(orient="records")]


def _nan(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or value == ""


# --- names, factions and Legions --------------------------------------------------------------------------
def hh3_datasheet_names() -> list[str]:
    """Every 3rd-edition datasheet's name in the shipped catalogs (each once, in the catalog's order)."""
    return list(dict.fromkeys(_sheets()["name"]))


def is_hh3_datasheet(name: str) -> bool:
    """Whether ``name`` (case and spaces aside) is a 3rd-edition datasheet of the shipped catalogs."""
    return fold(name) in {fold(n) for n in hh3_datasheet_names()}


def hh3_legion_factions() -> dict[str, str]:
    """The Legions' catalogues of the 3rd edition's data: folded Legion name (``dark angels``) -> the faction
    (``I - Dark Angels``)."""
    out: dict[str, str] = {}
    for faction in dict.fromkeys(_sheets()["faction"]):
        hit = _LEGION.match(str(faction))
        if hit:
            out[fold(hit.group(2))] = str(faction)
    return out


def hh3_legion(name: str, field: str = "legion") -> str:
    """The faction of the Legion ``name`` names (``Dark Angels``, ``I - Dark Angels``, case aside).

    Raises:
        ScenarioError: No Legion's catalogue of that name (the Legions are listed).
    """
    legions = hh3_legion_factions()
    key = fold(name)
    hit = _LEGION.match(" ".join(str(name).split()))
    key = fold(hit.group(2)) if hit else key
    if key not in legions:
        have = ", ".join(sorted(legions.values()))
        raise ScenarioError(f"{field}: no 3rd-edition Legion named {name!r} (Legions: {have})", field=field,
                            value=name)  # fmt: skip
    return legions[key]


def _lacking() -> str:
    """What a 2nd-edition name refused here may still be: a generic Legion datasheet of the catalogue the shipped
    3rd-edition snapshot lacks (its provenance says so), ``""`` when none is missing."""
    if any(line.startswith("missing: 'Legiones Astartes'") for line in load_provenance("hh3").get("missing", [])):
        return ("; the shipped 3rd-edition data lacks the 'Legiones Astartes' catalogue, its generic Legion "
                "datasheets: praetor import a full checkout of the 3rd edition's data to have them")  # fmt: skip
    return ""


def _refuse_other_edition(name: str, field: str) -> None:
    """One line when ``name`` is no 3rd-edition datasheet but a 2nd-edition one (else: unknown, with names)."""
    from praetor_analysis.units.datasheet import is_datasheet

    if is_datasheet(name):
        raise ScenarioError(f"{field}: {name!r} is not a datasheet of edition 3; it is one of edition 2 "
                            f"(--edition hh2){_lacking()}", field=field, value=name)  # fmt: skip
    raise ScenarioError(f"{field}: no 3rd-edition datasheet named {name!r}{suggestions(name, hh3_datasheet_names())}",
                        field=field, value=name)  # fmt: skip


def hh3_datasheet_row(value: Any, field: str = "datasheet") -> pd.Series:
    """The 3rd-edition datasheet a name (or ``{"name", "faction", "legion"}``) names.

    Raises:
        ScenarioError: Unknown name (a 2nd-edition datasheet's name says so), several factions' datasheets of
            that name without ``faction``, or a datasheet of another Legion than ``legion``.
    """
    block: Mapping[str, Any] = {"name": value} if isinstance(value, str) else value
    name = block.get("name")
    if not isinstance(name, str):
        raise ScenarioError(f"{field}.name: expected a datasheet name, got {name!r}", field=f"{field}.name")
    frame = _sheets()
    sub = frame[_folded_names() == fold(name)]
    if sub.empty:
        _refuse_other_edition(name, field)
    if block.get("faction") is not None:
        faction = fold(str(block["faction"]))
        kept = sub[(sub["faction"].map(fold) == faction) | (sub["source"].map(fold) == faction)]
        if kept.empty:
            have = ", ".join(repr(f) for f in sub["faction"])
            raise ScenarioError(f"{field}.faction: {name!r} has no faction {block['faction']!r} (choices: {have})",
                                field=f"{field}.faction", value=block["faction"])  # fmt: skip
        sub = kept
    if len(sub) > 1:
        have = ", ".join(repr(f) for f in sub["faction"])
        raise ScenarioError(f"{field}: {name!r} is a datasheet of several factions ({have}): give --faction",
                            field=field, value=name)  # fmt: skip
    row = sub.iloc[0]
    if block.get("legion") is not None:
        legion = hh3_legion(str(block["legion"]))
        own = _LEGION.match(str(row["faction"]))
        if own and str(row["faction"]) != legion:
            raise ScenarioError(f"legion: {row['name']!r} is a datasheet of {row['faction']}, not of {legion}",
                                field="legion", value=block["legion"])  # fmt: skip
        if not own:
            raise ScenarioError(f"legion: {row['name']!r} is a datasheet of {row['faction']}, no Legion's (give no "
                                "--legion)", field="legion", value=block["legion"])  # fmt: skip
    return row


def hh3_options(sheet: pd.Series) -> tuple[Hh3Option, ...]:
    """Every option row of a datasheet (:func:`hh3_datasheet_row`), in the data's order."""
    return _options().get((str(sheet["name"]), str(sheet["faction"])), ())


def hh3_option_named(options: tuple[Hh3Option, ...], label: str, field: str = "option") -> Hh3Option:
    """The option of ``options`` whose :attr:`Hh3Option.label` (or name, when one slot offers it) is ``label``.

    Raises:
        ScenarioError: No such option, or a name several slots offer (the labels are named).
    """
    hits = [o for o in options if fold(o.label) == fold(label)]
    hits = hits or [o for o in options if fold(o.option) == fold(label)]
    labels = list(dict.fromkeys(o.label for o in hits))
    if len(labels) > 1:
        raise ScenarioError(f"{field}: {label!r} is offered to several models: {', '.join(labels)}", field=field,
                            value=label)  # fmt: skip
    if not hits:
        raise ScenarioError(f"{field}: no option {label!r}{suggestions(label, [o.label for o in options])}",
                            field=field, value=label)  # fmt: skip
    return next((o for o in hits if not o.in_default_loadout), hits[0])


# --- profiles ---------------------------------------------------------------------------------------------
def _statline(slot: Mapping[str, Any], sheet: pd.Series) -> Hh3Statline:
    row = _statlines().get(str(slot["profile_id"]))
    if row is None:
        raise ScenarioError(f"datasheet: {sheet['name']!r}: the model {slot['model']!r} has no statline in the "
                            "shipped data", field="datasheet", value=str(sheet["name"]))  # fmt: skip
    chars = {k: str(row[k]) for k in _STATLINE_STATS if str(row[k]).strip()}
    if "T" not in chars and "WS" not in chars:  # a vehicle's armour under the names a roster gives it
        chars = {_ARMOUR.get(k, k): v for k, v in chars.items()}
    for part in str(row["extra"]).split(";"):
        key, _, text = part.partition("=")
        if key.strip() and text.strip():
            chars.setdefault(key.strip(), text.strip())
    return Hh3Statline.from_characteristics(str(row["name"]), str(row["profile_type"]), chars)


def _profiles(name: str, option: str, source: str) -> list[Hh3RangedProfile | Hh3MeleeProfile]:
    """The profiles of one weapon name (see the module docstring for which definition is read)."""
    rows = _weapon_rows().get(name, [])
    for pick in (lambda r: r["entry"] == option, lambda r: r["source"] == source, lambda r: True):
        chosen = [r for r in rows if pick(r)]
        if chosen:
            break
    else:
        return []
    first_source = chosen[0]["source"]
    out: dict[str, Hh3RangedProfile | Hh3MeleeProfile] = {}
    for r in chosen:
        if r["source"] != first_source:
            continue
        chars = {k: str(r[k]) for k in _WEAPON_STATS if str(r[k]).strip()}
        kind = str(r["profile_type"])
        cls = Hh3MeleeProfile if "Melee" in kind else Hh3RangedProfile
        profile = cls.from_characteristics(name, kind, chars)
        out.setdefault(repr(sorted(profile.as_block().items())), profile)  # one profile printed the same once
    return list(out.values())


def _arms(option: Hh3Option, count: int, source: str) -> tuple[Hh3Arm, ...]:
    """One record per profile of the option's weapons (ranged first), ``count`` of it."""
    arms = [Hh3Arm(p, option.option, count) for name in option.weapons for p in _profiles(name, option.option, source)]
    arms.sort(key=lambda a: a.melee)
    return tuple(arms)


# --- the unit ---------------------------------------------------------------------------------------------
@dataclass
class _Slot:
    model: str
    count: int
    statline: Hh3Statline | None


def _slots(sheet: pd.Series, size: int | None, field: str) -> list[_Slot]:
    rows = _models().get((str(sheet["name"]), str(sheet["faction"])), [])
    low = int(sheet["min_models"]) if not _nan(sheet["min_models"]) else 0
    high = None if _nan(sheet["max_models"]) else int(sheet["max_models"])
    if not rows or (low == 0 and not size):
        raise ScenarioError(f"{field}: {sheet['name']!r} has no model to field in the shipped data",
                            field=field, value=str(sheet["name"]))  # fmt: skip
    n = low if size is None else size
    if n < max(low, 1) or (high is not None and n > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise ScenarioError(
            f"size: {sheet['name']!r} takes {counted_noun(span, 'model')}, got {size}", field="size", value=size
        )
    slots = [_Slot(str(r["model"]), 0 if _nan(r["min"]) else int(r["min"]), None) for r in rows]
    extra = n - sum(s.count for s in slots)
    for s, r in zip(slots, rows, strict=True):
        room = math.inf if _nan(r["max"]) else int(r["max"]) - s.count
        take = int(min(extra, room))
        s.count += take
        extra -= take
    for s, r in zip(slots, rows, strict=True):
        if s.count:
            s.statline = _statline(r, sheet)
    return [s for s in slots if s.count]


def _group(slot: _Slot, count: int, options: list[Hh3Option], unit_options: list[Hh3Option], source: str,
           wargear: tuple[str, ...]) -> ModelGroup:  # fmt: skip
    """``count`` models of a slot with ``options``; the unit's own weapons: one per model (grenades; a vehicle's
    turret: the one model); ``wargear``: the other items they carry, by name."""
    if slot.statline is None:  # every slot with models has one (_slots)
        raise ScenarioError(f"datasheet: the model {slot.model!r} has no statline", field="datasheet")
    arms = [a for o in (*options, *unit_options) for a in _arms(o, count, source)]
    return ModelGroup(slot.model, count, slot.statline, tuple(arms), wargear)


def _taken(defaults: list[Hh3Option], option: Hh3Option, owned: tuple[Hh3Option, ...]) -> list[Hh3Option]:
    """``defaults`` with ``option`` in place of the default of its group (added when its group has none)."""
    grouped = {o.group for o in owned if o.model == option.model and o.default and o.group}
    kept = [d for d in defaults if not (option.group in grouped and d.group == option.group and d.default)]
    return [*kept, option]


def hh3_fielded_datasheet(
    value: Any, field: str = "datasheet", *, size: int | None = None, option: Hh3Option | None = None
) -> FieldedUnit:
    """A 3rd-edition datasheet as fielded (see the module docstring): ``value`` a name or ``{"name", "faction",
    "legion", "size", "option"}`` (``option``: an option's label, :func:`hh3_option_named`); ``option`` one option of
    it taken alone.

    Raises:
        ScenarioError: An unknown datasheet, a size it does not take, a datasheet with no model, or an option whose
            slot is not fielded at this size.
    """
    sheet = hh3_datasheet_row(value, field)
    if size is None and isinstance(value, Mapping) and value.get("size") is not None:
        size = int(value["size"])
    owned = hh3_options(sheet)
    if option is None and isinstance(value, Mapping) and value.get("option") is not None:
        option = hh3_option_named(owned, str(value["option"]), f"{field}.option")
    slots = _slots(sheet, size, field)
    source = str(sheet["source"])
    unit_defaults = [o for o in owned if o.model == UNIT_SLOT and o.in_default_loadout]
    if option is not None and option.model == UNIT_SLOT:
        unit_defaults = _taken(unit_defaults, option, owned)
    total = sum(s.count for s in slots)
    items = {m: tuple(dict.fromkeys(o.option for o in owned if o.model == m and o.carried and not o.weapons))
             for m in {UNIT_SLOT, *(s.model for s in slots)}}  # fmt: skip
    groups: list[ModelGroup] = []
    for i, s in enumerate(slots):
        defaults = [o for o in owned if o.model == s.model and o.in_default_loadout]
        wargear = items[s.model] + (items[UNIT_SLOT] if i == 0 else ())
        if option is not None and option.model == s.model:
            if s.count > 1:
                groups.append(_group(s, s.count - 1, defaults, unit_defaults, source, wargear))
            groups.append(_group(s, 1, _taken(defaults, option, owned), unit_defaults, source, wargear))
        else:
            groups.append(_group(s, s.count, defaults, unit_defaults, source, wargear))
    if option is not None and option.model not in {UNIT_SLOT, *(s.model for s in slots)}:
        raise ScenarioError(f"option: {option.label!r}: its model is not in the unit at {counted_noun(total, 'model')}",
                            field="option", value=option.option)  # fmt: skip
    low = 0 if _nan(sheet["min_models"]) else int(sheet["min_models"])
    per_model = 0.0 if _nan(sheet["points_per_model"]) else float(sheet["points_per_model"])
    points = float(sheet["base_points"]) + (total - low) * per_model
    carried = [o for s in slots for o in owned if o.model == s.model and o.in_default_loadout]
    notes = [f"{o.option}: the weapon profile {name!r} is not in the catalog; not read"
             for o in dict.fromkeys([*carried, *unit_defaults, *([option] if option else [])])
             for name in o.weapons if not _profiles(name, o.option, source)]  # fmt: skip
    if option is not None:
        points += option.points
        if option.points_modified:
            notes.append(f"{option.option}: the data changes its cost by a condition; priced as written")
    if any(g.wargear for g in groups):  # the catalogs hold no wargear text (a roster's is read: units.hh3_roster)
        notes.append("the wargear's own rules and saves (" + ", ".join(dict.fromkeys(n for g in groups for n in
                     g.wargear)) + "): not read from the catalogs")  # fmt: skip
    if bool(sheet["points_modified"]):
        notes.append(f"{sheet['name']}: the data changes the unit's cost by a condition; priced as written")
    legion = _LEGION.match(str(sheet["faction"]))
    return FieldedUnit(
        str(sheet["name"]), str(sheet["faction"]), total, points, tuple(groups),
        options=(option.label,) if option is not None else (), notes=tuple(notes),
        legion=legion.group(2) if legion else "", edition="hh3",
    )  # fmt: skip
