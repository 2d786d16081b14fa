"""Catalog and roster rows as typed records: a weapon profile, a unit (or standard target) profile, an option.

Each record is built once: from a catalog frame (``from_frame``: column by column, no pandas row per record) or
from one row (``from_row``: a frame row, or a roster profile's characteristics as printed). Values are kept as
printed (``"3+"``, ``"24\\""``); an empty cell (``""``, None, NaN) is None. Records are read by attribute, and a
weapon or unit row writes the docs/scenario.md block it stands for (``to_block``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from praetor_analysis.profiles import is_vehicle_type

if TYPE_CHECKING:  # pandas is loaded by the catalogs, not by this module's import
    import pandas as pd

__all__ = ["Cell", "OptionRow", "UnitRow", "WeaponRow", "cell", "records_of"]

Cell = str | int | float
"""A characteristic as printed: text (``"3+"``, ``"-"``) or a number."""

_R = TypeVar("_R", "WeaponRow", "UnitRow", "OptionRow")


def cell(value: object) -> Cell | None:
    """A catalog or roster cell as read: empty text, None and NaN are None; text is stripped; a numpy scalar is
    a Python number and a whole float an int (the blocks are JSON)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value.strip() or None
    item = getattr(value, "item", None)
    if item is not None and not isinstance(value, bytes):
        value = item()
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return int(value) if value.is_integer() else value
    if isinstance(value, (bool, int)):
        return int(value)
    return str(value)


def _text(value: object) -> str:
    got = cell(value)
    return "" if got is None else str(got)


def _number(value: object) -> float | None:
    got = cell(value)
    if got is None:
        return None
    try:
        return float(got)
    except ValueError:
        return None


def _rules(value: object) -> tuple[str, ...]:
    """A ``rules`` cell: a list as given, or ``;``-separated text."""
    if isinstance(value, (list, tuple)):
        return tuple(str(r) for r in value)
    text = _text(value)
    return tuple(r.strip() for r in text.split(";") if r.strip())


def records_of(cls: type[_R], frame: pd.DataFrame) -> list[_R]:
    """``cls.from_row`` of each row of ``frame``, read column by column (a sweep's thousands of rows)."""
    columns = [str(c) for c in frame.columns]
    if not columns:
        return [cls.from_row({}) for _ in range(len(frame))]
    values = zip(*(frame[c].tolist() for c in columns), strict=True)
    return [cls.from_row(dict(zip(columns, row, strict=True))) for row in values]


def _get(row: Mapping[str, object], key: str) -> object:
    return row.get(key)


def _mapping(row: pd.Series | Mapping[str, object]) -> Mapping[str, object]:
    """A frame row as a dict of Python values, read at once (a pandas row's ``get`` costs microseconds a key)."""
    if isinstance(row, Mapping):
        return row
    return dict(zip((str(k) for k in row.index), row.tolist(), strict=True))


@dataclass(frozen=True)
class WeaponRow:
    """A weapon profile: a row of :func:`~praetor_analysis.catalog.load_weapons` or a roster weapon profile.

    Attributes:
        name: The profile's name (``""`` when none).
        range, strength, ap: As printed (None when empty).
        type: The type line (``Type_clean`` when the row has it, else ``Type``; ``""`` when none).
        faction, profile_id, source, entry, profile_type: Where the data has it (``""`` when not).
        points: The entry's points (None when not given).
    """

    name: str = ""
    range: Cell | None = None
    strength: Cell | None = None
    ap: Cell | None = None
    type: str = ""
    faction: str = ""
    profile_id: str = ""
    source: str = ""
    entry: str = ""
    profile_type: str = ""
    points: float | None = None

    @classmethod
    def from_row(cls, row: pd.Series | Mapping[str, object]) -> WeaponRow:
        """The record of one row (a frame row or a profile's characteristics by their printed names)."""
        row = _mapping(row)
        kind = cell(_get(row, "Type_clean"))
        if kind is None:
            kind = cell(_get(row, "Type"))
        return cls(
            _text(_get(row, "name")),
            cell(_get(row, "Range")),
            cell(_get(row, "Strength")),
            cell(_get(row, "AP")),
            "" if kind is None else str(kind),
            _text(_get(row, "faction")),
            _text(_get(row, "profile_id")),
            _text(_get(row, "source")),
            _text(_get(row, "entry")),
            _text(_get(row, "profile_type")),
            _number(_get(row, "points")),
        )

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> list[WeaponRow]:
        """The records of a weapon catalog's rows, in order."""
        return records_of(cls, frame)

    @property
    def is_melee(self) -> bool:
        """Whether the type line names Melee."""
        return "melee" in self.type.casefold()

    def as_profile(self) -> WeaponRow:
        """The profile alone, as a model carries it: ``name Range Strength AP Type`` (``"weapon"`` for no name,
        ``"-"`` for an empty characteristic), without where the data has it: two rows of one profile are equal."""
        return WeaponRow(
            self.name or "weapon",
            "-" if self.range is None else self.range,
            "-" if self.strength is None else self.strength,
            "-" if self.ap is None else self.ap,
            self.type,
        )

    def to_block(self) -> dict[str, Any]:
        """The docs/scenario.md ``weapon`` block: ``name Range Strength AP Type`` as printed (``"-"`` when empty)."""
        return {
            "name": self.name or "weapon",
            "Range": "-" if self.range is None else self.range,
            "Strength": "-" if self.strength is None else self.strength,
            "AP": "-" if self.ap is None else self.ap,
            "Type": self.type,
        }


