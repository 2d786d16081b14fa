"""Sums of independent copies of one pmf: the n-fold and the compound convolution.

Direct convolution only, never FFT: small tail probabilities keep their relative precision. A pmf is a
1-D array over 0..n, or an array with one axis per count (a joint pmf, such as hits per Mega-blast zone).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = ["compound", "convolve", "convolve_power", "convolve_powers"]


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


def compound(counts: np.ndarray, each: np.ndarray) -> np.ndarray:
    """pmf of the sum of N iid copies of ``each``, N having pmf ``counts``."""
    out = np.zeros((counts.size - 1) * (each.size - 1) + 1)
    for w, power in zip(counts, convolve_powers(each, counts.size - 1), strict=True):
        if w > 0.0:
            out[: power.size] += w * power
    return out


def compound_many(counts: np.ndarray, each: np.ndarray) -> np.ndarray:
    """``compound(counts[i], each[i])`` for every row i at once (rows of one length each): the powers of
    ``each`` by direct convolution, one step for all rows."""
    rows, n = counts.shape
    m = each.shape[1]
    size = (n - 1) * (m - 1) + 1
    out = np.zeros((rows, size))
    power = np.zeros((rows, size))
    power[:, 0] = 1.0
    out += counts[:, :1] * power
    for k in range(1, n):
        top = (k - 1) * (m - 1) + 1  # the length of the (k-1)-th power
        step = np.zeros((rows, size))
        for j in range(m):
            step[:, j : j + top] += each[:, j : j + 1] * power[:, :top]
        power = step
        out += counts[:, k : k + 1] * power
    return out
