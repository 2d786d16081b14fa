"""A 3rd-edition unit's weapons are each fired, or named with the reason they are not (issue 35): a weapon the
door refuses is named with the refusal, never scored 0 in silence; a Blast weapon at a vehicle is fired as the
2nd edition reads a marker at a lone vehicle (docs/rules-hh3.md#markers-and-templates)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from group_blocks import hh3_group

from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.scenario.hh3_door import calc_hh3_stages
from praetor_analysis.units import (
    MARKER_AT_VEHICLE,
    FieldedUnit,
    UnitAttackResult,
    hh3_one_way,
    hh3_shooting,
)
from praetor_analysis.units.fielded import read_roster_units
from praetor_analysis.units.hh3_target import hh3_standard_targets

FIXTURES = Path(__file__).parent / "fixtures" / "rosters" / "hh3"
ROSTERS = sorted(FIXTURES.glob("*.rosz"))
TARGETS = dict(hh3_standard_targets())
RHINO = TARGETS["Rhino"]  # data/hh3/targets.csv: Front Armour 12, Side 11, Rear 10, HP 5, no INV
LEGIONARIES = TARGETS["Legionary (Tactical Squad)"]

#: The Battlecannon of data/hh3/weapons.csv (the Weapons catalogue's row).
BATTLECANNON = {"weapon": "Battlecannon", "name": "Battlecannon", "R": "48", "FP": "1", "RS": "8", "AP": "4",
                "D": "2", "Special Rules": 'Heavy (AP), Blast (3"), Pinning (1)', "Traits": "Auto"}  # fmt: skip
TANK = {"Type": "Vehicle", "M": "10", "BS": "4", "Front Armour": "14", "Side Armour": "13", "Rear Armour": "11",
        "HP": "6"}  # fmt: skip


def _unit(*weapons: dict[str, Any], statline: dict[str, Any] | None = None, model: str = "Strike Tank") -> FieldedUnit:
    group = hh3_group(model, 1, statline or TANK, tuple({"count": 1, **w} for w in weapons))
    return FieldedUnit(model, "", 1, 0.0, (group,), source="roster", edition="hh3")


def _pmf(result: UnitAttackResult) -> list[float]:
    return [float(p) for p in result.removed.probabilities]


def test_the_door_refuses_a_blast_at_a_rhino_without_its_hull() -> None:
    """The case of issue 35: the door alone still asks for the hull (``praetor calc`` is unchanged)."""
    weapon = {k: v for k, v in BATTLECANNON.items() if k != "weapon"}
    with pytest.raises(ScenarioError, match="formation.hull"):
        calc_hh3_stages({"edition": "hh3", "attacker": {"BS": 4}, "weapon": weapon, "target": dict(RHINO.block)})


def test_a_strike_tanks_battlecannon_at_a_rhino_is_one_hit_test() -> None:
    """BS 4 hits on 3+ (the HH3 BS table): P(hit) = 4/6 = 2/3. Armour Penetration at the Rhino's Front 12:
    D6 + RS 8 > 12 on a 5 or 6 = 2/6 penetrates (a 4 only glances: no hull point off a Rhino), each Penetrating Hit
    doing D 2 with no save. So 2 hull points with 2/3 * 1/3 = 2/9, none with 7/9; the mean 4/9."""
    result = hh3_shooting(_unit(BATTLECANNON), RHINO)
    assert _pmf(result) == pytest.approx([7 / 9, 0, 2 / 9], abs=1e-12)
    assert result.removed.mean() == pytest.approx(4 / 9, abs=1e-12)
    assert [c.weapon for c in result.chosen] == ["Battlecannon"]
    note = 'Battlecannon: Blast (3")'
    assert note in result.not_modelled and result.reasons[note] == MARKER_AT_VEHICLE


def test_the_two_editions_read_a_marker_at_a_lone_rhino_alike() -> None:
    """The 2nd edition's door fires a Battle cannon at a Rhino as one To Hit roll (hits [1/3, 2/3] at BS 4, Blast
    named under not_modelled); the 3rd edition's unit path makes the same hits (one Hit Test, 2/3)."""
    hh2 = calc({"attacker": {"BS": 4}, "weapon": "Battle cannon", "target": "Rhino"})
    assert hh2["hits"]["pmf"] == pytest.approx([1 / 3, 2 / 3], abs=1e-12)
    assert any(n.startswith("Blast") for n in hh2["not_modelled"])
    hh3 = hh3_shooting(_unit(BATTLECANNON), RHINO)
    engine = hh3.outcome.engine
    assert engine is not None
    assert engine.to_dict()["hits"]["pmf"] == pytest.approx([1 / 3, 2 / 3], abs=1e-12)


