"""A 3rd-edition unit's weapon modes are scored through the typed stages' means
(:func:`~praetor_analysis.units.hh3_stages.stage_means`: the stages' engine calls without their result mapping,
issue 35 item 5; the volleys built as typed records, issue 37); the door's whole result mapping of the same volley
written as a document stays the reference: every unit of every 3rd-edition fixture roster, at every standard target,
in both phases, chooses the same weapons with :func:`mode_score` as with the door's ``praetor calc`` of each mode's
one-model document, and every mode's means (removed, then wounds) agree at 1e-12 (a refused mode in the door's very
words)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from group_blocks import hh3_group

from praetor_analysis.engine import removed_means, resolve_hh3
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.scenario.hh3 import parse_hh3
from praetor_analysis.scenario.hh3_door import calc_hh3_stages, hh3_mean
from praetor_analysis.units import FieldedUnit, Hh3Shot, Hh3Target, hh3_attack, hh3_volleys, mode_score
from praetor_analysis.units.fielded import read_roster_units
from praetor_analysis.units.hh3_target import hh3_standard_targets

FIXTURES = Path(__file__).parent / "fixtures" / "rosters" / "hh3"
ROSTERS = [
    pytest.param(p, id=p.name, marks=() if p.name == "Small Game.rosz" else pytest.mark.slow)
    for p in sorted(FIXTURES.glob("*.rosz"))
]


def _volleys(unit: FieldedUnit, target: Hh3Target, mode: str) -> Any:
    try:
        return hh3_volleys(unit, target, mode)
    except ScenarioError as e:
        return str(e)


def by_door(shot: Hh3Shot, target: Hh3Target) -> tuple[float, float] | str:
    """The score of ``shot`` read from the door's whole result mapping of its one-volley document."""
    block = shot.to_block()
    document = {"edition": "hh3", **block, "charging": block["mode"] == "melee", "target": dict(target.block)}
    try:
        result = calc_hh3_stages(document)
    except PraetorError as e:
        return str(e)
    if target.is_vehicle:
        return (float(result["hull_points"]["mean"]), 0.0)
    return (float(result["casualties"]["mean"]), float(result["damage"]["mean"]))


@pytest.mark.parametrize("path", ROSTERS)
def test_mode_scores_are_the_doors(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scored: list[tuple[Any, ...]] = []

    def recording(*args: Any) -> tuple[float, float] | str:
        score = mode_score(*args)
        scored.append((*args, score))
        return score

    units = read_roster_units(path).units
    assert units
    for unit in units:
        for _, target in hh3_standard_targets():
            for mode in ("shooting", "melee"):
                monkeypatch.setattr(hh3_attack, "mode_score", recording)
                fast = _volleys(unit, target, mode)
                monkeypatch.setattr(hh3_attack, "mode_score", by_door)
                assert fast == _volleys(unit, target, mode), (unit.datasheet, target.name, mode)
    assert scored
    refused = 0
    for *args, score in scored:
        door = by_door(*args)
        if isinstance(door, str):
            refused += 1
            assert score == door
        else:
            assert isinstance(score, tuple) and len(score) == 2
            assert score == pytest.approx(door, abs=1e-12, rel=0)
    assert refused < len(scored)


def test_a_refused_mode_keeps_the_doors_words() -> None:
    """A weapon whose profile the door refuses is named with the door's refusal of its one-model document."""
    target = dict(hh3_standard_targets())["Legionary (Tactical Squad)"]
    attacker = {"Type": "Infantry", "BS": "4", "W": "1", "T": "4"}
    weapon = {"R": "24", "FP": "x", "RS": "4", "AP": "5", "D": "1"}  # no Firepower the door reads
    unit = read_roster_units(FIXTURES / "Small Game.rosz").units[0]
    group = hh3_group("Legionary", 5, attacker, ({"name": "Odd gun", **weapon},))
    made = hh3_volleys(replace(unit, groups=(group,), size=5), target)
    assert not made.shots and made.chosen[0].weapon is None
    ((note, why),) = made.notes
    assert note == "Legionary: Odd gun not fired" and "FP" in why
    with pytest.raises(ScenarioError) as door:
        calc_hh3_stages({"edition": "hh3", "attacker": {**attacker, "models": 1}, "weapon": weapon,
                         "charging": False, "target": dict(target.block)})  # fmt: skip
    assert why == str(door.value)
    assert made.chosen[0].unused == {"Odd gun": f"refused: {why}"}


MARINE = {"name": "Legionaries", "Type": "Infantry", "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 2, "I": 4, "A": 1,
          "LD": 7, "CL": 7, "WP": 8, "SAV": "3+", "INV": "-", "models": 3}  # fmt: skip
BOLTER = {"name": "Bolter", "R": 24, "FP": 2, "RS": 4, "AP": 5, "D": 1, "Special Rules": "", "Traits": "Bolt"}
SWORD = {"name": "Sword", "IM": "I", "AM": "A", "SM": "+1", "AP": 4, "D": 1, "Special Rules": ""}


def _firing(*volleys: dict[str, Any]) -> dict[str, Any]:
    return {"edition": "hh3", "firing_units": [list(volleys)], "target": {**MARINE, "models": 5}}


@pytest.mark.parametrize(
    "document",
    [
        _firing({"attacker": MARINE, "weapon": BOLTER}),
        _firing({"attacker": MARINE, "weapon": {**BOLTER, "D": 2, "Special Rules": "Breaching (5+), Pinning (1)"}}),
        _firing({"attacker": MARINE, "weapon": {**BOLTER, "Special Rules": "Force (D)"}}),  # the Check's mixture
        _firing({"attacker": MARINE, "weapon": {**BOLTER, "Special Rules": "Overload (1)"}}),
        _firing({"attacker": MARINE, "weapon": BOLTER}, {"attacker": {**MARINE, "BS": 3}, "weapon": BOLTER}),
        _firing({"mode": "melee", "attacker": MARINE, "weapon": SWORD, "charging": True}),
        {"edition": "hh3", "firing_units": [[{"attacker": MARINE, "weapon": BOLTER}]] * 2, "target": MARINE},
    ],
    ids=["bolter", "breaching", "force", "overload", "two volleys", "melee", "two units"],
)
def test_removed_means_are_resolve_hh3s(document: dict[str, Any]) -> None:
    """The engine's means without its counts and reports are exactly its result's (the same chain run)."""
    scenario = parse_hh3(document)
    result = resolve_hh3(scenario.target, scenario.firing_units)
    assert removed_means(scenario.target, scenario.firing_units) == (result.casualties.mean(), result.damage.mean())
    assert hh3_mean(document) == (result.casualties.mean(), result.damage.mean())


def test_removed_means_refuse_as_resolve_hh3() -> None:
    document = _firing({"attacker": {**MARINE, "models": 400}, "weapon": {**BOLTER, "FP": 20}})
    scenario = parse_hh3(document)
    with pytest.raises(PraetorError) as want:
        resolve_hh3(scenario.target, scenario.firing_units)
    with pytest.raises(PraetorError) as got:
        removed_means(scenario.target, scenario.firing_units)
    assert str(got.value) == str(want.value)
