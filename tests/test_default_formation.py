"""Marker and template weapons without a formation: the default formation, and presets that fit the target.

Issue 24, item 5: a marker weapon by name used to fire one rolled shot (the Praetor launcher at ten
Legionaries: 0.26 casualties, its marker rules under ``not_modelled``). Without a ``formation`` the target's
models now stand in lines of five, on the base of their Unit Type, as far apart as unit coherency allows
(docs/rules.md#markers-and-templates); the result says so under ``applied`` and echoes the formation.
"""

from __future__ import annotations

import pytest

from praetor_analysis import calc
from praetor_analysis.errors import ScenarioError
from praetor_analysis.markers.formation import PRESETS, Hull
from praetor_analysis.profiles.records import Unit
from praetor_analysis.units.formation import coherency_gap, default_base_mm, default_formation

PRAETOR = {"attacker": {"BS": 4}, "weapon": "Praetor Launcher"}
LEGIONARIES = {"name": "Legionary (Tactical Squad)", "models": 10}


def _casualties(scenario: dict) -> float:
    return calc(scenario)["casualties"]["mean"]


def test_praetor_launcher_by_name_uses_the_default_formation() -> None:
    bare = calc({**PRAETOR, "target": LEGIONARIES})
    grid = calc({**PRAETOR, "target": LEGIONARIES, "formation": {"base_mm": 32, "gap": 2, "columns": 5}})
    assert bare["casualties"] == grid["casualties"]
    # the figure: 1.34 with 2" gaps (1.95 with 1"); this engine's value, checked against the grid above
    assert bare["casualties"]["mean"] == pytest.approx(1.3382495453830718, abs=1e-12)
    assert _casualties({**PRAETOR, "target": LEGIONARIES, "formation": {"gap": 1}}) == pytest.approx(1.9455, abs=1e-4)
    assert "Barrage" in bare["applied"] and 'Massive Blast (7")' in bare["applied"]
    assert not bare["not_modelled"]
    assert 'default formation: 10 models on 32 mm bases, 2" apart (unit coherency), lines of 5' in bare["applied"]
    assert bare["target"]["formation"] == {"models": 10, "base_mm": 32, "gap": 2.0, "columns": 5,
                                           "firer_distance": 1.0, "default": True}  # fmt: skip


@pytest.mark.parametrize(
    ("unit_type", "base_mm", "gap"),
    [
        ("Infantry (Line)", 32, 2.0),
        ("Infantry (Heavy)", 40, 2.0),
        ("Infantry (Militia, Line)", 25, 2.0),
        ("Infantry (Skirmish, Line)", 32, 3.0),
        ("Infantry (Line, Close-order)", 32, 1.0),
        ("Dreadnought (Heavy)", 60, 2.0),
        ("Cavalry (Antigrav, Heavy)", 60, 2.0),
        ("Armiger (Skirmish, Line)", 100, 3.0),
        ("Daemon", 40, 2.0),
        ("Shackled Artificia (Cybertheurgist, Heavy)", 40, 2.0),
        ("Something Else", 32, 2.0),
    ],
)
def test_base_and_coherency_by_unit_type(unit_type: str, base_mm: float, gap: float) -> None:
    assert (default_base_mm(unit_type), coherency_gap(unit_type)) == (base_mm, gap)
    setup = default_formation(Unit(name="t", unit_type=unit_type, models=7))
    assert setup.shape.n == 7 and setup.shape.base_radius == pytest.approx(base_mm / 25.4 / 2)
    pitch = setup.shape.positions[1, 0] - setup.shape.positions[0, 0]
    assert pitch == pytest.approx(base_mm / 25.4 + gap)
    assert setup.shape.positions[5, 1] == pytest.approx(pitch)  # lines of five


def test_the_default_follows_the_targets_unit_type_and_size() -> None:
    militia = {"name": "Militia (Infantry Squad)"}  # 20 models, Infantry (Militia, Line): 25 mm
    expected = _casualties({**PRAETOR, "target": militia, "formation": {"base_mm": 25, "gap": 2}})
    assert _casualties({**PRAETOR, "target": militia}) == pytest.approx(expected, abs=1e-12)
    custodians = {"name": "Custodian Guard"}  # Skirmish: 3" coherency
    spread = _casualties({**PRAETOR, "target": custodians, "formation": {"gap": 3}})
    assert _casualties({**PRAETOR, "target": custodians}) == pytest.approx(spread, abs=1e-12)
    close = _casualties({**PRAETOR, "target": custodians, "formation": {"gap": 2}})
    assert spread < close  # the wider spacing is the one used


