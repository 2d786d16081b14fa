"""The workbench (views/workbench/tab.py): datasheets with loadouts and statlines side by side, each with its own
modifiers, against several targets; the numbers are praetor calc's on the saved setup, cell by cell."""

from __future__ import annotations

import html
import json
import math
import pathlib
from types import SimpleNamespace

import pytest

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")

import itertools

from praetor_analysis.scenario.calc import calc, calc_json
from praetor_analysis.views.workbench.tab import Workbench
from praetor_analysis.views.workbench.view import MAX_ATTACKERS, setup_from_scenarios


@pytest.fixture(scope="module")
def bench():
    return Workbench()


def _fist(w: Workbench) -> tuple:
    w.kind.value = "Datasheet"
    w.find.value = "Tactical Squad"
    return next(v for label, v in w.loadout.options if label.startswith("Power Fist (Legion Tactical Sergeant)"))


def test_opens_with_a_unit_and_numbers(bench):
    assert len(bench.attackers) == 1 and bench.attackers[0].block["name"] == "Tactical Squad"
    assert len(bench.table_frame) == len(bench.targets.value) == 3
    assert bench.chart_box.layout.display is None and bench.cell_box.layout.display is None
    assert "<th>per_100_pts</th>" in bench.table.value and "<th>points</th>" in bench.table.value


def test_the_table_is_praetor_calc_on_the_saved_setup():
    w = Workbench()
    w.loadout.value = (_fist(w),)
    w.size.value = 12
    w.reroll_wounds.value = "ones"
    w.add_attacker()
    w.kind.value = "Statline"
    w.weapon.value = "Lascannon"
    w.bs.value = 5
    w.to_hit.value = -1
    w.add_attacker()
    docs = w.save_setup()
    assert w.download.filename == "workbench_setup.json" and json.loads(w.download.content) == docs
    results = calc_json(w.download.content)  # what `praetor calc workbench_setup.json` prints
    assert len(results) == len(w.attackers) * len(w.targets.value) == 9
    for row, result in zip(w.table_frame.to_dict("records"), results, strict=True):
        vehicle = "hull_points" in result
        models = result["wrecked"] if vehicle else result["casualties"]["mean"]
        assert row["models"] == pytest.approx(models, abs=1e-12)
        if "points" in result:
            assert row["points"] == result["points"]
    # the squad of 12 with a fist: 100 + 2 x 10 + 15 points, as the data prices it
    squad = w.table_frame[w.table_frame["attacker"].str.startswith("Tactical Squad x12")]
    assert set(squad["points"]) == {135.0}


def test_each_attacker_has_its_own_modifiers():
    w = Workbench()
    w.reroll_hits.value = "all"
    w.preferred_enemy.value = True
    w.add_attacker()
    plain, twin = (w.table_frame[w.table_frame["attacker"] == a.label] for a in w.attackers)
    assert (twin["models"].to_numpy()[:2] > plain["models"].to_numpy()[:2]).all()
    doc = {
        "attacker": {"name": "Tactical Squad", "faction": "Legiones Astartes", "size": 10},
        "target": "Tartaros Terminator",
    }
    mine = calc({**doc, "attacker": {**doc["attacker"], "modifiers": {"reroll_hits": "all", "preferred_enemy": True}}})
    row = twin[twin["target"] == "Tartaros Terminator"].iloc[0]
    assert row["models"] == pytest.approx(mine["casualties"]["mean"], abs=1e-12)
    assert row["wounds"] == pytest.approx(mine["wounds_caused"]["mean"], abs=1e-12)
    assert row["per_100_pts"] == pytest.approx(mine["casualties"]["mean"] * 25 / 100 * 100, abs=1e-9)


def test_at_most_eight_attackers():
    w = Workbench()
    while len(w.attackers) < MAX_ATTACKERS:
        assert w.add_attacker() is not None
    assert w.add_attacker() is None and "At most 8" in w.status.value
    assert len({a.label for a in w.attackers}) == MAX_ATTACKERS  # the same build, labels made unique
    w.remove_attacker(0)
    assert len(w.attackers) == MAX_ATTACKERS - 1


