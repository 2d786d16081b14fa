"""Property-based tests of the engine (hypothesis, derandomized: the same examples every run).

Random SCENARIO.md scenarios (profiles, rules, targets) check:
- every pmf is non-negative, sums to 1 within 1e-12, and its mean is the stated mean;
- more attacks never lower P(at least k casualties); a better armour save never raises it; a higher
  Toughness never raises it, except with a wound re-roll (Shred) together with Rending, Breaching or
  Murderous Strike (a known paradox of the rules: more failed rolls are re-rolled into AP 2 / Instant
  Death wounds, README "Interpretations");
- agreement with the brute-force oracle (tests/oracle) on small cases (<= 3 attacks) to 1e-12.
Numerical robustness: 1,000 shots against closed forms (scipy.stats.binom in log space) and impossible
wounds without division by zero. The slow part fuzzes calc_json with random JSON and the XML readers with
random and mutated bytes.
"""

from __future__ import annotations

import json
import math
import shutil
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fixture_files import BASIC_MARINES
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from oracle import oracle_calc
from scipy import stats

from praetor_analysis import ProfileError, ScenarioError, calc, calc_json

FIXTURES = Path(__file__).parent / "fixtures"
FAST = settings(
    derandomize=True,
    deadline=None,
    max_examples=700,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
KEYS = ("hits", "wounds", "unsaved", "casualties")

WEAPON_RULES = [
    "Rending (4+)",
    "Rending (6+)",
    "Breaching (5+)",
    "Breaching (6+)",
    "Murderous Strike (6+)",
    "Shred",
    "Fleshbane",
    "Poisoned (3+)",
    "Instant Death",
    "Brutal (2)",
    "Deflagrate",
    "Twin-linked",
    "Master-crafted",
    "Ignores Cover",
    "Pinning",
    "Shell Shock (1)",
    "Gets Hot",
]
TARGET_RULES = ["Feel No Pain (5+)", "Feel No Pain (6+)", "Eternal Warrior", "Fearless", "Shrouded (5+)"]
SAVES = ["2+", "3+", "4+", "5+", "6+", "-"]


@st.composite
def scenarios(draw, *, max_shots: int = 6, max_models: int = 5, max_w: int = 3, rules=WEAPON_RULES) -> dict[str, Any]:
    """A shooting scenario in the SCENARIO.md form."""
    # one rule of each name (a weapon with both Rending (4+) and Rending (6+) is not a real profile)
    chosen = draw(st.lists(st.sampled_from(rules), max_size=3, unique_by=lambda r: r.split(" (")[0]))
    if "Brutal (2)" in chosen and "Deflagrate" in chosen:  # keep the state small
        chosen.remove("Deflagrate")
    return {
        "attacker": {"BS": draw(st.integers(1, 10)), "S": 4, "T": 4, "W": 1, "Save": "3+", "models": 1},
        "weapon": {
            "name": "w",
            "Range": '24"',
            "Strength": str(draw(st.integers(1, 10))),
            "AP": draw(st.sampled_from(["1", "2", "3", "4", "5", "6", "-"])),
            "Type": ", ".join([f"Assault {draw(st.integers(0, max_shots))}", *chosen]),
        },
        "target": {
            "name": "t",
            "Unit Type": draw(st.sampled_from(["Infantry", "Infantry (Heavy)"])),
            "models": draw(st.integers(1, max_models)),
            "WS": 4,
            "T": draw(st.integers(1, 10)),
            "W": draw(st.integers(1, max_w)),
            "I": 4,
            "Ld": draw(st.integers(2, 10)),
            "Save": draw(st.sampled_from(SAVES)),
            "Invulnerable": draw(st.sampled_from(["-", "-", "4+", "5+"])),
            "Cover": draw(st.sampled_from(["-", "-", "4+"])),
            "rules": draw(st.lists(st.sampled_from(TARGET_RULES), max_size=2, unique_by=lambda r: r.split(" (")[0])),
        },
    }


def shots_of(s: dict) -> int:
    return int(s["weapon"]["Type"].split(",")[0].split()[1])


def with_shots(s: dict, n: int) -> dict:
    rest = s["weapon"]["Type"].split(",")[1:]
    return {**s, "weapon": {**s["weapon"], "Type": ",".join([f"Assault {n}", *rest])}}


def sf(pmf: list[float], k: int) -> float:
    """P(X >= k), summed from the tail (keeps small values precise)."""
    return float(sum(pmf[k:]))


def check_pmfs(r: dict) -> None:
    for key in KEYS:
        pmf = np.asarray(r[key]["pmf"], dtype=float)
        assert pmf.size >= 1 and np.all(np.isfinite(pmf)), key
        assert pmf.min() >= 0.0, (key, pmf.min())
        assert abs(pmf.sum() - 1.0) <= 1e-12, (key, pmf.sum())
        assert r[key]["mean"] == pytest.approx(float(np.arange(pmf.size) @ pmf), rel=1e-12, abs=1e-12)
    pinned = r.get("pinned")
    assert pinned is None or 0.0 <= pinned <= 1.0


@FAST
@given(scenarios())
def test_every_pmf_is_a_distribution(s):
    r = calc(s)
    check_pmfs(r)
    assert len(r["casualties"]["pmf"]) - 1 <= s["target"]["models"]
    json.dumps(r, allow_nan=False)


@FAST
@given(scenarios(max_shots=5))
def test_more_attacks_never_lower_casualties(s):
    n = shots_of(s)
    r, more = calc(s), calc(with_shots(s, n + 1))
    for k in range(1, s["target"]["models"] + 1):
        assert sf(more["casualties"]["pmf"], k) >= sf(r["casualties"]["pmf"], k) - 1e-12, k


@FAST
@given(scenarios(), st.integers(0, 4))
def test_a_better_save_never_raises_casualties(s, i):
    worse, better = SAVES[i + 1], SAVES[i]
    rw = calc({**s, "target": {**s["target"], "Save": worse}})
    rb = calc({**s, "target": {**s["target"], "Save": better}})
    for k in range(1, s["target"]["models"] + 1):
        assert sf(rb["casualties"]["pmf"], k) <= sf(rw["casualties"]["pmf"], k) + 1e-12, k


def _paradox(s: dict) -> bool:
    """A wound re-roll with a rule triggered by the wound roll's face: monotonicity in T may fail."""
    t = s["weapon"]["Type"]
    return "Shred" in t and any(r in t for r in ("Rending", "Breaching", "Murderous Strike"))


@FAST
@given(scenarios())
def test_a_higher_toughness_never_raises_casualties(s):
    assume(s["target"]["T"] < 10 and not _paradox(s))
    r = calc(s)
    tough = calc({**s, "target": {**s["target"], "T": s["target"]["T"] + 1}})
    for k in range(1, s["target"]["models"] + 1):
        assert sf(tough["casualties"]["pmf"], k) <= sf(r["casualties"]["pmf"], k) + 1e-12, k


def test_the_toughness_paradox_is_real():
    # Heavy 15 S5 Shred Breaching (5+) kills more T5 than T4 Terminators (README, Interpretations).
    s = {
        "attacker": {"BS": 4, "models": 1},
        "weapon": {"name": "w", "Range": '24"', "Strength": "5", "AP": "5", "Type": "Heavy 15, Shred, Breaching (5+)"},
        "target": {"models": 5, "T": 4, "W": 1, "Save": "2+", "Unit Type": "Infantry"},
    }
    t4, t5 = calc(s), calc({**s, "target": {**s["target"], "T": 5}})
    assert t5["casualties"]["mean"] > t4["casualties"]["mean"]


ORACLE = settings(
    derandomize=True, deadline=None, max_examples=500, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@ORACLE
@given(scenarios(max_shots=3, max_models=3, max_w=2))
def test_engine_matches_the_brute_force_oracle(s):
    got, want = calc(s), oracle_calc(s)
    for key in KEYS:
        a, b = np.zeros(16), np.zeros(16)
        a[: len(got[key]["pmf"])] = got[key]["pmf"]
        b[: len(want[key])] = want[key]
        assert np.max(np.abs(a - b)) <= 1e-12, (key, got[key]["pmf"], want[key])
    if want.get("pinned") is None:
        assert got["pinned"] in (None, 0.0)
    else:
        assert got["pinned"] == pytest.approx(want["pinned"], abs=1e-12)


# --- numerical robustness -----------------------------------------------------------------------
def _thousand(bs: int, strength: int, toughness: int, save: str, models: int = 1000) -> dict:
    return {
        "attacker": {"BS": bs, "models": 1},
        "attacks": 1000,
        "weapon": {"name": "w", "Range": '24"', "Strength": str(strength), "AP": "-", "Type": "Heavy 1"},
        "target": {"models": models, "T": toughness, "W": 1, "Save": save, "Unit Type": "Infantry"},
    }


@pytest.mark.parametrize(
    "bs, strength, toughness, save, p",
    [
        (5, 10, 1, "-", 25 / 36),  # hit 5/6, wound 5/6
        (4, 4, 4, "-", 2 / 3 * 1 / 2),  # hit 3+, wound 4+
        (3, 3, 4, "4+", 1 / 2 * 1 / 3 * 1 / 2),
        (10, 10, 4, "-", (35 / 36) * 5 / 6),  # BS 10: 2+ re-rolling a 1 on 2+
        (1, 2, 5, "2+", 1 / 6 * 1 / 6 * 1 / 6),
    ],
)
def test_a_thousand_shots_match_the_binomial_in_log_space(bs, strength, toughness, save, p):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with np.errstate(divide="raise", invalid="raise", over="raise"):
            r = calc(_thousand(bs, strength, toughness, save))
    check_pmfs(r)
    k = np.arange(1001)
    logp = stats.binom.logpmf(k, 1000, p)
    for key in ("unsaved", "casualties"):
        pmf = np.zeros(1001)
        pmf[: len(r[key]["pmf"])] = r[key]["pmf"]
        assert np.all((pmf >= 0) & (pmf <= 1))
        ok = logp > math.log(1e-300)  # representable values, down to 1e-300
        rel = np.abs(pmf[ok] - np.exp(logp[ok])) / np.exp(logp[ok])
        assert rel.max() < 1e-9, (key, int(k[ok][np.argmax(rel)]), rel.max())
        assert np.all(pmf[~ok] < 1e-290)
    if p == 25 / 36:  # P(all 1000 unsaved) = (25/36)^1000 ~ 1.6e-159
        assert r["unsaved"]["pmf"][1000] == pytest.approx(math.exp(1000 * math.log(25 / 36)), rel=1e-9)
        assert r["casualties"]["pmf"][1000] == pytest.approx(math.exp(1000 * math.log(25 / 36)), rel=1e-9)


@pytest.mark.parametrize(
    "case",
    [
        {"weapon": {"Strength": "1", "AP": "-", "Type": "Heavy 1000"}, "target": {"T": 10, "W": 1, "Save": "2+"}},
        {
            "weapon": {"Strength": "1", "AP": "-", "Type": "Heavy 1000, Rending (6+)"},
            "target": {"T": 10, "W": 5, "Save": "2+"},
        },
        {
            "weapon": {"Strength": "3", "AP": "-", "Type": "Heavy 1000"},
            "target": {"T": 4, "W": 1, "Save": "2+", "Invulnerable": "2+"},
        },
        {"weapon": {"Strength": "4", "AP": "-", "Type": "Heavy 0"}, "target": {"T": 4, "W": 1, "Save": "2+"}},
        {
            "weapon": {"Strength": "1", "AP": "-", "Type": "Heavy 1000, Deflagrate, Pinning"},
            "target": {"T": 10, "W": 1, "Save": "2+"},
        },
        {
            "weapon": {"Strength": "10", "AP": "1", "Type": "Heavy 1000"},
            "target": {"T": 1, "W": 1, "Save": "-", "models": 1},
        },
        {
            "weapon": {"Strength": "4", "AP": "-", "Type": "Heavy 1000"},
            "target": {"T": 4, "W": 1, "Save": "2+", "rules": ["Feel No Pain (2+)"]},
        },
    ],
    ids=[
        "S1 vs T10",
        "S1 vs T10 rending",
        "2+ and 2+ invulnerable",
        "no shots",
        "deflagrate nothing",
        "overkill one model",
        "2+ then FNP 2+",
    ],
)
def test_impossible_or_certain_wounds_need_no_division_by_zero(case):
    s = {
        "attacker": {"BS": 4, "models": 1},
        "weapon": {"name": "w", "Range": '24"', **case["weapon"]},
        "target": {"models": 10, "Unit Type": "Infantry", **case["target"]},
    }
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with np.errstate(divide="raise", invalid="raise"):
            r = calc(s)
    check_pmfs(r)
    if case["weapon"]["Strength"] == "1" and "Rending" not in case["weapon"]["Type"]:
        assert r["wounds"]["pmf"] == [pytest.approx(1.0, abs=1e-15)]
        assert r["casualties"]["pmf"] == [pytest.approx(1.0, abs=1e-15)]


# --- slow: fuzzing ------------------------------------------------------------------------------
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["3+", "D6", "Heavy 2", "-", "User", "x2", "Rending (6+)", '48"']),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(
            st.text(max_size=8)
            | st.sampled_from(
                [
                    "attacker",
                    "weapon",
                    "target",
                    "attacks",
                    "hits",
                    "mode",
                    "T",
                    "W",
                    "Save",
                    "models",
                    "Type",
                    "Strength",
                    "AP",
                    "BS",
                    "rules",
                    "firing_units",
                    "formation",
                ]
            ),
            inner,
            max_size=5,
        )
    ),
    max_leaves=20,
)


