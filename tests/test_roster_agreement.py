"""One reading of a roster: ``praetor roster --json`` and the roster report's embedded table agree, unit by unit."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fixture_files import DA_LIST, HH2_ROSTERS

from praetor_analysis.cli import main

ROSTER_FILES = HH2_ROSTERS
KEYS = ("unit", "points", "target", "phase", "mean", "p_any", "per_100_pts", "wounds", "share", "measure")


def _cli_rows(capsys: pytest.CaptureFixture[str], path: Path, target: str) -> list[dict]:
    assert main(["roster", str(path), "--target", target, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _report_rows(path: Path, target: str, out: Path) -> list[dict]:
    pytest.importorskip("plotly")
    assert main(["report", "--roster", str(path), "--targets", target, "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="praetor-data">(.*?)</script>', page, re.S)
    assert found, "the report embeds its table"
    return json.loads(found.group(1))


def _key(row: dict) -> tuple:
    return tuple(row[k] for k in KEYS)


def _reasons(row: dict) -> tuple:
    return (*_key(row), tuple(sorted(row["reasons"].items())))


@pytest.mark.parametrize("path", ROSTER_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("target", ["Rhino", "Tartaros Terminator"])
def test_roster_json_and_report_agree_on_every_unit(
    path: Path, target: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    cli = _cli_rows(capsys, path, target)
    page = _report_rows(path, target, tmp_path / "report.html")
    assert cli and set(cli[0]) == {*KEYS, "not_modelled", "reasons"} == set(page[0])
    assert sorted(map(_key, cli)) == sorted(map(_key, page))  # every unit, both phases, the same numbers

    def notes(r: dict) -> tuple:
        return (*_key(r), tuple(r["not_modelled"]))

    assert sorted(map(notes, cli)) == sorted(map(notes, page))  # and the same notes (the why of each: roster's)
    assert sorted(map(_reasons, cli)) == sorted(map(_reasons, page))  # and the same why of each note
    assert {r["phase"] for r in cli} == {"shooting", "melee"}


def test_the_report_names_the_reasons_the_json_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # the Dark Angels list has wargear whose rule holds under a condition: a note with its why, in both
    cli = _cli_rows(capsys, DA_LIST, "Rhino")
    page = _report_rows(DA_LIST, "Rhino", tmp_path / "report.html")
    said = {(r["unit"], r["phase"]): r["reasons"] for r in page if r["reasons"]}
    assert said and said == {(r["unit"], r["phase"]): r["reasons"] for r in cli if r["reasons"]}
    assert all(set(why) <= set(r["not_modelled"]) for r in page for why in [r["reasons"]])  # a why of a note shown