def test_a_click_on_a_cell_draws_its_distribution():
    w = Workbench()
    w.kind.value = "Statline"
    w.weapon.value = "Lascannon"
    w.add_attacker()
    w._on_click(w.chart.data[0], SimpleNamespace(point_inds=[[1, 2]]), None)  # second attacker, third target
    assert w.pick.value == 1 * 3 + 2
    assert w.cell.layout.title.text.startswith(w.pick.label)
    pmf = list(w.cell.data[0].y)
    assert math.isclose(sum(pmf), 1.0, abs_tol=1e-9)
    assert pmf == pytest.approx(w.results[5]["hull_points"]["pmf"], abs=1e-12)  # the Rhino: hull points
    tail = list(w.cell.data[1].y)  # P(X >= k)
    assert tail[0] == pytest.approx(1.0) and all(a >= b - 1e-12 for a, b in itertools.pairwise(tail))


def test_setup_loads_back_and_bad_files_are_said():
    w = Workbench()
    w.phase.value = "melee"
    w.charging.value = True
    w.furious_charge.value = True
    w.add_attacker()
    w.half_range.value = True
    text = json.dumps(w.save_setup())
    other = Workbench()
    assert other.load_setup(text) and [a.label for a in other.attackers] == [a.label for a in w.attackers]
    assert other.attackers[1].modifiers.furious_charge and other.attackers[1].charging
    assert other.table_frame["models"].tolist() == pytest.approx(w.table_frame["models"].tolist(), abs=1e-12)
    assert not other.load_setup("{nope") and "Not loaded" in other.status.value
    attackers, targets, half = setup_from_scenarios(text)
    assert half and len(attackers) == 2 and len(targets) == 3


def test_empty_states_say_what_to_do():
    w = Workbench()
    w.targets.value = ()
    assert "choose at least one target" in w.status.value and w.chart_box.layout.display == "none"
    w.targets.value = ("Rhino",)
    w.remove_attacker(0)
    assert "Add an attacker" in w.status.value and w.table.value == ""


def test_every_option_listed_is_priced_and_accepted():
    w = Workbench()
    w.find.value = "Heavy Support Squad"
    labels = [label for label, _ in w.loadout.options]
    assert labels and all(" pts" in label or "free" in label for label in labels)
    lascannon = next(v for label, v in w.loadout.options if label.startswith("Lascannon"))
    w.loadout.value = (lascannon,)
    a = w.built()
    result = calc({"attacker": a.scenario_attacker(), "target": "Rhino"})
    assert result["points"] > 100 and any(c["weapon"].startswith("Lascannon") for c in result["chosen"])


_OFFER_CASES = [
    ("Tactical Squad", "Legiones Astartes", None),  # the Perdition blades' parent is the Blood Angels' alone
    ("Tactical Squad", "Legiones Astartes", "Dark Angels"),
    ("Centurion, Tartaros", "Legiones Astartes", "Dark Angels"),
    ("Deliverers Squad", "Raven Guard", None),  # a Legion's own datasheet: its Legion by default
    ("Contemptor-Incaendius Dreadnought", "Blood Angels", None),  # shows an option the plain flag hides
]