_TARGET_STATS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Invulnerable", "Cover")
_VEHICLE_STATS = ("WS", "BS", "S", "I", "A", "Front", "Side", "Rear", "HP", "Invulnerable", "Cover")
_ARMOUR = ("Front", "Side", "Rear", "HP")


@dataclass(frozen=True)
class UnitRow:
    """A unit profile: a row of :func:`~praetor_analysis.catalog.load_units` or ``load_targets``, or a roster
    model's characteristics (a model group's statline, :class:`~praetor_analysis.units.Statline`, is read from one).

    Attributes:
        name: The profile's name (``""`` when none).
        unit_type: ``Unit Type`` as printed (None when empty).
        Move ... Cover: The characteristics as printed (None when empty).
        rules: The unit's rules (a ``rules`` list, or ``;``-separated text).
        archetype: A standard target's name (``""`` for a unit profile).
        models: The row's model count as printed (a standard target's; None when not given).
        profile_type, entry, unit, source, profile_id, faction, not_modelled, note: Where the data has them.
        points: The profile's points (None when not given).
    """

    name: str = ""
    unit_type: str | None = None
    Move: Cell | None = None
    WS: Cell | None = None
    BS: Cell | None = None
    S: Cell | None = None
    T: Cell | None = None
    W: Cell | None = None
    I: Cell | None = None
    A: Cell | None = None
    Ld: Cell | None = None
    Save: Cell | None = None
    Invulnerable: Cell | None = None
    Front: Cell | None = None
    Side: Cell | None = None
    Rear: Cell | None = None
    HP: Cell | None = None
    Cover: Cell | None = None
    rules: tuple[str, ...] = ()
    archetype: str = ""
    models: Cell | None = None
    profile_type: str = ""
    entry: str = ""
    unit: str = ""
    source: str = ""
    profile_id: str = ""
    faction: str = ""
    not_modelled: str = ""
    note: str = ""
    points: float | None = None

    STATS: ClassVar[tuple[str, ...]] = (
        "Move", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Invulnerable", "Front", "Side", "Rear", "HP",
        "Cover",
    )  # fmt: skip
    """The characteristics, by their printed names (the attributes of the same names)."""

    @classmethod
    def from_row(cls, row: pd.Series | Mapping[str, object]) -> UnitRow:
        """The record of one row (a frame row or a statline by its printed names)."""
        row = _mapping(row)
        stats: dict[str, Any] = {k: cell(_get(row, k)) for k in cls.STATS}
        unit_type = cell(_get(row, "Unit Type"))
        texts: dict[str, Any] = {k: _text(_get(row, k)) for k in _TEXTS}
        return cls(
            unit_type=None if unit_type is None else str(unit_type),
            rules=_rules(_get(row, "rules")),
            models=cell(_get(row, "models")),
            points=_number(_get(row, "points")),
            **stats,
            **texts,
        )

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> list[UnitRow]:
        """The records of a unit or target catalog's rows, in order."""
        return records_of(cls, frame)

    def stat(self, key: str) -> Cell | None:
        """A characteristic by its printed name (``"T"``, ``"Unit Type"``)."""
        if key == "Unit Type":
            return self.unit_type
        if key not in self.STATS:
            raise KeyError(key)
        value: Cell | None = getattr(self, key)
        return value

    def with_stats(self, stats: Mapping[str, Cell | None]) -> UnitRow:
        """The same profile with characteristics (by printed name: ``{"Front": "12"}``) changed."""
        unknown = sorted(set(stats) - set(self.STATS))
        if unknown:
            raise KeyError(unknown[0])
        changes: dict[str, Any] = dict(stats)
        return replace(self, **changes)

    @property
    def is_vehicle(self) -> bool:
        """Whether the Unit Type contains Vehicle (Vehicles and Knights: armour and hull points)."""
        return is_vehicle_type(self.unit_type)

    @property
    def is_character(self) -> bool:
        """Whether the Unit Type names a Character."""
        return "character" in str(self.unit_type or "").casefold()

    @property
    def is_target_profile(self) -> bool:
        """Whether the profile can be a target: a Toughness, or armour values (junk rows of the data, such as two
        collective Legionary profiles without Toughness, are not offered beside a complete one)."""
        return any(str(v).strip() not in ("", "-") for v in (self.T, self.Front) if v is not None)

    @property
    def target_name(self) -> str:
        """The name it is a target under: its archetype (a standard target's), else its name, else ``target``."""
        return self.archetype or self.name or "target"

    def to_block(self, models: int | None = None) -> dict[str, Any]:
        """The docs/scenario.md ``target`` block.

        A Vehicle gives ``Front Side Rear HP`` (and ``Invulnerable``/``Cover``, and a Walker's or Knight's
        ``WS BS S I A`` when present: it is hit on the Weapon Skill chart in melee); any other unit its statline
        ``WS BS S T W I A Ld Save Invulnerable`` (``Cover`` when present); ``rules`` when any.

        Args:
            models: Model count; default the row's ``models``, else 1.
        """
        if models is None:
            models = 1 if self.models is None else int(self.models)
        block: dict[str, Any] = {
            "name": self.target_name,
            "Unit Type": self.unit_type or "Infantry",
            "models": int(models),
        }
        keys = _VEHICLE_STATS if self.is_vehicle else _TARGET_STATS
        block.update({k: v for k in keys if (v := getattr(self, k)) is not None})
        if self.rules:
            block["rules"] = list(self.rules)
        return block


