"""The package ships its type marker and the lint target covers the typed layers."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_py_typed_is_shipped():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert (ROOT / "praetor_analysis" / "py.typed").is_file()
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["praetor_analysis"]


def test_mypy_checks_the_typed_layers_strictly():
    """mypy checks the whole package, every function annotated (issue 22, item 4: strict on every layer)."""
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert mypy["files"] == ["praetor_analysis"]
    strict = [o for o in mypy["overrides"] if o.get("disallow_untyped_defs")]
    assert {m for o in strict for m in o["module"]} >= {"praetor_analysis.*"}
    assert all(o.get("disallow_incomplete_defs") for o in strict)
    assert "plugins" not in mypy  # numpy ships its own annotations


def test_ci_lints_before_testing():
    run = (ROOT / ".ci" / "run").read_text(encoding="utf-8").split()
    assert run.index("lint") < run.index("test")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "lint: $(STAMP)" in makefile


def test_every_subpackage_is_shipped():
    """A wheel holds only the packages pyproject lists: every folder of the package with an ``__init__`` is listed."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    package = ROOT / "praetor_analysis"
    found = {
        ".".join(("praetor_analysis", *init.parent.relative_to(package).parts)) for init in package.rglob("__init__.py")
    }
    assert found - listed == set(), "add these to [tool.setuptools] packages in pyproject.toml"
