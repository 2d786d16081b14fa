"""Points are accounted for on every fixture roster of both editions (issue 38 item 6, "mutants die"): the units
rated plus the points not rated sum to the total the file declares, each unit costs what its own selections cost
(counted straight from the XML, an oracle independent of the readers), a list read from the roster carries the
same points (a vehicle squadron as a target: one vehicle at its share), and an edited cost shows in the account
line."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from roster_xml import NS, roster_xml

from praetor_analysis.analysis.army_list import load_list
from praetor_analysis.bsdata.roster import read_roster, read_roster_bytes
from praetor_analysis.units import read_roster_units

FIXTURES = Path(__file__).parent / "fixtures" / "rosters"
ROSTERS = sorted(p for edition in ("hh2", "hh3") for p in (FIXTURES / edition).iterdir() if p.name != "README.md")
POINTS = {"pts", "point(s)"}  # the 2nd edition's cost type and the 3rd's


def _own(elem: ET.Element) -> float:
    return sum(
        float(c.get("value", 0))
        for c in elem.findall(f"{NS}costs/{NS}cost")
        if (c.get("name") or "").strip().lower() in POINTS
    )


def _subtree(sel: ET.Element) -> float:
    """A selection's points with everything under it but the units nested in it (priced on their own)."""
    return _own(sel) + sum(_subtree(c) for c in sel.findall(f"{NS}selections/{NS}selection") if c.get("type") != "unit")


def _nested(sel: ET.Element) -> list[ET.Element]:
    out = []
    for c in sel.findall(f"{NS}selections/{NS}selection"):
        if c.get("type") == "unit":
            out.append(c)
        out.extend(_nested(c))
    return out


def _oracle(path: Path) -> tuple[list[float], float, float, float]:
    """(each unit's points, the points outside every unit, every selection's points, the declared total),
    counted from the XML: a unit is a selection of type unit or model outside any unit (at a force's top or
    under an upgrade that wraps it), or a unit nested in one; a selection outside every unit keeps its own."""
    root = ET.fromstring(roster_xml(path))  # trusted test fixture
    units: list[float] = []
    loose = 0.0

    def outside(sel: ET.Element) -> None:
        nonlocal loose
        if sel.get("type") in ("unit", "model"):
            units.extend(_subtree(s) for s in (sel, *_nested(sel)))
            return
        loose += _own(sel)
        for c in sel.findall(f"{NS}selections/{NS}selection"):
            outside(c)

    for force in root.iter(f"{NS}force"):
        for sel in force.findall(f"{NS}selections/{NS}selection"):
            outside(sel)
    return units, loose, sum(_own(s) for s in root.iter(f"{NS}selection")), _own(root)


def test_the_fixtures_hold_both_editions() -> None:
    assert {p.parent.name for p in ROSTERS} == {"hh2", "hh3"} and len(ROSTERS) == 11  # 7 of the 2nd edition


@pytest.mark.parametrize("path", ROSTERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_units_and_the_rest_sum_to_the_declared_total(path: Path) -> None:
    units, loose, every, declared = _oracle(path)
    assert declared > 0 and every == pytest.approx(declared)  # the fixtures' own costs add up
    assert sum(units) + loose == pytest.approx(declared)
    roster = read_roster(path)
    assert roster.points == declared
    assert sorted(u.points for u in roster.units) == pytest.approx(sorted(units))
    reading = read_roster_units(path)
    assert reading.declared == declared
    assert reading.rated_points + reading.not_rated_points == pytest.approx(declared, abs=1e-9)
    assert all(p > 0 for _, p, _ in reading.not_rated)  # what costs nothing is not listed as not rated
    rated = sorted(u.points for u in reading.units)
    assert all(any(p == pytest.approx(q) for q in units) for p in rated)
    assert len(reading.units) + sum(1 for _, _, why in reading.not_rated if why != "outside every unit") == sum(
        1 for p in units if p
    ) + sum(1 for p in units if not p and p in rated)
    outside = sum(p for _, p, why in reading.not_rated if why == "outside every unit")
    assert outside == pytest.approx(loose)
    line = reading.account()
    assert "\n" not in line and "the file's selections add up to" not in line
    assert f"{declared:,.0f} points declared = {reading.rated_points:,.0f} in {len(reading.units)} units" in line


@pytest.mark.parametrize("path", ROSTERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_list_read_from_a_roster_carries_its_points(path: Path) -> None:
    reading = read_roster_units(path)
    army = load_list(path)
    assert army.points == pytest.approx(reading.rated_points)
    assert army.account == reading.account()
    assert [u.label for u in army.units] == list(reading.labels)
    for unit in army.units:
        if unit.target.is_vehicle:  # a squadron is rated as one of its vehicles at its share of the points
            assert unit.points * max(1, unit.loadout.size) == pytest.approx(unit.loadout.points)
            assert unit.points <= unit.loadout.points
        else:
            assert unit.points == unit.loadout.points
        assert unit.points_per_model == pytest.approx(unit.points / max(1, unit.target.models))


def test_a_squadron_of_vehicles_is_one_vehicle_at_its_share() -> None:
    army = load_list(FIXTURES / "hh2" / "OgrynChainaxeFix.rosz")  # two Cargo-8 Haulers, 100 points
    shares = [(u.loadout.points, u.points, u.loadout.size) for u in army.units if u.target.is_vehicle]
    assert any(size > 1 for _, _, size in shares), "the fixture holds a squadron"
    for whole, share, size in shares:
        assert share == pytest.approx(whole / size)
    assert ("IM - Cargo-8 Hauler Squadron", 2, 50.0, 100.0) in [
        (u.label, u.loadout.size, u.points, u.loadout.points) for u in army.units
    ]


@pytest.mark.parametrize("edition", ["hh2", "hh3"])
def test_an_edited_cost_shows_in_the_account(edition: str) -> None:
    """A unit's cost raised by 7 without the declared total: the line says the selections add up to 7 more."""
    path = next(p for p in ROSTERS if p.parent.name == edition)
    xml = roster_xml(path).decode("utf-8")
    name = "Pts" if edition == "hh2" else "Point(s)"
    found = re.search(
        rf'<cost name="{re.escape(name)}" typeId="[^"]*" value="(\d+(?:\.\d+)?)"', xml[xml.find("<force") :]
    )
    assert found is not None
    start = xml.find("<force") + found.start(1)
    value = float(found[1])
    edited = xml[:start] + f"{value + 7:g}" + xml[start + len(found[1]) :]
    reading = read_roster_units(edited.encode("utf-8"), "edited.ros")
    base = read_roster_units(path)
    assert reading.declared == base.declared
    assert reading.rated_points + reading.not_rated_points == pytest.approx(base.declared + 7)
    assert "the file's selections add up to" in reading.account() and ", 7 more" in reading.account()
    assert read_roster_bytes(edited.encode("utf-8"), "edited.ros").points == base.declared
