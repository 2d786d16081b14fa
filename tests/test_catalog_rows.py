"""The typed records of catalog and roster rows (units/catalog_rows.py): what they read, the blocks they write."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from praetor_analysis.catalog import load_targets, load_units, load_wargear_options, load_weapons
from praetor_analysis.units import OptionRow, Statline, UnitRow, WeaponRow, cell, target_from_row
from praetor_analysis.units.wargear_effects import with_wargear


@pytest.mark.parametrize(
    ("value", "read"),
    [
        (None, None),
        ("", None),
        ("   ", None),
        (math.nan, None),
        (np.float64("nan"), None),
        (" 3+ ", "3+"),
        (4.0, 4),
        (np.float64(4.0), 4),
        (np.int64(7), 7),
        (2.5, 2.5),
        ("-", "-"),
    ],
)
def test_a_cell_is_read_as_printed_and_empty_is_none(value: object, read: object) -> None:
    got = cell(value)
    assert got == read and type(got) is type(read)


def test_a_weapon_row_prefers_the_clean_type_and_fills_empty_characteristics() -> None:
    row = {"name": " Bolter ", "Range": '24"', "Strength": 4.0, "AP": "", "Type": "Rapid Fire, junk", "points": "x"}
    weapon = WeaponRow.from_row({**row, "Type_clean": "Rapid Fire"})
    assert weapon.to_block() == {"name": "Bolter", "Range": '24"', "Strength": 4, "AP": "-", "Type": "Rapid Fire"}
    assert WeaponRow.from_row(row).type == "Rapid Fire, junk" and weapon.points is None
    assert WeaponRow().to_block() == {"name": "weapon", "Range": "-", "Strength": "-", "AP": "-", "Type": ""}
    assert WeaponRow(type="Melee, Brutal (2)").is_melee and not weapon.is_melee


def test_a_unit_row_writes_an_attacker_statline_and_a_target_block() -> None:
    row = UnitRow.from_row({"name": "Legionary", "Unit Type": "Infantry", "WS": "4", "T": 4.0, "W": "1", "Save": "3+",
                            "Front": "", "rules": "Bulky (2); Fearless", "models": 10.0})  # fmt: skip
    assert Statline.from_row(row).to_dict() == {"name": "Legionary", "Unit Type": "Infantry", "WS": "4", "T": 4,
                                                "W": "1", "Save": "3+", "rules": ["Bulky (2)", "Fearless"]}  # fmt: skip
    target = row.to_block()
    assert target == {"name": "Legionary", "Unit Type": "Infantry", "models": 10, "WS": "4", "T": 4, "W": "1",
                      "Save": "3+", "rules": ["Bulky (2)", "Fearless"]}  # fmt: skip
    assert row.to_block(3)["models"] == 3 and UnitRow().to_block()["models"] == 1
    assert UnitRow().to_block()["Unit Type"] == "Infantry" and UnitRow().to_block()["name"] == "target"
    assert row.is_target_profile and not row.is_vehicle and not row.is_character


def test_a_vehicle_row_gives_armour_not_toughness() -> None:
    rhino = UnitRow.from_row({"name": "Rhino", "Unit Type": "Vehicle (Transport)", "BS": "4", "T": "7", "Front": "11",
                              "Side": "11", "Rear": "10", "HP": "3", "Cover": "5+"})  # fmt: skip
    assert rhino.is_vehicle and rhino.is_target_profile
    assert rhino.to_block() == {"name": "Rhino", "Unit Type": "Vehicle (Transport)", "models": 1, "BS": "4",
                                "Front": "11", "Side": "11", "Rear": "10", "HP": "3", "Cover": "5+"}  # fmt: skip
    assert rhino.stat("Unit Type") == "Vehicle (Transport)" and rhino.stat("Front") == "11"
    assert rhino.with_stats({"Front": "12"}).Front == "12"
    with pytest.raises(KeyError):
        rhino.stat("name")
    with pytest.raises(KeyError):
        rhino.with_stats({"name": "x"})


def test_a_fortification_with_armour_is_a_vehicle_target() -> None:
    wall = UnitRow.from_row({"name": "Wall", "profile_type": "Fortification", "Unit Type": "Fortification (Building)",
                             "Front": "13", "Side": "13", "Rear": "13", "HP": "4"})  # fmt: skip
    assert not wall.is_vehicle
    block = target_from_row(wall).to_block()
    assert block["Unit Type"] == "Vehicle (Fortification (Building))"
    assert {k: block[k] for k in ("Front", "Side", "Rear", "HP")} == {
        "Front": "13",
        "Side": "13",
        "Rear": "13",
        "HP": "4",
    }
    plain = UnitRow(name="Legionary", T="4")
    assert target_from_row(plain) is plain


def test_wargear_keeps_the_better_save_and_adds_a_rule_once() -> None:
    base = UnitRow(name="Legionary", Save="3+", Invulnerable="5+", rules=("Fearless",))
    worn = with_wargear(base, [("2+", "6+", "Iron Halo;Fearless"), ("4+", "4+", "Iron Halo")])
    assert (worn.Save, worn.Invulnerable, worn.rules) == ("2+", "4+", ("Fearless", "Iron Halo"))
    assert with_wargear(base, []) == base and base.Save == "3+"  # a record is never changed in place


def test_frames_and_rows_give_the_same_records() -> None:
    """``from_frame`` (column by column) and ``from_row`` (a pandas row) agree on every shipped row."""
    for cls, frame in ((WeaponRow, load_weapons()), (UnitRow, load_units()), (UnitRow, load_targets())):
        records = cls.from_frame(frame)
        assert len(records) == len(frame)
        assert records == [cls.from_row(r) for _, r in frame.iterrows()]
    options = load_wargear_options().head(400)
    assert OptionRow.from_frame(options) == [OptionRow.from_row(r) for _, r in options.iterrows()]
    assert OptionRow.from_frame(pd.DataFrame({"max": [math.nan, 2.0]}))[0].max is None


def test_an_option_row_reads_the_table_and_its_wargear() -> None:
    option = OptionRow.from_row({"option": "Iron Halo", "points": 15.0, "max": 1.0, "hidden": True, "save": "",
                                 "invulnerable": "4+", "rules": "Iron Halo", "group_min": 0})  # fmt: skip
    assert (option.option, option.points, option.max, option.hidden) == ("Iron Halo", 15.0, 1.0, True)
    assert option.item == ("", "4+", "Iron Halo") and option.points_per_model == 0.0
