"""The command's first screens fit the terminal and say their units (issue 36 items 1 and 2).

`praetor roster`, `wargear` and `matchup` are run in this process on a real roster (tests/fixtures/rosters/hh2,
sources in its README) with COLUMNS at 80 and 120: no line is longer, the labels of two squads of one name are
both there, every number of the first screen carries its unit, and the --csv/--parquet files hold the rows
that --json prints.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from praetor_analysis.analysis.unit_ratings import rate_roster
from praetor_analysis.cli import main
from praetor_analysis.units.fielded import read_roster_units
from praetor_analysis.views.tables import table_html
from praetor_analysis.views.text.calc_text import summary_lines
from praetor_analysis.views.text.fit import cut, fit_table
from praetor_analysis.views.text.matchup_text import at_least

ROSTER = Path(__file__).parent / "fixtures" / "rosters" / "hh2" / "Dark Angels - HH2 - Test.ros"
LIST_A = {"name": "Mine", "units": ["Tactical Squad", "Rhino Transport", "Tactical Squad", "Heavy Support Squad"]}
LIST_B = {"name": "Theirs", "units": ["Terminator Tartaros Squad", "Praetor"]}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, cols: int) -> str:
    monkeypatch.setenv("COLUMNS", str(cols))
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def test_fit_table_cuts_columns_not_lines() -> None:
    rows = [["Tactical Squad (1)", "12", "x" * 50], ["Tactical Squad (2)", "7", "y"]]
    lines = fit_table(["unit", "n", "weapons"], rows, 40, right=[1], shrink={2: 8})
    assert all(len(line) <= 40 for line in lines)
    assert "Tactical Squad (1)" in lines[2] and "Tactical Squad (2)" in lines[3]  # fixed columns whole
    assert lines[2].endswith("...") and cut("abcdef", 5) == "ab..."


@pytest.mark.parametrize("cols", [80, 120])
def test_roster_first_screen_fits_and_says_units(cols, capsys, monkeypatch) -> None:
    out = _run(["roster", str(ROSTER)], capsys, monkeypatch, cols)
    lines = out.splitlines()
    account = read_roster_units(ROSTER).account()
    assert lines[1] == account  # the points account: one line, whole, at every width (issue 33 item 2)
    assert all(len(line) <= cols for line in lines if line != account), max(lines, key=len)
    labels = read_roster_units(ROSTER).labels
    assert {"Tactical Squad (1)", "Tactical Squad (2)"} <= set(labels)
    rows = lines[lines.index(next(x for x in lines if x.startswith("unit "))) + 2 :]
    for label in labels:  # each unit once, its label whole
        assert sum(1 for r in rows if re.match(rf"{re.escape(label)}\s", r)) == 1, label
    body = [r for r in rows if re.match(r".*\s\d+\s{2}", r)]
    assert len(body) == len(labels)
    for r in body:  # every number of a phase says what it counts, or why there is none
        cells = re.findall(r"\d+\.\d\d (models|HP)|no melee|no ranged weapon|no weapon|not rated|out of range", r)
        assert len(cells) == 2, r


FIXTURES = Path(__file__).parent / "fixtures" / "rosters"


@pytest.mark.parametrize(
    ("roster", "unarmed", "armed"),
    [
        ("hh2/OgrynChainaxeFix.rosz", ["IM - Force Commander", "IM - Ogryn Brute Squad (1)"], "IM - Cavalry Squad"),
        ("hh3/Daemons.rosz", ["Ruinstorm Daemon Beasts", "Ruinstorm Lesser Daemons (1)"], "Ruinstorm Daemon Riders"),
    ],
)
def test_roster_screen_says_no_ranged_weapon(roster, unarmed, armed, capsys, monkeypatch) -> None:
    # issue 38: a unit none of whose models has a ranged weapon showed "0.00 models" at a target; melee says why
    lines = _run(["roster", str(FIXTURES / roster), "--phase", "shooting"], capsys, monkeypatch, 120).splitlines()

    def row(label: str) -> str:
        (found,) = [x for x in lines if re.match(rf"{re.escape(label)}\s+\d+\s", x)]
        return found

    for label in unarmed:
        assert row(label).rstrip().endswith("no ranged weapon"), row(label)
    assert re.search(r"\d+\.\d\d models", row(armed))  # armed (the Cavalry: one model unarmed, nine with pistols)
    assert not any(re.search(r"\s0\.00 models", x) for x in lines if "no ranged weapon" in x)


@pytest.mark.parametrize(
    ("roster", "unarmed"),
    [
        (
            "hh2/OgrynChainaxeFix.rosz",
            {"IM - Force Commander", "IM - Ogryn Brute Squad (1)", "IM - Ogryn Brute Squad (2)"},
        ),
        (
            "hh3/Daemons.rosz",
            {"Ruinstorm Daemon Beasts", "Ruinstorm Lesser Daemons (1)", "Ruinstorm Daemon Sovereign (2)"},
        ),
    ],
)
def test_a_unit_with_no_ranged_weapon_has_no_number_and_says_why(roster, unarmed, capsys, monkeypatch) -> None:
    # a row without a number has mean null and its ``error`` (README): the unit with no ranged weapon removes
    # nothing because it fires nothing, not "0.00" as a unit that fires and misses; the typed ``no_weapon`` says it
    rows = json.loads(_run(["roster", str(FIXTURES / roster), "--json"], capsys, monkeypatch, 120))
    shooting = [r for r in rows if r["phase"] == "shooting"]
    flagged = {r["unit"] for r in shooting if r["mean"] is None and "no weapon for the shooting phase" in r["error"]}
    assert unarmed <= flagged
    for r in shooting:
        if r["unit"] in flagged:
            assert r["mean"] is None and r["per_100_pts"] is None and r["p_any"] is None
        else:
            assert r["error"] == "" and r["mean"] is not None, r
    frame = rate_roster(FIXTURES / roster)
    assert set(frame.loc[frame["no_weapon"], "unit"]) == flagged  # one fact, in the frame and in --json
    assert set(frame.loc[frame["no_weapon"], "phase"]) == {"shooting"}
    assert not any(r["error"] for r in rows if r["unit"] in flagged and r["phase"] == "melee")  # they fight


def test_a_unit_that_fires_and_removes_nothing_is_not_unarmed(capsys, monkeypatch) -> None:
    # at a Rhino the Daemon Riders' weapon removes nothing (their weapons column reads "-"): the screen showed
    # "no ranged weapon" from that text; it reads the rows' ``no_weapon`` now, so the Riders show 0.00 HP
    argv = ["roster", str(FIXTURES / "hh3/Daemons.rosz"), "--target", "Rhino", "--phase", "shooting"]
    lines = _run(argv, capsys, monkeypatch, 120).splitlines()

    def row(label: str) -> str:
        (found,) = [x for x in lines if re.match(rf"{re.escape(label)}\s+\d+\s", x)]
        return found.rstrip()

    for armed in ("Ruinstorm Daemon Riders", "Ruinstorm Daemon Behemoth", "Ruinstorm Lesser Daemons (3)"):
        assert re.search(r"\s0\.00 HP\s+Rhino$", row(armed)), row(armed)
    for unarmed in ("Ruinstorm Daemon Beasts", "Ruinstorm Lesser Daemons (1)"):
        assert row(unarmed).endswith("no ranged weapon"), row(unarmed)


@pytest.mark.parametrize("cols", [80, 120])
def test_roster_all_and_files(cols, capsys, monkeypatch, tmp_path) -> None:
    out = _run(["roster", str(ROSTER), "--all"], capsys, monkeypatch, cols)
    account = read_roster_units(ROSTER).account()
    assert account in out.splitlines()  # one line, whole
    assert all(len(line) <= cols for line in out.splitlines() if line != account)
    csv, parquet = tmp_path / "r.csv", tmp_path / "r.parquet"
    _run(["roster", str(ROSTER), "--csv", str(csv), "--parquet", str(parquet), "--top", "3"], capsys, monkeypatch, cols)
    js = json.loads(_run(["roster", str(ROSTER), "--json"], capsys, monkeypatch, cols))
    frame = pd.read_csv(csv)
    assert len(frame) == len(js) == len(pd.read_parquet(parquet))
    assert list(frame["unit"]) == [r["unit"] for r in js]
    got = [None if pd.isna(x) else x for x in frame["mean"]]  # a phase not rated: empty in the CSV, null in JSON
    assert got == [r["mean"] for r in js]  # the CSV holds the numbers unrounded


def test_roster_sorts_as_asked(capsys, monkeypatch) -> None:
    out = _run(["roster", str(ROSTER), "--sort", "points", "--phase", "melee", "--top", "4"], capsys, monkeypatch, 100)
    lines = out.splitlines()
    start = lines.index(next(x for x in lines if x.startswith("unit "))) + 2
    points = [int(re.search(r"\s(\d+)\s", r).group(1)) for r in lines[start : start + 4]]  # type: ignore[union-attr]
    assert points == sorted(points, reverse=True) and len(points) == 4
    assert "shooting" not in lines[start - 2] and "11 more units" in out


@pytest.mark.parametrize("cols", [80, 120])
def test_wargear_screen_each_option_once_with_its_group(cols, capsys, monkeypatch, tmp_path) -> None:
    csv = tmp_path / "w.csv"
    argv = ["wargear", "Tactical Squad", "--legion", "Dark Angels", "--target", "Rhino"]
    out = _run([*argv, "--all", "--csv", str(csv)], capsys, monkeypatch, cols)
    lines = out.splitlines()
    assert all(len(line) <= cols for line in lines), max(lines, key=len)
    frame = pd.read_csv(csv, keep_default_na=False)
    assert "group" in frame.columns and (frame.loc[frame["phase"] != "", "group"] != "").sum() > 0
    table = lines[lines.index(next(x for x in lines if x.startswith("option "))) + 2 :]
    rated = [r for r in table if re.search(r"\+\d+\s", r)]
    assert len(rated) == len(set(rated))  # no two identical lines
    # the Volkite Charger of three model slots, the same price and result: one line
    assert sum(1 for r in rated if r.startswith("Volkite Charger ")) == 1
    first = _run(argv, capsys, monkeypatch, cols)
    assert len(first.splitlines()) <= 30 and "more rated options" in first


def test_matchup_text_fits_and_names_sides(capsys, monkeypatch, tmp_path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(LIST_A))
    b.write_text(json.dumps(LIST_B))
    csv = tmp_path / "pairs.csv"
    out = _run(["matchup", str(a), str(b), "--table", "--csv", str(csv)], capsys, monkeypatch, 120)
    assert all(len(line) <= 120 for line in out.splitlines())
    assert "<-" not in out and "in 9 games of 10" in out
    table = out[out.index("side  ") :]
    assert re.search(r"^Mine\s+Tactical Squad \(1\)", table, re.M) and re.search(r"^Theirs\s+Praetor", table, re.M)
    assert len(pd.read_csv(csv)) == 2 * 2 * (4 * 2)  # both sides, both phases, every pair


def test_fixed_tail_levels() -> None:
    pmf = {0.0: 0.05, 10.0: 0.45, 20.0: 0.4, 30.0: 0.1}  # P(>= 30) 0.1, P(>= 20) 0.5, P(>= 10) 0.95
    assert (at_least(pmf, 0.9), at_least(pmf, 0.5), at_least(pmf, 0.1)) == (10.0, 20.0, 30.0)
    assert at_least(pmf, 0.96) == 0.0
    # P(X >= 20) = 0.5 exactly: 20 is reached in half the games
    assert at_least({0.0: 0.5, 20.0: 0.5}, 0.5) == 20.0


def test_calc_summary_one_line_per_result(tmp_path, capsys, monkeypatch) -> None:
    doc = {"attacker": {"BS": 4}, "weapon": {"Strength": 9, "AP": 2, "Type": "Heavy 1"},
           "target": {"models": 5, "T": 4, "W": 1, "Save": "2+"}}  # fmt: skip
    path = tmp_path / "two.json"
    path.write_text(json.dumps([doc, doc]))
    out = _run(["calc", str(path), "--summary"], capsys, monkeypatch, 100)
    lines = out.splitlines()
    assert len(lines) == 2 and lines[0].startswith("[1] ")
    # BS 4: hits 2/3; S9 vs T4 wounds on 2+ (5/6); AP2 against 2+ armour: no save. casualties = 2/3 * 5/6 = 5/9
    assert "casualties 0.556 (P(any) 0.556)" in lines[0]
    assert summary_lines({"hits": {"pmf": [0.25, 0.75], "mean": 0.75}}) == ["hits 0.750 (P(any) 0.750)"]


def test_report_tables_offer_their_csv() -> None:
    frame = pd.DataFrame({"unit": ["Tactical Squad (1)", "<b>"], "mean": [1.0 / 3.0, 2.0], "empty": [None, None]})
    page = table_html(frame, download="units.csv")
    link = re.search(r'<a download="units.csv" href="data:text/csv;charset=utf-8;base64,([^"]+)"', page)
    assert link is not None
    text = base64.b64decode(link.group(1)).decode("utf-8")
    assert text.splitlines()[0] == "unit,mean"  # the columns shown (the empty one left out, as in the table)
    assert "0.3333333333333333" in text and "<b>" in text and "&lt;b&gt;" in page
    assert "download=" not in table_html(frame, download=None)


def test_progress_only_on_a_terminal() -> None:
    import io

    from praetor_analysis.views.text.progress import Progress

    quiet = io.StringIO()  # a pipe or a log: not a terminal
    p = Progress("matchup", quiet)
    p("pairs", 3, 10)
    p.close()
    assert quiet.getvalue() == ""

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty = Tty()
    p = Progress("matchup", tty)
    p("pairs", 3, 10)
    assert tty.getvalue().startswith("\rmatchup: pairs 3/10, ")
    p.close()
    assert tty.getvalue().endswith("\r") and tty.getvalue().count("\r") == 3  # the line cleared


def test_matchup_and_report_say_nothing_on_stderr_off_a_terminal(capsys, monkeypatch, tmp_path) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    a.write_text(json.dumps(LIST_A))
    b.write_text(json.dumps(LIST_B))
    assert main(["matchup", str(a), str(b), "--top", "2"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "more lines: --top N" in out


@pytest.mark.parametrize(
    ("legion", "own", "others"),
    [
        (None, set(), {"Hexagrammaton Choice", "Surgical Augment (Unit)", "Prosperine Arcana"}),
        ("Dark Angels", {"Hexagrammaton Choice"}, {"Surgical Augment (Unit)", "Prosperine Arcana"}),
        ("Emperor's Children", {"Surgical Augment (Unit)"}, {"Hexagrammaton Choice", "Prosperine Arcana"}),
    ],
)
def test_wargear_shows_every_legions_options_and_the_legion_given(legion, own, others, capsys, monkeypatch, tmp_path):
    """Issue 36 item 3: `wargear "Tactical Squad" --legion "Dark Angels"` showed Thousand Sons options and a
    Sonic Lance; now the options every Legion may take and the given Legion's, no other (none without one)."""
    csv = tmp_path / "w.csv"
    argv = ["wargear", "Tactical Squad", "--target", "Rhino", "--all", "--csv", str(csv)]
    out = _run([*argv, *(["--legion", legion] if legion else [])], capsys, monkeypatch, 120)
    groups = set(pd.read_csv(csv, keep_default_na=False)["group"])
    assert own <= groups and not groups & others, groups
    assert ("Sonic Lance" in out) == (legion == "Emperor's Children")
    assert "Athanaen" not in out and "Raptora" not in out  # Thousand Sons' Prosperine Arcana


def test_every_file_written_is_named_with_o_output() -> None:
    """Issue 36 item 2: `-o/--output` wherever a command writes its file (older names kept as aliases)."""
    from praetor_analysis.cli import build_parser

    parser = build_parser()
    subs = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction").choices
    for name, older in (("matchup", "--report"), ("report", "--out"), ("import", "--out"), ("sweep", "--out")):
        flags = next(a.option_strings for a in subs[name]._actions if "--output" in a.option_strings)
        assert {"-o", "--output", older} <= set(flags), name
    for name in ("roster", "matchup", "wargear"):  # and every printed table can go to a file
        assert any("--csv" in a.option_strings for a in subs[name]._actions), name
