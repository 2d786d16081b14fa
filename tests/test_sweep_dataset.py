"""praetor sweep as a Parquet dataset (issue 37 item 7, issue 36 items 3-4): one part per datasheet keyed by a
token of its inputs, resumed after a stop, failures per part, a Legion's datasheets and options, no melee
weapon as a reason, progress only on a terminal, and a two-worker LocalCluster killed midway then resumed to
the table of one process."""

from __future__ import annotations

import os
import pty
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from praetor_analysis.analysis import sweep_run
from praetor_analysis.analysis.faction_sweep import (
    ALL_LEGIONS,
    NO_MELEE,
    datasheets_of,
    field_targets,
    resolve_field,
    sweep_faction,
    sweep_legion,
    sweep_sheets,
    sweep_tasks,
)
from praetor_analysis.errors import ScenarioError

pytest.importorskip("pyarrow")

from praetor_analysis.analysis.sweep_dataset import (
    FAILURES,
    MANIFEST,
    read_sweep,
    write_sweep,
)

FIXTURES = Path(__file__).parent / "fixtures"
SMALL = ["Corswain", "Holguin", "Dreadnought Drop Pod"]  # one part each, under a second


def _cli(*argv: str, cwd: Path | None = None, timeout: int = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "praetor_analysis.cli", "sweep", *argv], capture_output=True,
                          text=True, timeout=timeout, check=False, cwd=cwd)  # fmt: skip


def _parts(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("part-*.parquet"))


def test_a_legion_sweeps_what_every_legion_may_take_and_its_own() -> None:
    sheets = dict(sweep_sheets("Dark Angels", "Dark Angels"))
    assert sheets["Tactical Squad"] == ALL_LEGIONS and sheets["Corswain"] == "Dark Angels"
    assert set(datasheets_of("Dark Angels")) <= set(sheets) and set(datasheets_of(ALL_LEGIONS)) <= set(sheets)
    assert not set(datasheets_of("Sons of Horus")) - set(datasheets_of(ALL_LEGIONS)) & set(sheets)
    assert sweep_legion("Dark Angels") == "Dark Angels" and sweep_legion("Mechanicum") == ""
    assert sweep_legion(ALL_LEGIONS, "dark angels") == "Dark Angels"
    with pytest.raises(ScenarioError, match="legion"):
        sweep_legion("Mechanicum", "Dark Angels")
    with pytest.raises(ScenarioError, match="no Legion named"):
        sweep_legion(ALL_LEGIONS, "Dork Angels")
    tasks = sweep_tasks(ALL_LEGIONS, legion="Dark Angels", datasheets=["Praetor", "Praetor", "Corswain"])
    assert [(t.datasheet, t.faction, t.legion) for t in tasks] == [
        ("Praetor", ALL_LEGIONS, "Dark Angels"),
        ("Corswain", "Dark Angels", "Dark Angels"),
    ]
    assert [t.token for t in tasks] == [t.token for t in sweep_tasks("Dark Angels", datasheets=["Praetor", "Corswain"])]
    with pytest.raises(ScenarioError, match="datasheets"):
        sweep_tasks("Dark Angels", datasheets=["Kharn the Betrayer"])


def test_no_melee_weapon_is_a_reason_and_no_error_is_null() -> None:
    frame = sweep_faction(ALL_LEGIONS, datasheets=["Rhino Transport"])
    melee = frame[frame["phase"] == "melee"]
    assert len(melee) > 0 and (melee["reason"] == NO_MELEE).all() and melee["error"].isna().all()
    shooting = frame[frame["phase"] == "shooting"]
    assert shooting["reason"].isna().all() and shooting["error"].isna().all() and shooting["mean"].notna().all()
    assert not frame["error"].eq("").any()


def test_tokens_follow_every_input() -> None:
    base = sweep_tasks("Dark Angels", datasheets=["Corswain"])[0]
    others = [
        sweep_tasks("Dark Angels", datasheets=["Praetor"])[0],
        sweep_tasks(ALL_LEGIONS, datasheets=["Praetor"])[0],  # the same datasheet for no Legion
        sweep_tasks("Dark Angels", "faction:Dark Angels", datasheets=["Corswain"])[0],
        sweep_tasks("Dark Angels", datasheets=["Corswain"], phases=("shooting",))[0],
    ]
    tokens = {base.token, *(t.token for t in others)}
    assert len(tokens) == 5 and base.token == sweep_tasks("Dark Angels", datasheets=["Corswain"])[0].token


