"""A worker that feeds seeded, mutated inputs to one entry point, each under a time limit, in a process
under a memory limit; one JSON line per input on standard output (``tests/test_fuzz_bounds.py`` runs it).

    python tests/fuzz_worker.py KIND SEED COUNT

KIND is ``calc`` (``praetor calc`` documents through the command line's ``main``), ``api`` (the Python API
with Python values JSON cannot carry), ``typed`` (the public functions with values of the types they document)
or ``files`` (``praetor import`` folders and ``praetor roster`` files).
Each line is ``{"i": n, "outcome": o, "detail": text}`` where ``o`` is ``answer`` (exit 0 or a return
value), ``refused`` (exit 2 with one line, or a PraetorError) or ``other`` (anything else: a defect).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import os
import random
import resource
import signal
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

#: Wall-clock limit of one input, seconds.
TIME_LIMIT_S = 20
#: Address-space limit of the worker process, bytes.
MEMORY_LIMIT = 3 * 2**30

FIXTURES = Path(__file__).parent / "fixtures"
BOLTER = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"}
LEGION = {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Ld": 7, "Save": "3+"}
CHAINSWORD = {"name": "Chainsword", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee, Shred"}
RHINO = {"name": "Rhino", "Unit Type": "Vehicle (Transport)", "Front": 11, "Side": 11, "Rear": 10, "HP": 3}
FIGHTER = {"models": 5, "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "Save": "3+"}
BASES: list[dict[str, Any]] = [
    {"attacker": {"BS": 4, "S": 4, "models": 1}, "weapon": BOLTER, "target": LEGION},
    {
        "attacker": {"BS": 4, "models": 2},
        "weapon": {"name": "Autocannon", "Range": '48"', "Strength": "7", "AP": "4", "Type": "Heavy 2, Rending (6+)"},
        "target": RHINO,
        "half_range": False,
    },
    {
        "attacker": {"BS": 4},
        "weapon": {"name": "Frag", "Range": '48"', "Strength": "4", "AP": "6", "Type": "Heavy 1, Blast, Pinning"},
        "target": {**LEGION, "models": 5},
        "formation": {"models": 5, "base_mm": 32, "gap": 2, "columns": 5},
        "aim": {"model": 1},
        "edges": {"xmin": -20, "xmax": 40, "ymin": -20, "ymax": 30},
    },
    {
        "attacker": {"BS": 4},
        "weapon": {
            "name": "Basilisk",
            "Range": '36"-240"',
            "Strength": "9",
            "AP": "3",
            "Type": "Ordnance 1, Barrage, Large Blast",
        },
        "target": {**LEGION, "models": 3},
        "formation": {"positions": [[0, 0], [2, 0], [4, 1]], "base_mm": 32},
        "indirect": True,
    },
    {
        "attacker": {"BS": 4},
        "weapon": {"name": "Flamer", "Range": "Template", "Strength": "4", "AP": "5", "Type": "Assault 1"},
        "target": {**LEGION, "models": 4},
        "formation": {"models": 4, "gap": 1},
        "snap_shots": True,
    },
    {
        "mode": "melee",
        "attacker": {**FIGHTER, "charging": True},
        "weapon": CHAINSWORD,
        "target_weapon": [CHAINSWORD, {**CHAINSWORD, "name": "Fist", "Strength": "x2", "Type": "Melee, Unwieldy"}],
        "target": {**FIGHTER, "models": 3, "W": 2, "two_weapons": True},
    },
    {
        "target": {**LEGION, "wounds_taken": 0, "rules": ["Feel No Pain (6+)"]},
        "firing_units": [
            [{"attacker": {"BS": 4, "models": 5}, "weapon": BOLTER, "half_range": True}],
            [{"weapon": {**BOLTER, "Type": "Heavy 1, Pinning"}, "attacks": "D3"}, {"weapon": BOLTER, "hits": 2}],
        ],
    },
    {
        "name": "transmutative",
        "attacker": {"BS": 4},
        "weapon": [BOLTER, {**BOLTER, "name": "Las", "Strength": "9", "AP": "2", "Type": "Heavy 1"}],
        "metric": "wipe",
        "target": {**LEGION, "models": 2, "W": 2},
    },
]

#: Values a hostile document might hold: wrong types, non-finite and huge numbers, long and odd text.
NASTY: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1,
    2,
    7,
    1.5,
    10**400,
    -(10**400),
    1e308,
    -1e308,
    10**6,
    1000,
    250,
    float("nan"),
    float("inf"),
    float("-inf"),
    "",
    "-",
    "3+",
    "x",
    "D6",
    "99D6+1000000",
    "\x00",
    "\u202e7",
    "7" * 5000,
    "9" * 100_000,
    [],
    [1, 2],
    [[0, 0]],
    [[0, 0]] * 2000,
    {},
    {"model": 0},
    {"a": 1},
    [BOLTER],
    [[BOLTER]],
    "Vehicle",
    "Melee",
    "Front",
    {"xmin": 1, "xmax": 0},
    "Heavy 1000, Blast",
    "Ordnance 50, Barrage, Apocalyptic Mega-blast",
    "Rending (9+)",
    ["Feel No Pain (1+)"],
]
#: Values a real document might hold in the wrong place (so mutations also reach answers).
PLAUSIBLE: list[Any] = [
    1,
    2,
    3,
    4,
    5,
    6,
    10,
    "4+",
    "5+",
    "D3",
    "2D6",
    "User",
    "x2",
    "+1",
    '36"',
    "Heavy 3",
    "Assault 2, Shred",
    "Heavy 1, Large Blast",
    "Front",
    "Side",
    "Rear",
    True,
    False,
    "melee",
    "shooting",
    "Infantry",
    "Vehicle",
    ["Fearless"],
    {"model": 0},
    0.5,
    12,
    20,
]
EXTRA_KEYS = [
    "aim",
    "edges",
    "indirect",
    "moved",
    "facing",
    "Front",
    "HP",
    "charging",
    "Move",
    "M",
    "points",
    "name",
    "formation",
    "hits",
    "attacks",
    "snap_shots",
    "half_range",
    "metric",
    "target_weapon",
    "firing_units",
    "second_weapon",
    "wounds_taken",
    "Colour",
    "mode",
    "preset",
    "hull",
    "positions",
]


def _paths(d: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a nested document (dict keys and list indices)."""
    out = [prefix] if prefix else []
    if isinstance(d, dict):
        for k, v in d.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            out += _paths(v, (*prefix, i))
    return out


