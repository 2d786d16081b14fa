"""The capped allocation chain's cost (issue 37 item 6): one wound applied by the states' structure equals the
matrix product; the factored first group equals the full tensor; the one cost model the refusal follows never
falls when attacks or models grow, and a lone group (Brutal or Murderous Strike against multi-wound models)
costs at most a constant times the attacks times the models."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from praetor_analysis.engine.allocation import (
    MAX_CHAIN_SECONDS,
    Allocator,
    TooLarge,
    UnitSpace,
    WoundGroup,
    capped_seconds,
    check_work,
)
from praetor_analysis.engine.damage import damage_packet
from praetor_analysis.prob.dice import binomial_pmf
from praetor_analysis.rules.wound import WoundKind
from praetor_analysis.scenario.calc import calc

TOL = 1e-12


@pytest.mark.parametrize(("models", "wounds"), [(0, 1), (1, 1), (3, 1), (1, 2), (4, 2), (5, 3), (2, 6)])
def test_shift_equals_the_damage_matrices(models: int, wounds: int) -> None:
    rng = np.random.default_rng(models * 10 + wounds)
    space = UnitSpace(models, wounds)
    x = rng.random((3, 2, space.size))
    for _ in range(5):
        weights = rng.random(wounds + 2) * (rng.random(wounds + 2) < 0.7)
        want = sum(w * (x @ np.asarray(space.damage_matrix(min(d, wounds)))) for d, w in enumerate(weights))
        assert np.max(np.abs(space.shift(x, weights) - want)) <= TOL


def _groups(wounds: int, kinds: int) -> list[WoundGroup]:
    """``kinds`` priority groups: Brutal (2) at AP 2, Instant Death, then Brutal (2) against a 3+ save."""
    ap2, plain = WoundKind(ap=2), WoundKind(ap=5)
    out = [
        WoundGroup(0.2, damage_packet(ap2, 0.9, wounds=wounds, brutal=2)),
        WoundGroup(0.1, damage_packet(WoundKind(ap=5, instant_death=True), 2 / 3, wounds=wounds)),
        WoundGroup(0.3, damage_packet(plain, 1 / 3, wounds=wounds, brutal=2)),
    ]
    return out[-kinds:] if kinds == 1 else out[:kinds]


@pytest.mark.parametrize("kinds", [1, 2, 3])
@pytest.mark.parametrize(("models", "wounds", "hits"), [(3, 2, 9), (2, 3, 4), (5, 2, 12)])
def test_factored_chain_equals_the_full_tensor(kinds: int, models: int, wounds: int, hits: int) -> None:
    space = UnitSpace(models, wounds)
    pmf = binomial_pmf(hits, 0.6)
    for pinning in (False, True):
        flags = 4 if pinning else 1
        start = np.zeros((flags, space.size))
        start[0] = space.start(1 if wounds > 1 else 0)
        x = pmf[:, None, None] * start[None]
        groups = _groups(wounds, kinds)
        alloc = Allocator(space, pinning=pinning, level=1)
        full = alloc.resolve(x, groups, track=False)
        fast = alloc.resolve(x, groups, track=False, factors=(pmf, start))
        assert np.max(np.abs(full - fast)) <= TOL
        assert np.isclose(fast.sum(), 1.0, atol=TOL)


ATTACKS = [1, 10, 30, 100, 300, 1000]
MODELS = [1, 5, 20, 40, 60, 80, 100, 200, 500, 1000]


def _seconds(attacks: int, models: int, wounds: int, groups: int, factored: bool) -> float:
    cap = models * wounds
    return capped_seconds((attacks + 1, 1, (models + 1) * wounds), min(cap, attacks) + 1, groups, factored=factored)


@pytest.mark.parametrize(("groups", "factored"), list(itertools.product([1, 2, 3], [True, False])))
def test_cost_never_falls_with_more_attacks_or_models(groups: int, factored: bool) -> None:
    for wounds in (2, 3, 6):
        grid = np.array([[_seconds(a, m, wounds, groups, factored) for m in MODELS] for a in ATTACKS])
        assert (np.diff(grid, axis=0) >= 0).all() and (np.diff(grid, axis=1) >= 0).all()


def test_a_lone_group_costs_at_most_attacks_times_models() -> None:
    """Brutal or Murderous Strike alone against multi-wound models: the estimate over attacks x models x wounds
    is bounded by one constant over the whole grid (the old chain's dense product was attacks x models^2 x
    wounds^2: 20 to 40 two-wound models at 1,000 attacks cost 27x)."""
    ratios = [_seconds(a, m, w, 1, True) / (a * m * w) for a in ATTACKS for m in MODELS for w in (2, 3, 6) if a >= 10]
    assert max(ratios) <= 2 * (100e-6 / 10 + 5e-9 * 2 + 0.2e-9)


def _scenario(attacks: int, models: int, wounds: int, rules: str) -> dict[str, object]:
    return {
        "attacker": {"BS": 4, "S": 4},
        "attacks": attacks,
        "weapon": {"name": "b", "Range": '24"', "Strength": "4", "AP": "5", "Type": f"Heavy 1, {rules}"},
        "target": {"models": models, "T": 4, "W": wounds, "Save": "3+"},
    }


@pytest.mark.parametrize("rules", ["Brutal (2)", "Murderous Strike (6+)", "Rending (6+), Brutal (2)"])
def test_the_cases_of_the_issue_run(rules: str) -> None:
    """1,000 attacks at 20 to 80 two-wound models, 300 at 100 (refused before), 1,000 at 200 three-wound models:
    each is answered and sums to one; the estimate is far below the limit."""
    for attacks, models, wounds in [(1000, 20, 2), (1000, 40, 2), (300, 100, 2), (1000, 200, 3)]:
        result = calc(_scenario(attacks, models, wounds, rules))
        assert sum(result["casualties"]["pmf"]) == pytest.approx(1.0, abs=1e-9)
        assert _seconds(attacks, models, wounds, 2, True) < MAX_CHAIN_SECONDS / 10


def test_the_refusal_follows_the_estimate() -> None:
    shape = (1001, 1, 1001 * 10)
    powers = 1001
    assert capped_seconds(shape, powers, 3) > MAX_CHAIN_SECONDS
    with pytest.raises(TooLarge, match="too large to compute exactly"):
        check_work(shape, powers, 3)
    check_work(shape, powers, 1, factored=True)  # a lone group of the same size runs
