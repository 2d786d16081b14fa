"""The data files the tests read, all shipped under tests/fixtures (each folder's README names the sources).

The 2nd edition's four public rosters most tests read: two New Recruit exports of BSData/horus-heresy's tests/ and
two PrettyScribe rosters (the folder's two other rosters are read by test_roster_fixtures and test_roster_whole).
"""

from __future__ import annotations

import os
import tarfile
import tempfile
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HH2 = FIXTURES / "rosters" / "hh2"
HH3 = FIXTURES / "rosters" / "hh3"
#: The Dark Angels list the README quotes (2795 points) and the list it is matched against (2638 points).
DA_LIST = HH2 / "HH2 - Dark Angels.rosz"
DA_TEST = HH2 / "Dark Angels - HH2 - Test.ros"
BASIC_MARINES = HH2 / "Basic Marines Validate.test"
TRANSPORT_COSTS = HH2 / "Dedicated Transport Squad Costs.test"
#: The four 2nd-edition rosters, in name order (the order the tests used to list them in).
HH2_ROSTERS = tuple(sorted((BASIC_MARINES, DA_TEST, TRANSPORT_COSTS, DA_LIST)))
#: The project's reference folder (the community data whole, the rules texts), when it sits beside the project.
SHARED = FIXTURES.parents[2] / "shared"
#: The community BattleScribe data the ``full_data`` tests read (both editions' catalogues, as ../shared holds
#: them): ../shared when it is beside the project, else tests/fixtures/community-data.tar.gz unpacked once into
#: tests/.full-data (git ignores it; see tests/fixtures/README.md for the sources).
DATA_ARCHIVE = FIXTURES / "community-data.tar.gz"


def _community_data() -> Path:
    if (SHARED / "bsdata").is_dir():
        return SHARED
    root = FIXTURES.parent / ".full-data"
    if not (root / "bsdata").is_dir() and DATA_ARCHIVE.is_file():
        staging = Path(tempfile.mkdtemp(prefix=".full-data-", dir=FIXTURES.parent))
        with tarfile.open(DATA_ARCHIVE) as archive:
            archive.extractall(staging, filter="data")
        try:
            os.rename(staging, root)  # whole or not at all: a parallel worker may have won the race
        except OSError:
            import shutil

            shutil.rmtree(staging, ignore_errors=True)
    return root


COMMUNITY_DATA = _community_data()
