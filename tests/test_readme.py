"""The README says what is true today: its commands exist and run, its examples compute, and a rule it calls
"not modelled" is one the engine lists so.

- every ``make TARGET`` it names is a target of the Makefile, every ``praetor SUB`` a subcommand of the CLI
  (with the options it shows), and the ``praetor calc`` examples (the JSON block, the ``echo ... |`` pipe) run;
- every declared rule named in a README sentence that says "not modelled" is declared not modelled, and a
  scenario with that rule lists it under ``not_modelled``;
- the pinned figures it quotes (Preferred Enemy's 490/324) are the engine's;
- the test counts it and the Makefile's help give are pytest's (a lower bound, and not stale by a fifth).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from praetor_analysis.cli import build_parser
from praetor_analysis.rules.catalogue import all_rules
from praetor_analysis.scenario.calc import calc

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
MAKEFILE = (ROOT / "Makefile").read_text(encoding="utf-8")


def _code_blocks(lang: str = "") -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, re.DOTALL)


def _inline_and_blocks() -> str:
    return "\n".join([*re.findall(r"`([^`\n]+)`", README), *_code_blocks("sh")])


def test_every_make_target_named_exists():
    targets = set(re.findall(r"^([\w.-]+):", MAKEFILE, re.MULTILINE))
    commands = _inline_and_blocks()  # commands, not prose ("make one...")
    named = set(re.findall(r"(?:^|`|\s)make ([a-z][\w-]*)", commands, re.MULTILINE))
    assert named and named <= targets, f"README names make targets the Makefile lacks: {named - targets}"


def _subparsers():
    parser = build_parser()
    action = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return action.choices


def test_every_praetor_command_named_exists_with_its_options():
    subs = _subparsers()
    seen = 0
    for line in _inline_and_blocks().splitlines():
        for m in re.finditer(r"\bpraetor ([a-z]+)((?: [^|#`]*)?)", line):
            sub, rest = m.group(1), m.group(2)
            if sub not in subs:
                continue  # prose: "praetor analysis"...
            seen += 1
            options = {o for a in subs[sub]._actions for o in a.option_strings}
            for word in re.findall(r"(?<![\w-])(--?[a-z][\w-]*)", rest):
                assert word in options, f"README: praetor {sub} has no option {word}"
    assert seen >= 8
    assert {"calc", "report", "roster", "import"} <= {
        m.group(1) for m in re.finditer(r"\bpraetor ([a-z]+)", README) if m.group(1) in subs
    }


def test_the_json_examples_compute():
    blocks = [b for b in _code_blocks("json") if b.strip().startswith("{")]
    assert blocks
    for block in blocks:
        result = calc(json.loads(block))
        for key in ("hits", "wounds", "unsaved", "casualties"):
            assert abs(sum(result[key]["pmf"]) - 1.0) < 1e-9


def test_the_piped_calc_example_runs():
    pipes = re.findall(r"echo '(.*?)' \| praetor calc -", README, re.DOTALL)
    assert pipes
    for text in pipes:
        result = calc(json.loads(text))
        assert result["phase"] in ("shooting", "melee") and result["casualties"]["mean"] >= 0


def _sentences() -> list[str]:
    prose = re.sub(r"```.*?```", "", README, flags=re.DOTALL)
    return [s for s in re.split(r"(?<=[.;:])\s+", " ".join(prose.split())) if "not modelled" in s.lower()]


def test_rules_said_not_modelled_are_not_modelled():
    declared = {d.name: d for d in all_rules()}
    for sentence in _sentences():
        for name, decl in declared.items():
            if len(name) > 4 and re.search(rf"\b{re.escape(name)}\b", sentence):
                assert not decl.modelled, f"README says {name!r} is not modelled; the engine models it: {sentence}"


def test_preferred_enemy_is_modelled_as_the_readme_says():
    decl = next(d for d in all_rules() if d.name == "Preferred Enemy")
    assert decl.modelled
    assert "490/324 = 1.512" in README
    scenario = {
        "attacker": {"BS": 4, "models": 10, "rules": ["Preferred Enemy (Infantry)"]},
        "weapon": {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"},
        "target": {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Save": "3+", "Unit Type": "Infantry"},
    }
    result = calc(scenario)
    # 10 shots; hits 2/3 + 1/6 x 2/3 = 7/9, wounds 1/2 + 1/6 x 1/2 = 7/12, unsaved 1/3: 490/324 (by hand)
    assert result["unsaved"]["mean"] == pytest.approx(490 / 324, abs=1e-12)
    assert any(r.startswith("attacker: Preferred Enemy") for r in result["applied"])
    assert not result["not_modelled"]


@pytest.mark.parametrize("command", ["make dashboard"])
def test_the_dashboard_command_is_the_makefiles(command):
    recipe = MAKEFILE.split("\ndashboard:", 1)[1].split("\n\n", 1)[0]
    for word in ("--template=praetor", "JUPYTER_PATH=", "--preheat_kernel=True"):
        assert word in recipe and word.split("=")[0] in README
    assert (ROOT / "share" / "jupyter" / "voila" / "templates" / "praetor" / "index.html.j2").is_file()


def _collected() -> dict[str, int]:
    """How many tests pytest collects, and how many are marked slow or full_data (tests/conftest.py prints it)."""
    p = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-qq", "-p", "no:cacheprovider", "tests"],
        capture_output=True, text=True, cwd=ROOT, timeout=900, check=False,
        env={**os.environ, "PRAETOR_TEST_COUNTS": "1"},
    )  # fmt: skip
    line = next((x for x in p.stdout.splitlines() if x.startswith("PRAETOR_TEST_COUNTS ")), None)
    assert line is not None, p.stdout[-2000:] + p.stderr[-2000:]
    counts: dict[str, int] = json.loads(line.split(" ", 1)[1])
    return counts


def _number(text: str) -> int:
    return int(text.replace(",", ""))


@pytest.mark.slow
def test_the_test_counts_are_pytests():
    """README: "over N tests in about M minutes", for `make test-fast` and then `make test`, and how many tests
    need the whole data; the Makefile's help says the same counts. Each "over N" is at most the count and
    within a fifth of it (a README a few hundred tests behind is stale)."""
    counts = _collected()
    fast, whole = counts["all"] - counts["slow"], counts["all"]
    claims = [_number(n) for n in re.findall(r"over\s+([\d,]+)\s+tests\s+in\s+about\s+[\d.]+\s+minutes", README)]
    assert len(claims) == 2, claims
    for claim, actual in zip(claims, (fast, whole), strict=True):
        assert claim <= actual < 1.2 * claim, (claims, fast, whole)
    helps = [_number(n) for n in re.findall(r"^## test(?:-fast)?: .*?over ([\d,]+) tests", MAKEFILE, re.M)]
    assert sorted(helps) == sorted(claims), (helps, claims)
    full = re.search(r"the\s+([\d,]+)\s+of\s+them\s+marked\s+`full_data`", README)
    assert full is not None and _number(full.group(1)) == counts["full_data"], counts


def test_the_pictures_are_the_ones_make_screenshots_takes():
    """Every picture the README shows is in docs/images, a PNG at the 1280 px width scripts/screenshots.py shoots
    at, one the script writes; and the script writes no picture the README does not show."""
    shown = re.findall(r"!\[[^\]]*\]\((docs/images/[\w.-]+\.png)\)", README)
    script = (ROOT / "scripts" / "screenshots.py").read_text(encoding="utf-8")
    written = set(re.findall(r'"(\w+\.png)"', script))
    assert len(shown) == len(set(shown)) >= 9 and {Path(p).name for p in shown} == written, (shown, written)
    for path in shown:
        head = (ROOT / path).read_bytes()[:24]
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == 1280, path
