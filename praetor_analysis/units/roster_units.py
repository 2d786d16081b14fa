"""A roster's units as fielded: each unit selection read into a :class:`FieldedUnit`.

The units are found wherever they sit (:func:`praetor_analysis.bsdata.roster_tree.unit_nodes`). Each model selection
of a unit brings its models (``number``), its statline and the weapon profiles and wargear under it: a weapon
selection of ``number`` k under n models gives each k / n of it (the first k mod n one more), each standing for the
count its name gives (``2x Lascannon Array``), and every copy is kept (two heavy flamers fire twice). A weapon taken
for the whole unit (a selection outside any model) goes to the models its per-model cost counts, else to the models
that are not Characters (a squad's heavy weapons, not its Sergeant's). Each model's wargear selections give it their
saves and unit rules (:mod:`praetor_analysis.units.wargear_effects`: an Iron Halo, what a Wargear Item's text grants
outright, clause by clause); a wargear selection outside any model (a squad's Krak Grenades, its Power Armour) is
every model's, its saves and its name (Krak Grenades strike a vehicle). A costed selection with no profile is
matched by name to today's one weapon of that name (``Replace Close Combat Weapon with Chainaxe``); what the reading
cannot use (a save under a condition, a costed item that does nothing the engine reads) is in the unit's ``notes``,
so in every result's ``not_modelled``. Points are the roster's own; :func:`read_roster_units` labels the units and
accounts for the points not rated (docs/rosters.md). A nested unit (a dedicated transport) is its own unit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree.ElementTree import Element

from praetor_analysis.bsdata import (
    HH3_RATINGS_PENDING,
    Hh3Roster,
    children,
    is_counted,
    name_count,
    parse_xml_bytes,
    read_roster,
    read_roster_bytes,
    require_edition,
    selection_number,
    selection_option,
    selection_points,
    selection_rules,
    selection_statline,
    selection_wargear,
    selection_weapons,
    unit_nodes,
    unzip_roster,
)
from praetor_analysis.catalog import load_datasheets, load_wargear_options, load_weapons
from praetor_analysis.rules import Holder, lookup
from praetor_analysis.units.catalog_rows import UnitRow, WeaponRow
from praetor_analysis.units.hh3_roster import hh3_reading_parts
from praetor_analysis.units.names import fold
from praetor_analysis.units.records import FieldedUnit, ModelGroup, Statline
from praetor_analysis.units.wargear_effects import Item, with_wargear

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "RosterReading",
    "RosterSelection",
    "from_selection",
    "read_roster_units",
    "roster_selections",
    "unique_labels",
]


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
    weapons: list[tuple[int, list[dict[str, str]]]] = field(default_factory=list)
    """``(selections across the group, the profiles one selection gives)`` of each weapon selection of the group's
    models (a ``Pair of Lightning Claws`` gives two claws)."""
    wargear: list[str] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    swaps: list[tuple[int, str]] = field(default_factory=list)
    """``(copies, folded name)`` of the weapons an option read by its name replaces (``Replace X with Y``)."""


@dataclass(frozen=True)
class RosterReading:
    """A roster read whole: its fielded units with their labels, and the points of what is not rated.

    Attributes:
        name: The roster's name.
        declared: The total the file declares.
        units: The units that have a model with a statline, in the roster's order.
        labels: Each unit's label, unique within the list (``Tactical Squad (1)``, ``(2)``): the one every
            command prints and ``calc`` accepts.
        not_rated: ``(name, points, why)`` of the costed selections outside every unit and the units with no
            model to field.
    """

    name: str
    declared: float
    units: tuple[FieldedUnit, ...]
    labels: tuple[str, ...]
    not_rated: tuple[tuple[str, float, str], ...] = ()

    @property
    def rated_points(self) -> float:
        """The points of the units rated."""
        return float(sum(u.points for u in self.units))

    @property
    def not_rated_points(self) -> float:
        """The points listed as not rated."""
        return float(sum(p for _, p, _ in self.not_rated))

    def account(self) -> str:
        """One line: the declared points as the units rated plus the points not rated (each named)."""
        rated, rest = self.rated_points, self.not_rated_points
        line = (
            f"{self.name}: {self.declared:,.0f} points declared = {rated:,.0f} in {len(self.units)} units rated "
            f"+ {rest:,.0f} not rated"
        )
        if self.not_rated:
            line += " (" + "; ".join(f"{n}, {p:,.0f} pts: {why}" for n, p, why in self.not_rated) + ")"
        gap = self.declared - rated - rest
        if abs(gap) > 1e-6:
            side = "less" if gap > 0 else "more"
            line += f"; the file's selections add up to {rated + rest:,.0f}, {abs(gap):,.0f} {side}"
        return line


def unique_labels(labels: Sequence[str]) -> list[str]:
    """Labels made unique as every command prints them: a repeated one as ``Tactical Squad (1)``, ``(2)``."""
    seen: dict[str, int] = {}
    total = {x: list(labels).count(x) for x in labels}
    out = []
    for x in labels:
        seen[x] = seen.get(x, 0) + 1
        out.append(f"{x} ({seen[x]})" if total[x] > 1 else x)
    return out


def read_roster_units(source: str | Path | bytes, name: str = "roster") -> RosterReading:
    """A roster file (or its bytes) read whole: every unit fielded and labelled, and what is not rated with
    its points (see :class:`RosterReading`)."""
    if isinstance(source, (bytes, bytearray)):
        roster = read_roster_bytes(bytes(source), name)
    else:
        roster, name = read_roster(Path(source)), Path(source).name
    if isinstance(roster, Hh3Roster):  # the 3rd edition: the profiles the roster embeds
        hh3_units, hh3_not_rated = hh3_reading_parts(roster)
        labels = tuple(unique_labels([u.datasheet for u in hh3_units]))
        return RosterReading(roster.name or name, roster.points, tuple(hh3_units), labels, tuple(hh3_not_rated))
    not_rated = [(n, p, "outside every unit") for n, p in roster.loose]
    units = []
    for selection, read in zip(roster_selections(roster.document, name), roster.units, strict=True):
        unit = from_selection(selection)
        if unit is not None:
            units.append(unit)
        elif read.points:
            not_rated.append((read.name, read.points, "no model with a statline"))
    labels = tuple(unique_labels([u.datasheet for u in units]))
    return RosterReading(roster.name or name, roster.points, tuple(units), labels, tuple(not_rated))


def roster_selections(source: str | Path | bytes, name: str = "roster") -> list[RosterSelection]:
    """The unit selections of a roster file, or of its bytes (``.ros`` or ``.rosz``; bounds and XML safety
    checked first)."""
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
    else:
        path = Path(source)
        data, name = read_roster(path).document, path.name
    roster = read_roster_bytes(data, name)  # bounds, XML safety, a roster root, a game praetor reads
    require_edition(roster.edition, "hh2", name, HH3_RATINGS_PENDING)
    root = parse_xml_bytes(unzip_roster(data, name), name)
    sheets = load_datasheets().drop_duplicates("entry_id").set_index("entry_id")
    all_options = load_wargear_options()
    out = []
    for sel, force, _ in unit_nodes(root):
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
    sel: Element,
    groups: list[_Group],
    shared: list[tuple[Element, list[dict[str, str]], str]],
    current: _Group | None,
    worn: list[Item],
    notes: list[str],
    kit: list[str],
) -> float:
    """Fill the model groups of a unit's selections; weapon selections outside any model go to ``shared``,
    the saves and rules of other wargear outside any model (a squad's Terminator armour) to ``worn`` and its
    name to ``kit`` (every model carries it: a squad's Krak Grenades), what the reading cannot use to
    ``notes``. Returns the unit's points."""
    points = selection_points(sel)
    own = selection_statline(sel)
    if own is not None:
        current = _Group(own[0], selection_number(sel), own[1], sel)
        groups.append(current)
    weapons = selection_weapons(sel)
    replaced = ""
    if not weapons and not (current is not None and _names_model(sel, current)):
        weapons, replaced = _matched(sel, notes)
    if current is not None:
        if weapons:
            copies = current.count if current.sel is sel else selection_number(sel)
            current.weapons.append((copies, weapons * name_count(sel)))  # a pair stays on one model
            if replaced:
                current.swaps.append((copies, replaced))
        if current.sel is not sel and sel.get("type") != "model":
            current.wargear.append(_name(sel))
            current.items.extend(_items_of(sel, notes, bool(weapons)))
    elif weapons:
        shared.append((sel, weapons, replaced))
    elif own is None and sel.get("type") == "upgrade":
        worn.extend(_items_of(sel, notes, False))
        kit.append(_name(sel))
    (current.items if current is not None else worn).extend(_rules_of(sel, notes))
    for child in children(sel, "selections", "selection"):
        if child.get("type") != "unit":
            points += _groups(child, groups, shared, current, worn, notes, kit)
    return points


def _rules_of(sel: Element, notes: list[str]) -> list[Item]:
    """The saves a selection's own rules give its models, read as the catalog reads a datasheet's
    (:func:`~praetor_analysis.bsdata.roster.selection_rules`); a save under a condition goes to ``notes``."""
    found = selection_rules(sel)
    notes.extend(f"{line} (not applied)" for line in found.not_modelled if f"{line} (not applied)" not in notes)
    items: list[Item] = [(found.armour, found.invulnerable, "")] if found.armour or found.invulnerable else []
    return items + [("", "", r) for r in found.rules]


def _name(sel: Element) -> str:
    return " ".join((sel.get("name") or "").split())


def _names_model(sel: Element, group: _Group) -> bool:
    """Whether a selection names its model's own variant (``Mounted Force Commander*`` under the model whose
    statline is the Mounted Force Commander's): the statline already holds it."""
    return fold(_name(sel).rstrip("*")) in fold(group.name)


def _items_of(sel: Element, notes: list[str], armed: bool) -> list[Item]:
    """The saves and unit rules a wargear selection gives the models that carry it: the rule the engine
    declares under its name (Iron Halo), else what its Wargear Item text grants outright (its saves, the rules
    the engine declares). A save under a condition, and a costed selection that gives nothing the engine reads
    (no weapon, save or rule), go to ``notes`` with the selection's points."""
    name = _name(sel)
    rule = lookup(name)
    if rule is not None and rule.holder is Holder.UNIT:
        return [("", "", rule.name)]
    reading = selection_wargear(sel)
    declared = [text for text in reading.rules if (r := lookup(text)) is not None and r.holder is Holder.UNIT]
    items: list[Item] = [(reading.armour, reading.invulnerable, "")] if reading.armour or reading.invulnerable else []
    items += [("", "", r) for r in declared]
    notes.extend(f"{name}: {line} (holds under a condition; not applied)" for line in reading.conditional)
    notes.extend(f"{name}: {line} (holds under a condition; not applied)" for line in reading.conditional_rules)
    notes.extend(f"{name}: {r}, not modelled" for r in reading.rules if r not in declared)
    pts = selection_points(sel)
    said = bool(reading.conditional or reading.conditional_rules or reading.rules)
    quiet = bool(items) or armed or said or any(children(sel, "selections", "selection"))
    if pts and not quiet and any(children(sel, "profiles", "profile")):  # one without a profile: see _matched
        notes.append(f"{name} ({pts:g} pts): no weapon, save or rule the engine reads")
    return items


_SWAP = re.compile(r"^(?:replace|exchange|swap)\s+(?P<old>.+?)\s+(?:with|for)\s+(?:an?\s+)?(?P<new>.+)$", re.IGNORECASE)


@lru_cache(maxsize=1)
def _weapon_names() -> dict[str, list[dict[str, str]]]:
    """Today's weapon profiles by folded name, each distinct profile once."""
    out: dict[str, dict[tuple[str, ...], dict[str, str]]] = {}
    for row in load_weapons().to_dict(orient="records"):
        prof = {k: str(row[k]) for k in ("name", "Range", "Strength", "AP", "Type")}
        out.setdefault(fold(prof["name"]), {}).setdefault(tuple(prof.values())[1:], prof)
    return {k: list(v.values()) for k, v in out.items()}


def _matched(sel: Element, notes: list[str]) -> tuple[list[dict[str, str]], str]:
    """The weapon a costed selection with no profile of its own names (an option of an older data version:
    ``"Replace Close Combat Weapon with Chainaxe"``), when exactly one profile of today's catalogue has that
    name, and the folded name of the weapon it replaces (``""``: none); else ``[]``, and the selection is named
    in ``notes`` with its points."""
    pts = selection_points(sel)
    if not pts or any(children(sel, "profiles", "profile")) or any(children(sel, "selections", "selection")):
        return [], ""
    name = _name(sel)
    swap = _SWAP.match(name)
    wanted = fold(swap.group("new") if swap else name).removesuffix("s")
    found = _weapon_names().get(wanted) or _weapon_names().get(wanted + "s") or []
    if len(found) == 1:
        old = fold(swap.group("old")) if swap else ""
        instead = f" in place of a {swap.group('old')}" if swap else ""
        notes.append(f"{name} ({pts:g} pts): no profile in the roster; read as today's {found[0]['name']}{instead}")
        return [dict(found[0])], old
    why = f"{len(found)} profiles of today's data have that name" if found else "no weapon of today's data has it"
    notes.append(f"{name} ({pts:g} pts): no profile in the roster and {why}; not modelled")
    return [], ""


def _carriers(sel: Element, groups: list[_Group], options: pd.DataFrame) -> list[tuple[_Group, int]]:
    """Which models carry a weapon taken for the whole unit: those its per-model cost counts, else the
    models that are not Characters (all, when every one is)."""
    row = selection_option(sel, options) if len(options) else None
    of = str(row["per_model_of"]) if row is not None else ""
    if of:
        counted = [(g, g.count) for g in groups if is_counted(g.sel, of)]
        if counted:
            return counted
    plain = [g for g in groups if not UnitRow.from_row(g.chars).is_character]
    return [(g, g.count) for g in plain or groups]


def _swapped(g: _Group) -> list[tuple[int, list[dict[str, str]]]]:
    """The group's weapon selections with the copies an option read by its name replaces taken off."""
    loads = list(g.weapons)
    for copies, old in g.swaps:
        for i, (n, profiles) in enumerate(loads):
            if copies and n and all(fold(p["name"]) == old for p in profiles):
                take = min(n, copies)
                loads[i], copies = (n - take, profiles), copies - take
    return [(n, p) for n, p in loads if n]


def _give(
    parts: list[tuple[int, list[dict[str, str]], list[str]]], k: int, weapons: list[dict[str, str]], item: str | None
) -> list[tuple[int, list[dict[str, str]], list[str]]]:
    """``parts`` (models, weapons, wargear) with ``weapons`` (and the wargear ``item``) given to their first ``k``
    models, a part split where ``k`` ends inside it."""
    split = []
    for m, ws, items in parts:
        take = min(k, m)
        if take:
            split.append((take, ws + weapons, [*items, item] if item is not None else items))
        if m - take:
            split.append((m - take, ws, items))
        k -= take
    return split


def _model_groups(
    groups: list[_Group], shared: list[tuple[Element, list[dict[str, str]], str]], options: pd.DataFrame
) -> list[ModelGroup]:
    extra: dict[int, list[tuple[int, list[dict[str, str]], str]]] = {}
    for sel, weapons, replaced in shared:
        for g, k in _carriers(sel, groups, options):
            extra.setdefault(id(g), []).append((k, weapons, _name(sel)))
            if replaced:
                g.swaps.append((k, replaced))
    out = []
    for g in groups:
        if g.count < 1:
            continue
        profile = UnitRow.from_row(g.chars)
        statline = Statline.from_row(with_wargear(profile, g.items), armour=True)  # a vehicle's own armour and HP
        parts: list[tuple[int, list[dict[str, str]], list[str]]] = [(g.count, [], list(g.wargear))]
        for copies, weapons in _swapped(g):  # each model q copies, the first r models one more
            q, r = divmod(copies, g.count)
            parts = _give([(m, ws + weapons * q, items) for m, ws, items in parts], r, weapons, None)
        for k, weapons, item in extra.get(id(g), []):
            parts = _give(parts, k, weapons, item)
        for m, ws, items in parts:
            rows = tuple(WeaponRow.from_row(w).as_profile() for w in ws)  # every copy: two heavy flamers fire twice
            out.append(ModelGroup(g.name, m, statline, rows, tuple(dict.fromkeys(items))))
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
    shared: list[tuple[Element, list[dict[str, str]], str]] = []
    worn: list[Item] = []
    notes: list[str] = []
    kit: list[str] = []
    points = _groups(selection.element, groups, shared, None, worn, notes, kit)
    for g in groups:
        g.items.extend(worn)
        g.wargear.extend(n for n in kit if n not in g.wargear)
    models = _model_groups(groups, shared, selection.options)
    if not models:
        return None
    name = " ".join((selection.element.get("name") or "").split())
    costed = tuple(" ".join((s.get("name") or "").split()) for s in selection.element.iter() if selection_points(s))
    size = sum(g.count for g in models)
    return FieldedUnit(
        name,
        selection.faction,
        size,
        points,
        tuple(models),
        costed,
        source="roster",
        notes=tuple(dict.fromkeys(notes)),
        force=selection.force,
    )
