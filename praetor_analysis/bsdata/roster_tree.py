"""Where a roster's units sit in its selection tree, and how many weapons one selection stands for.

A unit is a selection of type ``unit`` or ``model`` met outside any unit, wherever it sits: at the top of
a force, in a nested force, or under an upgrade that wraps it (a Militia list's "Clade Assassins
(Loyalist)" holds its Assassin). A selection outside any unit that holds no such selection but carries a
statline profile somewhere below it is a unit too. Inside a unit, a selection of type ``unit`` (a dedicated
transport) is its own unit, named with its parent; everything else belongs to the unit. A costed selection
outside every unit (a force's upgrade) is *loose*: its points are listed, not rated.

A selection's count of its weapon is its ``number`` times the count its name gives when the name says the
selection stands for several of its one weapon: ``"2x Lascannon Array"``, ``"Pair of Lightning Claws"``,
``"Two Bolt Pistols"`` over a single weapon (one profile, or the profiles of one weapon) whose name the rest
of the selection name repeats (singular or plural). The data writes these names on entries whose weapon
profile is one of the pair (a name modifier over the entry ``Lascannon Array``), and costs the pair as the
one selection; a name like ``"Two Hull (Front) Weapons"`` over no profile of its own multiplies nothing
(its children carry their own ``number``), and ``"Twin-linked"`` is a rule, not a count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from xml.etree.ElementTree import Element

from praetor_analysis.bsdata.files import PROFILE_TYPE_IDS, children

__all__ = [
    "UnitNode",
    "count_in_name",
    "is_statline",
    "is_weapon",
    "loose_selections",
    "name_count",
    "unit_nodes",
    "weapon_family",
]

_STATLINE_IDS = {PROFILE_TYPE_IDS[k] for k in ("unit", "vehicle", "knight", "fortification")}
_WEAPON_IDS = {PROFILE_TYPE_IDS["weapon"], PROFILE_TYPE_IDS["psychic_weapon"]}
_STATLINE_NAMES = {"Unit", "Vehicle", "Knights and Titans", "Fortification"}
_WEAPON_NAMES = {"Weapon", "Psychic Weapon"}
_UNIT_TYPES = ("unit", "model")
_COUNT = re.compile(r"^\s*(?:(\d{1,2})\s*x\s+|(pair of|two|three|four)\s+)(.+)$", re.IGNORECASE)
_WORDS = {"pair of": 2, "two": 2, "three": 3, "four": 4}

UnitNode = tuple[Element, str, str]
"""``(selection, force name, parent unit name)`` of one unit (``""``: not nested in another unit)."""


def _is(profile: Element, ids: set[str], names: set[str]) -> bool:
    tid = profile.get("typeId")
    if tid in ids:
        return True
    return tid is None and (profile.get("typeName") or "").strip() in names


def is_statline(profile: Element) -> bool:
    """Whether a profile is a unit, vehicle, knight or fortification statline."""
    return _is(profile, _STATLINE_IDS, _STATLINE_NAMES)


def is_weapon(profile: Element) -> bool:
    """Whether a profile is a weapon (or psychic weapon) profile."""
    return _is(profile, _WEAPON_IDS, _WEAPON_NAMES)


def _name(elem: Element) -> str:
    return " ".join((elem.get("name") or "").split())


def _selections(elem: Element) -> list[Element]:
    return list(children(elem, "selections", "selection"))


def _holds_unit(sel: Element) -> bool:
    """Whether a selection holds a ``unit`` or ``model`` selection somewhere below it."""
    return any(c is not sel and c.get("type") in _UNIT_TYPES for c in sel.iter() if c.tag.endswith("selection"))


def _has_statline(sel: Element) -> bool:
    return any(p.tag.endswith("profile") and is_statline(p) for p in sel.iter())


def _forces(root: Element) -> Iterator[Element]:
    """Every force, a nested force after its parent."""
    stack = list(reversed(list(children(root, "forces", "force"))))
    while stack:
        force = stack.pop()
        yield force
        stack.extend(reversed(list(children(force, "forces", "force"))))


def _nested(unit: Element, force: str) -> Iterator[UnitNode]:
    """The units nested in ``unit`` (a dedicated transport), in document order, each followed by its own."""
    stack = list(reversed(_selections(unit)))
    while stack:
        sel = stack.pop()
        if sel.get("type") == "unit":
            yield sel, force, _name(unit)
            yield from _nested(sel, force)
        else:
            stack.extend(reversed(_selections(sel)))


def _walk(force: Element) -> Iterator[tuple[Element, bool]]:
    """``(selection, is_unit)`` for every selection of a force outside any unit, units included, in order."""
    stack = list(reversed(_selections(force)))
    while stack:
        sel = stack.pop()
        unit = sel.get("type") in _UNIT_TYPES or (not _holds_unit(sel) and _has_statline(sel))
        yield sel, unit
        if not unit:
            stack.extend(reversed(_selections(sel)))


def unit_nodes(root: Element) -> list[UnitNode]:
    """Every unit of a roster document (see the module docstring), in document order, nested ones after
    their parent."""
    out: list[UnitNode] = []
    for force in _forces(root):
        label = (force.get("name") or "").strip()
        for sel, unit in _walk(force):
            if unit:
                out.append((sel, label, ""))
                out.extend(_nested(sel, label))
    return out


def loose_selections(root: Element) -> list[tuple[Element, str]]:
    """``(selection, force name)`` of every selection outside every unit (a force's upgrades, the wrapper of a
    unit), whose own costs no unit's points include."""
    return [
        (sel, (force.get("name") or "").strip()) for force in _forces(root) for sel, unit in _walk(force) if not unit
    ]


def weapon_family(name: str) -> str:
    """A weapon's name before ``" - "`` or ``" ("`` (the profiles of one weapon share it), folded."""
    return _fold(name.split(" - ")[0].split(" (")[0])


def _fold(text: str) -> str:
    """Lower case, one space, curly apostrophes straight, ``*`` marks and a plural ``s`` of each word dropped."""
    words = text.replace("\u2019", "'").replace("*", "").casefold().split()
    return " ".join(w[:-1] if len(w) > 3 and w.endswith("s") else w for w in words)


def name_count(sel: Element) -> int:
    """How many of its one weapon a selection's name says it stands for (1 unless the name counts it, as the
    module docstring says)."""
    return count_in_name(_name(sel), [_name(p) for p in children(sel, "profiles", "profile") if is_weapon(p)])


def count_in_name(name: str, weapons: list[str]) -> int:
    """How many of its one weapon an entry named ``name`` carrying the weapon profiles named ``weapons`` stands
    for: the reading of :func:`name_count`, shared with the datasheet catalog (a ``set name`` modifier's name)."""
    m = _COUNT.match(name)
    if m is None:
        return 1
    families = {weapon_family(w) for w in weapons}
    if len(families) != 1 or any(_COUNT.match(w) for w in weapons):
        return 1
    family = families.pop()
    if not family or f" {family} " not in f" {_fold(m.group(3))} ":
        return 1
    return int(m.group(1)) if m.group(1) else _WORDS[m.group(2).casefold()]
