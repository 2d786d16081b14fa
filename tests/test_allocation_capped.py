"""The capped allocation chain (only the wounds that change the unit's state, at most models x wounds of them
per group) against brute-force enumeration of every die (tests/oracle), on cases with more hits than the cap,
to 1e-12; and against the uncapped dynamic programme (the Deflagrate path) on larger ones."""

from __future__ import annotations

import numpy as np
import pytest
from oracle import oracle_calc, oracle_sequence
from scenarios import shooting

from praetor_analysis.engine.allocation import Allocator, UnitSpace, WoundGroup
from praetor_analysis.engine.damage import damage_packet
from praetor_analysis.prob.dice import binomial_matrix, binomial_pmf, binomial_table
from praetor_analysis.rules.wound import WoundKind
from praetor_analysis.scenario.calc import calc

TOL = 1e-12

PAIR = {"name": "pair", "Unit Type": "Infantry", "models": 2, "WS": 4, "T": 4, "W": 2, "I": 4, "Ld": 8, "Save": "3+"}
BRUTE = {"name": "brute", "Unit Type": "Infantry", "models": 1, "WS": 4, "T": 5, "W": 3, "I": 4, "Ld": 8, "Save": "4+"}
DAMAGED = {**PAIR, "name": "damaged pair", "models": 2, "wounds_taken": 1}

CASES = [
    (["Brutal (2)"], "6", "4", "4", PAIR),
    (["Rending (5+)", "Brutal (2)", "Pinning"], "6", "4", "4", PAIR),
    (["Murderous Strike (6+)", "Pinning", "Shell Shock (1)"], "7", "4", "5", PAIR),
    (["Instant Death", "Breaching (4+)"], "6", "4", "4", PAIR),
    (["Breaching (4+)", "Brutal (2)"], "5", "5", "4", BRUTE),
    (["Rending (5+)", "Murderous Strike (6+)"], "6", "5", "3", BRUTE),
    (["Brutal (2)", "Pinning"], "6", "4", "4", DAMAGED),
    (["Instant Death", "Rending (5+)"], "6", "4", "4", DAMAGED),
]


def _close(got: list[float], want: list[float], what: str) -> None:
    n = max(len(got), len(want))
    a, b = np.zeros(n), np.zeros(n)
    a[: len(got)], b[: len(want)] = got, want
    assert np.max(np.abs(a - b)) <= TOL, f"{what}: engine {a.tolist()} != oracle {b.tolist()}"


@pytest.mark.parametrize(("rules", "shots", "strength", "ap", "target"), CASES, ids=[", ".join(c[0]) for c in CASES])
def test_capped_chain_matches_enumeration_beyond_the_cap(rules, shots, strength, ap, target):
    scenario = shooting(rules, shots=shots, strength=strength, ap=ap, target=target)
    assert int(shots) > target["models"] * target["W"]  # more hits than the cap: the lumped tail is used
    got, want = calc(scenario), oracle_calc(scenario)
    for key in ("hits", "wounds", "unsaved", "casualties"):
        _close(got[key]["pmf"], want[key], key)
    if want.get("pinned") is not None:
        assert got["pinned"] == pytest.approx(want["pinned"], abs=TOL)


def test_capped_chain_across_firing_units_matches_enumeration():
    strip = lambda s: {k: v for k, v in s.items() if k != "target"}  # noqa: E731
    unit_a = [strip(shooting(["Brutal (2)", "Pinning"], shots="5", strength="4", ap="4"))]
    unit_b = [strip(shooting(["Instant Death", "Rending (5+)"], shots="5", strength="4", ap="4"))]
    got = calc({"target": PAIR, "firing_units": [unit_a, unit_b]})
    want = oracle_sequence(PAIR, [unit_a, unit_b])
    for key in ("casualties", "unsaved"):
        _close(got[key]["pmf"], want[key], key)
    assert got["pinned"] == pytest.approx(want["pinned"], abs=TOL)


def _groups(wounds: int) -> list[WoundGroup]:
    """Instant Death (p 0.1), then AP 2 with Brutal (2) (p 0.2), then the rest with Brutal (2) (p 0.3)."""
    return [
        WoundGroup(0.1, damage_packet(WoundKind(None, instant_death=True), 0.5, wounds=wounds)),
        WoundGroup(0.2, damage_packet(WoundKind(2), 0.8, wounds=wounds, brutal=2)),
        WoundGroup(0.3, damage_packet(WoundKind(4), 0.4, wounds=wounds, brutal=2)),
    ]


@pytest.mark.parametrize(
    ("models", "wounds", "hits", "pinning"), [(3, 2, 40, False), (5, 3, 60, True), (2, 4, 25, True)]
)
def test_capped_chain_equals_the_uncapped_programme(models, wounds, hits, pinning):
    space = UnitSpace(models, wounds)
    flags = 4 if pinning else 1
    start = np.zeros((flags, space.size))
    start[0] = space.start()
    x = binomial_pmf(hits, 0.7)[:, None, None] * start[None]
    alloc = Allocator(space, pinning=pinning, level=1)
    capped = alloc.resolve(x, _groups(wounds), track=False)
    uncapped = alloc.resolve(x, _groups(wounds), track=True, u_max=2 * hits).sum(axis=-3, keepdims=True)
    assert capped.shape == uncapped.shape
    assert np.max(np.abs(capped - uncapped)) <= TOL
    assert capped.sum() == pytest.approx(1.0, abs=TOL)


def test_binomial_table_is_the_first_columns_of_the_matrix():
    for n, p, k in ((0, 0.3, 0), (7, 0.25, 3), (30, 0.6, 40), (12, 0.0, 4), (12, 1.0, 4)):
        full = binomial_matrix(n, p)
        assert np.array_equal(binomial_table(n, p, k), full[:, : min(k, n) + 1])
