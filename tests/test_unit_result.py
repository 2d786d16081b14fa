"""A fielded unit's attack is a typed UnitAttackResult: read by attribute, its measure an enum, and its
``to_dict()`` the result ``praetor calc`` gives for the same datasheet attacker."""

from __future__ import annotations

import pytest

from praetor_analysis import calc
from praetor_analysis.prob.dist import Dist
from praetor_analysis.scenario.document import parse_target
from praetor_analysis.units.attack import melee, shooting
from praetor_analysis.units.datasheet import build_loadout
from praetor_analysis.units.fielded import FieldedUnit, fielded_unit
from praetor_analysis.units.names import resolve_unit
from praetor_analysis.units.result import Measure, Outcome, UnitAttackResult

CASES = [
    ("Tactical Squad", "Rhino", "shooting"),
    ("Tactical Squad", "Legionary", "shooting"),
    ("Tactical Squad", "Legionary", "melee"),
    ("Heavy Support Squad", "Rhino", "shooting"),
]


@pytest.mark.parametrize(("sheet", "target", "mode"), CASES)
def test_the_typed_result_is_calc_of_the_datasheet(sheet: str, target: str, mode: str) -> None:
    unit = fielded_unit({"name": sheet})  # as calc fields it: a statline the data leaves short is completed
    struck = parse_target({"target": resolve_unit(target)})
    result = shooting(unit, struck) if mode == "shooting" else melee(unit, struck)
    assert isinstance(result, UnitAttackResult) and isinstance(result.removed, Dist)
    want = calc({"attacker": {"name": sheet}, "target": target, "mode": mode})
    vehicle = struck.is_vehicle
    assert result.measure is (Measure.HULL_POINTS if vehicle else Measure.MODELS)
    key = result.measure.column
    assert key == ("hull_points" if vehicle else "casualties") and key in want
    assert list(result.removed.probabilities) == pytest.approx(want[key]["pmf"], abs=1e-12)
    assert result.wounds_removed == pytest.approx(want["wounds_removed"], abs=1e-12)
    assert result.share_removed == pytest.approx(want["share_removed"], abs=1e-12)
    assert result.wiped == pytest.approx(
        want["wrecked"] if vehicle else float(Dist(want[key]["pmf"]).sf(struck.models - 1)), abs=1e-12
    )
    got = result.to_dict()
    for field in ("datasheet", "points", "phase", "chosen", "applied"):
        assert got[field] == want[field], field
    # the door adds the notes of reading the documents (the target's, the attacker block's) after the unit's own
    assert want["not_modelled"][: len(got["not_modelled"])] == got["not_modelled"]
    assert set(got["reasons"].items()) <= set(want["reasons"].items())
    assert set(want) - {"attacker", "target"} == set(got)


def test_a_unit_with_nothing_to_fire_removes_nothing_and_says_so() -> None:
    unit = build_loadout({"name": "Tactical Squad"})
    empty = FieldedUnit(unit.datasheet, unit.faction, unit.size, unit.points, ())
    for target, measure in (("Rhino", Measure.HULL_POINTS), ("Legionary", Measure.MODELS)):
        result = shooting(empty, parse_target({"target": resolve_unit(target)}))
        assert result.measure is measure and result.removed == Dist.point(0) and result.wiped == 0.0
        assert result.outcome.engine is None
        assert any("no weapon for the shooting phase" in n for n in result.not_modelled)
        assert result.to_dict()[measure.column]["pmf"] == [1.0]


def test_a_whole_round_reads_the_attackers_wounds_and_its_own_losses() -> None:
    unit = build_loadout({"name": "Tactical Squad"})
    target_unit = build_loadout({"name": "Tactical Squad"})
    struck = parse_target({"target": resolve_unit({"name": "Legionary", "models": 10})})
    result = melee(unit.with_flags(charging=True), struck, target_unit=target_unit)
    out = result.to_dict()
    assert result.returned is not None
    assert result.returned.mean() == pytest.approx(out["attacker_casualties"]["mean"], abs=1e-12)
    assert result.wounds.mean() == pytest.approx(out["wounds_caused"]["attacker"]["mean"], abs=1e-12)
    assert "target_chosen" in out


def test_an_outcome_of_nothing_follows_the_target() -> None:
    rhino = parse_target({"target": resolve_unit("Rhino")})
    assert Outcome.of(None, rhino).measure is Measure.HULL_POINTS
    assert Outcome.of(None, parse_target({"target": resolve_unit("Legionary")})).measure is Measure.MODELS


def test_the_no_weapon_note_leaves_the_unit_to_its_label() -> None:
    """Screens print a unit's notes after its label ('IM - Force Commander: ...'): the note names the phase only,
    or the name is said twice."""
    unit = build_loadout({"name": "Tactical Squad"})
    empty = FieldedUnit(unit.datasheet, unit.faction, unit.size, unit.points, ())
    result = shooting(empty, parse_target({"target": resolve_unit("Legionary")}))
    assert "no weapon for the shooting phase" in result.not_modelled
    assert not any(unit.datasheet in n for n in result.not_modelled)
