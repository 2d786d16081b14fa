"""Datasheets from the BattleScribe selection tree: models, points, default wargear and options.

A datasheet is a root selection entry of type ``unit`` or ``model`` (shared across catalogues by
links; its faction is the file defining it). Its tree is walked once, following ``entryLink`` elements
to entries and groups in any file of the catalogue's scope:

- a ``model`` entry is a model slot: how many (``min``/``max`` constraints with scope ``parent``, on the
  entry or, for the models of a group, on the group), its cost per model, its statline profile;
- an ``upgrade`` entry that is always taken (``min`` >= 1, or the default of a group with ``min`` >= 1)
  is default wargear of its owner (the model slot, or the whole unit);
- any other ``upgrade`` entry is a wargear option: its group, the default it replaces (the group's
  default entry, empty for an addition), its cost and the weapon profiles it brings.

Costs are the ``Pts`` cost of the link when it declares one, else of the entry. Conditional cost
modifiers are not applied (the printed cost stands). Nested units (dedicated transports) are their own
datasheets. The walk is bounded in depth; a link cycle is cut.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from xml.etree.ElementTree import Element

import pandas as pd

from praetor_analysis.bsdata.files import (
    PROFILE_TYPE_IDS,
    PTS_COST_TYPE_ID,
    BSData,
    Catalogue,
    Described,
    children,
    entry_points,
    local,
    set_name,
)
from praetor_analysis.bsdata.roster_tree import count_in_name
from praetor_analysis.bsdata.visibility import visibility_rules
from praetor_analysis.bsdata.wargear_saves import WARGEAR, read_described
from praetor_analysis.rules import Holder, lookup

__all__ = [
    "DATASHEET_COLUMNS",
    "MODEL_COLUMNS",
    "OPTION_COLUMNS",
    "datasheet_frames",
    "limit_of",
    "per_model_cost",
    "scoped_max",
    "selection_limits",
]

DATASHEET_COLUMNS = [
    "name",
    "faction",
    "min_models",
    "max_models",
    "base_points",
    "points_per_model",
    "unit_points",
    "unit_wargear",
    "unit_weapons",
    "unit_weapon_ids",
    "models",
    "hidden",
    "source",
    "entry_id",
]
MODEL_COLUMNS = [
    "datasheet",
    "faction",
    "model",
    "min",
    "max",
    "points",
    "default_wargear",
    "default_weapons",
    "default_weapon_ids",
    "default_within",
    "profile_source",
    "profile_id",
    "group",
    "group_id",
    "model_id",
    "entry_id",
]
OPTION_COLUMNS = [
    "datasheet",
    "faction",
    "model",
    "group",
    "option",
    "replaces",
    "parent",
    "points",
    "points_per_model",
    "per_model_of",
    "max",
    "weapons",
    "weapon_ids",
    "hidden",
    "option_id",
    "entry_id",
    "group_id",
    "group_min",
    "group_max",
    "group_unit_max",
    "unit_max",
    "save",
    "invulnerable",
    "rules",
    "not_modelled",
    "shown_when",
    "group_shown_when",
]

_STATLINE_TYPES = {PROFILE_TYPE_IDS[k] for k in ("unit", "vehicle", "knight", "fortification")}
_WEAPON_TYPES = {PROFILE_TYPE_IDS["weapon"], PROFILE_TYPE_IDS["psychic_weapon"]}
_WARGEAR_TYPES = {PROFILE_TYPE_IDS["wargear"]}
_MAX_DEPTH = 24
_UNIT = "(unit)"
_EXCHANGE = re.compile(
    r"(?:exchange|replace)s?\s+(?:his|her|their|its|one|a|the)?\s*(.+?)\s+(?:for|with)\b", re.IGNORECASE
)
"""A group without a default that says what it replaces (``1 in 10 may exchange his Bolter for``)."""


def _norm(text: str | None) -> str:
    return " ".join((text or "").split())


def _profile_text(profile: Element) -> list[str]:
    return [(c.text or "") for c in children(profile, "characteristics", "characteristic")]


def per_model_cost(elem: Element) -> tuple[float, str]:
    """A ``Pts`` increment repeated per selection of some model or group: ``(increment, childId)``.

    ``childId`` is ``"model"`` (every model of the unit), a group id or an entry id; ``(0.0, "")`` when
    the element has no such modifier. Conditional (non-repeating) cost modifiers are not read.
    """
    for mod in children(elem, "modifiers", "modifier"):
        if mod.get("type") != "increment" or mod.get("field") != PTS_COST_TYPE_ID:
            continue
        for rep in children(mod, "repeats", "repeat"):
            if rep.get("field") != "selections":
                continue
            try:
                inc = float(mod.get("value", "0")) * float(rep.get("repeats", "1")) / float(rep.get("value", "1"))
            except (ValueError, ZeroDivisionError):
                continue
            return inc, rep.get("childId", "")
    return 0.0, ""


def selection_limits(elem: Element, scope: str = "parent") -> tuple[int, int | None]:
    """The ``min`` and ``max`` selection constraints of an entry, link or group, of one scope (``parent``,
    or the id of the entry they count in, such as a datasheet's)."""
    lo, hi = 0, None
    for con in children(elem, "constraints", "constraint"):
        if con.get("field") != "selections" or con.get("scope") != scope:
            continue
        try:
            value = int(float(con.get("value", "0")))
        except ValueError:
            continue
        if con.get("type") == "min":
            lo = max(lo, value)
        elif con.get("type") == "max":
            hi = value if hi is None else min(hi, value)
    return lo, hi


def scoped_max(elem: Element, scope: str) -> str:
    """The most selections of an entry or group of one constraint scope (``parent``: per selection of its
    owner; a datasheet's id: in the whole unit): ``"N"``, or ``"N+K/E:CHILD"`` when a modifier adds K for
    every E selections of CHILD (``model``: any model, else a group or entry id; several ids joined by ``|``
    when the modifier repeats over each: a Contemptor's in-built combi-bolters, one per Gravis Power Fist,
    Chainfist or Graviton Maul), as in "1 in 10 may exchange"; ``""`` when the data sets none. Conditional
    modifiers are not read."""
    for con in children(elem, "constraints", "constraint"):
        if con.get("field") != "selections" or con.get("scope") != scope or con.get("type") != "max":
            continue
        try:
            base = int(float(con.get("value", "0")))
        except ValueError:
            continue
        for mod in children(elem, "modifiers", "modifier"):
            if mod.get("type") != "increment" or mod.get("field") != con.get("id"):
                continue
            reps = [r for r in children(mod, "repeats", "repeat") if r.get("field") == "selections"]
            if reps:  # repeats of one value over several children count their selections together
                inc, every = mod.get("value", "0"), reps[0].get("value", "1")
                kids = "|".join(dict.fromkeys(r.get("childId", "") for r in reps if r.get("value", "1") == every))
                return f"{base}+{float(inc):g}/{float(every):g}:{kids}"
        return str(base)
    return ""


def group_visibility(groups: list[list[Any]]) -> str:
    """The groups holding an option that are hidden or carry ``set hidden`` modifiers, outermost first, as JSON
    ``[[hidden, modifiers], ...]`` (``""`` for none): an option is shown only when every one of them is."""
    kept = [g for g in groups if g[0] or g[1]]
    return json.dumps(kept, separators=(",", ":"), ensure_ascii=False) if kept else ""


def limit_of(written: Element, target: Element, scope: str) -> str:
    """:func:`scoped_max` of a link as written, else of the entry or group it links to."""
    return scoped_max(written, scope) or (scoped_max(target, scope) if target is not written else "")


@dataclass
class _Slot:
    """A model slot being filled during the walk (also the unit-wide wargear, as a slot of no models)."""

    name: str
    lo: int
    hi: int
    points: float
    group: str
    model_id: str
    entry_id: str
    profile: tuple[str, str] = ("", "")
    group_id: str = ""
    wargear: list[str] = field(default_factory=list)
    weapon_ids: list[str] = field(default_factory=list)
    weapon_names: list[str] = field(default_factory=list)
    within: list[str] = field(default_factory=list)


@dataclass
class _Option:
    """A wargear option being filled: its own weapons and those of the defaults inside it."""

    model: str
    name: str
    points: float
    wargear: list[str] = field(default_factory=list)
    weapon_ids: list[str] = field(default_factory=list)
    weapon_names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.wargear.insert(0, self.name)


@dataclass
class _Sheet:
    """A datasheet being filled during the walk."""

    unit: _Slot = field(default_factory=lambda: _Slot(_UNIT, 0, 0, 0.0, "", "", ""))
    slots: list[_Slot] = field(default_factory=list)
    options: list[tuple[_Option, dict[str, object]]] = field(default_factory=list)
    groups: list[tuple[int, int | None, list[_Slot]]] = field(default_factory=list)


class _Walker:
    """Walks one datasheet's selection tree."""

    def __init__(self, data: BSData, name: str, faction: str, roots: set[str], root_id: str = ""):
        self.data = data
        self.root_id = root_id
        self.roots = roots
        self.name = name
        self.faction = faction
        self.sheet = _Sheet()
        self.groups_seen: list[list[Any]] = []  # [hidden, its set-hidden modifiers] of the groups walked into
        self.container = ""  # the name of the entry whose children are being visited ("2x Heavy Flamers")

    def items(self, cat: Catalogue, elem: Element) -> Iterator[tuple[Catalogue, Element, Element]]:
        """(catalogue, resolved entry or group, the element as written) for every child of ``elem``."""
        for box, tag in (
            ("selectionEntries", "selectionEntry"),
            ("entryLinks", "entryLink"),
            ("selectionEntryGroups", "selectionEntryGroup"),
        ):
            for child in children(elem, box, tag):
                hit = self.data.follow(cat, child)
                if hit is not None:
                    yield hit[0], hit[1], child

    def profiles(self, cat: Catalogue, elem: Element, types: set[str]) -> Iterator[tuple[Catalogue, Element]]:
        """Profiles of the given types on an entry, directly or through info links."""
        for prof in children(elem, "profiles", "profile"):
            if prof.get("typeId") in types:
                yield cat, prof
        for link in children(elem, "infoLinks", "infoLink"):
            hit = self.data.resolve(cat, link.get("targetId", ""))
            if hit is not None and local(hit[1].tag) == "profile" and hit[1].get("typeId") in types:
                yield hit
            elif hit is not None and local(hit[1].tag) == "infoGroup":
                yield from self.profiles(hit[0], hit[1], types)

    def walk(
        self, cat: Catalogue, elem: Element, owner: _Slot | _Option | None, depth: int, seen: frozenset[str]
    ) -> None:
        """Visit the children of an entry (the datasheet root or a model)."""
        if depth > _MAX_DEPTH:
            return
        outer, self.container = self.container, _norm(elem.get("name"))
        for ccat, target, written in self.items(cat, elem):
            tid = target.get("id", "")
            if tid in seen:
                continue
            if local(target.tag) == "selectionEntryGroup":
                self.group(ccat, target, written, owner, depth + 1, seen | {tid})
            else:
                lo, hi = selection_limits(written)
                if written is not target:
                    tlo, thi = selection_limits(target)
                    lo, hi = max(lo, tlo), hi if hi is not None else thi
                self.entry(ccat, target, written, owner, lo, hi, "", "", depth + 1, seen | {tid}, ("", 0, "", ""))
        self.container = outer

    def group(
        self,
        cat: Catalogue,
        group: Element,
        written: Element,
        owner: _Slot | _Option | None,
        depth: int,
        seen: frozenset[str],
    ) -> None:
        """Visit a selection entry group: its default is taken, the others replace it."""
        lo, hi = selection_limits(written)
        if written is not group:
            glo, ghi = selection_limits(group)
            lo, hi = max(lo, glo), hi if hi is not None else ghi
        name = _norm(group.get("name")).rstrip(":")
        members = list(self.items(cat, group))
        default_id = group.get("defaultSelectionEntryId") or written.get("defaultSelectionEntryId") or ""
        if lo >= 1 and not default_id and members and local(members[0][1].tag) != "selectionEntryGroup":
            default_id = members[0][2].get("id", "")
        default_name = ""
        for _, target, member in members:
            if default_id and default_id in (member.get("id"), target.get("id")):
                default_name = _norm(target.get("name"))
        if not default_name:
            said = _EXCHANGE.search(name)
            default_name = said.group(1).strip() if said else ""
        models_before = len(self.sheet.slots)
        rules = visibility_rules(self.data, cat, [group, written])
        hidden = group.get("hidden") == "true" or written.get("hidden") == "true"
        self.groups_seen.append([hidden, json.loads(rules) if rules else []])
        for ccat, target, member in members:
            tid = target.get("id", "")
            if tid in seen:
                continue
            if local(target.tag) == "selectionEntryGroup":
                self.group(ccat, target, member, owner, depth + 1, seen | {tid})
                continue
            is_default = bool(default_id) and default_id in (member.get("id"), target.get("id"))
            mlo, mhi = selection_limits(member)
            take = max(lo, mlo, 1) if is_default and lo >= 1 else mlo
            self.entry(
                ccat, target, member, owner, take, mhi if mhi is not None else hi, name,
                "" if is_default else default_name, depth + 1, seen | {tid},
                (group.get("id", ""), lo, limit_of(written, group, "parent"), limit_of(written, group, self.root_id)),
            )  # fmt: skip
        self.groups_seen.pop()
        slots = self.sheet.slots[models_before:]
        grouped = [s for s in slots if s.group == name]
        if grouped:
            self.sheet.groups.append((lo, hi, grouped))

    def entry(
        self,
        cat: Catalogue,
        target: Element,
        written: Element,
        owner: _Slot | _Option | None,
        lo: int,
        hi: int | None,
        group: str,
        replaces: str,
        depth: int,
        seen: frozenset[str],
        in_group: tuple[str, int, str, str],
    ) -> None:
        """Visit one entry: a model slot, default wargear or a wargear option (``in_group``: the id and
        limits of the group holding it)."""
        group_id = in_group[0]
        kind = target.get("type")
        pts = entry_points(written)
        if pts is None:
            pts = entry_points(target) or 0.0
        name = _norm(target.get("name"))
        if kind == "unit" or (kind == "model" and target.get("id") in self.roots):
            return
        prof = next(iter(self.profiles(cat, target, _STATLINE_TYPES)), None)
        if kind == "model" or (prof is not None and lo >= 1 and not isinstance(owner, _Option)):
            # some vehicles carry their statline on an always-taken upgrade entry
            if isinstance(owner, _Option):
                return
            slot = _Slot(
                name,
                lo,
                hi if hi is not None else max(lo, 1),
                pts,
                group,
                written.get("id", ""),
                target.get("id", ""),
                (prof[0].stem, prof[1].get("id", "")) if prof else ("", ""),
                group_id,
            )
            self.sheet.slots.append(slot)
            self.walk(cat, target, slot, depth, seen)
            return
        weapons = [
            (_norm(p.get("name")), f"{c.stem}:{p.get('id', '')}") for c, p in self.profiles(cat, target, _WEAPON_TYPES)
        ]
        renamed = set_name(written) or set_name(target)
        if renamed and weapons:  # "2x Heavy Flamers" over the Heavy Flamer entry: two of it (docs/rosters.md)
            weapons *= count_in_name(renamed, [n for n, _ in weapons])
        if lo >= 1:
            sink = owner if owner is not None else self.sheet.unit
            sink.wargear.append(name)
            # the upgrade "2x Heavy Flamers" holding a Heavy Flamer link taken twice (min 2): both (docs/rosters.md)
            named = lo > 1 and count_in_name(self.container, [n for n, _ in weapons]) == lo
            weapons *= lo if named else 1
            sink.weapon_ids.extend(w for _, w in weapons)
            sink.weapon_names.extend(n for n, _ in weapons)
            sink.points += pts * lo
            start = len(sink.wargear)
            self.walk(cat, target, owner, depth, seen)
            if isinstance(sink, _Slot):  # the defaults inside this one go with it when an option replaces it
                sink.within.extend(f"{inner}<{name}" for inner in sink.wargear[start:])
            return
        inc, child_id = per_model_cost(written) if written is not target else (0.0, "")
        if not child_id:
            inc, child_id = per_model_cost(target)
        model = owner.model if isinstance(owner, _Option) else owner.name if owner is not None else _UNIT
        rule = lookup(name)
        held = rule.name if rule is not None and rule.holder is Holder.UNIT else ""
        texts = [] if held else [t for _, p in self.profiles(cat, target, _WARGEAR_TYPES) for t in _profile_text(p)]
        reading = read_described([Described(name, WARGEAR, tuple(texts))])  # as a roster's wargear is read
        save, invulnerable = reading.armour, reading.invulnerable
        held = held or ";".join(reading.rules)
        option = _Option(model, name, pts, weapon_ids=[w for _, w in weapons], weapon_names=[n for n, _ in weapons])
        self.sheet.options.append(
            (
                option,
                {
                    "datasheet": self.name,
                    "faction": self.faction,
                    "model": model,
                    "group": group,
                    "option": name,
                    "replaces": replaces,
                    "points_per_model": inc,
                    "per_model_of": child_id,
                    "max": hi,
                    "parent": owner.wargear[0] if isinstance(owner, _Option) else "",
                    "hidden": written.get("hidden") == "true" or target.get("hidden") == "true",
                    "option_id": written.get("id", ""),
                    "entry_id": target.get("id", ""),
                    "group_id": group_id,
                    "group_min": in_group[1],
                    "group_max": in_group[2],
                    "group_unit_max": in_group[3],
                    "unit_max": limit_of(written, target, self.root_id),
                    "save": save,
                    "invulnerable": invulnerable,
                    "rules": held,
                    "not_modelled": ";".join(reading.not_modelled),
                    "shown_when": visibility_rules(self.data, cat, [target, written]),
                    "group_shown_when": group_visibility(self.groups_seen),
                },
            )
        )
        if prof is None:  # an optional entry with a statline (a transport bought as an upgrade) is not walked
            self.walk(cat, target, option, depth, seen)


def _datasheet(
    data: BSData, cat: Catalogue, root: Element, faction: str, roots: set[str]
) -> tuple[dict[str, object], list[dict[str, object]], list[dict[str, object]]]:
    name = _norm(root.get("name"))
    walker = _Walker(data, name, faction, roots - {root.get("id", "")}, root.get("id", ""))
    sheet = walker.sheet
    own = next(iter(walker.profiles(cat, root, _STATLINE_TYPES)), None)
    if own is not None:
        rid = root.get("id", "")
        sheet.slots.append(_Slot(name, 1, 1, 0.0, "", rid, rid, (own[0].stem, own[1].get("id", ""))))
    walker.walk(cat, root, sheet.slots[0] if own is not None else None, 0, frozenset({root.get("id", "")}))
    unit_points = entry_points(root) or 0.0
    grouped = {id(s) for _, _, members in sheet.groups for s in members}
    lo = sum(s.lo for s in sheet.slots if id(s) not in grouped)
    hi = sum(s.hi for s in sheet.slots if id(s) not in grouped)
    base = unit_points + sheet.unit.points + sum(s.lo * s.points for s in sheet.slots)
    growth = [s for s in sheet.slots if id(s) not in grouped and s.hi > s.lo]
    for glo, ghi, members in sheet.groups:
        lo += glo
        hi += ghi if ghi is not None else sum(s.hi for s in members)
        if ghi is None or ghi > glo:
            growth.append(min(members, key=lambda s: (s.lo == 0, s.points)))
    row = {
        "name": name,
        "faction": faction,
        "min_models": max(lo, 1),
        "max_models": max(hi, lo, 1),
        "base_points": base,
        "points_per_model": growth[0].points if growth else 0.0,
        "unit_points": unit_points,
        "unit_wargear": "; ".join(sheet.unit.wargear),
        "unit_weapons": "; ".join(sheet.unit.weapon_names),
        "unit_weapon_ids": ";".join(sheet.unit.weapon_ids),
        "models": "; ".join(f"{s.lo}-{s.hi} {s.name}" for s in sheet.slots),
        "hidden": root.get("hidden") == "true",
        "source": cat.stem,
        "entry_id": root.get("id", ""),
    }
    models = [
        {
            "datasheet": name,
            "faction": faction,
            "model": s.name,
            "min": s.lo,
            "max": s.hi,
            "points": s.points,
            "default_wargear": "; ".join([*s.wargear, *sheet.unit.wargear]),
            "default_weapons": "; ".join(s.weapon_names),
            "default_weapon_ids": ";".join(s.weapon_ids),
            "default_within": "; ".join(s.within),
            "profile_source": s.profile[0],
            "profile_id": s.profile[1],
            "group": s.group,
            "group_id": s.group_id,
            "model_id": s.model_id,
            "entry_id": s.entry_id,
        }
        for s in sheet.slots
    ]
    options = [
        {
            **row_,
            "points": opt.points,
            "weapons": "; ".join(opt.weapon_names),
            "weapon_ids": ";".join(opt.weapon_ids),
        }
        for opt, row_ in sheet.options
    ]
    return row, models, options


def datasheet_frames(data: BSData, faction_of: Callable[[str], str]) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Datasheets, their model slots and their wargear options (see the ``*_COLUMNS`` lists).

    Args:
        data: The loaded data set.
        faction_of: File stem -> faction label.

    Returns:
        ``(datasheets, models, options)``, one row per datasheet, per model slot, per option.
    """
    rows, models, options = [], [], []
    roots = {
        e.get("id", "")
        for cat in data.files()
        for e in children(cat.root, "sharedSelectionEntries", "selectionEntry")
        if e.get("type") in ("unit", "model")
    }
    for cat in data.files():
        for root in children(cat.root, "sharedSelectionEntries", "selectionEntry"):
            if root.get("type") not in ("unit", "model"):
                continue
            row, mods, opts = _datasheet(data, cat, root, faction_of(cat.stem), roots)
            if not mods:
                continue
            rows.append(row)
            models.extend(mods)
            options.extend(opts)
    return (
        pd.DataFrame(rows, columns=DATASHEET_COLUMNS),
        pd.DataFrame(models, columns=MODEL_COLUMNS),
        pd.DataFrame(options, columns=OPTION_COLUMNS),
    )
