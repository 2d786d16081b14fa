"""The project documents itself: no pointer outside the repository, every rule in docs/rules.md.

- README.md, docs/ and praetor_analysis/ (docstrings and comments included) never point to the files
  kept beside the project during development (``../shared``, the rules contract, the scenario contract):
  a user who clones the project alone must find everything in it.
- Every rule name the rules layer declares has an entry (a heading or a bold name) in docs/rules.md.
- Every test docs/rules.md and docs/scenario.md name (``tests/FILE::TEST``) exists.
- Every ``docs/rules.md#anchor`` link in the package and the docs names a heading of docs/rules.md.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from praetor_analysis.rules.catalogue import all_rules

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "rules.md"
SCENARIO_MD = ROOT / "docs" / "scenario.md"
FORBIDDEN = ("../shared", "MECHANICS", "SCENARIO.md")


def _documents() -> list[Path]:
    files = [
        ROOT / "README.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "praetor_analysis").rglob("*.py")),
        *sorted((ROOT / "notebooks").glob("*.ipynb")),  # the gallery of make docs
        *sorted((ROOT / "scripts").glob("*.py")),
    ]
    return [f for f in files if f.is_file()]


def declared_rule_names() -> set[str]:
    """Every rule name the rules layer declares."""
    return {d.name for d in all_rules()}


def _anchor(heading: str) -> str:
    """GitHub's anchor of a Markdown heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _rules_anchors() -> set[str]:
    return {_anchor(m.group(1)) for m in re.finditer(r"^#+\s+(.*)$", RULES_MD.read_text(), re.MULTILINE)}


@pytest.mark.parametrize("path", _documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_pointer_outside_the_repository(path):
    text = path.read_text(encoding="utf-8")
    for word in FORBIDDEN:
        assert word not in text, (
            f"{path.relative_to(ROOT)} mentions {word!r}: point to docs/rules.md or docs/scenario.md"
        )


def test_every_declared_rule_has_an_entry():
    text = RULES_MD.read_text()
    headings = {m.group(1).strip() for m in re.finditer(r"^#{2,4}\s+(.*)$", text, re.MULTILINE)}
    bold = set(re.findall(r"\*\*([^*]+)\*\*", text))
    listed = set(re.findall(r"^(?:[A-Z][^,\n]*)(?:, [^,\n]+)+[.,]?$", text, re.MULTILINE))
    listed_names = {n.strip(" .") for line in listed for n in line.split(",")}
    missing = sorted(n for n in declared_rule_names() if n not in headings | bold | listed_names)
    assert not missing, f"docs/rules.md has no entry for {missing}"


def _named_tests() -> list[str]:
    refs = set()
    for doc in (RULES_MD, SCENARIO_MD):
        refs |= set(re.findall(r"`(tests/[\w/]+\.py::\w+)`", doc.read_text()))
    return sorted(refs)


def test_the_docs_name_tests():
    assert len(_named_tests()) > 50


@pytest.mark.parametrize("ref", _named_tests())
def test_every_named_test_exists(ref):
    file, name = ref.split("::")
    path = ROOT / file
    assert path.is_file(), f"{ref}: no such file"
    tree = ast.parse(path.read_text())
    functions = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert name in functions, f"{ref}: no such test"


def test_links_to_rules_md_name_a_section():
    anchors = _rules_anchors()
    bad = []
    for path in _documents():
        for anchor in re.findall(r"rules\.md#([\w-]+)", path.read_text(encoding="utf-8")):
            if anchor not in anchors:
                bad.append(f"{path.relative_to(ROOT)}: #{anchor}")
        if path == RULES_MD:
            bad += [f"rules.md: #{a}" for a in re.findall(r"\]\(#([\w-]+)\)", path.read_text()) if a not in anchors]
    assert not bad, bad