@pytest.mark.parametrize(("datasheet", "faction", "legion"), _OFFER_CASES)
def test_the_options_offered_are_the_ones_calc_accepts(datasheet, faction, legion):
    """Every option row of the datasheet, taken alone: praetor calc accepts it exactly when the workbench
    offers it, and refuses each one not offered as hidden for this force (itself or the parent it needs)."""
    from praetor_analysis import catalog
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.views.workbench.view import loadout_item, option_choices

    def key(item):
        return item if isinstance(item, str) else tuple(sorted(item.items()))

    offered = {key(loadout_item(v)) for _, v in option_choices(datasheet, faction, legion)}
    rows = catalog.load_wargear_options()
    rows = rows[(rows["datasheet"] == datasheet) & (rows["faction"] == faction)]
    accepted = set()
    for r in rows.to_dict("records"):
        item = r["option"] if r["model"] == "(unit)" else {"option": r["option"], "model": r["model"]}
        block = {"name": datasheet, "faction": faction, "loadout": [item], **({"legion": legion} if legion else {})}
        try:
            calc({"attacker": block, "target": "Rhino"})
        except ScenarioError as exc:
            assert key(item) not in offered, f"offered but refused: {item!r}: {exc}"
            assert "hidden in" in str(exc), str(exc)
        else:
            assert key(item) in offered, f"accepted but not offered: {item!r}"
            accepted.add(key(item))
    assert accepted == offered and accepted


def test_the_legion_picker_changes_the_options_offered():
    w = Workbench()
    w.find.value = "Tactical Squad"
    plain = {label for label, _ in w.loadout.options}
    w.legion.value = "Dark Angels"
    dark = {label for label, _ in w.loadout.options}
    assert any(label.startswith("Calibanite Warblade") for label in dark - plain)
    w.loadout.value = (next(v for label, v in w.loadout.options if label.startswith("Calibanite Warblade")),)
    a = w.built()
    assert a.block["legion"] == "Dark Angels" and "Dark Angels" in a.label
    assert calc({"attacker": a.scenario_attacker(), "target": "Rhino"})["points"] > 100


_TINY = pathlib.Path(__file__).parent / "fixtures" / "tiny.ros"  # a Tactical Squad (148 pts) and a Rhino (35 pts)


def test_a_roster_unit_attacks_and_is_shot_at_as_praetor_calc_reads_it(tmp_path, monkeypatch):
    w = Workbench()
    w.kind.value = "Roster unit"
    assert w.add_attacker() is None and "Load a roster first" in w.status.value
    assert w.use_roster(_TINY.read_bytes(), "tiny.ros")
    assert [label for label, _ in w.roster_unit.options] == [
        "Tactical Squad (10 models, 148 pts)",
        "Rhino Transport (1 model, 35 pts)",
    ]
    w.reroll_hits.value = "all"
    a = w.add_attacker()
    assert a is not None and a.block == {"roster": "tiny.ros", "unit": "Tactical Squad"}
    t = w.add_roster_target(1)
    assert t is not None and t.points_per_model == 35.0 and t.label in w.targets.value
    squad = w.table_frame[w.table_frame["attacker"] == a.label]
    assert set(squad["points"]) == {148.0}  # the roster's points, not the datasheet's
    assert (squad["error"] == "").all()
    # the saved setup names the roster by the name it was loaded under: praetor calc in its folder agrees
    w.save_setup()
    assert "in the folder holding 'tiny.ros'" in html.unescape(w.status.value)
    (tmp_path / "tiny.ros").write_bytes(_TINY.read_bytes())
    monkeypatch.chdir(tmp_path)
    results = calc_json(w.download.content)
    assert len(results) == len(w.table_frame) == 2 * 4
    for row, result in zip(w.table_frame.to_dict("records"), results, strict=True):
        models = result["wrecked"] if "hull_points" in result else result["casualties"]["mean"]
        assert row["models"] == pytest.approx(models, abs=1e-12)
    on_rhino = w.table_frame[w.table_frame["target"] == t.label].iloc[-1]
    assert on_rhino["per_100_pts"] == pytest.approx(on_rhino["models"] * 35.0 / 148.0 * 100.0, abs=1e-12)
    # and the roster's own reading: the same cell from the roster file by its path
    direct = calc(
        {
            "attacker": {"roster": str(_TINY), "unit": "Tactical Squad", "modifiers": {"reroll_hits": "all"}},
            "target": {"roster": str(_TINY), "unit": "Rhino Transport"},
        }
    )
    assert on_rhino["models"] == pytest.approx(direct["wrecked"], abs=1e-12)


