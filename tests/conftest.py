"""Shared test fixtures: the reference folder ../shared, the brute-force oracle on sys.path, the ``full_data`` marker.

Every test runs on a clean clone from the files under tests/fixtures, except the few marked ``full_data``: they
read the whole community BattleScribe data (which the project does not ship) and skip, all for one reason,
without it. ``@pytest.mark.full_data("hh3/bsdata")`` names the folder of ../shared a test reads (``bsdata``
by default).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))

from fixture_files import SHARED

FULL_DATA_ABSENT = "needs the whole community BattleScribe data, which is not shipped (fixtures cover the rest)"


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("full_data")
    if marker is not None and not (SHARED / (marker.args[0] if marker.args else "bsdata")).is_dir():
        pytest.skip(FULL_DATA_ABSENT)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The project's reference folder (../shared); tests that need it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip(FULL_DATA_ABSENT)
    return SHARED


def pytest_collection_finish(session: pytest.Session) -> None:
    """With PRAETOR_TEST_COUNTS=1, print how many tests were collected, and how many are marked slow or
    full_data, as one JSON line (tests/test_readme.py checks the README's counts with it)."""
    if os.environ.get("PRAETOR_TEST_COUNTS"):
        marked = {m: sum(1 for i in session.items if i.get_closest_marker(m)) for m in ("slow", "full_data")}
        print("PRAETOR_TEST_COUNTS", json.dumps({"all": len(session.items), **marked}))
