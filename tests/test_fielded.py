"""A unit as fielded: loadouts checked against the data's own limits and priced as the data prices them."""

from __future__ import annotations

from pathlib import Path

import pytest

from praetor_analysis.bsdata.roster_costs import price_roster
from praetor_analysis.catalog import load_datasheet_models, load_datasheets, load_wargear_options
from praetor_analysis.errors import ScenarioError
from praetor_analysis.units.fielded import FieldedUnit, fielded_unit, roster_units


def _weapons(unit: FieldedUnit) -> dict[str, list[tuple[int, list[str]]]]:
    out: dict[str, list[tuple[int, list[str]]]] = {}
    for g in unit.groups:
        out.setdefault(g.model, []).append((g.count, [w.name for w in g.rows]))
    return out


@pytest.mark.parametrize(
    ("block", "needle"),
    [
        # the four of issue 24: a second fist on the one Sergeant; four choices of one exclusive group (the
        # Sergeant's "3) Melee Weapon", at most 1); a Dark Angels blade hidden for a generic squad; models
        # beside size
        ({"loadout": ["Power Fist", "Power Fist"]}, "loadout[1]: 'Power Fist': not enough Legion Tactical Sergeant"),
        (
            {"loadout": ["Lightning Claw", "Heavy Chainsword", "Power Weapon", "Chainsword"]},
            "loadout[1]: 'Heavy Chainsword': not enough Legion Tactical Sergeant models may take it (of 1, each has "
            "1 of '3) Melee Weapon' (at most 1 per model))",
        ),
        ({"loadout": ["Calibanite Warblade"]}, "loadout[0]: 'Calibanite Warblade' is hidden in Tactical Squad's data"),
        ({"size": 10, "models": 20}, "attacker.models: not used beside size"),
        (
            {"loadout": [{"option": "Power Fist", "count": 0}]},
            "loadout[0].count: expected a whole number of models >= 1",
        ),
        ({"loadout": [{"option": "Power Fist", "count": 2}]}, "loadout[0].count"),
        # "1 in 10 may exchange his Bolter": one heavy weapon at 10 models, two at 20 (a group the data shows only
        # to the Imperial Fists' Inductii: the Legion is given, the rite cannot be known and changes nothing)
        (
            {"legion": "Imperial Fists", "loadout": ["Heavy Bolter", "Autocannon"]},
            "at most 1 of '1 in 10 may exchange his Bolter for' in the unit",
        ),
        (
            {"legion": "Imperial Fists", "size": 20, "loadout": [{"option": "Heavy Bolter", "count": 3}]},
            "at most 2 of '1 in 10 may exchange his Bolter for' in the unit, got 3 more",
        ),
        ({"loadout": ["Heavy Bolter"]}, "offered only to Imperial Fists"),
        ({"legion": "Dark Angels", "loadout": ["Heavy Bolter"]}, "the force has no 'VII: Imperial Fists'"),
        ({"loadout": ["Power Fsit"]}, "has no option 'Power Fsit'; did you mean 'Power Fist'"),
    ],
)
def test_loadouts_the_data_forbids_are_refused(block: dict, needle: str) -> None:
    with pytest.raises(ScenarioError) as err:
        fielded_unit({"name": "Tactical Squad", **block})
    assert needle in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("name", "loadout", "needle"),
    [
        # Heavy Support Squad's "1) Squad Weaponry" (one choice for the squad) and Tactical Support Squad's
        # "One Legionary may take" Nuncio-Vox (at most 1 in the unit, a constraint counted in the datasheet)
        ("Heavy Support Squad", ["Lascannon", "Autocannon"], "has 1 of '1) Squad Weaponry' (at most 1 per unit)"),
        ("Heavy Support Squad", ["Lascannon", "Lascannon"], "'Lascannon': Heavy Support Squad has 1 of"),
        ("Tactical Support Squad", ["Nuncio-Vox", "Nuncio-Vox"], "'Nuncio-Vox': at most 1 in the unit"),
        ("Heavy Support Squad", [{"option": "Lascannon", "count": 4}], "is taken once for the whole unit"),
    ],
)
def test_unit_wide_limits(name: str, loadout: list, needle: str) -> None:
    with pytest.raises(ScenarioError) as err:
        fielded_unit({"name": name, "loadout": loadout})
    assert needle in str(err.value)


