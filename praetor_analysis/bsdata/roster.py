"""Rosters exported by BattleScribe or New Recruit (``.ros``, zipped ``.rosz``).

A roster is a tree of selections inside forces. Its units are found wherever they sit in the tree
(:mod:`praetor_analysis.bsdata.roster_tree`: under an upgrade, in a nested force; a dedicated transport
nested in a unit is its own unit). Any selection carrying a unit, vehicle, knight or fortification profile
contributes models; its ``number`` attribute is already the total. Weapons are the weapon profiles of the
unit's selections, counted the same way, times the count a selection's name gives (``"2x Lascannon
Array"``). Points are the sum of the ``Pts`` costs of the unit's selections; the costed selections outside
every unit are the roster's ``loose`` points, listed beside the units (docs/rosters.md).

Files are untrusted: XML goes through :func:`~praetor_analysis.bsdata.files.parse_xml_bytes` and a
``.rosz`` is unpacked in memory, in chunks, with bounds on entry count and uncompressed size.
"""

from __future__ import annotations

import io
import struct
import zipfile
import zlib
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING
from xml.etree.ElementTree import Element

from praetor_analysis.bsdata.files import (
    PROFILE_TYPE_IDS,
    PTS_COST_TYPE_ID,
    Described,
    UntrustedFileError,
    checked_path,
    children,
    local,
    parse_xml_bytes,
    read_regular_file,
)
from praetor_analysis.bsdata.game_system import identify
from praetor_analysis.bsdata.roster_hh3 import read_hh3_roster
from praetor_analysis.bsdata.roster_records import (
    ModelCount,
    Roster,
    RosterUnit,
    WeaponCount,
    selection_cost,
    selection_number,
)
from praetor_analysis.bsdata.roster_tree import is_statline, is_weapon, loose_selections, name_count, unit_nodes
from praetor_analysis.bsdata.wargear_saves import Defences, WargearReading, read_described, read_wargear
from praetor_analysis.engine import MAX_NAME_CHARS
from praetor_analysis.profiles import clean_type

if TYPE_CHECKING:  # pandas is loaded by the frames below, not by this module's import
    import pandas as pd

__all__ = [
    "MAX_ROSZ_BYTES",
    "MAX_ROSZ_ENTRIES",
    "MAX_ROSZ_FILE_BYTES",
    "ModelCount",
    "Roster",
    "RosterUnit",
    "WeaponCount",
    "read_roster",
    "read_roster_bytes",
    "roster_units_frame",
    "roster_weapons_frame",
    "selection_number",
    "selection_points",
    "selection_rules",
    "selection_saves",
    "selection_statline",
    "selection_wargear",
    "selection_weapons",
    "unzip_roster",
]

MAX_ROSZ_ENTRIES = 4
"""Most entries accepted in a ``.rosz`` archive (a real one holds one ``.ros``)."""
MAX_ROSZ_BYTES = 50 * 1024 * 1024
"""Most bytes a ``.rosz`` may unpack to; reading stops as soon as this is passed."""
MAX_ROSZ_FILE_BYTES = 50 * 1024 * 1024
"""Largest roster file accepted on disk."""
MAX_ROSTER_UNITS = 1_000
"""Most unit selections read from one roster (a list is at most 200 units; empty selections count too)."""

_CHUNK = 64 * 1024
_WEAPON_KEY = ("name", "Range", "Strength", "AP", "Type")


def _unzip_bounded(data: bytes, name: str) -> tuple[bytes, str]:
    """Return the single ``.ros`` inside a ``.rosz``, refusing archives that unpack too far."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (
        zipfile.BadZipFile,
        zlib.error,
        struct.error,
        ValueError,
        OverflowError,
        EOFError,
        OSError,
        NotImplementedError,
        RuntimeError,
    ) as exc:
        raise UntrustedFileError(f"{name}: not a valid .rosz archive ({exc})") from exc
    with archive:
        infos = archive.infolist()
        if len(infos) > MAX_ROSZ_ENTRIES:
            raise UntrustedFileError(f"{name}: archive holds {len(infos)} entries (limit {MAX_ROSZ_ENTRIES})")
        members = [i for i in infos if not i.is_dir() and i.filename.lower().endswith(".ros")]
        if len(members) != 1:
            raise UntrustedFileError(f"{name}: expected exactly one .ros in the archive, found {len(members)}")
        info = members[0]
        if info.file_size > MAX_ROSZ_BYTES:
            raise UntrustedFileError(
                f"{name}: {info.filename} declares {info.file_size} bytes uncompressed (limit {MAX_ROSZ_BYTES})"
            )
        buf = bytearray()
        try:
            with archive.open(info) as fh:
                while chunk := fh.read(_CHUNK):
                    buf += chunk
                    if len(buf) > MAX_ROSZ_BYTES:
                        raise UntrustedFileError(
                            f"{name}: {info.filename} unpacks past {MAX_ROSZ_BYTES} bytes; refused"
                        )
        except (
            zipfile.BadZipFile,
            zlib.error,
            struct.error,
            NotImplementedError,
            RuntimeError,
            OSError,
            EOFError,
            ValueError,
            OverflowError,
        ) as exc:
            raise UntrustedFileError(f"{name}: cannot unpack {info.filename} ({exc})") from exc
        return bytes(buf), info.filename


def unzip_roster(data: bytes, name: str) -> bytes:
    """The ``.ros`` document of a roster's bytes: unpacked (bounded) from a ``.rosz``, else as given."""
    return _unzip_bounded(bytes(data), name)[0] if data[:4] == b"PK\x03\x04" else bytes(data)


