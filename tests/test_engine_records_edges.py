"""Edges of ``units.engine_records`` (mutants of branch ``mutants5``): a statline read by ``unit_record`` is the
unit the door reads from the block it stands for (``profiles.unit_from_mapping`` of ``Statline.to_dict()``), with
the same one-line refusals, on the cases the catalogs do not reach (no Unit Type, 0 models, a vehicle without hull
points, a characteristic left out, W 0); and the weapon modes ``volley_record`` refuses."""

from __future__ import annotations

import pytest

from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.profiles import Weapon, unit_from_mapping
from praetor_analysis.units import Statline, unit_record, volley_record
from praetor_analysis.units.engine_records import check_weapon_mode

MARINE = {"WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Save": "3+"}
EDGES = [
    Statline(name="Marine", **MARINE),  # type: ignore[arg-type]
    Statline(name="No type", WS=3, T=3, W=1, Ld=7),  # no Unit Type: Infantry; BS, S, I, A, Save left out
    Statline(name="Odd", unit_type="Infantry", T=5, W=0, Ld=9),  # W 0 is read for an attacker
    Statline(name="Rhino", unit_type="Vehicle", BS=4, Front=11, Side=11, Rear=10),  # no HP printed
    Statline(name="Bad armour", unit_type="Vehicle", BS=4, Front=16, Side=11, Rear=10, HP=3),
    Statline(name="Bad T", T=11, W=1),
]


def _read(read: object) -> object:
    try:
        return read()  # type: ignore[operator]
    except PraetorError as e:
        return str(e)


@pytest.mark.parametrize("models", [0, 1, 5])
@pytest.mark.parametrize("statline", EDGES, ids=lambda s: s.name)
def test_a_statline_reads_as_its_block(statline: Statline, models: int) -> None:
    block = {**statline.to_dict(), "models": models}
    mine = _read(lambda: unit_record(statline, models, "attacker"))
    door = _read(lambda: unit_from_mapping(block, field_name="attacker"))
    assert mine == door


def test_the_edges_read_as_the_door_says() -> None:
    # Values as printed in EDGES; the defaults are the door's (docs/scenario.md: no Unit Type is Infantry).
    marine = unit_record(EDGES[0], 3)
    assert (marine.T, marine.Ld, marine.models) == (4, 8, 3)
    plain = unit_record(EDGES[1], 1)
    assert (plain.unit_type, plain.BS, plain.T, plain.Ld) == ("Infantry", None, 3, 7)
    assert unit_record(EDGES[1], 0).models == 0
    assert unit_record(EDGES[2], 1).W == 0
    rhino = unit_record(EDGES[3], 1)
    assert rhino.armour is not None and (rhino.armour.front, rhino.armour.rear, rhino.armour.hp) == (11, 10, None)
    with pytest.raises(PraetorError, match=r"^attacker\.Front"):
        unit_record(EDGES[4], 1)
    with pytest.raises(PraetorError, match=r"^target\.T"):
        unit_record(EDGES[5], 1, "target")


def test_a_value_that_is_no_characteristic_is_named_under_its_field() -> None:
    # A list is not hashable: read without the memo, and refused under the field given.
    odd = Statline(name="Odd", WS=[4], T=4, W=1)  # type: ignore[arg-type]
    with pytest.raises(PraetorError, match=r"^target\.WS"):
        unit_record(odd, 1, "target")


def test_zero_models_are_refused_as_an_attacker() -> None:
    attacker = unit_record(EDGES[0], 0)
    with pytest.raises(ScenarioError, match=r"attacker\.models: must be at least 1, got 0"):
        volley_record(Weapon.from_profile("Bolter", "24", "4", "5", "Rapid Fire"), attacker)


def test_weapon_modes() -> None:
    bolter = Weapon.from_profile("Bolter", "24", "4", "5", "Rapid Fire")
    pistol = Weapon.from_profile("Bolt Pistol", "12", "4", "5", "Pistol")
    sword = Weapon.from_profile("Power Sword", "-", "User", "3", "Melee")
    check_weapon_mode(pistol, "melee")  # a pistol is struck with in melee
    check_weapon_mode(bolter, "shooting")
    check_weapon_mode(sword, "melee")
    with pytest.raises(ScenarioError, match="is not a melee weapon"):
        check_weapon_mode(bolter, "melee")
    with pytest.raises(ScenarioError, match="is a melee weapon"):
        check_weapon_mode(sword, "shooting")
