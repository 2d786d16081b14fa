"""The 3rd edition's typed constructors (``units.hh3_engine_records``) read a roster's statlines, weapon profiles and
targets into the same engine records, with the same refusals, as the door's block readers (``profiles.read_unit``,
``read_weapon``, ``vehicles.read_vehicle``) read their blocks: every statline, profile and target of the fixture
rosters and the standard targets, and hand-made edge cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from praetor_analysis.bsdata import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.profiles import read_unit, read_weapon
from praetor_analysis.scenario.hh3_names import unit_attack_hh3
from praetor_analysis.units import Hh3Target, hh3_standard_targets, hh3_target_of_group
from praetor_analysis.units.fielded import read_roster_units
from praetor_analysis.units.hh3_engine_records import (
    attacker_stats,
    hh3_record_of_target,
    hh3_unit_of_statline,
    hh3_weapon_of_profile,
)
from praetor_analysis.vehicles import is_vehicle_block, read_vehicle

ROSTERS = Path(__file__).parent / "fixtures" / "rosters" / "hh3"


def _both(typed: object, door: object) -> tuple[object, object]:
    """``(record or error text)`` of each reading (a callable of no argument)."""
    out = []
    for read in (typed, door):
        try:
            out.append(read())  # type: ignore[operator]
        except PraetorError as e:
            out.append(str(e))
    return out[0], out[1]


def _profiles() -> tuple[set[Hh3Statline], set[Hh3RangedProfile | Hh3MeleeProfile]]:
    statlines, profiles = set(), set()
    for path in sorted(ROSTERS.glob("*.rosz")):
        for unit in read_roster_units(path).units:
            for group in unit.groups:
                statlines.add(group.hh3_statline)
                profiles.update(arm.profile for arm in group.arms)
    return statlines, profiles


STATLINES, PROFILES = _profiles()


def test_the_fixtures_give_many_to_compare() -> None:
    assert len(STATLINES) >= 30 and len(PROFILES) >= 40
    assert any(isinstance(p, Hh3MeleeProfile) for p in PROFILES) and any(s.is_vehicle for s in STATLINES)


@pytest.mark.parametrize("models", [1, 7])
def test_every_fixture_statline_reads_as_its_block(models: int) -> None:
    for statline in STATLINES:
        block = {"name": statline.name, **attacker_stats(statline), "models": models}
        typed, door = _both(lambda s=statline: hh3_unit_of_statline(s, models, "x.attacker"),
                            lambda b=block: read_unit(b, "x.attacker"))  # fmt: skip
        assert typed == door, statline


def test_every_fixture_profile_reads_as_its_block() -> None:
    for profile in PROFILES:
        typed, door = _both(
            lambda p=profile: hh3_weapon_of_profile(p, "w"), lambda p=profile: read_weapon(p.as_block(), "w")
        )
        assert typed == door, profile


EDGES = [
    Hh3MeleeProfile("Fist", ap="2", damage=""),  # no modifier printed: read as a ranged profile, FP missing
    Hh3MeleeProfile("Claw", initiative_modifier="-", strength_modifier="+2", damage="2", traits=("Shred",)),
    Hh3MeleeProfile("Odd", attacks_modifier="x2", extra=(("Range", "12"),)),  # an edition 2 field
    Hh3RangedProfile("Odd", range="12", fire_power="1", ranged_strength="4", extra=(("Notes", "x"),)),
    Hh3RangedProfile(
        "Flamer", range="Template", fire_power="1", ranged_strength="4", special_rules=("Breaching (6+)",)
    ),
    Hh3RangedProfile("Bad", range="12", fire_power="1", ranged_strength="four"),
    Hh3RangedProfile("Nope", range="12", ranged_strength="4"),  # FP missing
    Hh3RangedProfile("Blast", range="36", fire_power="1", ranged_strength="8", special_rules=('Blast (3")',)),
]


@pytest.mark.parametrize("profile", EDGES, ids=lambda p: p.name)
def test_edge_profiles_read_and_refuse_as_their_blocks(profile: Hh3RangedProfile | Hh3MeleeProfile) -> None:
    typed, door = _both(lambda: hh3_weapon_of_profile(profile), lambda: read_weapon(profile.as_block()))
    assert typed == door


@pytest.mark.parametrize(
    "statline",
    [
        Hh3Statline("Rhino", "Vehicle", unit_type="Vehicle (Transport)", bs="4", front="11", hull_points="3"),
        Hh3Statline("Odd", "Profile", ws="x", toughness="4"),
        Hh3Statline("Bare", "Profile"),
        Hh3Statline("Sgt", "Profile", unit_type="Infantry (Sergeant)", ws="5", toughness="4", wounds="0"),
    ],
    ids=lambda s: s.name,
)
def test_edge_statlines_read_and_refuse_as_their_blocks(statline: Hh3Statline) -> None:
    block = {"name": statline.name, **attacker_stats(statline), "models": 3}
    typed, door = _both(lambda: hh3_unit_of_statline(statline, 3), lambda: read_unit(block, "attacker"))
    assert typed == door


def _targets() -> list[Hh3Target]:
    out = [t for _, t in hh3_standard_targets()]
    for path in sorted(ROSTERS.glob("*.rosz")):
        for unit in read_roster_units(path).units:
            out.extend(hh3_target_of_group(g, 4) for g in unit.groups)
    return out


def test_every_target_reads_as_its_block() -> None:
    """The record of each standard target and each fixture model group as a target is the door's record of the
    target's block (a vehicle's when it prints armour or HP), or the same refusal."""
    targets = _targets()
    assert sum(t.is_vehicle for t in targets) >= 5 and sum(not t.is_vehicle for t in targets) >= 30
    for t in targets:
        block = t.to_block()

        def door(b: dict[str, object] = block) -> object:
            return read_vehicle(b) if is_vehicle_block(b) else read_unit(b, "target", target=True)

        typed, want = _both(lambda t=t: hh3_record_of_target(t), door)
        assert typed == want, t


@pytest.mark.parametrize(
    ("target", "field"),
    [({"name": "X", "T": "x", "W": 1, "models": 5}, "target.T"),
     ({"name": "X", "T": 4, "W": 1, "models": 5, "Bogus": 1}, "target.Bogus")],
)  # fmt: skip
def test_a_roster_units_bad_target_profile_is_refused_at_the_door(target: dict[str, object], field: str) -> None:
    """A document's target profile is read whole at the door: a bad one is a one-line error naming the field (it
    was once a zero result whose every weapon was refused)."""
    roster = str(ROSTERS / "Small Game.rosz")
    with pytest.raises(ScenarioError, match=rf"^{field}: "):
        unit_attack_hh3({"edition": "hh3", "attacker": {"roster": roster, "unit": "Centurion"}, "target": target})
