"""The distribution value object: probabilities over the outcomes 0..n.

`Dist` follows scipy.stats' vocabulary and edge rules (``pmf``, ``cdf``, ``sf``, ``ppf``, ``mean``,
``var``, ``std``, ``support``; ``k`` for outcomes, ``q`` for probabilities). It is immutable: every
operation returns a new object. Tails are kept precise: ``sf`` is a reverse cumulative sum, never
``1 - cdf``, and convolution is direct (no FFT).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from praetor_analysis.errors import PraetorError
from praetor_analysis.prob.convolution import convolve_power

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pandas as pd

_TRIM_EPS = 0.0
_OUTCOMES = np.arange(4096, dtype=np.float64)  # the outcomes 0..4095 as floats, for ``mean`` (read-only)
_OUTCOMES.flags.writeable = False


def _as_pmf(values: Iterable[float] | np.ndarray) -> np.ndarray:
    """Validate and copy probabilities into a read-only float64 array."""
    if isinstance(values, (str, bytes)):
        raise TypeError(f"pmf: expected numbers, got {type(values).__name__}")
    try:
        arr = np.array(values, dtype=np.float64).ravel()
    except ValueError as exc:  # a ragged list, or text that is not a number
        raise PraetorError(f"pmf: expected a list of probabilities ({exc})", field="pmf") from None
    if arr.size == 0:
        raise PraetorError("pmf: a distribution needs at least one outcome, got []", field="pmf")
    if not np.all(np.isfinite(arr)):
        raise PraetorError(f"pmf: probabilities must be finite, got {arr.tolist()[:8]}", field="pmf")
    if np.any(arr < -1e-12):
        raise PraetorError(f"pmf: probabilities must be >= 0, got min {arr.min()!r}", field="pmf")
    arr = np.clip(arr, 0.0, None)
    total = arr.sum()
    if abs(total - 1.0) > 1e-9:
        raise PraetorError(f"pmf: probabilities must sum to 1, got {total!r}", field="pmf")
    nz = np.flatnonzero(arr > _TRIM_EPS)
    arr = arr[: nz[-1] + 1] if nz.size else arr[:1]
    arr.flags.writeable = False
    return arr


class Dist:
    """A discrete distribution over the whole numbers 0..n, stored as a pmf array.

    Args:
        pmf: ``pmf[k]`` is the probability of exactly ``k``; must sum to 1. Trailing zeros are trimmed.
    """

    __slots__ = ("_m", "_p")
    _p: np.ndarray
    _m: float | None  # the mean, once asked (the pmf never changes)

    def __init__(self, pmf: Iterable[float] | np.ndarray) -> None:
        object.__setattr__(self, "_p", _as_pmf(pmf))
        object.__setattr__(self, "_m", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Dist is immutable")

    # --- constructors -------------------------------------------------------------------------------
    @classmethod
    def point(cls, k: int) -> Dist:
        """The distribution that is always ``k`` (shared instances: a Dist is immutable)."""
        if k < 0:
            raise ValueError(f"k: outcomes are >= 0, got {k}")
        return _point(int(k))

    @classmethod
    def from_trusted(cls, pmf: np.ndarray) -> Dist:
        """Wrap an array known to be a valid pmf (internal fast path: clips rounding noise, trims zeros)."""
        obj = object.__new__(cls)
        arr = np.asarray(pmf, dtype=np.float64)
        arr = np.maximum(arr, 0.0)  # a new array: the caller's stays untouched
        nz = arr.nonzero()[0]
        if nz.size == 0:
            arr = np.ones(1)
        elif nz[-1] + 1 < arr.size:
            arr = arr[: nz[-1] + 1].copy()
        s = arr.sum()
        if s > 0 and abs(s - 1.0) > 1e-15:
            arr /= s
        arr.flags.writeable = False
        object.__setattr__(obj, "_p", arr)
        object.__setattr__(obj, "_m", None)
        return obj

    @classmethod
    def from_trusted_rows(cls, rows: np.ndarray) -> list[Dist]:
        """``from_trusted`` of every row of a 2-D array of valid pmfs, the clipping, trimming and sums computed
        for all rows at once; each pmf is a read-only view of one new array."""
        if len(rows) == 1:  # one row: the one-pmf path costs fewer numpy calls (a batch of one)
            return [cls.from_trusted(rows[0])]
        return cls.of_rows(TrustedRows.of(rows))

    @classmethod
    def of_rows(cls, rows: TrustedRows) -> list[Dist]:
        """The distribution of every row of ``rows`` (its pmf a read-only view, its mean the one computed)."""
        pmfs = [row[:end] for row, end in zip(rows.pmfs, rows.ends, strict=True)]
        new = object.__new__
        out = [new(cls) for _ in pmfs]
        list(map(_SET_P, out, pmfs))  # the slots set directly: no per-object attribute lookup
        list(map(_SET_M, out, rows.means))
        return out

    # --- scipy-style accessors ---------------------------------------------------------------------
    @property
    def probabilities(self) -> np.ndarray:
        """The read-only pmf array over 0..max."""
        return self._p

    @property
    def max(self) -> int:
        """The largest outcome with non-zero probability (0 for the point mass at 0)."""
        return self._p.size - 1

    def support(self) -> tuple[int, int]:
        """(least, largest) outcome with non-zero probability."""
        nz = np.flatnonzero(self._p)
        return int(nz[0]), int(nz[-1])

    def pmf(self, k: int | Sequence[int] | np.ndarray) -> float | np.ndarray:
        """P(X = k); zero outside 0..max."""
        kk = np.asarray(k)
        out = np.zeros(kk.shape)
        ok = (kk >= 0) & (kk < self._p.size) & (kk == np.floor(kk))
        out[ok] = self._p[kk[ok].astype(int)]
        return float(out) if out.ndim == 0 else out

    def cdf(self, k: int | Sequence[int] | np.ndarray) -> float | np.ndarray:
        """P(X <= k)."""
        cum = np.cumsum(self._p)
        cum = np.minimum(cum, 1.0)
        kk = np.floor(np.asarray(k, dtype=float))
        idx = np.clip(kk, -1, self._p.size - 1).astype(int)
        out = np.where(idx < 0, 0.0, cum[np.maximum(idx, 0)])
        return float(out) if out.ndim == 0 else out

    def sf(self, k: int | Sequence[int] | np.ndarray) -> float | np.ndarray:
        """P(X > k), from a reverse cumulative sum so that small tails keep their precision."""
        rev = np.minimum(np.cumsum(self._p[::-1])[::-1], 1.0)  # rev[j] = P(X >= j)
        kk = np.floor(np.asarray(k, dtype=float)) + 1  # P(X > k) = P(X >= k+1)
        idx = np.clip(kk, 0, self._p.size).astype(int)
        padded = np.append(rev, 0.0)
        out = padded[idx]
        return float(out) if out.ndim == 0 else out

    def at_least(self, k: int) -> float:
        """P(X >= k)."""
        return float(self.sf(k - 1))

    def ppf(self, q: float | Sequence[float] | np.ndarray) -> float | np.ndarray:
        """The least k with cdf(k) >= q (scipy's rule: ppf(0) = -1, NaN outside [0, 1])."""
        qq = np.asarray(q, dtype=float)
        cum = np.minimum(np.cumsum(self._p), 1.0)
        idx = np.searchsorted(cum, qq - 1e-15, side="left").astype(float)
        idx = np.minimum(idx, self._p.size - 1)
        idx = np.where(qq == 0, -1.0, idx)
        idx = np.where((qq < 0) | (qq > 1) | np.isnan(qq), np.nan, idx)
        return float(idx) if idx.ndim == 0 else idx

    def mean(self) -> float:
        """Expected value."""
        if self._m is None:
            size = self._p.size
            k = _OUTCOMES[:size] if size <= _OUTCOMES.size else np.arange(size, dtype=np.float64)
            object.__setattr__(self, "_m", float(np.dot(k, self._p)))
        return self._m  # type: ignore[return-value]

    def var(self) -> float:
        """Variance."""
        k = np.arange(self._p.size)
        m = self.mean()
        return float(np.dot((k - m) ** 2, self._p))

    def std(self) -> float:
        """Standard deviation."""
        return float(np.sqrt(self.var()))

    # --- algebra ------------------------------------------------------------------------------------
    def __add__(self, other: Dist) -> Dist:
        """The distribution of the sum of two independent variables (direct convolution)."""
        if not isinstance(other, Dist):
            return NotImplemented
        return Dist.from_trusted(np.convolve(self._p, other._p))

    def power(self, n: int) -> Dist:
        """The sum of ``n`` independent copies (direct convolution, by repeated squaring)."""
        return Dist.from_trusted(convolve_power(self._p, n))

    def clip(self, upper: int) -> Dist:
        """The distribution of min(X, upper)."""
        if upper < 0:
            raise ValueError(f"upper: must be >= 0, got {upper}")
        if self.max <= upper:
            return self
        p = self._p[: upper + 1].copy()
        p[upper] += self._p[upper + 1 :].sum()
        return Dist.from_trusted(p)

    @staticmethod
    def mixture(weights: Sequence[float] | np.ndarray, dists: Sequence[Dist]) -> Dist:
        """The mixture sum_i weights[i] * dists[i] (weights must sum to 1)."""
        size = max(d.max for d in dists) + 1
        out = np.zeros(size)
        for w, d in zip(weights, dists, strict=True):
            out[: d.max + 1] += w * d._p
        return Dist(out)

    # --- conversions --------------------------------------------------------------------------------
    def to_series(self, name: str | None = None) -> pd.Series:
        """The pmf as a pandas Series indexed by outcome."""
        import pandas as pd

        return pd.Series(self._p.copy(), index=pd.RangeIndex(self._p.size, name="k"), name=name)

    def to_dict(self) -> dict[str, object]:
        """The docs/scenario.md form: {"pmf": [...], "mean": m}."""
        return {"pmf": self._p.tolist(), "mean": self.mean()}  # tolist: the same Python floats, at C speed

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Dist) and self._p.shape == other._p.shape and bool(np.array_equal(self._p, other._p))

    def __hash__(self) -> int:
        return hash(self._p.tobytes())

    def isclose(self, other: Dist, atol: float = 1e-12) -> bool:
        """True when both pmfs agree within ``atol`` at every outcome."""
        n = max(self._p.size, other._p.size)
        a = np.zeros(n)
        b = np.zeros(n)
        a[: self._p.size] = self._p
        b[: other._p.size] = other._p
        return bool(np.all(np.abs(a - b) <= atol))

    def __repr__(self) -> str:
        shown = ", ".join(f"{x:.4g}" for x in self._p[:8])
        more = ", ..." if self._p.size > 8 else ""
        return f"Dist(mean={self.mean():.4g}, pmf=[{shown}{more}])"

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{k}</td><td>{p:.6g}</td></tr>" for k, p in enumerate(self._p))
        return f"<table><tr><th>k</th><th>P(X=k)</th></tr>{rows}</table>"


