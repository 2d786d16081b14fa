"""A command imports what it needs when it needs it (issue 36 item 5; the figures are in bench/README.md).

`praetor --help` and a one-scenario `praetor calc` must not load pandas, plotly, ipywidgets, scipy.spatial,
scipy.sparse or scipy.special: those cost 0.7 s of CPU before the command did anything. Each check runs the
command in a fresh interpreter and reads its ``sys.modules`` at exit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("pandas", "plotly", "ipywidgets", "scipy.spatial", "scipy.sparse", "scipy.special")

#: Run main(), then print the heavy modules it loaded on standard error (after the command's own output).
PROBE = (
    "import sys\n"
    "from praetor_analysis.cli import main\n"
    "try:\n"
    "    code = main(sys.argv[1:])\n"
    "except SystemExit as exc:\n"
    "    code = exc.code\n"
    "heavy = sorted(m for m in {heavy!r} if m in sys.modules)\n"
    "sys.stderr.write('HEAVY=' + ','.join(heavy) + '\\n')\n"
    "sys.exit(code)\n"
)


def _loaded(*argv: str) -> tuple[int, str, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), *argv], capture_output=True, text=True, check=False
    )
    line = [x for x in proc.stderr.splitlines() if x.startswith("HEAVY=")]
    assert line, proc.stderr
    heavy = [m for m in line[-1].removeprefix("HEAVY=").split(",") if m]
    return proc.returncode, proc.stdout, heavy


def test_help_loads_nothing_heavy() -> None:
    code, out, heavy = _loaded("--help")
    assert code == 0 and "calc" in out
    assert heavy == []


@pytest.mark.parametrize(
    ("scenario", "allowed"),
    [
        (
            {
                "attacker": {"BS": 4},
                "weapon": {"Strength": 9, "AP": 2, "Type": "Heavy 1, Lance"},
                "target": {"models": 5, "T": 4, "W": 1, "Save": "2+"},
            },
            [],
        ),
        # catalog names read the shipped CSVs through pandas, and nothing else heavy
        ({"attacker": {"BS": 4}, "weapon": "Lascannon", "target": "Rhino"}, ["pandas"]),
    ],
    ids=["profiles", "catalog-names"],
)
def test_one_scenario_calc_loads_nothing_heavy(tmp_path: Path, scenario: dict[str, object], allowed: list[str]) -> None:
    path = tmp_path / "one.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    code, out, heavy = _loaded("calc", str(path))
    assert code == 0, out
    result = json.loads(out)
    assert result  # an answer was computed, not an error
    assert heavy == allowed
