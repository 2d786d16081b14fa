"""The columns of the shipped weapon and unit catalogs (a module of names alone: importing it loads no pandas)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PROFILE_KEY", "STAT_COLUMNS", "UNIT_COLUMNS", "WEAPON_COLUMNS", "distinct_profiles"]

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
PROFILE_KEY = ("Range", "Strength", "AP", "Type")
"""What makes two weapon rows one *distinct profile*: what the weapon does. Its name does not change that, so two
weapons of one statline under two names (or in two catalogues) are one profile; the importer's count and the
README's coverage figure both count these."""


def distinct_profiles(weapons: pd.DataFrame) -> pd.DataFrame:
    """The rows of a weapon catalog, one per distinct profile (:data:`PROFILE_KEY`), the first of each kept."""
    return weapons.drop_duplicates(list(PROFILE_KEY))


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
