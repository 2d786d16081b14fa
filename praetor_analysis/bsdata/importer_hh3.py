"""Build the 3rd edition's catalogs (``data/hh3/*.csv``, ``provenance.json``) from BattleScribe's JSON data.

Only figures are written: weapon characteristics (ranged R, FP, RS, AP, D; melee IM, AM, SM, AP, D; the Special
Rules and Traits as the profile lists them), statlines (models, vehicles, knights, titans, fortifications), points,
and datasheets with their model slots and options. No rules text.

Points follow the data authors' convention: a unit's price is the cost on the unit entry, plus each model slot's
cost times its count, plus the options taken; a mandatory model (a sergeant, a lone character) costs 0 and its
price sits on the unit. So a datasheet's ``base_points`` is the unit's cost plus each slot's ``min`` times its
cost, and ``points_per_model`` the cost of the slot that can grow. Modifiers (conditional costs, limits that grow
with the unit) are not applied.

Links are resolved in each file's scope (:class:`~praetor_analysis.bsdata.json_data.JsonData`); a link that
resolves nowhere is never guessed at: its option is written with ``resolved`` False, and the report says, file by
file, how many links dangle and which imported files are missing (the game system; ``Legiones Astartes``, whose
generic Legion datasheets such as the Tactical Squad then exist only in rosters).
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from praetor_analysis.bsdata.datasheets import DATASHEET_COLUMNS
from praetor_analysis.bsdata.files import UnresolvedLink, UntrustedFileError
from praetor_analysis.bsdata.game_system import HH3_POINTS_TYPE_ID
from praetor_analysis.bsdata.hh3_profiles import HH3_MELEE_TYPES, HH3_RANGED_TYPES, HH3_STATLINE_TYPES, profile_kind
from praetor_analysis.bsdata.importer import UNIT_COLUMNS
from praetor_analysis.bsdata.json_data import JsonCatalogue, JsonData, Node, items
from praetor_analysis.io import atomic_write_text

__all__ = [
    "HH3_DATASHEET_COLUMNS",
    "HH3_MODEL_COLUMNS",
    "HH3_OPTION_COLUMNS",
    "HH3_UNIT_COLUMNS",
    "HH3_WEAPON_COLUMNS",
    "MAX_EXPANSIONS",
    "MAX_LABEL",
    "Hh3ImportReport",
    "build_hh3_catalog",
    "hh3_frames",
]

_WEAPON_STATS = ["R", "FP", "RS", "IM", "AM", "SM", "AP", "D", "Special Rules", "Traits"]
HH3_WEAPON_COLUMNS = ["name", "profile_type", *_WEAPON_STATS, "entry", "points", "source", "profile_id", "faction"]
_UNIT_STATS = ["Type", "M", "WS", "BS", "S", "T", "W", "I", "A", "LD", "CL", "WP", "IN", "SAV", "INV"]
_HULL_STATS = ["Front", "Side", "Rear", "HP", "Transport Capacity", "Access Points"]
HH3_UNIT_COLUMNS = ["name", "profile_type", *_UNIT_STATS, *_HULL_STATS, "extra", *UNIT_COLUMNS[-7:]]
"""The 2nd edition's unit columns with the 3rd edition's characteristics (entry, unit, points... alike)."""
HH3_DATASHEET_COLUMNS = [
    *DATASHEET_COLUMNS[:7],
    "points_modified",
    "models",
    "hidden",
    "dangling",
    "source",
    "entry_id",
]
"""The 2nd edition's datasheet figures (name to unit_points), the slots, and the links that dangle."""
HH3_MODEL_COLUMNS = [
    "datasheet",
    "faction",
    "model",
    "min",
    "max",
    "points",
    "points_modified",
    "group",
    "profile_id",
    "model_id",
    "entry_id",
]
HH3_OPTION_COLUMNS = [
    "datasheet",
    "faction",
    "model",
    "group",
    "option",
    "points",
    "min",
    "max",
    "weapons",
    "resolved",
    "hidden",
    "default",
    "points_modified",
    "option_id",
    "entry_id",
]
MAX_EXPANSIONS = 20_000
"""Most entries one datasheet's reading expands through its links (the shipped data's largest: 37)."""
MAX_LABEL = 60
"""Longest option group label written (longer ones are cut: they are figures' labels, not rules text)."""
_ARMOUR = {"Front Armour": "Front", "Side Armour": "Side", "Rear Armour": "Rear"}
_ENTRY_KEYS = ("sharedSelectionEntries", "selectionEntries", "sharedSelectionEntryGroups", "selectionEntryGroups")
_WEAPON_KINDS = HH3_RANGED_TYPES | HH3_MELEE_TYPES


