"""The records of a unit as fielded: groups of identical models with their statline, wargear and weapons.

Built by :func:`praetor_analysis.units.fielded.fielded_unit` (from a datasheet and a loadout, or from a
roster selection); read by the unit attack (``units.attack``), the roster ratings, the wargear
rankings, the dashboard and the list-against-list analysis. Records are frozen: a change is a new record.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from praetor_analysis.bsdata import Hh3Statline
from praetor_analysis.errors import ScenarioError, show_value
from praetor_analysis.units.catalog_rows import Cell, UnitRow, WeaponRow
from praetor_analysis.units.hh3_arms import Hh3Arm
from praetor_analysis.units.modifiers import NO_MODIFIERS, Modifiers

__all__ = ["FLAGS", "FieldedUnit", "Loadout", "ModelGroup", "Statline"]

FLAGS = ("charging", "disordered", "two_weapons")
"""How a unit strikes in melee, set on every model's statline (:meth:`FieldedUnit.with_flags`)."""


@dataclass(frozen=True)
class Statline:
    """One 2nd-edition model's statline as fielded: its characteristics as printed (None when the data leaves one
    out), its rules (the wargear's included), a vehicle's armour as a roster gives it, and how it strikes.

    Built from a catalog or roster profile (:meth:`from_row`, with its wargear: ``units.wargear_effects``); the
    engine's :class:`~praetor_analysis.profiles.Unit` is built from it by
    :func:`~praetor_analysis.units.engine_records.unit_record`; :meth:`to_dict` writes the ``attacker`` block it
    stands for (the JSON door's and the views' documents).
    """

    name: str = ""
    unit_type: str | None = None
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
    rules: tuple[str, ...] = ()
    Front: Cell | None = None
    Side: Cell | None = None
    Rear: Cell | None = None
    HP: Cell | None = None
    charging: bool = False
    disordered: bool = False
    two_weapons: bool = False

    STATS: ClassVar[tuple[str, ...]] = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Invulnerable")
    """The characteristics every model may have, by their printed names (the attributes of the same names)."""
    ARMOUR: ClassVar[tuple[str, ...]] = ("Front", "Side", "Rear", "HP")
    """A vehicle's armour values and hull points (a roster's statline carries them; a datasheet's does not)."""

    @classmethod
    def from_row(cls, row: UnitRow, *, armour: bool = False) -> Statline:
        """The statline of a unit profile: its name, Unit Type, characteristics and rules (``armour``: and its
        armour values and hull points, when it is a vehicle)."""
        stats = {k: getattr(row, k) for k in cls.STATS}
        shell = {k: getattr(row, k) for k in cls.ARMOUR} if armour and row.is_vehicle else {}
        return cls(row.name, row.unit_type, rules=row.rules, **stats, **shell)

    def stat(self, key: str) -> Cell | None:
        """A characteristic by its printed name (``"T"``, ``"Front"``; ``"Unit Type"``)."""
        if key == "Unit Type":
            return self.unit_type
        if key not in self.STATS and key not in self.ARMOUR:
            raise KeyError(key)
        value: Cell | None = getattr(self, key)
        return value

    def with_stats(self, stats: dict[str, Cell]) -> Statline:
        """The same statline with characteristics (by printed name) changed."""
        unknown = sorted(set(stats) - {*self.STATS, *self.ARMOUR})
        if unknown:
            raise KeyError(unknown[0])
        changes: dict[str, Any] = dict(stats)
        return replace(self, **changes)

    def row(self) -> UnitRow:
        """The statline as a unit profile row (its armour included)."""
        stats: dict[str, Any] = {k: getattr(self, k) for k in (*self.STATS, *self.ARMOUR)}
        return UnitRow(self.name, self.unit_type, rules=self.rules, **stats)

    def to_dict(self) -> dict[str, Any]:
        """The ``attacker`` block it stands for (no ``models``): ``name`` and ``Unit Type`` when given, the
        characteristics where given, ``rules`` when any, a vehicle's armour where given, the flags that are set."""
        block: dict[str, Any] = {}
        if self.name:
            block["name"] = self.name
        if self.unit_type is not None:
            block["Unit Type"] = self.unit_type
        block.update({k: v for k in self.STATS if (v := getattr(self, k)) is not None})
        if self.rules:
            block["rules"] = list(self.rules)
        block.update({k: v for k in self.ARMOUR if (v := getattr(self, k)) is not None})
        block.update({k: True for k in FLAGS if getattr(self, k)})
        return block


