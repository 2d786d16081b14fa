"""The dashboard's remembering comparison (``ComparisonCache``) gives the table and pmfs of
``compare_with_distributions`` on the same frames, computing each (weapon, target) cell once."""

from __future__ import annotations

import numpy as np
import pandas as pd

from praetor_analysis.analysis import ComparisonCache, compare_with_distributions
from praetor_analysis.catalog import load_targets, load_weapons


def _frames() -> tuple[pd.DataFrame, pd.DataFrame]:
    weapons = load_weapons().drop_duplicates("name")
    targets = load_targets().drop_duplicates("name")
    return (
        weapons[weapons["name"].isin(["Bolter", "Lascannon", "Power Sword"])].reset_index(drop=True),
        targets[targets["name"].isin(["Legionary", "Legion Rhino Transport", "Militia"])].reset_index(drop=True),
    )


def _equal(got: tuple[pd.DataFrame, dict], want: tuple[pd.DataFrame, dict]) -> None:
    pd.testing.assert_frame_equal(got[0], want[0])
    assert sorted(got[1]) == sorted(want[1])
    for key, pmf in want[1].items():
        assert np.array_equal(got[1][key], pmf)


def test_the_cache_answers_as_the_comparison_and_computes_each_cell_once() -> None:
    weapons, targets = _frames()
    cache = ComparisonCache()
    first = cache.compare_with_distributions(weapons, targets.iloc[:2])
    _equal(first, compare_with_distributions(weapons, targets.iloc[:2]))
    assert cache.computed == 3 * 2
    assert set(first[0]["target_id"]) and set(first[0]["weapon_id"])
    # a target added: only its column is computed; the frames' rows keyed on their contents, not their objects
    wider = cache.compare_with_distributions(weapons.copy(), targets)
    _equal(wider, compare_with_distributions(weapons, targets))
    assert cache.computed == 3 * 3
    # the same frames again: nothing computed; half range is another setting
    again = cache.compare_with_distributions(weapons.copy(), targets.copy())
    _equal(again, wider)
    assert cache.computed == 9
    half = cache.compare_with_distributions(weapons, targets, half_range=True)
    _equal(half, compare_with_distributions(weapons, targets, half_range=True))
    assert cache.computed == 18


def test_a_frame_read_again_keeps_its_keys_and_a_cleared_cache_computes_again() -> None:
    weapons, targets = _frames()
    cache = ComparisonCache(max_cells=4)
    cache.compare_with_distributions(weapons, targets.iloc[:1])
    assert cache.computed == 3
    # more cells than kept: the memory starts again and the answer stays right
    _equal(cache.compare_with_distributions(weapons, targets), compare_with_distributions(weapons, targets))
    assert cache.computed == 3 + 9
    cache.clear()
    cache.compare_with_distributions(weapons, targets.iloc[:1])
    assert cache.computed == 15


def test_two_weapons_of_one_name_are_two_cells() -> None:
    weapons, targets = _frames()
    bolter = weapons[weapons["name"] == "Bolter"]
    heavier = bolter.assign(Strength="6", AP="3")  # the same name, another profile: a cell of its own
    both = pd.concat([bolter, heavier], ignore_index=True)
    _equal(ComparisonCache().compare_with_distributions(both, targets), compare_with_distributions(both, targets))


def test_two_targets_of_one_statline_keep_their_own_ids() -> None:
    # one key for both (their statlines), each row named by its own target's id, not the id the cell was
    # remembered with; the table equals the comparison's
    weapons, targets = _frames()
    legionary = targets[targets["name"] == "Legionary"]
    twin = pd.concat([legionary, legionary.assign(profile_id="a-twin")], ignore_index=True)
    cache = ComparisonCache()
    got = cache.compare_with_distributions(weapons, twin)
    _equal(got, compare_with_distributions(weapons, twin))
    assert set(got[0]["target_id"]) == {str(legionary["profile_id"].iloc[0]), "a-twin"}
