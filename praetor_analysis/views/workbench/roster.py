"""A loaded roster's units in the workbench: attackers and targets priced as the roster prices them (pure).

A roster the reader uploads has no path on the reader's machine that the kernel knows, and its units cannot be
rewritten as datasheet blocks giving the same numbers (a roster's models, wargear and points are its own, not
a loadout the data prices). So a saved setup names each roster unit as ``praetor calc`` reads it,
``{"roster": FILE NAME, "unit": LABEL}``, the roster by the name it was uploaded under: ``praetor calc`` run in
the folder holding that file gives the workbench's numbers. The workbench computes its cells on the same
scenarios, with the roster's bytes kept in a file of its own (:func:`local_scenarios` puts that file's path in).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from praetor_analysis.errors import counted_noun
from praetor_analysis.io import atomic_write_bytes
from praetor_analysis.units import NO_MODIFIERS, FieldedUnit, Modifiers
from praetor_analysis.views.workbench.view import Attacker, Target

__all__ = ["LoadedRoster", "local_scenarios", "read_loaded_roster", "roster_name_of"]


@dataclass(frozen=True)
class LoadedRoster:
    """A roster loaded in the workbench.

    Attributes:
        name: The file name it was loaded under (``HH2 - Dark Angels.rosz``): what a saved setup names.
        path: Where the kernel keeps its bytes (the cells are computed on it).
        units: Its units as fielded, in ``praetor roster``'s order.
        labels: Their labels as ``praetor roster`` prints them (what ``unit`` names).
    """

    name: str
    path: Path
    units: tuple[FieldedUnit, ...]
    labels: tuple[str, ...]

    def choices(self) -> list[tuple[str, int]]:
        """(label with its size and the roster's points, index) of each unit."""
        return [
            (f"{label} ({counted_noun(u.size, 'model')}, {u.points:g} pts)", i)
            for i, (label, u) in enumerate(zip(self.labels, self.units, strict=True))
        ]

    def block(self, index: int) -> dict[str, str]:
        """The scenario's block naming unit ``index``: ``{"roster": NAME, "unit": LABEL}``."""
        return {"roster": self.name, "unit": self.labels[index]}

    def attacker(
        self, index: int, phase: str = "shooting", modifiers: Modifiers = NO_MODIFIERS, *, charging: bool = False
    ) -> Attacker:
        """Unit ``index`` as an attacker (its points the roster's: ``praetor calc`` reports them)."""
        label = f"{self.labels[index]} (roster, {self.units[index].points:g} pts)"
        return Attacker(label, self.block(index), None, phase, modifiers, charging)

    def target(self, index: int) -> Target:
        """Unit ``index`` as a target; its points per model the roster's total over its models."""
        u = self.units[index]
        per = u.points / u.size if u.size else math.nan
        return Target(f"{self.labels[index]} (roster)", self.block(index), per)


def read_loaded_roster(data: bytes, name: str, folder: Path) -> LoadedRoster:
    """Read roster bytes (``.ros`` or ``.rosz``) and keep them in ``folder`` under their file name.

    Raises:
        PraetorError: The bytes are not a roster (too large, not XML, entities, no roster root...), or the
            roster has no unit with a model.
    """
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.units import unique_labels
    from praetor_analysis.units.fielded import roster_units

    base = Path(name).name.strip() or "roster.ros"
    units = tuple(roster_units(bytes(data), base))
    if not units:
        raise ScenarioError(f"{base}: the roster has no unit with a model to field")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / base
    atomic_write_bytes(path, bytes(data))
    return LoadedRoster(base, path, units, tuple(unique_labels([u.datasheet for u in units])))


def roster_name_of(block: Any) -> str | None:
    """The roster file a scenario's attacker or target block names (None: not a roster's unit)."""
    if isinstance(block, Mapping) and isinstance(block.get("roster"), str):
        return str(block["roster"])
    return None


def local_scenarios(docs: Sequence[Mapping[str, Any]], paths: Mapping[str, Path]) -> list[dict[str, Any]]:
    """The scenarios with each roster named as loaded replaced by the file the kernel keeps it in (a roster
    not loaded is left as named: ``praetor calc`` says it cannot read it)."""
    out = []
    for doc in docs:
        new = dict(doc)
        for key in ("attacker", "target"):
            name = roster_name_of(doc.get(key))
            if name is not None and name in paths:
                new[key] = {**doc[key], "roster": str(paths[name])}
        out.append(new)
    return out
