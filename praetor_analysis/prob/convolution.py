"""Sums of independent copies of one pmf: the n-fold and the compound convolution.

Direct convolution only, never FFT: small tail probabilities keep their relative precision (the batch form
``compound_many`` uses matrix products with banded matrices: direct products too). A pmf is a
1-D array over 0..n, or an array with one axis per count (a joint pmf, such as hits per Mega-blast zone).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

import numpy as np

__all__ = ["compound", "convolve", "convolve_power", "convolve_powers", "convolve_powers_many"]


def convolve(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The pmf of the sum of two independent variables (1-D, or joint pmfs with as many axes)."""
    if a.ndim == 1:
        return np.convolve(a, b)
    out = np.zeros(tuple(x + y - 1 for x, y in zip(a.shape, b.shape, strict=True)))
    for idx in zip(*np.nonzero(a), strict=True):  # direct: one shifted copy of b per non-zero entry of a
        out[tuple(slice(i, i + s) for i, s in zip(idx, b.shape, strict=True))] += a[idx] * b
    return out


def convolve_power(pmf: np.ndarray, n: int) -> np.ndarray:
    """pmf of the sum of ``n`` independent copies of ``pmf`` (by repeated squaring); the point mass at 0
    for n = 0."""
    if n < 0:
        raise ValueError(f"n: a count of copies must be >= 0, got {n}")
    base = np.asarray(pmf, dtype=np.float64)
    result = np.ones((1,) * base.ndim)
    while n:
        if n & 1:
            result = convolve(result, base)
        n >>= 1
        if n:
            base = convolve(base, base)
    return result


def convolve_powers(pmf: np.ndarray, n: int) -> Iterator[np.ndarray]:
    """The pmfs of the sums of 0, 1, ..., ``n`` independent copies of ``pmf``, one after the other."""
    power = np.ones(1)
    yield power
    for _ in range(n):
        power = np.convolve(power, pmf)
        yield power


def convolve_powers_many(pmfs: list[np.ndarray], n: int) -> np.ndarray:
    """``convolve_powers(pmfs[t], n)`` of every pmf at once: entry (t, k) the pmf of the sum of k independent
    copies of ``pmfs[t]`` for k in 0..n, padded with zeros to ``n * (M - 1) + 1`` entries (M the longest pmf).

    Each power is the last one times the pmf, all pmfs in one step: one product of the last powers' sliding
    windows with the reversed pmfs (zeros padding the shorter ones, which add nothing), the same direct sums
    as ``np.convolve``'s, so ``n`` steps of a few numpy calls rather than a convolution per pmf and power.
    """
    count, m = len(pmfs), max(p.size for p in pmfs)
    reversed_ = np.zeros((count, m, 1))
    for t, pmf in enumerate(pmfs):
        reversed_[t, m - pmf.size :, 0] = pmf[::-1]
    span = n * (m - 1) + 1
    lead = m - 1  # zeros before each power: the windows of its first entries
    out = np.zeros((count, n + 1, lead + span, 1))
    out[:, 0, lead] = 1.0
    windows = np.lib.stride_tricks.sliding_window_view(out[..., 0], m, axis=2)  # (T, n + 1, span, m)
    for k in range(1, n + 1):
        size = k * (m - 1) + 1
        np.matmul(windows[:, k - 1, :size], reversed_, out=out[:, k, lead : lead + size])
    return out[:, :, lead:, 0]


def compound(counts: np.ndarray, each: np.ndarray) -> np.ndarray:
    """pmf of the sum of N iid copies of ``each``, N having pmf ``counts``."""
    out = np.zeros((counts.size - 1) * (each.size - 1) + 1)
    for w, power in zip(counts, convolve_powers(each, counts.size - 1), strict=True):
        if w > 0.0:
            out[: power.size] += w * power
    return out


def compound_many(counts: np.ndarray, each: np.ndarray) -> np.ndarray:
    """``compound(counts[i], each[i])`` for every row i at once (rows of one length each).

    The compound sum is the polynomial of the counts evaluated at ``each``'s, ``sum_k counts[k] E^k``, computed
    by Estrin's scheme: the counts paired, ``c[2i] + c[2i+1] E``, then those paired with ``E^2``, ``E^4``...
    so the log2 of the counts' length steps each do one direct product for every pair and row (a matrix
    product with the banded matrix of the power, or ``np.convolve`` once the pieces are long). Every term is a
    sum of non-negative products: no cancellation, exact zeros stay exact (tests/test_convolution.py).
    """
    rows, n = counts.shape
    m = each.shape[1]
    size = (n - 1) * (m - 1) + 1
    pieces = np.asarray(counts, dtype=np.float64)[:, :, None]
    power = np.asarray(each, dtype=np.float64)  # E^(2^level)
    while pieces.shape[1] > 1:
        low = pieces.shape[2]
        if pieces.shape[1] % 2:  # an odd number of pieces: a zero piece on top
            pieces = np.concatenate((pieces, np.zeros((rows, 1, low))), axis=1)
        paired = _times(pieces[:, 1::2], power)
        paired[:, :, :low] += pieces[:, 0::2]
        pieces = paired
        if pieces.shape[1] > 1:
            power = _times(power[:, None], power)[:, 0]
    return np.ascontiguousarray(pieces[:, 0, :size])


CALL_COST = 3000
"""The cost of one ``np.convolve`` call, in multiply-adds of a matrix product (``_times`` picks the cheaper)."""


def _times(pieces: np.ndarray, poly: np.ndarray) -> np.ndarray:
    """Row-wise product of polynomials: ``pieces`` (R, P, L) each times ``poly[r]`` (R, M): (R, P, L + M - 1)."""
    rows, count, length = pieces.shape
    width = poly.shape[1]
    banded = length * (length + width - 1) * (1.0 + 1.0 / count)  # the product and building the matrix
    if banded > CALL_COST + length * width:  # long pieces: direct convolution, one call each
        out = np.empty((rows, count, length + width - 1))
        for r in range(rows):
            for i in range(count):
                out[r, i] = np.convolve(pieces[r, i], poly[r])
        return out
    padded = np.concatenate((poly, np.zeros((rows, 1))), axis=1)  # index M: a zero
    return pieces @ padded[:, _band_index(length, width)]


@lru_cache(maxsize=256)
def _band_index(length: int, width: int) -> np.ndarray:
    """Index of the banded (L, L + M - 1) matrix of a polynomial of M coefficients: entry (i, c) is
    coefficient c - i, or M (a zero) outside the band."""
    shift = np.arange(length + width - 1)[None, :] - np.arange(length)[:, None]
    index = np.where((shift >= 0) & (shift < width), shift, width)
    index.flags.writeable = False
    return index
