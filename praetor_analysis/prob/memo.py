"""A bounded memo: values computed once per key, the whole memo emptied when it is full.

Used for the per-hit tables and parsed records that sweeps ask for again and again; every memo is
registered, so :func:`clear_memos` can make a benchmark start cold.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["BoundedMemo", "clear_memos"]

V = TypeVar("V")

_ALL: list[BoundedMemo] = []


class BoundedMemo(Generic[V]):
    """At most ``size`` computed values by key; a key that cannot be hashed is computed every time.

    Args:
        size: the largest number of entries; when full, the next new key empties the memo first.
    """

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"size: must be >= 1, got {size}")
        self.size = size
        self._data: dict[Hashable, V] = {}
        _ALL.append(self)

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        """The value of ``key``, calling ``build()`` the first time (and for unhashable keys)."""
        try:
            hit = self._data.get(key)
        except TypeError:  # an unhashable part of the key: no memo
            return build()
        if hit is None:
            if len(self._data) >= self.size:
                self._data.clear()
            hit = self._data[key] = build()
        return hit

    def peek(self, key: Hashable) -> V | None:
        """The value held for ``key``, or None (nothing is computed)."""
        return self._data.get(key)

    def put(self, key: Hashable, value: V) -> None:
        """Hold ``value`` for ``key`` (the memo emptied first when full)."""
        if key not in self._data and len(self._data) >= self.size:
            self._data.clear()
        self._data[key] = value

    def values(self) -> list[V]:
        """The values held now."""
        return list(self._data.values())

    def clear(self) -> None:
        """Forget every value."""
        self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


def clear_memos() -> None:
    """Empty every bounded memo (for cold timings)."""
    for memo in _ALL:
        memo.clear()