def _container(doc: Any, path: tuple[Any, ...]) -> Any:
    cur = doc
    for k in path[:-1]:
        cur = cur[k]
    return cur


def mutate(rng: random.Random, doc: dict[str, Any], values: list[Any]) -> dict[str, Any]:
    """One to three mutations: replace a value, delete a field, add a field, or scale a number."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        paths = _paths(doc)
        if not paths:
            break
        path = rng.choice(paths)
        box = _container(doc, path)
        key = path[-1]
        op = rng.random()
        if op < 0.55:
            box[key] = copy.deepcopy(rng.choice(PLAUSIBLE if rng.random() < 0.5 else values))
        elif op < 0.7 and isinstance(box, dict):
            del box[key]
        elif op < 0.9:
            target = box if isinstance(box, dict) else doc
            target[rng.choice(EXTRA_KEYS)] = copy.deepcopy(rng.choice(values))
        elif isinstance(box[key], (int, float)) and not isinstance(box[key], bool):
            box[key] = box[key] * rng.choice([10, 100, -1, 1000])
        else:
            box[key] = [box[key]] * rng.randint(0, 3)
    return doc


class _Timeout(BaseException):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def _limited(fn: Any) -> tuple[str, str]:
    """(outcome, detail) of one call under the time limit."""
    from praetor_analysis.errors import MAX_MESSAGE_CHARS, PraetorError

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT_S)
    try:
        result = fn()
    except PraetorError as exc:
        msg = str(exc)
        if "\n" in msg or len(msg) > MAX_MESSAGE_CHARS or ":" not in msg:
            return "other", f"badly formed message: {msg[:200]!r}"
        return "refused", msg[:200]
    except _Timeout:
        return "other", f"no answer within {TIME_LIMIT_S} s"
    except BaseException as exc:
        return "other", f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.alarm(0)
    return result if isinstance(result, tuple) else ("answer", "")


def _cli(args: list[str], stdin: str | None = None) -> tuple[str, str]:
    """Run ``praetor ARGS`` in this process: exit 0 is an answer, 2 with one line a refusal."""
    from praetor_analysis.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(args)
    text = err.getvalue().strip()
    if rc == 0:
        return "answer", ""
    if rc == 2 and text and "\n" not in text and len(text) <= 600 and "internal error" not in text:
        return "refused", text[:200]
    return "other", f"exit {rc}: {text[:300]}"


def _check_result(result: Any) -> None:
    """A result's distributions are distributions (finite, non-negative, summing to 1)."""
    for r in result if isinstance(result, list) else [result]:
        for v in r.values():
            if isinstance(v, dict) and "pmf" in v:
                pmf = v["pmf"]
                assert all(math.isfinite(p) and p >= -1e-12 for p in pmf), "pmf not finite or negative"
                assert abs(sum(pmf) - 1) < 1e-9, f"pmf sums to {sum(pmf)}"


