"""The dashboard's matchup tab: the modifiers army-wide, equal to calc of the modified blocks; the tab shows the
plans and a heatmap and offers the report that reproduces the view."""

from __future__ import annotations

import json
import math

import pytest

pytest.importorskip("ipywidgets")

from praetor_analysis import calc
from praetor_analysis.analysis.army_list import read_list_json
from praetor_analysis.analysis.matchup import pair_result, pair_scenario, pairs_of
from praetor_analysis.views.matchup_tab import MatchupTab, modified_lists
from praetor_analysis.views.modifiers import Modifiers

MINE = {"name": "Mine", "units": ["Tactical Squad", {"name": "Heavy Support Squad", "loadout": ["Lascannon"]}]}
THEIRS = {"name": "Theirs", "units": ["Terminator Tartaros Squad", "Rhino Transport"]}
MODS = Modifiers(reroll_hits="ones", to_wound=1, cover="5+", fnp="6+", half_range=True)


def test_modifiers_army_wide_equal_calc_of_the_modified_blocks() -> None:
    mine, theirs = modified_lists(read_list_json(MINE), read_list_json(THEIRS), MODS)
    assert all("Re-roll To Hit 1s" in g.statline.get("rules", []) for u in mine.units for g in u.loadout.groups)
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
        result = pair_result(pair)
        doc = pair_scenario(pair)
        assert doc is not None and "firing_units" in doc  # a modified unit is no longer the datasheet as printed
        again = calc(json.loads(json.dumps(doc)))
        key = "hull_points" if "hull_points" in result else "casualties"
        assert again[key]["pmf"] == pytest.approx(result[key]["pmf"], abs=1e-12)
        before = pair_result(plain)[key]["mean"]
        changed += not math.isclose(result[key]["mean"], before, rel_tol=1e-9)
    assert changed > 0


def test_tab_computes_and_offers_the_report() -> None:
    tab = MatchupTab(lambda: MODS)
    result = tab.compute(read_list_json(MINE), read_list_json(THEIRS))
    assert "Mine" in tab.answer.value and "shooting" in tab.answer.value
    assert len(tab.figure.data) == 1 and tab.figure.data[0].type == "heatmap"
    first = tab.figure.layout.title.text
    tab.phase.value = "melee"
    assert tab.figure.layout.title.text != first and "melee" in tab.figure.layout.title.text
    assert tab.download.filename == "matchup.html" and 'id="praetor-data"' in tab.download.content
    assert len(result.pairs) == 16
