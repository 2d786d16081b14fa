"""A datasheet name as an attacker: its models, their statlines and wargear, at a size and loadout.

``{"name": "Tactical Squad", "size": 12, "loadout": ["Power Fist", {"option": "Heavy Bolter",
"count": 1}]}`` (or the bare name) becomes a :class:`Loadout`: groups of identical models, each with an
attacker block and the weapon blocks it carries, and the points the unit costs. The unit starts at its
minimum size with the default wargear of each model (the datasheet tables of
:func:`~praetor_analysis.catalog.load_datasheets`); ``size`` adds models to the slot that grows;
each ``loadout`` item gives ``count`` models (default 1) of the slot offering it that option, in place
of the wargear it replaces. Wargear taken for the whole unit goes to its models that are not Characters
(a squad's heavy weapons, not its Sergeant's), or to those its per-model cost counts. An option refining
another (``Power Axe`` of ``Power Weapon``) brings its parent's cost too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pandas as pd

from praetor_analysis.catalog import (
    load_datasheet_models,
    load_datasheets,
    load_units,
    load_wargear_options,
    load_weapons,
)
from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.blocks import attacker_block, weapon_block
from praetor_analysis.scenario.names import UNIT_STAT_KEYS, fold, is_name_block, suggestions

__all__ = [
    "DATASHEET_FIELDS",
    "Loadout",
    "ModelGroup",
    "build_loadout",
    "datasheet_row",
    "is_character",
    "is_datasheet",
    "weapon_blocks",
]

DATASHEET_FIELDS = frozenset({"name", "faction", "size", "loadout", "charging", "disordered", "two_weapons"})
"""Fields of a datasheet ``attacker`` block."""


@dataclass(frozen=True)
class ModelGroup:
    """Identical models of a unit: the slot's name, how many, their statline and weapons (blocks)."""

    model: str
    count: int
    statline: Mapping[str, Any]
    weapons: tuple[Mapping[str, Any], ...]


@dataclass(frozen=True)
class Loadout:
    """A datasheet at one size and loadout: its model groups and what it costs."""

    datasheet: str
    faction: str
    size: int
    points: float
    groups: tuple[ModelGroup, ...]
    options: tuple[str, ...] = ()


@cache
def _sheets() -> tuple[pd.DataFrame, dict[str, list[int]]]:
    frame = load_datasheets()
    index: dict[str, list[int]] = {}
    for i, name in enumerate(frame["name"]):
        index.setdefault(fold(name), []).append(i)
    return frame, index


@cache
def _tables() -> tuple[pd.DataFrame, pd.DataFrame, dict[str, pd.Series], dict[str, pd.Series]]:
    weapons = load_weapons()
    units = load_units()
    wmap = {f"{r.source}:{r.profile_id}": r for _, r in weapons.iterrows()}
    umap = {f"{r.source}:{r.profile_id}": r for _, r in units.iterrows()}
    return load_datasheet_models(), load_wargear_options(), wmap, umap


def weapon_blocks(ids: str) -> tuple[dict[str, Any], ...]:
    """Weapon blocks of ``;``-joined ``source:profile_id`` keys (the ``weapon_ids`` of the datasheet tables)."""
    wmap = _tables()[2]
    return tuple(weapon_block(wmap[k]) for k in str(ids).split(";") if k in wmap)


def is_datasheet(value: Any) -> bool:
    """True when ``value`` is a name block (no characteristics) naming a datasheet."""
    if not is_name_block(value, UNIT_STAT_KEYS):
        return False
    name = value if isinstance(value, str) else value.get("name")
    return isinstance(name, str) and fold(name) in _sheets()[1]


def datasheet_row(value: Any, field: str = "attacker") -> pd.Series:
    """The datasheet a name (or ``{"name", "faction"}``) names.

    Raises:
        ScenarioError: Unknown name (with suggestions), or one shared by several factions' datasheets.
    """
    name = value if isinstance(value, str) else value.get("name")
    if not isinstance(name, str):
        raise ScenarioError(f"{field}.name: expected a datasheet name, got {name!r}")
    frame, index = _sheets()
    rows = index.get(fold(name))
    if not rows:
        raise ScenarioError(f"{field}: no datasheet named {name!r}{suggestions(name, list(frame['name']))}")
    sub = frame.iloc[rows]
    if isinstance(value, Mapping) and "faction" in value:
        kept = sub[sub["faction"].map(fold) == fold(str(value["faction"]))]
        if kept.empty:
            have = ", ".join(repr(f) for f in sub["faction"])
            raise ScenarioError(f"{field}.faction: {name!r} has no faction {value['faction']!r} (choices: {have})")
        sub = kept
    if len(sub) > 1:
        have = ", ".join(repr(f) for f in sub["faction"])
        raise ScenarioError(
            f"{field}: {name!r} names {len(sub)} datasheets (factions {have}); "
            f'pick one with {{"name": {name!r}, "faction": ...}}'
        )
    return sub.iloc[0]