@dataclass
class Hh3ImportReport:
    """What an import read and wrote, and what it could not resolve.

    Attributes:
        missing: One line per missing file group: which catalogues import a file that is not in the folder, and
            how many of their links resolve nowhere (the game system file, ``Legiones Astartes``...).
    """

    files: int = 0
    weapon_profiles: int = 0
    unit_profiles: int = 0
    datasheets: int = 0
    options: int = 0
    links_checked: int = 0
    unresolved: list[UnresolvedLink] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    dangling_datasheets: int = 0


def _text(value: Any) -> str:
    return " ".join(str(value).split()) if isinstance(value, (str, int, float)) and value is not None else ""


def _points(node: Node) -> float:
    """The ``Point(s)`` cost written on an entry or link (NaN when none)."""
    for cost in items(node, "costs"):
        if cost.get("typeId") == HH3_POINTS_TYPE_ID or cost.get("name") == "Point(s)":
            value = cost.get("value")
            if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                return float(value)
    return math.nan


def _cost_modified(*nodes: Node) -> bool:
    """Whether a modifier of any of ``nodes`` changes its ``Point(s)`` (by unit size, by a condition): such a cost
    is written as the data states it, unmodified, and flagged."""
    return any(m.get("field") == HH3_POINTS_TYPE_ID for n in nodes for m in items(n, "modifiers"))


def _limit(node: Node, kind: str) -> float:
    """The ``min``/``max`` on selections per parent a node's constraints declare (NaN when none; max -1 is none)."""
    for con in items(node, "constraints"):
        if con.get("type") != kind or con.get("field") != "selections":
            continue
        if con.get("scope") not in ("parent", None):
            continue
        value = con.get("value")
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0:
            return float(value)
    return math.nan


def _chars(profile: Node) -> dict[str, str]:
    out: dict[str, str] = {}
    for ch in items(profile, "characteristics"):
        out[_text(ch.get("name"))] = " ".join(str(ch.get("$text", "")).split())  # stray line breaks in lists
    return out


def _walk(root: Node) -> Iterator[tuple[Node, tuple[Node, ...]]]:
    """Every entry and group of a file with its ancestors (nearest last), iterative."""
    stack: list[tuple[Node, tuple[Node, ...]]] = [
        (child, ()) for key in _ENTRY_KEYS for child in reversed(items(root, key))
    ]
    while stack:
        node, above = stack.pop()
        yield node, above
        for key in _ENTRY_KEYS:
            stack.extend((c, (*above, node)) for c in reversed(items(node, key)))


def _profiles(node: Node, kinds: frozenset[str]) -> list[Node]:
    return [p for p in items(node, "profiles") if profile_kind(_text(p.get("typeName"))) in kinds]


def _faction(cat: JsonCatalogue) -> str:
    return cat.name or cat.stem


def weapons_rows(cat: JsonCatalogue) -> list[dict[str, Any]]:
    """One row per weapon profile defined in a file (its entry's name and points beside it)."""
    rows = []
    owners: list[tuple[str, float, Node]] = [("", math.nan, p) for p in _profiles(cat.root, _WEAPON_KINDS)]
    for node, _ in _walk(cat.root):
        owners.extend((_text(node.get("name")), _points(node), p) for p in _profiles(node, _WEAPON_KINDS))
    for entry, points, prof in owners:
        ch = _chars(prof)
        rows.append(
            {
                "name": _text(prof.get("name")),
                "profile_type": profile_kind(_text(prof.get("typeName"))),
                **{k: ch.get(k, "") for k in _WEAPON_STATS},
                "entry": entry,
                "points": points,
                "source": cat.stem,
                "profile_id": _text(prof.get("id")),
                "faction": _faction(cat),
            }
        )
    return rows