class TrustedRows:
    """Valid pmfs over the rows of one read-only 2-D array, as ``Dist.from_trusted`` makes each one (rounding
    noise clipped, each row normalised when its sum is off by more than 1e-15, a row without mass the point
    mass at 0), computed for all rows at once: ``pmfs`` (K, W) padded with zeros, ``ends`` each row's length
    once trimmed (one past its last non-zero), ``means`` each row's mean (one matrix product). What the batch
    engine returns over its cells (``engine.batch_results``)."""

    __slots__ = ("ends", "means", "pmfs")

    def __init__(self, pmfs: np.ndarray, ends: list[int], means: list[float]) -> None:
        self.pmfs, self.ends, self.means = pmfs, ends, means

    @classmethod
    def of(cls, rows: np.ndarray, *, owned: bool = False) -> TrustedRows:
        """The trusted rows of a 2-D array of valid pmfs: the caller's array stays untouched, unless ``owned``
        (a new float array of the caller's that it no longer reads: clipped and normalised in place)."""
        if owned and rows.dtype == np.float64 and rows.flags.c_contiguous and rows.flags.writeable:
            arr = np.maximum(rows, 0.0, out=rows)
        else:
            arr = np.maximum(np.asarray(rows, dtype=np.float64), 0.0)  # a new array
        if arr.shape[0] == 0:
            arr.flags.writeable = False
            return cls(arr, [], [])
        positive = arr > 0.0
        last = np.argmax(positive[:, ::-1], axis=1)  # from the end: the last non-zero (0 for a row without one)
        ends = (arr.shape[1] - last).tolist()  # one past the last non-zero
        sums = arr.sum(axis=1)
        off = (sums > 0.0) & (np.abs(sums - 1.0) > 1e-15)
        if off.any():  # in place by a mask (``arr[off] /= ...`` copies the rows out and back: 100x slower)
            np.divide(arr, sums[:, None], out=arr, where=off[:, None])
        empty = ~positive[np.arange(arr.shape[0]), arr.shape[1] - 1 - last]  # no mass: that entry is not positive
        if empty.any():  # no mass: the point mass at 0, as from_trusted gives
            arr[empty, 0] = 1.0
            for i in np.flatnonzero(empty).tolist():
                ends[i] = 1
        arr.flags.writeable = False
        width = arr.shape[1]
        outcomes = _OUTCOMES[:width] if width <= _OUTCOMES.size else np.arange(width, dtype=np.float64)
        return cls(arr, ends, (arr @ outcomes).tolist())  # the zeros past each end add nothing to a mean

    def row(self, j: int) -> np.ndarray:
        """Row j's pmf, trimmed (a read-only view)."""
        return self.pmfs[j, : self.ends[j]]

    def take(self, rows: list[int]) -> TrustedRows:
        """The rows listed, in that order (a new read-only array)."""
        pmfs = self.pmfs[rows]
        pmfs.flags.writeable = False
        return TrustedRows(pmfs, [self.ends[j] for j in rows], [self.means[j] for j in rows])


@lru_cache(maxsize=256)
def _point(k: int) -> Dist:
    p = np.zeros(k + 1)
    p[k] = 1.0
    return Dist.from_trusted(p)


_SET_P = vars(Dist)["_p"].__set__
_SET_M = vars(Dist)["_m"].__set__
"""The setters of a Dist's slots (its pmf, its mean), for the rows built together."""
