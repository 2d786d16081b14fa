"""Reports: one offline HTML file, escaped strings, CSV/PNG exports; then the page in real headless Chromium."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from fixture_files import DA_LIST

pytest.importorskip("plotly")

from praetor_analysis.views.report import page as R

XSS = "<script>alert(1)</script>"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def comparison() -> pd.DataFrame:
    rows = []
    for i, w in enumerate(["Bolter", XSS, "Lascannon"]):
        for j, t in enumerate(["Legionary", "Rhino"]):
            rows.append(
                {
                    "weapon": w,
                    "weapon_id": f"w{i}",
                    "faction": f"Faction {XSS}" if i == 1 else "Horus Heresy",
                    "Range": '24"',
                    "Strength": "4",
                    "AP": "5",
                    "Type": "Rapid Fire",
                    "target": t,
                    "target_id": f"t{j}",
                    "models": 10,
                    "measure": "casualties" if j == 0 else "hull_points",
                    "mean": 0.5 * (i + 1),
                    "std": 0.1,
                    "p_any": 0.25,
                    "p_all": 0.0,
                    "p_pinned": np.nan,
                    "points": 5.0,
                    "mean_per_100pts": 10.0 * (i + 1),
                    "not_modelled": XSS if i == 1 else "",
                    "error": XSS if (i, j) == (2, 1) else "",
                }
            )
    return pd.DataFrame(rows)


def report_with_xss() -> R.Report:
    dists = {(f"w{i}", f"t{j}"): np.array([0.5, 0.25, 0.25]) for i in range(3) for j in range(2)}
    return R.Report(
        title=f"Report {XSS}",
        comparison=comparison(),
        distributions=dists,
        roster={f"Roster {XSS}": pd.DataFrame({"unit": [XSS], "mean": [1.5]})},
        notes=(XSS,),
    )


# ------------------------------------------------------------------------------------- HTML as text
def test_full_page_is_offline_with_plotlyjs_once():
    page = R.to_html(report_with_xss())
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    # heatmaps of models removed, hull points and P(at least one), the points bars; the explorer draws itself
    assert page.count("Plotly.newPlot") == 4 and page.count('id="praetor-explorer-plot"') == 1
    assert "<script src" not in page and 'src="http' not in page  # nothing fetched (the browser test checks too)
    assert page.count("plotly.js v") <= 2  # the bundle's banner, once


def test_every_data_string_is_escaped():
    page = R.to_html(report_with_xss())
    assert XSS not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # tables, notes, title, headings
    assert page.count("<script") == page.count("</script>")


def test_fragment_and_repr():
    rep = report_with_xss()
    frag = R.to_html(rep, full_html=False)
    assert frag.startswith('<div class="praetor-report">') and "<html" not in frag
    assert "plotly.js v" not in frag  # the notebook brings its own plotly.js
    assert rep._repr_html_().startswith('<div class="praetor-report">')
    assert R.to_html(comparison(), full_html=False).startswith("<div")


def test_write_html_and_csv(tmp_path):
    out = R.write_html(report_with_xss(), tmp_path / "r.html")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    text = R.to_csv(comparison(), tmp_path / "c.csv")
    back = pd.read_csv(tmp_path / "c.csv", keep_default_na=False)
    assert list(back.columns) == list(comparison().columns) and len(back) == 6
    assert back.loc[2, "weapon"] == XSS and text.splitlines()[0].startswith("weapon,weapon_id")


def test_select_by_name():
    w = R.select_weapons(["lascannon", "Bolter"])
    assert "Lascannon" in set(w["name"]) and "Bolter" in set(w["name"])
    assert not w.duplicated(["name", "Range", "Strength", "AP", "Type"]).any()
    with pytest.raises(ValueError, match="--weapons: no weapon named 'Nonesuch'"):
        R.select_weapons(["Nonesuch"])
    assert list(R.select_targets(["rhino"])["archetype"]) == ["Rhino"]
    with pytest.raises(ValueError, match="--targets"):
        R.select_targets(["Nonesuch"])


def test_report_main_and_arguments(tmp_path):
    from praetor_analysis.cli import main

    assert (
        main(["report", "--weapons", "Lascannon", "Autocannon", "--targets", "Rhino", "-o", str(tmp_path / "o.html")])
        == 0
    )
    page = (tmp_path / "o.html").read_text(encoding="utf-8")
    assert "Lascannon" in page and "Rhino" in page
    with pytest.raises(ValueError, match="--roster"):
        R.report_main(roster=str(tmp_path / "missing.ros"), out=str(tmp_path / "x.html"))


def test_default_report_names_the_iconic_weapons():
    page = R.default_report()
    for name in ("Bolter", "Lascannon", "Praetor Launcher", "Volkite Culverin", "Missile Launcher - Frag"):
        assert name in page
    assert "Cataphractii Terminator" in page


def test_png_export_or_clear_refusal(tmp_path):
    import plotly.graph_objects as go

    fig = go.Figure(go.Bar(x=[1, 2], y=[3, 4]), layout={"title": {"text": "t"}})
    try:
        data = R.figure_to_png(fig, tmp_path / "f.png", width=300, height=200)
    except R.PngExportUnavailable as exc:
        assert "Chromium" in str(exc) or "kaleido" in str(exc)
        return
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and (tmp_path / "f.png").stat().st_size == len(data)


# ----------------------------------------------------------------------------------- real browser
needs_browser = pytest.mark.skipif(not Path(CHROMIUM).is_file(), reason=f"no Chromium at {CHROMIUM}")


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM}")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


def open_page(browser, path: Path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("dialog", lambda d: (problems.append(f"dialog: {d.message}"), d.dismiss()))
    page.on(
        "request",
        lambda r: problems.append(f"network: {r.url}") if not r.url.startswith(("file:", "data:", "about:")) else None,
    )
    page.goto(path.as_uri())
    page.wait_for_function(
        "document.querySelectorAll('.js-plotly-plot').length > 0 && "
        "[...document.querySelectorAll('.js-plotly-plot')].every(d => d.querySelector('.main-svg'))",
        timeout=30000,
    )
    return page, problems


@needs_browser
def test_report_renders_every_figure_and_runs_no_script(browser, tmp_path):
    path = R.write_html(report_with_xss(), tmp_path / "xss.html")
    page, problems = open_page(browser, path)
    figures = page.locator(".js-plotly-plot")
    n = figures.count()
    assert n == page.locator(".figure").count() == 5
    for i in range(n):
        assert figures.nth(i).locator(".main-svg").count() >= 1
        assert figures.nth(i).locator("g.trace, g.hm").count() >= 1  # traces (or a heatmap) were drawn
        box = figures.nth(i).bounding_box()
        assert box and box["width"] > 200 and box["height"] > 200
    assert page.title() == f"Report {XSS}"
    table_text = page.locator("details table.praetor").first.text_content()  # the raw table, collapsed
    assert XSS in table_text  # shown as text
    assert XSS in page.locator("h1").inner_text()
    # the four figures' own, the explorer's data and its code
    assert page.evaluate("document.querySelectorAll('body script').length") == 6
    assert page.evaluate("window.__xss === undefined")
    ticks = page.locator(".js-plotly-plot").first.locator(".ytick text").all_text_contents()
    assert XSS in ticks  # the figure's label shows the name as typed
    page.wait_for_timeout(300)
    assert problems == []
    page.close()


@needs_browser
@pytest.mark.slow  # the fast tier opens one report in the browser (the one above)
def test_default_report_in_browser(browser, tmp_path):
    path = tmp_path / "default.html"
    path.write_text(R.default_report(), encoding="utf-8")
    page, problems = open_page(browser, path)
    n = page.locator(".js-plotly-plot").count()
    assert n >= 3
    assert page.locator(".js-plotly-plot .main-svg").count() >= n
    assert problems == []
    page.close()


@needs_browser
@pytest.mark.slow  # the fast tier opens one report in the browser (the one above)
def test_roster_report_in_browser(browser, tmp_path):
    roster = DA_LIST
    out = tmp_path / "roster.html"
    assert R.report_main(roster=str(roster), out=str(out)) == 0
    page, problems = open_page(browser, out)
    assert page.locator(".js-plotly-plot .main-svg").count() >= 1
    assert "Whole list" in page.content()
    assert problems == []
    page.close()


@needs_browser
@pytest.mark.slow  # the fast tier opens one report in the browser (the one above)
def test_explorer_redraws_in_the_page(browser, tmp_path):
    path = tmp_path / "default.html"
    path.write_text(R.default_report(), encoding="utf-8")
    page, problems = open_page(browser, path)
    plot = page.locator("#praetor-explorer-plot")
    names = plot.locator(".legendtext").all_text_contents()
    assert len(names) == 8 and names[0] == "Bolter"
    title = plot.locator(".gtitle").text_content()
    page.select_option("#praetor-explorer-target", label="Rhino")
    page.wait_for_function("document.querySelector('#praetor-explorer-plot .gtitle').textContent.includes('Rhino')")
    assert plot.locator(".gtitle").text_content() != title and "hull points" in plot.locator(".xtitle").text_content()
    page.locator("#praetor-explorer input.praetor-row").nth(0).uncheck()
    page.wait_for_timeout(200)
    assert "Bolter" not in plot.locator(".legendtext").all_text_contents()
    page.select_option("#praetor-explorer-target", label="Contemptor Dreadnought")
    page.wait_for_timeout(200)
    assert page.locator("#praetor-explorer-measure").input_value() == "wounds"  # something to see
    assert plot.locator("g.trace").count() == 7
    assert problems == []
    page.close()
