"""When the data shows a hidden option: its ``set hidden`` modifiers and their conditions, as plain JSON.

An option of a datasheet may be hidden (``hidden="true"`` on the link or the entry) and shown by a modifier
under conditions, or shown and hidden by one: the Dark Angels' Calibanite Warblade is hidden in the generic
Tactical Squad and shown when the force has taken the Legion "I: Dark Angels" and the model is a Character.
:func:`visibility_rules` writes those modifiers in document order (the entry's, then the link's) with each
condition's ids read as names, so the scenario layer can decide for a given force
(:mod:`praetor_analysis.units.option_visibility`) without the XML:

``[{"hidden": false, "when": {"op": "and", "items": [["force", "equalTo", 1.0, "selectionEntry",
"I: Dark Angels"], ["ancestor", "instanceOf", 0.0, "categoryEntry", "Character"]]}}]``: each condition is
``[scope, type, value, kind of the element it counts, its name]``; a group of one item is that item, and
``{"op": "and", "items": []}`` is always true.

A modifier group's conditions join each of its modifiers' (``and``).
"""

from __future__ import annotations

import json
from typing import Any
from xml.etree.ElementTree import Element

from praetor_analysis.bsdata.files import BSData, Catalogue, children, local

__all__ = ["visibility_rules"]


def _number(text: str | None) -> float:
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


def _condition(data: BSData, cat: Catalogue, cond: Element) -> list[Any]:
    cid = cond.get("childId", "")
    hit = data.resolve(cat, cid) if cid else None
    return [
        cond.get("scope", ""),
        cond.get("type", ""),
        _number(cond.get("value")),
        local(hit[1].tag) if hit is not None else "",
        " ".join((hit[1].get("name") or "").split()) if hit is not None else cid,
    ]


def _joined(op: str, items: list[Any]) -> Any:
    """``{"op", "items"}``, a single item standing alone and nested groups of the same ``op`` merged."""
    flat: list[Any] = []
    for item in items:
        flat += item["items"] if isinstance(item, dict) and item.get("op") == op else [item]
    return flat[0] if len(flat) == 1 else {"op": op, "items": flat}


def _tree(data: BSData, cat: Catalogue, elem: Element, op: str) -> Any:
    items: list[Any] = [_condition(data, cat, c) for c in children(elem, "conditions", "condition")]
    items += [_tree(data, cat, g, g.get("type", "and")) for g in children(elem, "conditionGroups", "conditionGroup")]
    return _joined(op if op in ("and", "or") else "and", items)


def _modifiers(data: BSData, cat: Catalogue, elem: Element, outer: list[Any]) -> list[dict[str, Any]]:
    out = []
    for mod in children(elem, "modifiers", "modifier"):
        if mod.get("field") == "hidden" and mod.get("type") == "set":
            when = _joined("and", [*outer, _tree(data, cat, mod, "and")])
            out.append({"hidden": mod.get("value") == "true", "when": when})
    for group in children(elem, "modifierGroups", "modifierGroup"):
        out += _modifiers(data, cat, group, [*outer, _tree(data, cat, group, "and")])
    return out


def visibility_rules(data: BSData, cat: Catalogue, elems: list[Element]) -> str:
    """The ``set hidden`` modifiers of ``elems`` (an entry, then the link to it) as JSON; ``""`` for none."""
    mods: list[dict[str, Any]] = []
    seen: set[int] = set()
    for elem in elems:
        if id(elem) not in seen:
            seen.add(id(elem))
            mods += _modifiers(data, cat, elem, [])
    return json.dumps(mods, separators=(",", ":"), ensure_ascii=False) if mods else ""
