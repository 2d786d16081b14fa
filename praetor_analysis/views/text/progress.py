"""Progress of long work on standard error, when it is a terminal (and nothing when it is not)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress"]


class Progress:
    """One line rewritten in place: ``matchup: pairs 12/120, 3 s``; :meth:`close` clears it.

    Quiet unless ``stream`` (standard error by default) is a terminal: a log or a pipe gets no carriage returns.
    """

    def __init__(self, what: str, stream: TextIO | None = None, *, force: bool = False) -> None:
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.on = force or (hasattr(self.stream, "isatty") and self.stream.isatty())
        self.started = time.monotonic()
        self.shown = 0

    def __call__(self, stage: str, done: int, total: int) -> None:
        if not self.on:
            return
        text = f"\r{self.what}: {stage} {done}/{total}, {time.monotonic() - self.started:.0f} s"
        self.stream.write(text.ljust(self.shown))
        self.stream.flush()
        self.shown = len(text)

    def close(self) -> None:
        """Clear the line (the answer follows on standard output)."""
        if self.on and self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0
