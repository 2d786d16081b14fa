"""What was not modelled reaches every output of ``roster`` and ``matchup`` (issues 33 and 35: nothing dropped
without a word).

Two fixture rosters with a known note (sources in tests/fixtures/rosters/*/README or the tests naming them):
the 2nd-edition "Dark Angels - HH2 - Test.ros", whose Sky-Hunter Squadron's Scimitar jetbikes give a Shrouded
save only when the unit Runs (a conditional wargear save, not applied), and the 3rd-edition "All Comers.rosz",
whose Deredeo Dreadnought's Hellfire plasma cannonade is a Blast read at a Rhino as plain Hit Tests. Each note
must be in the ``--json`` rows (a whole note per list item: the notes themselves hold ``"; "``), the ``--csv``
file, the first screen (or its summary line), ``--all``, the matchup's JSON and text, and the report's footnote.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from praetor_analysis.analysis import analyse_roster, unit_notes
from praetor_analysis.analysis.list_matchup import matchup
from praetor_analysis.cli import main
from praetor_analysis.views.report.roster_tables import notes_html
from praetor_analysis.views.text.notes_text import MAX_NOTE_LINES, note_lines

ROSTERS = Path(__file__).parent / "fixtures" / "rosters"
HH2 = ROSTERS / "hh2" / "Dark Angels - HH2 - Test.ros"
HH3 = ROSTERS / "hh3" / "All Comers.rosz"
HH3_SMALL = ROSTERS / "hh3" / "Small Game.rosz"
JETBIKES, SHROUDED = "Sky-Hunter Squadron", "Scimitar Jetbike: Shrouded (5+)"
CONDITION = "(holds under a condition; not applied)"
DEREDEO, BLAST = "Deredeo Dreadnought", 'Hellfire plasma cannonade: Blast (5")'
WIDTH = 100


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _shrouded(notes: list[str]) -> list[str]:
    return [n for n in notes if n.startswith(SHROUDED)]


@pytest.fixture(scope="module")
def hh2_rows() -> list[dict[str, object]]:
    from praetor_analysis.analysis import rate_roster
    from praetor_analysis.views import json_rows

    return json_rows(rate_roster(HH2))


@pytest.fixture(scope="module")
def hh3_rows() -> list[dict[str, object]]:
    from praetor_analysis.analysis import rate_roster
    from praetor_analysis.views import json_rows

    return json_rows(rate_roster(HH3))


def test_hh2_json_rows_carry_the_conditional_save_whole(hh2_rows) -> None:
    mine = [r for r in hh2_rows if r["unit"] == JETBIKES]
    assert mine
    for r in mine:  # the unit's own note, on each of its rows, whole (its "; " not split)
        assert isinstance(r["not_modelled"], list) and isinstance(r["reasons"], dict)
        (note,) = _shrouded(r["not_modelled"])
        assert note.endswith(CONDITION)
    others = [r for r in hh2_rows if r["unit"] != JETBIKES]
    assert not any(_shrouded(r["not_modelled"]) for r in others)


def test_hh3_json_row_names_the_blast_at_the_rhino_and_why(hh3_rows) -> None:
    at_rhino = [r for r in hh3_rows if r["unit"] == DEREDEO and r["target"] == "Rhino" and r["phase"] == "shooting"]
    assert len(at_rhino) == 1
    row = at_rhino[0]
    assert BLAST in row["not_modelled"]
    assert "Hit Test" in row["reasons"][BLAST]  # read as one Hit Test per point of Firepower
    not_vehicles = [r for r in hh3_rows if r["unit"] == DEREDEO and r["target"] != "Rhino" and r["phase"] == "shooting"]
    assert not_vehicles and not any(BLAST in r["reasons"] and "vehicle" in r["reasons"][BLAST] for r in not_vehicles)


def test_cli_json_and_csv_carry_the_same_notes(tmp_path, capsys, monkeypatch) -> None:
    csv = tmp_path / "r.csv"
    rows = json.loads(_run(["roster", str(HH2), "--json", "--csv", str(csv)], capsys, monkeypatch))
    table = pd.read_csv(csv, keep_default_na=False)
    assert len(table) == len(rows)
    for r, cell in zip(rows, table["not_modelled"], strict=True):  # the CSV: the same notes, joined
        assert cell == "; ".join(r["not_modelled"])
    assert any(SHROUDED in cell for cell in table.loc[table["unit"] == JETBIKES, "not_modelled"])


@pytest.mark.parametrize("edition", ["hh2", "hh3"])
def test_json_row_without_a_result_says_why(edition, hh2_rows, hh3_rows) -> None:
    rows = hh2_rows if edition == "hh2" else hh3_rows
    empty = [r for r in rows if r["mean"] is None]
    assert empty  # both fixtures have a unit with nothing to fight with in some phase (a transport's melee)
    for r in empty:
        assert isinstance(r["error"], str) and r["error"].strip(), r
    assert all(r["error"] == "" for r in rows if r["mean"] is not None)


def test_cli_json_and_csv_carry_the_same_errors(tmp_path, capsys, monkeypatch) -> None:
    csv = tmp_path / "r.csv"
    rows = json.loads(_run(["roster", str(HH3), "--json", "--csv", str(csv)], capsys, monkeypatch))
    table = pd.read_csv(csv, keep_default_na=False)
    assert table["error"].tolist() == [r["error"] for r in rows]
    assert any(r["error"] for r in rows)


def test_hh2_first_screen_lists_each_unit_with_notes(capsys, monkeypatch, hh2_rows) -> None:
    lines = _run(["roster", str(HH2)], capsys, monkeypatch).splitlines()
    notes = unit_notes((r["unit"], r["not_modelled"]) for r in hh2_rows)
    assert 0 < len(notes) <= MAX_NOTE_LINES
    start = lines.index("Not modelled (--all: in full):")
    assert len(lines) - start - 1 == len(notes)  # one line per unit with notes, last on the screen
    for unit, line in zip(notes, lines[start + 1 :], strict=True):
        assert line.startswith(f"  {unit}: ") and len(line) <= WIDTH
    full = _run(["roster", str(HH2), "--all"], capsys, monkeypatch).splitlines()
    tail = " ".join(x.strip() for x in full[full.index(f"Not modelled ({len(notes)} units):") :])
    assert f"{JETBIKES}: " in tail and CONDITION in tail and all(len(x) <= WIDTH for x in full[2:])


def test_hh3_first_screen_says_how_many_and_all_lists_them(capsys, monkeypatch, hh3_rows) -> None:
    lines = _run(["roster", str(HH3)], capsys, monkeypatch).splitlines()
    count = len(unit_notes((r["unit"], r["not_modelled"]) for r in hh3_rows))
    assert count > MAX_NOTE_LINES
    assert lines[-1] == f"{count} units have things not modelled: --all lists them."
    full = _run(["roster", str(HH3), "--all", "--phase", "shooting"], capsys, monkeypatch).splitlines()
    start = full.index(f"Not modelled ({count} units):")
    deredeo = [i for i, x in enumerate(full[start:], start) if x.startswith(f"{DEREDEO}: ")]
    assert len(deredeo) == 1
    folded = [full[deredeo[0]], *[x for x in full[deredeo[0] + 1 :] if x.startswith("    ")]]
    assert BLAST in " ".join(x.strip() for x in folded)
    assert all(len(x) <= WIDTH for x in full[start:])


def test_note_lines_cut_and_summarise() -> None:
    notes = {"A": ["x" * 200], "B": ["short"]}
    lines = note_lines(notes, width=40)
    assert lines[1].endswith("...") and len(lines[1]) == 40 and lines[2] == "  B: short"
    many = {f"U{i}": ["n"] for i in range(MAX_NOTE_LINES + 1)}
    assert note_lines(many, width=80, flag="--table") == [f"{MAX_NOTE_LINES + 1} units have things not modelled: "
                                                          "--table lists them."]  # fmt: skip
    assert note_lines({}, width=80) == []


@pytest.fixture(scope="module")
def hh3_matchup():
    return matchup(HH3, HH3_SMALL)


def test_matchup_json_and_text_name_the_blast(hh3_matchup) -> None:
    doc = json.loads(json.dumps(hh3_matchup.to_dict(), allow_nan=False))
    (mine,) = [u for u in doc["not_modelled"] if u["side"] == "mine" and u["unit"] == DEREDEO]
    assert BLAST in mine["not_modelled"]
    at_rhino = [p for p in doc["pairs"] if p["attacker"] == DEREDEO and p["target"].startswith("Rhino")
                and p["phase"] == "shooting"]  # fmt: skip
    assert at_rhino and all(BLAST in p["notes"] and BLAST in p["not_modelled"] for p in at_rhino)
    full = note_lines(hh3_matchup.unit_notes(), width=WIDTH, full=True, flag="--table")
    assert all(len(x) <= WIDTH for x in full)
    label = f"{DEREDEO} ({hh3_matchup.mine.name})"
    start = next(i for i, x in enumerate(full) if x.startswith(f"{label}: "))
    folded = [full[start], *[x for x in full[start + 1 :] if x.startswith("    ")]]
    assert BLAST in " ".join(x.strip() for x in folded)


def test_roster_and_matchup_name_the_same_notes_of_a_unit(hh3_matchup, hh3_rows) -> None:
    # The Deredeo against the roster's standard targets and against the other list's units: the notes of the
    # unit and its weapons are the same; the matchup adds only notes naming the other list's units, and those of
    # a whole melee round against a unit that strikes back ("target: ...": the standard targets strike one way).
    roster = unit_notes((r["unit"], r["not_modelled"]) for r in hh3_rows)[DEREDEO]
    pairs = hh3_matchup.notes()[("mine", DEREDEO)]
    theirs = {u.label for u in hh3_matchup.theirs.units} | {"target"}
    assert BLAST in roster and BLAST in pairs
    assert {n for n in pairs if n.split(": ", 1)[0] not in theirs} == set(roster)


def test_matchup_cli_text_ends_with_the_notes(tmp_path, capsys, monkeypatch) -> None:
    theirs = tmp_path / "theirs.json"
    theirs.write_text(json.dumps({"name": "Theirs", "units": ["Terminator Tartaros Squad", "Praetor"]}))
    lines = _run(["matchup", str(HH2), str(theirs)], capsys, monkeypatch).splitlines()
    doc = json.loads(_run(["matchup", str(HH2), str(theirs), "--json"], capsys, monkeypatch))
    count = len(doc["not_modelled"])
    assert count > MAX_NOTE_LINES and lines[-1] == f"{count} units have things not modelled: --table lists them."
    (jetbikes,) = [u for u in doc["not_modelled"] if u["unit"] == JETBIKES]
    (shrouded,) = _shrouded(jetbikes["not_modelled"])
    full = _run(["matchup", str(HH2), str(theirs), "--table"], capsys, monkeypatch).splitlines()
    assert all(len(x) <= WIDTH for x in full)
    start = next(i for i, x in enumerate(full) if x.startswith(f"{JETBIKES} ("))
    folded = [full[start], *[x for x in full[start + 1 :] if x.startswith("    ")]]
    assert shrouded in " ".join(x.strip() for x in folded)


def test_roster_and_matchup_json_agree_on_a_2nd_edition_unit(tmp_path, capsys, monkeypatch, hh2_rows) -> None:
    theirs = tmp_path / "theirs.json"
    theirs.write_text(json.dumps({"name": "Theirs", "units": ["Terminator Tartaros Squad"]}))
    doc = json.loads(_run(["matchup", str(HH2), str(theirs), "--json"], capsys, monkeypatch))
    (jetbikes,) = [u for u in doc["not_modelled"] if u["side"] == "mine" and u["unit"] == JETBIKES]
    roster = unit_notes((r["unit"], r["not_modelled"]) for r in hh2_rows)[JETBIKES]
    assert _shrouded(jetbikes["not_modelled"]) == _shrouded(roster) != []


def test_report_footnote_names_the_notes_escaped() -> None:
    analysis = analyse_roster(HH3)
    html = notes_html(analysis)
    assert f"<strong>{DEREDEO}</strong>" in html and "Hellfire plasma cannonade: Blast (5&quot;)" in html
    frame = pd.DataFrame({"unit": ["<b>x</b>", "Whole list"], "notes": [["a < b & c"], ["left out"]]})
    html = notes_html(frame)
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "a &lt; b &amp; c" in html and "<b>" not in html
    assert "left out" not in html  # the whole list's rows are not a unit
    assert notes_html(pd.DataFrame({"unit": ["A"], "notes": [[]]})) == ""
