"""The 3rd edition's typed constructors (``units.hh3_engine_records``) read a roster's statlines and weapon profiles
into the same engine records, with the same refusals, as the door's block readers (``profiles.read_unit``,
``read_weapon``) read their blocks: every statline and profile of the fixture rosters, and hand-made edge cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from praetor_analysis.bsdata import Hh3MeleeProfile, Hh3RangedProfile, Hh3Statline
from praetor_analysis.errors import PraetorError
from praetor_analysis.profiles import read_unit, read_weapon
from praetor_analysis.units.fielded import read_roster_units
from praetor_analysis.units.hh3_engine_records import attacker_stats, hh3_unit_of_statline, hh3_weapon_of_profile

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
