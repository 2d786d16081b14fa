"""Edition 3: generated combinations of rules and profiles against the die-by-die oracle (seeded hypothesis)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from oracle_hh3 import oracle_hh3

from praetor_analysis.scenario.calc import calc

RULES = st.lists(
    st.sampled_from(
        [
            "Rending (5+)", "Rending (6+)", "Critical Hit (5+)", "Critical Hit (6+)", "Breaching (5+)",
            "Breaching (6+)", "Shred (5+)", "Shred (6+)", "Poisoned (4+)", "Deflagrate (3)", "Deflagrate (5)",
            "Pinning (1)", "Suppressive (0)", "Stun (2)", "Panic (1)", "Precision (5+)", "Shock (Stunned)", "Phage (T)",
        ]
    ),
    max_size=4,
    unique_by=lambda r: r.split(" ")[0],
)  # fmt: skip


@st.composite
def documents(draw):
    melee = draw(st.booleans())
    rules = ", ".join(draw(RULES))
    ap = draw(st.sampled_from(["-", 2, 3, 4, 5]))
    damage = draw(st.sampled_from([1, 2, "D3"]))
    if melee:
        weapon = {"IM": "I", "AM": "A", "SM": draw(st.sampled_from(["S", "+1", "+3", "-1"])), "AP": ap, "D": damage}
    else:
        weapon = {"R": 24, "FP": 1, "RS": draw(st.integers(2, 9)), "AP": ap, "D": damage}
    weapon["Special Rules"] = rules
    target_rules = draw(st.lists(st.sampled_from(["Feel No Pain (5+)", "Shrouded (5+)", "Eternal Warrior (1)"]),
                                 max_size=2, unique=True))  # fmt: skip
    target = {
        "Type": draw(st.sampled_from(["Infantry", "Infantry (Heavy)", "Walker"])), "WS": draw(st.integers(1, 10)),
        "T": draw(st.integers(2, 8)), "W": draw(st.integers(1, 3)), "LD": draw(st.integers(4, 10)),
        "CL": draw(st.integers(4, 10)), "SAV": draw(st.sampled_from(["-", "2+", "3+", "5+"])),
        "INV": draw(st.sampled_from(["-", "4+", "5+"])), "Cover": draw(st.sampled_from(["-", "5+"])),
        "models": draw(st.integers(1, 3)), "rules": target_rules,
    }  # fmt: skip
    attacker = {"WS": draw(st.integers(1, 10)), "BS": draw(st.integers(1, 10)), "S": draw(st.integers(2, 6)), "A": 1,
                "models": draw(st.integers(1, 2))}  # fmt: skip
    doc = {"edition": "hh3", "attacker": attacker, "weapon": weapon, "target": target}
    if melee:
        doc["mode"] = "melee"
    else:
        doc["snap_shots"] = draw(st.booleans())
    return doc


def _pmf(dist):
    return {k: p for k, p in enumerate(dist["pmf"]) if p > 0}


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(documents())
def test_generated_combinations_equal_the_oracle(doc):
    _assert_equal(calc(doc), oracle_hh3(doc))


def _assert_equal(got, want):
    """Every count, status (null: nothing can cause it, a certain 0) and Phage chance at 1e-12."""
    for key in ("hits", "critical_hits", "wounds", "unsaved", "casualties", "damage"):
        a, b = _pmf(got[key]), want[key]
        assert all(abs(a.get(k, 0.0) - b.get(k, 0.0)) <= 1e-12 for k in set(a) | set(b)), (key, a, b)
    assert all(abs(got.get("phage", {}).get(k, 0.0) - v) <= 1e-12 for k, v in want["phage"].items())
    assert set(got.get("phage", {})) >= set(want["phage"])
    for name, p in got["statuses"].items():
        assert abs((0.0 if p is None else p) - want["statuses"][name]) <= 1e-12, (name, p, want["statuses"][name])


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(documents())
def test_invariants(doc):
    """pmfs sum to 1; casualties never exceed the models; damage never exceeds their wounds; a worse save (none)
    never lowers the expected casualties."""
    got = calc(doc)
    for key in ("hits", "critical_hits", "wounds", "unsaved", "casualties", "damage"):
        assert abs(sum(got[key]["pmf"]) - 1.0) <= 1e-12
    assert len(got["casualties"]["pmf"]) - 1 <= doc["target"]["models"]
    assert len(got["damage"]["pmf"]) - 1 <= doc["target"]["models"] * doc["target"]["W"]
    worse = calc({**doc, "target": {**doc["target"], "SAV": "-", "INV": "-", "Cover": "-"}})
    assert worse["casualties"]["mean"] >= got["casualties"]["mean"] - 1e-12


@st.composite
def sequences(draw):
    """Two or three volleys in one or two firing units at one target (the first document's)."""
    first = draw(documents())
    volleys = [first, *draw(st.lists(documents(), min_size=1, max_size=2))]
    for v in volleys:
        v["attacker"]["models"] = 1
    blocks = [{k: v for k, v in d.items() if k not in ("edition", "target")} for d in volleys]
    split = draw(st.integers(1, len(blocks)))
    units = [blocks[:split], blocks[split:]] if split < len(blocks) else [blocks]
    return {"edition": "hh3", "target": first["target"], "firing_units": units}


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(sequences())
def test_generated_sequences_equal_the_oracle(doc):
    _assert_equal(calc(doc), oracle_hh3(doc))
