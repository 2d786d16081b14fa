"""The XML of a roster fixture (a ``.ros``, or the one document of a ``.rosz``), read for the tests' oracles."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

NS = "{http://www.battlescribe.net/schema/rosterSchema}"


def roster_xml(path: Path) -> bytes:
    data = path.read_bytes()
    if data[:2] == b"PK":
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            return z.read(z.namelist()[0])
    return data
