"""How a roster file was read (its game system recognised by name under another id), said on standard error."""

from __future__ import annotations

import sys
from pathlib import Path


def print_notes(command: str, notes: tuple[str, ...]) -> None:
    """Print each note of reading a roster as ``praetor COMMAND: note: ...`` on standard error."""
    for note in notes:
        print(f"praetor {command}: note: {note}", file=sys.stderr)


def print_roster_notes(command: str, *paths: str) -> None:
    """Print the notes of reading roster files (not .json lists of datasheets): every command that reads a roster
    says what ``praetor roster`` says. A file refused is refused here, in one line (no note before it), as the
    command would."""
    from praetor_analysis.bsdata import read_roster

    notes = [note for path in paths if Path(path).suffix.lower() != ".json" for note in read_roster(path).notes]
    print_notes(command, tuple(notes))
