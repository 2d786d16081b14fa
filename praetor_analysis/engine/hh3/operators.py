"""The linear maps of one class step of the edition 3 chain, on every status key of the target at once.

The chain's work is an array ``A[key, r, hp]``: the probability of the status key, ``r`` dice not yet classed
and ``hp`` wounds left. One class step draws Binomial(r, q) of the ``r`` dice into its class; a die of an
Unsaved Wound class takes the unit down one Unsaved Wound (the per-wound matrix ``T``), the ``k`` wounds of the
step followed by their Deflagrate hits (``D``, Damage 1 each, no excess lost). So the step is one matrix on
the pairs ``(r, hp)``: ``Q[(r, hp), (r - k, hp')] = B[r, k] (T^k D^k)[hp, hp']``. Where the pairs are few (the
common case: a few dozen dice, a few dozen wounds) that matrix is built dense and applied in one product;
beyond, the ``k`` wounds are applied one power at a time (sparse ``T`` for a large unit). Matrices are kept in
bounded memos keyed by the frozen records' hashes (:func:`~praetor_analysis.prob.clear_memos` empties them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from praetor_analysis.prob import BoundedMemo, Dist, binomial_matrix, binomial_pmf

__all__ = [
    "DENSE_PAIRS",
    "DENSE_WOUNDS",
    "apply_wound",
    "class_step",
    "deflagrate_hits",
    "deflagrate_operator",
    "landing",
    "wound_operator",
]

DENSE_PAIRS = 640
"""The most (dice + 1) x (hit points + 1) pairs for which a wound step is one dense matrix (640^2 floats, 3 MB)."""

DENSE_WOUNDS = 1024
"""The most hit points + 1 for which the per-wound matrix is dense (beyond: scipy sparse)."""

_LANDING: BoundedMemo[np.ndarray] = BoundedMemo(2048)
_WOUND: BoundedMemo[np.ndarray] = BoundedMemo(1024)
_POWERS: BoundedMemo[np.ndarray] = BoundedMemo(512)
_STEP: BoundedMemo[np.ndarray] = BoundedMemo(512)
_SPARSE: BoundedMemo[Any] = BoundedMemo(64)


def _from_hit_points(hp: np.ndarray, w: int) -> tuple[np.ndarray, np.ndarray]:
    m = -(-hp // w)
    return m, hp - (m - 1) * w


def _targets(damage: Dist, w: int, size: int) -> list[tuple[float, np.ndarray]]:
    """Per Damage value of nonzero probability: (p, hp' of every hp) for one Unsaved Wound (hp 0 stays 0)."""
    hp = np.arange(size)
    m, c = _from_hit_points(np.maximum(hp, 1), w)
    out = []
    for d, p in enumerate(damage.probabilities.tolist()):
        if p == 0.0:
            continue
        dest = hp.copy() if d <= 0 else np.where(d < c, hp - d, (m - 1) * w)
        dest[0] = 0
        out.append((p, dest))
    return out


def wound_operator(damage: Dist, w: int, size: int) -> np.ndarray:
    """T[hp, hp'] = P(one Unsaved Wound of ``damage`` takes the unit of W ``w`` from hp to hp' wounds left),
    dense (read-only, memoised): the damaged model takes it, and a model that dies loses the rest."""

    def build() -> np.ndarray:
        t = np.zeros((size, size))
        rows = np.arange(size)
        for p, dest in _targets(damage, w, size):
            np.add.at(t, (rows, dest), p)
        t.flags.writeable = False
        return t

    return _WOUND.get((damage, w, size), build)


def _sparse_operator(damage: Dist, w: int, size: int) -> Any:
    """The transpose of :func:`wound_operator` as a scipy CSR matrix (a few entries per row), for a large unit."""

    def build() -> Any:
        from scipy import sparse  # imported when first needed: ~0.3 s at start-up (bench/bench_startup.py)

        rows, cols, vals = [], [], []
        for p, dest in _targets(damage, w, size):
            rows.append(dest)
            cols.append(np.arange(size))
            vals.append(np.full(size, p))
        return sparse.csr_matrix(
            (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(size, size)
        )  # duplicates are summed

    return _SPARSE.get((damage, w, size), build)


def apply_wound(x: np.ndarray, damage: Dist, w: int) -> np.ndarray:
    """``x`` (hit-point distributions on its last axis) after one Unsaved Wound of ``damage`` on models of W
    ``w``: ``x @ T``, with a dense ``T`` up to :data:`DENSE_WOUNDS` hit points, a sparse one beyond."""
    size = x.shape[-1]
    if size <= DENSE_WOUNDS:
        return np.asarray(x @ wound_operator(damage, w, size))
    flat = x.reshape(-1, size)
    return np.asarray((_sparse_operator(damage, w, size) @ flat.T).T).reshape(x.shape)


def deflagrate_operator(p: float, size: int) -> np.ndarray:
    """D[hp, hp'] = P(one Deflagrate hit (Damage 1, an Unsaved Wound with probability ``p``) takes hp to hp')."""
    d = np.eye(size) * (1.0 - p)
    d[0, 0] = 1.0
    idx = np.arange(1, size)
    d[idx, idx - 1] += p
    return d


def deflagrate_hits(part: np.ndarray, k: int, p: float) -> np.ndarray:
    """``part`` (hit-point distributions on its last axis) after Binomial(k, p) wounds of Damage 1 (no excess
    lost): ``part @ D^k`` by shifts, for a unit too large for a dense ``D``."""
    out = np.zeros_like(part)
    for j, wj in enumerate(binomial_pmf(k, p).tolist()):
        if wj == 0.0:
            continue
        if j == 0:
            out += wj * part
            continue
        out[..., 1:-j] += wj * part[..., 1 + j :]
        out[..., 0] += wj * part[..., : j + 1].sum(axis=-1)
    return out


def landing(rmax: int, q: float) -> np.ndarray:
    """L[s, r] = P(r - s of r dice fall into a class of probability ``q``): the dice left after a step
    (read-only, memoised)."""

    def build() -> np.ndarray:
        b = binomial_matrix(rmax, q)
        r = np.arange(rmax + 1)
        k = r[None, :] - r[:, None]
        out = np.where(k >= 0, b[r[None, :], np.maximum(k, 0)], 0.0)
        out.flags.writeable = False
        return out

    return _LANDING.get((rmax, q), build)


def _powers(damage: Dist, w: int, size: int, p_df: float, rmax: int) -> np.ndarray:
    """E[k] = T^k D^k for k in 0..rmax (``k`` Unsaved Wounds, then their Deflagrate hits)."""

    def build() -> np.ndarray:
        t = wound_operator(damage, w, size)
        d = deflagrate_operator(p_df, size) if p_df > 0.0 else None
        out = np.empty((rmax + 1, size, size))
        out[0] = np.eye(size)
        tk, dk = out[0], out[0]
        for k in range(1, rmax + 1):
            tk = tk @ t
            if d is None:
                out[k] = tk
            else:
                dk = dk @ d
                out[k] = tk @ dk
        out.flags.writeable = False
        return out

    return _POWERS.get((damage, w, size, p_df, rmax), build)


def _dense_step(damage: Dist, w: int, size: int, p_df: float, rmax: int, q: float) -> np.ndarray:
    """Q[(r, hp), (s, hp')] of the module docstring, ((rmax + 1) * size) square."""

    def build() -> np.ndarray:
        e = _powers(damage, w, size, p_df, rmax)
        b = binomial_matrix(rmax, q)
        r = np.arange(rmax + 1)
        k = r[:, None] - r[None, :]  # k[r, s] = r - s
        coeff = np.where(k >= 0, b[r[:, None], np.maximum(k, 0)], 0.0)
        q4 = coeff[:, :, None, None] * e[np.maximum(k, 0)]  # [r, s, hp, hp']
        out = np.ascontiguousarray(q4.transpose(0, 2, 1, 3)).reshape((rmax + 1) * size, (rmax + 1) * size)
        out.flags.writeable = False
        return out

    return _STEP.get((damage, w, size, p_df, rmax, q), build)


def class_step(a: np.ndarray, q: float, damage: Dist | None, w: int, p_df: float = 0.0) -> np.ndarray:
    """``a[key, r, hp]`` after Binomial(r, ``q``) of the ``r`` dice fall into one class: set aside (``damage``
    None) or each an Unsaved Wound of ``damage`` followed by its Deflagrate hit (``p_df``: P(that hit is an
    Unsaved Wound)). Row ``s`` of the result holds the dice left."""
    nkeys, rows, size = a.shape
    rmax = rows - 1
    if damage is None:
        return a if q <= 0.0 else np.matmul(landing(rmax, q), a)
    if q <= 0.0:
        return a
    if rows * size <= DENSE_PAIRS:
        return (a.reshape(nkeys, rows * size) @ _dense_step(damage, w, size, p_df, rmax, q)).reshape(a.shape)
    b = binomial_matrix(rmax, q)
    out = a * b[:, 0][None, :, None]
    powered = a
    for k in range(1, rows):
        powered = apply_wound(powered[:, 1:], damage, w)
        weight = b[k:, k]
        if not weight.any():
            continue
        part = powered * weight[None, :, None]
        out[:, : rows - k] += deflagrate_hits(part, k, p_df) if p_df > 0.0 else part
    return out
