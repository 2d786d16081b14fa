"""A roster's units as fielded: each unit selection read into a :class:`FieldedUnit`.

Each model selection of a unit brings its models (``number``), its statline and the weapon profiles and
wargear under it. A weapon taken for the whole unit (a selection outside any model) goes to the models its
per-model cost counts, else to the models that are not Characters (a squad's heavy weapons, not its
Sergeant's). Each model's wargear selections give it their saves and unit rules
(:mod:`praetor_analysis.scenario.wargear_effects`: an Iron Halo, the armour save a Wargear Item's text grants
outright). Points are the roster's own. A nested unit (a dedicated transport) is its own unit.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from xml.etree.ElementTree import Element

import pandas as pd

from praetor_analysis.bsdata.files import children, parse_xml_bytes
from praetor_analysis.bsdata.roster import (
    read_roster,
    read_roster_bytes,
    selection_number,
    selection_points,
    selection_saves,
    selection_statline,
    selection_weapons,
    unzip_roster,
)
from praetor_analysis.bsdata.roster_costs import is_counted, selection_option
from praetor_analysis.catalog import load_datasheets, load_wargear_options
from praetor_analysis.rules.catalogue import lookup
from praetor_analysis.rules.registry import Holder
from praetor_analysis.scenario.blocks import attacker_block, is_vehicle_row, row_value, weapon_block
from praetor_analysis.scenario.datasheet import is_character
from praetor_analysis.scenario.unit_records import FieldedUnit, ModelGroup
from praetor_analysis.scenario.wargear_effects import Item, with_wargear

__all__ = ["RosterSelection", "from_selection", "roster_selections"]


@dataclass(frozen=True)
class RosterSelection:
    """One unit selection of a roster file, with the option rows of its datasheet (empty when unknown)."""

    element: Element
    options: pd.DataFrame
    faction: str = ""
    force: str = ""


@dataclass
class _Group:
    """Models of one roster model selection: name, count, statline, weapons, wargear, and the selection."""

    name: str
    count: int
    chars: dict[str, str]
    sel: Element
    weapons: list[dict[str, str]] = field(default_factory=list)
    wargear: list[str] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)


def _unit_selections(root: Element) -> Iterator[tuple[Element, str]]:
    """Every unit selection and the name of its force (a nested unit after its parent)."""
    seen: set[int] = set()
    for force in root.iter():
        if force.tag.rsplit("}", 1)[-1] != "force":
            continue
        label = (force.get("name") or "").strip()
        stack = list(children(force, "selections", "selection"))
        while stack:
            sel = stack.pop(0)
            if sel.get("type") in ("unit", "model") and id(sel) not in seen:
                seen.add(id(sel))
                yield sel, label
                stack.extend(c for c in sel.iter() if c is not sel and c.get("type") == "unit")


def roster_selections(source: str | Path | bytes, name: str = "roster") -> list[RosterSelection]:
    """The unit selections of a roster file, or of its bytes (``.ros`` or ``.rosz``; bounds and XML safety
    checked first)."""
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    else:
        path = Path(source)
        data, name = read_roster(path).document, path.name
    read_roster_bytes(data, name)  # bounds, XML safety, a roster root
    root = parse_xml_bytes(unzip_roster(data, name), name)
    sheets = load_datasheets().drop_duplicates("entry_id").set_index("entry_id")
    all_options = load_wargear_options()
    out = []
    for sel, force in _unit_selections(root):
        entry = (sel.get("entryId") or "").split("::")[-1]
        options, faction = all_options.iloc[0:0], ""
        if entry in sheets.index:
            sheet = sheets.loc[entry]
            faction = str(sheet["faction"])
            options = all_options[
                (all_options["datasheet"] == sheet["name"]) & (all_options["faction"] == sheet["faction"])
            ]
        out.append(RosterSelection(sel, options, faction, force))
    return out


def _groups(
    sel: Element, groups: list[_Group], shared: list[Element], current: _Group | None, worn: list[Item]
) -> float:
    """Fill the model groups of a unit's selections; weapon selections outside any model go to ``shared``,
    the saves and rules of other wargear outside any model (a squad's Terminator armour) to ``worn``.
    Returns the unit's points."""
    points = selection_points(sel)
    own = selection_statline(sel)
    if own is not None:
        current = _Group(own[0], selection_number(sel), own[1], sel)
        groups.append(current)
    weapons = selection_weapons(sel)
    if current is not None:
        current.weapons.extend(weapons)
        if current.sel is not sel and sel.get("type") != "model":
            current.wargear.append(" ".join((sel.get("name") or "").split()))
            current.items.append(_item_of(sel))
    elif weapons:
        shared.append(sel)
    elif own is None and sel.get("type") == "upgrade":
        worn.append(_item_of(sel))
    for child in children(sel, "selections", "selection"):
        if child.get("type") != "unit":
            points += _groups(child, groups, shared, current, worn)
    return points


def _item_of(sel: Element) -> Item:
    """The saves and unit rule a wargear selection gives the models that carry it: the rule the engine
    declares under its name (Iron Halo), else the saves its Wargear Item text grants outright."""
    rule = lookup(" ".join((sel.get("name") or "").split()))
    if rule is not None and rule.holder is Holder.UNIT:
        return ("", "", rule.name)
    return (*selection_saves(sel), "")


def _carriers(sel: Element, groups: list[_Group], options: pd.DataFrame) -> list[tuple[_Group, int]]:
    """Which models carry a weapon taken for the whole unit: those its per-model cost counts, else the
    models that are not Characters (all, when every one is)."""
    row = selection_option(sel, options) if len(options) else None
    of = str(row["per_model_of"]) if row is not None else ""
    if of:
        counted = [(g, g.count) for g in groups if is_counted(g.sel, of)]
        if counted:
            return counted
    plain = [g for g in groups if not is_character(g.chars)]
    return [(g, g.count) for g in plain or groups]


def _model_groups(groups: list[_Group], shared: list[Element], options: pd.DataFrame) -> list[ModelGroup]:
    extra: dict[int, list[tuple[int, list[dict[str, str]], str]]] = {}
    for sel in shared:
        name = " ".join((sel.get("name") or "").split())
        for g, k in _carriers(sel, groups, options):
            extra.setdefault(id(g), []).append((k, selection_weapons(sel), name))
    out = []
    for g in groups:
        if g.count < 1:
            continue
        statline = with_wargear(attacker_block(g.chars), g.items)
        statline.pop("models", None)
        if is_vehicle_row(g.chars):  # the roster's own armour and hull points, as its own Toughness
            statline.update({k: v for k in ("Front", "Side", "Rear", "HP") if (v := row_value(g.chars, k)) is not None})
        parts: list[tuple[int, list[dict[str, str]], list[str]]] = [(g.count, list(g.weapons), list(g.wargear))]
        for k, weapons, item in extra.get(id(g), []):
            split = []
            for m, ws, items in parts:
                take = min(k, m)
                if take:
                    split.append((take, ws + weapons, [*items, item]))
                if m - take:
                    split.append((m - take, ws, items))
                k -= take
            parts = split
        for m, ws, items in parts:
            seen: dict[tuple[str, ...], dict[str, Any]] = {}
            for w in ws:
                seen.setdefault((w["name"], w["Range"], w["Strength"], w["AP"], w["Type"]), weapon_block(w))
            out.append(ModelGroup(g.name, m, statline, tuple(seen.values()), tuple(dict.fromkeys(items))))
    merged: list[ModelGroup] = []
    for group in out:  # models of the same name, statline and wargear (an Indomitus squad's four) as one group
        same = next((i for i, o in enumerate(merged) if (o.model, o.statline, o.weapons, o.wargear)
                     == (group.model, group.statline, group.weapons, group.wargear)), None)  # fmt: skip
        if same is None:
            merged.append(group)
        else:
            merged[same] = replace(merged[same], count=merged[same].count + group.count)
    return merged


def from_selection(selection: RosterSelection) -> FieldedUnit | None:
    """The unit a roster selection fields (None when it has no model with a statline)."""
    groups: list[_Group] = []
    shared: list[Element] = []
    worn: list[Item] = []
    points = _groups(selection.element, groups, shared, None, worn)
    for g in groups:
        g.items.extend(worn)
    models = _model_groups(groups, shared, selection.options)
    if not models:
        return None
    name = " ".join((selection.element.get("name") or "").split())
    costed = tuple(" ".join((s.get("name") or "").split()) for s in selection.element.iter() if selection_points(s))
    size = sum(g.count for g in models)
    return FieldedUnit(
        name, selection.faction, size, points, tuple(models), costed, source="roster", force=selection.force
    )
