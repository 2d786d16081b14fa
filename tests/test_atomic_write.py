"""Outputs are never half-written (docs/limits.md#interrupted-writes): a writer interrupted at any point (an
exception, a full disk, a file-size limit, a kill) leaves the previous file whole, or no file, and an error
names the file."""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest

from praetor_analysis.io import OutputError, atomic_write, atomic_write_text, check_output_path

PREVIOUS = "the previous good file\n"


def _leftovers(folder: Path, name: str) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name != name]


def test_a_clean_write_replaces_the_file_and_leaves_nothing_else(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    out.write_text(PREVIOUS, encoding="utf-8")
    os.chmod(out, 0o640)
    atomic_write_text(out, "new")
    assert out.read_text(encoding="utf-8") == "new"
    assert oct(out.stat().st_mode & 0o777) == oct(0o640)  # the target's permissions kept
    assert _leftovers(tmp_path, "report.html") == []


@pytest.mark.parametrize("after_bytes", [0, 1, 5000])
def test_an_exception_mid_write_keeps_the_previous_file(tmp_path: Path, after_bytes: int) -> None:
    out = tmp_path / "table.csv"
    out.write_text(PREVIOUS, encoding="utf-8")
    with pytest.raises(RuntimeError), atomic_write(out, "w") as fh:
        fh.write("x" * after_bytes)
        raise RuntimeError("interrupted")
    assert out.read_text(encoding="utf-8") == PREVIOUS
    assert _leftovers(tmp_path, "table.csv") == []


def test_a_full_disk_keeps_the_previous_file_and_names_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "sweep.parquet"
    out.write_text(PREVIOUS, encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)  # the disk fills when the bytes are flushed
    with pytest.raises(OutputError) as caught:
        atomic_write_text(out, "a new table")
    assert str(out) in str(caught.value) and "No space left" in str(caught.value)
    assert caught.value.filename == str(out)  # named, never ''
    assert out.read_text(encoding="utf-8") == PREVIOUS
    assert _leftovers(tmp_path, "sweep.parquet") == []


def test_no_previous_file_leaves_no_file(tmp_path: Path) -> None:
    out = tmp_path / "new.html"
    with pytest.raises(KeyboardInterrupt), atomic_write(out, "w") as fh:
        fh.write("<html>")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("bad", ["", "folder", "missing/out.html"])
def test_an_unwritable_path_is_refused_before_any_work(tmp_path: Path, bad: str) -> None:
    (tmp_path / "folder").mkdir()
    with pytest.raises(OutputError) as caught:
        check_output_path(tmp_path / bad if bad else "")
    assert caught.value.filename is not None


_FSIZE_WRITER = textwrap.dedent(
    """
    import resource, signal, sys
    import pandas as pd
    from praetor_analysis.analysis.faction_sweep import write_parquet
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing us
    resource.setrlimit(resource.RLIMIT_FSIZE, (20_000, 20_000))
    frame = pd.DataFrame({"datasheet": [f"sheet {i}" for i in range(50_000)], "mean": range(50_000)})
    try:
        write_parquet(frame, sys.argv[1])
    except OSError as exc:
        print(exc.filename, exc.strerror, file=sys.stderr)
        sys.exit(2)
    """
)


def test_a_file_size_limit_keeps_the_previous_parquet(tmp_path: Path) -> None:
    # issue 38: a full disk or a file-size limit left a corrupt Parquet file
    out = tmp_path / "sweep.parquet"
    previous = pd.DataFrame({"datasheet": ["Praetor"], "mean": [1.0]})
    previous.to_parquet(out)
    proc = subprocess.run(
        [sys.executable, "-c", _FSIZE_WRITER, str(out)], capture_output=True, text=True, timeout=120, check=False
    )
    assert proc.returncode == 2, proc.stderr
    assert str(out) in proc.stderr  # the error names the file
    pd.testing.assert_frame_equal(pd.read_parquet(out), previous)
    assert _leftovers(tmp_path, "sweep.parquet") == []


_SLOW_WRITER = textwrap.dedent(
    """
    import signal, sys, time
    from praetor_analysis.io import atomic_write
    # a command started from a shell's background job inherits SIGINT ignored; a user's Ctrl-C reaches a
    # foreground process with Python's own handler, which is what this test is about
    signal.signal(signal.SIGINT, signal.default_int_handler)
    with atomic_write(sys.argv[1], "w") as fh:
        for i in range(600):
            fh.write("partial line %d\\n" % i)
            fh.flush()
            if i == 3:
                print("writing", flush=True)
            time.sleep(0.05)
    """
)


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_a_writer_killed_mid_write_leaves_the_previous_file(tmp_path: Path, sig: int) -> None:
    # issue 38: killing a sweep while it wrote left a 0-byte Parquet and destroyed the previous good one
    out = tmp_path / "report.html"
    out.write_text(PREVIOUS, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(out)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "writing"
    time.sleep(0.1)
    proc.send_signal(sig)
    proc.wait(timeout=60)
    assert proc.returncode != 0
    assert out.read_text(encoding="utf-8") == PREVIOUS
    others = _leftovers(tmp_path, "report.html")
    if sig != signal.SIGINT:  # no handler runs (the library sets none): at most the hidden temporary file stays
        assert all(n.startswith(".report.html.") and n.endswith(".tmp") for n in others)
    else:
        assert others == []


def test_import_checks_its_input_before_making_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # issue 38: `import --out` created its folders before checking its input
    from praetor_analysis.cli import main

    empty = tmp_path / "bsdata"
    empty.mkdir()
    out = tmp_path / "a" / "b" / "data"
    code = main(["import", str(empty), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert not (tmp_path / "a").exists()


def test_every_writer_of_the_package_writes_atomically() -> None:
    # no module writes a file another way (write_text, write_bytes, to_csv/to_parquet onto a path, open "w")
    import re

    package = Path(__file__).resolve().parents[1] / "praetor_analysis"
    pattern = re.compile(r"\.write_(text|bytes)\(|\.to_(csv|parquet)\((?!buf|fh|index)|open\([^)]*['\"][wa]b?['\"]")
    found = [
        f"{p.relative_to(package)}:{n}"
        for p in package.rglob("*.py")
        if p.parent.name != "io"
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line) and "atomic" not in line
    ]
    assert found == [], found


def test_the_next_write_removes_a_killed_writers_temporary_file(tmp_path: Path) -> None:
    # a SIGKILL mid-write leaves ``.NAME.PID.*.tmp``; the next write of the same target removes it (its
    # process is gone) and leaves nothing but the new file
    out = tmp_path / "report.html"
    out.write_text(PREVIOUS, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_WRITER, str(out)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "writing"
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    debris = _leftovers(tmp_path, "report.html")
    assert debris == [f".report.html.{proc.pid}.{debris[0].split('.')[-2]}.tmp"]
    atomic_write_text(out, "new\n")
    assert out.read_text(encoding="utf-8") == "new\n"
    assert _leftovers(tmp_path, "report.html") == []


def test_a_live_writers_and_other_files_are_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    live = tmp_path / f".report.html.{os.getppid()}.abcdefgh.tmp"  # the parent process is alive
    mine = tmp_path / f".report.html.{os.getpid()}.abcdefgh.tmp"  # this process: another thread may be writing
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    gone = int(dead.stdout)
    stale = tmp_path / f".report.html.{gone}.abcdefgh.tmp"
    keep = [
        live,
        mine,
        tmp_path / f".report.html.5.x.{gone}.abcdefgh.tmp",  # a temporary of another target, report.html.5.x
        tmp_path / f".report.html.{gone}.abcdefgh.tmp.bak",
        tmp_path / f".other.html.{gone}.abcdefgh.tmp",
        tmp_path / ".report.html.abcdefgh.tmp",  # no PID: whose it is cannot be told
    ]
    for p in (*keep, stale):
        p.write_text("x", encoding="utf-8")
    try:
        os.kill(gone, 0)
    except ProcessLookupError:
        pass
    else:  # pragma: no cover - the PID was reused at once
        pytest.skip("the finished process's PID was reused")
    atomic_write_text(out, "new\n")
    assert not stale.exists()
    assert all(p.exists() for p in keep)
