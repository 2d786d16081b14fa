"""Hardening of the `praetor` command line: bad input exits with status 2 and exactly one line on standard
error, never a traceback, never a hang (each run is a subprocess with a time limit).

Every case of a command is run once, concurrently, by a module fixture; each case is its own test. The fast tier
runs a few cases of each command, one per kind of fault (``FAST``); the slow tier all of them: the fixtures run
the cases the session selected, no other (about 0.9 s of CPU each, the interpreter's start).
"""

from __future__ import annotations

import atexit
import copy
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
TIMEOUT_S = 60
GOOD: dict[str, Any] = {
    "attacker": {"BS": 4, "S": 4, "models": 1},
    "weapon": {"name": "Autocannon", "Range": '48"', "Strength": "7", "AP": "4", "Type": "Heavy 2, Rending (6+)"},
    "target": {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Ld": 7, "Save": "3+"},
}


def _with(path: tuple[str, ...], value: Any) -> str:
    d = copy.deepcopy(GOOD)
    cur = d
    for key in path[:-1]:
        cur = cur[key]
    cur[path[-1]] = value
    return json.dumps(d)


def run(args: list[str], stdin: bytes | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(
            [sys.executable, "-m", "praetor_analysis.cli", *args],
            input=stdin,
            capture_output=True,
            timeout=TIMEOUT_S,
            cwd=cwd,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        )
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(args, -999, b"", b"TIMEOUT")


#: The cases ``make test-fast`` runs: one of each kind of fault per command (bad bytes, nesting, sizes, entities,
#: a field's value, paths, arguments).
FAST = {
    "calc": {"invalid json", "not utf-8", "nested 100,000", "NaN attacks", "unknown field", "Rending (9+)",
             "null target", "bad in array", "huge name 20 MB", "missing file", "unknown command", "50 MB file"},
    "import": {"empty folder", "not xml", "billion laughs", "external entity", "deep nesting 100,000",
               "many elements", "mini data lacks the targets", "65 MB gst", "missing folder", "--out is a file"},
    "roster": {"empty", "DTD", "billion laughs", "deep nesting 100,000", "number nan", "zip slip", "zip absolute",
               "zip bomb", "zip lies about its size", "60 MB file", "missing file"},
}  # fmt: skip


def cases(command: str, params: list) -> list:
    """``params`` (a label, or a tuple starting with it) with the cases outside ``FAST[command]`` marked slow."""
    out = []
    for p in params:
        label = p if isinstance(p, str) else p[0]
        out.append(
            p
            if label in FAST[command]
            else pytest.param(*(p if isinstance(p, tuple) else (p,)), marks=pytest.mark.slow)
        )
    return out


def selected(request: pytest.FixtureRequest, test: str) -> set[str]:
    """The labels of the cases of ``test`` (a test function of this module) the session runs."""
    return {
        i.callspec.params["label"]
        for i in request.session.items
        if isinstance(i, pytest.Function) and i.originalname == test and i.module is request.module
    }


def assert_exit_2_one_line(p: subprocess.CompletedProcess, *, mention: str | None = None) -> None:
    err = p.stderr.decode("utf-8", "replace")
    assert p.returncode == 2, f"exit {p.returncode}: {err[:500]}"
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"{len(lines)} lines on standard error: {err[:500]}"
    assert "Traceback" not in err and len(lines[0]) <= 600
    if mention is not None:
        assert mention in lines[0], lines[0]


# --- praetor calc -------------------------------------------------------------------------------
# (label, bytes on standard input, text the message must contain)
CALC_CASES: list[tuple[str, bytes, str | None]] = [
    ("invalid json", b"{not json", "invalid JSON"),
    ("empty input", b"", "invalid JSON"),
    ("whitespace", b"   \n", "invalid JSON"),
    ("not utf-8", b"\xff\xfe\x00{", "UTF-8"),
    ("binary", bytes(range(256)), None),
    ("nul", b"\x00", None),
    ("null", b"null", "scenario"),
    ("number", b"3", "scenario"),
    ("string", b'"x"', "scenario"),
    ("array of null", b"[null]", "[0]"),
    ("array of arrays", b"[[]]", "[0]"),
    ("nested 100,000", b"[" * 100_000 + b"]" * 100_000, "nested"),
    ("nested objects 50,000", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, None),
    ("NaN attacks", _with(("attacks",), 0).replace('"attacks": 0', '"attacks": NaN').encode(), "attacks"),
    (
        "Infinity models",
        _with(("target", "models"), 0).replace('"models": 0', '"models": Infinity').encode(),
        "target.models",
    ),
    ("1e400 attacks", _with(("attacks",), 0).replace('"attacks": 0', '"attacks": 1e400').encode(), "attacks"),
    ("unknown characteristic", _with(("target", "Colour"), "red").encode(), "target.Colour"),
    ("unknown field", _with(("bogus",), 1).encode(), "bogus"),
    ("Rending (9+)", _with(("weapon", "Type"), "Heavy 2, Rending (9+)").encode(), "Rending (9+)"),
    ("BS 0", _with(("attacker", "BS"), 0).encode(), "attacker.BS"),
    ("negative models", _with(("target", "models"), -1).encode(), "target.models"),
    ("huge models", _with(("target", "models"), 10**6).encode(), "target.models"),
    ("Heavy -1", _with(("weapon", "Type"), "Heavy -1").encode(), "weapon.Type"),
    ("AP 7", _with(("weapon", "AP"), "7").encode(), "weapon.AP"),
    ("W 0", _with(("target", "W"), 0).encode(), "target.W"),
    ("T 11", _with(("target", "T"), 11).encode(), "target.T"),
    ("Save 1+", _with(("target", "Save"), "1+").encode(), "target.Save"),
    ("Ld 13", _with(("target", "Ld"), 13).encode(), "target.Ld"),
    ("999D6 attacks", _with(("attacks",), "999D6").encode(), "attacks"),
    ("2.5 attacks", _with(("attacks",), 2.5).encode(), "attacks"),
    ("10^9 attacks", _with(("attacks",), 10**9).encode(), "attacks"),
    ("true attacks", _with(("attacks",), True).encode(), "attacks"),
    ("true T", _with(("target", "T"), True).encode(), "target.T"),
    ("null target", _with(("target",), None).encode(), "target"),
    ("null weapon", _with(("weapon",), None).encode(), "weapon"),
    ("null attacker", _with(("attacker",), None).encode(), "attacker"),
    ("null Strength", _with(("weapon", "Strength"), None).encode(), "weapon.Strength"),
    ("null models", _with(("target", "models"), None).encode(), "target.models"),
    (
        "null everywhere",
        json.dumps(dict.fromkeys(("mode", "attacker", "weapon", "target", "attacks"))).encode(),
        None,
    ),
    ("control chars", _with(("target", "name"), "a\x1b[2J\x07b").encode(), "target.name"),
    ("control chars in Type", _with(("weapon", "Type"), "Heavy 2\x00").encode(), "weapon.Type"),
    ("empty weapon list", _with(("weapon",), []).encode(), "weapon"),
    ("empty rules entries", _with(("target", "rules"), [None]).encode(), "target.rules"),
    ("D7 attacks", _with(("attacks",), "D7").encode(), "attacks"),
    ("D6-99 attacks", _with(("attacks",), "D6-99").encode(), "attacks"),
    ("bad dice", _with(("attacks",), "3D6+2D3").encode(), "attacks"),
    ("mode flying", _with(("mode",), "flying").encode(), "mode"),
    ("bad in array", ("[" + json.dumps(GOOD) + "," + _with(("weapon", "AP"), "0") + "]").encode(), "[1] weapon.AP"),
    ("huge name 20 MB", _with(("target", "name"), "x" * (20 * 2**20)).encode(), "larger than"),
    ("huge value in message", _with(("weapon", "Range"), "x" * 100_000).encode(), "weapon.Range"),
]
# the 50 MB JSON: a file, not a pipe
CALC_ARGV_CASES: list[tuple[str, list[str], str | None]] = [
    ("missing file", ["calc", "/nonexistent/x.json"], "no such file"),
    ("directory", ["calc", "/"], "is a directory, not a scenario file"),
    ("no argument", ["calc"], None),
    ("unknown option", ["calc", "-", "--frobnicate"], None),
    ("unknown command", ["frobnicate"], None),
]


@pytest.fixture(scope="module")
def calc_runs(request, tmp_path_factory) -> dict[str, subprocess.CompletedProcess]:
    tmp = tmp_path_factory.mktemp("calc")
    big = tmp / "big.json"
    with big.open("wb") as fh:  # a 50 MB JSON array of valid scenarios
        one = json.dumps(GOOD).encode()
        fh.write(b"[" + b",".join([one] * (50 * 2**20 // len(one))) + b"]")
    jobs = {label: (["calc", "-"], data) for label, data, _ in CALC_CASES}
    jobs.update({label: (argv, None) for label, argv, _ in CALC_ARGV_CASES})
    jobs["50 MB file"] = (["calc", str(big)], None)
    jobs = {label: job for label, job in jobs.items() if label in selected(request, "test_calc_bad_input")}
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {label: pool.submit(run, argv, data) for label, (argv, data) in jobs.items()}
        return {label: f.result() for label, f in futures.items()}


@pytest.mark.parametrize(
    "label, mention",
    cases(
        "calc",
        [(c[0], c[2]) for c in CALC_CASES] + [(c[0], c[2]) for c in CALC_ARGV_CASES] + [("50 MB file", "larger than")],
    ),
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_calc_bad_input(calc_runs, label, mention):
    assert_exit_2_one_line(calc_runs[label], mention=mention)


def test_calc_still_works():
    p = run(["calc", "-", "--compact"], json.dumps(GOOD).encode())
    assert p.returncode == 0 and len(p.stdout.splitlines()) == 1
    json.loads(p.stdout)


# --- praetor import -----------------------------------------------------------------------------
GST_HEAD = (
    b'<?xml version="1.0"?><gameSystem xmlns="http://www.battlescribe.net/schema/gameSystemSchema" id="g" name="g">'
)


def _import_cases(tmp: Path) -> dict[str, tuple[list[str], str | None]]:
    """Folders of bad BattleScribe data, each with the message text expected."""
    cases: dict[str, tuple[list[str], str | None]] = {}

    def folder(label: str, files: dict[str, bytes], mention: str | None = None, extra: list[str] | None = None):
        d = tmp / f"case{len(cases)}"
        d.mkdir()
        for name, data in files.items():
            (d / name).write_bytes(data)
        cases[label] = (["import", str(d), "--out", str(d / "out"), *(extra or [])], mention)

    mini = {p.name: p.read_bytes() for p in (FIXTURES / "mini").iterdir()}
    folder("empty folder", {}, ".gst")
    folder("two gst", {"a.gst": GST_HEAD + b"</gameSystem>", "b.gst": GST_HEAD + b"</gameSystem>"}, ".gst")
    folder("only a cat", {"a.cat": mini["mini.cat"]}, ".gst")
    folder("empty gst", {"a.gst": b""}, "a.gst")
    folder("binary gst", {"a.gst": bytes(range(256)) * 4}, "a.gst")
    folder("truncated gst", {"a.gst": mini["mini.gst"][: len(mini["mini.gst"]) // 2]}, "a.gst")
    folder("not xml", {"a.gst": b"hello"}, "a.gst")
    folder("utf-16 garbage", {"a.gst": "<gameSystem>".encode("utf-16")[:-3]}, "a.gst")
    folder("bogus encoding", {"a.gst": b'<?xml version="1.0" encoding="bogus"?><gameSystem/>'}, "a.gst")
    folder("DTD no entities", {"a.gst": b'<?xml version="1.0"?><!DOCTYPE gameSystem><gameSystem/>'}, "DTD")
    folder(
        "billion laughs",
        {
            "a.gst": b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaaaaaaaa">'
            b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;'
            b'&b;&b;&b;&b;">]><gameSystem>&c;</gameSystem>'
        },
        "refused",
    )
    folder(
        "external entity",
        {
            "a.gst": b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM '
            b'"file:///etc/passwd">]><gameSystem>&x;</gameSystem>'
        },
        "refused",
    )
    folder(
        "parameter entity",
        {
            "a.gst": b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM '
            b'"http://example.invalid/p.dtd"> %p;]><gameSystem/>'
        },
        "refused",
    )
    folder(
        "external DTD",
        {"a.gst": b'<?xml version="1.0"?><!DOCTYPE gameSystem SYSTEM "http://example.invalid/x.dtd"><gameSystem/>'},
        "refused",
    )
    folder("entity in cat", {"mini.gst": mini["mini.gst"], "e.cat": (FIXTURES / "entity.cat").read_bytes()}, "e.cat")
    folder(
        "deep nesting 100,000",
        {"a.gst": b"<gameSystem>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</gameSystem>"},
        "nested deeper",
    )
    folder(
        "deep nesting in cat",
        {"mini.gst": mini["mini.gst"], "d.cat": b"<catalogue>" + b"<x>" * 5000 + b"</x>" * 5000 + b"</catalogue>"},
        "d.cat",
    )
    folder("many elements", {"a.gst": b"<gameSystem>" + b"<a/>" * 2_100_000 + b"</gameSystem>"}, "elements")
    folder("invalid char ref", {"a.gst": b'<gameSystem name="&#1;"/>'}, "a.gst")
    folder("unclosed", {"a.gst": b"<gameSystem><profiles>"}, "a.gst")
    folder("mismatched", {"a.gst": b"<gameSystem></catalogue>"}, "a.gst")
    folder("two roots", {"a.gst": b"<gameSystem/><gameSystem/>"}, "a.gst")
    folder("mini data lacks the targets", mini, "target")
    folder("mini with empty cat", {**mini, "z.cat": b""}, "z.cat")
    folder("mini with binary cat", {**mini, "z.cat": os.urandom(4096)}, "z.cat")
    folder("mini with DTD cat", {**mini, "z.cat": b"<!DOCTYPE c><catalogue/>"}, "z.cat")
    big = tmp / "bigcase"
    big.mkdir()
    with (big / "a.gst").open("wb") as fh:  # sparse: 65 MB declared, refused on size before reading
        fh.truncate(65 * 2**20)
    cases["65 MB gst"] = (["import", str(big), "--out", str(big / "out")], "exceeds")
    cases["missing folder"] = (["import", str(tmp / "nope")], "not a folder")
    cases["a file, not a folder"] = (["import", str(FIXTURES / "entity.cat")], "not a folder")
    cases["no argument"] = (["import"], None)
    cases["--show not a number"] = (["import", str(FIXTURES / "mini"), "--show", "x"], None)
    out_file = tmp / "outfile"
    out_file.write_text("x")
    cases["--out is a file"] = (["import", str(FIXTURES / "mini"), "--out", str(out_file)], "outfile")
    cases["--out under a file"] = (["import", str(FIXTURES / "mini"), "--out", str(out_file / "sub")], None)
    cases["--out under /proc"] = (["import", str(FIXTURES / "mini"), "--out", "/proc/praetor/out"], None)
    cases["unreadable path"] = (["import", "/root/nonexistent-praetor"], None)
    cases["tab in path"] = (["import", "a\tb"], "not a folder")
    cases["unknown option"] = (["import", str(FIXTURES / "mini"), "--frobnicate"], None)
    cases["empty path"] = (["import", ""], None)
    return cases


_WORK = Path(tempfile.mkdtemp(prefix="praetor_hardening_"))
atexit.register(shutil.rmtree, _WORK, True)
(_WORK / "import").mkdir()
IMPORT_CASES = _import_cases(_WORK / "import")


@pytest.fixture(scope="module")
def import_runs(request):
    labels = selected(request, "test_import_bad_input")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {label: pool.submit(run, argv) for label, (argv, _) in IMPORT_CASES.items() if label in labels}
        return {label: (f.result(), IMPORT_CASES[label][1]) for label, f in futures.items()}


@pytest.mark.parametrize("label", cases("import", list(IMPORT_CASES)))
def test_import_bad_input(import_runs, label):
    p, mention = import_runs[label]
    assert_exit_2_one_line(p, mention=mention)


# --- praetor roster -----------------------------------------------------------------------------
ROS = (
    b'<?xml version="1.0"?><roster xmlns="http://www.battlescribe.net/schema/rosterSchema" id="r" name="r">'
    b'<forces><force name="f"><selections>%s</selections></force></forces></roster>'
)
UNIT = (
    b'<selection type="unit" name="u" number="%s"><profiles><profile typeId="4bb2-cb95-e6c8-5a21" name="m">'
    b'<characteristics><characteristic name="BS">4</characteristic></characteristics></profile></profiles>'
    b"</selection>"
)


def _zip(entries: list[tuple[str, bytes]], **kw) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=kw.get("compression", zipfile.ZIP_DEFLATED)) as z:
        for name, data in entries:
            z.writestr(name, data)
    return buf.getvalue()


def _roster_cases(tmp: Path) -> dict[str, tuple[list[str], str | None]]:
    cases: dict[str, tuple[list[str], str | None]] = {}
    good = ROS % b""

    def file(label: str, data: bytes, mention: str | None = None, suffix: str = ".ros"):
        p = tmp / f"case{len(cases)}{suffix}"
        p.write_bytes(data)
        cases[label] = (["roster", str(p)], mention)

    file("empty", b"", "malformed")
    file("binary", bytes(range(256)) * 8, None)
    file("random", os.urandom(10_000), None)
    file("not a roster root", b"<catalogue/>", "not a roster")
    file("DTD", b"<!DOCTYPE roster><roster/>", "DTD")
    file("billion laughs", (FIXTURES / "entity.ros").read_bytes(), "refused")
    file(
        "external entity",
        b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><roster name="&x;"/>',
        "refused",
    )
    file("external DTD", b'<!DOCTYPE roster SYSTEM "http://example.invalid/r.dtd"><roster/>', "refused")
    file("bogus encoding", b'<?xml version="1.0" encoding="bogus"?><roster/>', "unreadable")
    file("deep nesting 100,000", b"<roster>" + b"<a>" * 100_000 + b"</a>" * 100_000 + b"</roster>", "nested")
    file("deep forces", b"<roster>" + b"<forces><force>" * 5000 + b"</force></forces>" * 5000 + b"</roster>", "nested")
    file("number nan", ROS % (UNIT % b"nan"), "number")
    file("number inf", ROS % (UNIT % b"inf"), "number")
    file("number -5", ROS % (UNIT % b"-5"), "number")
    file("number 1e15", ROS % (UNIT % b"1e15"), "number")
    file("number 2.5", ROS % (UNIT % b"2.5"), "number")
    file("truncated", (ROS % (UNIT % b"1"))[:-20], "malformed")
    file("invalid char", b'<roster name="&#0;"/>', "malformed")
    file("latin-1 bytes", b'<roster name="\xe9"/>', "malformed")
    file("zip not a zip", b"PK\x03\x04" + os.urandom(200), ".rosz", ".rosz")
    file("zip empty", _zip([]), None, ".rosz")
    file("zip no .ros", _zip([("a.txt", b"x")]), "exactly one", ".rosz")
    file("zip two .ros", _zip([("a.ros", good), ("b.ros", good)]), "exactly one", ".rosz")
    file("zip too many entries", _zip([(f"{i}.txt", b"") for i in range(10)] + [("a.ros", good)]), "entries", ".rosz")
    file("zip slip", _zip([("../../praetor_zip_slip.ros", b"<catalogue/>")]), "not a roster", ".rosz")
    file("zip absolute", _zip([("/tmp/praetor_zip_abs.ros", b"<catalogue/>")]), "not a roster", ".rosz")
    file("zip bomb", _zip([("a.ros", b" " * (60 * 2**20))]), "limit", ".rosz")
    file("zip DTD inside", _zip([("a.ros", b"<!DOCTYPE roster><roster/>")]), "DTD", ".rosz")
    file("zip stored garbage", _zip([("a.ros", os.urandom(1000))], compression=zipfile.ZIP_STORED), None, ".rosz")
    corrupt = bytearray(_zip([("a.ros", ROS % (UNIT % b"1") * 20)]))
    corrupt[60:80] = b"\x00" * 20
    file("zip corrupt data", bytes(corrupt), None, ".rosz")
    lie = bytearray(_zip([("a.ros", b" " * (60 * 2**20))]))
    cd = lie.rfind(b"PK\x01\x02")  # central directory: declare 100 bytes uncompressed
    lie[cd + 24 : cd + 28] = (100).to_bytes(4, "little")
    file("zip lies about its size", bytes(lie), ".rosz", ".rosz")
    sparse = tmp / "huge.ros"
    with sparse.open("wb") as fh:
        fh.truncate(60 * 2**20)
    cases["60 MB file"] = (["roster", str(sparse)], "exceeds")
    cases["missing file"] = (["roster", str(tmp / "nope.ros")], "no such roster")
    cases["a folder"] = (["roster", str(tmp)], "no such roster")
    cases["no argument"] = (["roster"], None)
    cases["unknown option"] = (["roster", str(sparse), "--frobnicate"], None)
    return cases


(_WORK / "roster" / "a" / "b").mkdir(parents=True)
ROSTER_CASES = _roster_cases(_WORK / "roster")


@pytest.fixture(scope="module")
def roster_runs(request):
    tmp = _WORK / "roster"
    cwd = tmp / "a" / "b"
    labels = selected(request, "test_roster_bad_input")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {
            label: pool.submit(run, argv, None, cwd) for label, (argv, _) in ROSTER_CASES.items() if label in labels
        }
        runs = {label: (f.result(), ROSTER_CASES[label][1]) for label, f in futures.items()}
    # the archive is read in memory: nothing is ever written, inside or outside the folder
    written = sorted(str(p.relative_to(tmp)) for p in tmp.rglob("*") if p.is_file())
    assert all(w.startswith("case") or w == "huge.ros" for w in written), written
    assert not any((tmp / "a").rglob("*.ros")) and not (tmp / "praetor_zip_slip.ros").exists()
    assert not Path("/tmp/praetor_zip_abs.ros").exists()
    return runs


@pytest.mark.parametrize("label", cases("roster", list(ROSTER_CASES)))
def test_roster_bad_input(roster_runs, label):
    p, mention = roster_runs[label]
    assert_exit_2_one_line(p, mention=mention)


def test_the_fast_cases_are_cases():
    labels = {
        "calc": {c[0] for c in CALC_CASES} | {c[0] for c in CALC_ARGV_CASES} | {"50 MB file"},
        "import": set(IMPORT_CASES),
        "roster": set(ROSTER_CASES),
    }
    assert all(FAST[command] <= labels[command] for command in FAST), FAST