@dataclass(eq=False)
class _Slot:
    row: pd.Series
    count: int
    groups: list[tuple[int, tuple[str, ...]]]  # (models, weapon keys)


def _option_rows(options: pd.DataFrame, sheet: pd.Series) -> pd.DataFrame:
    return options[(options["datasheet"] == sheet["name"]) & (options["faction"] == sheet["faction"])]


def _replace(weapons: tuple[str, ...], names: dict[str, str], replaces: str) -> tuple[str, ...]:
    """The weapon keys left when the wargear ``replaces`` names goes (its profiles: that name, or a mode of it)."""
    if not replaces:
        return weapons
    gone = fold(replaces)
    return tuple(
        k for k in weapons if not (fold(names.get(k, "")) == gone or fold(names.get(k, "")).startswith(gone + " "))
    )


def build_loadout(value: Any, field: str = "attacker") -> Loadout:
    """The :class:`Loadout` of a datasheet attacker block (see the module docstring).

    Raises:
        ScenarioError: An unknown name or option, a size outside the datasheet's limits, more models given
            an option than the slot has; one line naming the field and the value.
    """
    block: Mapping[str, Any] = {"name": value} if isinstance(value, str) else value
    unknown = sorted(set(block) - DATASHEET_FIELDS - {"models"})
    if unknown:
        raise ScenarioError(
            f"{field}.{unknown[0]}: not a field of a datasheet attacker ({', '.join(sorted(DATASHEET_FIELDS))})"
        )
    sheet = datasheet_row(block, field)
    models, options, wmap, umap = _tables()
    lo, hi = int(sheet["min_models"]), int(sheet["max_models"])
    size = block.get("size", block.get("models", lo))
    if isinstance(size, bool) or not isinstance(size, int) or not lo <= size <= hi:
        raise ScenarioError(f"{field}.size: {sheet['name']} takes {lo}-{hi} models, got {size!r}")
    mine = models[(models["datasheet"] == sheet["name"]) & (models["faction"] == sheet["faction"])]
    slots = [_Slot(r, int(r["min"]), []) for _, r in mine.iterrows()]
    extra = size - lo
    if extra:
        grow = next((s for s in slots if s.row["max"] > s.count and (s.count > 0 or not s.row["group_id"])), None)
        if grow is None:
            grow = next(s for s in slots if s.row["max"] > s.count)
        grow.count += extra
    names = {k: str(r["name"]) for k, r in wmap.items()}
    unit_keys = tuple(k for k in str(sheet["unit_weapon_ids"]).split(";") if k in wmap)
    carriers = _non_characters(slots, umap)
    for s in slots:
        keys = tuple(k for k in str(s.row["default_weapon_ids"]).split(";") if k in wmap)
        s.groups = [(s.count, keys + (unit_keys if s in carriers else ()))] if s.count else []
    opts = _option_rows(options, sheet)
    points = float(sheet["base_points"]) + extra * float(sheet["points_per_model"])
    taken: list[str] = []
    items = block.get("loadout", [])
    if not isinstance(items, list):
        raise ScenarioError(f"{field}.loadout: expected a list of option names, got {items!r}")
    for i, item in enumerate(items):
        points += _take(item, f"{field}.loadout[{i}]", sheet, slots, opts, names, wmap, carriers)
        taken.append(item if isinstance(item, str) else str(item.get("option")))
    groups = []
    for s in slots:
        key = f"{s.row['profile_source']}:{s.row['profile_id']}"
        if key not in umap:
            continue
        statline = attacker_block(umap[key])
        statline.pop("models", None)
        for n, keys in s.groups:
            if n:
                groups.append(ModelGroup(str(s.row["model"]), n, statline, tuple(weapon_block(wmap[k]) for k in keys)))
    if not groups:
        raise ScenarioError(f"{field}: {sheet['name']} has no model with a statline to attack with")
    flags = {k: block[k] for k in ("charging", "disordered", "two_weapons") if k in block}
    if flags:
        groups = [replace(g, statline={**g.statline, **flags}) for g in groups]
    return Loadout(str(sheet["name"]), str(sheet["faction"]), size, points, tuple(groups), tuple(taken))


