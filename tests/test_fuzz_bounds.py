"""Bounds before work, one error type, every field checked (issue 17).

Two parts: the reproducers the adversarial run found, each a named test; and a seeded fuzz of at least
3,000 mutated inputs per entry point (``praetor calc`` documents, Python API calls, ``praetor import`` and
``praetor roster`` files), each input under a time limit in a worker process under a memory limit
(``tests/fuzz_worker.py``). An input may be answered or refused with one clear line; anything else is a
defect.
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from praetor_analysis.bsdata.files import UntrustedFileError, parse_xml_file
from praetor_analysis.cli import UsageError, main
from praetor_analysis.engine.allocation import TooLarge
from praetor_analysis.errors import MAX_MESSAGE_CHARS, PraetorError, ProfileError, ScenarioError
from praetor_analysis.scenario import limits
from praetor_analysis.scenario.calc import calc, calc_json

HERE = Path(__file__).parent
FUZZ_COUNT = 3000
BOLTER = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"}
BASE: dict[str, Any] = {
    "attacker": {"BS": 4, "S": 4, "models": 1},
    "weapon": BOLTER,
    "target": {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Ld": 7, "Save": "3+"},
}
FRAG = {"name": "Frag", "Range": '48"', "Strength": "4", "AP": "6", "Type": "Heavy 1, Blast"}
BLAST = {**BASE, "weapon": FRAG, "formation": {"models": 10}}
RHINO = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 11, "Side": 11, "Rear": 10, "HP": 3}
FIST = {"name": "Fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"}


def refused(doc: Any, field: str) -> str:
    """The message of the ScenarioError ``calc`` raises for ``doc``; it must name ``field``."""
    with pytest.raises(ScenarioError) as info:
        calc(doc)
    msg = str(info.value)
    assert field in msg, msg
    assert "\n" not in msg and len(msg) <= MAX_MESSAGE_CHARS, msg
    return msg


# --- one error type -------------------------------------------------------------------------------
def test_every_error_the_api_raises_is_a_praetor_error():
    for cls in (ProfileError, ScenarioError, TooLarge, UntrustedFileError, UsageError):
        assert issubclass(cls, PraetorError), cls
    err = ScenarioError("x" * 50_000, field="name", value=1)
    assert len(str(err)) <= MAX_MESSAGE_CHARS and err.field == "name" and err.value == 1


# --- memory and time bounds, checked before the work ----------------------------------------------
def test_mega_blast_over_150_models_is_refused_before_allocating():
    doc = {
        **BLAST,
        "weapon": {**FRAG, "Strength": "10", "AP": "2", "Type": "Primary 1, Apocalyptic Mega-blast"},
        "target": {**BASE["target"], "models": 150},
        "formation": {"models": 150},
    }
    assert "Mega-blast" in refused(doc, "target.models")


def test_melee_round_of_ten_a10_against_a_thousand_w20_is_refused():
    doc = {
        "mode": "melee",
        "weapon": FIST,
        "target_weapon": FIST,
        "attacker": {"models": 10, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 10, "Save": "3+"},
        "target": {"models": 1000, "WS": 4, "S": 4, "T": 4, "W": 20, "I": 4, "A": 1, "Save": "3+"},
    }
    assert "state cells" in refused(doc, "target.models")


def test_a_thousand_barrage_markers_are_refused_before_the_geometry():
    doc = {**BLAST, "weapon": {**FRAG, "Type": "Ordnance 1, Barrage, Blast"}, "attacks": 1000}
    refused(doc, "attacks")
    refused({**doc, "indirect": True}, "attacks")


def test_multiple_barrage_work_is_bounded_and_a_battery_on_a_blob_is_not():
    barrage = {**FRAG, "Type": "Ordnance 1, Barrage, Large Blast"}
    big = {
        **BLAST,
        "weapon": barrage,
        "attacks": 2,
        "target": {**BASE["target"], "models": 80},
        "formation": {"models": 80},
    }
    assert "Multiple Barrage work" in refused(big, "target.models")
    for markers in (2, 3, 5):  # a battery of Barrages over a 50-model Militia blob stays inside the bound
        blob = {**big, "attacks": markers, "target": {**BASE["target"], "models": 50}, "formation": {"models": 50}}
        from praetor_analysis.scenario.document import parse_scenario

        parse_scenario(blob)  # parsed and bounded: no refusal


def test_firing_units_volleys_are_counted_before_parsing():
    volley = {"attacker": BASE["attacker"], "weapon": BOLTER}
    refused({"target": BASE["target"], "firing_units": [[volley] * 20] * 100}, "firing_units")
    refused({"target": BASE["target"], "firing_units": [[volley]] * 100_000}, "firing_units")


def test_a_whole_rosters_firing_units_stay_inside_the_bound():
    volley = {"attacker": {"BS": 4, "models": 5}, "weapon": BOLTER}
    result = calc({"target": BASE["target"], "firing_units": [[volley] * 4] * 20})  # 80 volleys
    assert abs(sum(result["casualties"]["pmf"]) - 1) < 1e-9


def test_scenarios_in_an_array_are_counted():
    with pytest.raises(ScenarioError, match="scenarios in one array"):
        calc_json(json.dumps([BASE] * (limits.MAX_SCENARIOS + 1)))


def test_weapon_profiles_in_a_list_are_counted():
    refused({**BASE, "weapon": [BOLTER] * (limits.MAX_PROFILES + 1)}, "weapon")


def test_an_array_is_parsed_whole_before_any_scenario_is_computed():
    with pytest.raises(ScenarioError, match=r"^\[1\] target.T"):
        calc_json(json.dumps([BASE, {**BASE, "target": {**BASE["target"], "T": 11}}]))


# --- finite numbers only, booleans are not numbers ------------------------------------------------
@pytest.mark.parametrize(
    "doc, field",
    [
        ({**BLAST, "formation": {"models": 10, "firer_distance": float("nan")}}, "formation.firer_distance"),
        ({**BLAST, "formation": {"models": 10, "firer_distance": float("inf")}}, "formation.firer_distance"),
        ({**BLAST, "edges": {"xmin": float("nan")}}, "edges.xmin"),
        ({**BLAST, "edges": {"xmax": float("inf")}}, "edges.xmax"),
        ({**BLAST, "formation": {"models": 10, "gap": True}}, "formation.gap"),
        ({**BLAST, "formation": {"models": 10, "columns": True}}, "formation.columns"),
        ({**BLAST, "edges": {"xmin": True}}, "edges.xmin"),
        (
            {
                **BASE,
                "weapon": {**FRAG, "Type": "Heavy 1, Large Blast"},
                "target": RHINO,
                "formation": {"hull": [True, 4]},
            },
            "formation.hull",
        ),
        ({**BASE, "weapon": FRAG, "target": RHINO, "formation": {"hull": [float("inf"), 4]}}, "formation.hull"),
        ({**BLAST, "formation": {"models": 10, "gap": 10**400}}, "formation.gap"),
        ({**BLAST, "edges": {"ymin": -(10**400)}}, "edges.ymin"),
        ({**BLAST, "formation": {"positions": [[0, float("nan")]] * 10}}, "formation.positions"),
        ({**BLAST, "formation": {"positions": [[True, 0]] * 10}}, "formation.positions"),
        ({**BLAST, "edges": {"xmin": 5, "xmax": 0}}, "edges.xmin"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_non_finite_and_boolean_numbers_are_refused(doc, field):
    refused(doc, field)


def test_a_5000_digit_integer_names_its_field():
    msg = refused({**BASE, "attacks": 10**5000}, "attacks")
    assert "digits" in msg
    with pytest.raises(ScenarioError, match="scenario: invalid JSON"):
        calc_json('{"attacks": ' + "9" * 5000 + "}")


# --- text where text is expected; misplaced and unknown fields ------------------------------------
@pytest.mark.parametrize(
    "doc, field",
    [
        ({**BASE, "mode": ["shooting"]}, "mode"),
        ({**BASE, "weapon": [BOLTER, BOLTER], "metric": ["wipe"]}, "metric"),
        ({**BLAST, "formation": {"preset": ["legion_tactical_10_32mm_2in"]}}, "formation.preset"),
        ({**BASE, "target": {**RHINO, "facing": ["Front"]}}, "target.facing"),
        ({**BASE, "weapon": [[BOLTER]]}, "weapon[0]"),
        ({**BASE, "name": {"a": 1}}, "name"),
        ({**BASE, "name": "x" * 20_000}, "name"),
        ({**BASE, "name": float("inf")}, "name"),
        ({**BASE, "weapon": [BOLTER, {**BOLTER, "name": float("inf")}]}, "name"),
        ({**BASE, "target": {**BASE["target"], "Move": "7" * 1_000_000}}, "target.Move"),
        ({**BASE, "target": {**BASE["target"], "M": [7]}}, "target.M"),
        ({**BASE, "attacker": {**BASE["attacker"], "points": "lots"}}, "attacker.points"),
        ({**BASE, "attacker": {**BASE["attacker"], "points": float("nan")}}, "attacker.points"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_text_and_names_are_checked(doc, field):
    refused(doc, field)


def test_real_move_and_points_values_pass():
    for move in ("7", '7"', "9*", "-", 12):
        calc({**BASE, "target": {**BASE["target"], "Move": move, "points": 125}})


@pytest.mark.parametrize(
    "doc, field",
    [
        ({**BASE, "aim": 0}, "aim"),
        ({**BASE, "aim": {"model": 0}}, "aim"),
        ({**BASE, "indirect": 0}, "indirect"),
        ({**BASE, "edges": 0}, "edges"),
        ({**BASE, "edges": {"xmin": 0}}, "edges"),
        ({**BASE, "target": {**BASE["target"], "moved": "yes"}}, "target.moved"),
        ({**BASE, "target": {**BASE["target"], "moved": True}}, "target.moved"),
        ({**BASE, "target": {**BASE["target"], "facing": "Side"}}, "target.facing"),
        ({**BASE, "target": {**BASE["target"], "Front": 12}}, "target.Front"),
        ({"target": BASE["target"], "half_range": True, "firing_units": [[{"weapon": BOLTER}]]}, "half_range"),
        ({"target": BASE["target"], "firing_units": [[{"weapon": BOLTER, "target": {}}]]}, "firing_units[0][0].target"),
        ({**BLAST, "formation": {"preset": "legion_tactical_10_32mm_2in", "gap": 3}}, "formation.gap"),
        ({**BLAST, "formation": {"preset": "terminators_5_40mm_2in"}}, "formation.preset"),
        ({**BLAST, "formation": {"hull": [4, 2]}}, "formation.hull"),
        ({**BLAST, "formation": {"positions": [[0, 0]] * 10, "gap": 1}}, "formation.gap"),
        ({**BASE, "mode": "melee", "weapon": FIST, "snap_shots": True}, "snap_shots"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_misplaced_fields_are_refused(doc, field):
    refused(doc, field)


def test_moved_and_facing_still_work_on_a_vehicle():
    r = calc(
        {
            **BASE,
            "attacker": {"A": 2, "S": 4},
            "mode": "melee",
            "weapon": FIST,
            "target": {**RHINO, "WS": None, "moved": True, "facing": "Rear"},
        }
    )
    assert r["hull_points"]["mean"] > 0


# --- the command line: exit 2 for bad input and file-system errors --------------------------------
def _run(args: list[str], capsys) -> tuple[int, str]:
    rc = main(args)
    err = capsys.readouterr().err.strip()
    return rc, err


def test_import_of_a_fifo_named_cat_is_refused_without_waiting(tmp_path, capsys):
    src = tmp_path / "data"
    src.mkdir()
    (src / "mini.gst").write_bytes((HERE / "fixtures" / "mini" / "mini.gst").read_bytes())
    os.mkfifo(src / "x.cat")
    rc, err = _run(["import", str(src), "--out", str(tmp_path / "out")], capsys)
    assert rc == 2 and "x.cat" in err and "regular file" in err, err
    with pytest.raises(UntrustedFileError, match="regular file"):
        parse_xml_file(src / "x.cat")


def test_import_of_a_folder_named_cat_is_refused(tmp_path, capsys):
    src = tmp_path / "data"
    src.mkdir()
    (src / "mini.gst").write_bytes((HERE / "fixtures" / "mini" / "mini.gst").read_bytes())
    (src / "y.cat").mkdir()
    rc, err = _run(["import", str(src), "--out", str(tmp_path / "out")], capsys)
    assert rc == 2 and "y.cat" in err, err


def test_import_into_a_file_is_exit_2(tmp_path, capsys):
    src = tmp_path / "data"
    src.mkdir()
    for name in ("mini.gst", "mini.cat"):
        (src / name).write_bytes((HERE / "fixtures" / "mini" / name).read_bytes())
    (tmp_path / "occupied").write_text("x")
    rc, err = _run(["import", str(src), "--out", str(tmp_path / "occupied")], capsys)
    assert rc == 2 and "internal error" not in err and err.count("\n") == 0, err


def test_roster_of_a_fifo_or_a_folder_is_refused(tmp_path, capsys):
    os.mkfifo(tmp_path / "list.ros")
    for path in (tmp_path / "list.ros", tmp_path):
        rc, err = _run(["roster", str(path)], capsys)
        assert rc == 2 and "internal error" not in err, err


def test_report_into_a_folder_or_a_missing_folder_is_refused_before_the_work(tmp_path, capsys):
    pytest.importorskip("plotly")
    for out in (tmp_path, tmp_path / "missing" / "r.html"):
        rc, err = _run(["report", "-o", str(out)], capsys)
        assert rc == 2 and "-o" in err and "internal error" not in err, err


def test_calc_bad_inputs_exit_2_naming_the_field(tmp_path, capsys):
    doc = {**BASE, "weapon": [[BOLTER]]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    rc, err = _run(["calc", str(path)], capsys)
    assert rc == 2 and "weapon[0]" in err, err
    path.write_text('{"attacks": ' + "9" * 5000 + "}")
    rc, err = _run(["calc", str(path)], capsys)
    assert rc == 2 and "scenario" in err, err


# --- the fuzz -------------------------------------------------------------------------------------
def _fuzz(kind: str, seed: int, count: int) -> collections.Counter:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PYTHONPATH": str(HERE.parent)}
    p = subprocess.run(
        [sys.executable, str(HERE / "fuzz_worker.py"), kind, str(seed), str(count)],
        capture_output=True,
        text=True,
        env=env,
        timeout=3600,
    )
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    counts = collections.Counter(r["outcome"] for r in rows)
    others = [r for r in rows if r["outcome"] == "other"]
    print(f"fuzz {kind}: {len(rows)} inputs, {dict(counts)}")
    assert p.returncode == 0, p.stderr[-2000:]
    assert len(rows) == count, (len(rows), p.stderr[-2000:])
    assert not others, others[:10]
    return counts


@pytest.mark.slow
@pytest.mark.parametrize(
    "kind, seed, count", [("calc", 17, FUZZ_COUNT), ("api", 1717, FUZZ_COUNT), ("files", 171717, FUZZ_COUNT),
                          ("typed", 26, 1000)]
)  # fmt: skip
def test_fuzz_every_input_is_answered_or_refused_cleanly(kind, seed, count):
    counts = _fuzz(kind, seed, count)
    assert counts["refused"] > 0 and (counts["answer"] > 0 or kind == "files")


def test_three_barrages_over_a_packed_blob_are_refused_and_two_are_not():
    from praetor_analysis.scenario.document import parse_scenario

    barrage = {**FRAG, "Type": "Ordnance 1, Barrage, Large Blast"}
    packed = {"models": 50, "base_mm": 25, "gap": 0, "columns": 8}  # 13,668 triples a Large Blast hits together
    doc = {**BLAST, "weapon": barrage, "target": {**BASE["target"], "models": 50}, "formation": packed}
    assert "estimated CPU seconds" in refused({**doc, "attacks": 3}, "target.models")
    parse_scenario({**doc, "attacks": 2})  # a Hit marker touches the first marker only: no triple search
    blob = {**doc, "target": {**BASE["target"], "models": 20}, "attacks": 3}
    parse_scenario({**blob, "formation": {"models": 20, "gap": 1}})  # a 20-model blob in fives: 288 triples