def _clear(fn, *args) -> None:
    try:
        fn(*args)
    except (ScenarioError, ProfileError):
        pass


FUZZ = settings(
    derandomize=True, deadline=None, max_examples=3000, database=None, suppress_health_check=list(HealthCheck)
)


@pytest.mark.slow
@FUZZ
@given(json_values)
def test_fuzz_calc_json_with_random_json(value):
    try:
        text = json.dumps(value)
    except ValueError:
        return
    _clear(calc_json, text)


@st.composite
def mutated_scenarios(draw):
    s = draw(scenarios(max_shots=4, max_models=4))
    block = draw(st.sampled_from(["attacker", "weapon", "target"]))
    key = draw(st.sampled_from([*sorted(s[block]), "charging", "wounds_taken", "Colour"]))
    s[block] = {**s[block], key: draw(json_values)}
    return s


@pytest.mark.slow
@FUZZ
@given(mutated_scenarios())
def test_fuzz_calc_with_one_field_replaced(s):
    try:
        text = json.dumps(s)
    except ValueError:
        return
    try:
        r = calc_json(text)
    except ScenarioError:
        return
    if "casualties" in r:
        check_pmfs(r)


def _mutate(data: bytes, ops: list[tuple[int, int, bytes]]) -> bytes:
    b = bytearray(data)
    for kind, pos, chunk in ops:
        if not b:
            break
        i = pos % len(b)
        if kind == 0:
            b[i : i + len(chunk)] = chunk
        elif kind == 1:
            b[i:i] = chunk
        else:
            del b[i : i + len(chunk) + 1]
    return bytes(b)