# --- entry points ---------------------------------------------------------------------------------
def calc_case(rng: random.Random, workdir: Path) -> Any:
    """A mutated document through ``praetor calc`` (a file, or standard input), its output checked."""
    doc: Any = mutate(rng, rng.choice(BASES), NASTY)
    text = json.dumps(doc, allow_nan=True)
    if rng.random() < 0.05:  # an array: two scenarios, or more than MAX_SCENARIOS small ones
        text = "[" + ", ".join([text] * (30_000 if len(text) < 400 else 2)) + "]"
    if rng.random() < 0.05:
        text = text[: rng.randint(0, len(text))]
    LAST_INPUT[0] = text
    path = workdir / "scenario.json"
    path.write_text(text, encoding="utf-8")

    def call() -> tuple[str, str]:
        from praetor_analysis.cli import main

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(["calc", "--compact", str(path)])
        if rc == 0:
            _check_result(json.loads(out.getvalue()))
            return "answer", ""
        line = err.getvalue().strip()
        if rc == 2 and line and "\n" not in line and len(line) <= 600:
            return "refused", line[:200]
        return "other", f"exit {rc}: {line[:300]}"

    return call


def api_case(rng: random.Random, workdir: Path) -> Any:
    """A Python API call with values JSON cannot carry (tuples, sets, bytes, numpy scalars, deep nesting)."""
    import numpy as np

    from praetor_analysis import Weapon, calc, parse_dice, parse_weapon_type, unit_from_mapping
    from praetor_analysis.analysis.compare import compare, filter_weapons
    from praetor_analysis.catalog import load_targets, load_units, load_weapons
    from praetor_analysis.views.cell_documents import scenario_for

    deep: Any = []
    for _ in range(5000):
        deep = [deep]
    values = [*NASTY, (1, 2), {1, 2}, b"3+", np.float64("nan"), np.int64(3), np.array([1, 2]), object(), 2**63, -0.0]
    doc = mutate(rng, rng.choice(BASES), values)
    if rng.random() < 0.03:  # nested too deeply for a recursive reader
        box = rng.choice([doc, doc.get("target", doc), doc.get("weapon", doc)])
        if isinstance(box, dict):
            box[rng.choice([*box, "rules"])] = deep
    value = rng.choice([*values, deep])
    which = rng.random()
    if which < 0.6:

        def call() -> None:
            _check_result(calc(doc))

        return call
    if which < 0.7:
        return lambda: Weapon.from_mapping(doc.get("weapon") if rng.random() < 0.5 else value)
    if which < 0.8:
        return lambda: unit_from_mapping(doc.get("target") if rng.random() < 0.5 else value, field_name="target")
    if which < 0.85:
        return lambda: parse_dice(value)
    if which < 0.9:
        return lambda: parse_weapon_type(value)
    weapons = load_weapons().head(3)
    targets = load_targets().head(2)
    kind = rng.randrange(6)
    if kind == 0:
        return lambda: compare(value, targets)
    if kind == 1:
        return lambda: compare(weapons, value)
    if kind == 2:
        return lambda: compare(weapons, targets, shots_per_weapon=value)
    if kind == 3:
        return lambda: scenario_for(value, targets.iloc[0])
    if kind == 4:
        return lambda: filter_weapons(load_weapons(), name=value)
    return lambda: (load_units(), load_targets()) and filter_weapons(load_weapons(), rule=value, faction=value)


