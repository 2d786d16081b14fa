"""Where a target's models stand for markers and templates: :class:`MarkerSetup` and the default formation.

Without a ``formation`` (and without ``hits``), a marker or template weapon fired at a unit that is not a
Vehicle is resolved over :func:`default_formation`: the target's models in lines of five, on the base of
their Unit Type (:data:`BASES_MM`), as far apart as unit coherency allows (:func:`coherency_gap`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from praetor_analysis.errors import counted_noun
from praetor_analysis.markers import DEFAULT_COLUMNS, Edges, Formation, Hull
from praetor_analysis.profiles import Unit

__all__ = [
    "BASES_MM",
    "COHERENCY_IN",
    "DEFAULT_COHERENCY_IN",
    "MarkerSetup",
    "coherency_gap",
    "default_base_mm",
    "default_formation",
    "default_note",
]


@dataclass(frozen=True)
class MarkerSetup:
    """Where the target stands and how markers are aimed: the typed ``formation``/``aim``/``edges`` block."""

    shape: Formation | Hull
    firer_distance: float = 1.0
    aim: int | None = None
    edges: Edges | None = None
    indirect: bool = False
    echo: Mapping[str, Any] | None = field(default=None, compare=False, hash=False)  # the result's formation


#: Base diameters (mm) of the default formation, by the first word found in the target's Unit Type (its
#: type or sub-types); any other Unit Type stands on 32 mm. The usual bases of the models, not a rule.
BASES_MM: tuple[tuple[str, float], ...] = (
    ("Armiger", 100),
    ("Dreadnought", 60),
    ("Primarch", 60),
    ("Monstrous", 60),
    ("Cavalry", 60),
    ("Automata", 60),
    ("Heavy", 40),
    ("Daemon", 40),
    ("Militia", 25),
    ("Infantry", 32),
)
#: Unit coherency range (inches) by sub-type: Skirmish 3", Close-order 1", else 2" (:func:`coherency_gap`).
COHERENCY_IN: tuple[tuple[str, float], ...] = (("Skirmish", 3.0), ("Close-order", 1.0))
DEFAULT_COHERENCY_IN = 2.0


def default_base_mm(unit_type: str) -> float:
    """The base diameter of a model of this Unit Type in the default formation (:data:`BASES_MM`)."""
    words = unit_type.casefold()
    return next((mm for word, mm in BASES_MM if word.casefold() in words), 32.0)


def coherency_gap(unit_type: str) -> float:
    """The gap between base edges of the default formation: the unit's whole coherency range, the spacing a
    careful player keeps against marker weapons (docs/rules.md#markers-and-templates)."""
    words = unit_type.casefold()
    return next((gap for word, gap in COHERENCY_IN if word.casefold() in words), DEFAULT_COHERENCY_IN)


def default_formation(target: Unit) -> MarkerSetup:
    """The marker setup used without a ``formation``: the target's models in lines of five, on the base of
    their Unit Type, ``coherency_gap`` apart (a Vehicle has none: its hull is not in the data)."""
    base, gap = default_base_mm(target.unit_type), coherency_gap(target.unit_type)
    columns = max(1, min(target.models, DEFAULT_COLUMNS))
    shape = Formation.grid(target.models, base_mm=base, gap=gap, columns=columns)
    echo = {"models": target.models, "base_mm": base, "gap": gap, "columns": columns, "firer_distance": 1.0,
            "default": True}  # fmt: skip
    return MarkerSetup(shape=shape, echo=echo)


def default_note(setup: MarkerSetup) -> str:
    """The ``applied`` entry saying a default formation was used."""
    e = setup.echo or {}
    return (
        f"default formation: {counted_noun(e.get('models'), 'model')} on {e.get('base_mm'):g} mm bases, "
        f'{e.get("gap"):g}" apart '
        f"(unit coherency), lines of {e.get('columns')}"
    )
