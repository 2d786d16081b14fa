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


def test_peek_and_put_hold_a_value_and_empty_when_full():
    memo: BoundedMemo[int] = BoundedMemo(2)
    assert memo.peek("a") is None
    memo.put("a", 1)
    memo.put("b", 2)
    assert (memo.peek("a"), memo.peek("b")) == (1, 2)
    memo.put("a", 3)  # a key held: replaced, nothing emptied
    assert (memo.peek("a"), len(memo)) == (3, 2)
    memo.put("c", 4)  # full: emptied first
    assert (memo.peek("a"), memo.peek("c"), len(memo)) == (None, 4, 1)


def test_a_scenario_document_is_parsed_once_by_its_text():
    # parse_scenario memoises a statline volley by the document's text: the same text gives the same records,
    # a changed document (even the same object, mutated) its own, and a refused document is refused every time
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.scenario.document import parse_scenario

    doc = {"attacker": {"BS": 4}, "attacks": 3, "weapon": {"Strength": "4", "AP": "5", "Type": "Heavy 1"},
           "target": {"T": 4, "W": 1, "Save": "3+", "models": 5}}  # fmt: skip
    first = parse_scenario(doc)
    assert parse_scenario({**doc}) is first
    doc["attacks"] = 4
    again = parse_scenario(doc)
    assert again is not first and again.firing_units[0][0].attacks.dist.max == 4
    doc["target"]["models"] = 6
    assert parse_scenario(doc).target.models == 6
    bad = {**doc, "attacks": -1}
    for _ in range(2):
        with pytest.raises(ScenarioError, match="attacks"):
            parse_scenario(bad)
