"""A frozen record's hash kept once asked: the edition 3 chain's records (a Fire Group, its strike, a volley) are
the keys of several bounded memos and are hashed again and again; a dataclass's own hash recomputes every field's
(a Dist hashes its bytes) each time.

Use ``__hash__ = kept_hash`` and ``__getstate__ = state_without_hash`` in the body of a frozen dataclass: its
equality stays the dataclass's (the fields), the hash is the hash of the fields' tuple, and a copy or a pickle
carries no kept hash (another process hashes anew).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import Any

__all__ = ["kept_hash", "state_without_hash"]

_KEPT = "_kept_hash"


_FIELDS: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def kept_hash(self: Any) -> int:
    """The hash of the record's fields (the tuple of their values), computed once."""
    cached: int | None = self.__dict__.get(_KEPT)
    if cached is None:
        values = _FIELDS.get(type(self))
        if values is None:  # one getter per record type: the fields' tuple in one call
            names = [f.name for f in dataclasses.fields(self)]
            values = _FIELDS[type(self)] = attrgetter(*names) if len(names) > 1 else lambda r: (getattr(r, names[0]),)
        cached = hash(values(self))
        object.__setattr__(self, _KEPT, cached)
    return cached


def state_without_hash(self: Any) -> dict[str, Any]:
    """The record's fields for copy and pickle, without the kept hash."""
    return {k: v for k, v in self.__dict__.items() if k != _KEPT}
