"""Options the data shows only to some forces: allowed when the force's Legion shows them, refused otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.units.fielded import fielded_unit

WARBLADE = "Calibanite Warblade"


def _refusal(block: dict[str, Any]) -> str:
    with pytest.raises(ScenarioError) as info:
        fielded_unit(block)
    text = str(info.value)
    assert "\n" not in text
    return text


def _weapons(block: dict[str, Any]) -> dict[str, list[str]]:
    return {g.model: [w.name for w in g.rows] for g in fielded_unit(block).groups}


def test_a_legions_own_blade_needs_that_legion() -> None:
    # Legiones Astartes catalogue: the Calibanite Warblade link in "Power Weapon (all)" is hidden, shown when
    # the force has "I: Dark Angels" and the model is a Character; it costs 5 beside its parent Power Weapon's 10
    squad = {"name": "Tactical Squad", "loadout": [WARBLADE]}
    text = _refusal(squad)
    assert "attacker.loadout[0]: 'Calibanite Warblade' is hidden in Tactical Squad's data" in text
    assert "'I: Dark Angels'" in text and '"legion"' in text
    dark = fielded_unit({**squad, "legion": "Dark Angels"})
    assert dark.points == 100 + 10 + 5 and dark.legion == "Dark Angels"
    assert WARBLADE in _weapons({**squad, "legion": "I: Dark Angels"})["Legion Tactical Sergeant"]
    other = _refusal({**squad, "legion": "Iron Hands"})
    assert "'I: Dark Angels'" in other and '"legion"' not in other


def test_the_condition_on_the_model_is_read_too() -> None:
    # the same blade asks for a Character: an Outrider Sergeant may take it, an Outrider may not
    base = {"name": "Outrider Squadron", "legion": "Dark Angels"}
    ok = _weapons({**base, "loadout": [{"option": WARBLADE, "model": "Legion Outrider Sergeant"}]})
    assert WARBLADE in ok["Legion Outrider Sergeant"]
    text = _refusal({**base, "loadout": [{"option": WARBLADE, "model": "Legion Outriders"}]})
    assert "is a 'Character'" in text


def test_a_legions_datasheet_shows_its_own_options() -> None:
    # a Dark Angels catalogue datasheet is fielded for its Legion unless told otherwise
    assert WARBLADE in _weapons({"name": "Centurion (Storm of War)", "loadout": [WARBLADE]})["Legion Centurion"]


def test_an_option_another_legion_hides_is_refused_for_it() -> None:
    # the Cyber-Familiar of a Tactical Sergeant is hidden when the force has no "X: Iron Hands": without a
    # Legion it is refused, naming the Legion it is offered to (issue 33 item 5: a force of no Legion takes what
    # every Legion may; it was taken as the data writes it, 120 points); for the Iron Hands it is taken, for the
    # Dark Angels refused
    squad = {"name": "Tactical Squad", "loadout": ["Cyber-Familiar"]}
    text = _refusal(squad)
    assert "offered only to Iron Hands" in text and '"legion"' in text
    assert fielded_unit({**squad, "legion": "Iron Hands"}).points == 120
    assert "hidden when the force has no 'X: Iron Hands'" in _refusal({**squad, "legion": "Dark Angels"})


def test_a_condition_no_scenario_can_meet_is_named() -> None:
    # Rad Grenades are shown by a Rite of War the scenario cannot take: refused, naming it
    text = _refusal({"name": "Tactical Squad", "legion": "Death Guard", "loadout": ["Rad Grenades"]})
    assert "'Rad Grenades' is hidden" in text and "The Reaping" in text


@pytest.mark.parametrize(
    ("legion", "needle"),
    [
        ("Dark Angles", "attacker.legion: no Legion named 'Dark Angles'; did you mean 'Dark Angels'"),
        (7, "attacker.legion"),
    ],
)
def test_a_bad_legion_is_refused(legion: Any, needle: str) -> None:
    assert needle in _refusal({"name": "Tactical Squad", "legion": legion})


def test_legion_in_calc_attacker_and_target() -> None:
    attacker = {"name": "Tactical Squad", "legion": "Dark Angels", "loadout": [WARBLADE]}
    got = calc({"mode": "melee", "attacker": attacker, "target": "Legionary (Tactical Squad)"})
    assert got["attacker"]["legion"] == "Dark Angels" and got["points"] == 115
    assert any(c["weapon"] == WARBLADE for c in got["chosen"])
    target = calc({"attacker": {"BS": 4}, "weapon": "Lascannon", "target": attacker})
    assert target["target"]["name"] == "Tactical Squad" and target["target"]["models"] == 10
    run = subprocess.run(
        [sys.executable, "-m", "praetor_analysis.cli", "calc", "-"],
        input=json.dumps({"mode": "melee", "attacker": {**attacker, "legion": "Iron Hands"}, "target": "Rhino"}),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "attacker.loadout[0]: 'Calibanite Warblade' is hidden" in run.stderr


def test_wargear_ranks_the_options_the_legion_is_offered() -> None:
    from praetor_analysis.analysis.wargear import wargear_value

    target = "Legionary (Tactical Squad)"
    plain = wargear_value("Tactical Squad", target, phases=("melee",))
    assert WARBLADE not in set(plain["option"])
    dark = wargear_value({"name": "Tactical Squad", "legion": "Dark Angels"}, target, phases=("melee",))
    row = dark[dark["option"] == WARBLADE].iloc[0]
    assert row["points"] == 15 and row["gain"] > 0  # the Power Weapon's 10 and the blade's 5
    assert "Cyber-Familiar" not in set(dark["option"])  # the Iron Hands' own, hidden for the Dark Angels