@dataclass(frozen=True)
class ModelGroup:
    """Identical models of a unit.

    Attributes:
        model: The model slot's (or roster selection's) name.
        count: How many models.
        statline: One model's statline: a 2nd-edition :class:`Statline`, or a 3rd-edition
            :class:`~praetor_analysis.bsdata.Hh3Statline` (its saves the better of its own and its wargear's).
        weapons: The weapon profiles the models carry: 2nd edition, one :class:`~praetor_analysis.units.WeaponRow`
            per weapon a model carries (each copy); 3rd edition, one :class:`~praetor_analysis.units.Hh3Arm` per
            firing mode of each weapon (its weapon's name and how many the group has).
        wargear: The names of the other wargear each model carries (armour, grenades, items), as the data
            names them; what of it the engine reads is in the statline (saves) and ``rules``.
    """

    model: str
    count: int
    statline: Statline | Hh3Statline
    weapons: tuple[WeaponRow, ...] | tuple[Hh3Arm, ...]
    wargear: tuple[str, ...] = ()

    @property
    def attacks(self) -> Cell | None:
        """The Attacks characteristic as printed, either edition's (None when the data leaves it out)."""
        if isinstance(self.statline, Statline):
            return self.statline.A
        return self.statline.attacks or None

    @property
    def unit_type(self) -> str | None:
        """A 2nd-edition model's Unit Type as printed (None when none, and for a 3rd-edition model, whose ``Type``
        is not a 2nd-edition Unit Type)."""
        return self.statline.unit_type if isinstance(self.statline, Statline) else None

    @property
    def profile(self) -> Statline:
        """The 2nd-edition statline (a 3rd-edition group is refused: it is read by the ``hh3_*`` modules)."""
        if not isinstance(self.statline, Statline):
            raise TypeError(f"{self.model}: a 3rd-edition statline, read by the hh3 modules")
        return self.statline

    @property
    def rows(self) -> tuple[WeaponRow, ...]:
        """The 2nd-edition weapon profiles (a 3rd-edition group is refused)."""
        if not all(isinstance(w, WeaponRow) for w in self.weapons):
            raise TypeError(f"{self.model}: 3rd-edition weapons, read by the hh3 modules")
        return tuple(w for w in self.weapons if isinstance(w, WeaponRow))

    @property
    def hh3_statline(self) -> Hh3Statline:
        """The 3rd-edition statline (a 2nd-edition group is refused)."""
        if not isinstance(self.statline, Hh3Statline):
            raise TypeError(f"{self.model}: a 2nd-edition statline")
        return self.statline

    @property
    def arms(self) -> tuple[Hh3Arm, ...]:
        """The 3rd-edition weapon profiles (a 2nd-edition group is refused)."""
        return tuple(w for w in self.weapons if isinstance(w, Hh3Arm))


@dataclass(frozen=True)
class FieldedUnit:
    """A unit as it stands on the table.

    Attributes:
        datasheet: The datasheet's name (a roster unit: its selection's name).
        faction: The datasheet's faction ("" for a roster unit whose entry the catalog does not know).
        size: Models in the unit.
        points: What the unit costs at this loadout (a roster unit: the roster's own total).
        groups: Its models, by groups of identical ones.
        options: The loadout items taken, as given (a roster unit: the costed selections).
        source: ``"datasheet"`` or ``"roster"``.
        notes: What the reading left out and why (a weapon without a usable profile, say): one line each.
        force: The roster force holding it (``""`` for a datasheet).
        modifiers: The attacker's modifiers (re-rolls, +/-1 to hit and to wound...), applied to every model's
            statline and weapons when the unit attacks.
        legion: The Legion the datasheet was fielded for (``"Dark Angels"``; ``""`` when none was given or
            implied), which decided the options the data shows only to some Legions.
        edition: ``"hh2"`` or ``"hh3"``: the rules its statlines and weapon blocks are written for (a 3rd-edition
            unit's blocks use that edition's characteristic names, :mod:`praetor_analysis.units.hh3_roster`).
        readings: How the reading completed what the data leaves out (a characteristic taken from a unit-mate's
            profile): one line each, listed under ``applied`` when the unit attacks; nothing is left out.
    """

    datasheet: str
    faction: str
    size: int
    points: float
    groups: tuple[ModelGroup, ...]
    options: tuple[str, ...] = ()
    source: str = "datasheet"
    notes: tuple[str, ...] = ()
    force: str = ""
    modifiers: Modifiers = NO_MODIFIERS
    legion: str = ""
    edition: str = "hh2"
    readings: tuple[str, ...] = ()

    def with_flags(self, **flags: Any) -> FieldedUnit:
        """The same unit with ``charging``, ``disordered`` or ``two_weapons`` set on every 2nd-edition model's
        statline (each true or false, else refused naming ``attacker.<flag>``)."""
        if not flags:
            return self
        for key, value in flags.items():
            if key not in FLAGS:
                raise ScenarioError(f"attacker.{key}: not a flag of how a unit strikes ({', '.join(FLAGS)})")
            if not isinstance(value, bool):
                raise ScenarioError(f"attacker.{key}: expected true or false, got {show_value(value)}",
                                    field=f"attacker.{key}", value=value)  # fmt: skip
        groups = tuple(
            replace(g, statline=replace(g.statline, **flags)) if isinstance(g.statline, Statline) else g
            for g in self.groups
        )  # a 3rd-edition attack charges in its melee mode (units.hh3_attack): its statline has no flags
        return replace(self, groups=groups)


Loadout = FieldedUnit
"""The former name of :class:`FieldedUnit` (a datasheet at one size and loadout)."""
