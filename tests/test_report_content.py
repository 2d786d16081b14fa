"""The report reads in order: Assumptions, the answer, figures per measure, the explorer, raw tables last."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from fixture_files import DA_LIST

pytest.importorskip("plotly")

from praetor_analysis.views.figures.specs import DistributionOptions, distribution_spec
from praetor_analysis.views.formats import PALETTE, TITLE_LINE, number, percent
from praetor_analysis.views.report import explorer as E
from praetor_analysis.views.report import page as R

XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="module")
def default_page() -> str:
    return R.default_report()


def test_number_formats():
    assert [number(v) for v in (0.0, 3.60179e-07, 0.111111, 1.5555, 21.14, 2795.0, float("nan"))] == [
        "0",
        "< 0.0001",
        "0.111",
        "1.56",
        "21.1",
        "2,795",
        "",
    ]
    assert [percent(p) for p in (0.0, 2.5e-07, 0.0123, 0.25, 0.99996, 1.0)] == [
        "0%",
        "< 0.01%",
        "1.2%",
        "25%",
        "> 99.99%",
        "100%",
    ]
    assert len(set(PALETTE)) == len(PALETTE) == 24


def test_default_report_reads_in_order(default_page):
    page = default_page
    order = [
        page.index("<h1>"),
        page.index('id="assumptions"'),
        page.index("The answer: the best weapon per target"),
        page.index("Expected models removed"),
        page.index('id="praetor-explorer"'),
        page.index("Raw tables"),
    ]
    assert order == sorted(order)
    for topic in ("Attacker", "Skill", "Models", "Range", "Charging", "Modifiers", "Casualties"):
        assert f"<dt>{topic}</dt>" in page
    assert "BS 4 (hits on 3+)" in page and "full range" in page
    # separate colour scales: models removed, hull points, unsaved wounds
    for title in ("Expected models removed", "Expected hull points removed", "Expected unsaved wounds"):
        assert title in page
    assert page.count("get_plotlyjs") == 0 and page.count("plotly.js v") <= 2  # one bundle
    assert re.search(r"\de-0\d", page.split("<script", 1)[0]) is None  # no exponent notation in the text
    assert "<details><summary>Comparison table</summary>" in page


def test_answer_uses_unsaved_wounds_where_no_model_falls(default_page):
    # The Contemptor (one model, 6 wounds) is almost never removed by one weapon: wounds are ranked instead.
    row = re.search(r"<tr><td>Contemptor Dreadnought</td><td>([^<]+)</td><td>([^<]+)</td>", default_page)
    assert row is not None and row.group(2).endswith(" wounds") and float(row.group(2).split()[0]) > 0.1


def test_explorer_data_is_escaped_once_and_never_empty():
    rows = ["Bolter", XSS]
    pmfs = {
        (0, 0, "casualties"): np.array([0.99999, 0.00001]),
        (1, 0, "casualties"): np.array([1.0]),
        (0, 0, "wounds"): np.array([0.5, 0.5]),
        (1, 0, "wounds"): np.array([0.25, 0.75]),
        (0, 1, "hull_points"): np.array([0.5, 0.25, 0.25]),
    }
    data = E.explorer_data(rows, ["Contemptor", "Rhino"], pmfs)
    assert data.defaults == ("wounds", "hull_points")  # nothing to see in models removed: wounds first
    assert data.cells[1]["hull_points"][0] == [1.0, 0.5, 0.25] and data.cells[1]["hull_points"][1] is None
    block = E.explorer_html(data)
    assert XSS not in block and "</script>" not in block.split("praetor-explorer-data", 1)[1].split("</script>")[0]
    payload = block.split('id="praetor-explorer-data">', 1)[1].split("</script>", 1)[0]
    back = json.loads(payload)
    assert back["rows"][1] == "&lt;script&gt;alert(1)&lt;/script&gt;"  # Plotly-escaped: shown as typed
    assert "&lt;script&gt;alert(1)&lt;/script&gt;</label>" in block  # HTML-escaped in the checkbox label
    assert E.explorer_html(E.explorer_data([], [], {})) == ""


def test_roster_report_opens_with_the_list(tmp_path):
    roster = DA_LIST
    out = tmp_path / "r.html"
    assert R.report_main(roster=str(roster), out=str(out)) == 0
    page = out.read_text(encoding="utf-8")
    assert "0 weapon profiles" not in page
    head = page.index("<h1>")
    assert page.index('class="lead"') > head and " points" in page[head : page.index('id="assumptions"')]
    assert page.index("The list at a glance") < page.index("The answer: the best unit per target")
    assert page.index("Whole list, shooting") < page.index("Whole list, melee") < page.index("Raw tables")
    assert 'id="praetor-data"' in page
    assert "each unit of the list as fielded, with its own statlines and wargear" in page
    raw = page[page.index("Raw tables") :]
    assert "profile_id" not in page[: page.index("Raw tables")] and "<details>" in raw


def test_table_drops_empty_columns_and_formats_chances():
    df = pd.DataFrame({"weapon": ["a"], "points": [np.nan], "p_any": [0.123456], "mean": [3.60179e-07]})
    text = R.table_html(df)
    assert "points" not in text and "12%" in text and "&lt; 0.0001" in text


def test_assumptions_name_the_rules_a_target_carries(default_page):
    # the shipped Knight target carries its Ion Shield as a rule (the importer reads it from the mandatory
    # wargear); the report says so before any number, and escapes what it shows
    head = default_page[default_page.index('id="assumptions"') : default_page.index("The answer")]
    assert "Knight Questoris (ion shield): Ion Shield (ion shield: an invulnerable save against shooting only" in head
    rows = pd.DataFrame([{"archetype": XSS, "rules": "Feel No Pain (5+);Stubborn", "note": ""}, {"archetype": "x"}])
    assert R.target_sentences(rows) == (f"{XSS}: Feel No Pain (5+); Stubborn",)
    page = R.to_html(R.Report(title="t", comparison=pd.DataFrame(), assumptions=R.Assumptions(targets=(XSS,))))
    assert XSS not in page


def test_a_long_distribution_title_is_broken_into_lines_that_fit() -> None:
    # the workbench's picked cell is named by attacker and target: one line ran past its ~550 px figure
    label = "Heavy Support Squad x5 (Lascannon) [shooting] vs Tartaros Terminator & co"
    spec = distribution_spec([0.25, 0.5, 0.25], DistributionOptions(title=label))
    lines = spec.layout["title"]["text"].split("<br>")
    assert len(lines) == 2 and all(len(line) <= TITLE_LINE for line in lines)
    assert (
        " ".join(lines)
        == "Heavy Support Squad x5 (Lascannon) [shooting] vs Tartaros Terminator &amp; co (mean 1 model)"
    )
    short = distribution_spec([0.5, 0.5], DistributionOptions(title="Bolter"))
    assert short.layout["title"]["text"] == "Bolter (mean 0.5 models)"
