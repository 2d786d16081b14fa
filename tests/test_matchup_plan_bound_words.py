"""A fire plan's bound is a bound on the points removed *on average* by any plan, not on the points one game
removes: the title said "(at most 35.0; ...)" above a spread line saying "70 in 1 of 10" (Daemons shooting at
Small Game), which a reader takes for a contradiction. The text and the report now say "no plan removes more
than X on average"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from praetor_analysis.cli import main

HH3 = Path(__file__).parent / "fixtures" / "rosters" / "hh3"
MINE, THEIRS = HH3 / "Small Game.rosz", HH3 / "Daemons.rosz"
_TITLE = re.compile(
    r"(?P<expected>[\d.]+) points of .+? removed on average \(no plan removes more than (?P<bound>[\d.]+) on average;"
)


def test_the_plan_title_says_the_bound_is_on_the_average(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "400")  # one line a title
    out_html = tmp_path / "m.html"
    assert main(["matchup", str(MINE), str(THEIRS), "-o", str(out_html)]) == 0
    out = capsys.readouterr().out
    titles = [line for line in out.splitlines() if " shooting at " in line and "removed on average" in line]
    assert len(titles) == 2
    for line in titles:
        assert "(at most" not in line
        found = _TITLE.search(line)
        assert found, line
        assert float(found["bound"]) >= float(found["expected"])
    spreads = [line for line in out.splitlines() if "Points removed, at least:" in line]
    assert len(spreads) == 2
    page = out_html.read_text(encoding="utf-8")
    assert "removes at most" not in page
    assert page.count("no plan removes more than") == 2