def test_a_roster_is_read_where_the_sweep_starts_and_travels_as_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = tmp_path / "list.ros"
    shutil.copy(FIXTURES / "tiny.ros", roster)
    monkeypatch.chdir(tmp_path)
    field = resolve_field("roster:list.ros")  # a relative path
    assert field.kind == "roster" and field.content == roster.read_bytes()
    roster.unlink()
    monkeypatch.chdir(FIXTURES)  # a worker elsewhere, without the file
    _name, targets = field_targets(field)
    assert len(targets) > 0
    changed = resolve_field(field)
    assert changed is field
    edited = type(field)(field.kind, field.value, field.content + b"\n")
    assert edited.digest != field.digest  # an edited roster is another input
    with pytest.raises(ScenarioError, match="cannot read"):
        resolve_field("roster:no-such.ros")


def test_dataset_equals_the_table_in_memory_and_resumes(tmp_path: Path) -> None:
    tasks = sweep_tasks("Dark Angels", datasheets=SMALL)
    out = tmp_path / "ds"
    seen: list[tuple[int, int]] = []
    report = write_sweep(tasks, out, progress=lambda done, total, started: seen.append((done, total)))
    assert (report.parts, report.kept, report.written, report.failed, report.removed) == (3, 0, 3, 0, 0)
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    table = read_sweep(out)
    memory = sweep_faction("Dark Angels", datasheets=SMALL)
    pd.testing.assert_frame_equal(table, memory, check_dtype=False)
    pd.testing.assert_frame_equal(pd.read_parquet(out), table)  # the parts in the table's order
    assert report.rows == report.dataset_rows == len(table)
    assert pd.read_parquet(out / FAILURES).empty

    # a stop after two parts: the third is computed, the two kept
    third = out / _parts(out)[2]
    third.unlink()
    with pytest.raises(ScenarioError, match="1 of 3 parts not written"):
        read_sweep(out)
    stamps = {p: (out / p).stat().st_mtime_ns for p in _parts(out)}
    report = write_sweep(tasks, out)
    assert (report.kept, report.written) == (2, 1)
    assert all((out / p).stat().st_mtime_ns == t for p, t in stamps.items())
    assert report.rows == len(pd.read_parquet(third)) < report.dataset_rows == len(table)  # the kept ones counted
    pd.testing.assert_frame_equal(read_sweep(out), table)

    # other inputs (one phase): every part is removed and written again, none reused
    shooting = sweep_tasks("Dark Angels", datasheets=SMALL, phases=("shooting",))
    report = write_sweep(shooting, out)
    assert (report.kept, report.written, report.removed) == (0, 3, 3)
    assert set(read_sweep(out)["phase"]) == {"shooting"}

    # the same parts in another order: kept and renamed to their places
    report = write_sweep(shooting[::-1], out)
    assert (report.kept, report.written) == (3, 0)
    assert (report.rows, report.dataset_rows) == (0, len(read_sweep(out)))
    assert list(read_sweep(out)["datasheet"].unique()) == SMALL[::-1]


def test_a_failed_part_is_recorded_and_retried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = sweep_tasks("Dark Angels", datasheets=SMALL)
    real = sweep_run.run_task

    def flaky(task: object) -> pd.DataFrame:
        if task.datasheet == "Holguin":  # type: ignore[attr-defined]
            raise RuntimeError("the worker's disk\nwent away")
        return real(task)  # type: ignore[arg-type]

    monkeypatch.setattr(sweep_run, "run_task", flaky)
    out = tmp_path / "ds"
    report = write_sweep(tasks, out)
    assert (report.written, report.failed) == (2, 1)
    failures = pd.read_parquet(out / FAILURES)
    assert failures.to_dict(orient="records") == [
        {"datasheet": "Holguin", "faction": "Dark Angels", "token": tasks[1].token,
         "failure": "RuntimeError: the worker's disk went away"},
    ]  # fmt: skip
    assert '"done": false' in (out / MANIFEST).read_text()
    monkeypatch.setattr(sweep_run, "run_task", real)
    report = write_sweep(tasks, out)
    assert (report.kept, report.written, report.failed) == (2, 1, 0)
    assert pd.read_parquet(out / FAILURES).empty
    pd.testing.assert_frame_equal(read_sweep(out), sweep_faction("Dark Angels", datasheets=SMALL), check_dtype=False)


