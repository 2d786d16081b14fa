"""Sums of independent copies of one pmf: the n-fold and the compound convolution.

Direct convolution only (``np.convolve``), never FFT: small tail probabilities keep their relative
precision.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = ["compound", "convolve_power", "convolve_powers"]


def convolve_power(pmf: np.ndarray, n: int) -> np.ndarray:
    """pmf of the sum of ``n`` independent copies of ``pmf`` (by repeated squaring); ``[1.0]`` for n = 0."""
    if n < 0:
        raise ValueError(f"n: a count of copies must be >= 0, got {n}")
    result = np.ones(1)
    base = np.asarray(pmf, dtype=np.float64)
    while n:
        if n & 1:
            result = np.convolve(result, base)
        n >>= 1
        if n:
            base = np.convolve(base, base)
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