def units_rows(cat: JsonCatalogue) -> list[dict[str, Any]]:
    """One row per statline profile defined in a file (its entry and enclosing unit beside it)."""
    rows = []
    for node, above in _walk(cat.root):
        unit = next((a for a in reversed((*above, node)) if a.get("type") == "unit"), None)
        for prof in _profiles(node, HH3_STATLINE_TYPES):
            ch = {_ARMOUR.get(k, k): v for k, v in _chars(prof).items()}
            known = set(_UNIT_STATS) | set(_HULL_STATS)
            rows.append(
                {
                    "name": _text(prof.get("name")),
                    "profile_type": profile_kind(_text(prof.get("typeName"))),
                    **{k: ch.get(k, "") for k in [*_UNIT_STATS, *_HULL_STATS]},
                    "extra": "; ".join(f"{k}={v}" for k, v in ch.items() if k not in known),
                    "entry": _text(node.get("name")),
                    "unit": _text(unit.get("name")) if unit else "",
                    "points": _points(node),
                    "unit_points": _points(unit) if unit else math.nan,
                    "source": cat.stem,
                    "profile_id": _text(prof.get("id")),
                    "faction": _faction(cat),
                }
            )
    return rows


@dataclass
class _Sheet:
    """The rows of one datasheet under construction."""

    data: JsonData
    cat: JsonCatalogue
    unit: Node
    models: list[dict[str, Any]] = field(default_factory=list)
    options: list[dict[str, Any]] = field(default_factory=list)
    dangling: list[str] = field(default_factory=list)
    expanded: int = 0
    open: set[int] = field(default_factory=set)

    def target(self, node: Node) -> tuple[Node, bool]:
        """The entry a link points at (the node itself when it is no link), and whether it resolved."""
        if "targetId" not in node:
            return node, True
        hit = self.data.resolve(self.cat, _text(node.get("targetId")))
        if hit is None:
            self.dangling.append(_text(node.get("name")) or _text(node.get("targetId")))
            return node, False
        return hit[2], True

    def children(self, node: Node, group: str, owner: str) -> None:
        """Read the model slots and options under ``node`` (``owner``: ``(unit)`` or the model's name).

        A link back to an entry being read (a cycle) is reported in ``dangling``, not followed.

        Raises:
            UntrustedFileError: The datasheet expands past :data:`MAX_EXPANSIONS` entries (links fanning out).
        """
        if id(node) in self.open:
            self.dangling.append(f"a link cycle at {_text(node.get('name')) or _text(node.get('id'))}")
            return
        self.expanded += 1
        if self.expanded > MAX_EXPANSIONS:
            raise UntrustedFileError(
                f"{self.cat.path.name}: datasheet {_text(self.unit.get('name'))[:60]!r} expands past "
                f"{MAX_EXPANSIONS} entries through its links; refused"
            )
        self.open.add(id(node))
        try:
            self._read(node, group, owner)
        finally:
            self.open.discard(id(node))

    def _read(self, node: Node, group: str, owner: str) -> None:
        default = _text(node.get("defaultSelectionEntryId"))
        for key in ("selectionEntries", "entryLinks"):
            for child in items(node, key):
                self.child(child, group, owner, default)
        for key in ("selectionEntryGroups", "entryLinks"):
            for grp in items(node, key):
                if key == "entryLinks" and grp.get("type") != "selectionEntryGroup":
                    continue
                target, ok = self.target(grp)
                if ok:
                    self.children(target, _label(_text(grp.get("name"))), owner)

    def weapons(self, entry: Node) -> list[str]:
        """The weapon profiles an option brings: its own and those of the entries it holds (a bolter with a
        bayonet), links followed once each; a link that resolves nowhere is counted in ``dangling``."""
        names: list[str] = []
        stack, seen = [entry], {id(entry)}
        while stack:
            node = stack.pop()
            names.extend(_text(p.get("name")) for p in _profiles(node, _WEAPON_KINDS))
            for key in ("selectionEntries", "entryLinks"):
                for child in items(node, key):
                    if child.get("type") != "selectionEntryGroup":
                        target, ok = self.target(child)
                        if ok and id(target) not in seen:
                            seen.add(id(target))
                            stack.append(target)
        return list(dict.fromkeys(names))

    def child(self, node: Node, group: str, owner: str, default: str = "") -> None:
        if node.get("type") == "selectionEntryGroup":
            return  # read by children() as a group
        target, ok = self.target(node)
        kind = target.get("type") if ok else node.get("type")
        cost = _points(node)
        cost = _points(target) if math.isnan(cost) else cost
        name = _text(node.get("name")) or _text(target.get("name"))
        if ok and kind == "model":
            prof = _profiles(target, HH3_STATLINE_TYPES)
            self.models.append(
                {
                    "model": name,
                    "min": _limit(node, "min") if not math.isnan(_limit(node, "min")) else _limit(target, "min"),
                    "max": _limit(node, "max") if not math.isnan(_limit(node, "max")) else _limit(target, "max"),
                    "points": 0.0 if math.isnan(cost) else cost,
                    "points_modified": _cost_modified(node, target),
                    "group": group,
                    "profile_id": _text(prof[0].get("id")) if prof else "",
                    "model_id": _text(node.get("id")),
                    "entry_id": _text(target.get("id")),
                }
            )
            self.children(target, "", name)
            return
        weapons = self.weapons(target) if ok else []
        self.options.append(
            {
                "model": owner,
                "group": group,
                "option": name,
                "points": 0.0 if math.isnan(cost) else cost,
                "min": _limit(node, "min"),
                "max": _limit(node, "max"),
                "weapons": "; ".join(weapons),
                "resolved": ok,
                "hidden": bool(node.get("hidden")) or bool(target.get("hidden")),
                "default": bool(default) and _text(node.get("id")) == default,
                "points_modified": _cost_modified(node, target) if ok else _cost_modified(node),
                "option_id": _text(node.get("id")),
                "entry_id": _text(target.get("id")) if ok else _text(node.get("targetId")),
            }
        )


