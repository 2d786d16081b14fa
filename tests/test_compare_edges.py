"""compare() and filter_weapons() at their edges: the cells' errors and notes, melee weapons, points per 100, the
empty table, the pmfs returned beside the table, and the filters' columns (issue 38 item 6: each test kills
mutants of ``analysis/compare.py`` that survived the other tests, named in docs/testing.md).

Pinned values are worked by hand in the comments; the frames are written out here.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from praetor_analysis import compare, compare_distributions, compare_with_distributions, filter_weapons
from praetor_analysis.errors import PraetorError

WEAPON_COLUMNS = ["name", "Range", "Strength", "AP", "Type", "points", "faction", "profile_id"]


def _weapons(*rows: tuple[str, str, str, str, str, float, str, str]) -> pd.DataFrame:
    return pd.DataFrame(list(rows), columns=WEAPON_COLUMNS)


def _legionary(models: int = 1) -> pd.DataFrame:
    return pd.DataFrame([{"archetype": "Legionaries", "models": models, "Unit Type": "Infantry", "WS": "4", "T": "4",
                          "W": "1", "I": "4", "Ld": "7", "Save": "3+", "profile_id": "t-leg"}])  # fmt: skip


SWORD = ("Power Sword", "-", "User", "3", "Melee", 10.0, "Test", "w-sword")
BOLTER = ("Bolter", '24"', "4", "5", "Rapid Fire", 4.0, "Test", "w-bolter")


def test_a_melee_weapon_strikes_in_melee_with_the_attackers_blows() -> None:
    # the default attacker (one Legionary, WS 4, S 4, A 1) with a Power Sword at a Legionary: hits on 4+ (WS 4
    # against WS 4) 1/2, wounds on 4+ (S 4 against T 4) 1/2, AP 3 against a 3+ save: no save; 1/2 * 1/2 = 0.25.
    # Fired as a shooting weapon it would hit on the attacker's BS 4 (3+, 2/3) instead.
    row = compare(_weapons(SWORD), _legionary()).iloc[0]
    assert row["error"] == "" and row["measure"] == "casualties"
    assert row["mean"] == pytest.approx(0.25, abs=1e-12)
    # per 100 points: 0.25 / 10 points * 100 = 2.5
    assert row["mean_per_100pts"] == pytest.approx(2.5, abs=1e-12)


def test_the_effect_per_100_points_divides_by_the_weapons_points() -> None:
    # a Bolter (S 4, AP 5, Rapid Fire: 1 shot out of half range) at a Legionary: hits on 3+ 2/3, wounds on 4+ 1/2,
    # the 3+ save fails 1/3: 2/3 * 1/2 * 1/3 = 1/9; per 100 points at 4 points: (1/9) / 4 * 100 = 25/9
    row = compare(_weapons(BOLTER), _legionary()).iloc[0]
    assert row["mean"] == pytest.approx(1 / 9, abs=1e-12)
    assert row["mean_per_100pts"] == pytest.approx(25 / 9, abs=1e-12)


def test_an_unreadable_profile_is_the_cells_error_naming_the_field() -> None:
    bad = ("Odd", '24"', "4", "x", "Heavy 1", 1.0, "Test", "w-odd")
    row = compare(_weapons(bad), _legionary()).iloc[0]
    assert row["error"] == "weapon.AP: expected a whole number, got 'x'"
    assert math.isnan(row["mean"])


def test_a_cells_notes_are_joined_one_after_another() -> None:
    # a Blast weapon at infantry is laid over the default formation (its note first), and its Strength "Q"
    # is named by the engine after it
    blast = ("Odd Blast", '24"', "Q", "5", 'Heavy 1, Blast (3")', 1.0, "Test", "w-blast")
    notes = compare(_weapons(blast), _legionary()).iloc[0]["not_modelled"].split("; ")
    assert len(notes) == 2 and notes[0].startswith("default formation: ") and notes[1] == "Strength Q"


def test_no_weapon_gives_the_empty_table_with_its_types() -> None:
    empty = compare(_weapons(BOLTER).iloc[:0], _legionary())
    assert list(empty.columns)[:3] == ["weapon", "weapon_id", "faction"] and len(empty) == 0
    assert empty["models"].dtype == "int64"
    assert all(empty[c].dtype == "float64" for c in ("mean", "std", "p_any", "p_all", "p_pinned", "points"))


def test_the_distributions_beside_the_table_are_those_of_the_cells_without_error() -> None:
    bad = ("Odd", '24"', "4", "x", "Heavy 1", 1.0, "Test", "w-odd")
    weapons, targets = _weapons(BOLTER, bad, SWORD), _legionary(2)
    table, pmfs = compare_with_distributions(weapons, targets)
    assert set(pmfs) == {("w-bolter", "t-leg"), ("w-sword", "t-leg")}  # the error cell has no pmf
    assert set(pmfs) == set(compare_distributions(weapons, targets))
    for (wid, _), pmf in pmfs.items():
        mean = sum(k * p for k, p in enumerate(pmf))
        assert mean == pytest.approx(table.set_index("weapon_id").loc[wid, "mean"], abs=1e-12)


def test_bad_arguments_are_refused_naming_their_field() -> None:
    with pytest.raises(PraetorError) as info:
        compare("weapons", _legionary())  # type: ignore[arg-type]
    assert info.value.field == "weapons" and "weapons: expected a DataFrame" in str(info.value)
    with pytest.raises(PraetorError, match="^shots_per_weapon: expected a number or dice expression, got"):
        compare(_weapons(BOLTER), _legionary(), shots_per_weapon=[1, 2])


def test_the_filters_read_the_parsed_type_then_the_type_then_the_range() -> None:
    frame = _weapons(
        ("Rending gun", '24"', "4", "5", "Heavy 1", 1.0, "A", "w1"),
        ("Storm", "Hellstorm", "4", "5", "Heavy 1", 1.0, "B", "w2"),
        ("Plain", '24"', "4", "5", "Heavy 1, Rending (6+)", 1.0, "A", "w3"),
    )
    # without Type_clean, the Type is read
    assert list(filter_weapons(frame, rule="Rending")["name"]) == ["Plain"]
    assert list(filter_weapons(frame, rule="Hellstorm")["name"]) == ["Storm"]
    # Type_clean (the importer's cleaned Type) is read before Type
    cleaned = frame.assign(Type_clean=["Heavy 1, Rending (6+)", "Heavy 1", "Heavy 1"])
    assert list(filter_weapons(cleaned, rule="Rending")["name"]) == ["Rending gun"]


def test_the_faction_column_is_wanted_only_to_filter_by_faction() -> None:
    frame = _weapons(BOLTER).drop(columns=["faction"])
    assert list(filter_weapons(frame, name="bolt")["name"]) == ["Bolter"]
    with pytest.raises(PraetorError, match="df: the rows have no 'faction' column"):
        filter_weapons(frame, faction="Test")


def test_a_cells_summary_gives_the_rows_columns() -> None:
    from praetor_analysis.analysis.compare import CellSummary

    s = CellSummary("casualties", np.array([0.5, 0.5]), 0.5, 0.5, 0.5, 0.5, math.nan)
    assert list(s.to_dict()) == ["measure", "mean", "std", "p_any", "p_all", "p_pinned"]
    assert s.to_dict()["measure"] == "casualties"
