"""The last line of a command that wrote files: what it wrote, and how much."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from praetor_analysis.analysis import SweepReport

__all__ = ["file_size", "sweep_line", "written_line"]


def file_size(n: int) -> str:
    """A file's size for a reader: ``4.7 MB``, ``312 kB`` or ``80 bytes`` (decimal units)."""
    if n >= 999_500:  # what rounds to 1000 kB is 1.0 MB
        return f"{n / 1e6:.1f} MB"
    return f"{n / 1e3:.0f} kB" if n >= 1_000 else f"{n} bytes"


def written_line(path: str | Path) -> str:
    """``report.html: 4.7 MB written``: the file a command wrote and its size."""
    return f"{path}: {file_size(Path(path).stat().st_size)} written"


def sweep_line(folder: str | Path, report: SweepReport, failures: str) -> str:
    """What a run of ``praetor sweep`` did: the parts kept, written and failed (``failures``: the file naming
    them) and the rows; with every part already written, how many and the dataset's rows."""
    n = report.parts
    if n and report.kept == n:  # nothing to do: say what is there
        head = f"{folder}: all {n} part{'s' if n != 1 else ''} already written; {report.dataset_rows} rows"
    else:
        head = (
            f"{folder}: {n} parts ({report.kept} kept from an earlier run, {report.written} written, "
            f"{report.rows} rows)" + (f"; {report.dataset_rows} rows in all" if report.kept else "")
        )
    return (
        head
        + (f"; {report.removed} parts for other inputs removed" if report.removed else "")
        + (f"; {report.failed} failed: see {failures}" if report.failed else "")
    )