def _span(low: float, high: float) -> str:
    low = 0.0 if math.isnan(low) else low
    return f"{low:g}+" if math.isnan(high) else f"{low:g}-{high:g}"


def _label(text: str) -> str:
    """An option group's label, cut at :data:`MAX_LABEL` characters (some are whole sentences of the book)."""
    return text if len(text) <= MAX_LABEL else text[: MAX_LABEL - 3].rstrip() + "..."


def _datasheet(data: JsonData, cat: JsonCatalogue, unit: Node) -> tuple[dict[str, Any], list[Node], list[Node]]:
    sheet = _Sheet(data, cat, unit)
    sheet.children(unit, "", "(unit)")
    name, faction = _text(unit.get("name")), _faction(cat)
    own = _points(unit)
    own = 0.0 if math.isnan(own) else own
    mins = [0.0 if math.isnan(m["min"]) else m["min"] for m in sheet.models]
    maxes = [m["max"] for m in sheet.models]
    growing = [m["points"] for m in sheet.models if math.isnan(m["max"]) or m["max"] > (m["min"] or 0)]
    row = {
        "name": name,
        "faction": faction,
        "min_models": sum(mins),
        "max_models": math.nan if any(math.isnan(x) for x in maxes) else sum(maxes),
        "base_points": own + sum(n * m["points"] for n, m in zip(mins, sheet.models, strict=True)),
        "points_per_model": growing[0] if growing else 0.0,
        "unit_points": own,
        "points_modified": _cost_modified(unit) or any(m["points_modified"] for m in sheet.models),
        "models": "; ".join(f"{_span(m['min'], m['max'])} {m['model']}" for m in sheet.models),
        "hidden": bool(unit.get("hidden")),
        "dangling": "; ".join(dict.fromkeys(sheet.dangling)),
        "source": cat.stem,
        "entry_id": _text(unit.get("id")),
    }
    tag = {"datasheet": name, "faction": faction}
    return row, [{**tag, **m} for m in sheet.models], [{**tag, **o} for o in sheet.options]


def hh3_frames(data: JsonData) -> dict[str, pd.DataFrame]:
    """The catalogs of a loaded data set, by file name (``weapons.csv``, ``units.csv``, the datasheet tables)."""
    weapons, units, sheets, models, options = [], [], [], [], []
    for cat in data.files:
        weapons.extend(weapons_rows(cat))
        units.extend(units_rows(cat))
        for node, above in _walk(cat.root):
            if node.get("type") == "unit" and not any(a.get("type") == "unit" for a in above):
                row, slot_rows, option_rows = _datasheet(data, cat, node)
                sheets.append(row)
                models.extend(slot_rows)
                options.extend(option_rows)
    return {
        "weapons.csv": pd.DataFrame(weapons, columns=HH3_WEAPON_COLUMNS),
        "units.csv": pd.DataFrame(units, columns=HH3_UNIT_COLUMNS),
        "datasheets.csv": pd.DataFrame(sheets, columns=HH3_DATASHEET_COLUMNS),
        "datasheet_models.csv": pd.DataFrame(models, columns=HH3_MODEL_COLUMNS),
        "wargear_options.csv": pd.DataFrame(options, columns=HH3_OPTION_COLUMNS),
    }


