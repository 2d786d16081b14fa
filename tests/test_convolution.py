"""The one n-fold convolution (prob.convolution) against brute-force enumeration and scipy."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats

from praetor_analysis.prob.convolution import (
    compound,
    compound_many,
    convolve_power,
    convolve_powers,
    convolve_powers_many,
)
from praetor_analysis.prob.dice import sum_of_iid, thin, thin_many
from praetor_analysis.prob.dist import Dist

EACH = np.array([0.2, 0.5, 0.0, 0.3])  # outcomes 0, 1, 3


def enumerate_sum(each: np.ndarray, n: int) -> np.ndarray:
    """pmf of the sum of n copies by listing every tuple of outcomes."""
    out = np.zeros(n * (each.size - 1) + 1)
    for combo in itertools.product(range(each.size), repeat=n):
        out[sum(combo)] += np.prod([each[c] for c in combo])
    return out


@pytest.mark.parametrize("n", [0, 1, 5, 63])
def test_powers_of_many_pmfs_together_equal_each_ones(n):
    """``convolve_powers_many`` (every pmf's powers in one recurrence, the shorter pmfs padded) against
    ``convolve_powers`` of each: the same direct sums to rounding (relative 1e-14 on the tails), zeros past
    each power's length and where a pmf has zeros inside, and enumeration on the small powers."""
    rng = np.random.default_rng(n)
    pmfs = [EACH, np.array([1.0]), np.array([0.0, 1.0]), np.array([0.3, 0.0, 0.7])]
    pmfs += [p / p.sum() for p in (rng.random(size) for size in (2, 3, 4, 4, 5))]
    got = convolve_powers_many(pmfs, n)
    longest = max(p.size for p in pmfs)
    assert got.shape == (len(pmfs), n + 1, n * (longest - 1) + 1)
    for t, pmf in enumerate(pmfs):
        for k, want in enumerate(convolve_powers(pmf, n)):
            row = got[t, k]
            assert not row[want.size :].any(), (t, k)
            assert np.array_equal(row[: want.size] == 0.0, want == 0.0), (t, k)
            assert np.all(np.abs(row[: want.size] - want) <= 1e-14 * want + 1e-300), (t, k)
            if k <= 4 and pmf.size <= 4:
                assert np.max(np.abs(row[: want.size] - enumerate_sum(pmf, k))) <= 1e-15


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


def brute_compound(counts: np.ndarray, each: np.ndarray) -> np.ndarray:
    """pmf of the sum of N copies of ``each``, N from ``counts``: every count and every tuple of outcomes."""
    out = np.zeros((counts.size - 1) * (each.size - 1) + 1)
    for n, w in enumerate(counts):
        for combo in itertools.product(range(each.size), repeat=n):
            out[sum(combo)] += w * np.prod([each[k] for k in combo])
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8])
@pytest.mark.parametrize("m", [1, 2, 3, 4])
def test_compound_many_matches_enumeration(n, m):
    # Estrin's scheme (compound_many: counts paired, then pairs of pairs...) against every count and every tuple
    # of per-copy outcomes, on odd and even numbers of counts; rows with zeros (structural zeros stay exact)
    rng = np.random.default_rng(100 * n + m)
    counts = rng.random((3, n))
    counts[1, 1::2] = 0.0
    counts /= counts.sum(axis=1, keepdims=True)
    each = rng.random((3, m))
    each[2, 1:-1] = 0.0  # Brutal-like: 0 or the top outcome only
    each /= each.sum(axis=1, keepdims=True)
    got = compound_many(counts, each)
    assert got.shape == (3, (n - 1) * (m - 1) + 1)
    for row in range(3):
        want = brute_compound(counts[row], each[row])
        assert np.max(np.abs(got[row] - want)) <= 1e-14  # both sides round: up to 4,000 products summed
        assert np.array_equal(got[row] == 0.0, want == 0.0)  # no rounding noise where the pmf is zero