def test_one_hit_test_per_point_of_firepower_and_barrage_fired_directly() -> None:
    """A Twin Battlecannon (FP 2, data/hh3/weapons.csv) and the Aiolos missile launcher's Barrage (1) fired
    directly: each point of FP one Hit Test. Twin: each test penetrates with 2/9 (above) for 2 hull points:
    HP lost 0, 2, 4 with (7/9)^2 = 49/81, 2 (2/9)(7/9) = 28/81, (2/9)^2 = 4/81."""
    twin = {**BATTLECANNON, "weapon": "Twin Battlecannon", "name": "Twin Battlecannon", "FP": "2"}
    result = hh3_shooting(_unit(twin), RHINO)
    expected = [Fraction(49, 81), 0, Fraction(28, 81), 0, Fraction(4, 81)]
    assert _pmf(result) == pytest.approx([float(p) for p in expected], abs=1e-12)
    aiolos = {"weapon": "Aiolos missile launcher", "name": "Aiolos missile launcher", "R": "60", "FP": "1",
              "RS": "6", "AP": "4", "D": "1", "Special Rules": 'Heavy (FP), Blast (3"), Barrage (1)'}  # fmt: skip
    weak = hh3_shooting(_unit(aiolos), RHINO)  # D6 + 6 never passes Front 12: a glance at best, nothing removed
    assert weak.chosen[0].weapon is None and weak.chosen[0].unused == {"Aiolos missile launcher": "removes nothing "
                                                                       "from Rhino"}  # fmt: skip
    barrage = hh3_shooting(_unit({**aiolos, "RS": "8"}), RHINO)  # at RS 8: 1 hull point with 2/9 (D 1)
    assert _pmf(barrage) == pytest.approx([7 / 9, 2 / 9], abs=1e-12)
    assert {'Aiolos missile launcher: Blast (3")', "Aiolos missile launcher: Barrage (1)"} <= set(barrage.not_modelled)


def test_a_weapon_the_door_refuses_is_named_with_the_refusal() -> None:
    """A Blast without its diameter is refused by the door at Legionaries; the squad fires its Bolters and names
    the launcher, with the door's words, under not_modelled, reasons and the group's unused."""
    odd = {"weapon": "Odd launcher", "name": "Odd launcher", "R": "24", "FP": "1", "RS": "4", "AP": "5", "D": "1",
           "Special Rules": "Blast"}  # fmt: skip
    bolter = {"weapon": "Bolter", "name": "Bolter", "R": "24", "FP": "2", "RS": "4", "AP": "5", "D": "1"}
    statline = {"Type": "Infantry", "M": "7", "WS": "4", "BS": "4", "S": "4", "T": "4", "W": "1", "I": "4", "A": "1",
                "LD": "7", "SAV": "3+"}  # fmt: skip
    with pytest.raises(ScenarioError, match="diameter") as refusal:
        calc_hh3_stages({"edition": "hh3", "attacker": statline, "weapon": {k: v for k, v in odd.items() if k !=
                         "weapon"}, "target": dict(LEGIONARIES.block)})  # fmt: skip
    result = hh3_shooting(_unit(odd, bolter, statline=statline, model="Legionary"), LEGIONARIES)
    note = "Legionary: Odd launcher not fired"
    assert note in result.not_modelled and result.reasons[note] == str(refusal.value)
    assert [c.weapon for c in result.chosen] == ["Bolter"]
    assert result.chosen[0].unused == {"Odd launcher": f"refused: {refusal.value}"}
    assert result.removed.mean() > 0


def _mark(paths: list[Path]) -> list[Any]:
    return [pytest.param(p, id=p.name, marks=() if p.name == "Small Game.rosz" else pytest.mark.slow) for p in paths]


def _accounted(result: UnitAttackResult, unit: FieldedUnit, melee: bool) -> None:
    for group in unit.groups:
        entries = [c for c in result.chosen if c.model == group.model]
        fired = {c.weapon for c in entries if c.weapon is not None}
        unused = {k: v for c in entries for k, v in c.unused.items()}
        if not fired and any(c.why for c in entries):
            continue  # the group does not attack at all, and says why
        for arm in group.arms:
            if arm.melee != melee:
                continue
            name = arm.weapon
            assert name in fired or unused.get(name), (unit.datasheet, group.model, name)
        for name, why in unused.items():
            if why.startswith("refused: "):  # the refusal's words under not_modelled and reasons
                refusal = why.removeprefix("refused: ")
                notes = [n for n in result.not_modelled if n.startswith(f"{group.model}: ")]
                assert any(result.reasons.get(n) == refusal for n in notes), (unit.datasheet, group.model, name)
    assert not any("formation.hull" in why for why in result.reasons.values())


@pytest.mark.parametrize("path", _mark(ROSTERS))
def test_no_fixture_weapon_scores_zero_in_silence(path: Path) -> None:
    """Every weapon of every unit of the 3rd-edition fixture rosters, shooting and striking at every standard
    target, is fired or named with why not; a refusal is named under not_modelled; no Blast at a vehicle is
    refused for want of a hull."""
    for unit in read_roster_units(path).units:
        for _, target in TARGETS.items():
            _accounted(hh3_shooting(unit, target), unit, melee=False)
            try:
                melee = hh3_one_way(unit, target)
            except ScenarioError as exc:  # a unit none of whose models strikes: refused, saying why
                assert "has no model that fights in melee" in str(exc), (unit.datasheet, str(exc))
                assert not any(a.melee for g in unit.groups for a in g.arms), unit.datasheet
                continue
            _accounted(melee, unit, melee=True)


def test_a_deredeos_blast_fires_at_a_rhino() -> None:
    """All Comers.rosz's Deredeo Dreadnought fires every weapon (a Vehicle): its Hellfire plasma cannonade (Blast
    5") at a Rhino is fired, not refused, and its Blast named."""
    reading = read_roster_units(FIXTURES / "All Comers.rosz")
    unit = reading.units[reading.labels.index("Deredeo Dreadnought")]
    result = hh3_shooting(unit, RHINO)
    assert "Hellfire plasma cannonade" in {c.weapon for c in result.chosen}
    assert any(n.startswith("Hellfire plasma cannonade: Blast") for n in result.not_modelled)