def test_cli_notes_a_repeated_datasheet_and_a_failed_part_exits_1(tmp_path: Path) -> None:
    run = _cli("Dark Angels", "--datasheets", "Corswain", "Corswain", "-o", str(tmp_path / "ds"))
    assert run.returncode == 0, run.stderr
    assert "1 repeated name(s) taken once" in run.stderr and "1 parts (0 kept" in run.stdout
    assert len(read_sweep(tmp_path / "ds")["datasheet"].unique()) == 1
    again = _cli("Dark Angels", "--datasheets", "Corswain", "-o", str(tmp_path / "ds"))
    # nothing left to do: it says what is there, not "0 written, 0 rows"
    rows = len(read_sweep(tmp_path / "ds"))
    assert again.returncode == 0 and again.stdout == f"{tmp_path / 'ds'}: all 1 part already written; {rows} rows\n"
    bad = _cli("Mechanicum", "--legion", "Dark Angels", "-o", str(tmp_path / "m"))
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and "--legion" not in bad.stdout


def test_progress_is_shown_on_a_terminal_only(tmp_path: Path) -> None:
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "praetor_analysis.cli", "sweep", "Dark Angels", "--datasheets", "Corswain",
             "Holguin", "-o", str(tmp_path / "ds")],
            stdout=subprocess.PIPE, stderr=follower, timeout=600, check=False,
        )  # fmt: skip
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(leader)
    assert proc.returncode == 0
    text = seen.decode()
    assert "0/2 parts" in text and "1/2 parts" in text and "2/2 parts" in text and " s" in text
    quiet = _cli("Dark Angels", "--datasheets", "Corswain", "-o", str(tmp_path / "ds2"))
    assert quiet.stderr == ""


def test_the_single_process_path_imports_no_dask(tmp_path: Path) -> None:
    code = (
        "import sys\n"
        "from praetor_analysis.cli import main\n"
        f"assert main(['sweep', 'Dark Angels', '--datasheets', 'Corswain', '-o', {str(tmp_path / 'ds')!r}]) == 0\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')], 'dask imported'\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stderr


@pytest.mark.slow
def test_two_local_workers_killed_midway_resume_to_the_table_of_one_process(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    # small parts first, then larger ones: the kill comes after two parts and before the last
    names = [*SMALL, "Tactical Squad", "Terminator Tartaros Squad", "Veteran Squad"]
    out = tmp_path / "ds"
    proc = subprocess.Popen(
        [sys.executable, "-m", "praetor_analysis.cli", "sweep", "Dark Angels", "--workers", "2", "--datasheets",
         *names, "-o", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None and len(_parts(out) if out.exists() else []) < 2:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()  # still running: killed midway
    os.killpg(proc.pid, signal.SIGKILL)  # the client and its cluster's processes, at once
    proc.communicate(timeout=60)
    written = _parts(out)
    assert 2 <= len(written) < len(names)

    resumed = _cli("Dark Angels", "--workers", "1", "--datasheets", *names, "-o", str(out))
    assert resumed.returncode == 0, resumed.stderr
    assert f"{len(written)} kept from an earlier run, {len(names) - len(written)} written" in resumed.stdout
    assert set(written) <= set(_parts(out))
    one = tmp_path / "one"
    fresh = _cli("Dark Angels", "--workers", "1", "--datasheets", *names, "-o", str(one))
    assert fresh.returncode == 0, fresh.stderr
    pd.testing.assert_frame_equal(read_sweep(out), read_sweep(one))
    assert _parts(out) == _parts(one)


@pytest.mark.slow
def test_an_existing_cluster_gets_a_relative_roster_as_bytes(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    here = tmp_path / "mine"
    here.mkdir()
    shutil.copy(FIXTURES / "tiny.ros", here / "list.ros")  # only the client's folder has it
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as cluster:
        run = _cli("Dark Angels", "--datasheets", "Corswain", "Holguin", "--targets", "list.ros",
                   "--scheduler", cluster.scheduler_address, "-o", "ds", cwd=here)  # fmt: skip
    assert run.returncode == 0, run.stderr
    local = _cli("Dark Angels", "--datasheets", "Corswain", "Holguin", "--targets", "list.ros", "-o", "one", cwd=here)
    assert local.returncode == 0, local.stderr
    table = read_sweep(here / "ds")
    assert len(table) > 0 and table["target_list"].nunique() == 1
    pd.testing.assert_frame_equal(table, read_sweep(here / "one"))


def test_an_unreachable_scheduler_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    from praetor_analysis.cli import main

    monkeypatch.setattr(sweep_run, "CONNECT_TIMEOUT", "1s")
    code = main(["sweep", "Dark Angels", "--datasheets", "Corswain", "--scheduler", "tcp://127.0.0.1:9",
                 "-o", str(tmp_path / "ds")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert "cannot reach a Dask scheduler at 'tcp://127.0.0.1:9'" in err