_TEXTS = (
    "name", "archetype", "profile_type", "entry", "unit", "source", "profile_id", "faction", "not_modelled", "note",
)  # fmt: skip


@dataclass(frozen=True)
class OptionRow:
    """A datasheet's wargear option: a row of :func:`~praetor_analysis.catalog.load_wargear_options` (see its
    columns there). Limits (``group_max``, ``group_unit_max``, ``unit_max``) are kept as written (``"0+1/10:model"``);
    ``max`` is None when unbounded."""

    datasheet: str = ""
    faction: str = ""
    model: str = ""
    group: str = ""
    option: str = ""
    replaces: str = ""
    parent: str = ""
    points: float = 0.0
    points_per_model: float = 0.0
    per_model_of: str = ""
    max: float | None = None
    weapons: str = ""
    weapon_ids: str = ""
    hidden: bool = False
    option_id: str = ""
    entry_id: str = ""
    group_id: str = ""
    group_min: int = 0
    group_max: str = ""
    group_unit_max: str = ""
    unit_max: str = ""
    save: str = ""
    invulnerable: str = ""
    rules: str = ""
    not_modelled: str = ""
    shown_when: str = ""
    group_shown_when: str = ""

    @classmethod
    def from_row(cls, row: pd.Series | Mapping[str, object]) -> OptionRow:
        """The record of one option row."""
        row = _mapping(row)
        values: dict[str, Any] = {f: _text(_get(row, f)) for f in _OPTION_TEXTS}
        return cls(
            points=_number(_get(row, "points")) or 0.0,
            points_per_model=_number(_get(row, "points_per_model")) or 0.0,
            max=_number(_get(row, "max")),
            hidden=bool(cell(_get(row, "hidden"))),
            group_min=int(_number(_get(row, "group_min")) or 0),
            **values,
        )

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> list[OptionRow]:
        """The records of an option table's rows, in order."""
        return records_of(cls, frame)

    @property
    def item(self) -> tuple[str, str, str]:
        """``(save, invulnerable, rules)`` the option's wargear gives the models taking it
        (:mod:`praetor_analysis.units.wargear_effects`)."""
        return (self.save, self.invulnerable, self.rules)


_OPTION_NUMBERS = {"points", "points_per_model", "max", "hidden", "group_min"}
_OPTION_TEXTS = tuple(f.name for f in fields(OptionRow) if f.name not in _OPTION_NUMBERS)
