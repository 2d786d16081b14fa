"""``calc_many`` gives, document by document, the very JSON that ``calc`` gives one at a time (issue 37, item 5):
on the batch benchmark's 600 infantry cells and on the generated scenarios, cold (memos cleared) and warm, with
refused documents among them refused in the same words; each result is a fresh object of its own."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from scenarios import TARGETS, all_scenarios, shooting

from praetor_analysis.errors import ScenarioError
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.scenario.calc import calc, calc_many

# the 600 documents of bench/bench_batch.py's section 1: its rule sets, counts and standard targets (the blocks the
# shipped catalog's load_targets() rows give, written out so that the test reads no catalog)
RULE_SETS = ["", ", Rending (6+)", ", Shred", ", Brutal (2)", ", Breaching (5+)", ", Murderous Strike (6+)",
             ", Instant Death", ", Pinning", ", Rending (6+), Shred", ", Breaching (4+), Pinning",
             ", Brutal (2), Rending (6+)", ", Murderous Strike (5+), Shred", ", Shred, Pinning",
             ", Rending (5+), Brutal (3)", ", Instant Death, Pinning"]  # fmt: skip
ATTACKS = [5, 10, 15, 20, 25, 30, 40, 45, 50, 60]
BENCH_TARGETS = [
    {"name": "Legionary (Tactical Squad)", "Unit Type": "Infantry (Line)", "models": 10, "WS": "4", "BS": "4",
     "S": "4", "T": "4", "W": "1", "I": "4", "A": "1", "Ld": "7", "Save": "3+"},
    {"name": "Cataphractii Terminator", "Unit Type": "Infantry (Heavy)", "models": 5, "WS": "4", "BS": "4",
     "S": "4", "T": "4", "W": "2", "I": "4", "A": "2", "Ld": "7", "Save": "2+", "Invulnerable": "4+"},
    {"name": "Contemptor Dreadnought", "Unit Type": "Dreadnought", "models": 1, "WS": "5", "BS": "5", "S": "7",
     "T": "7", "W": "6", "I": "4", "A": "3", "Ld": "9", "Save": "2+", "Invulnerable": "5+"},
    {"name": "Militia (Infantry Squad)", "Unit Type": "Infantry (Militia, Line)", "models": 20, "WS": "3",
     "BS": "3", "S": "3", "T": "3", "W": "1", "I": "3", "A": "1", "Ld": "5", "Save": "5+"},
]  # fmt: skip


def bench_documents() -> list[dict[str, Any]]:
    """The benchmark's documents, a target block shared by the cells that fire at it (as the benchmark does)."""
    blocks = [dict(block) for block in BENCH_TARGETS]
    return [
        {
            "attacker": {"BS": 4, "S": 4},
            "attacks": n,
            "weapon": {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": f"Heavy 1{rules}"},
            "target": block,
        }
        for n in ATTACKS
        for rules in RULE_SETS
        for block in blocks
    ]


def refused_documents() -> list[Any]:
    """Documents each refused somewhere along the parse (a field, a count, a block, a check of the volley)."""
    good = shooting(["Rending (5+)"])
    return [
        {**good, "attacks": -1},
        {**good, "attacks": 1.5},
        {**good, "attacks": True},
        {**good, "attacks": 5000},
        {**good, "attacks": "abc"},
        {**good, "hits": 3, "snap_shots": True},
        {**good, "mode": "melee", "snap_shots": True},
        {**good, "target": {**TARGETS[0], "W": 0}},
        {**good, "target": {**TARGETS[0], "charging": True}},
        {**good, "attacker": {**good["attacker"], "models": 0}},
        {**good, "attacker": {**good["attacker"], "moved": True}},
        {**good, "weapon": {}},
        {**good, "weapon": {**good["weapon"], "Type": "Melee"}},
        {**good, "half_range": "yes"},
        {**good, "bogus": 1},
        {**good, "aim": "centre"},
        {**good, "name": [1]},
        {**good, "target": "No Such Unit At All"},
        "not a document",
    ]


def _text(value: Any) -> Any:
    """A result as JSON (decoded again: keys in their order, the CLI's output), or a refusal's words, field and
    value."""
    if isinstance(value, ScenarioError):
        return ("refused", str(value), value.field, repr(value.value))
    return json.loads(json.dumps(value, allow_nan=True), object_pairs_hook=list)


def _same(a: Any, b: Any) -> bool:
    """The same JSON but for the last bits of a float (the batch sums a block's means in one product: 1e-12)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or abs(a - b) <= 1e-12 * max(1.0, abs(a), abs(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _one_at_a_time(items: list[Any]) -> list[Any]:
    out = []
    for item in items:
        try:
            out.append(_text(calc(copy.deepcopy(item))))
        except ScenarioError as exc:
            out.append(_text(exc))
    return out


@pytest.mark.parametrize("which", ["bench", "generated"])
def test_calc_many_gives_each_document_what_calc_gives_it(which: str) -> None:
    items = bench_documents() if which == "bench" else [doc for _, doc in all_scenarios()]
    items = items + refused_documents() + items[:7]  # equal documents again, after the refused ones
    clear_memos()
    expected = _one_at_a_time(items)
    for memos in ("cold", "warm", "warm again"):
        if memos == "cold":
            clear_memos()
        got = [_text(r) for r in calc_many(items)]
        assert len(got) == len(expected) and sum(isinstance(r, tuple) for r in got) >= len(refused_documents())
        for i, (a, b) in enumerate(zip(got, expected, strict=True)):
            assert _same(a, b), (memos, i, items[i], a, b)


def test_each_result_of_calc_many_is_a_fresh_object() -> None:
    # a caller may change a result: no other document's result (a cell sharing a hit stage, an echo or its
    # reasons) and no later call changes with it; equal documents share one result (calc_many's docstring)
    items = bench_documents()[:40]
    items = items + items[:3]
    first = calc_many(items)
    pristine = copy.deepcopy(first)
    for result in first:
        for value in result.values():
            if isinstance(value, dict):
                for inner in value.values():
                    if isinstance(inner, list):
                        inner.append("changed")
                    elif isinstance(inner, dict):
                        inner["changed"] = True
                value["changed"] = True
            elif isinstance(value, list):
                value.append("changed")
        result["changed"] = True
    again = calc_many(items)
    assert again == pristine
    assert all(again[40 + i] is again[i] for i in range(3))
    seen: dict[int, int] = {}
    for i, result in enumerate(again[:40]):
        stack: list[Any] = [result]
        while stack:
            value = stack.pop()
            if isinstance(value, (dict, list)):
                assert seen.setdefault(id(value), i) == i, "a container shared by two results"
                stack.extend(value.values() if isinstance(value, dict) else value)
