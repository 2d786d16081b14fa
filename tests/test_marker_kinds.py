"""One marker-kind table (markers.kinds): the order a weapon's rules pick a kind, and its users."""

from __future__ import annotations

import numpy as np
import pytest

from praetor_analysis.markers.blasts import marker_pmf
from praetor_analysis.markers.formation import Edges, Formation
from praetor_analysis.markers.kinds import MARKER_DIAMETERS, MARKER_KINDS, marker_kind
from praetor_analysis.markers.options import MarkerOptions
from praetor_analysis.profiles.records import Weapon
from praetor_analysis.scenario.calc import calc


def weapon(type_: str, range_: str = '36"') -> Weapon:
    return Weapon.from_mapping({"name": "w", "Range": range_, "Strength": "5", "AP": "4", "Type": type_})


@pytest.mark.parametrize(
    ("range_", "type_", "kind"),
    [
        ('36"', 'Heavy 1, Large Blast (5"), Barrage', "Large Blast"),
        ('36"', "Heavy 1, Barrage", "Barrage"),
        ('36"', 'Heavy 1, Blast (3")', "Blast"),
        ('36"', 'Heavy 1, Massive Blast (7")', "Massive Blast"),
        ('36"', "Heavy 1, Apocalyptic Barrage (6)", "Apocalyptic Barrage"),
        ("Template", "Assault 1", "Template"),
        ("Hellstorm", "Assault 1", "Hellstorm"),
        ("Template", "Assault 1, Torrent (12)", "Torrent"),  # a template placed within 12"
        ('12"', "Assault 1, Torrent (12)", "Torrent"),
        ('24"', "Assault 2", None),
    ],
)
def test_first_matching_kind(range_, type_, kind):
    assert marker_kind(weapon(type_, range_)) == kind


def test_tables_agree():
    blasts = {k.name: k.diameter for k in MARKER_KINDS if k.shape == "blast"}
    assert blasts == {**MARKER_DIAMETERS, "Barrage": MARKER_DIAMETERS["Blast"]}
    assert {k.name for k in MARKER_KINDS if k.shape == "template"} == {"Hellstorm", "Torrent", "Template"}


def test_plain_barrage_is_a_three_inch_marker_in_the_geometry():
    scen = {
        "mode": "shooting",
        "attacker": {"BS": 4, "models": 1},
        "weapon": {"name": "mortar", "Range": '48"', "Strength": "4", "AP": "5", "Type": "Heavy 1, Barrage"},
        "target": {"name": "squad", "models": 5, "T": 4, "W": 1, "Ld": 7, "Save": "4+"},
        "formation": {"models": 5, "base_mm": 32, "gap": 1.0},
    }
    three = {**scen, "weapon": {**scen["weapon"], "Type": 'Heavy 1, Blast (3"), Barrage'}}
    assert calc(scen)["hits"]["pmf"] == pytest.approx(calc(three)["hits"]["pmf"], abs=1e-15)


def test_options_record_or_keywords():
    f = Formation.grid(6, 32, 1.0, 3)
    edges = {"xmin": -1.0, "xmax": 3.0}
    by_keywords = marker_pmf(f, 5.0, bs=3, aim=1, edges=edges)
    by_record = marker_pmf(f, 5.0, MarkerOptions(bs=3, aim=1, edges=Edges.from_dict(edges)))
    assert np.array_equal(by_keywords, by_record)
    with pytest.raises(TypeError, match="not both"):
        marker_pmf(f, 5.0, MarkerOptions(bs=3), bs=4)