def test_a_setup_with_roster_units_loads_back_once_the_roster_is(tmp_path):
    w = Workbench()
    w.use_roster(_TINY.read_bytes(), "tiny.ros")
    w.kind.value = "Roster unit"
    w.add_attacker()
    w.add_roster_target(0)
    text = json.dumps(w.save_setup())
    other = Workbench()
    assert not other.load_setup(text)
    assert "of the roster 'tiny.ros': load that roster first" in html.unescape(other.status.value)
    assert other.use_roster(_TINY.read_bytes(), "tiny.ros") and other.load_setup(text)
    assert list(other.targets.value) == list(w.targets.value)
    assert other.table_frame["models"].tolist() == pytest.approx(w.table_frame["models"].tolist(), abs=1e-12)
    assert not other.use_roster(b"<catalogue/>", "bad.ros") and "Not read" in other.roster_status.value
    assert other.roster is not None and other.roster.name == "tiny.ros"  # the loaded roster stays


def test_the_roster_tabs_list_comes_to_the_workbench():
    from praetor_analysis.catalog import load_targets, load_weapons
    from praetor_analysis.views.dashboard.app import Dashboard

    before = Dashboard(load_weapons(), load_targets())
    before.load_roster(_TINY.read_bytes(), "tiny.ros")  # the workbench tab not yet opened
    before.tabs.build(1)
    assert before.workbench.roster is not None and before.workbench.roster.name == "tiny.ros"
    after = Dashboard(load_weapons(), load_targets())
    after.tabs.build(1)
    assert after.workbench.roster is None
    after.load_roster(_TINY.read_bytes(), "tiny.ros")
    assert after.workbench.roster is not None and len(after.workbench.roster_unit.options) == 2
    after.load_roster(b"<roster", "bad.ros")  # a list the roster tab cannot read leaves the workbench's
    assert after.workbench.roster.name == "tiny.ros"


def test_the_view_exports_as_an_offline_page_with_its_setup():
    from praetor_analysis.views.workbench.report import SETUP_ID, at_least_table

    w = Workbench()
    w.kind.value = "Statline"
    w.weapon.value = "Lascannon"
    w.add_attacker()
    page = w.export_report()
    assert w.download.filename == "workbench_report.html" and w.download.content == page
    assert page.startswith("<!DOCTYPE html>") and "Praetor analysis: workbench" in page
    assert "<script src" not in page and page.count("Plotly.newPlot") == 2  # plotly.js inline, no CDN
    embedded = page.split(f'id="{SETUP_ID}">', 1)[1].split("</script>", 1)[0]
    assert json.loads(embedded) == w.scenarios()
    tails = at_least_table([label for label, _ in w.pick.options], w.results)
    assert len(tails) == 6 and (tails["counts"] != "refused").all()
    pmf = w.results[0]["casualties"]["pmf"]
    assert tails.loc[0, "p_ge_1"] == pytest.approx(1.0 - pmf[0], abs=1e-12)
    assert tails.loc[0, "p_ge_2"] == pytest.approx(1.0 - pmf[0] - pmf[1], abs=1e-12)
    monotone = tails[[f"p_ge_{k}" for k in range(1, 11)]].to_numpy()
    assert (monotone[:, :-1] >= monotone[:, 1:] - 1e-12).all()


