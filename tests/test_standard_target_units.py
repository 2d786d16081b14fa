"""The standard targets of a sweep's field as list units (``field_of("standard")``, built by ``army_list``'s
bare target): each is its target profile, fields no models' points, fights no one back, in either edition."""

from __future__ import annotations

import math

import pytest

from praetor_analysis.analysis.faction_sweep import Field, field_of


@pytest.mark.parametrize("edition", ["hh2", "hh3"])
def test_a_standard_target_is_a_bare_unit_of_its_own_size(edition: str) -> None:
    name, units = field_of(Field("standard", edition=edition))
    assert name == "standard targets" and units
    for unit in units:
        assert unit.fighter is None and unit.notes == () and unit.source is None
        assert math.isnan(unit.points) and math.isnan(unit.loadout.points)
        assert unit.loadout.datasheet == unit.label and unit.loadout.faction == ""
        assert unit.loadout.size == unit.target.models > 0
        assert unit.loadout.edition == edition and unit.loadout.groups == ()
        if edition == "hh3":
            assert dict(unit.target_block) == unit.target.to_block()
        else:
            assert dict(unit.target_block) == {"name": unit.label}
