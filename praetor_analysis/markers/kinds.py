"""The marker and template kinds, in one table: which rule of a weapon picks which marker, and its size.

A weapon's kind is the first entry of :data:`MARKER_KINDS` it has (as a Type rule, or as its Range for
``Template``/``Hellstorm``): templates first, then the most specific marker, so that a
``Large Blast (5"), Barrage`` weapon is a Large Blast. Torrent (X) is a template weapon whose narrow end is
placed within X inches instead of touching the firer, so it comes before the plain Template. A Barrage with
no Blast size is taken as a 3" marker.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from praetor_analysis.profiles import Weapon

__all__ = ["MARKER_DIAMETERS", "MARKER_KINDS", "MEGA_BLAST_ZONES", "MarkerKind", "marker_kind", "marker_kind_of"]


@dataclass(frozen=True)
class MarkerKind:
    """One kind of marker or template.

    Attributes:
        name: the rule that picks it (``"Large Blast"``, ``"Torrent"``...).
        shape: ``"blast"`` (a round marker that scatters), ``"template"`` (a teardrop that is placed) or
            ``"clover"`` (the Apocalyptic Barrage marker).
        diameter: the round marker's diameter in inches (the outer zone for the Mega-blast); None otherwise.
    """

    name: str
    shape: Literal["blast", "template", "clover"]
    diameter: float | None = None

    def matches(self, weapon: Weapon) -> bool:
        """True when the weapon has this kind's rule (or its Range names this template)."""
        return weapon.has(self.name) or weapon.range.template == self.name


MEGA_BLAST_ZONES = (5.0, 7.0, 10.0)
"""Apocalyptic Mega-blast zone diameters (inner, middle, outer), inches."""

MARKER_DIAMETERS: dict[str, float] = {
    "Blast": 3.0,
    "Large Blast": 5.0,
    "Massive Blast": 7.0,
    "Apocalyptic Blast": 10.0,
    "Apocalyptic Mega-blast": MEGA_BLAST_ZONES[-1],
}
"""The diameters of the sized marker rules, inches."""

MARKER_KINDS: tuple[MarkerKind, ...] = (
    MarkerKind("Hellstorm", "template"),
    MarkerKind("Torrent", "template"),
    MarkerKind("Template", "template"),
    MarkerKind("Apocalyptic Barrage", "clover"),
    *(
        MarkerKind(name, "blast", MARKER_DIAMETERS[name])
        for name in ("Apocalyptic Mega-blast", "Apocalyptic Blast", "Massive Blast", "Large Blast", "Blast")
    ),
    MarkerKind("Barrage", "blast", MARKER_DIAMETERS["Blast"]),  # no size given: the Blast marker
)
"""Every kind, in the order a weapon's rules pick one (the first that matches)."""


def marker_kind_of(weapon: Weapon) -> MarkerKind | None:
    """The weapon's marker or template kind, or None for a weapon without one (memoised per weapon: a sweep
    asks once per target; by the record itself first, whose value is hashed only when it is new)."""
    found = _BY_RECORD.get(id(weapon))
    if found is None or found[0] is not weapon:
        if len(_BY_RECORD) >= _RECORDS:
            _BY_RECORD.clear()
        found = _BY_RECORD[id(weapon)] = (weapon, _kind_of(weapon))  # the record held: its id is not reused
    return found[1]


_BY_RECORD: dict[int, tuple[Weapon, MarkerKind | None]] = {}
_RECORDS = 4096


@lru_cache(maxsize=4096)
def _kind_of(weapon: Weapon) -> MarkerKind | None:
    return next((k for k in MARKER_KINDS if k.matches(weapon)), None)


def marker_kind(weapon: Weapon) -> str | None:
    """The name of the weapon's marker or template kind, or None."""
    kind = marker_kind_of(weapon)
    return None if kind is None else kind.name
