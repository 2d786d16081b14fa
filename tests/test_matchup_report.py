"""The matchup report: one offline page, escaped, its rows as JSON; in Chromium its figures draw, no console
error, and picking a pair redraws the plot."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("plotly")

from praetor_analysis.analysis.army_list import read_list_json
from praetor_analysis.analysis.list_matchup import matchup
from praetor_analysis.views.report.matchup import DATA_ID, matchup_html, write_matchup_report
from tests.test_report_browser import CHROMIUM, browser, open_page  # noqa: F401 (browser: the fixture)

XSS = "<script>window.__xss = 1</script>"
MINE = {"name": f"Mine {XSS}", "units": ["Tactical Squad", {"name": "Heavy Support Squad", "loadout": ["Lascannon"]}]}
THEIRS = {"name": "Theirs", "units": ["Terminator Tartaros Squad", "Rhino Transport"]}


@pytest.fixture(scope="module")
def result():  # type: ignore[no-untyped-def]
    return matchup(read_list_json(MINE), read_list_json(THEIRS))


def test_page_is_offline_escaped_and_embeds_its_rows(result) -> None:  # type: ignore[no-untyped-def]
    page = matchup_html(result)
    assert XSS not in page and html_escaped(XSS) in page
    assert "<script src" not in page and page.count("Plotly.newPlot") == 6  # plotly.js inline, no CDN
    found = re.search(f'<script type="application/json" id="{DATA_ID}">(.*?)</script>', page, re.S)
    assert found
    doc = json.loads(found.group(1))
    assert set(doc) == {"lists", "pairs", "plans", "not_modelled"}  # issue 33: the notes, as --json prints them
    assert len(doc["pairs"]) == 2 * 2 * 2 * 2
    assert {"attacker_list", "attacker", "target", "phase", "points_removed", "removed"} <= set(doc["pairs"][0])
    assert doc["lists"][0]["name"] == MINE["name"]
    assert (
        page.index("The answer")
        < page.index("per 100 points")
        < page.index("Pick a pair")
        < page.index('id="units"')
        < page.index('id="tables"')
    )


def html_escaped(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


needs_browser = pytest.mark.skipif(not Path(CHROMIUM).is_file(), reason=f"no Chromium at {CHROMIUM}")


@needs_browser
def test_report_draws_and_picking_a_pair_redraws(browser, result, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    path = write_matchup_report(result, tmp_path / "matchup.html")
    page, problems = open_page(browser, path)
    figures = page.locator(".js-plotly-plot")
    assert figures.count() == 2 + 4 + 1  # two plan curves, four heatmaps, the pair explorer
    for i in range(figures.count()):
        assert figures.nth(i).locator("g.trace, g.hm").count() >= 1
    title = "#praetor-matchup-plot .gtitle"
    page.wait_for_function(f"document.querySelector('{title}') !== null")
    first = page.locator(title).text_content()
    bars = page.evaluate("document.getElementById('praetor-matchup-plot').data[0].y.join(',')")
    page.select_option("#pm-target", label="Rhino Transport")
    page.wait_for_function(f"document.querySelector('{title}').textContent.includes('Rhino Transport')")
    assert page.locator(title).text_content() != first
    page.select_option("#pm-side", value="theirs")
    page.wait_for_function(f"document.querySelector('{title}').textContent.includes('Terminator Tartaros Squad')")
    assert page.evaluate("document.getElementById('praetor-matchup-plot').data[0].y.join(',')") != bars
    assert XSS in page.locator("h1").inner_text()  # shown as text
    assert page.evaluate("window.__xss === undefined")
    page.wait_for_timeout(300)
    assert problems == []
    page.close()
