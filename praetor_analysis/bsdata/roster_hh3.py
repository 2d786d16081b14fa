"""Rosters of the 3rd edition (game system ``Horus Heresy 3rd Edition``), read from the profiles they embed.

A 3rd-edition roster carries every profile its selections use, so it is read without any catalog: a roster of a
faction the shipped data lacks reads the same. What is read:

- a **unit** is a selection of a force whose type is ``unit`` or ``model`` or that holds a statline profile
  (``Profile``, ``Vehicle``, ``Knight``, titan parts, fortifications); a ``unit`` selection nested in it (a
  dedicated transport) is a unit of its own; a ``unit-group`` (a Rapier Battery's crews) stays in its unit;
- a **model group** is a selection carrying a statline, ``number`` of them (the number is already the total, as in
  the 2nd edition); further statline profiles of the same selection (a titan's head, arms and legs) are its parts;
- a **weapon** is a selection carrying ranged or melee weapon profiles, counted ``number`` times, times the count
  its name gives when it names several of its one weapon (``Two Sponson Mounted lascannon arrays`` over the
  ``Lascannon array`` profile: two; the 2nd edition's reading, docs/rosters.md); its profiles are its firing modes
  (``Plasma pistol (Sustained)``, ``(Maximal)``), one weapon, not two; weapons under a model selection are that
  group's, weapons on the unit itself (grenades) the unit's;
- **wargear** is any other upgrade selection; the texts of its ``Wargear`` profiles are read clause by clause as
  the 2nd edition's are (:func:`~praetor_analysis.bsdata.wargear_saves.read_described`: a Cytheron pattern aegis's
  5+ Invulnerable Save);
- **points** are the ``Point(s)`` costs of the unit's whole selection tree (nested units apart); the selections
  of a force that are not units (Allegiance, Rite of War) are listed in ``not_read`` with their points, so that
  the units' points plus ``not_read``'s equal the declared total (:meth:`Hh3Roster.unaccounted`).

The base records (:class:`~praetor_analysis.bsdata.roster_records.RosterUnit`'s ``models`` and ``weapons``) are
filled too, keyed by the 3rd edition's characteristic names, so every listing of a roster reads either edition.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from xml.etree.ElementTree import Element

from praetor_analysis.bsdata.files import Described, UntrustedFileError, children
from praetor_analysis.bsdata.game_system import HH3_POINTS_TYPE_ID, GameSystem
from praetor_analysis.bsdata.hh3_profiles import (
    HH3_MELEE_TYPES,
    HH3_RANGED_TYPES,
    HH3_STATLINE_TYPES,
    Hh3MeleeProfile,
    Hh3RangedProfile,
    Hh3Statline,
    profile_kind,
)
from praetor_analysis.bsdata.roster_records import (
    ModelCount,
    Roster,
    RosterUnit,
    WeaponCount,
    roster_forces,
    selection_cost,
    selection_number,
)
from praetor_analysis.bsdata.roster_tree import count_in_name
from praetor_analysis.bsdata.wargear_saves import WARGEAR, Defences, read_described

__all__ = [
    "Hh3ModelGroup",
    "Hh3Roster",
    "Hh3RosterUnit",
    "Hh3Weapon",
    "NotRead",
    "hh3_points",
    "read_hh3_roster",
]


@dataclass(frozen=True)
class Hh3Weapon:
    """A weapon selection: its name, how many, and its profiles (one per firing mode)."""

    name: str
    count: int
    ranged: tuple[Hh3RangedProfile, ...] = ()
    melee: tuple[Hh3MeleeProfile, ...] = ()


@dataclass(frozen=True)
class Hh3ModelGroup:
    """``count`` models of one statline, with the weapons and wargear of their selection.

    Attributes:
        name: The model selection's name (``Legionary``); the statline has the profile's (``Assault Legionary``).
        parts: Further statline profiles of the same selection (a titan's head, arms, legs).
        weapons: Weapon selections under the model selection (counts as the roster writes them: totals).
        wargear: Other selections under it (``Vexilla``, ``Nuncio-vox``), with their counts.
        wargear_reading: What their ``Wargear`` profiles' texts give the models (saves, rules, what is not read).
    """

    name: str
    count: int
    statline: Hh3Statline
    parts: tuple[Hh3Statline, ...] = ()
    weapons: tuple[Hh3Weapon, ...] = ()
    wargear: tuple[tuple[str, int], ...] = ()
    wargear_reading: Defences = field(default_factory=Defences)
    """What the ``Wargear`` profiles of the wargear read clause by clause give (a Cytheron pattern aegis's 5+
    Invulnerable Save), :func:`~praetor_analysis.bsdata.wargear_saves.read_described`."""


@dataclass(frozen=True)
class NotRead:
    """A selection of a roster that is not part of any unit (``Allegiance``, ``Rite of War``), with its points and
    the number of selections in its tree (itself included)."""

    name: str
    force: str
    points: float
    selections: int = 1


@dataclass
class Hh3RosterUnit(RosterUnit):
    """A 3rd-edition unit: the base record plus its typed model groups and the weapons and wargear of the unit."""

    groups: list[Hh3ModelGroup] = field(default_factory=list)
    unit_weapons: list[Hh3Weapon] = field(default_factory=list)
    unit_wargear: list[tuple[str, int]] = field(default_factory=list)
    unit_wargear_items: list[Described] = field(default_factory=list)
    """The ``Wargear`` profiles of the unit's own wargear (read with :func:`unit_wargear_reading`)."""

    def unit_wargear_reading(self) -> Defences:
        """What the unit's own wargear texts give every model, read clause by clause."""
        return read_described(self.unit_wargear_items)


@dataclass
class Hh3Roster(Roster):
    """A 3rd-edition roster: the base record plus the selections outside units, with their points."""

    not_read: list[NotRead] = field(default_factory=list)

    def unaccounted(self) -> float:
        """Declared total less the units' points and the not-read selections' (0 when every point is placed)."""
        return self.points - sum(u.points for u in self.units) - sum(n.points for n in self.not_read)


def hh3_points(sel: Element) -> float:
    """The ``Point(s)`` cost written on one selection (or the roster), 0 when none."""
    return selection_cost(sel, HH3_POINTS_TYPE_ID, "point(s)")


def _name(elem: Element) -> str:
    return " ".join((elem.get("name") or "").split())


def _chars(profile: Element) -> dict[str, str]:
    """A profile's characteristics, whitespace collapsed (lists in the data carry stray line breaks)."""
    return {
        (c.get("name") or "").strip(): " ".join((c.text or "").split())
        for c in children(profile, "characteristics", "characteristic")
    }


def _profiles(sel: Element, kinds: frozenset[str]) -> list[Element]:
    return [p for p in children(sel, "profiles", "profile") if profile_kind(p.get("typeName") or "") in kinds]


def _times(sel: Element) -> int:
    """How many of its one weapon a selection's name says it stands for (``Two Sponson Mounted lascannon arrays``
    over the ``Lascannon array`` profile: two), read as the 2nd edition's names are
    (:func:`~praetor_analysis.bsdata.roster_tree.count_in_name`); ``Pair of lightning claws``, whose profile has
    the pair's own name, is one weapon."""
    return count_in_name(_name(sel), [_name(p) for p in _profiles(sel, HH3_RANGED_TYPES | HH3_MELEE_TYPES)])


def _weapon(sel: Element) -> Hh3Weapon | None:
    ranged = tuple(
        Hh3RangedProfile.from_characteristics(_name(p), profile_kind(p.get("typeName") or ""), _chars(p))
        for p in _profiles(sel, HH3_RANGED_TYPES)
    )
    melee = tuple(
        Hh3MeleeProfile.from_characteristics(_name(p), profile_kind(p.get("typeName") or ""), _chars(p))
        for p in _profiles(sel, HH3_MELEE_TYPES)
    )
    if not ranged and not melee:
        return None
    return Hh3Weapon(_name(sel), selection_number(sel) * _times(sel), ranged, melee)


def _base_weapons(unit: RosterUnit, sel: Element, n: int) -> None:
    """Add a selection's weapon profiles to the base ``weapons`` list (merged by name and characteristics)."""
    for prof in _profiles(sel, HH3_RANGED_TYPES | HH3_MELEE_TYPES):
        wp = {"name": _name(prof), **_chars(prof), "profile_type": profile_kind(prof.get("typeName") or "")}
        wp["profile_id"] = (prof.get("id") or "").split("::")[-1]
        for i, known in enumerate(unit.weapons):
            if {k: v for k, v in known.profile.items() if k != "profile_id"} == {
                k: v for k, v in wp.items() if k != "profile_id"
            }:
                unit.weapons[i] = WeaponCount(known.profile, known.count + n)
                break
        else:
            unit.weapons.append(WeaponCount(wp, n))


def _base_model(unit: RosterUnit, statline: Element, n: int) -> None:
    model = ModelCount(_name(statline), n, _chars(statline))
    for i, known in enumerate(unit.models):
        if (known.name, known.statline) == (model.name, model.statline):
            unit.models[i] = replace(known, count=known.count + n)
            return
    unit.models.append(model)


class _Reader:
    """Walks one roster's forces, filling units and the list of selections outside them."""

    def __init__(self) -> None:
        self.units: list[Hh3RosterUnit] = []
        self.not_read: list[NotRead] = []

    def unit(self, sel: Element, force: str, parent: str = "") -> None:
        unit = Hh3RosterUnit(_name(sel), force=force, parent=parent)
        self.units.append(unit)
        self.fill(unit, sel, force, None)

    def fill(self, unit: Hh3RosterUnit, sel: Element, force: str, group: list[object] | None) -> None:
        """Add ``sel`` and its subtree to ``unit``; ``group`` collects what falls under a model selection."""
        n = selection_number(sel)
        unit.points += hh3_points(sel)
        statlines = _profiles(sel, HH3_STATLINE_TYPES)
        weapon = _weapon(sel)
        _base_weapons(unit, sel, n * _times(sel))
        mine: list[object] | None = group
        if statlines:
            _base_model(unit, statlines[0], n)
            mine = []
        elif weapon is not None:
            (unit.unit_weapons if group is None else group).append(weapon)
        elif sel.get("type") == "upgrade":
            (unit.unit_wargear if group is None else group).append((_name(sel), n))
            (unit.unit_wargear_items if group is None else group).extend(_wargear_items(sel))
        for child in children(sel, "selections", "selection"):
            if child.get("type") == "unit":
                self.unit(child, force, parent=unit.name)
            else:
                self.fill(unit, child, force, mine)
        if statlines and mine is not None:
            first, *parts = (
                Hh3Statline.from_characteristics(_name(p), profile_kind(p.get("typeName") or ""), _chars(p))
                for p in statlines
            )
            weapons = tuple(w for w in mine if isinstance(w, Hh3Weapon))
            wargear = tuple(w for w in mine if isinstance(w, tuple))
            reading = read_described([w for w in mine if isinstance(w, Described)])
            unit.groups.append(Hh3ModelGroup(_name(sel), n, first, tuple(parts), weapons, wargear, reading))


def _wargear_items(sel: Element) -> list[Described]:
    """A wargear selection's ``Wargear`` profiles, each by its name with its texts (Summary, Description)."""
    return [
        Described(_name(p), WARGEAR, tuple(_chars(p).values()))
        for p in children(sel, "profiles", "profile")
        if profile_kind(p.get("typeName") or "") == "Wargear"
    ]


def _has_statline(sel: Element) -> bool:
    return any(_profiles(s, HH3_STATLINE_TYPES) for s in sel.iter() if s.tag.rsplit("}", 1)[-1] == "selection")


def _not_read(sel: Element, force: str) -> NotRead:
    tree = [s for s in sel.iter() if s.tag.rsplit("}", 1)[-1] == "selection"]
    return NotRead(_name(sel), force, sum(hh3_points(s) for s in tree), len(tree))


def read_hh3_roster(root: Element, document: bytes, name: str, system: GameSystem) -> Hh3Roster:
    """Read a parsed 3rd-edition roster (its game system already identified as ``hh3``).

    Raises:
        UntrustedFileError: A selection's ``number`` out of bounds (the file named).
    """
    reader = _Reader()
    try:
        for force in roster_forces(root):
            label = " ".join((force.get("name") or "").split())
            for sel in children(force, "selections", "selection"):
                if sel.get("type") in ("unit", "model") or _has_statline(sel):
                    reader.unit(sel, label)
                else:
                    reader.not_read.append(_not_read(sel, label))
    except UntrustedFileError as exc:
        raise UntrustedFileError(f"{name}: {exc}") from None
    notes = (system.note,) if system.note else ()
    units: list[RosterUnit] = list(reader.units)
    loose = tuple((n.name, n.points) for n in reader.not_read if n.points)
    return Hh3Roster(_name(root), units, hh3_points(root), document, loose, "hh3", notes, not_read=reader.not_read)
