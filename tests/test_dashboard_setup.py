"""Dashboard: the modifiers as engine rules, the melee round, targets added, setup saved and loaded, one bundle."""

from __future__ import annotations

import datetime
import json

import numpy as np
import pytest
from fixture_files import DA_LIST

pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")
go = pytest.importorskip("plotly.graph_objects")

from praetor_analysis.catalog import load_targets, load_units, load_weapons
from praetor_analysis.errors import ScenarioError
from praetor_analysis.scenario.calc import calc
from praetor_analysis.views.dashboard import app as D
from praetor_analysis.views.dashboard import view as V
from praetor_analysis.views.dashboard.modifiers import Modifiers, apply_modifiers
from praetor_analysis.views.figures.widgets import (
    BUNDLE_NAME,
    PlotlyRuntime,
    SharedFigureWidget,
    bundle_path,
    install_bundle,
)


@pytest.fixture(scope="module")
def catalogs():
    return load_weapons(), load_targets(), load_units()


@pytest.fixture()
def dash(catalogs):
    w, t, u = catalogs
    return D.Dashboard(w, t, units=u)


def z(fig) -> np.ndarray:
    return np.asarray(fig.data[0].z, dtype=float)


def test_one_plotly_bundle_for_every_figure(dash):
    figures = [
        dash.heatmap,
        dash.curves,
        dash.distribution,
        dash.melee,
        dash.markers.formation,
        dash.markers.distribution,
    ]
    figures.append(dash.roster)
    assert all(isinstance(f, go.FigureWidget) and isinstance(f, SharedFigureWidget) for f in figures)
    assert all(len(f._esm) < 5000 for f in figures)  # a loader, not plotly.js
    runtime = PlotlyRuntime.instance()
    assert dash.runtime is runtime and runtime.source == ""  # the page preloads the file, or asks for it
    # the page asks the kernel for the bundle when no static file is served (a notebook): sent once
    runtime._on_page_message(runtime, {"want": "source"}, [])
    assert runtime.source == bundle_path().read_text(encoding="utf-8")
    states = [f.get_state() for f in figures]
    assert sum(len(json.dumps(s.get("_esm", ""))) for s in states) < 40000


def test_the_bundle_is_installed_as_a_static_file(tmp_path):
    path = install_bundle(tmp_path / "static")
    assert path.name == BUNDLE_NAME and path.read_bytes() == bundle_path().read_bytes()
    assert install_bundle(tmp_path / "static") == path  # already there: kept


