"""The dashboard's edition switch (issue 35 item 3): one control at the top shows the 2nd or the 3rd edition's
dashboard whole; the 3rd edition's numbers are `praetor calc`'s on its documents (``"edition": "hh3"``); saved
setups record their edition, and a setup of the other edition is refused on one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

W = pytest.importorskip("ipywidgets")
pytest.importorskip("anywidget")
pytest.importorskip("plotly")

from praetor_analysis.cli import main
from praetor_analysis.scenario.calc import calc
from praetor_analysis.views.dashboard import EditionDashboard
from praetor_analysis.views.dashboard.hh3_tab import EDITION_2_ONLY

SMALL = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Small Game.rosz"


@pytest.fixture(scope="module")
def board() -> EditionDashboard:
    return EditionDashboard()


def _walk(w):  # type: ignore[no-untyped-def]
    yield w
    for c in getattr(w, "children", ()):
        yield from _walk(c)


def test_the_switch_at_the_top_shows_one_editions_dashboard_whole(board: EditionDashboard) -> None:
    assert board.widget.children[0] is board.edition and board.edition.tooltip
    assert [v for _, v in board.edition.options] == ["hh2", "hh3"] and all(board.edition.tooltips)
    assert board.edition.value == "hh2" and board.body.children == (board.hh2.widget, board.hh3.widget)
    assert board.hh3.widget.layout.display == "none" and board.hh2.widget.layout.display != "none"
    assert not board.hh3.tabs.built(0)  # the 3rd edition's shooting tab waits for the switch
    board.edition.value = "hh3"
    assert board.hh2.widget.layout.display == "none" and board.hh3.widget.layout.display != "none"
    assert board.current is board.hh3 and board.hh3.tabs.built(0)
    assert list(board.hh3.tabs.titles) == list(board.hh2.widget.titles)  # the same tabs, in the same order
    board.edition.value = "hh2"
    assert board.hh3.widget.layout.display == "none" and board.hh2.widget.layout.display != "none"
    board.edition.value = "hh3"


def test_the_3rd_editions_catalogs_and_targets(board: EditionDashboard) -> None:
    from praetor_analysis.catalog import load_targets

    h = board.hh3
    assert list(h.target_select.options) == list(load_targets("hh3")["archetype"])
    assert "SAV" in h.targets.columns and {"FP", "RS"} <= set(h.weapons.columns)
    assert {"p_Pinned", "p_Suppressed", "p_Stunned", "p_Routed"} <= {v for _, v in h.metric.options}
    assert h.status.value.startswith("Tactical Statuses: ")


def test_a_3rd_edition_cell_equals_praetor_calc_of_its_document(
    board: EditionDashboard, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The switch driven, the inputs set (BS 3, 7 firers, cover 5+, Feel No Pain 6+): the tab's distribution of
    each pair equals `praetor calc` of the saved document, and of the same document written by hand."""
    board.edition.value = "hh3"
    h = board.hh3
    h.bs.value, h.models.value, h.cover.value, h.fnp.value = 3, 7, "5+", "6+"
    frame = h.table_frame
    docs = h.save_setup()
    assert docs and all(d["edition"] == "hh3" for d in docs) and len(docs) == len(frame)
    path = tmp_path / "setup.json"
    path.write_text(json.dumps(docs), encoding="utf-8")
    assert main(["calc", str(path)]) == 0
    results = json.loads(capsys.readouterr().out)
    for (_, row), result in zip(frame.iterrows(), results, strict=True):
        key = "hull_points" if "hull_points" in result else "casualties"
        assert row["pmf"] == pytest.approx(result[key]["pmf"], abs=1e-12)
        routed = result["statuses"]["Routed"]
        assert (row["p_Routed"] != row["p_Routed"]) if routed is None else row["p_Routed"] == pytest.approx(routed)
    bolter = frame[frame["weapon"].str.startswith("Bolter ") & (frame["target"] == "Legionary (Tactical Squad)")]
    by_hand = calc({"edition": "hh3", "attacker": {"Type": "Infantry", "BS": 3, "WS": 4, "S": 4, "T": 4, "W": 1,
                    "I": 4, "A": 1, "LD": 7, "CL": 7, "WP": 7, "IN": 7, "SAV": "3+", "models": 7}, "weapon": "Bolter",
                    "target": {**board.hh3.scenarios()[0]["target"]}})  # fmt: skip
    assert bolter.iloc[0]["pmf"] == pytest.approx(by_hand["casualties"]["pmf"], abs=1e-12)
    # the figure shows the table's cell
    z = [v for row in board.hh3.heatmap.data[0].z for v in row if v == v]
    assert pytest.approx(sorted(z)) == sorted(frame["mean"].dropna())