def selection_points(sel: Element) -> float:
    """The ``Pts`` cost recorded on one roster selection (or the roster), 0 when none."""
    return _pts(sel)


def selection_statline(sel: Element) -> tuple[str, dict[str, str]] | None:
    """The (name, characteristics) of the unit, vehicle, knight or fortification profile a selection
    carries itself, or None."""
    for prof in children(sel, "profiles", "profile"):
        if is_statline(prof):
            return _name(prof), _chars(prof)
    return None


def selection_weapons(sel: Element) -> list[dict[str, str]]:
    """The weapon profiles a selection carries itself (see :class:`WeaponCount` for the fields)."""
    return [_weapon_profile(p) for p in children(sel, "profiles", "profile") if is_weapon(p)]


def selection_wargear(sel: Element) -> WargearReading:
    """What the wargear item profiles a selection carries itself give their bearer, read clause by clause
    (:func:`~praetor_analysis.bsdata.wargear_saves.read_wargear`)."""
    texts = [
        t
        for p in children(sel, "profiles", "profile")
        if _is(p, {PROFILE_TYPE_IDS["wargear"]}, {"Wargear Item"})
        for t in _chars(p).values()
    ]
    return read_wargear(texts)


def selection_rules(sel: Element) -> Defences:
    """What the rules a selection carries itself give its models, read as the catalog reads a datasheet's
    (:func:`~praetor_analysis.bsdata.wargear_saves.read_described`: a save rule the engine declares by its name,
    ``Adamantium Will (3+)``; another rule's description for its saves)."""
    rules = [
        Described(_name(r), "rule", tuple((d.text or "") for d in r if local(d.tag) == "description"))
        for r in children(sel, "rules", "rule")
    ]
    return read_described(rules) if rules else Defences()


def selection_saves(sel: Element) -> tuple[str, str]:
    """``(armour, invulnerable)``: the saves the wargear item profiles a selection carries itself grant outright
    (:func:`selection_wargear`; ``""`` for none)."""
    reading = selection_wargear(sel)
    return reading.armour, reading.invulnerable


def _pts(sel: Element) -> float:
    return selection_cost(sel, PTS_COST_TYPE_ID, "pts")


def _chars(profile: Element) -> dict[str, str]:
    return {
        (c.get("name") or "").strip(): (c.text or "").strip()
        for c in children(profile, "characteristics", "characteristic")
    }


def _is(profile: Element, ids: set[str] | dict[str, str], names: set[str]) -> bool:
    tid = profile.get("typeId")
    if tid in ids:
        return True
    return tid is None and (profile.get("typeName") or "").strip() in names


def _weapon_profile(profile: Element) -> dict[str, str]:
    ch = _chars(profile)
    raw = ch.get("Type", "")
    return {
        "name": _name(profile),
        "Range": ch.get("Range", ""),
        "Strength": ch.get("Strength", ""),
        "AP": ch.get("AP", ""),
        "Type": raw.split("\n", 1)[0].rstrip(),
        "Type_clean": clean_type(raw)[0],
        "profile_type": (profile.get("typeName") or "").strip(),
        "profile_id": (profile.get("id") or "").split("::")[-1],
    }


def _fill(unit: RosterUnit, sel: Element) -> None:
    """Add a selection's models, weapons and points to ``unit`` (a nested unit is read on its own)."""
    n = selection_number(sel)
    times = name_count(sel)
    unit.points += _pts(sel)
    for prof in children(sel, "profiles", "profile"):
        if is_statline(prof):
            model = ModelCount(_name(prof), n, _chars(prof))
            for i, known in enumerate(unit.models):
                if (known.name, known.statline) == (model.name, model.statline):
                    unit.models[i] = replace(known, count=known.count + n)
                    break
            else:
                unit.models.append(model)
        elif is_weapon(prof):
            wp = _weapon_profile(prof)
            key = [wp[k] for k in _WEAPON_KEY]
            for i, weapon in enumerate(unit.weapons):
                if [weapon.profile[k] for k in _WEAPON_KEY] == key:
                    unit.weapons[i] = WeaponCount(weapon.profile, weapon.count + n * times)
                    break
            else:
                unit.weapons.append(WeaponCount(wp, n * times))
    for child in children(sel, "selections", "selection"):
        if child.get("type") != "unit":
            _fill(unit, child)


