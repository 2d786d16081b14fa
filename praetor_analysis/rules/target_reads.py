"""What of a target a rule's wound, save and damage hooks read, beyond its Toughness, saves and cover.

Each declaration says it once (``declare(..., reads_types=..., reads_fields=...)``): the Unit Type words its
hooks test (``target_is("Heavy")``) and the other parts of the target they read (its Strength, its name, its
whole Unit Type). Targets that agree on all of these share their per-hit tables in a sweep, so a Blast weapon
builds one table for every Unit Type that is not Heavy. ``tests/test_target_reads.py`` checks every
declaration's hooks against every Unit Type of the shipped data: a hook that reads more than its
declaration says fails there.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: The parts of a target besides its Unit Type words that a hook may read: ``S`` (Graviton weapons roll
#: against it), ``W`` (Entangle spares models of 6 or more Wounds), ``name`` and ``unit_type`` (the whole text:
#: Preferred Enemy (X) looks for X in both).
FIELDS = frozenset({"S", "W", "name", "unit_type"})


@dataclass(frozen=True)
class TargetReads:
    """Unit Type words tested and other target fields read (``FIELDS``) by some rules' hooks."""

    types: frozenset[str] = frozenset()
    fields: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = self.fields - FIELDS
        if unknown:
            raise RuntimeError(f"reads_fields: unknown target fields {sorted(unknown)}")

    def __or__(self, other: TargetReads) -> TargetReads:
        return TargetReads(self.types | other.types, self.fields | other.fields)

    def unit_type(self, unit_type: str) -> str:
        """A Unit Type that answers every tested word as ``unit_type`` does: the words it contains, or the
        whole text when a hook reads it whole (or when the words alone would answer a test otherwise)."""
        if "unit_type" in self.fields:
            return unit_type
        low = unit_type.lower()
        words = sorted(w for w in self.types if w.lower() in low)
        short = " ".join(words).lower()
        if all((w.lower() in short) == (w.lower() in low) for w in self.types):
            return " ".join(words)
        return unit_type


NO_READS = TargetReads()


def reads(types: Iterable[str] = (), fields: Iterable[str] = ()) -> TargetReads:
    """A ``TargetReads`` of the given words and fields (the shared empty one when both are empty)."""
    out = TargetReads(frozenset(types), frozenset(fields))
    return NO_READS if out == NO_READS else out