def _mutate_bytes(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(b) + 1)
        op = rng.random()
        chunk = rng.choice(
            [
                b"<",
                b">",
                b"/>",
                b"</a>",
                b"&x;",
                b"\x00",
                b"\xff\xfe",
                b'"',
                b"<!DOCTYPE a [<!ENTITY x 'y'>]>",
                b"<a>" * 300,
                b"9" * 400,
                b"nan",
                b"-1",
                b"<characteristic name='BS'>x</characteristic>",
            ]
        )
        if op < 0.4:
            b[i:i] = chunk
        elif op < 0.7:
            del b[i : i + rng.randint(1, 40)]
        else:
            b[i : i + len(chunk)] = chunk
    return bytes(b)


def files_case(rng: random.Random, workdir: Path) -> Any:
    """A mutated BattleScribe folder for ``praetor import``, or a roster for ``praetor roster``, or an odd path."""
    case = workdir / f"case{rng.randrange(10**9)}"
    case.mkdir()
    which = rng.random()
    if which < 0.45:
        gst = (FIXTURES / "mini" / "mini.gst").read_bytes()
        cat = (FIXTURES / "mini" / "mini.cat").read_bytes()
        src = case / "data"
        src.mkdir()
        (src / "mini.gst").write_bytes(_mutate_bytes(rng, gst) if rng.random() < 0.5 else gst)
        (src / "mini.cat").write_bytes(_mutate_bytes(rng, cat) if rng.random() < 0.8 else cat)
        odd = rng.random()
        if odd < 0.1:
            os.mkfifo(src / "x.cat")
        elif odd < 0.2:
            (src / "y.cat").mkdir()
        elif odd < 0.25:
            (src / "z.cat").symlink_to(src / "z.cat")
        out = case / rng.choice(["out", "missing/deep/out", "data/mini.cat"])
        return lambda: _cli(["import", str(src), "--out", str(out)])
    if which < 0.9:
        ros = (FIXTURES / ("entity.ros" if rng.random() < 0.1 else "tiny.ros")).read_bytes()
        data = _mutate_bytes(rng, ros) if rng.random() < 0.9 else ros
        path = case / "list.ros"
        if rng.random() < 0.3:
            path = case / "list.rosz"
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w") as z:
                z.writestr("list.ros", data)
            data = buf.getvalue() if rng.random() < 0.7 else _mutate_bytes(rng, buf.getvalue())
        path.write_bytes(data)
        return lambda: _cli(["roster", str(path)])
    odd = rng.randrange(5)
    if odd == 0:
        os.mkfifo(case / "pipe.ros")
        return lambda: _cli(["roster", str(case / "pipe.ros")])
    if odd == 1:
        os.mkfifo(case / "pipe.json")
        return lambda: _cli(["calc", str(case / "pipe.json")])
    if odd == 2:
        return lambda: _cli(["import", str(case / "missing")])
    if odd == 3:
        return lambda: _cli(["calc", str(case)])
    return lambda: _cli(["roster", str(case / "none.rosz")])


TEXT = [
    "",
    " ",
    "x",
    "x" * 100_000,
    "\ud800",
    "a\x00b",
    ".",
    "..",
    "/",
    "Rhino",
    "Rhino:2",
    "shooting",
    "melee",
    "Tactical Squad",
    "Tactical Sqaud",
    "Legionary (Tactical Squad)",
    "Power Fist",
    "D6",
    "2D6+1",
    "Heavy 3",
    "Rapid Fire, Rending (6+)",
    "3+",
    "-",
    "\u202e7",
    "²",
    "7" * 400,
]
INTS = [-(10**9), -1, 0, 1, 2, 3, 5, 10, 20, 100, 1000, 1001, 10**6, 2**63]
FLOATS = [0.0, 0.5, 1.0, 1.5, -0.1, float("nan"), float("inf"), 1e308]


