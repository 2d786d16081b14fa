"""What a screen says about what was not modelled: each unit's notes (``not_modelled``), gathered from its rows.

Nothing is dropped without a word: ``praetor roster`` and ``praetor matchup`` end their first screen with one
line per unit that has notes (cut to the width), or one summary line when those would not fit a screen;
``--all`` lists every note in full.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from praetor_analysis.errors import counted_noun
from praetor_analysis.views.text.fit import wrap

__all__ = ["MAX_NOTE_LINES", "note_lines"]

MAX_NOTE_LINES = 8
"""The most units whose notes the first screen lists a line each; more, and one summary line says so."""

_SEP = "; "


def note_lines(notes: Mapping[str, Sequence[str]], *, width: int, full: bool = False, flag: str = "--all") -> list[str]:
    """The lines naming what was not modelled: a line per unit (``unit: note; note``) cut to ``width``, or one
    summary line when more than :data:`MAX_NOTE_LINES` units have notes; ``full`` lists every note, folded.
    ``flag`` is the command's flag that lists them in full."""
    if not notes:
        return []
    count = len(notes)
    if full:
        out = wrap(f"Not modelled ({counted_noun(count, 'unit')}):", width)
        for unit, items in notes.items():
            out += wrap(f"{unit}: {_SEP.join(items)}", width, indent="    ")
        return out
    if count > MAX_NOTE_LINES:
        return wrap(f"{count} units have things not modelled: {flag} lists them.", width)
    out = [f"Not modelled ({flag}: in full):"]
    for unit, items in notes.items():
        line = f"  {unit}: {_SEP.join(items)}"
        out.append(line if len(line) <= width else line[: max(width - 3, 0)] + "...")
    return out
