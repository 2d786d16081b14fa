"""The records a roster reader produces, whatever the edition: a roster, its units, their models and weapons.

Both editions' readers (:mod:`~praetor_analysis.bsdata.roster` for the 2nd, :mod:`~praetor_analysis.bsdata.roster_hh3`
for the 3rd) build these; ``Roster.edition`` says which game the file is for.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from praetor_analysis.bsdata.files import UntrustedFileError, children, local
from praetor_analysis.engine import check_finite_cost
from praetor_analysis.errors import PraetorError

__all__ = [
    "MAX_SELECTION_NUMBER",
    "ModelCount",
    "Roster",
    "RosterUnit",
    "WeaponCount",
    "roster_forces",
    "selection_cost",
    "selection_number",
]

MAX_SELECTION_NUMBER = 10_000
"""Largest ``number`` of one selection accepted (a real roster's largest is a few dozen models)."""


@dataclass(frozen=True)
class ModelCount:
    """Models of one profile in a unit: profile name, how many, and the statline by characteristic."""

    name: str
    count: int
    statline: dict[str, str]


@dataclass(frozen=True)
class WeaponCount:
    """A weapon profile (name, Range, Strength, AP, Type, Type_clean, profile_type, profile_id) and how many."""

    profile: dict[str, str]
    count: int


@dataclass
class RosterUnit:
    """One unit of a roster.

    Attributes:
        name: Selection name.
        models: Model profiles with counts (same name and statline merged).
        weapons: Weapon profiles with counts (same name, Range, Strength, AP and Type merged).
        points: Sum of the ``Pts`` costs of the unit's selections.
        force: Name of the force holding it.
        parent: Name of the unit it was nested in (e.g. a dedicated transport), or ``""``.
    """

    name: str
    models: list[ModelCount] = field(default_factory=list)
    weapons: list[WeaponCount] = field(default_factory=list)
    points: float = 0.0
    force: str = ""
    parent: str = ""

    @property
    def model_count(self) -> int:
        """Total number of models."""
        return sum(m.count for m in self.models)


@dataclass
class Roster:
    """A roster: its name, units and total points (as stated in the file), and the ``.ros`` document it was
    read from (unpacked; what the fielded reading of its selections reads).

    ``edition`` is the game it is for (``hh2`` or ``hh3``, from its game system); ``notes`` say how the game
    system was recognised when not by its id (:mod:`~praetor_analysis.bsdata.game_system`).
    """

    name: str
    units: list[RosterUnit]
    points: float
    document: bytes = field(default=b"", repr=False, compare=False)
    loose: tuple[tuple[str, float], ...] = ()
    """``(name, points)`` of the costed selections outside every unit (a force's upgrades): listed, not rated."""
    edition: str = "hh2"
    notes: tuple[str, ...] = ()


def selection_number(sel: Element) -> int:
    """The selection's ``number`` (1 when absent or unreadable); refused outside 0..MAX_SELECTION_NUMBER."""
    raw = sel.get("number", "1")
    try:
        value = float(raw)
    except ValueError:
        return 1
    if not (math.isfinite(value) and value.is_integer() and 0 <= value <= MAX_SELECTION_NUMBER):
        shown = raw if len(raw) <= 40 else raw[:37] + "..."
        raise UntrustedFileError(
            f"selection {(sel.get('name') or '')[:60]!r}: number={shown!r} is not a whole "
            f"number of 0..{MAX_SELECTION_NUMBER}"
        )
    return int(value)


def selection_cost(sel: Element, type_id: str, name: str) -> float:
    """The cost of one cost type written on a selection (or a roster), by its ``typeId`` or its ``name``
    (case aside): 0 when none. A value that is not a finite number of 0 to 1,000,000 (``NaN``, ``abc``, ``-100``,
    ``1e308``) is refused, naming the selection (docs/limits.md)."""
    total = 0.0
    for cost in children(sel, "costs", "cost"):
        if cost.get("typeId") == type_id or (cost.get("name") or "").strip().lower() == name:
            label = sel.get("name") or ""
            where = f"{local(sel.tag)} {label if len(label) <= 60 else label[:57] + '...'!r}"
            try:
                total += check_finite_cost(cost.get("value", "0"), where)
            except PraetorError as exc:
                raise UntrustedFileError(str(exc)) from None
    return total


def roster_forces(root: Element) -> list[Element]:
    """Every force of a roster, nested ones after their parent (depth first, iterative)."""
    found: list[Element] = []
    stack = list(reversed(list(children(root, "forces", "force"))))
    while stack:
        force = stack.pop()
        found.append(force)
        stack.extend(reversed(list(children(force, "forces", "force"))))
    return found
