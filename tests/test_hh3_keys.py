"""The kept hash of the edition 3 chain's memo keys (engine/hh3/keys.py): a Fire Group, a Strike and a volley hash
as their fields do, once; equality stays the fields'; a copy or a replaced record hashes anew."""

from __future__ import annotations

import copy
import dataclasses

from praetor_analysis.engine.hh3 import GIVEN_HIT, Defence, FireGroup, Strike
from praetor_analysis.engine.hh3.keys import kept_hash, state_without_hash
from praetor_analysis.prob import Dist


def _group(deflagrate: int | None = None) -> FireGroup:
    return FireGroup(Dist.point(3), GIVEN_HIT, Strike(4, 5, Dist([0.0, 0.5, 0.5])),
                     Defence(4, 3, None, None, None, None, 0), deflagrate)  # fmt: skip


def test_the_hash_is_the_fields_hash_kept_once() -> None:
    group = _group()
    fields = tuple(getattr(group, f.name) for f in dataclasses.fields(group))
    assert hash(group) == hash(fields)
    assert "_kept_hash" in group.__dict__
    assert hash(group) == hash(_group())  # an equal record built anew hashes the same
    assert group == _group() and group != _group(4)
    assert {group: 1}[_group()] == 1  # a memo keyed on one finds the other


def test_copies_and_replacements_hash_anew() -> None:
    group = _group()
    hash(group)
    assert "_kept_hash" not in copy.copy(group).__dict__
    assert "_kept_hash" not in state_without_hash(group)
    other = dataclasses.replace(group, deflagrate=4)
    assert "_kept_hash" not in other.__dict__
    assert hash(other) == hash(tuple(getattr(other, f.name) for f in dataclasses.fields(other)))


def test_the_records_use_it() -> None:
    from praetor_analysis.engine.hh3.volley import Hh3Volley

    for record in (FireGroup, Strike, Hh3Volley):
        assert record.__hash__ is kept_hash
