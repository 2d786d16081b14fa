"""The tests run on a clean clone (issue 36 item 6): they read the files of tests/fixtures, each named with its
source in tests/fixtures/README.md, and reach the reference folder beside the project only through
``fixture_files.SHARED``: in the tests marked ``full_data`` (which skip without it), or as an extra check."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from fixture_files import FIXTURES, HH2_ROSTERS

TESTS = Path(__file__).resolve().parent
#: A path built to the reference folder: ``parents[2] / "shared"``, ``Path("../shared")``...
TO_SHARED = re.compile(r"""/ ?["']shared["']|Path\(["'](\.\./)+shared""")


def test_no_test_builds_its_own_path_to_the_reference_folder() -> None:
    readers = [
        p.name
        for p in sorted([*TESTS.glob("*.py"), *TESTS.glob("*/**/*.py")])
        if p.name not in ("fixture_files.py", "test_fixtures.py") and TO_SHARED.search(p.read_text(encoding="utf-8"))
    ]
    assert readers == [], f"use tests/fixtures (or fixture_files.SHARED with @pytest.mark.full_data): {readers}"


def test_every_fixture_is_named_in_the_readme_with_its_source() -> None:
    readme = (FIXTURES / "README.md").read_text(encoding="utf-8")
    for path in sorted(FIXTURES.iterdir()):
        if path.name != "README.md":
            assert f"`{path.name}" in readme, path.name
    rosters = (FIXTURES / "rosters" / "README.md").read_text(encoding="utf-8")
    for path in sorted((FIXTURES / "rosters").glob("*/*")):
        if path.name != "README.md":
            assert f"`{path.parent.name}/{path.name}`" in rosters, path


#: sha256 of the four rosters as the community data snapshot's MANIFEST.md records them (BSData/horus-heresy at
#: 068ff339b5e97c79c44b77522862da7941eb5315 and PrettyScribe's test/ folder; sources in rosters/README.md).
SHA256 = {
    "Basic Marines Validate.test": "0807e15735a049c40ce3e5197afb248bb492fbc5e6bcdcbdd4f525ff6ffd2bfb",
    "Dark Angels - HH2 - Test.ros": "1ec4d8d32fb8ab1acfd8b3584d0329166644cfaf92c3ec36d67140384c1fe06a",
    "Dedicated Transport Squad Costs.test": "73fdf7f3bf0b0083255f6bce679188141bbdea81954ffa043a0563d47c8d8b74",
    "HH2 - Dark Angels.rosz": "1b996737374b1e6253a58d2a33782cda9842b890b870309bbef880d3bdd20165",
}


@pytest.mark.parametrize("path", HH2_ROSTERS, ids=lambda p: p.name)
def test_the_rosters_are_the_data_sets_byte_for_byte(path: Path) -> None:
    """The four 2nd-edition rosters most tests read are the files the tests read before from the data set."""
    assert hashlib.sha256(path.read_bytes()).hexdigest() == SHA256[path.name]
