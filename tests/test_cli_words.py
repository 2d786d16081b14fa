"""What the command line says agrees with what it prints: the wargear help's unit is the screen's (per 100
points), and a refused faction names the value short with close matches, on one line."""

from __future__ import annotations

from praetor_analysis.cli import main


def test_the_wargear_help_says_per_100_points_as_its_screen_does(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--help"]) == 0
    top = " ".join(capsys.readouterr().out.split())
    assert main(["wargear", "--help"]) == 0
    own = " ".join(capsys.readouterr().out.split())
    for text in (top, own):
        assert "adds per 100 points of its cost" in text
        assert "per point," not in text