def test_a_datasheet_at_its_size_and_loadout_is_a_target_too():
    w = Workbench()
    w.find.value = "Tactical Squad"
    w.size.value = 15
    w.loadout.value = (_fist(w),)
    t = w.add_built_target()
    assert t is not None and t.label == "Tactical Squad x15 (Power Fist) (target)" and t.label in w.targets.value
    assert t.block == {
        "name": "Tactical Squad",
        "faction": "Legiones Astartes",
        "size": 15,
        "loadout": [{"option": "Power Fist", "model": "Legion Tactical Sergeant"}],
    }
    assert t.points_per_model == pytest.approx((100 + 5 * 10 + 15) / 15)  # the data's price over its models
    row = w.table_frame[w.table_frame["target"] == t.label].iloc[0]
    direct = calc({"attacker": w.attackers[0].scenario_attacker(), "target": t.block})
    assert row["models"] == pytest.approx(direct["casualties"]["mean"], abs=1e-12)
    assert row["per_100_pts"] == pytest.approx(row["models"] * t.points_per_model, abs=1e-12)  # a 100-pt squad
    other = Workbench()
    assert other.load_setup(json.dumps(w.save_setup())) and t.label in other.targets.value
    assert other.table_frame["models"].tolist() == pytest.approx(w.table_frame["models"].tolist(), abs=1e-12)
    w.kind.value = "Datasheet"
    w.size.value = w.size.min
    w.loadout.value = ()
    bad = json.loads(json.dumps(w.save_setup()))
    bad[-1]["target"]["size"] = 99
    assert not other.load_setup(json.dumps(bad)) and "target.size" in other.status.value


def test_a_custom_statline_is_a_target_too():
    w = Workbench()
    w.kind.value = "Statline"
    w.models.value, w.toughness.value, w.wounds.value = 5, 5, 2
    w.armour.value, w.invulnerable.value, w.target_points.value = "2+", "4+", 40
    t = w.add_built_target()
    assert t.label == "5 x T5 W2 Sv2+ Inv4+ (statline)" and t.points_per_model == 40.0
    assert t.block == {"name": t.label, "models": 5, "T": 5, "W": 2, "Save": "2+", "Invulnerable": "4+", "points": 200}
    row = w.table_frame[w.table_frame["target"] == t.label].iloc[0]
    direct = calc({"attacker": w.attackers[0].scenario_attacker(), "target": t.block})
    assert row["models"] == pytest.approx(direct["casualties"]["mean"], abs=1e-12)
    assert row["points_removed"] == pytest.approx(row["models"] * 40.0, abs=1e-12)
    other = Workbench()
    assert other.load_setup(json.dumps(w.save_setup()))
    assert other.chosen_targets()[-1] == t


def test_the_chart_shows_one_measure_at_a_time():
    from praetor_analysis.views.formats import number

    w = Workbench()
    w.kind.value = "Statline"
    w.add_built_target()  # a statline target with no points: no points removed to draw
    frame = w.table_frame
    heat = w.chart.data[0]
    assert list(heat.text[0][:3]) == [number(v) for v in frame["per_100_pts"].tolist()[:3]]
    assert heat.text[0][3] == "no points" and math.isnan(frame["per_100_pts"].iloc[3])
    assert heat.z[0][3] is None or math.isnan(heat.z[0][3])  # not drawn as another measure
    w.measure.value = "models"
    assert list(w.chart.data[0].z[0]) == pytest.approx(frame["models"].tolist(), abs=1e-12)
    assert w.chart.layout.title.text.startswith("Expected models removed")
    w.measure.value = "wounds"
    assert list(w.chart.data[0].z[0]) == pytest.approx(frame["wounds"].tolist(), abs=1e-12)


def test_a_statline_attacker_with_points_has_points_removed_per_100():
    w = Workbench()
    w.kind.value = "Statline"
    w.weapon.value = "Lascannon"
    w.models.value = 2
    a = w.add_attacker()
    assert "points" not in a.block and w.table_frame["per_100_pts"].iloc[3:].isna().all()
    w.unit_points.value = 80
    b = w.add_attacker()
    assert b.block["points"] == 80 and "80 pts" in b.label
    mine = w.table_frame[w.table_frame["attacker"] == b.label]
    assert set(mine["points"]) == {80.0}
    assert mine["per_100_pts"].tolist() == pytest.approx((mine["points_removed"] / 80 * 100).tolist(), abs=1e-12)
    assert calc({"attacker": b.scenario_attacker(), "weapon": b.weapon, "target": "Rhino"})  # calc takes the label
