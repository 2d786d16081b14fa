"""Model groups written in tests as blocks (a statline's and weapons' characteristics by their printed names), read
into the typed records a fielded unit carries: the 2nd edition's (``{"WS": 4, ...}``, ``{"name": "Bolter",
"Range": '24"', ...}``: :class:`~praetor_analysis.units.Statline`, :class:`~praetor_analysis.units.WeaponRow`) and
the 3rd edition's (``{"Type": "Vehicle", "BS": "4", ...}``, ``{"name": "Battlecannon", "R": "48", ...}``:
:class:`~praetor_analysis.bsdata.Hh3Statline`, :class:`~praetor_analysis.units.Hh3Arm`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.bsdata import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline
from praetor_analysis.units import Hh3Arm, ModelGroup, Statline, UnitRow, WeaponRow


def hh2_statline(chars: Mapping[str, Any]) -> Statline:
    """The 2nd-edition statline of a unit block (a vehicle's armour kept)."""
    return Statline.from_row(UnitRow.from_row(chars), armour=True)


def hh2_group(model: str, count: int, chars: Mapping[str, Any], weapons: tuple[Mapping[str, Any], ...]) -> ModelGroup:
    """A 2nd-edition model group of a statline block and weapon blocks."""
    return ModelGroup(model, count, hh2_statline(chars), tuple(WeaponRow.from_row(w).as_profile() for w in weapons))


def statline(chars: Mapping[str, Any], kind: str = "Profile") -> Hh3Statline:
    """The statline record of characteristics by their data names (``name`` its name)."""
    return Hh3Statline.from_characteristics(
        str(chars.get("name", "")), kind, {k: str(v) for k, v in chars.items() if k != "name"}
    )


def arm(block: Mapping[str, Any], count: int = 1) -> Hh3Arm:
    """One weapon profile (``weapon``: its weapon's name, default the profile's; ``count``: how many)."""
    chars = {k: str(v) for k, v in block.items() if k not in ("name", "weapon", "count")}
    cls = Hh3MeleeProfile if "IM" in block else Hh3RangedProfile
    profile = cls.from_characteristics(str(block.get("name", "")), "Weapon", chars)
    return Hh3Arm(profile, str(block.get("weapon", block.get("name", ""))), int(block.get("count", count)))


def hh3_group(model: str, count: int, chars: Mapping[str, Any], weapons: tuple[Mapping[str, Any], ...]) -> ModelGroup:
    """A model group of ``count`` models of a statline and weapon profiles written as the data prints them."""
    return ModelGroup(model, count, statline(chars), tuple(arm(w) for w in weapons))