def missing_lines(data: JsonData, unresolved: list[UnresolvedLink]) -> list[str]:
    """One line per missing file (who imports it), then one per catalogue with dangling links (how many, of what)."""
    importers: dict[str, list[str]] = {}
    for cat in data.files:
        for name in data.missing_imports(cat):
            importers.setdefault(name, []).append(cat.stem)
    rooted: dict[str, list[str]] = {}
    for cat in data.files:
        for imp in items(cat.root, "catalogueLinks"):
            if imp.get("importRootEntries") is True and _text(imp.get("targetId")) not in data.catalogues:
                rooted.setdefault(repr(_text(imp.get("name")) or _text(imp.get("targetId"))), []).append(cat.stem)
    lines = []
    for name, cats in importers.items():
        line = (
            f"missing: {name} (needed by {len(cats)} files: {', '.join(cats[:4])}{', ...' if len(cats) > 4 else ''}); "
            "what only it defines is not built (datasheets, option groups, profiles, categories)"
        )
        if name in rooted:
            line += (
                f"; {len(rooted[name])} catalogues take its units as their own (importRootEntries): those datasheets "
                "are missing from theirs, and a roster of them reads from the profiles it embeds"
            )
        lines.append(line)
    by_file: dict[str, Counter[str]] = {}
    for link in unresolved:
        by_file.setdefault(link.catalogue, Counter())[link.kind] += 1
    for stem, kinds in by_file.items():
        cat = next(c for c in data.files if c.stem == stem)
        shown = ", ".join(f"{n} {k}" for k, n in kinds.most_common())
        lines.append(
            f"dangling: {stem}: {sum(kinds.values())} links resolve nowhere ({shown}); "
            f"missing from its scope: {', '.join(data.missing_imports(cat)) or 'nothing (a bad id)'}"
        )
    return lines


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_hh3_catalog(
    folder: str | Path, out_dir: str | Path, source: Mapping[str, str] | None = None
) -> Hh3ImportReport:
    """Import a folder of the 3rd edition's JSON data into ``out_dir`` (the catalogs and ``provenance.json``).

    Args:
        folder: The data files (``*.json``, not recursive).
        out_dir: Destination (created if needed).
        source: Where the files come from (``repository``, ``commit``...), written into the provenance.

    Raises:
        UntrustedFileError: A file refused (size, nesting, not JSON, another game), or none found.
    """
    data = JsonData.load(folder)
    report = Hh3ImportReport(files=len(data.files))
    report.unresolved = data.check_links()
    report.links_checked = data.links_checked
    report.missing = missing_lines(data, report.unresolved)
    frames = hh3_frames(data)
    report.weapon_profiles = len(frames["weapons.csv"])
    report.unit_profiles = len(frames["units.csv"])
    report.datasheets = len(frames["datasheets.csv"])
    report.options = len(frames["wargear_options.csv"])
    report.dangling_datasheets = int((frames["datasheets.csv"]["dangling"] != "").sum())
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for name, frame in frames.items():  # each file whole or not at all (docs/limits.md)
        atomic_write_text(out / name, frame.to_csv(index=False, lineterminator="\n"))
    provenance = {
        "edition": "hh3",
        "source": dict(source or {}),
        "game_system_id": data.files[0].game_system_id,
        "generated": _dt.date.today().isoformat(),
        "generator": "praetor_analysis.bsdata.importer_hh3.build_hh3_catalog",
        "content": "figures only (statlines, weapon characteristics, rule names, points); no rules text",
        "files": {c.path.name: {"bytes": c.path.stat().st_size, "sha256": _sha256(c.path)} for c in data.files},
        "missing": report.missing,
        "counts": {
            "files": report.files,
            "weapon_profiles": report.weapon_profiles,
            "unit_profiles": report.unit_profiles,
            "datasheets": report.datasheets,
            "datasheets_with_dangling_links": report.dangling_datasheets,
            "datasheet_models": len(frames["datasheet_models.csv"]),
            "wargear_options": report.options,
            "links_checked": report.links_checked,
            "unresolved_links": len(report.unresolved),
        },
    }
    atomic_write_text(out / "provenance.json", json.dumps(provenance, indent=1) + "\n")
    return report