def typed_case(rng: random.Random, workdir: Path) -> Any:
    """A public function called with values of the types it documents (only their values are bad): every end
    but an answer or a PraetorError is a failure."""
    import praetor_analysis as pa

    text, num = rng.choice(TEXT), rng.choice(INTS)
    path = rng.choice([*TEXT[:8], str(workdir), str(workdir / "none.ros"), str(FIXTURES / "tiny.ros")])
    weapon = pa.Weapon.from_mapping(BOLTER)
    kind = rng.randrange(14)
    if kind == 0:
        phases = rng.choice([text, [text], ["shooting"], ["melee", "melee"], [], ("shooting", "melee")])
        sheet = rng.choice(["Tactical Squad", text])
        target = rng.choice(["Rhino", "Legionary (Tactical Squad)", text])
        size = rng.choice([None, num])
        return lambda: pa.wargear_value(sheet, target, phases=phases, size=size, half_range=rng.random() < 0.5)
    if kind == 1:
        target = rng.choice([None, "Rhino", text])
        models = rng.choice([None, num])
        return lambda: pa.rate_roster(path, target, models=models if target else None)
    if kind == 2:
        return lambda: pa.read_roster(path)
    if kind == 3:
        field = rng.choice(["models", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "save", "wounds_taken"])
        return lambda: pa.Unit(**{field: num})
    if kind == 4:
        mode = rng.choice(["shooting", "melee", text])
        key = rng.choice(["attacks", "hits"])
        unit = pa.Unit(models=rng.choice([1, 5, 1000]), T=4, W=1)
        return lambda: pa.resolve_volley(pa.Volley(weapon, unit, mode=mode, **{key: num}), unit)
    if kind == 5:
        values = [rng.choice(FLOATS) for _ in range(rng.randint(0, 4))]
        return lambda: pa.Dist(values)
    if kind == 6:
        return lambda: pa.parse_dice(text if rng.random() < 0.7 else num)
    if kind == 7:
        return lambda: pa.parse_weapon_type(text)
    if kind == 8:
        block = {"name": rng.choice(["Tactical Squad", text]), "size": num, "loadout": [text] * rng.randint(0, 3)}
        return lambda: pa.build_loadout(rng.choice([block, text]))
    if kind == 9:
        return lambda: pa.calc_json(text)
    if kind == 10:
        return lambda: pa.filter_weapons(pa.load_weapons(), name=text)
    if kind == 11:  # praetor report: its names and sizes are read before any work
        spec = rng.choice([text, f"{text}:{num}", f"Rhino:{num}", f":{num}", "Rhino:²"])
        flag = rng.choice(["--targets", "--weapons"])
        return lambda: _cli(["report", flag, spec, "-o", str(workdir / "r.html")])
    if kind == 12:  # praetor roster: its flags
        extra = rng.choice([["--models", str(num)], ["--target", text], ["--target", "Rhino", "--models", str(num)]])
        return lambda: _cli(["roster", str(FIXTURES / "tiny.ros"), *extra, "--json"])
    return lambda: pa.calc({"attacker": {"BS": 4}, "weapon": rng.choice([text, "Lascannon"]), "target": text})


LAST_INPUT = [""]
CASES = {"calc": calc_case, "api": api_case, "files": files_case, "typed": typed_case}


def main(kind: str, seed: int, count: int) -> None:
    """Run ``count`` inputs of ``kind`` from ``seed``; one JSON line each."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    sys.setrecursionlimit(3000)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            try:
                fn = CASES[kind](rng, Path(tmp))
                outcome, detail = _limited(fn)
            except BaseException as exc:
                outcome, detail = "other", f"case: {type(exc).__name__}: {exc}"
            row = {"i": i, "outcome": outcome, "detail": detail}
            if outcome == "other" and os.environ.get("FUZZ_SHOW_INPUT"):
                row["input"] = LAST_INPUT[0][:2000]
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
