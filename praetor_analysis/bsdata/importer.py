"""Build the shipped catalogs (``data/*.csv``, ``provenance.json``) from BattleScribe files.

Only figures are extracted: statlines, weapon characteristics, rule names and values, points, and the
number of an invulnerable save found in wargear or rule text. Rules text itself is never written.

Usage::

    from praetor_analysis.bsdata.importer import build_catalog
    report = build_catalog("PATH/TO/bsdata", "data")
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from xml.etree.ElementTree import Element

import pandas as pd

from praetor_analysis.bsdata.columns import STAT_COLUMNS, UNIT_COLUMNS, WEAPON_COLUMNS, distinct_profiles
from praetor_analysis.bsdata.datasheets import datasheet_frames
from praetor_analysis.bsdata.files import (
    PROFILE_TYPE_IDS,
    BSData,
    Catalogue,
    Described,
    UnresolvedLink,
    UntrustedFileError,
    entry_points,
    local,
    profile_characteristics,
)
from praetor_analysis.bsdata.wargear_saves import WARGEAR, Defences, read_described
from praetor_analysis.io import atomic_write_text
from praetor_analysis.profiles import SHOT_TYPES, clean_type, rule_name, split_type
from praetor_analysis.rules import Holder, lookup

__all__ = [
    "SOURCE_COMMIT",
    "SOURCE_REPOSITORY",
    "TARGET_COLUMNS",
    "TARGET_SPECS",
    "UNIT_COLUMNS",
    "WEAPON_COLUMNS",
    "ImportReport",
    "build_catalog",
    "faction_of",
    "rule_names_frame",
    "targets_frame",
    "units_frame",
    "weapons_frame",
]

SOURCE_REPOSITORY = "https://github.com/BSData/horus-heresy"
SOURCE_COMMIT = "068ff339b5e97c79c44b77522862da7941eb5315"
LEGIONES_EXCEPTION = {
    "file": "2022 - Legiones Astartes.cat",
    "commit": "2509efc1288becb2f0074416f572a58233c3ab11",
    "revision": 139,
    "date": "2023-05-31",
    "note": "older than the rest of the data set; some links from 2025 Legion catalogues do not resolve",
}

TARGET_COLUMNS = ["archetype", "models", *UNIT_COLUMNS, "note"]

_STATLINE_KINDS = ("unit", "vehicle", "knight", "fortification")
_WEAPON_KINDS = ("weapon", "psychic_weapon")


@dataclass(frozen=True)
class TargetSpec:
    """A curated target archetype: which profile it is, how many models, and any override."""

    archetype: str
    source: str
    profile_id: str
    models: int
    invulnerable: str | None = None
    note: str = ""


TARGET_SPECS: tuple[TargetSpec, ...] = (
    TargetSpec("Legionary (Tactical Squad)", "2022 - Legiones Astartes", "5bf2-8597-cc05-f7c5", 10),
    TargetSpec("Cataphractii Terminator", "2022 - Legiones Astartes", "9767-9cdc-ef59-6d7f", 5),
    TargetSpec("Tartaros Terminator", "2022 - Legiones Astartes", "7aea-92c5-6016-dfaf", 5),
    TargetSpec("Militia (Infantry Squad)", "2022 - Imperialis Militia", "7250-9d16-27d3-12f6", 20),
    TargetSpec("Contemptor Dreadnought", "2022 - Legiones Astartes", "50ed-5364-02bb-6bdb", 1),
    TargetSpec("Rhino", "2022 - Legiones Astartes", "ab48-605d-a6cc-7ad6", 1),
    TargetSpec("Land Raider Proteus", "2022 - Legiones Astartes", "2a46-a372-d986-d0eb", 1),
    TargetSpec("Land Raider Phobos", "2022 - Legiones Astartes", "c3ae-4428-5f79-c094", 1),
    TargetSpec(
        "Knight Questoris (ion shield)",
        "2022 - Mech Library",
        "4e47-1b1d-3b5d-e6b6",
        1,
        note="ion shield: an invulnerable save against shooting only, 4+ on the Front and 5+ on the Side",
    ),
    TargetSpec("Custodian Guard", "2022 - LI - Custodes", "cf1b-e0d6-ddd9-24e6", 5),
    TargetSpec("Veletarii (Storm Section)", "2022 - LI - Solar Auxilia", "9d8f-243d-7020-9043", 10),
)
"""Standard targets; rebuilt into ``targets.csv`` from the profiles they name."""


@dataclass
class ImportReport:
    """What :func:`build_catalog` did.

    Attributes:
        files: Data files read (game system + catalogues).
        weapon_profiles: Weapon rows written.
        distinct_weapons: Distinct profiles (:func:`~praetor_analysis.bsdata.columns.distinct_profiles`: Range,
            Strength, AP and Type; the name aside).
        unit_profiles: Statline rows written.
        links_checked: Links tried.
        unresolved: Links that did not resolve (reported, not fatal).
        corrected_tokens: Corrections made while cleaning Type strings (all rows).
        corrections: Corrections by (original, corrected, reason), counted.
        texts_not_read: Weapon profiles whose Type carries text after its first line, which the importer does
            not read (it may change attacks or rules: a pair of Raven's Talons): named, once each.
    """

    files: int = 0
    weapon_profiles: int = 0
    distinct_weapons: int = 0
    unit_profiles: int = 0
    links_checked: int = 0
    unresolved: list[UnresolvedLink] = field(default_factory=list)
    corrected_tokens: int = 0
    texts_not_read: list[str] = field(default_factory=list)
    corrections: Counter = field(default_factory=Counter)


def faction_of(stem: str) -> str:
    """Faction label from a catalogue file stem: ``2022 - LA - Dark Angels`` -> ``Dark Angels``."""
    name = re.sub(r"^\d{4} - ", "", stem)
    return re.sub(r"^(LA|LI|BG|Daemons) - ", "", name)


def _norm(text: str | None) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def _kind(profile: Element) -> str | None:
    tid = profile.get("typeId")
    for kind, pid in PROFILE_TYPE_IDS.items():
        if pid == tid:
            return kind
    return None


def _entries(cat: Catalogue, profile: Element) -> tuple[Element | None, Element | None]:
    """Nearest enclosing selectionEntry, and nearest enclosing selectionEntry of type unit."""
    owner = unit = None
    for anc in cat.ancestors(profile):
        if local(anc.tag) != "selectionEntry":
            continue
        if owner is None:
            owner = anc
        if anc.get("type") == "unit":
            unit = anc
            break
    return owner, unit


def _defences(data: BSData, cat: Catalogue, profile: Element) -> Defences:
    """What the rules and mandatory wargear of the model's entry and its enclosing entries up to the unit give it,
    read clause by clause (:func:`~praetor_analysis.bsdata.wargear_saves.read_described`).

    Mandatory wargear named as a declared rule that a unit holds (the Ion Shield) becomes that rule, and its text
    is not read: the engine models it (e.g. 4+ on the Front, 5+ on the Side, against shooting only), where a plain
    ``4+`` would also save in melee and on the Rear.
    """
    items: list[Described] = []
    for anc in cat.ancestors(profile):
        if local(anc.tag) != "selectionEntry":
            continue
        items.extend(_kinds(data.described(cat, anc)))
        for ccat, child in data.mandatory_children(cat, anc):
            if child.get("type") in ("model", "unit"):
                continue
            name = _norm(child.get("name"))
            decl = lookup(name)
            if decl is not None and decl.holder is Holder.UNIT:
                items.append(Described(name, WARGEAR, ()))
                continue
            items.extend(_kinds(data.described(ccat, child)))
        if anc.get("type") == "unit":
            break
    return read_described(items)


def _kinds(items: list[Described]) -> list[Described]:
    """``items`` with a Wargear Item profile's kind written :data:`WARGEAR`."""
    wargear = PROFILE_TYPE_IDS["wargear"]
    return [Described(d.name, WARGEAR, d.texts) if d.kind == wargear else d for d in items]


def _common(cat: Catalogue, profile: Element) -> dict[str, object]:
    return {"source": cat.stem, "profile_id": profile.get("id", ""), "faction": faction_of(cat.stem)}


def weapons_frame(data: BSData, report: ImportReport | None = None) -> pd.DataFrame:
    """One row per weapon or psychic weapon profile defined in the data (see :data:`WEAPON_COLUMNS`).

    ``Type`` is the raw string cut at the first newline (rules text never ships); ``Type_clean`` is
    :func:`~praetor_analysis.profiles.vocabulary.clean_type` of it and ``corrections`` the number of fixes.
    ``points`` is the cost on the entry defining the profile (links may override it).
    """
    rows = []
    for cat, prof in data.profiles():
        kind = _kind(prof)
        if kind not in _WEAPON_KINDS:
            continue
        ch = profile_characteristics(prof, data.characteristic_names)
        raw = (ch.get("Type") or "").strip().split("\n", 1)[0].rstrip()
        cleaned, fixes = clean_type(ch.get("Type") or "")
        if report is not None:
            name = _norm(prof.get("name"))
            if "\n" in (ch.get("Type") or "").strip() and name not in report.texts_not_read:
                report.texts_not_read.append(name)
            report.corrected_tokens += len(fixes)
            report.corrections.update((f.original, f.corrected, f.reason) for f in fixes)
        owner, _ = _entries(cat, prof)
        rows.append(
            {
                "name": _norm(prof.get("name")),
                "Range": _norm(ch.get("Range")),
                "Strength": _norm(ch.get("Strength")),
                "AP": _norm(ch.get("AP")),
                "Type": raw,
                "Type_clean": cleaned,
                "corrections": len(fixes),
                "profile_type": data.profile_type_names.get(prof.get("typeId", ""), kind),
                "entry": _norm(owner.get("name")) if owner is not None else "",
                "points": entry_points(owner) if owner is not None else None,
                **_common(cat, prof),
            }
        )
    return pd.DataFrame(rows, columns=WEAPON_COLUMNS)


def units_frame(data: BSData) -> pd.DataFrame:
    """One row per unit, vehicle, knight/titan or fortification profile (see :data:`UNIT_COLUMNS`).

    Missing characteristics are empty strings (an infantry model has no Front). ``Invulnerable`` is
    the best invulnerable save granted by the rules and mandatory wargear of the model's entry and
    its enclosing entries up to the unit (e.g. ``4+``). ``points`` is the cost on the entry defining
    the profile, ``unit_points`` the cost on the enclosing unit entry; modifiers are not applied.
    """
    rows = []
    for cat, prof in data.profiles():
        kind = _kind(prof)
        if kind not in _STATLINE_KINDS:
            continue
        ch = profile_characteristics(prof, data.characteristic_names)
        owner, unit = _entries(cat, prof)
        row: dict[str, object] = {
            "name": _norm(prof.get("name")),
            "profile_type": data.profile_type_names.get(prof.get("typeId", ""), kind),
        }
        row.update({c: _norm(ch.get(c)) for c in STAT_COLUMNS})
        defences = _defences(data, cat, prof)
        own = str(row["Save"])
        if defences.armour and own[:1].isdigit() and int(defences.armour[0]) < int(own[0]):
            row["Save"] = defences.armour  # the statline already holds its armour (no such row today)
        row["Invulnerable"] = defences.invulnerable
        row["rules"] = ";".join(defences.rules)
        row["not_modelled"] = ";".join(defences.not_modelled)
        row.update(
            {
                "entry": _norm(owner.get("name")) if owner is not None else "",
                "unit": _norm(unit.get("name")) if unit is not None else "",
                "points": entry_points(owner) if owner is not None else None,
                "unit_points": entry_points(unit) if unit is not None else None,
                **_common(cat, prof),
            }
        )
        rows.append(row)
    return pd.DataFrame(rows, columns=UNIT_COLUMNS)


def targets_frame(units: pd.DataFrame, specs: tuple[TargetSpec, ...] = TARGET_SPECS) -> pd.DataFrame:
    """Standard target archetypes, each copied from the unit profile its spec names.

    Raises:
        KeyError: If a spec names a profile absent from ``units``.
    """
    rows = []
    for spec in specs:
        hit = units[(units["source"] == spec.source) & (units["profile_id"] == spec.profile_id)]
        if hit.empty:
            raise UntrustedFileError(f"target {spec.archetype!r}: no profile {spec.profile_id} in {spec.source}")
        row = {"archetype": spec.archetype, "models": spec.models, **hit.iloc[0].to_dict(), "note": spec.note}
        if spec.invulnerable is not None:
            row["Invulnerable"] = spec.invulnerable
        rows.append(row)
    return pd.DataFrame(rows, columns=TARGET_COLUMNS)


def rule_names_frame(weapons: pd.DataFrame) -> pd.DataFrame:
    """Canonical weapon rule names in the cleaned Type strings, with value form and profile count.

    Columns: name, value (``(X)`` for a parenthesised value, ``N`` for a shot count, empty for
    none), profiles (number of weapon rows using it).
    """
    counts: Counter = Counter()
    forms: dict[str, Counter] = {}
    for text in weapons["Type_clean"]:
        for tok in split_type(text):
            name = rule_name(tok)
            value = tok[len(name) :].strip()
            counts[name] += 1
            form = "(X)" if value.startswith("(") else ("N" if value else "")
            forms.setdefault(name, Counter())[form] += 1
    rows = []
    for name in sorted(counts, key=str.lower):
        if forms[name]["(X)"] and name not in SHOT_TYPES:
            form = "(X)"
        else:
            form = "N" if forms[name]["N"] or forms[name]["(X)"] else ""
        rows.append({"name": name, "value": form, "profiles": counts[name]})
    return pd.DataFrame(rows, columns=["name", "value", "profiles"])


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_catalog(bsdata_dir: str | Path, out_dir: str | Path) -> ImportReport:
    """Rebuild ``weapons.csv``, ``units.csv``, ``targets.csv``, ``rule_names.csv``, the datasheet tables
    (``datasheets.csv``, ``datasheet_models.csv``, ``wargear_options.csv``) and ``provenance.json``.

    Args:
        bsdata_dir: Folder with one ``.gst`` and the ``.cat`` files.
        out_dir: Destination folder (created if needed, once the input has been read; each file is written
            whole or not at all).

    Returns:
        An :class:`ImportReport` with counts and the unresolved links.
    """
    bsdata_dir, out_dir = Path(bsdata_dir), Path(out_dir)
    data = BSData.load(bsdata_dir)
    report = ImportReport(files=len(data.files()))
    report.unresolved = data.check_links()
    report.links_checked = data.links_checked

    weapons = weapons_frame(data, report)
    units = units_frame(data)
    targets = targets_frame(units)
    names = rule_names_frame(weapons)
    report.weapon_profiles = len(weapons)
    report.distinct_weapons = len(distinct_profiles(weapons))
    report.unit_profiles = len(units)

    datasheets, models, options = datasheet_frames(data, faction_of)
    written = {
        "datasheets.csv": datasheets,
        "datasheet_models.csv": models,
        "wargear_options.csv": options,
        "weapons.csv": weapons,
        "units.csv": units,
        "targets.csv": targets,
        "rule_names.csv": names,
    }
    out_dir.mkdir(parents=True, exist_ok=True)  # only once the input has been read whole
    for file_name, frame in written.items():
        atomic_write_text(out_dir / file_name, frame.to_csv(index=False, lineterminator="\n"))

    provenance = {
        "source_repository": SOURCE_REPOSITORY,
        "commit": SOURCE_COMMIT,
        "exception": LEGIONES_EXCEPTION,
        "generated": _dt.date.today().isoformat(),
        "generator": "praetor_analysis.bsdata.importer.build_catalog",
        "content": "figures only (statlines, weapon characteristics, rule names and values, points); no rules text",
        "files": {c.path.name: {"bytes": c.path.stat().st_size, "sha256": _sha256(c.path)} for c in data.files()},
        "counts": {
            "files": report.files,
            "weapon_profiles": report.weapon_profiles,
            "distinct_weapons": report.distinct_weapons,
            "unit_profiles": report.unit_profiles,
            "targets": len(targets),
            "datasheets": len(datasheets),
            "datasheet_models": len(models),
            "wargear_options": len(options),
            "rule_names": len(names),
            "links_checked": report.links_checked,
            "unresolved_links": len(report.unresolved),
            "type_corrections": report.corrected_tokens,
        },
        "unresolved_links": [u.__dict__ for u in report.unresolved],
    }
    atomic_write_text(out_dir / "provenance.json", json.dumps(provenance, indent=1, ensure_ascii=False) + "\n")
    return report