def test_modifiers_travel_as_the_attackers_record():
    base = {
        "attacker": {"BS": 4, "models": 1},
        "weapon": {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"},
        "target": {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Save": "3+"},
    }
    plain = calc(base)["unsaved"]["mean"]
    twin, _ = apply_modifiers(base, Modifiers.of(reroll_hits="all", reroll_wounds="all"))
    assert twin["weapon"]["Type"] == "Rapid Fire"  # the weapon as printed; the record says the re-rolls
    assert twin["attacker"]["modifiers"] == {"reroll_hits": "all", "reroll_wounds": "all"}
    # 1 shot, BS 4 re-rolling misses: P(hit) = 2/3 + 1/3 * 2/3 = 8/9; wound 1/2 re-rolled: 3/4; save fails 1/3
    assert calc(twin)["unsaved"]["mean"] == pytest.approx(8 / 9 * 3 / 4 * 1 / 3, abs=1e-12)
    assert plain == pytest.approx(2 / 3 * 1 / 2 * 1 / 3, abs=1e-12)
    up, _ = apply_modifiers(base, Modifiers.of(to_hit=1, to_wound=1, cover="4+", half_range=True))
    # +1 to hit and to wound are the attacker's rules (docs/rules.md#to-hit-and-to-wound-modifiers), not a
    # BS or Strength shift; at half range the bolter fires twice: 2 * 5/6 (2+) * 2/3 (3+) * 1/3 unsaved
    assert up["attacker"]["BS"] == 4 and up["weapon"]["Strength"] == "4" and up["half_range"] is True
    assert up["attacker"]["modifiers"] == {"to_hit": 1, "to_wound": 1}
    assert up["target"]["Cover"] == "4+"
    assert calc(up)["unsaved"]["mean"] == pytest.approx(2 * 5 / 6 * 2 / 3 * 1 / 3, abs=1e-12)
    pe, notes = apply_modifiers(base, Modifiers.of(preferred_enemy=True))
    result = calc(pe)
    assert "attacker: Preferred Enemy" in result["applied"] and not result["not_modelled"] and not notes
    # Preferred Enemy re-rolls 1s: hits 2/3 + 1/6 * 2/3 = 7/9, wounds 1/2 + 1/6 * 1/2 = 7/12, 1/3 unsaved
    assert result["unsaved"]["mean"] == pytest.approx(7 / 9 * 7 / 12 * 1 / 3, abs=1e-12)
    with pytest.raises(ValueError, match="reroll_hits"):
        Modifiers.of(reroll_hits="twice")


def test_furious_charge_adds_strength_on_the_charge(dash):
    before = dash.refresh_melee()
    dash.charging.value = True
    charged = dash.refresh_melee()
    dash.furious_charge.value = True
    furious = dash.refresh_melee()
    assert before.scenario["attacker"].get("charging") is None and charged.scenario["attacker"]["charging"] is True
    assert furious.scenario["attacker"]["modifiers"] == {"furious_charge": True}
    assert "charging (+1 A)" in " ".join(calc(furious.scenario)["applied"])
    # S5 against T4 wounds on 3+ instead of 4+: more wounds caused on the charge
    assert calc(furious.scenario)["casualties"]["mean"] > calc(charged.scenario)["casualties"]["mean"]


def test_melee_tab_is_a_whole_round(dash):
    fig = dash.melee
    assert fig.data[0].name.startswith("defender") and len(fig.data) == 2
    assert "wins" in fig.layout.title.text
    for trace in fig.data:
        assert abs(sum(trace.y) - 1.0) < 1e-9
    first = np.asarray(fig.data[0].y).copy()
    dash.melee_inputs["attacker_models"].value = 20
    assert not np.array_equal(np.asarray(dash.melee.data[0].y)[: first.size], first)
    result = calc(dash.refresh_melee().scenario)
    assert "target_weapon" in dash.refresh_melee().scenario and "attacker_casualties" in result


def test_reroll_all_raises_the_heatmap(dash):
    before = z(dash.heatmap).copy()
    dash.reroll_hits.value = "all"
    assert np.nansum(z(dash.heatmap)) > np.nansum(before)
    dash.reroll_hits.value = "none"
    np.testing.assert_allclose(z(dash.heatmap), before)
    dash.preferred_enemy.value = True
    assert "not modelled" not in dash.status.value and np.nansum(z(dash.heatmap)) > np.nansum(before)


def test_targets_from_the_catalog_and_custom(dash):
    idx = int(dash.units.index[dash.units["name"].str.contains("Contemptor")][0])
    label = dash.setup.add_target_unit(idx, 3)
    assert label in dash.target_select.value and label in list(dash.heatmap.data[0].x)
    dash.setup.custom["name"].value = "<b>Ogryns</b>"
    dash.setup.custom["T"].value = 5
    dash.setup.custom["W"].value = 3
    custom = dash.setup.add_custom_target()
    assert custom in list(dash.heatmap.data[0].x) or "&lt;b&gt;Ogryns&lt;/b&gt;" in list(dash.heatmap.data[0].x)
    dash.setup.unit_search.value = "contemptor"
    assert all("contemptor" in lbl.lower() for lbl, _ in dash.setup.unit_pick.options)


def test_setup_saves_as_calc_scenarios_and_loads_back(dash, catalogs):
    dash.bs.value = 5
    dash.half_range.value = True
    dash.reroll_wounds.value = "all"
    dash.fnp.value = "5+"
    dash.target_select.value = ("Rhino", "Legionary (Tactical Squad)")
    scenarios = dash.setup.save_setup()
    assert len(scenarios) == len(dash.weapon_select.value) * 2
    results = [calc(s) for s in json.loads(dash.setup.scenario_text.value)]  # the praetor calc contract
    means = {(s["weapon"]["name"], s["target"]["name"]): r for s, r in zip(scenarios, results, strict=True)}
    legion = means[("Bolter", "Legionary (Tactical Squad)")]["casualties"]["mean"]
    row = dash.refresh().table
    shown = row[(row.weapon == "Bolter") & (row.target == "Legionary (Tactical Squad)")]["mean"].iloc[0]
    assert legion == pytest.approx(shown, abs=1e-12)
    w, t, u = catalogs
    other = D.Dashboard(w, t, units=u)
    state = other.setup.load_setup(dash.setup.scenario_text.value)
    assert state is not None and other.bs.value == 5 and other.half_range.value and other.fnp.value == "5+"
    assert other.reroll_wounds.value == "all" and set(other.target_select.value) == set(dash.target_select.value)
    np.testing.assert_allclose(z(other.heatmap), z(dash.heatmap))
    assert other.setup.load_setup("{not json") is None and "Not loaded" in other.setup.setup_status.value
    with pytest.raises(ScenarioError, match="weapon.name"):
        V.state_from_scenarios(json.dumps([{**scenarios[0], "weapon": {"name": "Nonesuch"}}]), dash.weapons, t)


def test_export_is_a_download_of_the_offline_report(dash, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dash.to_hit.value = 1
    before = dash.setup.download.nonce
    page = dash.setup.export_report()
    assert page.startswith("<!DOCTYPE html>") and "+1 to hit" in page and 'id="assumptions"' in page
    assert page.count("plotly.js v") <= 2
    # sent to the browser (the widget's synced state), nothing written on the server
    assert dash.setup.download.content == page and dash.setup.download.filename == "praetor_report.html"
    assert dash.setup.download.mime == "text/html" and dash.setup.download.nonce == before + 1
    assert list(tmp_path.iterdir()) == [] and "/" not in dash.setup.setup_status.value


def test_save_setup_is_a_download_and_a_file_loads_back(dash, catalogs):
    dash.bs.value = 3
    scenarios = dash.setup.save_setup()
    assert dash.setup.download.filename == "praetor_setup.json" and json.loads(dash.setup.download.content) == scenarios
    w, t, u = catalogs
    other = D.Dashboard(w, t, units=u)
    data = dash.setup.download.content.encode()
    other.setup.load_file.value = (
        {
            "name": "praetor_setup.json",
            "type": "application/json",
            "size": len(data),
            "content": memoryview(data),
            "last_modified": datetime.datetime.now(datetime.UTC),
        },
    )
    assert other.bs.value == 3 and "Loaded" in other.setup.setup_status.value


def test_target_models_zero_is_said_in_words(dash):
    labels = dict(dash.target_models.options)
    assert labels["each target's own"] == 0 and dash.target_models.value == 0
    assert "each target's own" in dash.target_models.tooltip


def test_every_control_has_a_label_or_a_tooltip(dash):
    import ipywidgets as W

    def walk(w):
        yield w
        for c in getattr(w, "children", ()):
            yield from walk(c)

    dash.build_tabs()  # the tabs not opened yet are built on their first opening
    controls = [w for w in walk(dash.widget) if isinstance(w, (W.ValueWidget, W.Button)) and not isinstance(w, W.HTML)]
    assert len(controls) > 40
    silent = [w for w in controls if not (getattr(w, "tooltip", None) or isinstance(w, W.Textarea))]
    assert not silent, [getattr(w, "description", type(w).__name__) for w in silent]
    # the README says every control says what it does on hover: the setup's text box too (issue 36 item 7)
    assert all(getattr(w, "tooltip", None) for w in controls), [type(w).__name__ for w in controls if not w.tooltip]


def test_the_table_has_a_points_column(dash):
    assert "<th>points</th>" in dash.table.value and "no cost of its own" in dash.table.value


def test_roster_tab(dash):
    assert "No roster" in dash.roster_status.value and "Load a roster" in dash.roster_status.value
    assert dash.roster_box.layout.display == "none"  # no empty axes: the figure waits for a list
    bad = dash.load_roster(b"<roster", "bad.ros")
    assert bad.table.empty and "Not read" in dash.roster_status.value
    path = DA_LIST
    rv = dash.load_roster(path.read_bytes(), path.name)
    assert "Dark Angels" in dash.roster_status.value and "2,795 points" in dash.roster_status.value
    units = rv.table[rv.table["unit"] != "Whole list"]
    assert len(dash.roster.data[0].y) == 2 * units["unit_index"].nunique()  # every unit, shooting and melee
    assert set(units["phase"]) == {"shooting", "melee"}
    assert dash.roster.layout.yaxis.title.text == "unit" and dash.roster_box.layout.display is None


def test_a_setup_holds_the_attackers_own_record():
    """One type for the attacker's modifiers: the setup carries the contract's record, beside the situation."""
    from dataclasses import fields

    from praetor_analysis.units.modifiers import MODIFIER_FIELDS
    from praetor_analysis.units.modifiers import Modifiers as AttackerModifiers
    from praetor_analysis.views.dashboard.modifiers import SITUATION_FIELDS
    from praetor_analysis.views.dashboard.view import DashboardState

    state = DashboardState(weapons=(), targets=(), reroll_hits="ones", to_wound=1, cover="4+", charging=True)
    m = state.modifiers
    assert m.attacker == AttackerModifiers(reroll_hits="ones", to_wound=1)
    assert (m.cover, m.fnp, m.half_range, m.charging) == ("4+", "-", False, True)
    assert [f.name for f in fields(Modifiers)] == ["attacker", *SITUATION_FIELDS]
    assert not set(SITUATION_FIELDS) & MODIFIER_FIELDS  # no field is both
    with pytest.raises(TypeError):
        Modifiers.of(cover_save="4+")
