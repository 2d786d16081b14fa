"""The `praetor` command line: calc's contract, exit status 2 with one line for bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from praetor_analysis.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "data" / "examples" / "autocannon_vs_legionaries.json"


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "praetor_analysis.cli", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_calc_example_file():
    p = run(["calc", str(EXAMPLE)])
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    for key in ("hits", "wounds", "unsaved", "casualties"):
        assert abs(sum(r[key]["pmf"]) - 1) < 1e-12
    assert r["applied"] == ["Heavy 2", "Rending (6+)", "target: Feel No Pain (6+)"]
    assert r["not_modelled"] == []


def test_calc_array_and_stdin():
    one = json.loads(EXAMPLE.read_text())
    p = run(["calc", "-"], json.dumps([one, one]))
    assert p.returncode == 0 and len(json.loads(p.stdout)) == 2


@pytest.mark.parametrize(
    "payload, field",
    [
        ("{not json", "invalid JSON"),
        ('{"weapon": {"Type": "Heavy 2, Rending (9+)", "Strength": "4"}, "target": {"T": 4, "W": 1}}', "Rending (9+)"),
        ('{"weapon": {"Type": "Heavy 2", "Strength": "4"}, "attacks": -3, "target": {"T": 4, "W": 1}}', "attacks"),
        ('{"weapon": {"Type": "Heavy 2", "Strength": "4"}, "target": {"T": 4, "W": 1, "Colour": 1}}', "target.Colour"),
        ('{"weapon": {"Type": "Heavy 2", "Strength": "4", "AP": "7"}, "target": {"T": 4, "W": 1}}', "weapon.AP"),
        (
            '{"attacker": {"BS": 0}, "weapon": {"Type": "Heavy 2", "Strength": "4"}, "target": {"T": 4, "W": 1}}',
            "attacker.BS",
        ),
        ('{"weapon": {"Type": "Heavy 2", "Strength": "4"}, "target": {"T": 4, "W": 1, "models": -1}}', "target.models"),
        (
            '[{"attacker": {"BS": 4}, "weapon": {"Type": "Heavy 2", "Strength": "4"}, "target": {"T": 4, "W": 1}}, {"weapon": {"Type": "Heavy D7"}, "target": {"T": 4, "W": 1}}]',
            "[1] weapon.Type",
        ),
    ],
)
def test_bad_input_exit_2_one_line(payload, field):
    p = run(["calc", "-"], payload)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and field in lines[0] and "Traceback" not in p.stderr


def test_missing_file_exit_2(capsys):
    assert main(["calc", "/nonexistent/x.json"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_a_pipe_or_a_directory_is_refused_naming_what_it_is(tmp_path, capsys):
    # a pipe without a writer would block for ever (untrusted input: refused at once); "-" reads a pipe
    import os

    fifo = tmp_path / "scenario.fifo"
    os.mkfifo(fifo)
    assert main(["calc", str(fifo)]) == 2
    assert "is not a regular file (give - to read standard input)" in capsys.readouterr().err
    assert main(["calc", str(tmp_path)]) == 2
    assert "is a directory, not a scenario file" in capsys.readouterr().err


def test_unknown_rule_reported_not_modelled(capsys):
    payload = {
        "attacker": {"BS": 4},
        "weapon": {"Type": "Heavy 2, Frobnicate", "Strength": "4"},
        "target": {"T": 4, "W": 1},
    }
    p = run(["calc", "-"], json.dumps(payload))
    assert p.returncode == 0 and json.loads(p.stdout)["not_modelled"] == ["Frobnicate"]


def test_engine_does_not_import_plotting():
    code = "import sys, praetor_analysis, praetor_analysis.scenario.calc; print(any(m.split('.')[0] in ('plotly','ipywidgets') for m in sys.modules))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.stdout.strip() == "False"


def test_report_says_the_file_it_wrote_and_its_size(tmp_path, capsys):
    # `praetor report -o FILE` printed nothing on success; it says what it wrote, as `praetor sweep` does
    out = tmp_path / "o.html"
    assert main(["report", "--weapons", "Lascannon", "--targets", "Rhino", "-o", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    size = out.stat().st_size
    assert lines == [f"{out}: {size / 1e6:.1f} MB written"] and size >= 1_000_000  # plotly.js is in the page
    assert main(["report", "--weapons", "Lascannon", "--targets", "Rhino", "-o", "-"]) == 0
    assert capsys.readouterr().out.rstrip().endswith("</html>")  # the page alone on standard output


@pytest.mark.parametrize(("n", "shown"), [(80, "80 bytes"), (999, "999 bytes"), (1_000, "1 kB"), (312_400, "312 kB"),
                                          (999_499, "999 kB"), (999_500, "1.0 MB"), (1_000_000, "1.0 MB"), (4_712_345, "4.7 MB")])  # fmt: skip
def test_file_sizes_read_as_a_reader_says_them(n, shown):
    from praetor_analysis.views.text import file_size

    assert file_size(n) == shown
