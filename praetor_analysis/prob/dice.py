"""D6 primitives: "X+" thresholds, re-rolls, 2D6 tests, dice expressions and binomial tables."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np

from praetor_analysis.errors import PraetorError, show_value
from praetor_analysis.prob.convolution import compound, compound_many
from praetor_analysis.prob.dist import Dist
from praetor_analysis.prob.memo import cleared_with_memos

D6 = np.full(6, 1.0 / 6.0)
"""Probability of each face 1..6 of one D6 (index 0 is face 1)."""


def p_at_least(target: int) -> float:
    """P(one D6 shows ``target`` or more); targets above 6 never succeed, below 2 always do."""
    if target > 6:
        return 0.0
    if target <= 1:
        return 1.0
    return (7 - target) / 6.0


@cache
def two_d6() -> np.ndarray:
    """pmf of 2D6 over 0..12 (zero below 2)."""
    p = np.convolve(np.r_[0.0, D6], np.r_[0.0, D6])
    p.flags.writeable = False
    return p


def leadership_pass(ld: int, *, double_one_passes: bool = False) -> float:
    """P(pass) of a Leadership test: 2D6 <= Ld; Ld below 2 always fails (docs/rules.md#dice)."""
    if ld < 2:
        return 1.0 / 36.0 if double_one_passes else 0.0
    return float(two_d6()[: min(ld, 12) + 1].sum())


# --- binomial tables ----------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _log_factorials(n: int) -> np.ndarray:
    # math.lgamma (the C library's, a few ulp like scipy.special.gammaln) spares the start-up ~0.15 s of scipy
    lf = np.array([math.lgamma(k + 1.0) for k in range(n + 1)])
    lf.flags.writeable = False
    return lf


def binomial_pmf(n: int, p: float) -> np.ndarray:
    """pmf of Binomial(n, p) over 0..n, exact to rounding (log-space, no sampling); read-only, memoised."""
    return _binomial_pmf_cached(int(n), float(p))


@cleared_with_memos  # keyed by a probability: a cold run builds it again
@lru_cache(maxsize=4096)
def _binomial_pmf_cached(n: int, p: float) -> np.ndarray:
    out = _binomial_pmf(n, p)
    out.flags.writeable = False
    return out


def _binomial_pmf(n: int, p: float) -> np.ndarray:
    if n == 0:
        return np.ones(1)
    if p <= 0.0:
        out = np.zeros(n + 1)
        out[0] = 1.0
        return out
    if p >= 1.0:
        out = np.zeros(n + 1)
        out[n] = 1.0
        return out
    k = np.arange(n + 1)
    lf = _log_factorials(max(n, 1))
    logp = lf[n] - lf[k] - lf[n - k] + k * np.log(p) + (n - k) * np.log1p(-p)
    return np.exp(logp)


@cleared_with_memos  # keyed by a probability: a cold run builds it again
@lru_cache(maxsize=1024)
def binomial_matrix(nmax: int, p: float) -> np.ndarray:
    """B[n, k] = P(Binomial(n, p) = k) for n, k in 0..nmax (lower triangular; read-only, memoised)."""
    out = _binomial_matrix(nmax, p)
    out.flags.writeable = False
    return out


def _binomial_matrix(nmax: int, p: float) -> np.ndarray:
    size = nmax + 1
    if p <= 0.0:
        out = np.zeros((size, size))
        out[:, 0] = 1.0
        return out
    if p >= 1.0:
        return np.eye(size)
    n = np.arange(size)[:, None]
    k = np.arange(size)[None, :]
    lf = _log_factorials(max(nmax, 1))
    valid = k <= n
    nk = np.where(valid, n - k, 0)
    logp = lf[n] - lf[k] - lf[nk] + k * np.log(p) + nk * np.log1p(-p)
    return np.where(valid, np.exp(logp), 0.0)


@cleared_with_memos  # keyed by a probability: a cold run builds it again
@lru_cache(maxsize=1024)
def binomial_table(nmax: int, p: float, kmax: int) -> np.ndarray:
    """B[n, k] = P(Binomial(n, p) = k) for n in 0..nmax and k in 0..kmax: the first ``kmax + 1`` columns of
    ``binomial_matrix(nmax, p)`` (the same values), in O(nmax * kmax); read-only, memoised."""
    out = binomial_tables(nmax, np.array([p]), kmax)[0]
    out.flags.writeable = False
    return out


def thin(counts: np.ndarray, p: float) -> np.ndarray:
    """pmf of the successes when each of a random number of trials (pmf ``counts``) succeeds with ``p``."""
    nz = np.flatnonzero(counts)
    if nz.size == 1:  # a fixed number of trials: one binomial
        n = int(nz[0])
        out = np.zeros(counts.size)
        out[: n + 1] = counts[n] * binomial_pmf(n, p)
        return out
    return counts @ binomial_matrix(counts.size - 1, float(p))


THIN_MANY_TERMS = 8
"""Up to this many counts ``thin_many`` uses the binomial terms themselves."""

SEPARABLE_COUNTS = 129
"""Up to this many counts ``thin_many`` uses one matrix product with the binomial coefficients."""

SEPARABLE_RANGE = 300.0
"""... when ``q^n`` and ``(p / q)^k`` stay within ``e^300`` of 1 (about 1e130) for every count: far from
overflow and underflow, so each term keeps its relative precision."""


def thin_many(counts: np.ndarray, ps: np.ndarray) -> np.ndarray:
    """``thin(counts[i], ps[i])`` for every row i at once (``counts`` is one pmf for all rows, or one per row,
    all of one length); the rows equal ``thin``'s to rounding (tests/test_convolution.py).

    Short counts: ``thin``'s log-space binomial terms, in one array computation. Up to ``SEPARABLE_COUNTS``:
    ``P(k) = sum_n c_n C(n, k) p^k q^(n-k) = (p/q)^k sum_n (c_n q^n) C(n, k)``, one matrix product with the
    binomial coefficients for every row (every term a product of non-negative factors, so no cancellation),
    where those powers stay in ``SEPARABLE_RANGE``. Otherwise the compound sum of one trial's pmf ``(q, p)``
    over the counts (``compound_many``, direct products as well).
    """
    ps = np.asarray(ps, dtype=np.float64).reshape(-1)
    rows = np.broadcast_to(counts, (ps.size, counts.shape[-1]))
    size = rows.shape[1]
    if size <= THIN_MANY_TERMS:
        return np.einsum("pn,pnk->pk", rows, binomial_tables(size - 1, ps, size - 1))
    if size <= SEPARABLE_COUNTS:
        q = 1.0 - ps
        with np.errstate(divide="ignore"):
            ratio = np.divide(ps, q, out=np.full(ps.size, np.inf), where=q > 0.0)
            spread = (size - 1) * np.maximum(-np.log(q), np.abs(np.log(ratio)))
        fast = (ps == 0.0) | (spread <= SEPARABLE_RANGE)
        if fast.all():
            return _thin_separable(rows, q, ratio)
    else:
        fast = np.zeros(ps.size, dtype=bool)
    out = np.empty((ps.size, size))
    if fast.any():
        out[fast] = _thin_separable(rows[fast], q[fast], ratio[fast])
    slow = ~fast
    out[slow] = compound_many(rows[slow], np.stack((1.0 - ps[slow], ps[slow]), axis=1))
    return out


def _thin_separable(rows: np.ndarray, q: np.ndarray, ratio: np.ndarray) -> np.ndarray:
    """``(p/q)^k sum_n (c_n q^n) C(n, k)`` for every row (see ``thin_many``)."""
    return ((rows * _powers(q, rows.shape[1])) @ _binomial_coefficients(rows.shape[1])) * _powers(ratio, rows.shape[1])


def _powers(x: np.ndarray, size: int) -> np.ndarray:
    """``x[i] ** k`` for k below ``size``, row by row (running products)."""
    out = np.empty((x.size, size))
    out[:, 0] = 1.0
    out[:, 1:] = x[:, None]
    return np.cumprod(out, axis=1, out=out)


@cache
def _binomial_coefficients(size: int) -> np.ndarray:
    """C[n, k] = n choose k for n, k below ``size`` (each the float nearest the integer; read-only)."""
    out = np.array([[math.comb(n, k) for k in range(size)] for n in range(size)], dtype=np.float64)
    out.flags.writeable = False
    return out


def binomial_tables(nmax: int, ps: np.ndarray, kmax: int) -> np.ndarray:
    """``binomial_table(nmax, ps[i], kmax)`` for every i at once, shape (P, nmax + 1, min(kmax, nmax) + 1): the
    same log-space terms (p = 0 or 1 exactly: every trial fails, or succeeds)."""
    ps = np.asarray(ps, dtype=np.float64)
    size, cols = nmax + 1, min(kmax, nmax) + 1
    lf = _log_factorials(max(nmax, 1))
    n = np.arange(size)[:, None]
    k = np.arange(cols)[None, :]
    valid = k <= n
    nk = np.where(valid, n - k, 0)
    log_c = np.where(valid, lf[n] - lf[k] - lf[nk], -np.inf)  # (N, K)
    inner = (ps > 0.0) & (ps < 1.0)
    safe = np.where(inner, ps, 0.5)[:, None, None]
    terms = np.exp(log_c[None] + k[None] * np.log(safe) + nk[None] * np.log1p(-safe))
    for i in np.flatnonzero(~inner):
        terms[i] = np.where(valid & (k == (n if ps[i] >= 1.0 else 0)), 1.0, 0.0)
    return terms


def sum_of_iid(counts: np.ndarray, each: np.ndarray) -> np.ndarray:
    """pmf of the sum of N iid copies of ``each``, N having pmf ``counts``: a binomial thinning when
    ``each`` is one success or none, the n-fold convolution when N is fixed, else the compound sum."""
    if each.size == 2:
        return thin(counts, float(each[1]))
    nz = np.flatnonzero(counts)
    if nz.size == 1:
        return Dist.from_trusted(each).power(int(nz[0])).probabilities
    return compound(counts, each)


# --- dice expressions ---------------------------------------------------------------------------
_DICE_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(3|6)\s*(?:([+-])\s*(\d+))?\s*$")


@dataclass(frozen=True)
class DiceExpr:
    """A dice expression such as ``D3``, ``2D6`` or ``D6+1``, or a fixed number."""

    count: int = 0
    sides: int = 6
    bonus: int = 0

    @property
    def dist(self) -> Dist:
        """The distribution of the expression's total."""
        if self.count == 0:
            return Dist.point(self.bonus)
        face = np.zeros(self.sides + 1)
        face[1:] = 1.0 / self.sides
        total = Dist.from_trusted(face).power(self.count).probabilities
        if self.bonus >= 0:
            return Dist.from_trusted(np.concatenate((np.zeros(self.bonus), total)))
        shifted = total[-self.bonus :].copy()
        shifted[0] += total[: -self.bonus].sum()
        return Dist.from_trusted(shifted)

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        n = "" if self.count == 1 else str(self.count)
        b = "" if self.bonus == 0 else f"{self.bonus:+d}"
        return f"{n}D{self.sides}{b}"


MAX_DICE_VALUE = 1000
"""Largest fixed number (or bonus) of a dice expression: 1,000 shots, attacks or hits per volley. Larger
counts are refused as bad input rather than risking memory or time (the engine is exact, so its tables
grow with the count)."""


def parse_dice(text: str | int, *, field: str = "attacks") -> DiceExpr:
    """Parse ``3``, ``D3``, ``D6``, ``2D6``, ``D6+1``... into a DiceExpr.

    Raises:
        PraetorError: naming ``field`` and the value when the text is not a dice expression, is negative,
            exceeds :data:`MAX_DICE_VALUE`, or can never be above 0 (``D6-6``).
    """
    if isinstance(text, bool):
        raise PraetorError(f"{field}: expected a number or dice expression, got {text!r}", field=field, value=text)
    if isinstance(text, (int, np.integer)):
        if text < 0:
            raise PraetorError(f"{field}: must be >= 0, got {show_value(text)}", field=field, value=text)
        if text > MAX_DICE_VALUE:
            raise PraetorError(
                f"{field}: must be at most {MAX_DICE_VALUE}, got {show_value(text)}", field=field, value=text
            )
        return DiceExpr(0, 6, int(text))
    if isinstance(text, (float, np.floating)):
        if float(text).is_integer():
            return parse_dice(int(text), field=field)
        raise PraetorError(
            f"{field}: expected a whole number or dice expression, got {show_value(text)}", field=field, value=text
        )
    if not isinstance(text, str):
        raise PraetorError(
            f"{field}: expected a number or dice expression, got {show_value(text)}", field=field, value=text
        )
    s = text.strip()
    if re.fullmatch(r"\d+", s, flags=re.ASCII):
        return parse_dice(int(s), field=field) if len(s) <= 7 else _too_big(field, text)
    m = _DICE_RE.match(s)
    if not m or not s.isascii():
        raise PraetorError(
            f"{field}: not a dice expression: {show_value(text)} (expected e.g. 3, D3, 2D6, D6+1)",
            field=field,
            value=text,
        )
    if len(m.group(1)) > 3 or len(m.group(4) or "") > 7:
        return _too_big(field, text)
    count = int(m.group(1)) if m.group(1) else 1
    if count == 0 or count > 20:
        raise PraetorError(f"{field}: dice count must be 1..20, got {show_value(text)}", field=field, value=text)
    bonus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    sides = int(m.group(2))
    if abs(bonus) > MAX_DICE_VALUE:
        return _too_big(field, text)
    if count * sides + bonus < 1:
        raise PraetorError(f"{field}: {show_value(text)} can never be more than 0", field=field, value=text)
    return DiceExpr(count, sides, bonus)


def _too_big(field: str, text: object) -> DiceExpr:
    raise PraetorError(
        f"{field}: numbers in a dice expression must be at most {MAX_DICE_VALUE}, got {show_value(text)}",
        field=field,
        value=text,
    )
