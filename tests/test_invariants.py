"""Oracle (b): invariants over a generated table of 600+ scenarios (larger than brute force can reach)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scenarios import TARGETS

from praetor_analysis.scenario.calc import calc

RULE_SETS = [
    [],
    ["Rending (6+)"],
    ["Shred", "Breaching (5+)"],
    ["Brutal (2)"],
    ["Murderous Strike (5+)"],
    ["Deflagrate"],
    ["Twin-linked", "Pinning"],
    ["Master-crafted", "Instant Death"],
    ["Poisoned (3+)"],
]


def table() -> list[dict]:
    out = []
    for bs, strength, ap, rules, t, shots in itertools.product(
        [2, 4, 7], ["3", "5", "8"], ["2", "5"], RULE_SETS, TARGETS, [6, 15]
    ):
        if len(out) % 5 == 4:  # thin the product deterministically to keep the suite quick
            out.append(None)
            continue
        out.append(
            {
                "attacker": {"BS": bs, "S": 4, "models": 1},
                "weapon": {
                    "name": "w",
                    "Range": '24"',
                    "Strength": strength,
                    "AP": ap,
                    "Type": ", ".join([f"Heavy {shots}", *rules]),
                },
                "target": {**t, "models": 5},
            }
        )
    return [s for s in out if s is not None]


SCENARIOS = table()


def test_table_is_large_enough():
    assert len(SCENARIOS) >= 500


def _sf(pmf: list[float], k: int) -> float:
    return float(sum(pmf[k:]))


@pytest.mark.parametrize("i", range(0, len(SCENARIOS), 1))
def test_invariants(i):
    s = SCENARIOS[i]
    r = calc(s)
    for key in ("hits", "wounds", "unsaved", "casualties"):
        pmf = np.array(r[key]["pmf"])
        assert abs(pmf.sum() - 1.0) <= 1e-12, key
        assert np.all(pmf >= 0.0)
        assert r[key]["mean"] == pytest.approx(float(np.dot(np.arange(pmf.size), pmf)), abs=1e-12)
    assert len(r["casualties"]["pmf"]) - 1 <= s["target"]["models"]
    if "Deflagrate" not in s["weapon"]["Type"]:
        # every casualty needs at least one unsaved wound, every unsaved wound a wound and a hit
        for k in range(1, 6):
            assert _sf(r["casualties"]["pmf"], k) <= _sf(r["unsaved"]["pmf"], k) + 1e-12
            if "Brutal" not in s["weapon"]["Type"]:
                assert _sf(r["unsaved"]["pmf"], k) <= _sf(r["wounds"]["pmf"], k) + 1e-12
            assert _sf(r["wounds"]["pmf"], k) <= _sf(r["hits"]["pmf"], k) + 1e-12
    # more attacks never lower P(at least k casualties)
    more = calc({**s, "attacks": int(s["weapon"]["Type"].split(",")[0].split()[1]) + 1})
    for k in range(1, 6):
        assert _sf(more["casualties"]["pmf"], k) >= _sf(r["casualties"]["pmf"], k) - 1e-12
    # a better armour save never raises it
    better = {**s, "target": {**s["target"], "Save": "2+"}}
    worse = {**s, "target": {**s["target"], "Save": "6+"}}
    rb, rw = calc(better), calc(worse)
    for k in range(1, 6):
        assert _sf(rb["casualties"]["pmf"], k) <= _sf(rw["casualties"]["pmf"], k) + 1e-12
    # higher Toughness never raises it, except with a wound re-roll: Shred re-rolls more failures against
    # a tougher target, and a re-roll can turn into a Breaching/Rending AP 2 wound (a real paradox of the
    # rules, found by this test: Heavy 15 S5 Shred Breaching (5+) kills more T5 than T4 Terminators).
    if "Shred" in s["weapon"]["Type"]:
        return
    tough = calc({**s, "target": {**s["target"], "T": s["target"]["T"] + 1}})
    for k in range(1, 6):
        assert _sf(tough["casualties"]["pmf"], k) <= _sf(r["casualties"]["pmf"], k) + 1e-12
