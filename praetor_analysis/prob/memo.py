"""A bounded memo: values computed once per key, the whole memo emptied when it is full.

Used for the per-hit tables and parsed records that sweeps ask for again and again; every memo is
registered, so :func:`clear_memos` can make a benchmark start cold.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import numpy as np

__all__ = [
    "MISSING",
    "BoundedMemo",
    "Unkeyed",
    "clear_memos",
    "cleared_with_memos",
    "frozen_key",
    "token_field",
    "token_key",
    "token_keys",
    "token_of",
    "token_rows",
]

V = TypeVar("V")

_ALL: list[Any] = []  # every BoundedMemo and the token table: emptied by clear_memos


class _Cache(Protocol):
    def cache_clear(self) -> None: ...


C = TypeVar("C", bound=_Cache)
_CACHES: list[_Cache] = []


def cleared_with_memos(cached: C) -> C:
    """Register a ``functools.lru_cache`` function whose values depend on a scenario's numbers (a probability), so
    :func:`clear_memos` empties it too; returns it unchanged."""
    _CACHES.append(cached)
    return cached


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
        if len(self._data) >= self.size and key not in self._data:
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
    """Empty every bounded memo and every cache registered by :func:`cleared_with_memos` (for cold timings)."""
    for memo in _ALL:
        memo.clear()
    for cached in _CACHES:
        cached.cache_clear()


_ATOMS = frozenset({str, int, bool, type(None)})
"""Value types whose equality is their identity as a document value: ``1``, ``True`` and ``1.0`` are equal
in Python but differ in a document, so each value's type is part of the key; floats are keyed by their
``repr`` (``-0.0 == 0.0``, ``nan != nan``)."""

_NUMBERS = (np.number, np.bool_)
"""Numpy scalars, keyed like floats by their exact text beside their type; a value of any other type but dicts,
lists and tuples has no key (a text that two values share would answer one with the other's memo)."""


@dataclass(frozen=True)
class Unkeyed:
    """The stand-in key of a value that has no ``frozen_key`` (its ``id``, while the caller holds it): it tells
    equal values apart within one call, and is never a memo's key."""

    ident: int


def frozen_key(value: Any) -> Hashable | None:
    """A hashable key equal for two JSON-like values (dicts, lists, str, int, float, bool, None) exactly when
    they are the same document, keys in the same order: each dict's keys, values and the values' types (a
    float or numpy number by its ``repr``); the same of a list's or tuple's items. None when there is none
    (nested too deeply, an integer beyond Python's digit limit, a value of another type: a mapping that is no
    dict, an object). Cheaper than ``repr`` or
    ``json.dumps`` of a document whose blocks are flat (a tuple of the keys, one of the values, one of the
    values' types)."""
    kind = type(value)
    if kind in _ATOMS:  # a flag, a count, a text: its own key beside its type
        return (kind, value)
    try:
        return (kind, _frozen(value))
    except (RecursionError, ValueError):
        return None


MISSING: Any = object()
"""A cell of :func:`token_rows`' columns that is no field of its row's dict."""


class _Tokens:
    """The interned keys of values met in documents: a small integer for each distinct ``(type, _frozen)`` key
    of a dict, list or other container. Hashing a token is cheap where hashing a nested key walks it again;
    tokens are never reused (a count), so a memo keyed by one from before :meth:`clear` is never matched again,
    never matched wrongly. Emptied with the memos (:func:`clear_memos`) and, when it would pass ``size``, at the
    start of a call (:meth:`room`): never during one, so equal values of one call share one token. A call may add
    a token per dict or list of each value, so the table holds at most ``size`` plus one call's."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: dict[Hashable, int] = {}
        self._count = itertools.count(1)
        _ALL.append(self)

    def room(self, n: int) -> None:
        """Empty the table first when ``n`` more keys would pass its size."""
        if len(self._data) + n > self.size:
            self._data.clear()

    def of(self, value: Any) -> Hashable:
        """The token of ``value``: ``(type, value)`` for a flag, count, text or None, ``(float, repr)`` for a
        float, else the interned integer of its ``(type, _frozen(value))`` key (RecursionError or ValueError
        when it has none)."""
        kind = type(value)
        if kind in _ATOMS:
            return (kind, value)
        if kind is float:
            return (float, repr(value))
        if kind is dict:  # _frozen's, a block of flags, counts and texts written out (the common block)
            values = tuple(value.values())
            types = tuple(map(type, values))
            frozen: Hashable = (dict, (tuple(value), values, types) if _ATOMS.issuperset(types) else _frozen(value))
        else:
            frozen = (kind, _frozen(value))
        found = self._data.get(frozen)
        if found is None:
            found = self._data[frozen] = next(self._count)
        return found

    def clear(self) -> None:
        """Forget every token."""
        self._data.clear()

    def __len__(self) -> int:
        return len(self._data)


_TOKENS = _Tokens(1 << 17)


def token_of(value: Any) -> Hashable | None:
    """The token of ``value`` as a field of a dict (:func:`token_key`: what :func:`token_field` reads off the
    dict's key), None when it has none."""
    _TOKENS.room(1)
    try:
        return _TOKENS.of(value)
    except (RecursionError, ValueError):
        return None


def token_key(value: Any) -> Hashable | None:
    """A hashable key equal for two JSON-like values exactly when their :func:`frozen_key` are equal (within
    one life of the token table), cheap to hash: a dict is ``(dict, its keys, their values' tokens)`` (a value's
    token: ``(type, value)`` for a flag, count, text or None, a float's text, an interned integer for a dict
    or list), any other value its token. None when there is none (as for :func:`frozen_key`: nested too deeply,
    an integer beyond Python's digit limit, a value of another type). :func:`token_field` reads a field's token
    off a dict's key."""
    return token_keys((value,))[0]


def token_keys(values: Sequence[Any]) -> list[Hashable | None]:
    """:func:`token_key` of each of ``values``, in one pass: a dict or list met again as the very same object (a
    block that documents of one call share, or the document itself repeated) is walked once. The caller holds
    ``values`` and leaves them unchanged while it runs (an object's id is its key within this call only)."""
    _TOKENS.room(len(values))
    seen: dict[int, Any] = {}  # by id: a dict or list walked, the caller holding it

    def field(value: Any) -> Hashable:
        kind = type(value)
        if kind is dict or kind is list:
            found = seen.get(id(value))
            if found is None:
                found = seen[id(value)] = _TOKENS.of(value)
            return found
        return _TOKENS.of(value)

    out: list[Hashable | None] = []
    for value in values:
        if type(value) is not dict:
            try:
                out.append(field(value))
            except (RecursionError, ValueError):
                out.append(None)
            continue
        key = seen.get(~id(value))  # the very same document again (an array made as [document] * n)
        if key is None:
            try:
                key = seen[~id(value)] = (dict, tuple(value), tuple(map(field, value.values())))
            except (RecursionError, ValueError):
                key = seen[~id(value)] = _NO_KEY
        out.append(None if key is _NO_KEY else key)
    return out


_NO_KEY: Any = object()


def token_rows(names: Sequence[str], columns: Sequence[Sequence[Any]], n: int) -> list[Hashable | None]:
    """:func:`token_keys` of the dicts whose field ``names[c]`` is ``columns[c][i]`` (row ``i``; ``MISSING``: no
    such field; ``n`` rows), made column by column without the dicts: each distinct object of a column is
    keyed once, a column of flags, counts and texts is its own tokens. The same keys as ``token_keys`` of those
    dicts, built with their fields in the order of ``names``."""
    _TOKENS.room(n)
    of = _TOKENS.of
    fields: list[list[Any]] = []
    broken: set[int] = set()  # rows one of whose cells has no key (nested too deeply, a huge integer)
    gaps: set[int] = set()  # rows one of whose cells is MISSING
    for column in columns:
        kinds = list(map(type, column))
        if _ATOMS.issuperset(kinds):  # flags, counts, texts: each cell its own token
            fields.append(list(zip(kinds, column, strict=True)))
            continue
        ids = list(map(id, column))
        by_id: dict[int, Any] = dict(zip(ids, column, strict=True))  # each distinct object once
        bad = False
        for ident, value in by_id.items():  # values replaced in place: the keys stay
            if value is MISSING:
                bad = True
                continue
            try:
                by_id[ident] = of(value)
            except (RecursionError, ValueError):
                by_id[ident], bad = _NO_KEY, True
        keys = list(map(by_id.__getitem__, ids))
        if bad:
            for i, key in enumerate(keys):
                if key is MISSING:
                    gaps.add(i)
                elif key is _NO_KEY:
                    broken.add(i)
        fields.append(keys)
    whole = tuple(names)
    if not columns:
        return [(dict, (), ())] * n
    rows = zip(*fields, strict=True)
    if not broken and not gaps:  # every row has every field
        return [(dict, whole, row) for row in rows]
    out: list[Hashable | None] = []
    for i, row in enumerate(rows):
        if i in broken:
            out.append(None)
        elif i not in gaps:
            out.append((dict, whole, row))
        else:
            kept = [c for c, value in enumerate(row) if value is not MISSING]
            out.append((dict, tuple(whole[c] for c in kept), tuple(row[c] for c in kept)))
    return out


def token_field(key: Hashable | None, name: str) -> Hashable | None:
    """The token of field ``name`` of a dict (as :func:`token_key` makes it), read off the dict's own
    :func:`token_key` (``key``); None when ``key`` is no dict's key or the dict has no such field."""
    if type(key) is not tuple or len(key) != 3 or key[0] is not dict:
        return None
    _, names, fields = key
    try:
        return fields[names.index(name)]
    except ValueError:
        return None


def _frozen(value: Any) -> Hashable:
    """The key of ``value`` without its type (its container records the type)."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is dict:
        values = tuple(value.values())
        types = tuple(map(type, values))
        if not _ATOMS.issuperset(types):
            values = tuple(map(_frozen, values))
        return (tuple(value), values, types)
    if kind is list or kind is tuple:
        types = tuple(map(type, value))
        return (tuple(map(_frozen, value)), types)
    if kind is float or isinstance(value, _NUMBERS):
        return repr(value)  # its exact text beside its type (-0.0 == 0.0, nan != nan)
    raise ValueError(f"no key for a {kind.__name__}")  # its text need not tell two apart (a default repr: an address)