XML_SNIPPETS = [
    b"<",
    b">",
    b"/>",
    b"</a>",
    b"<!DOCTYPE r>",
    b"&a;",
    b"&#0;",
    b'"',
    b"\x00",
    b"\xff",
    b'number="-1"',
    b'number="1e400"',
    b'value="nan"',
    b'<selection type="unit">',
    b'<!ENTITY a "x">',
    b'<?xml version="1.0" encoding="bogus"?>',
    b"]]>",
    b"<![CDATA[",
]
mutations = st.lists(
    st.tuples(
        st.integers(0, 2), st.integers(0, 10**7), st.sampled_from(XML_SNIPPETS) | st.binary(min_size=1, max_size=8)
    ),
    min_size=1,
    max_size=6,
)


def _roster_seed() -> bytes:
    return BASIC_MARINES.read_bytes()  # the first .test roster by name


ROSTER_SEED = _roster_seed()


@pytest.mark.slow
@settings(derandomize=True, deadline=None, max_examples=1500, database=None, suppress_health_check=list(HealthCheck))
@given(mutations)
def test_fuzz_roster_reader_with_mutated_xml(ops):
    from praetor_analysis.bsdata.files import UntrustedFileError
    from praetor_analysis.bsdata.roster import read_roster_bytes, roster_units_frame, roster_weapons_frame

    try:
        r = read_roster_bytes(_mutate(ROSTER_SEED, ops), "fuzz.ros")
    except UntrustedFileError:
        return
    roster_units_frame(r)
    roster_weapons_frame(r)


