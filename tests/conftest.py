"""Shared test fixtures: the reference folder ../shared and the brute-force oracle on sys.path."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
sys.path.insert(0, str(TESTS))

SHARED = TESTS.parents[1] / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The project's reference folder (../shared); tests that need it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED
