"""``praetor roster --list``, as a new user meets it: it lists a 3rd-edition roster, and a 2nd-edition roster
given to it is refused in one line (exit 2) naming the flag and the file, never rated in silence in place of
the listing asked for; a unit of one model is listed as "1 model"."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_files import HH2_ROSTERS

from praetor_analysis.cli import main

HH3 = Path(__file__).parent / "fixtures" / "rosters" / "hh3" / "Small Game.rosz"
HH2 = [p for p in HH2_ROSTERS if p.suffix in (".ros", ".rosz")]


@pytest.mark.parametrize("path", HH2, ids=[p.name for p in HH2])
@pytest.mark.parametrize("json_flag", [[], ["--json"]], ids=["text", "json"])
def test_list_refuses_a_2nd_edition_roster_in_one_line(
    path: Path, json_flag: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["roster", "--list", *json_flag, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no rating printed in place of the listing
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("praetor roster: --list: ") and path.name in lines[0]
    assert "2nd-edition roster" in lines[0] and "without --list" in lines[0]


def test_a_unit_of_one_model_is_listed_as_one_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["roster", "--list", str(HH3)]) == 0
    out = capsys.readouterr().out
    assert "Centurion: 85 pts, 1 model (" in out
    assert "Tactical Squad (1): 142 pts, 10 models (" in out
    assert "1 models" not in out
