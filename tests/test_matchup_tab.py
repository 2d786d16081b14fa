"""The dashboard's matchup tab: the modifiers army-wide, equal to calc of the modified blocks; the tab shows the
plans and a heatmap and offers the report that reproduces the view."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("ipywidgets")

from praetor_analysis import calc
from praetor_analysis.analysis.army_list import read_list_json
from praetor_analysis.analysis.matchup import pair_result, pairs_of
from praetor_analysis.views.dashboard.matchup_tab import MatchupTab, modified_lists
from praetor_analysis.views.dashboard.modifiers import Modifiers
from praetor_analysis.views.pair_documents import pair_scenario

MINE = {"name": "Mine", "units": ["Tactical Squad", {"name": "Heavy Support Squad", "loadout": ["Lascannon"]}]}
THEIRS = {"name": "Theirs", "units": ["Terminator Tartaros Squad", "Rhino Transport"]}
MODS = Modifiers.of(reroll_hits="ones", to_wound=1, cover="5+", fnp="6+", half_range=True)


def test_modifiers_army_wide_equal_calc_of_the_modified_blocks() -> None:
    mine, theirs = modified_lists(read_list_json(MINE), read_list_json(THEIRS), MODS)
    # the typed record on each unit, not rules written into its statlines
    assert all(u.loadout.modifiers == MODS.attacker for u in mine.units)
    assert not any("Re-roll" in str(list(g.profile.rules)) for u in mine.units for g in u.loadout.groups)
    assert theirs.units[0].target_block["Cover"] == "5+"
    assert "Feel No Pain (6+)" in theirs.units[0].target_block["rules"]
    assert "rules" not in theirs.units[1].target_block or not any(
        "Feel No Pain" in r for r in theirs.units[1].target_block["rules"]
    )  # a vehicle has no Feel No Pain
    plain_mine, plain_theirs = read_list_json(MINE), read_list_json(THEIRS)
    changed = 0
    for pair, plain in zip(
        [p for p in pairs_of(mine, theirs, ("shooting",), half_range=True) if p.side == "mine"],
        [p for p in pairs_of(plain_mine, plain_theirs, ("shooting",)) if p.side == "mine"],
        strict=True,
    ):
        result = pair_result(pair).to_dict()
        doc = pair_scenario(pair)
        assert doc is not None and doc["attacker"]["modifiers"] == MODS.attacker.to_block()  # the datasheet, modified
        again = calc(json.loads(json.dumps(doc)))
        key = "hull_points" if "hull_points" in result else "casualties"
        assert again[key]["pmf"] == pytest.approx(result[key]["pmf"], abs=1e-12)
        before = pair_result(plain).to_dict()[key]["mean"]
        changed += not math.isclose(result[key]["mean"], before, rel_tol=1e-9)
    assert changed > 0


def test_a_roster_unit_carries_the_record_into_its_volleys() -> None:
    # a unit without a datasheet block (as a roster's are) fires firing_units volleys: each carries the record
    from dataclasses import replace

    mine, theirs = modified_lists(read_list_json(MINE), read_list_json(THEIRS), MODS)
    unit = replace(mine.units[1], source=None)
    pair = next(p for p in pairs_of(replace(mine, units=(unit,)), theirs, ("shooting",)) if p.side == "mine")
    doc = pair_scenario(pair)
    assert doc is not None and "firing_units" in doc
    assert all(v["attacker"]["modifiers"] == MODS.attacker.to_block() for v in doc["firing_units"][0])
    result = pair_result(pair).to_dict()
    key = "hull_points" if "hull_points" in result else "casualties"
    assert calc(json.loads(json.dumps(doc)))[key]["pmf"] == pytest.approx(result[key]["pmf"], abs=1e-12)


def test_tab_computes_and_offers_the_report() -> None:
    tab = MatchupTab(lambda: MODS)
    assert tab.chart_box.layout.display == "none"  # no empty axes before a matchup: the status says what to do
    assert "Compute the matchup" in tab.status.value
    seen: list[str] = []  # what the page is told while the work goes on
    tab.status.observe(lambda change: seen.append(change["new"]), names="value")
    result = tab.compute(read_list_json(MINE), read_list_json(THEIRS))
    assert any("Computing the matchup" in v for v in seen) and any("pairs 16 of 16" in v for v in seen)
    assert tab.button.description == "Compute the matchup" and not tab.button.disabled
    # the fire plans read as tables, as in the report; the report is made only when asked
    assert tab.answer.value.count('<table class="praetor">') == 2 and "fired at by" in tab.answer.value
    assert tab.download.filename == "" and not tab.report_button.disabled
    tab.report_button.click()
    assert tab.chart_box.layout.display is None
    assert "Mine" in tab.answer.value and "shooting" in tab.answer.value
    assert len(tab.figure.data) == 1 and tab.figure.data[0].type == "heatmap"
    first = tab.figure.layout.title.text
    tab.phase.value = "melee"
    assert tab.figure.layout.title.text != first and "melee" in tab.figure.layout.title.text
    assert tab.download.filename == "matchup.html" and 'id="praetor-data"' in tab.download.content
    assert len(result.pairs) == 16
