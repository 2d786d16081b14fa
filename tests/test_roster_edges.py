"""Edges of the roster readers (issue 38 item 6, "mutants die": these lines of ``bsdata/roster.py`` and
``bsdata/roster_costs.py`` survived mutmut): the saves a selection's wargear grants, the frames of a roster
without units, and the costed selections a datasheet does not list, each named in the priced row."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from xml.etree.ElementTree import Element, SubElement

import pytest
from defusedxml import ElementTree as SafeET

from praetor_analysis.bsdata.roster import (
    read_roster,
    read_roster_bytes,
    roster_units_frame,
    roster_weapons_frame,
    selection_saves,
    selection_wargear,
)
from praetor_analysis.errors import PraetorError

BASIC = Path(__file__).parent / "fixtures" / "rosters" / "hh2" / "Basic Marines Validate.test"
NS = "{http://www.battlescribe.net/schema/rosterSchema}"
PTS = "d2ee-04cb-5f8a-2642"  # the points cost type of the fixture's game system


def _wargear(text: str, type_name: str = "Wargear Item") -> Element:
    sel = Element("selection", {"name": "Armour", "type": "upgrade"})
    prof = SubElement(SubElement(sel, "profiles"), "profile", {"name": "Armour", "typeName": type_name})
    SubElement(SubElement(prof, "characteristics"), "characteristic", {"name": "Description"}).text = text
    return sel


def test_a_selections_wargear_grants_its_saves() -> None:
    sel = _wargear("Confers a 2+ Armour Save and a 4+ Invulnerable Save.")
    assert selection_saves(sel) == ("2+", "4+")
    reading = selection_wargear(sel)
    assert selection_saves(sel) == (reading.armour, reading.invulnerable)
    assert selection_saves(_wargear("Confers a 5+ Invulnerable Save.")) == ("", "5+")
    assert selection_saves(_wargear("Confers a 2+ Armour Save.", type_name="Weapon")) == ("", "")  # not wargear
    assert selection_saves(Element("selection", {"name": "Nothing"})) == ("", "")


def test_a_roster_without_units_keeps_the_frames_columns() -> None:
    roster = read_roster(BASIC)
    full_units, full_weapons = roster_units_frame(roster), roster_weapons_frame(roster)
    empty = replace(roster, units=[])
    units, weapons = roster_units_frame(empty), roster_weapons_frame(empty)
    assert units.empty and weapons.empty
    assert list(units.columns) == list(full_units.columns)
    assert list(weapons.columns) == list(full_weapons.columns)
    assert {"unit_index", "unit", "model", "count", "Save"} <= set(units.columns)
    assert {"unit_index", "unit", "count", "Strength", "AP", "Type"} <= set(weapons.columns)


def _add_costed(unit: Element, name: str | None, points: int) -> None:
    box = unit.find(f"{NS}selections")
    assert box is not None
    attrs = {"id": f"x-{points}", "entryId": f"no-such-entry-{points}", "number": "1", "type": "upgrade"}
    if name is not None:
        attrs["name"] = name
    sel = SubElement(box, f"{NS}selection", attrs)
    SubElement(SubElement(sel, f"{NS}costs"), f"{NS}cost", {"name": "Pts", "typeId": PTS, "value": str(points)})


def test_costed_selections_the_datasheet_does_not_list_are_named(tmp_path: Path) -> None:
    """Two selections no datasheet lists, one of them without a name: both counted in the roster's points,
    neither in the datasheet's, and both in ``unmatched`` (the nameless one as an empty name)."""
    from praetor_analysis.bsdata.roster_costs import price_roster
    from praetor_analysis.catalog import load_datasheet_models, load_datasheets, load_wargear_options

    tables = (load_datasheets(), load_datasheet_models(), load_wargear_options())
    before = price_roster(BASIC, *tables)
    root = SafeET.fromstring(BASIC.read_bytes())
    unit = next(s for s in root.iter(f"{NS}selection") if s.get("type") == "unit")
    _add_costed(unit, " Mystery Relic ", 7)
    _add_costed(unit, None, 5)
    path = tmp_path / "unmatched.ros"
    path.write_bytes(SafeET.tostring(root))
    read_roster_bytes(path.read_bytes(), path.name)  # still a roster
    after = price_roster(path, *tables)
    row = after[after["unit"] == unit.get("name")].iloc[0]
    old = before[before["unit"] == unit.get("name")].iloc[0]
    assert row["unmatched"] == "Mystery Relic; "
    assert row["roster_points"] == old["roster_points"] + 12
    assert row["datasheet_points"] == old["datasheet_points"]
    others = after["unit"] != unit.get("name")
    assert (after[others]["unmatched"] == "").all()


def test_the_weapons_frame_names_each_rows_unit() -> None:
    roster = read_roster(BASIC)
    weapons = roster_weapons_frame(roster)
    assert len(weapons) > 0
    assert list(weapons["unit"]) == [u.name for u in roster.units for _ in u.weapons]
    assert list(weapons["unit"]) == [roster.units[i].name for i in weapons["unit_index"]]


def test_pricing_refuses_a_3rd_edition_roster_and_a_broken_file_naming_them(tmp_path: Path) -> None:
    from praetor_analysis.bsdata.roster_costs import price_roster
    from praetor_analysis.catalog import load_datasheet_models, load_datasheets, load_wargear_options

    tables = (load_datasheets(), load_datasheet_models(), load_wargear_options())
    hh3 = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Small Game.rosz"
    with pytest.raises(PraetorError) as info:
        price_roster(hh3, *tables)
    assert str(info.value) == (
        "Small Game.rosz: a 3rd-edition (hh3) roster, refused: the 2nd edition's datasheets price 2nd-edition "
        "rosters only"
    )
    broken = tmp_path / "broken.ros"
    broken.write_bytes(b"<roster")
    with pytest.raises(PraetorError, match=r"broken\.ros"):
        price_roster(broken, *tables)
