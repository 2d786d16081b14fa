"""The bounded memo (prob.memo): computed once, emptied when full, unhashable keys computed each time."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping

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
    # parse_scenario memoises a statline volley by the document's key (frozen_key): the same document gives the
    # same records,
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


def test_another_attack_count_is_parsed_from_the_document_parsed():
    # a document that differs from one parsed in its attack count alone shares that one's target record (its
    # blocks are parsed once each) and checks its own count: its result is the cold parse's, and so is a
    # refusal (message, field, value); a Blast weapon's
    # default formation is laid or not by the new count (too many markers: not modelled), as a cold parse does
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.prob.memo import clear_memos
    from praetor_analysis.scenario.calc import calc
    from praetor_analysis.scenario.document import parse_scenario

    target = {"T": 4, "W": 1, "Save": "3+", "models": 10, "Unit Type": "Infantry"}
    plain = {"attacker": {"BS": 4}, "weapon": {"Strength": "4", "AP": "5", "Type": "Heavy 1"}, "target": target}
    blast = {**plain, "weapon": {"Range": '24"', "Strength": "5", "AP": "4", "Type": 'Heavy 1, Blast (3")'}}

    def refusal(doc: dict) -> tuple[str, object, object]:
        with pytest.raises(ScenarioError) as exc:
            calc(doc)
        return str(exc.value), exc.value.field, exc.value.value

    for doc, first in ((plain, 3), (blast, 600)):
        for count in (5, "D6", "2D6+1", 0, 2):
            clear_memos()
            cold = calc({**doc, "attacks": count})
            parse_scenario({**doc, "attacks": first})  # the document parsed, then another count of it
            derived = parse_scenario({**doc, "attacks": count})
            assert derived.target is parse_scenario({**doc, "attacks": first}).target
            assert calc({**doc, "attacks": count}) == cold
        for bad in (-1, 1.5, True, "abc", 5000, [1]):
            clear_memos()
            cold_refusal = refusal({**doc, "attacks": bad})
            parse_scenario({**doc, "attacks": first})
            assert refusal({**doc, "attacks": bad}) == cold_refusal
    clear_memos()
    assert "applied" in calc({**blast, "attacks": 2}) and parse_scenario({**blast, "attacks": 2}).marker is not None


def test_frozen_key_is_equal_exactly_for_the_same_document():
    # keys, values and the values' types, in order: 1, 1.0, True and "1" differ, -0.0 and 0.0 differ (their
    # text does), NaN equals NaN (the same text); nested blocks and lists the same way
    import itertools

    from praetor_analysis.prob.memo import frozen_key

    values = [1, 1.0, True, "1", "1.0", None, -0.0, 0.0, [1], [1.0], ["1"], [], {}, {"b": 1}, {"b": "1"}, [[1]], [{}]]
    documents = [{"a": v} for v in values] + [{"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": {"b": [1, {"c": 2}]}}]
    documents += [{"a": {"b": [1, {"c": 2.0}]}}, {"a": {"b": [1, {"c": 2}], "d": None}}, [1, 2], (1, 2), 1, "a"]
    keys = [frozen_key(d) for d in documents]
    for (i, a), (j, b) in itertools.combinations(enumerate(keys), 2):
        assert a != b, (documents[i], documents[j])
    for d in documents:
        assert frozen_key(copy.deepcopy(d)) == frozen_key(d)
        hash(frozen_key(d))
    assert frozen_key({"a": float("nan")}) == frozen_key({"a": float("nan")})
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert frozen_key(deep) is None  # nested too deeply: no key (the document is parsed without a memo)


def test_every_field_a_memoised_parse_reads_changes_its_records():
    # the parse memo's key is derived from the document, not listed: changing any one value of the document
    # gives the records a cold parse of the changed document gives (or its refusal), never the first's
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.scenario.document import parse_scenario

    doc = {
        "attacker": {"BS": 4, "S": 4, "models": 2, "rules": ["Furious Charge"]},
        "weapon": {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": "Heavy 2, Rending (6+)"},
        "attacks": 3,
        "half_range": False,
        "target": {"name": "t", "models": 5, "T": 4, "W": 2, "Save": "3+", "Invulnerable": "5+", "rules": []},
    }
    changed = [
        (("attacker", "BS"), 3), (("attacker", "S"), 5), (("attacker", "models"), 3), (("attacker", "rules"), []),
        (("weapon", "name"), "other"), (("weapon", "Range"), '36"'), (("weapon", "Strength"), "6"),
        (("weapon", "AP"), "3"), (("weapon", "Type"), "Heavy 2"), (("attacks",), 4), (("attacks",), "D6"),
        (("attacks",), 3.0), (("half_range",), True), (("target", "name"), "u"), (("target", "models"), 6),
        (("target", "T"), 5), (("target", "W"), 1), (("target", "Save"), "2+"), (("target", "Invulnerable"), "4+"),
        (("target", "rules"), ["Feel No Pain (5+)"]), (("attacker", "BS"), 4.0), (("attacker", "BS"), True),
    ]  # fmt: skip

    def cold(document):
        clear_memos()
        try:
            return parse_scenario(document)
        except ScenarioError as exc:
            return str(exc)

    base = cold(doc)
    for path, value in changed:
        other = copy.deepcopy(doc)
        block = other if len(path) == 1 else other[path[0]]
        block[path[-1]] = value
        expected = cold(other)
        parse_scenario(doc)  # the first document memoised
        try:
            got = parse_scenario(other)
        except ScenarioError as exc:
            got = str(exc)
        assert got == expected, path
        if not isinstance(got, str):
            assert got != base or value in (3.0, 4.0), path  # 3.0 attacks are 3 attacks, BS 4.0 is BS 4


def test_a_datasheet_unit_is_fielded_once_per_distinct_block():
    # units by name: each distinct datasheet block fielded once (its key derived from the block), another size
    # or loadout its own unit
    from praetor_analysis.units import datasheet_unit

    ten = datasheet_unit({"name": "Tactical Squad", "size": 10}, "attacker")
    assert datasheet_unit({"name": "Tactical Squad", "size": 10}, "attacker") is ten
    twenty = datasheet_unit({"name": "Tactical Squad", "size": 20}, "attacker")
    assert (ten.size, twenty.size) == (10, 20)
    clear_memos()
    assert datasheet_unit({"name": "Tactical Squad", "size": 10}, "attacker") == ten


def test_a_document_without_a_key_is_never_memoised_by_its_stand_in():
    # a document whose key cannot be made (nested too deeply...) is keyed by its id within one call (Unkeyed);
    # that stand-in never keys the parse memo: another document given the same stand-in is parsed as itself
    from praetor_analysis.prob.memo import Unkeyed
    from praetor_analysis.scenario.calc import calc_many
    from praetor_analysis.scenario.document import parse_scenario

    doc = {"attacker": {"BS": 4}, "weapon": "Bolter", "attacks": 3, "target": {"T": 4, "W": 1, "models": 5}}
    other = {**doc, "attacks": 5}
    assert parse_scenario(doc, Unkeyed(1)).firing_units[0][0].attacks.dist.max == 3
    assert parse_scenario(other, Unkeyed(1)).firing_units[0][0].attacks.dist.max == 5
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    results = calc_many([{**doc, "name": deep}, doc, {**doc, "name": deep}])
    assert all(isinstance(r, Exception) for r in (results[0], results[2])) and isinstance(results[1], dict)


def test_every_argument_of_a_memoised_volley_changes_it():
    # volley_of_blocks memoises a volley by all its arguments' keys (the blocks, the flags, the count, the prefix,
    # the kind, the options taken): changing any one gives what a cold call gives (the volley, or the refusal)
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.units import volley_of_blocks

    base: dict = {
        "weapon_block": {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": "Heavy 2, Rending (6+)"},
        "attacker_block": {"BS": 4, "S": 4, "WS": 4, "models": 2},
        "mode": "shooting",
        "attacks": 3,
        "hits": None,
        "snap_shots": False,
        "half_range": False,
        "prefix": "",
        "kind": None,
        "taken": (),
    }
    melee_weapon = {"name": "blade", "Range": "-", "Strength": "User", "AP": "5", "Type": "Melee"}
    changed = [
        ("weapon_block", {**base["weapon_block"], "AP": "3"}), ("weapon_block", melee_weapon),
        ("attacker_block", {"BS": 3, "S": 4, "WS": 4, "models": 2}), ("attacker_block", {"BS": 4, "models": 0}),
        ("attacker_block", {"BS": 4, "S": 4, "WS": 4, "models": 2, "charging": True}), ("mode", "melee"),
        ("attacks", 4), ("attacks", "D6"), ("attacks", 3.0), ("attacks", None), ("attacks", True), ("hits", 2),
        ("hits", "D3"), ("snap_shots", True), ("snap_shots", 1), ("half_range", True), ("half_range", 0),
        ("prefix", "firing_units[0][1]."), ("kind", "shooting"), ("kind", "marker"), ("taken", ("an option",)),
    ]  # fmt: skip
    charging = {**base["attacker_block"], "charging": True}  # acts for a melee kind's attacker only

    def volley(**arguments: object) -> object:
        try:
            return volley_of_blocks(**arguments)
        except ScenarioError as exc:
            return ("refused", str(exc), exc.field)

    def cold(**arguments: object) -> object:
        clear_memos()
        return volley(**arguments)

    for name, value in changed:
        start = {**base, "kind": "melee", "attacker_block": charging} if name == "kind" else base
        if name == "mode":  # a pistol is fired and struck with
            start = {**base, "weapon_block": {**base["weapon_block"], "Type": "Pistol 1"}, "kind": "shooting"}
        first = cold(**start)
        assert not isinstance(first, tuple)
        other = {**start, name: value}
        expected = cold(**other)
        assert expected != first or (name, value) == ("attacks", 3.0), (name, value)  # 3.0 counts as 3
        clear_memos()
        assert volley(**start) == first  # the first volley memoised
        assert volley(**other) == expected, (name, value)
        assert (volley(**start), volley(**other)) == (first, expected), (name, value)  # both from the memo


def test_the_binomial_tables_of_a_probability_are_cleared_with_the_memos():
    # they are keyed by a cell's probability (a memo, not a constant): a "cold" run must build them again
    from praetor_analysis.prob.dice import _binomial_pmf_cached, binomial_matrix, binomial_pmf, binomial_table

    kept = binomial_matrix(7, 0.3)
    binomial_pmf(7, 0.3)
    binomial_table(7, 0.3, 2)
    for cached in (binomial_matrix, _binomial_pmf_cached, binomial_table):
        assert cached.cache_info().currsize > 0
    clear_memos()
    for cached in (binomial_matrix, _binomial_pmf_cached, binomial_table):
        assert cached.cache_info().currsize == 0, cached
    again = binomial_matrix(7, 0.3)
    assert again is not kept and (again == kept).all()  # built again, the same values


def test_token_keys_are_equal_exactly_when_the_frozen_keys_are():
    # the door's keys (prob.token_key): a block's interned integer, a flag, count or text its own (type, value), a
    # float its text; equal for two values exactly when their frozen_key are, made one by one or together (the
    # very same object once), and token_field reads a field's token off a dict's key
    import itertools

    from praetor_analysis.prob.memo import frozen_key, token_field, token_key, token_keys, token_of

    shared = {"T": 4, "W": 1.0, "rules": ["a", {"b": -0.0}], "x": None, "y": True}
    values = [1, 1.0, True, "1", None, -0.0, 0.0, [1], [1.0], [True], {}, {"a": 1}, {"a": 1.0}, {"a": True}]
    values += [{"t": shared, "n": 1}, {"t": shared, "n": 1.0}, {"t": copy.deepcopy(shared), "n": 1}, {"t": [shared]}]
    values += [{"a": {"b": [1, {"c": 2.0}]}}, {"a": {"b": [1, {"c": 2}]}}, {"b": 1, "a": 1}, {"a": 1, "b": 1}]
    values += [shared, copy.deepcopy(shared), (1, 2), [1, 2], {"n": float("nan")}, {"n": float("nan")}]
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    values += [{"deep": deep}, deep, values[14], values[14]]
    together = token_keys(values)
    alone = [token_key(v) for v in values]
    assert together == alone
    for (i, a), (j, b) in itertools.combinations(enumerate(values), 2):
        same = frozen_key(a) == frozen_key(b)
        assert (together[i] == together[j]) == same, (a, b)
        if same and together[i] is not None:
            assert hash(together[i]) == hash(together[j])
    assert together[-3] is None and together[-4] is None  # nested too deeply: no key
    for value, key in zip(values, together, strict=True):
        if isinstance(value, dict) and key is not None:
            for name, field in value.items():
                assert token_field(key, name) == token_of(field)
            assert token_field(key, "absent") is None
        else:
            assert token_field(key, "a") is None


def test_tokens_are_never_reused_after_the_memos_are_cleared():
    # a memo keyed by a token from before clear_memos is never matched again, never matched wrongly: the same
    # value gets a new token, another value never gets an old one
    from praetor_analysis.prob.memo import token_of

    block = {"BS": 4, "S": 4}
    first = token_of(block)
    assert token_of(dict(block)) == first  # equal values, one token
    clear_memos()
    other = token_of({"BS": 3})
    again = token_of(block)
    assert again != first and other != first and other != again


def test_token_rows_are_the_token_keys_of_the_rows_dicts():
    # column by column (each distinct object of a column keyed once), a missing cell no field, a cell without a
    # key no row key: the keys token_keys gives the rows' dicts
    from praetor_analysis.prob.memo import MISSING, token_keys, token_rows

    block = {"T": 4, "rules": ["x"]}
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    columns = [
        [1, True, 1.0, "1", MISSING, -0.0, 0.0, 2],
        [block, dict(block), {"T": 4.0, "rules": ["x"]}, block, [block], MISSING, None, deep],
        ["a", "a", "a", MISSING, "a", "a", "a", "a"],
    ]
    names = ["n", "b", "s"]
    rows = [{name: c[i] for name, c in zip(names, columns, strict=True) if c[i] is not MISSING} for i in range(8)]
    assert token_rows(names, columns, 8) == token_keys(rows)
    assert token_rows(names, columns, 8)[-1] is None
    assert token_rows([], [], 3) == token_keys([{}, {}, {}])


def _close(a: object, b: object) -> bool:
    """Equal JSON-like values, numbers to 1e-12 (the batch and the one-cell engine sum in their own orders)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_close(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
        return a == pytest.approx(b, abs=1e-12)
    return a == b


def test_every_field_a_batch_cell_reads_changes_calc_many_answer():
    # calc_many finds a document sent again a batch cell by its key (scenario.calc), and a document's volley by
    # its key without the target (scenario.document): changing any one value gives the answer of a cold calc of
    # the changed document, never the first's, whether the first was memoised before or beside it
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.scenario.calc import calc, calc_many

    doc = {
        "attacker": {"BS": 4, "S": 4, "models": 2},
        "weapon": {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": "Heavy 2, Rending (6+)"},
        "attacks": 3,
        "target": {"name": "t", "models": 5, "T": 4, "W": 2, "Save": "3+", "rules": []},
    }
    changed = [
        (("attacker", "BS"), 3), (("attacker", "models"), 3), (("weapon", "Strength"), "6"), (("weapon", "AP"), "3"),
        (("weapon", "Type"), "Heavy 2"), (("attacks",), 4), (("attacks",), "D6"), (("snap_shots",), True),
        (("hits",), 2), (("half_range",), True), (("mode",), "melee"), (("target", "T"), 5), (("target", "W"), 1),
        (("target", "Save"), "2+"), (("target", "rules"), ["Feel No Pain (5+)"]), (("attacker", "BS"), 4.0),
        (("target", "models"), 0),
    ]  # fmt: skip

    def answer(document):
        try:
            return calc(document)
        except ScenarioError as exc:
            return str(exc)

    clear_memos()
    base = answer(copy.deepcopy(doc))
    for path, value in changed:
        other = copy.deepcopy(doc)
        block = other if len(path) == 1 else other[path[0]]
        block[path[-1]] = value
        clear_memos()
        expected = answer(copy.deepcopy(other))
        clear_memos()
        first, second = calc_many([doc, other])  # memoised beside it
        got = [calc_many([other])[0], second]  # and after it
        for result in got:
            assert _close(str(result) if isinstance(result, ScenarioError) else result, expected), path
        assert _close(first, base)
        if isinstance(expected, dict):
            same = {
                ("attacker", "BS"),
                ("half_range",),
            }  # BS 4.0 is BS 4; a Heavy gun fires as many shots in half range
            assert not _close(expected, base) or path in same, path


def test_a_known_volley_and_target_give_the_cell_the_parse_gives():
    # document.known_cell: a plain document whose volley (by its key without the target) and target were parsed
    # and checked before is found their cell; any document that needs more (a marker weapon's default formation,
    # a vehicle, an attack count refused, a name, a field beside the plain ones) is parsed and answered as calc
    # answers it, whichever documents came first
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.scenario.calc import calc, calc_many
    from praetor_analysis.scenario.document import _NEEDS, _PLAIN_FIELDS, known_cell, parse_scenario
    from praetor_analysis.scenario.fields import SCENARIO_ACTS
    from praetor_analysis.scenario.work import document_key

    # the plain fields, whose checks the parse leaves out, all act in a shooting scenario and need no other field
    assert _PLAIN_FIELDS.issubset(SCENARIO_ACTS["shooting"]) and _PLAIN_FIELDS.isdisjoint(_NEEDS)

    weapon = {"name": "gun", "Range": '24"', "Strength": "5", "AP": "4", "Type": "Heavy 2"}
    infantry = {"name": "t", "models": 5, "T": 4, "W": 1, "Save": "3+"}
    base = {"attacker": {"BS": 4}, "weapon": weapon, "attacks": 3, "target": infantry}
    others = [
        {**base, "target": {**infantry, "T": 5}},  # the same volley at another unit: found
        {**base, "target": {**infantry, "Unit Type": "Vehicle", "Front": 12, "Side": 11, "Rear": 10, "HP": 3}},
        {**base, "weapon": {**weapon, "Type": 'Heavy 1, Blast (3")'}},  # a default formation
        {**base, "attacks": 100_000},  # refused: too many attacks
        {**base, "name": "named"},
        {**base, "mode": "shooting"},
        {**base, "weapon": "Lascannon"},
    ]

    def answer(document):
        try:
            return calc(copy.deepcopy(document))
        except ScenarioError as exc:
            return str(exc)

    for other in others:
        clear_memos()
        expected = answer(other)
        clear_memos()
        results = calc_many([base, {**other, "attacks": other["attacks"]}, other])
        for result in results[1:]:
            assert _close(str(result) if isinstance(result, ScenarioError) else result, expected), other
        key = document_key(other)
        found = known_cell(other, key)
        if other is others[0]:
            parsed = parse_scenario(other)
            assert found == (parsed.firing_units[0][0], parsed.target)  # the very records the parse gives
        else:
            assert found is None, other


class _Block(Mapping):
    """A mapping whose text does not tell two blocks apart (a constant ``repr``; an object's default one is its
    address, which a dropped block's successor may take)."""

    def __init__(self, data: dict) -> None:
        self._data = dict(data)

    def __getitem__(self, key: str) -> object:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return "_Block(...)"


def test_a_value_whose_text_does_not_tell_it_apart_is_never_a_memo_key():
    # a key by repr is wrong for a value whose text two values share: two blocks of one repr got one key, so the
    # second document was answered from the first's parse (T 8 answered as T 4, S 10 as S 4); such a value has
    # no key (computed each time), while a float or a numpy number is keyed by its exact text beside its type
    import numpy as np

    from praetor_analysis.prob.memo import frozen_key, token_key, token_of
    from praetor_analysis.scenario.calc import calc, calc_many

    weak, strong = (
        _Block({"T": 4, "W": 1, "Save": "3+", "models": 5}),
        _Block({"T": 8, "W": 1, "Save": "3+", "models": 5}),
    )
    for key in (frozen_key, token_key, token_of):
        assert key(weak) is None and key({"target": weak}) is None and key([weak]) is None
    for value in (np.float64(0.5), np.int64(3), np.float32(0.5), np.bool_(True)):
        assert frozen_key(value) == frozen_key(copy.copy(value)) is not None
        assert frozen_key(value) not in (frozen_key(0.5), frozen_key(3), frozen_key(True))
    doc = {"attacker": {"BS": 4}, "weapon": {"Strength": "4", "AP": "5", "Type": "Heavy 2"}, "attacks": 3}

    def casualties(document: dict) -> float:
        return calc(document)["casualties"]["mean"]

    clear_memos()
    cold = [casualties({**doc, "target": block}) for block in (strong, weak)]
    for _ in range(2):  # the weak block first, then both in one call
        clear_memos()
        assert [casualties({**doc, "target": block}) for block in (weak, strong)] == cold[::-1]
    clear_memos()
    assert [r["casualties"]["mean"] for r in calc_many([{**doc, "target": weak}, {**doc, "target": strong}])] == cold[
        ::-1
    ]
    target = {"T": 4, "W": 1, "Save": "3+", "models": 5}
    weapons = [_Block({"Strength": s, "AP": ap, "Type": "Heavy 2"}) for s, ap in (("4", "5"), ("10", "2"))]
    clear_memos()
    cold = [casualties({**doc, "weapon": weapons[1], "target": target})]
    clear_memos()
    assert [casualties({**doc, "weapon": w, "target": target}) for w in weapons][1:] == cold
