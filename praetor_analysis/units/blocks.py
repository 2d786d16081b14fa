"""Weapon and unit blocks parsed once: the records are immutable, so a sweep reuses them (a bounded memo).

The blocks themselves are written by the row records (:mod:`praetor_analysis.units.catalog_rows`:
``WeaponRow.to_block``, ``UnitRow.to_block`` for a target, ``Statline.to_dict`` for an attacker's statline),
where a JSON document is made; the unit floor builds its records from the rows (``units.engine_records``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from praetor_analysis.prob import BoundedMemo, frozen_key

__all__ = ["parse_cached"]

_PARSED: BoundedMemo[Any] = BoundedMemo(8192)


def parse_cached(kind: str, data: Any, field_name: str, build: Callable[[], Any]) -> Any:
    """Parse a weapon or unit block once: records are immutable, so sweeps reuse them (bounded memo)."""
    if not isinstance(data, Mapping):
        return build()
    frozen = frozen_key(data)  # equal JSON-like blocks share a key
    if frozen is None:
        return build()
    return _PARSED.get((kind, field_name, frozen), build)