def _take(
    item: Any,
    field: str,
    sheet: pd.Series,
    slots: list[_Slot],
    opts: pd.DataFrame,
    names: dict[str, str],
    wmap: dict[str, pd.Series],
    carriers: list[_Slot],
) -> float:
    """Give ``count`` models the option; returns its points."""
    if isinstance(item, str):
        item = {"option": item}
    if not isinstance(item, Mapping) or not isinstance(item.get("option"), str):
        raise ScenarioError(f'{field}: expected an option name or {{"option", "count", "model"}}, got {item!r}')
    bad = sorted(set(item) - {"option", "count", "model"})
    if bad:
        raise ScenarioError(f"{field}.{bad[0]}: not a field of a loadout item (option, count, model)")
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ScenarioError(f"{field}.count: expected a whole number of models >= 1, got {count!r}")
    rows = opts[opts["option"].map(fold) == fold(item["option"])]
    if "model" in item:
        rows = rows[rows["model"].map(fold) == fold(str(item["model"]))]
    if rows.empty:
        raise ScenarioError(
            f"{field}: {sheet['name']} has no option {item['option']!r}"
            f"{suggestions(str(item['option']), list(opts['option'].drop_duplicates()))}"
        )
    by_model = {fold(str(s.row["model"])): s for s in slots}

    def room(r: pd.Series) -> int:
        """Models that could take the option: the whole unit, or the slot and the rest of its group."""
        if r["model"] == "(unit)":
            return sum(s.count for s in slots)
        slot = by_model.get(fold(r["model"]), _EMPTY)
        return slot.count + sum(
            o.count
            for o in slots
            if slot.row.get("group_id") and o.row["group_id"] == slot.row["group_id"] and o is not slot
        )

    def rank(i: int) -> tuple[bool, bool, bool, int, int]:
        r = rows.iloc[i]
        return bool(r["hidden"]), bool(r["parent"]), r["model"] == "(unit)", -room(r), i

    ranked = sorted(range(len(rows)), key=rank)
    row = rows.iloc[ranked[0]]
    parent = None
    if row["parent"]:
        hit = opts[(opts["option"] == row["parent"]) & (opts["model"] == row["model"]) & (opts["parent"] == "")]
        parent = hit.iloc[0] if not hit.empty else None
    cost = float(row["points"]) + (float(parent["points"]) if parent is not None else 0.0)
    of = str(row["per_model_of"])
    if of:
        counted = (
            sum(s.count for s in slots)
            if of == "model"
            else sum(s.count for s in slots if of in (s.row["group_id"], s.row["model_id"], s.row["entry_id"]))
        )
        cost += float(row["points_per_model"]) * counted
    replaces = str(parent["replaces"] if parent is not None else row["replaces"])
    new = tuple(k for k in str(row["weapon_ids"]).split(";") if k in wmap)
    if row["model"] == "(unit)" and of:
        if "count" in item:
            raise ScenarioError(f"{field}.count: {item['option']!r} is taken once for the whole unit, got {count}")
        counted = [s for s in slots if of == "model" or of in (s.row["group_id"], s.row["model_id"], s.row["entry_id"])]
        for s in counted or carriers:
            _give(s, s.count, new, names, replaces)
        return cost
    if row["model"] == "(unit)":
        targets = [s for s in carriers if s.count]
        n = min(count, sum(s.count for s in targets))
        if count > n:
            raise ScenarioError(f"{field}.count: {sheet['name']} has {n} models, got {count}")
        left = count
        for s in targets:
            left -= _give(s, min(left, s.count), new, names, replaces)
            if not left:
                break
        return cost * count
    slot = by_model[fold(row["model"])]
    if slot.count < count:
        _borrow(slot, slots, count - slot.count)
    if slot.count < count:
        raise ScenarioError(f"{field}.count: {sheet['name']} has {slot.count} {row['model']} models, got {count}")
    _give(slot, count, new, names, replaces)
    return cost * count


_EMPTY = _Slot(pd.Series(dtype=object), 0, [])


def is_character(statline: Mapping[str, Any]) -> bool:
    """Whether a statline's Unit Type names a Character."""
    return "character" in str(statline.get("Unit Type", "")).casefold()


def _non_characters(slots: list[_Slot], umap: dict[str, pd.Series]) -> list[_Slot]:
    """The slots that carry the unit's own weapons: those that are not Characters (all, when every one is)."""

    def character(s: _Slot) -> bool:
        row = umap.get(f"{s.row['profile_source']}:{s.row['profile_id']}")
        return row is not None and is_character(row)

    plain = [s for s in slots if not character(s)]
    return plain or list(slots)


def _borrow(slot: _Slot, slots: list[_Slot], n: int) -> None:
    """Move up to ``n`` models into ``slot`` from another slot of its group (``Legionary w/ Options``)."""
    gid = slot.row["group_id"]
    if not gid:
        return
    for other in slots:
        if other is slot or other.row["group_id"] != gid or not other.count:
            continue
        k = min(n, other.count, int(slot.row["max"]) - slot.count)
        if k <= 0:
            return
        other.count -= k
        m, keys = other.groups[0]
        other.groups[0] = (m - k, keys)
        own = tuple(k2 for k2 in str(slot.row["default_weapon_ids"]).split(";") if k2)
        slot.groups.append((k, own if own else keys))
        slot.count += k
        n -= k
        if not n:
            return


def _give(slot: _Slot, n: int, new: tuple[str, ...], names: dict[str, str], replaces: str) -> int:
    """Change the weapons of ``n`` models of ``slot``; returns ``n``."""
    left = n
    out = []
    for m, keys in slot.groups:
        k = min(left, m)
        if k:
            out.append((k, _replace(keys, names, replaces) + new))
        if m - k:
            out.append((m - k, keys))
        left -= k
    slot.groups = out
    return n
