"""A target named short on the roster screen is named in full too (issue 33 item 4: every name printed is read
back the same way). At 80 columns the screen cuts "Militia (Infantry Squad)" to "Militia", but ``--target Militia``
reads a 1-model Militia profile (another entry), so the screen says which target each short name stands for, and
that full name read back as ``--target`` gives the number the screen shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from praetor_analysis.analysis import rate_roster, target_named
from praetor_analysis.cli import main

ROSTER = Path(__file__).parent / "fixtures" / "rosters" / "hh2" / "Basic Marines Validate (system id ece7).test"


def _screen(width: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(["roster", str(ROSTER)]) == 0
    return capsys.readouterr().out


def test_short_target_names_are_keyed_to_their_full_names(capsys, monkeypatch) -> None:
    text = " ".join(_screen(80, capsys, monkeypatch).split())  # the key line folds at the width
    keyed = dict(re.findall(r"(\w[\w' -]*?) = (\w[^;.]*\))", text.split("Targets: ", 1)[1]))
    assert keyed == {"Militia": "Militia (Infantry Squad)", "Veletarii": "Veletarii (Storm Section)"}
    for short, full in keyed.items():
        assert target_named(full)[0] == full  # the full name reads back as the standard target
        assert target_named(short)[0] != full  # the short one would not: hence the key
    # The screen's Tactical Squad figure, 4.44 Militia per 100 pts (10 x 2/3 x 2/3 = 40/9 of a 100-point unit),
    # is the full name's as --target.
    frame = rate_roster(ROSTER, "Militia (Infantry Squad)")
    mean = frame[(frame["unit"] == "Tactical Squad (1)") & (frame["phase"] == "shooting")]["mean"].iloc[0]
    assert mean == pytest.approx(40 / 9, rel=1e-12)
    assert "4.44 models  Militia " in _screen(80, capsys, monkeypatch)


def test_a_wide_screen_names_targets_in_full_without_a_key(capsys, monkeypatch) -> None:
    text = _screen(200, capsys, monkeypatch)
    assert "Militia (Infantry Squad)" in text and "Targets: " not in text