@pytest.mark.parametrize(
    ("block", "points"),
    [
        # 2022 - Legiones Astartes.cat, Heavy Support Squad (bac9-5389-e2e7-0b1f): 100 at 5 models, 15 a model
        # more; its Lascannon link (e604-a35e-2799-f0a9) costs 10 plus 10 for every model of the Legionaries
        # group (1f87-b709-2c56-cefd): 4 at 5 models, 9 at 10
        ({"name": "Heavy Support Squad", "loadout": ["Lascannon"]}, 150.0),
        ({"name": "Heavy Support Squad", "size": 10, "loadout": ["Lascannon"]}, 100 + 5 * 15 + 10 + 9 * 10),
        ({"name": "Heavy Support Squad", "loadout": ["Autocannon"]}, 100 + 5 + 4 * 5),
        # Tactical Support Squad (50ed-5869-643d-1ac5): 85; Plasma Gun 10 + 10 per Legionary
        ({"name": "Tactical Support Squad", "loadout": ["Plasma Gun"]}, 85 + 10 + 10 * 4),
        # Tactical Squad (aa72-63e4-bc60-4611): 100 at 10; a nested option brings its parent's cost (Power
        # Weapon 10, Power Axe 0 within it), once even when the parent is named too
        ({"name": "Tactical Squad", "loadout": ["Power Axe"]}, 110.0),
        ({"name": "Tactical Squad", "loadout": ["Power Weapon", "Power Axe"]}, 110.0),
        ({"name": "Tactical Squad", "loadout": ["Power Fist"]}, 115.0),
        (
            {
                "name": "Tactical Squad",
                "legion": "Imperial Fists",
                "size": 20,
                "loadout": ["Heavy Bolter", "Autocannon"],
            },
            200 + 10 + 15,
        ),
        ({"name": "Tactical Squad", "loadout": [{"option": "Chainsword", "count": 9}, "Power Fist"]}, 100 + 45 + 15),
    ],
)
def test_prices_as_the_data_prices_them(block: dict, points: float) -> None:
    assert fielded_unit(block).points == points


def test_options_replace_what_they_replace_on_the_models_they_go_to() -> None:
    lascannons = _weapons(fielded_unit({"name": "Heavy Support Squad", "loadout": ["Lascannon"]}))
    assert lascannons == {
        "Legion Support Sergeant": [(1, ["Bolt Pistol"])],
        "Legionaries (collective)": [(4, ["Bolt Pistol", "Lascannon"])],
    }
    axe = _weapons(fielded_unit({"name": "Tactical Squad", "loadout": ["Power Axe"]}))
    assert axe["Legion Tactical Sergeant"] == [(1, ["Bolt Pistol", "Bolter", "Power Axe"])]
    two = _weapons(
        fielded_unit(
            {
                "name": "Tactical Squad",
                "legion": "Imperial Fists",
                "size": 20,
                "loadout": ["Heavy Bolter", "Heavy Bolter"],
            }
        )
    )
    assert two["Legionary w/ Options:"] == [(2, ["Bolt Pistol", "Heavy Bolter"])]
    assert two["Legionaries (collective)"] == [(17, ["Bolt Pistol", "Bolter"])]


def test_a_fielded_unit_carries_its_wargear_items() -> None:
    unit = fielded_unit({"name": "Tactical Squad", "loadout": ["Power Fist"]})
    sergeant = unit.groups[0]
    assert {"Power Armour", "Frag Grenades", "Krak Grenades", "Power Fist"} <= set(sergeant.wargear)
    assert unit.source == "datasheet" and unit.options == ("Power Fist",) and unit.size == 10


FIXTURE = Path(__file__).resolve().parent / "fixtures" / "heavy_support_lascannons.ros"


def test_a_roster_with_per_model_increments_is_priced_exactly() -> None:
    # tests/fixtures/heavy_support_lascannons.ros: the Dark Angels roster's Heavy Support Squad with its
    # Heavy Bolter selection replaced by the Lascannon link (e604-a35e-2799-f0a9), costed as BattleScribe
    # costs it: 10 + 10 for each of the 4 Legionaries = 50, the unit 150
    priced = price_roster(FIXTURE, load_datasheets(), load_datasheet_models(), load_wargear_options())
    assert priced["roster_points"].tolist() == priced["datasheet_points"].tolist() == [150.0]
    (unit,) = roster_units(FIXTURE)
    sheet = fielded_unit({"name": "Heavy Support Squad", "loadout": ["Lascannon"]})
    assert unit.points == sheet.points == 150.0 and unit.source == "roster"
    assert [(g.count, [w.name for w in g.rows]) for g in unit.groups] == [
        (g.count, [w.name for w in g.rows]) for g in sheet.groups
    ]
