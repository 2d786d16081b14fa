"""Names wherever a profile is accepted: a catalog name turns into the block its profile would give.

- ``weapon``: a weapon name (``"Lascannon"``) or ``{"name": ..., "faction": ...}`` -> a weapon block;
- ``target`` (and a statline ``attacker``): a standard target (``"Rhino"``) or unit profile name
  (``"Legionary"``), or ``{"name": ..., "models": N, "faction": ...}`` with any other target fields
  (``wounds_taken``, ``facing``...) kept -> a target block at that size.

Matching ignores case and runs of spaces; ``NAME@FACTION`` (or ``NAME@PROFILE_ID``) is the one-string form of
``{"name": NAME, "faction": FACTION}``, for the command line. A block that carries any characteristic (``Strength``,
``T``...) is a profile and is passed on untouched. A name shared by different statlines is refused
with the choices and how to pick one (``faction``, then ``profile_id``); a miss is refused with up to
three close names. Datasheet names (a whole unit attacking) are resolved by
:mod:`praetor_analysis.units.datasheet`.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING, Any

from praetor_analysis.bsdata import STAT_COLUMNS
from praetor_analysis.catalog import load_datasheets, load_targets, load_units, load_weapons
from praetor_analysis.errors import ScenarioError
from praetor_analysis.units.catalog_rows import UnitRow, WeaponRow

if TYPE_CHECKING:  # pandas is loaded by the first catalog look-up, not by this module's import
    import pandas as pd

__all__ = [
    "UNIT_STAT_KEYS",
    "WEAPON_STAT_KEYS",
    "datasheet_names",
    "fold",
    "is_name_block",
    "pick_rows",
    "refuse_hh3_name",
    "resolve_unit",
    "resolve_weapon",
    "split_pick",
    "suggestions",
    "target_from_row",
    "target_row_named",
    "unit_row",
    "weapon_row",
]

WEAPON_STAT_KEYS = frozenset({"Range", "Strength", "AP", "Type"})
"""Keys that make a weapon block a profile (no name lookup)."""
UNIT_STAT_KEYS = frozenset(c for c in STAT_COLUMNS if c not in ("Move", "rules"))
"""Keys that make a unit block a profile (no name lookup): its characteristics (``rules`` may stand beside
a name: they are added to the profile's own)."""

_PICK_KEYS = ("faction", "profile_id")
_WEAPON_KEY = ["Range", "Strength", "AP", "Type_clean"]
_UNIT_KEY = [c for c in STAT_COLUMNS if c != "Move"]


def fold(name: str) -> str:
    """A name as matched: lower case, single spaces."""
    return " ".join(str(name).split()).casefold()


def is_name_block(value: Any, stat_keys: frozenset[str]) -> bool:
    """True for a bare name, or a mapping with a ``name`` and none of ``stat_keys``."""
    if isinstance(value, str):
        return True
    return isinstance(value, Mapping) and "name" in value and stat_keys.isdisjoint(value)


def _close(query: str, by_fold: dict[str, str], n: int) -> list[str]:
    """Up to ``n`` folded names close to ``query``: difflib's, then names holding it as whole words."""
    close = difflib.get_close_matches(fold(query), list(by_fold), n=n, cutoff=0.6)
    words = f" {fold(query)} "
    close += sorted((f for f in by_fold if words in f" {f} " and f not in close), key=len)[: n - len(close)]
    return close


def suggestions(query: str, names: list[str], n: int = 3, *, first: list[str] | None = None) -> str:
    """``"; did you mean 'A', 'B'?"`` for up to ``n`` close names (difflib), or ``""``; close names of
    ``first`` (datasheets for an attacker, standard targets for a target) come before those of ``names``."""
    picked: list[str] = []
    seen: set[str] = set()
    for pool in (first or [], names):
        if len(picked) >= n:
            break
        by_fold: dict[str, str] = {}
        for name in pool:
            if fold(name) not in seen:
                by_fold.setdefault(fold(name), name)
        for f in _close(query, by_fold, n - len(picked)):
            picked.append(by_fold[f])
            seen.add(f)
    return f"; did you mean {', '.join(repr(c) for c in picked)}?" if picked else ""


def refuse_hh3_name(name: str, field: str) -> None:
    """One line when ``name``, unknown to the 2nd edition's catalogs, is a datasheet of the 3rd edition's (else
    nothing: the caller says it is unknown)."""
    if fold(name) in {fold(n) for n in load_datasheets("hh3")["name"]}:  # the 3rd edition's catalog, on refusal only
        raise ScenarioError(
            f"{field}: {name!r} is not a datasheet of edition 2; it is one of edition 3", field=field, value=name
        )


@cache
def _index(kind: str) -> tuple[pd.DataFrame, dict[str, list[int]]]:
    """The catalog for ``kind`` (weapon, target, unit) and its row numbers by folded name."""
    if kind == "weapon":
        frame = load_weapons()
        names = frame["name"]
    elif kind == "target":
        frame = load_targets()
        names = frame["archetype"]
    else:
        frame = load_units()
        names = frame["name"]
    index: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        index.setdefault(fold(name), []).append(i)
    return frame, index


@cache
def _unit_records() -> tuple[UnitRow, ...]:
    """The unit catalog's rows as records, in the frame's order."""
    return tuple(UnitRow.from_frame(_index("unit")[0]))


def pick_rows(
    frame: pd.DataFrame, rows: list[int], key: list[str], picks: Mapping[str, str], field: str, name: str
) -> pd.Series:
    """The one statline among ``rows`` after ``faction``/``profile_id`` picks; refuses several.

    Raises:
        ScenarioError: The picks leave no row, or rows with different statlines.
    """
    sub = frame.iloc[rows]
    for pick in _PICK_KEYS:
        if pick in picks:
            wanted = fold(str(picks[pick]))
            kept = sub[sub[pick].map(fold) == wanted]
            if kept.empty:
                have = ", ".join(sorted({repr(str(v)) for v in sub[pick]}))
                raise ScenarioError(f"{field}.{pick}: {name!r} has no {pick} {picks[pick]!r} (choices: {have})")
            sub = kept
    distinct = sub.drop_duplicates(subset=key)
    if len(distinct) == 1:
        return distinct.iloc[0]
    by_faction = distinct.groupby(distinct["faction"].map(fold), sort=False).size()
    pick = "faction" if (by_faction == 1).all() else "profile_id"
    differ = [k for k in key if distinct[k].nunique() > 1]
    choices = "; ".join(f"{_describe(r, differ)} ({pick} {r[pick]!r})" for _, r in distinct.head(8).iterrows())
    more = f"; and {len(distinct) - 8} more" if len(distinct) > 8 else ""
    raise ScenarioError(
        f"{field}: {name!r} names {len(distinct)} different statlines: {choices}{more}; "
        f'pick one with {{"name": {name!r}, "{pick}": ...}} or the name {name + "@" + pick.upper()!r}'
    )


def _describe(row: pd.Series, key: list[str]) -> str:
    return " ".join(f"{k} {row[k] if str(row[k]).strip() else '-'}" for k in key)


_PROFILE_ID = re.compile(r"[0-9a-f]{4}(?:-[0-9a-f]{4}){3}", re.IGNORECASE)


def split_pick(text: str) -> tuple[str, dict[str, str]]:
    """A name written ``NAME@FACTION`` (or ``NAME@PROFILE_ID``, four groups of four hex digits) -> ``(NAME,
    {"faction": FACTION})``, the command line's form of ``{"name", "faction"}``; a name without ``@`` is
    itself with no pick (no name of the catalog holds an ``@``)."""
    name, at, pick = text.rpartition("@")
    if not at or not name.strip() or not pick.strip():
        return text, {}
    key = "profile_id" if _PROFILE_ID.fullmatch(pick.strip()) else "faction"
    return name, {key: pick.strip()}


def _name_of(value: Any, field: str) -> tuple[str, dict[str, str]]:
    """The name a name block gives and its picks (``faction``, ``profile_id``) as text."""
    if isinstance(value, str):
        return split_pick(value)
    name = value["name"]
    if not isinstance(name, str) or not name.strip():
        raise ScenarioError(f"{field}.name: expected a name, got {name!r}")
    return name, {k: str(value[k]) for k in _PICK_KEYS if k in value}


def weapon_row(value: Any, field: str = "weapon") -> pd.Series:
    """The catalog weapon row a weapon name (or ``{"name", "faction"}``) names.

    Raises:
        ScenarioError: Unknown name (with suggestions) or a name shared by different statlines.
    """
    name, picks = _name_of(value, field)
    frame, index = _index("weapon")
    rows = index.get(fold(name))
    if not rows:
        raise ScenarioError(f"{field}: no weapon named {name!r}{suggestions(name, list(frame['name']))}")
    return pick_rows(frame, rows, _WEAPON_KEY, picks, field, name)


def resolve_weapon(value: Any, field: str = "weapon") -> Any:
    """A weapon block for a name; any other value (a profile, a list) is returned unchanged."""
    if isinstance(value, list):  # a list of profiles; a list inside it is left for the parser to refuse
        return [v if isinstance(v, list) else resolve_weapon(v, f"{field}[{i}]") for i, v in enumerate(value)]
    if not is_name_block(value, WEAPON_STAT_KEYS):
        return value
    if isinstance(value, Mapping):
        extra = sorted(set(value) - {"name", *_PICK_KEYS})
        if extra:
            raise ScenarioError(f"{field}.{extra[0]}: not used with a weapon name (give a full profile instead)")
    return WeaponRow.from_row(weapon_row(value, field)).to_block()


def unit_row(value: Any, field: str = "target") -> pd.Series:
    """The standard target or unit profile row a name names (standard targets first).

    Raises:
        ScenarioError: Unknown name (with suggestions) or a name shared by different statlines.
    """
    name, picks = _name_of(value, field)
    targets, tindex = _index("target")
    rows = tindex.get(fold(name))
    if rows and not any(p in picks for p in _PICK_KEYS):
        return targets.iloc[rows[0]]
    units, uindex = _index("unit")
    rows = uindex.get(fold(name))
    if not rows:
        pick = next((p for p in _PICK_KEYS if p in picks), None)
        if pick is not None and tindex.get(fold(name)):  # a standard target given a unit's faction or id
            others = [n for n in [*datasheet_names(), *units["name"]] if fold(n) != fold(name)]
            raise ScenarioError(
                f"{field}.{pick}: {name!r} is a standard target, which has no {pick}; a unit profile or datasheet"
                f" has its own name{suggestions(name, others)}"
            )
        refuse_hh3_name(name, field)
        first, what = list(targets["archetype"]), "unit profile or standard target"
        if field == "attacker":  # a whole unit attacking is named by its datasheet
            first, what = [*datasheet_names(), *first], "datasheet, unit profile or standard target"
        raise ScenarioError(f"{field}: no {what} named {name!r}{suggestions(name, list(units['name']), first=first)}")
    records = _unit_records()
    usable = [i for i in rows if records[i].is_target_profile]
    if not usable and "attacker" not in field:
        raise ScenarioError(
            f"{field}: {name!r} is a unit profile without Toughness or armour values in the data: not a target"
        )
    return pick_rows(units, usable or rows, _UNIT_KEY, picks, field, name)


def _datasheet_minimum(row: pd.Series) -> int | None:
    """A unit profile's datasheet at its minimum size: how many models the target then has (None: unknown)."""
    sheets = load_datasheets()
    hit = sheets[(sheets["name"] == row.get("unit")) & (sheets["faction"] == row.get("faction"))]
    return int(hit["min_models"].iloc[0]) if len(hit) else None


@cache
def datasheet_names() -> tuple[str, ...]:
    """The datasheet names of the catalog (a datasheet attacker's names; suggested first for an attacker)."""
    return tuple(dict.fromkeys(load_datasheets()["name"]))


def target_from_row(row: UnitRow) -> UnitRow:
    """A catalog row as a target: a fortification with armour values and hull points is shot at as a vehicle
    (its Unit Type then reads ``Vehicle (...)``); any other row as it is."""
    if row.profile_type == "Fortification" and str(row.Front or "-") != "-":
        return replace(row, unit_type=f"Vehicle ({row.unit_type or ''})")
    return row


def target_row_named(value: Any, field: str = "target") -> tuple[UnitRow, Any]:
    """The row a name (or name block) names, as a target (:func:`unit_row`, :func:`target_from_row`), and its
    models: those the block gives, else a unit profile's datasheet minimum for a target (None: the row's own).

    Raises:
        ScenarioError: Unknown name (with suggestions) or a name shared by different statlines.
    """
    row = unit_row(value, field)
    models = value.get("models") if isinstance(value, Mapping) else None
    if models is None and field.endswith("target") and "archetype" not in row.index:
        models = _datasheet_minimum(row)
    return target_from_row(UnitRow.from_row(row)), models


def resolve_unit(value: Any, field: str = "target") -> Any:
    """A target block for a name (at ``models``, default the standard target's count or 1), other
    fields of the mapping kept; any other value is returned unchanged."""
    if not is_name_block(value, UNIT_STAT_KEYS):
        return value
    target, models = target_row_named(value, field)
    rest = (
        {k: v for k, v in value.items() if k not in ("name", "models", *_PICK_KEYS)}
        if isinstance(value, Mapping)
        else {}
    )
    block = target.to_block()
    if models is not None:
        block["models"] = models
    if "rules" in rest and isinstance(rest["rules"], list) and isinstance(block.get("rules"), list):
        rest["rules"] = [*block["rules"], *(r for r in rest["rules"] if r not in block["rules"])]
    block.update(rest)
    return block
