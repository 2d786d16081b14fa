"""A comparison cell's records (``analysis.cell_of_rows``, what the report runs for a cell's full result) give the
pmf the comparison table gives for the same weapon and target (one question, one number): shooting, rapid fire at
half range, a template laid over the default formation, and a melee weapon with the attacker's melee statline."""

from __future__ import annotations

import numpy as np
import pytest

from praetor_analysis.analysis import cell_of_rows, compare_with_distributions, row_ids
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.scenario import run
from praetor_analysis.units import UnitRow, WeaponRow

WEAPONS = ["Bolter", "Heavy Bolter", "Flamer", "Plasma Gun", "Power Sword"]
TARGETS = ["Legionary", "Militia"]


def _unsaved(wrow: WeaponRow, trow: UnitRow, half_range: bool) -> np.ndarray:
    return np.asarray(run(cell_of_rows(wrow, trow, half_range=half_range)[0])["unsaved"]["pmf"], dtype=float)


@pytest.mark.parametrize("half_range", [False, True])
def test_the_cells_records_give_the_comparisons_pmf(half_range: bool) -> None:
    weapons = load_weapons()
    weapons = weapons[weapons["name"].isin(WEAPONS)].drop_duplicates("name")
    targets = load_targets()
    targets = targets[targets["name"].isin(TARGETS)].drop_duplicates("name")
    assert sorted(weapons["name"]) == sorted(WEAPONS) and sorted(targets["name"]) == sorted(TARGETS)
    _, pmfs = compare_with_distributions(weapons, targets, half_range=half_range)
    for wid, wrow in zip(row_ids(weapons), WeaponRow.from_frame(weapons), strict=True):
        for tid, trow in zip(row_ids(targets), UnitRow.from_frame(targets), strict=True):
            mine, theirs = _unsaved(wrow, trow, half_range), pmfs[(wid, tid)]
            size = max(len(mine), len(theirs))
            assert np.pad(mine, (0, size - len(mine))) == pytest.approx(
                np.pad(theirs, (0, size - len(theirs))), abs=1e-12
            )


def test_pinned_cells_by_hand() -> None:
    weapons = load_weapons().drop_duplicates("name")
    targets = load_targets().drop_duplicates("name")
    legionary = UnitRow.from_frame(targets[targets["name"] == "Legionary"])[0]
    bolter = WeaponRow.from_frame(weapons[weapons["name"] == "Bolter"])[0]
    sword = WeaponRow.from_frame(weapons[weapons["name"] == "Power Sword"])[0]
    # Bolter (S4 AP5, Rapid Fire) by BS 4 at a Legionary (T4, 3+): hit 2/3, wound 1/2, save fails 1/3 -> 1/9 a shot
    assert _unsaved(bolter, legionary, False) == pytest.approx([8 / 9, 1 / 9], abs=1e-12)
    # at half range two shots: (8/9)^2, 2 (8/9)(1/9), (1/9)^2
    assert _unsaved(bolter, legionary, True) == pytest.approx([64 / 81, 16 / 81, 1 / 81], abs=1e-12)
    # Power Sword (S User = 4, AP3) in melee, WS 4 against WS 4: hit 1/2, wound 1/2, no 3+ save against AP3 -> 1/4;
    # half range does not act in melee
    for half in (False, True):
        assert _unsaved(sword, legionary, half) == pytest.approx([3 / 4, 1 / 4], abs=1e-12)
