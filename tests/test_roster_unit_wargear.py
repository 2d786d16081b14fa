"""Wargear a 2nd-edition roster selects for the whole unit (outside any model: a squad's Krak Grenades, as
BattleScribe writes a Tactical Squad's) is every model's: its name reaches each model group, so Krak Grenades
strike a vehicle in melee as the datasheet's own wargear does. Before, only its saves were read and the name
was dropped: a roster's Tactical Squad charging a Rhino removed 0 hull points where ``praetor wargear
"Tactical Squad" --target Rhino`` gave 2.579 for the same 100-point squad."""

from __future__ import annotations

from pathlib import Path
from xml.etree.ElementTree import Element

import pytest
from fixture_files import HH2_ROSTERS

from praetor_analysis.analysis.unit_ratings import target_named
from praetor_analysis.units.attack import melee
from praetor_analysis.units.fielded import fielded_unit
from praetor_analysis.units.roster_units import from_selection, read_roster_units, roster_selections

ROSTERS = list(HH2_ROSTERS)  # .ros, .rosz and the New Recruit exports (.test)
DARK_ANGELS = next(p for p in ROSTERS if p.name == "HH2 - Dark Angels.rosz")


def _unit_level(sel: Element, name: str) -> bool:
    """Whether ``sel`` has an upgrade named ``name`` directly under it (not under one of its models)."""
    return any(
        c.get("name") == name and c.get("type") == "upgrade"
        for group in sel
        if group.tag.endswith("selections")
        for c in group
    )


@pytest.mark.parametrize("path", ROSTERS, ids=[p.name for p in ROSTERS])
def test_unit_level_grenades_reach_every_model(path: Path) -> None:
    seen = 0
    for rs in roster_selections(path):
        if not _unit_level(rs.element, "Krak Grenades"):
            continue
        unit = from_selection(rs)
        assert unit is not None
        seen += 1
        missing = [g.model for g in unit.groups if "Krak Grenades" not in g.wargear]
        assert not missing, f"{path.name}: {unit.datasheet}: Krak Grenades not carried by {missing}"
    if path == DARK_ANGELS:
        assert seen >= 2  # its two Tactical Squads, at least


def test_a_rosters_tactical_squad_charges_a_rhino_as_its_datasheet_does() -> None:
    _, rhino = target_named("Rhino")
    reading = read_roster_units(DARK_ANGELS)
    sheet = melee(fielded_unit({"name": "Tactical Squad", "legion": "Dark Angels"}), rhino).to_dict()
    for label in ("Tactical Squad (1)", "Tactical Squad (2)"):  # grenades listed before and after the models
        unit = reading.units[reading.labels.index(label)]
        assert unit.points == 100 and unit.size == 10
        got = melee(unit, rhino).to_dict()
        # ten Krak Grenades hits (one automatic hit a model), S6 + D6 against Rear 10: a glance on a 4, a
        # penetrating hit on a 5 or 6, so 10/6 of each
        assert got["hits"]["mean"] == pytest.approx(10.0, abs=1e-12)
        assert got["penetrating"]["mean"] == pytest.approx(10 / 3 / 2, abs=1e-12)
        assert got["hull_points"]["mean"] == pytest.approx(sheet["hull_points"]["mean"], abs=1e-12)
        assert (
            max(abs(p - q) for p, q in zip(got["hull_points"]["pmf"], sheet["hull_points"]["pmf"], strict=True)) < 1e-12
        )
