"""Tables as files a spreadsheet or pandas opens: ``--csv FILE`` and ``--parquet FILE`` of every command.

The file holds the same rows and columns as the command's ``--json`` (and the whole frame where the JSON
keeps fewer keys): numbers unrounded, text as it is. Each file is written whole or not at all.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from praetor_analysis.errors import PraetorError
from praetor_analysis.io import atomic_write_bytes

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["FileRequest", "check_table_path", "table_bytes", "write_table"]

FileRequest = tuple[str, str]
"""(kind, path): ``("csv", "out.csv")`` or ``("parquet", "out.parquet")``."""


def check_table_path(flag: str, path: str) -> None:
    """Refuse, before the work, a file that cannot be written (a folder, a missing folder).

    Raises:
        PraetorError: naming the flag and the path.
    """
    out = Path(path)
    if out.is_dir():
        raise PraetorError(f"{flag}: {path!r} is a folder, not a file", field=flag, value=path)
    if not out.parent.is_dir():
        raise PraetorError(f"{flag}: no such folder: {str(out.parent)!r}", field=flag, value=path)


def table_bytes(frame: pd.DataFrame, kind: str) -> bytes:
    """``frame`` as CSV (UTF-8, a header row, no index) or Parquet bytes."""
    if kind == "csv":
        return frame.to_csv(index=False).encode("utf-8")
    if kind == "parquet":
        buf = io.BytesIO()
        frame.to_parquet(buf, engine="pyarrow", index=False)
        return buf.getvalue()
    raise ValueError(f"unknown table file kind {kind!r}")


def write_table(frame: pd.DataFrame, path: str, kind: str) -> None:
    """Write ``frame`` to ``path`` (``kind`` csv or parquet), whole or not at all (``io.atomic_write_bytes``)."""
    atomic_write_bytes(path, table_bytes(frame, kind))
