"""The one n-fold convolution (prob.convolution) against brute-force enumeration and scipy."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from praetor_analysis.prob.convolution import compound, compound_many, convolve_power, convolve_powers
from praetor_analysis.prob.dice import sum_of_iid, thin, thin_many
from praetor_analysis.prob.dist import Dist

EACH = np.array([0.2, 0.5, 0.0, 0.3])  # outcomes 0, 1, 3


def enumerate_sum(each: np.ndarray, n: int) -> np.ndarray:
    """pmf of the sum of n copies by listing every tuple of outcomes."""
    out = np.zeros(n * (each.size - 1) + 1)
    for combo in itertools.product(range(each.size), repeat=n):
        out[sum(combo)] += np.prod([each[c] for c in combo])
    return out


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 6])
def test_power_matches_enumeration(n):
    assert np.max(np.abs(convolve_power(EACH, n) - enumerate_sum(EACH, n))) <= 1e-15
    powers = list(convolve_powers(EACH, n))
    assert len(powers) == n + 1
    for k, p in enumerate(powers):
        assert np.max(np.abs(p - enumerate_sum(EACH, k))) <= 1e-15


def test_power_keeps_tails_and_matches_binomial():
    # Reference: scipy.stats.binom; the top outcome of 200 coins with p = 0.1 is 1e-200.
    coin = np.array([0.9, 0.1])
    got = convolve_power(coin, 200)
    assert got[200] == pytest.approx(1e-200, rel=1e-9, abs=0)
    assert np.allclose(got, stats.binom.pmf(np.arange(201), 200, 0.1), rtol=1e-9, atol=1e-300)
    with pytest.raises(ValueError, match="n:"):
        convolve_power(coin, -1)


def test_compound_and_sum_of_iid_match_enumeration():
    counts = np.array([0.1, 0.0, 0.6, 0.3])  # N = 0, 2 or 3
    want = sum(w * np.pad(enumerate_sum(EACH, n), (0, 9 - 3 * n)) for n, w in enumerate(counts))
    assert np.max(np.abs(compound(counts, EACH) - want)) <= 1e-15
    assert np.max(np.abs(sum_of_iid(counts, EACH) - want)) <= 1e-15
    fixed = np.array([0.0, 0.0, 1.0])
    assert np.max(np.abs(sum_of_iid(fixed, EACH) - enumerate_sum(EACH, 2))) <= 1e-15
    thinning = sum_of_iid(counts, np.array([0.25, 0.75]))
    assert np.max(np.abs(thinning - compound(counts, np.array([0.25, 0.75])))) <= 1e-15
    assert Dist.from_trusted(EACH).power(4).isclose(Dist(enumerate_sum(EACH, 4)))


def test_joint_power_matches_enumeration():
    # A joint pmf over (a, b): the n-fold sum adds both coordinates.
    joint = np.array([[0.1, 0.2], [0.3, 0.0], [0.0, 0.4]])
    cells = [(i, j) for i in range(3) for j in range(2)]
    for n in range(4):
        want = np.zeros((2 * n + 1, n + 1))
        for combo in itertools.product(cells, repeat=n):
            want[sum(c[0] for c in combo), sum(c[1] for c in combo)] += np.prod([joint[c] for c in combo])
        got = convolve_power(joint, n)
        assert got.shape == want.shape
        assert np.max(np.abs(got - want)) <= 1e-15


def test_many_rows_at_once_equal_one_row_at_a_time():
    # compound_many and thin_many (the batch engine's row-wise forms) against compound and thin, and the
    # compound sum of two dice pmfs against enumeration of every count and every copy.
    counts = np.array([[0.2, 0.5, 0.3], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
    each = np.array([[0.5, 0.25, 0.25], [0.1, 0.6, 0.3], [0.3, 0.3, 0.4]])
    got = compound_many(counts, each)
    for row, (c, e) in enumerate(zip(counts, each, strict=True)):
        assert np.max(np.abs(got[row] - compound(c, e))) <= 1e-15
        want = np.zeros(5)
        for n, w in enumerate(c):
            for combo in itertools.product(range(3), repeat=n):
                want[sum(combo)] += w * np.prod([e[k] for k in combo])
        assert np.max(np.abs(got[row] - want)) <= 1e-15
    ps = np.array([0.0, 0.3, 1.0])
    rows = thin_many(counts, ps)
    for row, (c, p) in enumerate(zip(counts, ps, strict=True)):
        assert np.max(np.abs(rows[row] - thin(c, float(p)))) <= 1e-15
    shared = thin_many(counts[0], ps)  # one pmf for every row
    assert np.max(np.abs(shared - np.array([thin(counts[0], float(p)) for p in ps]))) <= 1e-15


def test_thin_many_on_long_counts_equals_thin():
    # Horner's rule (thin_many) against the log-space binomial terms (thin) on 300 trials and extreme rates
    rng = np.random.default_rng(16)
    counts = rng.random((4, 301))
    counts /= counts.sum(axis=1, keepdims=True)
    ps = np.array([1e-6, 0.5, 0.97, 1.0])
    got = thin_many(counts, ps)
    for row, (c, p) in enumerate(zip(counts, ps, strict=True)):
        assert np.max(np.abs(got[row] - thin(c, float(p)))) <= 1e-14


def test_thin_many_on_both_sides_of_its_switch():
    from praetor_analysis.prob.dice import THIN_MANY_TERMS

    rng = np.random.default_rng(7)
    for size in (THIN_MANY_TERMS - 1, THIN_MANY_TERMS, THIN_MANY_TERMS + 1, THIN_MANY_TERMS + 2):
        counts = rng.random((3, size))
        counts /= counts.sum(axis=1, keepdims=True)
        ps = np.array([0.0, 0.42, 1.0])
        got = thin_many(counts, ps)
        for row, (c, p) in enumerate(zip(counts, ps, strict=True)):
            assert np.max(np.abs(got[row] - thin(c, float(p)))) <= 1e-15
