"""The columns of the shipped weapon and unit catalogs (a module of names alone: importing it loads no pandas)."""

from __future__ import annotations

__all__ = ["STAT_COLUMNS", "UNIT_COLUMNS", "WEAPON_COLUMNS"]

WEAPON_COLUMNS = [
    "name",
    "Range",
    "Strength",
    "AP",
    "Type",
    "Type_clean",
    "corrections",
    "profile_type",
    "entry",
    "points",
    "source",
    "profile_id",
    "faction",
]
STAT_COLUMNS = [
    "Unit Type",
    "Move",
    "WS",
    "BS",
    "S",
    "T",
    "W",
    "I",
    "A",
    "Ld",
    "Save",
    "Invulnerable",
    "Front",
    "Side",
    "Rear",
    "HP",
    "rules",
]
UNIT_COLUMNS = [
    "name",
    "profile_type",
    *STAT_COLUMNS,
    "not_modelled",
    "entry",
    "unit",
    "points",
    "unit_points",
    "source",
    "profile_id",
    "faction",
]
