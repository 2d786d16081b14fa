"""``praetor roster --list`` of a 3rd-edition roster (``analysis.roster_listing``): the rows, the plain text and
the line that accounts for the points.

Pinned values are read off ``tests/fixtures/rosters/hh3/Small Game.rosz`` (its source is in
``tests/fixtures/README.md``): 6 units, 747 points declared, two selections outside units at 0 points.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from praetor_analysis.analysis import accounting_line, listing_frame, listing_table
from praetor_analysis.bsdata import Hh3Roster, read_roster

SMALL = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Small Game.rosz"


def _small() -> Hh3Roster:
    roster = read_roster(SMALL)
    assert isinstance(roster, Hh3Roster)
    return roster


def test_the_listing_rows_of_the_small_game() -> None:
    frame = listing_frame(_small())
    assert list(frame.columns) == ["unit", "force", "parent", "points", "models", "statlines", "weapons"]
    assert list(frame["unit"]) == [
        "Centurion",
        "Assault Squad",
        "Tactical Squad (1)",
        "Tactical Squad (2)",
        "Rhino (1)",
        "Rhino (2)",
    ]
    assert list(frame["points"]) == [85, 175, 142, 180, 80, 85] and frame["points"].sum() == 747
    assert list(frame["models"]) == [1, 10, 10, 15, 1, 1]
    first = frame.iloc[1].to_dict()
    assert first["force"] == "Crusade Primary Detachment" and first["parent"] == ""
    # two statlines, each "count x name (unit type)", in the order of the roster's groups
    assert (
        first["statlines"]
        == "1x Assault Sergeant (Infantry (Sergeant, Antigrav)); 9x Assault Legionary (Infantry (Antigrav))"
    )
    # a weapon whose firing modes are not its own name lists them; one whose single mode is its name does not
    assert first["weapons"].startswith(
        "1x Plasma pistol [Plasma pistol (Sustained), Plasma pistol (Maximal)]; 1x Chainsword; 2x Heavy chainsword; "
    )
    assert frame.iloc[4]["weapons"].startswith("1x Pintle Mounted bolter [Bolter]; ")
    assert (
        frame.iloc[0]["weapons"]
        == "1x Bolt pistol; 1x Terranic greatsword; 1x Frag grenades; 1x Krak grenades; 1x Melta bombs"
    )


def test_the_plain_listing_and_a_unit_inside_another() -> None:
    roster = _small()
    lines = listing_table(roster).splitlines()
    assert lines[:3] == [
        "Centurion: 85 pts, 1 model (Crusade Primary Detachment)",
        "    models: 1x Centurion (Infantry (Command))",
        "    weapons: 1x Bolt pistol; 1x Terranic greatsword; 1x Frag grenades; 1x Krak grenades; 1x Melta bombs",
    ]
    assert len(lines) == 3 * 6
    inner = dataclasses.replace(roster.units[0], parent="Assault Squad", groups=[], unit_weapons=[])
    text = listing_table(dataclasses.replace(roster, units=[inner]))
    assert text.splitlines() == [
        "Centurion: 85 pts, 0 models (Crusade Primary Detachment, in Assault Squad)",
        "    models: -",
        "    weapons: -",
    ]


def test_a_roster_without_units_lists_none() -> None:
    assert listing_table(dataclasses.replace(_small(), units=[])) == "(no units)"


def test_the_accounting_line_says_where_every_point_is() -> None:
    roster = _small()
    assert accounting_line(roster) == (
        "Small Game: 747 points declared = 747 in 6 units listed + 0 not in a unit "
        "(Allegiance, 0 pts; Rite of War, 0 pts)"
    )
    outside = [dataclasses.replace(n, points=1500.0) for n in roster.not_read[:1]]
    declared = dataclasses.replace(roster, points=2247.0, not_read=outside)
    assert accounting_line(declared) == (
        "Small Game: 2,247 points declared = 747 in 6 units listed + 1,500 not in a unit (Allegiance, 1,500 pts)"
    )


def test_the_accounting_line_names_the_gap_both_ways() -> None:
    roster = _small()
    under = accounting_line(dataclasses.replace(roster, points=757.0))
    assert under.endswith("; the file's selections add up to 747, 10 less")
    over = accounting_line(dataclasses.replace(roster, points=737.0, not_read=[]))
    assert over == (
        "Small Game: 737 points declared = 747 in 6 units listed + 0 not in a unit; "
        "the file's selections add up to 747, 10 more"
    )
    # a gap below a millionth of a point is rounding, not a gap
    assert "add up to" not in accounting_line(dataclasses.replace(roster, points=747.0000001))


def test_a_gap_counts_the_selections_outside_units() -> None:
    roster = _small()
    outside = [dataclasses.replace(n, points=1500.0) for n in roster.not_read[:1]]
    line = accounting_line(dataclasses.replace(roster, points=2257.0, not_read=outside))
    assert line.endswith("; the file's selections add up to 2,247, 10 less")


def test_a_roster_without_units_has_the_listing_columns() -> None:
    frame = listing_frame(dataclasses.replace(_small(), units=[]))
    assert frame.empty and list(frame.columns) == [
        "unit",
        "force",
        "parent",
        "points",
        "models",
        "statlines",
        "weapons",
    ]
