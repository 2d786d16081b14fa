"""A loaded setup computes what ``praetor calc`` computes from the same file, or the load is refused naming
what differs (issue 38: the dashboard's "Load setup" changed 15 of 15 workbench and 11 of 12 dashboard
trials: ``"charging": "false"`` became charging, an edited weapon Strength became the catalog's,
``"BS": 3.9`` became 3)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

pytest.importorskip("ipywidgets")

from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.errors import ScenarioError
from praetor_analysis.views.dashboard import view as V
from praetor_analysis.views.setup_check import first_difference
from praetor_analysis.views.workbench import Workbench
from praetor_analysis.views.workbench.view import setup_from_scenarios


@pytest.fixture(scope="module")
def dashboard_setup() -> tuple[list[dict[str, Any]], Any, Any]:
    weapons, targets = V.weapon_catalog(load_weapons()), V.adjust_targets(load_targets())
    bolter = weapons.index[(weapons["name"] == "Bolter")][0]
    state = V.DashboardState(weapons=(bolter,), targets=("Rhino", "Legionary (Tactical Squad)"), bs=4)
    return V.setup_scenarios(state, weapons, targets), weapons, targets


def test_an_unedited_dashboard_setup_loads(dashboard_setup: tuple[list[dict[str, Any]], Any, Any]) -> None:
    docs, weapons, targets = dashboard_setup
    state = V.state_from_scenarios(json.dumps(docs), weapons, targets)
    assert V.setup_scenarios(state, weapons, targets) == docs


@pytest.mark.parametrize(
    ("path", "value", "named"),
    [
        (("attacker", "BS"), 3.9, "attacker.BS"),
        (("weapon", "Strength"), "8", "weapon.Strength"),
        (("attacker", "charging"), "false", "attacker.charging"),
    ],
)
def test_an_edited_dashboard_setup_is_refused_naming_the_field(
    dashboard_setup: tuple[list[dict[str, Any]], Any, Any], path: tuple[str, str], value: Any, named: str
) -> None:
    docs, weapons, targets = dashboard_setup
    edited = copy.deepcopy(docs)
    edited[1][path[0]][path[1]] = value
    with pytest.raises(ScenarioError, match=rf"scenario\[1\]\.{named}") as caught:
        V.state_from_scenarios(json.dumps(edited), weapons, targets)
    assert repr(value) in str(caught.value)


def _workbench_text() -> str:
    w = Workbench()
    w.phase.value = "melee"
    w.add_attacker()
    return json.dumps(w.save_setup())


def test_an_unedited_workbench_setup_loads() -> None:
    attackers, targets, _ = setup_from_scenarios(_workbench_text())
    assert attackers and targets


@pytest.mark.parametrize(
    ("key", "value"),
    [("charging", "false"), ("BS", 3.9), ("WS", 3.5)],
)
def test_an_edited_workbench_setup_is_refused_naming_the_field(key: str, value: Any) -> None:
    docs = json.loads(_workbench_text())
    docs[0]["attacker"][key] = value
    with pytest.raises(ScenarioError, match=rf"setup\[\d+\]\.attacker\.{key}"):
        setup_from_scenarios(json.dumps(docs))


def test_a_second_scenario_of_one_attacker_edited_differently_is_refused() -> None:
    # the loader keeps one block per attacker: a later scenario that differs would be dropped without a word
    docs = json.loads(_workbench_text())
    same = [i for i, d in enumerate(docs) if d["name"].split(" vs ")[0] == docs[0]["name"].split(" vs ")[0]]
    assert len(same) > 1
    docs[same[1]]["attacker"]["A"] = 9
    with pytest.raises(ScenarioError, match=rf"setup\[{same[1]}\]\.attacker\.A"):
        setup_from_scenarios(json.dumps(docs))


def test_first_difference_reads_numbers_alike_and_bools_apart() -> None:
    assert first_difference({"a": [1, 2.0]}, {"a": [1.0, 2]}, "x") is None
    assert first_difference({"a": True}, {"a": 1}, "x") == ("x.a", True, 1)
    assert first_difference({"a": 1}, {}, "x")[0] == "x.a"
