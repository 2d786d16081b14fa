"""Write a file whole or not at all (docs/limits.md#interrupted-writes).

Every file the package writes (reports, Parquet, CSV, saved setups, the importer's catalog) goes through
:func:`atomic_write`: the bytes go to a temporary file in the target's own folder, are flushed to the disk
(``fsync``) and renamed over the target (``os.replace``, atomic on one file system). An interrupted write
(a kill, a full disk, a file-size limit, an exception) leaves the previous file as it was, or no file, and
removes its temporary file when it can (a process killed outright leaves one ``.NAME.PID.*.tmp`` beside the
target, never a half-written target; the next write of the same target removes the temporary files of writers
whose process ``PID`` is gone, and leaves a live writer's alone). A FIFO, a device or a folder at the target is
refused before any work, naming the file.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

__all__ = [
    "OutputError",
    "atomic_write",
    "atomic_write_bytes",
    "atomic_write_text",
    "atomic_write_with",
    "check_output_path",
    "remove_stale_temporaries",
]


class OutputError(OSError):
    """A file that cannot be written, with the file named (``filename``) and the reason."""

    def __init__(self, path: str | os.PathLike[str], reason: str) -> None:
        super().__init__(f"cannot write {str(path)!r}: {reason}")
        self.filename = str(path)
        self.strerror = reason

    def __str__(self) -> str:
        return f"{self.strerror}: {self.filename!r}"  # OSError's own would begin '[Errno None]'


def check_output_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as a :class:`Path` if a regular file may be written there (it need not exist).

    Raises:
        OutputError: the path is a folder, a pipe or a device, or its folder does not exist.
    """
    out = Path(path)
    if str(path) == "":
        raise OutputError(path, "no file name given")
    try:
        mode = out.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(path, "it is a folder, not a file")
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(path, "it is not a regular file (a pipe or a device); write to a file")
    if not out.parent.is_dir():
        raise OutputError(path, f"no such folder: {str(out.parent)!r}")
    return out


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], mode: str = "wb") -> Iterator[IO[Any]]:
    """Open a temporary file beside ``path`` for writing; on a clean exit it replaces ``path``.

    ``mode`` is ``"wb"`` or ``"w"`` (UTF-8 text, ``\\n`` line ends). On any exception (or a signal that
    raises one) the temporary file is removed and ``path`` is untouched. File-system errors are raised as
    :class:`OutputError` naming ``path``.
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode: expected 'wb' or 'w', got {mode!r}")
    out = check_output_path(path)
    remove_stale_temporaries(out)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f"{_temporary_prefix(out)}{os.getpid()}.", suffix=".tmp", dir=out.parent)
    except OSError as exc:
        raise OutputError(path, exc.strerror or str(exc)) from None
    try:
        fh: IO[Any] = os.fdopen(fd, "wb") if mode == "wb" else os.fdopen(fd, "w", encoding="utf-8", newline="\n")
        with fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        with contextlib.suppress(OSError):  # keep the target's permissions, else the usual ones
            os.chmod(tmp, stat.S_IMODE(out.stat().st_mode) if out.exists() else 0o666 & ~_umask())
        os.replace(tmp, out)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(path, exc.strerror or str(exc)) from None
        raise


_TEMPORARY = re.compile(r"(\d+)\.[a-z0-9_]{8}\.tmp")
"""What follows ``.NAME.`` in a temporary file's name: the writer's PID and :func:`tempfile.mkstemp`'s 8 characters
(a dot-free tail, so another target whose name begins with NAME never matches)."""


def _temporary_prefix(out: Path) -> str:
    return f".{out.name}."


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (one of another user's counts: it may still be writing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists
        return True
    return True


def remove_stale_temporaries(out: Path) -> list[str]:
    """Remove the temporary files a killed writer of ``out`` left beside it (``.NAME.PID.*.tmp`` whose process
    ``PID`` is gone); returns their names. A live process's file (this one's too: another thread may be
    writing) and any other file are left alone; a file that cannot be removed is left without a word."""
    prefix, removed = _temporary_prefix(out), list[str]()
    try:
        names = os.listdir(out.parent)
    except OSError:
        return removed
    for name in names:
        if not name.startswith(prefix):
            continue
        match = _TEMPORARY.fullmatch(name[len(prefix) :])
        if match is None or int(match[1]) == os.getpid() or _alive(int(match[1])):
            continue
        with contextlib.suppress(OSError):
            os.unlink(out.parent / name)
            removed.append(name)
    return removed


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` whole or not at all; returns the path."""
    with atomic_write(path, "wb") as fh:
        fh.write(data)
    return Path(path)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all; returns the path."""
    with atomic_write(path, "w") as fh:
        fh.write(text)
    return Path(path)


def atomic_write_with(path: str | os.PathLike[str], writer: Callable[[IO[bytes]], object]) -> Path:
    """Let ``writer`` write into an open binary file that replaces ``path`` once it returns."""
    with atomic_write(path, "wb") as fh:
        writer(fh)
    return Path(path)
