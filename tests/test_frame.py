"""The analysts' door, ``calc_frame``: a DataFrame of scenarios in, a DataFrame of results out, the same numbers
and fields as ``calc_many`` row by row (issue 37, item 5)."""

from __future__ import annotations

import copy

import numpy as np
import pandas as pd
import pytest

from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.errors import ScenarioError
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.scenario.calc import calc_many
from praetor_analysis.scenario.frame import calc_frame, frame_documents
from praetor_analysis.views.cell_documents import scenario_for


def _documents() -> list[dict]:
    """Catalog weapons against the standard targets (the batch's rows), with rows ``calc`` computes alone (a
    datasheet attacker, a vehicle, a sequence, a profile list, a Blast on its default formation), repeated rows
    and refused ones."""
    weapons, targets = load_weapons(), load_targets()
    items = [scenario_for(w, t) for _, w in weapons.iloc[::45].iterrows() for _, t in targets.iterrows()]
    target = {"models": 10, "T": 4, "W": 1, "Save": "3+", "Unit Type": "Infantry"}
    bolter = {"name": "b", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire, Pinning"}
    items += [
        {"attacker": {"name": "Tactical Squad", "size": 10}, "target": "Legionary (Tactical Squad)"},
        {"attacker": {"BS": 4}, "weapon": "Lascannon", "target": "Rhino"},
        {"firing_units": [[{"attacker": {"BS": 4}, "weapon": bolter, "attacks": 10}]] * 2, "target": target},
        {"attacker": {"BS": 4}, "weapon": [bolter, {**bolter, "Strength": "6"}], "attacks": 4, "target": target},
        {"attacker": {"BS": 4}, "weapon": {**bolter, "Type": 'Heavy 1, Blast (3")'}, "attacks": 2, "target": target},
        {"attacker": {"BS": 4}, "weapon": "Force Sword", "mode": "melee", "attacks": 3, "target": target},
        {"attacker": {"BS": 4}, "weapon": bolter, "attacks": -1, "target": target},  # refused
        {"attacker": {"BS": 4}, "weapon": "no such weapon", "target": target},  # refused
    ]
    return items + items[:3]  # equal documents: computed once


def _same(a, b, where: str) -> None:
    """A frame cell equal to the result mapping's value (a pmf as an array, numbers to 1e-12)."""
    if isinstance(b, dict) and set(b) == {"pmf", "mean"}:
        assert isinstance(a, np.ndarray) and a.tolist() == pytest.approx(b["pmf"], abs=1e-12), where
    elif isinstance(b, float):
        assert a == pytest.approx(b, abs=1e-12), where
    else:
        assert a == b, where


def _present(value) -> bool:
    return value is not None and not (isinstance(value, float) and np.isnan(value))


def test_calc_frame_equals_calc_many_row_by_row():
    items = _documents()
    frame = pd.DataFrame(items, index=pd.RangeIndex(100, 100 + len(items)))
    for cold in (True, False):  # parsed afresh, then every record found made
        if cold:
            clear_memos()
        out = calc_frame(frame)
        assert list(out.index) == list(frame.index)
        expected = calc_many(items)
        computed = 0
        for (_, row), result in zip(out.iterrows(), expected, strict=True):
            if not isinstance(result, dict):
                assert row["error"] == str(result) and row["error"]
                continue
            computed += 1
            assert row["error"] == ""
            for field, value in result.items():
                _same(row[field], value, f"{row.name}.{field}")
                if isinstance(value, dict) and set(value) == {"pmf", "mean"}:
                    assert row[f"{field}_mean"] == pytest.approx(value["mean"], abs=1e-12)
            fields = {c.removesuffix("_mean") for c in out.columns if _present(row[c])}
            assert fields - {"error"} == {k for k, v in result.items() if v is not None}  # none left out or added
        assert computed >= len(items) - 5


def test_calc_frame_reads_missing_cells_as_fields_left_out():
    # a column some rows lack (NaN or None in a DataFrame built from records) is not a field of those rows;
    # numpy numbers are Python numbers
    target = {"models": 5, "T": 4, "W": 1, "Save": "3+"}
    frame = pd.DataFrame(
        {
            "attacker": [{"BS": 4}, {"BS": 3}],
            "weapon": ["Bolter", "Bolter"],
            "attacks": np.array([3.0, np.nan]),
            "hits": [None, 2],
            "target": [target, target],
        }
    )
    assert frame_documents(frame) == [
        {"attacker": {"BS": 4}, "weapon": "Bolter", "attacks": 3.0, "target": target},
        {"attacker": {"BS": 3}, "weapon": "Bolter", "hits": 2, "target": target},
    ]
    out = calc_frame(frame)
    assert list(out["error"]) == ["", ""]
    assert out["hits_mean"].tolist() == pytest.approx([2.0, 2.0])
    assert out["hits"].iloc[1].tolist() == pytest.approx([0.0, 0.0, 1.0])


def test_calc_frame_refuses_what_is_not_a_frame_and_takes_an_empty_one():
    from praetor_analysis.errors import ScenarioError

    with pytest.raises(ScenarioError, match="frame: expected a pandas DataFrame, got list"):
        calc_frame([{"weapon": "Bolter"}])  # type: ignore[arg-type]
    out = calc_frame(pd.DataFrame({"weapon": []}))
    assert len(out) == 0 and "error" in out.columns


def test_frame_documents_read_column_by_column_as_the_records_read():
    # nullable and extension dtypes, numpy scalars in an object column, a column named by a number: the
    # documents read column by column are the records' (to_dict("records")) with the missing cells left out
    frame = pd.DataFrame(
        {
            "a": pd.array([1, None, 3], dtype="Int64"),
            "b": [np.int64(2), None, "x"],
            "c": [1.5, np.nan, 2.0],
            3: [True, False, None],
            "d": pd.Series(["s", pd.NA, "t"], dtype="string"),
        }
    )
    got = frame_documents(frame)
    assert got == [
        {"a": 1, "b": 2, "c": 1.5, "3": True, "d": "s"},
        {"3": False},
        {"a": 3, "b": "x", "c": 2.0, "d": "t"},
    ]
    assert [type(v) for v in got[0].values()] == [int, int, float, bool, str]


def test_frame_keys_are_the_documents_keys():
    # keyed column by column (prob.token_rows), the keys are those of the documents (document_keys): missing
    # cells, floats (-0.0 and 0.0 differ), flags beside counts, numpy scalars, shared and fresh blocks, lists,
    # a value with no key (nested too deeply), a repeated column name (keyed as documents), no columns at all
    from praetor_analysis.prob import Unkeyed
    from praetor_analysis.scenario.frame import frame_keys
    from praetor_analysis.scenario.work import document_keys

    block = {"models": 5, "T": 4, "Save": "3+"}
    deep: list = []
    for _ in range(2000):
        deep = [deep]
    frames = [
        pd.DataFrame(_documents()),
        pd.DataFrame(
            {
                "a": [1, None, 2.5, np.nan, -0.0, 0.0, True],
                "b": [[1, 2], {"x": 1.0}, "s", True, np.int64(3), block, block],
                "c": [pd.NA, 1, 2, 3, deep, {"x": [1.0, {"y": None}]}, deep],  # one object twice
            }
        ),
        pd.DataFrame([[1, 2], [1, 3]], columns=["a", "a"]),
        pd.DataFrame(index=range(3)),
    ]
    for frame in frames:
        documents, keys = frame_keys(frame)
        assert documents == frame_documents(frame)
        expected = document_keys(documents)
        assert [type(k) for k in keys] == [type(k) for k in expected]
        assert [k for k in keys if not isinstance(k, Unkeyed)] == [k for k in expected if not isinstance(k, Unkeyed)]
    keys = frame_keys(frames[1])[1]
    assert isinstance(keys[4], Unkeyed) and isinstance(keys[6], Unkeyed)
    assert len(set(keys)) == len(keys)  # -0.0 and 0.0, True and 1: distinct documents, distinct keys


def test_calc_frame_answers_each_column_of_a_row():
    # a row keyed by its cells: changing any one column's cell changes the row's answer, which is calc's of
    # the row's document
    from praetor_analysis.scenario.calc import calc

    target = {"models": 10, "T": 4, "W": 1, "Save": "3+", "Unit Type": "Infantry"}
    base = {
        "attacker": {"BS": 4},
        "weapon": {"name": "b", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Heavy 1"},
        "attacks": 6,
        "target": target,
    }
    changed = {
        "attacker": {"BS": 3},
        "weapon": {**base["weapon"], "Strength": "6"},
        "attacks": 9,
        "target": {**target, "Save": "4+"},
    }
    rows = [base] + [{**base, name: value} for name, value in changed.items()]
    out = calc_frame(pd.DataFrame(rows))
    assert (out["error"] == "").all()
    means = out["casualties_mean"].tolist()
    assert len(set(means)) == len(means)  # every change moves the answer
    for i, document in enumerate(rows):
        result = calc(document)
        assert out["casualties"].iloc[i].tolist() == pytest.approx(result["casualties"]["pmf"], abs=1e-12)
        assert means[i] == pytest.approx(result["casualties"]["mean"], abs=1e-12)
        assert out["unsaved_mean"].iloc[i] == pytest.approx(result["unsaved"]["mean"], abs=1e-12)


def test_calc_frame_rows_of_shared_equal_and_changed_objects_are_each_their_documents():
    # the columns keyed once per distinct object (prob.token_rows): one block object in many rows, equal blocks
    # as distinct objects, a block changed in one nested value, a row repeated; warm and cold, each row is
    # calc of its own document, and equal documents give equal rows
    from praetor_analysis.scenario.calc import calc

    target = {"name": "t", "models": 10, "T": 4, "W": 1, "Save": "3+", "Unit Type": "Infantry", "rules": []}
    weapon = {"name": "b", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Heavy 2"}
    attacker = {"BS": 4}
    rows = [
        {"attacker": attacker, "weapon": weapon, "attacks": 4, "target": target},  # the shared objects
        {"attacker": attacker, "weapon": weapon, "attacks": 6, "target": target},
        {"attacker": dict(attacker), "weapon": dict(weapon), "attacks": 4, "target": copy.deepcopy(target)},  # equal
        {"attacker": {"BS": 3}, "weapon": weapon, "attacks": 4, "target": target},
        {"attacker": attacker, "weapon": {**weapon, "Type": "Heavy 2, Rending (6+)"}, "attacks": 4, "target": target},
        {"attacker": attacker, "weapon": weapon, "attacks": 4, "target": {**target, "rules": ["Feel No Pain (5+)"]}},
        {"attacker": attacker, "weapon": weapon, "attacks": 4.0, "target": target},  # 4.0 attacks are 4 attacks
        {"attacker": {"BS": 4.0}, "weapon": weapon, "attacks": 4, "target": target},
        {"attacker": attacker, "weapon": weapon, "attacks": 4, "target": {**target, "W": True}},  # refused
    ]
    rows += rows[:2]  # the very same documents again
    frame = pd.DataFrame(rows)
    for cold in (True, False, False):
        if cold:
            clear_memos()
        out = calc_frame(frame)
        for i, document in enumerate(rows):
            try:
                result = calc(copy.deepcopy(document))
            except ScenarioError as exc:
                assert out["error"].iloc[i] == str(exc) and out["error"].iloc[i]
                continue
            assert out["error"].iloc[i] == ""
            for name in ("hits", "wounds", "unsaved", "casualties"):
                _same(out[name].iloc[i], result[name], f"{i}.{name}")
                assert out[f"{name}_mean"].iloc[i] == pytest.approx(result[name]["mean"], abs=1e-12)
            for name in ("applied", "not_modelled", "no_effect", "attacker", "target", "reasons", "pinned"):
                _same(out[name].iloc[i], result[name], f"{i}.{name}")
        means = out["casualties_mean"].tolist()
        assert means[0] == means[2] == means[6] == means[7] == means[9] and means[1] == means[10]
        assert len({means[0], means[1], means[3], means[4], means[5]}) == 5  # every change moves the answer
        assert out["pinned"].iloc[0] is not None and out["applied"].iloc[0] is not out["applied"].iloc[2]
