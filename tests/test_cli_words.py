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


def test_an_unknown_faction_is_named_short_with_close_matches(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["sweep", "Ultramarinez", "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "praetor sweep: faction: no datasheet of 'Ultramarinez'; did you mean 'Ultramarines'?"
    long = "Ultra" + "x" * 500
    assert main(["sweep", long, "-o", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "(507 characters)" in err  # the value cut, said so: not the message
    assert "... (5" not in err.split("(507 characters)", 1)[1]  # the list of factions is whole, not cut mid-name
    assert "factions: Alpha Legion" in err and err.rstrip().endswith("more)")