def test_compound_many_on_long_counts_equals_compound():
    # long pieces go through np.convolve, short ones through banded matrix products (_times): both against
    # the direct compound sum of powers (compound), to 1e-14; the largest row reaches 1,000 hits
    from praetor_analysis.prob import convolution

    rng = np.random.default_rng(9)
    for rows, n, m in [(5, 61, 3), (4, 200, 4), (120, 41, 2), (1, 1001, 3)]:
        counts = rng.random((rows, n))
        counts /= counts.sum(axis=1, keepdims=True)
        each = rng.random((rows, m))
        each[0, 1] = 0.0
        each /= each.sum(axis=1, keepdims=True)
        got = compound_many(counts, each)
        for row in range(min(rows, 6)):
            want = compound(counts[row], each[row])
            assert np.max(np.abs(got[row] - want)) <= 1e-14
        if m == 3:  # the first row's copies are 0 or 2: every odd total exactly impossible
            assert not got[0, 1::2].any()
    # the same rows with every product banded, and with every product direct
    counts = rng.random((3, 70))
    counts /= counts.sum(axis=1, keepdims=True)
    each = np.array([[0.5, 0.2, 0.3], [0.1, 0.0, 0.9], [1.0, 0.0, 0.0]])
    want = np.array([compound(c, e) for c, e in zip(counts, each, strict=True)])
    for cost in (10**9, 0):
        old, convolution.CALL_COST = convolution.CALL_COST, cost
        try:
            assert np.max(np.abs(compound_many(counts, each) - want)) <= 1e-14
        finally:
            convolution.CALL_COST = old


def test_rows_of_dists_equal_one_at_a_time():
    # Dist.from_trusted_rows (views of one normalised array) against from_trusted row by row: trimmed,
    # renormalised, an all-zero row as the point mass at 0, read-only
    rng = np.random.default_rng(3)
    rows = rng.random((5, 9))
    rows /= rows.sum(axis=1, keepdims=True)
    rows[1, 4:] = 0.0
    rows[2] = 0.0
    rows[3] *= 1.0 + 1e-12  # rounding off the sum: renormalised
    rows[4, 0] = -1e-17  # rounding below zero: clipped
    for row, dist in zip(rows, Dist.from_trusted_rows(rows), strict=True):
        assert np.array_equal(dist.probabilities, Dist.from_trusted(row).probabilities)
        assert not dist.probabilities.flags.writeable
    assert Dist.from_trusted_rows(np.zeros((0, 3))) == []


def test_thin_many_by_binomial_coefficients_equals_thin():
    # the one-matrix-product form (up to SEPARABLE_COUNTS counts, rates whose powers stay in SEPARABLE_RANGE)
    # and the rows it hands to the compound sum (p = 1, rates too close to 0 or 1 for long counts), mixed in
    # one call, against thin (log-space binomial terms); then the relative precision of a binomial's tail
    # against scipy.stats.binom (reference) down to 1e-100
    from praetor_analysis.prob.dice import SEPARABLE_COUNTS

    rng = np.random.default_rng(61)
    ps = np.array([0.0, 1e-9, 0.003, 0.3, 0.5, 0.97, 0.999, 1.0])
    for size in (9, 20, 64, SEPARABLE_COUNTS, SEPARABLE_COUNTS + 1):
        counts = rng.random((ps.size, size))
        counts /= counts.sum(axis=1, keepdims=True)
        got = thin_many(counts, ps)
        for row, (c, p) in enumerate(zip(counts, ps, strict=True)):
            assert np.max(np.abs(got[row] - thin(c, float(p)))) <= 1e-14, (size, p)
    fixed = np.zeros(64)
    fixed[63] = 1.0  # 63 trials: thinning gives Binomial(63, p)
    for p in (0.05, 0.3, 0.9):
        got = thin_many(fixed, np.array([p]))[0]
        want = stats.binom.pmf(np.arange(64), 63, p)
        keep = want > 1e-100
        assert np.allclose(got[keep], want[keep], rtol=1e-12, atol=0.0)