def _unit(sel: Element, force: str, parent: str = "") -> RosterUnit:
    unit = RosterUnit(_name(sel), force=force, parent=parent)
    _fill(unit, sel)
    return unit


def read_roster_bytes(data: bytes, name: str) -> Roster:
    """Read a roster from bytes: a ``.ros`` document or a ``.rosz`` zip (detected by content).

    Raises:
        UntrustedFileError: Forbidden XML, oversized or malformed archive, or not a roster.
    """
    if not isinstance(data, (bytes, bytearray)):
        raise UntrustedFileError(f"{name}: expected the roster as bytes, got {type(data).__name__}")
    if len(data) > MAX_ROSZ_FILE_BYTES:
        raise UntrustedFileError(f"{name}: roster of {len(data)} bytes exceeds {MAX_ROSZ_FILE_BYTES} bytes")
    if data[:4] == b"PK\x03\x04":
        data, _ = _unzip_bounded(bytes(data), name)
    root = parse_xml_bytes(data, name)
    if local(root.tag) != "roster":
        raise UntrustedFileError(f"{name}: root element <{local(root.tag)[:60]}> is not a roster")
    system = identify(root, name)  # the game first: another game's roster is refused here
    if system.edition == "hh3":
        return read_hh3_roster(root, bytes(data), name, system)
    try:
        nodes = unit_nodes(root)
        if len(nodes) > MAX_ROSTER_UNITS:
            raise UntrustedFileError(
                f"{len(nodes)} unit selections (empty ones too), more than {MAX_ROSTER_UNITS}: not a roster to read"
            )
        units = [_unit(sel, force, parent) for sel, force, parent in nodes]
        loose = tuple((_name(sel), _pts(sel)) for sel, _ in loose_selections(root) if _pts(sel))
        total = _pts(root)
    except UntrustedFileError as exc:
        raise UntrustedFileError(f"{name}: {exc}") from None
    notes = (system.note,) if system.note else ()
    return Roster((root.get("name") or "").strip(), units, total, bytes(data), loose, "hh2", notes)


def _name(sel: Element) -> str:
    """A selection's or profile's name, spaces collapsed; one longer than MAX_NAME_CHARS is refused."""
    raw = sel.get("name") or ""
    if len(raw) > MAX_NAME_CHARS:
        shown = f"{raw[:57]}... ({len(raw)} characters)"
        raise UntrustedFileError(
            f"{local(sel.tag)} {shown!r}: a name of {len(raw)} characters (at most {MAX_NAME_CHARS})"
        )
    return " ".join(raw.split())


def read_roster(path: str | Path) -> Roster:
    """Read a ``.ros``, ``.rosz`` (or a renamed ``.ros`` such as New Recruit's ``.test``) file.

    Args:
        path: The roster file.

    Returns:
        The roster, its units with model counts, weapons and points.

    Raises:
        UntrustedFileError: See :func:`read_roster_bytes`; the file name is in the message.
    """
    path = checked_path(path)
    data = read_regular_file(path, MAX_ROSZ_FILE_BYTES)
    return read_roster_bytes(data, path.name)


_STAT_COLUMNS = ["Unit Type", "Move", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Front", "Side", "Rear", "HP"]


def roster_units_frame(roster: Roster) -> pd.DataFrame:
    """One row per model profile per unit.

    Columns: unit_index, unit, force, parent, unit_points, model, count, then the statline
    (Unit Type, Move, WS, BS, S, T, W, I, A, Ld, Save, Front, Side, Rear, HP; ``""`` if absent).
    A unit without model profiles gets one row with an empty model and count 0.
    """
    import pandas as pd

    rows = []
    for i, unit in enumerate(roster.units):
        base = {
            "unit_index": i,
            "unit": unit.name,
            "force": unit.force,
            "parent": unit.parent,
            "unit_points": unit.points,
        }
        for model in unit.models or [ModelCount("", 0, {})]:
            rows.append(
                {
                    **base,
                    "model": model.name,
                    "count": model.count,
                    **{c: model.statline.get(c, "") for c in _STAT_COLUMNS},
                }
            )
    return pd.DataFrame(
        rows, columns=["unit_index", "unit", "force", "parent", "unit_points", "model", "count", *_STAT_COLUMNS]
    )


def roster_weapons_frame(roster: Roster) -> pd.DataFrame:
    """One row per weapon profile per unit: unit_index, unit, count, then the weapon profile fields."""
    import pandas as pd

    cols = ["name", "Range", "Strength", "AP", "Type", "Type_clean", "profile_type", "profile_id"]
    rows = [
        {"unit_index": i, "unit": unit.name, "count": w.count, **w.profile}
        for i, unit in enumerate(roster.units)
        for w in unit.weapons
    ]
    return pd.DataFrame(rows, columns=["unit_index", "unit", "count", *cols])