def test_the_melee_tab_is_a_whole_3rd_edition_round(board: EditionDashboard) -> None:
    h = board.hh3
    doc = h.refresh_melee()
    assert doc["edition"] == "hh3" and doc["target_weapon"] and doc["mode"] == "melee"
    result = calc(doc)
    defender, attacker = (list(t.y) for t in h.melee.data)  # the defender's losses, then the attacker's
    assert defender == pytest.approx(result["casualties"]["pmf"], abs=1e-12)
    assert attacker == pytest.approx(result["attacker_casualties"]["pmf"], abs=1e-12)
    assert "Routed" in h.melee_status.value


def test_every_tab_works_or_says_it_is_the_2nd_editions_only(board: EditionDashboard) -> None:
    h = board.hh3
    h.tabs.build_all()
    for i, title in enumerate(h.tabs.titles):
        content = h.tabs.build(i)
        if title in EDITION_2_ONLY:
            assert isinstance(content, W.HTML) and "2nd edition's only" in content.value
            assert "\n" not in EDITION_2_ONLY[title]
    rv = h.load_roster(SMALL.read_bytes(), SMALL.name)  # the roster tab rates a 3rd-edition list
    assert rv.summary.startswith("Small Game: 747 points declared") and not rv.table.empty


def test_every_control_has_a_tooltip(board: EditionDashboard) -> None:
    board.hh3.tabs.build_all()
    controls = [w for w in _walk(board.hh3.widget) if isinstance(w, (W.ValueWidget, W.Button)) and not isinstance(
        w, W.HTML)]  # fmt: skip
    assert len(controls) > 20
    assert all(getattr(w, "tooltip", None) for w in controls), [
        getattr(w, "description", type(w).__name__) for w in controls if not getattr(w, "tooltip", None)
    ]


def test_saved_setups_record_the_edition_and_the_other_edition_is_refused_on_one_line(board: EditionDashboard) -> None:
    h2, h3 = board.hh2, board.hh3
    two = h2.setup.save_setup()
    assert two and all(d["edition"] == "hh2" for d in two)
    three = h3.save_setup()
    before = h2.state()
    assert h2.setup.load_setup(json.dumps(three)) is None and h2.state() == before
    assert h2.setup.setup_status.value.startswith("Not loaded: scenario[0].edition: a setup of the 3rd edition")
    assert "\n" not in h2.setup.setup_status.value and "<br>" not in h2.setup.setup_status.value
    assert h3.load_setup(json.dumps(two)) is None
    assert h3.setup_status.value.startswith("Not loaded: scenario[0].edition: a setup of the 2nd edition")
    # each edition loads its own back
    assert h2.setup.load_setup(json.dumps(two)) is not None
    h3.bs.value = 5
    saved = h3.save_setup()
    h3.bs.value = 2
    state = h3.load_setup(json.dumps(saved))
    assert state is not None and h3.bs.value == 5 and h3.scenarios() == saved


def test_each_editions_matchup_tab_refuses_a_list_of_the_other_on_one_line(board: EditionDashboard) -> None:
    """The 2nd edition's modifiers must not fall silently on 3rd-edition units: its tab refuses their list, and the
    3rd edition's refuses a 2nd-edition list."""
    from praetor_analysis.analysis.army_list import load_list
    from praetor_analysis.errors import ScenarioError

    hh3_list = load_list(SMALL)
    hh2_list = load_list(Path(__file__).parent / "fixtures" / "rosters" / "hh2" / "HH2 - Dark Angels.rosz")
    with pytest.raises(ScenarioError, match=r"^Small Game: a list of the 3rd edition; switch the dashboard"):
        board.hh2.matchup_tab.compute(hh3_list, hh3_list)
    with pytest.raises(ScenarioError, match=r"a list of the 2nd edition; switch the dashboard to the 2nd"):
        board.hh3.matchup_tab.compute(hh2_list, hh3_list)
    assert board.hh3.matchup_tab.result is None
