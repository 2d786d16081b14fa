"""The bounded memo (prob.memo): computed once, emptied when full, unhashable keys computed each time."""

from __future__ import annotations

import pytest

from praetor_analysis.prob.memo import BoundedMemo, clear_memos


def test_computes_once_and_empties_when_full():
    memo: BoundedMemo[int] = BoundedMemo(2)
    calls: list[str] = []

    def build(key: str) -> int:
        calls.append(key)
        return len(calls)

    assert memo.get("a", lambda: build("a")) == 1
    assert memo.get("a", lambda: build("a")) == 1
    assert memo.get("b", lambda: build("b")) == 2
    assert len(memo) == 2
    assert memo.get("c", lambda: build("c")) == 3  # full: emptied, then "c" stored
    assert len(memo) == 1
    assert memo.get("a", lambda: build("a")) == 4
    assert calls == ["a", "b", "c", "a"]


def test_unhashable_keys_and_clear():
    memo: BoundedMemo[int] = BoundedMemo(8)
    assert memo.get(("x", [1]), lambda: 5) == 5
    assert len(memo) == 0
    memo.get("k", lambda: 1)
    clear_memos()
    assert len(memo) == 0
    with pytest.raises(ValueError, match="size"):
        BoundedMemo(0)
