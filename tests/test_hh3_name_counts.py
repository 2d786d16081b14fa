"""A 3rd-edition roster's selection names read as the 2nd edition's (issue 33, docs/rosters.md): a selection whose
name says it stands for several of its one weapon counts that many, the same reading
(:func:`praetor_analysis.bsdata.roster_tree.count_in_name`).

The fixtures (tests/fixtures/rosters/hh3, sources in its README) hold the three shapes the 3rd edition's data
writes: ``Two Sponson Mounted lascannon arrays`` over one ``Lascannon array`` profile, costed as the one selection
(two arrays: a Spartan's pair of sponsons); ``Pair of lightning claws`` whose profile carries the pair's own name
(one weapon: the 3rd edition gives the pair its own profile); ``Twin lascannon`` (one weapon: "Twin" is not a
count).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from praetor_analysis.analysis.unit_ratings import hh3_targets_named
from praetor_analysis.bsdata import Hh3RosterUnit, read_roster
from praetor_analysis.units import hh3_shooting
from praetor_analysis.units.fielded import read_roster_units

HH3 = Path(__file__).parent / "fixtures" / "rosters" / "hh3"


def _weapons(path: Path, unit: str) -> dict[str, int]:
    read = next(u for u in read_roster(path).units if u.name == unit)
    assert isinstance(read, Hh3RosterUnit)
    return {w.name: w.count for g in read.groups for w in g.weapons}


@pytest.mark.parametrize("roster", ["Real List.rosz", "All Comers.rosz"])
def test_two_sponson_arrays_are_two_weapons(roster: str) -> None:
    weapons = _weapons(HH3 / roster, "Spartan Assault Tank")
    assert weapons["Two Sponson Mounted lascannon arrays"] == 2
    assert weapons["Twin lascannon"] == 1


def test_a_pair_with_its_own_profile_is_one_weapon() -> None:
    """Four Cataphractii Chosen with a ``Pair of lightning claws`` each (``number`` 4): four pairs, one per model."""
    weapons = _weapons(HH3 / "Real List.rosz", "Cataphractii Terminator Command Squad")
    assert weapons["Pair of lightning claws"] == 4


def test_the_spartan_fires_both_arrays() -> None:
    """The Spartan as read equals the same Spartan with its arrays' count written 2 by hand, and differs from one
    array: the name's count reaches the engine (at the 3rd edition's Rhino)."""
    reading = read_roster_units(HH3 / "Real List.rosz")
    spartan = next(u for u in reading.units if u.datasheet == "Spartan Assault Tank")
    target = dict(hh3_targets_named())["Rhino"]

    def with_arrays(n: int):  # type: ignore[no-untyped-def]
        group = spartan.groups[0]
        weapons = tuple(
            replace(a, count=n) if a.weapon == "Two Sponson Mounted lascannon arrays" else a for a in group.arms
        )
        return replace(spartan, groups=(replace(group, weapons=weapons),))

    read = hh3_shooting(spartan, target).to_dict()["hull_points"]["pmf"]
    assert read == hh3_shooting(with_arrays(2), target).to_dict()["hull_points"]["pmf"]
    assert read != hh3_shooting(with_arrays(1), target).to_dict()["hull_points"]["pmf"]