@pytest.mark.slow
@settings(derandomize=True, deadline=None, max_examples=1500, database=None, suppress_health_check=list(HealthCheck))
@given(st.binary(max_size=2000))
def test_fuzz_xml_parser_with_random_bytes(data):
    from praetor_analysis.bsdata.files import UntrustedFileError, parse_xml_bytes
    from praetor_analysis.bsdata.roster import read_roster_bytes

    for fn in (parse_xml_bytes, read_roster_bytes):
        try:
            fn(data, "fuzz.xml")
        except UntrustedFileError:
            pass


@pytest.mark.slow
@settings(derandomize=True, deadline=None, max_examples=400, database=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["mini.gst", "mini.cat"]), mutations)
def test_fuzz_catalogue_import_with_mutated_xml(tmp_path_factory, which, ops):
    from praetor_analysis.bsdata.files import BSData, UntrustedFileError
    from praetor_analysis.bsdata.importer import rule_names_frame, units_frame, weapons_frame

    d = tmp_path_factory.mktemp("fuzz")
    for p in (FIXTURES / "mini").iterdir():
        data = p.read_bytes()
        (d / p.name).write_bytes(_mutate(data, ops) if p.name == which else data)
    try:
        data = BSData.load(d)
    except UntrustedFileError:
        shutil.rmtree(d)
        return
    data.check_links()
    weapons = weapons_frame(data)
    units_frame(data)
    rule_names_frame(weapons)
    shutil.rmtree(d)