def test_templates_cover_the_default_formation_too() -> None:
    """A Flamer without a formation used to roll To Hit as one shot (2/3 of a hit): now the template is laid."""
    bare = calc({"attacker": {"BS": 4}, "weapon": "Flamer", "target": LEGIONARIES})
    laid = calc({"attacker": {"BS": 4}, "weapon": "Flamer", "target": LEGIONARIES, "formation": {}})
    assert bare["hits"] == laid["hits"] and bare["hits"]["mean"] >= 2
    assert any(a.startswith("Template covering") for a in bare["applied"])


def test_no_default_where_hits_are_given_or_the_target_is_a_vehicle() -> None:
    given = calc({**PRAETOR, "target": LEGIONARIES, "hits": 3})
    assert "formation" not in given["target"] and not any("default formation" in a for a in given["applied"])
    rhino = calc({**PRAETOR, "target": "Rhino"})  # a hull's size is not in the data: give formation.hull
    assert "Barrage" in rhino["not_modelled"] and "formation" not in rhino["target"]


def test_a_default_too_large_to_compute_falls_back_and_says_so() -> None:
    weapon = {"name": "storm", "Range": '24"', "Strength": "4", "AP": "5", "Type": 'Heavy 10, Blast (3")'}
    target = {"name": "blob", "models": 500, "T": 3, "W": 1, "Save": "5+"}
    result = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": target})  # 10 markers x 500 models
    assert 'Blast (3")' in result["not_modelled"] and "formation" not in result["target"]


def test_hull_presets_fit_vehicles_and_grid_presets_fit_their_model_count() -> None:
    assert isinstance(PRESETS["rhino_hull"], Hull)
    by_preset = calc({**PRAETOR, "target": "Rhino", "formation": {"preset": "rhino_hull"}})
    by_hull = calc({**PRAETOR, "target": "Rhino", "formation": {"hull": [4.5, 3.5]}})
    assert by_preset["hull_points"] == by_hull["hull_points"] and by_preset["hull_points"]["mean"] > 0.5
    assert by_preset["target"]["formation"]["hull"] == [4.5, 3.5]
    refusals = [
        (
            LEGIONARIES,
            "rhino_hull",
            r"^formation\.preset: 'rhino_hull' is a vehicle's hull; the target is not a Vehicle",
        ),
        ("Rhino", "legion_tactical_10_32mm_2in", r"^formation\.preset: .* a Vehicle needs a hull preset"),
        ({**LEGIONARIES, "models": 9}, "legion_tactical_10_32mm_2in", r"^formation\.preset: .* has 10 models, "),
    ]
    for target, preset, message in refusals:
        with pytest.raises(ScenarioError, match=message):
            calc({**PRAETOR, "target": target, "formation": {"preset": preset}})
    ten = calc({**PRAETOR, "target": LEGIONARIES, "formation": {"preset": "legion_tactical_10_32mm_2in"}})
    assert ten["casualties"] == calc({**PRAETOR, "target": LEGIONARIES})["casualties"]


def test_a_datasheets_templates_and_markers_use_the_default_formation_too() -> None:
    """A unit's Flamers used to roll To Hit as one shot each, so the Tactical Support Squad fired Bolt Pistols;
    its four Flamers now lay their templates over the target's default formation, as calc does."""
    squad = calc({"attacker": {"name": "Tactical Support Squad"}, "target": LEGIONARIES})
    flamers = [c for c in squad["chosen"] if c["weapon"] == "Flamer"]
    assert flamers and flamers[0]["count"] == 4 and flamers[0]["formation"].startswith("default formation: 10 models")
    one = calc({"attacker": {"BS": 4, "models": 4}, "weapon": "Flamer", "target": LEGIONARIES})
    alone = calc({"attacker": {"BS": 4}, "weapon": "Flamer", "target": LEGIONARIES})
    assert one["hits"]["mean"] == pytest.approx(4 * alone["hits"]["mean"], abs=1e-12)  # four templates, each laid
    pistol = {"attacker": {"BS": 4, "WS": 4, "S": 4, "models": 1}, "weapon": "Bolt Pistol"}
    seq = calc({"firing_units": [[pistol, {"attacker": {"BS": 4, "models": 4}, "weapon": "Flamer"}]],
                "target": LEGIONARIES})  # fmt: skip
    assert squad["casualties"]["mean"] == pytest.approx(seq["casualties"]["mean"], abs=1e-12)
    assert squad["casualties"]["mean"] > 2.5  # was 0.56 with Bolt Pistols
