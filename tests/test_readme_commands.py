"""Every `praetor ...` command of the README's shell blocks runs, on shipped data or the fixtures (issue 36 item 7).

The README's placeholders are filled in with small inputs: LIST.rosz, MINE.rosz and THEIRS.rosz with the
rosters of tests/fixtures/rosters/hh2 (sources in its README), SCENARIO.json with the README's own first JSON
example, DATASHEET/NAME with the README's own wargear example, every file written into a temporary folder.
Two are left to their own tests: `praetor sweep` (a faction takes minutes: tests/test_faction_sweep.py runs the
command on one datasheet) and `praetor import` (it needs BSData's whole catalogue, which is not shipped:
tests/test_bsdata.py and tests/test_fuzz_bounds.py run the importer on the fixtures); test_readme.py checks that
their options exist. The claims that can be checked are checked against the
output: the roster's points line and labels, the first screens' width and units.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from praetor_analysis.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
HH2 = ROOT / "tests" / "fixtures" / "rosters" / "hh2"
LIST = HH2 / "HH2 - Dark Angels.rosz"
THEIRS = HH2 / "Dark Angels - HH2 - Test.ros"


def readme_commands() -> list[str]:
    """The `praetor` command lines of the README's ``sh`` blocks (comments cut), in order."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", README, re.DOTALL):
        for line in block.splitlines():
            line = line.strip()
            if line.startswith("praetor "):
                out.append(line.split("  #", 1)[0].split(" # ", 1)[0].strip())
    return out


COMMANDS = readme_commands()
SLOW = ("praetor report", "praetor matchup")
ELSEWHERE = ("praetor sweep", "praetor import")


def _argv(line: str, tmp: Path) -> list[str]:
    scenario = tmp / "scenario.json"
    first = next(b for b in re.findall(r"```json\n(.*?)```", README, re.DOTALL) if b.strip().startswith("{"))
    scenario.write_text(first, encoding="utf-8")
    words = shlex.split(line)[1:]
    fill = {
        "SCENARIO.json": str(scenario),
        "LIST.rosz": str(LIST),
        "MINE.rosz": str(LIST),
        "THEIRS.rosz": str(THEIRS),
        "DATASHEET": "Heavy Support Squad",
        "NAME": "Rhino",
    }
    argv = [fill.get(w, w) for w in words]
    for i, w in enumerate(argv):
        if w.endswith((".html", ".parquet", ".csv")) and i and argv[i - 1] in ("-o", "--output", "--report", "--out"):
            argv[i] = str(tmp / Path(w).name)
    return argv


def test_the_readme_shows_the_commands() -> None:
    subs = {shlex.split(c)[1] for c in COMMANDS}
    assert {"calc", "report", "roster", "matchup", "wargear", "sweep", "import"} <= subs


@pytest.mark.parametrize(
    "line",
    [
        pytest.param(c, marks=pytest.mark.slow) if c.startswith(SLOW) else c
        for c in COMMANDS
        if not c.startswith(ELSEWHERE)
    ],
)
def test_every_readme_command_runs(line: str, tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    code = main(_argv(line, tmp_path))
    out, err = capsys.readouterr()
    assert code == 0, f"{line}: {err}"
    if "--json" in line:
        json.loads(out)
    elif line.startswith(("praetor roster", "praetor wargear", "praetor matchup")):
        # the first screens fit the terminal; the points account is one line, whole, by design (issue 33)
        assert all(len(x) <= 100 for x in out.splitlines() if " points declared = " not in x), line


def test_the_roster_claims_hold(capsys, monkeypatch) -> None:
    """The points line the README quotes, and the labels it names, are what `praetor roster` prints."""
    monkeypatch.setenv("COLUMNS", "100")
    quoted = re.search(r"`(Dark Angels: [\d,]+ points declared = [^`]+)`", README)
    assert quoted is not None
    assert main(["roster", str(LIST)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == quoted.group(1)
    for label in ("Tactical Squad (1)", "Tactical Squad (2)"):
        assert label in README and re.search(rf"^{re.escape(label)}\s", out, re.M), label


def test_the_3rd_edition_targets_the_readme_names_are_target_names() -> None:
    """The README names the 3rd edition's standard targets as `--target` takes them: each name given resolves,
    and every standard target is named."""
    from praetor_analysis.analysis.unit_ratings import hh3_standard_targets, hh3_targets_named

    text = " ".join(README.split())
    sentence = text.split("named as `--target` takes them (", 1)[1].split(": `load_targets", 1)[0]
    names = re.findall(r"`([^`]+)`", sentence)
    assert len(names) == len(hh3_standard_targets()) == 7
    labels = [hh3_targets_named(name)[0][0] for name in names]
    assert sorted(labels) == sorted(label for label, _ in hh3_standard_targets())
