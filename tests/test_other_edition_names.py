"""A 3rd-edition datasheet's name given where the 2nd edition is read says so in one line, whichever command
reads it: ``praetor wargear`` said "'Lasrifle Section' is not a datasheet of edition 2; it is one of edition 3",
while ``praetor calc`` (attacker or target) and a ``praetor matchup`` JSON list said "no datasheet named
'Lasrifle Section'; did you mean 'Medicae Section'...?" for the same name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from praetor_analysis.cli import main

SAID = "'Lasrifle Section' is not a datasheet of edition 2; it is one of edition 3"


def _calc(tmp_path: Path, scenario: dict[str, object]) -> list[str]:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    return ["calc", "--summary", str(path)]


@pytest.mark.parametrize(
    ("case", "field"),
    [("calc attacker", "attacker"), ("calc target", "target"), ("matchup list", "units[0]")],
)
def test_a_3rd_edition_name_in_a_2nd_edition_input_is_refused_saying_so(
    case: str, field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if case == "calc attacker":
        argv = _calc(tmp_path, {"attacker": "Lasrifle Section", "target": "Rhino"})
    elif case == "calc target":
        argv = _calc(tmp_path, {"attacker": "Tactical Squad", "target": "Lasrifle Section"})
    else:
        mine = tmp_path / "mine.json"
        mine.write_text(json.dumps({"name": "Mine", "units": ["Lasrifle Section"]}), encoding="utf-8")
        theirs = tmp_path / "theirs.json"
        theirs.write_text(json.dumps({"name": "Theirs", "units": ["Tactical Squad"]}), encoding="utf-8")
        argv = ["matchup", str(mine), str(theirs)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and captured.out == ""
    assert lines[0].endswith(f"{field}: {SAID}"), lines[0]


def test_an_unknown_name_still_gets_suggestions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_calc(tmp_path, {"attacker": "Tactical Squadd", "target": "Rhino"})) == 2
    err = capsys.readouterr().err
    assert "no datasheet, unit profile or standard target named 'Tactical Squadd'" in err
    assert "did you mean 'Tactical Squad'" in err and "edition 3" not in err


def test_a_2nd_edition_name_refused_in_the_3rd_says_what_the_shipped_data_lacks(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 3rd-edition player asking for a Tactical Squad was sent to the 2nd edition (--edition hh2) with no word
    that the 3rd edition's shipped snapshot lacks the Legiones Astartes catalogue, whose generic datasheets
    those are (its provenance says so); with a full import, nothing is said of it."""
    import praetor_analysis.units.hh3_datasheet as sheets

    argv = ["wargear", "Tactical Squad", "--edition", "hh3", "--target", "Rhino"]
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1
    assert "'Tactical Squad' is not a datasheet of edition 3; it is one of edition 2 (--edition hh2)" in lines[0]
    assert "lacks the 'Legiones Astartes' catalogue" in lines[0] and "praetor import" in lines[0]
    monkeypatch.setattr(sheets, "load_provenance", lambda edition="hh2": {"missing": []})
    assert main(argv) == 2
    line = capsys.readouterr().err.strip()
    assert line.endswith("it is one of edition 2 (--edition hh2)") and "Legiones Astartes" not in line
