"""The Dist value object: scipy vocabulary and edge rules, immutability, precise tails."""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np
import pytest
from scipy import stats

from praetor_analysis.prob.dist import Dist


def test_matches_scipy_binomial_everywhere():
    # Reference: scipy.stats.binom for the same parameters.
    n, p = 12, 0.37
    d = Dist(stats.binom.pmf(np.arange(n + 1), n, p))
    k = np.arange(-2, n + 3)
    assert np.allclose(d.pmf(k), stats.binom.pmf(k, n, p), atol=1e-15)
    assert np.allclose(d.cdf(k), stats.binom.cdf(k, n, p), atol=1e-14)
    assert np.allclose(d.sf(k), stats.binom.sf(k, n, p), atol=1e-14)
    q = np.array([0.0, 1e-9, 0.1, 0.5, 0.9, 1.0])
    assert np.array_equal(d.ppf(q), stats.binom.ppf(q, n, p))
    assert d.mean() == pytest.approx(n * p, abs=1e-12)
    assert d.var() == pytest.approx(n * p * (1 - p), abs=1e-12)
    assert d.std() == pytest.approx(np.sqrt(n * p * (1 - p)), abs=1e-12)
    assert np.isnan(d.ppf(1.5))


def test_sf_keeps_small_tails():
    # P(X >= 200) for Binomial(200, 0.1) is 1e-200: 1 - cdf would give 0.
    n, p = 200, 0.1
    d = Dist(stats.binom.pmf(np.arange(n + 1), n, p))
    assert d.sf(199) == pytest.approx(p**n, rel=1e-9)
    assert d.at_least(200) == pytest.approx(p**n, rel=1e-9)


def test_sf_tail_has_relative_precision():
    # pytest.approx(x, rel=...) alone still accepts anything within 1e-12 of x, so a 1e-200 tail computed
    # as 1 - cdf (= 0) would pass; abs=0 makes the tolerance purely relative. Reference: the exact tail
    # sum of Binomial(200, 1/10) in rational arithmetic.
    n, p = 200, Fraction(1, 10)
    exact = [Fraction(comb(n, j)) * p**j * (1 - p) ** (n - j) for j in range(n + 1)]
    d = Dist([float(x) for x in exact])
    for k in (199, 198, 195, 190, 180, 150):
        want = float(sum(exact[k + 1 :]))
        assert d.sf(k) == pytest.approx(want, rel=1e-9, abs=0), k
        assert d.at_least(k + 1) == pytest.approx(want, rel=1e-9, abs=0), k
    assert float(sum(exact[200:])) == pytest.approx(1e-200, rel=1e-9, abs=0)
    assert np.asarray(d.sf([199, 190])) == pytest.approx(
        [float(sum(exact[200:])), float(sum(exact[191:]))], rel=1e-9, abs=0
    )


def test_immutable_and_trimmed():
    d = Dist([0.5, 0.5, 0.0, 0.0])
    assert d.max == 1
    with pytest.raises(AttributeError):
        d.x = 1  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        d.probabilities[0] = 1.0


def test_algebra():
    coin = Dist([0.5, 0.5])
    assert (coin + coin).isclose(Dist([0.25, 0.5, 0.25]))
    assert coin.power(3).isclose(Dist(stats.binom.pmf(np.arange(4), 3, 0.5)))
    assert coin.power(0) == Dist.point(0)
    assert Dist([0.2, 0.3, 0.5]).clip(1).isclose(Dist([0.2, 0.8]))
    mix = Dist.mixture([0.25, 0.75], [Dist.point(0), Dist.point(2)])
    assert mix.isclose(Dist([0.25, 0, 0.75]))
    s = Dist([0.2, 0.8]).to_series("x")
    assert list(s.index) == [0, 1] and s.name == "x"
    assert Dist([0.2, 0.8]).to_dict() == {"pmf": [0.2, 0.8], "mean": 0.8}


@pytest.mark.parametrize("bad", [[], [0.5, 0.6], [1.2, -0.2], [np.nan, 1.0]])
def test_rejects_bad_pmf(bad):
    with pytest.raises(ValueError, match="pmf"):
        Dist(bad)


def test_from_trusted_rows_equals_from_trusted_row_by_row():
    rows = np.array([[0.5, 0.5, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [0.2, -1e-18, 0.8, 0.0], [0.1, 0.2, 0.3, 0.4]])
    got = Dist.from_trusted_rows(rows)
    for row, dist in zip(rows, got, strict=True):
        want = Dist.from_trusted(row)
        assert dist.probabilities.shape == want.probabilities.shape
        assert np.max(np.abs(dist.probabilities - want.probabilities)) <= 1e-16
        assert not dist.probabilities.flags.writeable
    assert Dist.from_trusted_rows(np.zeros((0, 3))) == []
