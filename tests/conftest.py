"""Shared test fixtures: the reference folder ../shared, the brute-force oracle on sys.path, the ``full_data`` marker.

Every test runs on a clean clone from the files under tests/fixtures. The few marked ``full_data`` read the whole
community BattleScribe data: ../shared when it is beside the project, else the copy the tests ship
(tests/fixtures/community-data.tar.gz, unpacked once into tests/.full-data); they skip only if neither is there. ``@pytest.mark.full_data("hh3/bsdata")`` names the folder of ../shared a test reads (``bsdata``
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

from fixture_files import COMMUNITY_DATA

FULL_DATA_ABSENT = (
    "needs the whole community BattleScribe data: neither ../shared nor tests/fixtures/community-data.tar.gz"
)


def pytest_runtest_setup(item: pytest.Item) -> None:
    marker = item.get_closest_marker("full_data")
    if marker is not None and not (COMMUNITY_DATA / (marker.args[0] if marker.args else "bsdata")).is_dir():
        pytest.skip(FULL_DATA_ABSENT)


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The community data's folder (../shared, or the shipped archive unpacked); tests that need it skip when it
    is absent."""
    if not (COMMUNITY_DATA / "bsdata").is_dir():
        pytest.skip(FULL_DATA_ABSENT)
    return COMMUNITY_DATA


def pytest_collection_finish(session: pytest.Session) -> None:
    """With PRAETOR_TEST_COUNTS=1, print how many tests were collected, and how many are marked slow or
    full_data, as one JSON line (tests/test_readme.py checks the README's counts with it)."""
    if os.environ.get("PRAETOR_TEST_COUNTS"):
        marked = {m: sum(1 for i in session.items if i.get_closest_marker(m)) for m in ("slow", "full_data")}
        print("PRAETOR_TEST_COUNTS", json.dumps({"all": len(session.items), **marked}))
