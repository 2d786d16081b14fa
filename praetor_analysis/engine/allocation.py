"""Exact allocation of wounds to a unit of identical models (docs/rules.md#damage-and-allocation).

The unit's state is (models removed so far, wounds left on the model being worked on), plus the flags
Pinning reads (whether the unit is Pinned, and the highest Shell Shock among the Pinning weapons that
caused an unsaved wound in this firing unit's attacks; see :func:`set_trigger`). A wound is a *packet*: a
distribution over (unsaved count, damage), damage being what it takes off the current model (a kill is
damage ``W``; overflow on a dying model is lost).

Wounds of one attack are pooled and allocated by priority group (Instant Death first, then AP 2, then the
rest); inside a group the wounds are independent and identically distributed, so the final state is
``sum over counts P(n_1..n_G) * s @ T_1^n_1 ... T_G^n_G``. Groups whose transitions commute are merged
first (the common case is a single group, computed by Horner's rule); otherwise a small dynamic
programme over "hits still to resolve" gives the exact ordered product. Nothing is sampled.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from praetor_analysis.errors import PraetorError
from praetor_analysis.prob import BoundedMemo, binomial_matrix, binomial_table

if TYPE_CHECKING:  # scipy.sparse is loaded by the first unit large enough to need it
    from scipy import sparse

DENSE_STATES = 400
"""Units with more states than this use sparse damage matrices."""

SMALL_MATRIX = 4096
"""Dense damage matrices of at most this many entries are kept by unit space and damage (32 KiB each)."""

MAX_WORK = 4e9
"""The largest number of elementary operations one allocation may take; beyond it the engine says so."""

MAX_BYTES = 1.5 * 2**30
"""The largest state tensor one allocation may hold."""


class TooLarge(PraetorError):
    """An exact computation that would exceed the engine's time or memory bound."""


_SMALL_MATRICES: BoundedMemo[np.ndarray] = BoundedMemo(256)
"""The small dense damage matrices by (unit space, damage) (``UnitSpace.damage_matrix``), emptied by
``clear_memos``."""


@dataclass(frozen=True)
class UnitSpace:
    """The state space of a unit: ``models`` left at the start, ``wounds`` per model."""

    models: int
    wounds: int

    @property
    def size(self) -> int:
        """Number of unit states: (models + 1) x wounds."""
        return (self.models + 1) * self.wounds

    def index(self, kills: int, wounds_left: int) -> int:
        """Flat index of (kills, wounds left on the current model)."""
        if kills >= self.models:
            return self.models * self.wounds + self.wounds - 1
        return kills * self.wounds + (wounds_left - 1)

    def indices(self, kills: np.ndarray, wounds_left: np.ndarray) -> np.ndarray:
        """``index`` of every (kills, wounds left) pair of two arrays."""
        top = self.models * self.wounds + self.wounds - 1
        return np.where(kills >= self.models, top, kills * self.wounds + wounds_left - 1)

    def start(self, wounds_taken: int = 0) -> np.ndarray:
        """The point-mass state vector of an intact unit whose first model has lost ``wounds_taken``."""
        v = np.zeros(self.size)
        if self.models == 0:
            v[self.index(0, self.wounds)] = 1.0
        else:
            v[self.index(0, self.wounds - wounds_taken)] = 1.0
        return v

    def kills_of(self) -> np.ndarray:
        """Kills for every flat state index."""
        return np.repeat(np.arange(self.models + 1), self.wounds)

    def damage_dest(self, damage: int) -> np.ndarray:
        """For every flat state, the state after ``damage`` wounds on the current model (overflow lost)."""
        k = np.repeat(np.arange(self.models + 1), self.wounds)
        w = np.tile(np.arange(1, self.wounds + 1), self.models + 1)
        dead = k >= self.models
        killed = (damage >= w) & ~dead & (damage > 0)
        new_k = np.where(killed, k + 1, k)
        new_w = np.where(killed, self.wounds, np.where(dead | (damage == 0), w, w - damage))
        full = new_k >= self.models
        dest = np.where(full, self.models * self.wounds + self.wounds - 1, new_k * self.wounds + new_w - 1)
        return np.where(dead, np.arange(self.size), dest)  # a wiped-out unit stays as it is

    def shift(self, x: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """``x @ sum_d weights[d] * damage_matrix(d)`` over the last axis of ``x`` (the unit states), computed
        from the states' structure: a wound of ``d`` damage moves ``wounds left`` down by ``d`` on the current
        model, or kills it (overflow lost) and the next model comes in whole; a wiped-out unit stays. Costs
        ``x.size`` operations per damage value, where the matrix product costs ``x.size * states``."""
        m, w = self.models, self.wounds
        if m == 0:
            return x * float(np.sum(weights))
        xs = x.reshape(*x.shape[:-1], m + 1, w)
        out = np.zeros_like(xs)
        live, head = xs[..., :m, :], out[..., :m, :]
        for d, p in enumerate(weights):
            if p == 0.0:
                continue
            if d == 0:
                out += p * xs
                continue
            d = min(d, w)
            if d < w:  # the current model survives with w - d left (index j = wounds left - 1)
                head[..., : w - d] += p * live[..., d:]
            killed = live[..., :d].sum(axis=-1)  # wounds left <= d: the model is removed
            out[..., 1:, w - 1] += p * killed
            out[..., m, :] += p * xs[..., m, :]  # wiped out: unchanged
        return out.reshape(x.shape)

    def damage_matrix(self, damage: int) -> np.ndarray | sparse.csr_array:
        """E[s, s']: the effect of ``damage`` wounds on the current model (dense for small units, sparse
        above ``DENSE_STATES`` states). The small dense ones are kept (``_SMALL_MATRICES``), read-only."""
        n = self.size
        if n * n <= SMALL_MATRIX:
            return _SMALL_MATRICES.get((self, damage), lambda: self._dense(damage))
        if n <= DENSE_STATES:
            return self._dense(damage)
        dest = self.damage_dest(damage)
        from scipy import sparse

        return sparse.csr_array((np.ones(n), (np.arange(n), dest)), shape=(n, n))

    def _dense(self, damage: int) -> np.ndarray:
        """``damage_matrix`` as a new read-only dense matrix."""
        n = self.size
        e = np.zeros((n, n))
        e[np.arange(n), self.damage_dest(damage)] = 1.0
        e.flags.writeable = False
        return e


@dataclass(frozen=True)
class Packet:
    """One wound's effect once saved: ``probs[u, d]`` = P(u unsaved wounds doing d damage)."""

    probs: np.ndarray

    @property
    def damages(self) -> set[int]:
        """Damage values with non-zero probability."""
        return {int(d) for d in np.flatnonzero(self.probs.sum(axis=0) > 0)}

    @property
    def max_unsaved(self) -> int:
        """The largest unsaved count of one packet."""
        return self.probs.shape[0] - 1


def mix_packets(weights: list[float], packets: list[Packet]) -> Packet:
    """The packet that is ``packets[i]`` with probability ``weights[i]`` (weights sum to 1)."""
    u = max(p.probs.shape[0] for p in packets)
    d = max(p.probs.shape[1] for p in packets)
    out = np.zeros((u, d))
    for w, p in zip(weights, packets, strict=True):
        out[: p.probs.shape[0], : p.probs.shape[1]] += w * p.probs
    return Packet(out)


def _commute(a: Packet, b: Packet, wounds: int) -> bool:
    """True when two packets' transitions commute (so their order of allocation does not matter)."""
    if wounds == 1:
        return True
    da, db = a.damages | {0}, b.damages | {0}
    return (da <= {0, 1} and db <= {0, 1}) or (da <= {0, wounds} and db <= {0, wounds})


@dataclass(frozen=True)
class WoundGroup:
    """A priority group: probability per hit that it yields a wound of this group, and its packet."""

    p: float
    packet: Packet


def merge_groups(groups: list[WoundGroup], wounds: int) -> list[WoundGroup]:
    """Drop empty groups and merge consecutive groups whose transitions commute."""
    out: list[WoundGroup] = []
    for g in groups:
        if g.p <= 0.0:
            continue
        if out and _commute(out[-1].packet, g.packet, wounds):
            prev = out[-1]
            total = prev.p + g.p
            out[-1] = WoundGroup(total, mix_packets([prev.p / total, g.p / total], [prev.packet, g.packet]))
        else:
            out.append(g)
    return out


def count_damage(groups: list[WoundGroup], wounds: int) -> int | None:
    """The damage every state-changing wound of ``groups`` does, when it makes the unit's state a function
    of how many such wounds there were: 1 (one wound off the current model; Brutal against one-wound models
    too) or ``wounds`` (the whole model: Instant Death); None when the allocation chain is needed."""
    damages: set[int] = set()
    for g in groups:
        step = effective_step(g) if g.p > 0.0 else (0.0, g.packet)
        if step is None:
            return None
        if step[0] > 0.0:
            damages |= {int(d) for d in np.flatnonzero(step[1].probs[1:].sum(axis=0) > 0.0)}
    if len(damages) > 1:
        return None
    damage = damages.pop() if damages else 1
    return damage if damage in (1, wounds) else None


def after_count(
    counts: np.ndarray, wounds_left: int, wounds: int, models: int, damage: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """(models removed, wounds left on the current model) after each count in ``counts`` of wounds doing
    ``damage`` (1, or ``wounds``: the whole model) on a fresh unit of ``models`` models of ``wounds`` wounds
    whose first has ``wounds_left``."""
    if damage >= wounds:
        kills = np.minimum(counts, models)
        return kills, np.where(counts == 0, wounds_left, wounds)
    over = np.maximum(counts - wounds_left, 0)
    kills = np.minimum(np.where(counts < wounds_left, 0, 1 + over // wounds), models)
    left = np.where(counts < wounds_left, wounds_left - counts, wounds - over % wounds)
    return kills, left


class Allocator:
    """Applies packets to state tensors of shape (..., U, F, S).

    ``U`` counts unsaved wounds produced (tracked only when asked, for Deflagrate), ``F`` the Pinning flags
    (``2 * T`` entries, index ``pinned * T + t``: see :func:`set_trigger`), ``S`` the unit state.
    """

    def __init__(self, space: UnitSpace, *, pinning: bool, level: int = 1) -> None:
        self.space = space
        self.pinning = pinning
        self.level = level
        self._mats: dict[int, np.ndarray] = {}

    def _matrix(self, damage: int) -> np.ndarray:
        d = min(damage, self.space.wounds)
        if d not in self._mats:
            self._mats[d] = self.space.damage_matrix(d)
        return self._mats[d]

    def apply(self, x: np.ndarray, packet: Packet, *, track: bool) -> np.ndarray:
        """One wound of ``packet`` applied to every state of ``x`` (shape (..., U, F, S))."""
        out = np.zeros_like(x)
        probs = packet.probs
        for u in range(probs.shape[0]):
            for d in range(probs.shape[1]):
                w = probs[u, d]
                if w == 0.0:
                    continue
                if d:
                    m = self._matrix(d)
                    y = x @ m if isinstance(m, np.ndarray) else (m.T @ x.reshape(-1, x.shape[-1]).T).T.reshape(x.shape)
                else:
                    y = x
                if u > 0 and self.pinning:
                    y = set_trigger(y, self.level)
                if track and u > 0:
                    shifted = np.zeros_like(y)
                    shifted[..., u:, :, :] = y[..., :-u, :, :]
                    y = shifted
                out += w * y
        return out

    def resolve(
        self,
        x: np.ndarray,
        groups: list[WoundGroup],
        *,
        track: bool,
        u_max: int = 0,
        factors: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> np.ndarray:
        """Resolve the hits of ``x`` (shape (R, *B, F, S): probability that R hits remain, with optional
        batch axes B carried along untouched) into (*B, U, F, S).

        Each hit yields a wound of group g with probability ``groups[g].p`` (in allocation order). ``factors``
        (``hits``, ``start``) says that ``x`` is ``hits[:, None, None] * start`` (the usual first call): the
        capped chain then never multiplies the hits by the unit states.
        """
        groups = merge_groups(groups, self.space.wounds)
        if not track:
            steps = [effective_step(g) for g in groups]
            if all(step is not None for step in steps):
                kept = [step for step in steps if step is not None and step[0] > 0.0]
                return self._resolve_capped(x, kept, factors)
        u_size = u_max + 1 if track else 1
        check_size(x.shape, groups, u_size)
        state = np.zeros((*x.shape[:-2], u_size, *x.shape[-2:]))
        state[..., 0, :, :] = x
        remaining = 1.0
        for i, g in enumerate(groups):
            cond = min(g.p / remaining, 1.0) if remaining > 0 else 0.0
            last = i == len(groups) - 1
            state = self._split(state, g.packet, cond, track=track, last=last)
            remaining -= g.p
        if not groups:  # no hit can wound: the remaining hits change nothing
            state = state.sum(axis=0)
        return state

    def step_matrix(self, packet: Packet) -> np.ndarray | sparse.csr_array:
        """The state transition of one wound of ``packet`` (all its damages mixed in one matrix)."""
        total: np.ndarray | sparse.csr_array | None = None
        for d, w in enumerate(packet.probs.sum(axis=0)):
            if w != 0.0:
                term = w * self._matrix(d)
                total = term if total is None else total + term
        return total if total is not None else self.space.damage_matrix(0)

    def _step(self, x: np.ndarray, weights: np.ndarray) -> np.ndarray:
        """One effective wound (``weights[d]``: P(it does ``d`` damage); it raises the Pinning trigger) on ``x``
        (..., F, S), by :meth:`UnitSpace.shift`: ``cells x damages`` operations, no matrix."""
        y = self.space.shift(x, weights)
        return set_trigger(y, self.level) if self.pinning else y

    def _resolve_capped(
        self, x: np.ndarray, steps: list[tuple[float, Packet]], factors: tuple[np.ndarray, np.ndarray] | None = None
    ) -> np.ndarray:
        """``resolve`` counting only the wounds that change the state (each takes at least one wound off the
        unit), so at most ``models * wounds`` of them matter in a group: linear in the hits.

        After ``cap`` effective wounds every state is wiped out with its Pinning trigger raised, a fixed
        point of every later wound, so the Binomial tail beyond ``cap`` is lumped into the ``cap``-th power.
        With ``factors`` (``hits``, ``start``: ``x`` is their outer product) the first group's powers are taken
        of ``start`` alone (:func:`capped_work` counts the operations).
        """
        cap = self.space.models * self.space.wounds
        r_size = x.shape[0]
        damages = max((int(np.count_nonzero(p.probs.sum(axis=0))) for _, p in steps), default=1)
        check_work(x.shape, min(cap, r_size - 1) + 1, len(steps), factored=factors is not None, damages=damages)
        state = x
        remaining = 1.0
        for i, (a, packet) in enumerate(steps):
            q = min(a / remaining, 1.0) if remaining > 0 else 0.0
            remaining -= a
            weights = packet.probs.sum(axis=0)
            r_max = state.shape[0] - 1
            b_max = min(cap, r_max)
            table = binomial_table(r_max, q, b_max)  # table[r, b] = P(b of r hits are effective here)
            tail = np.maximum(1.0 - table.sum(axis=1), 0.0) if b_max < r_max else None
            last = i == len(steps) - 1
            if i == 0 and factors is not None:
                hits, start = factors
                if last:  # y[b] = P(b effective wounds) start
                    counts = hits @ table
                    if tail is not None:
                        counts[b_max] += tail @ hits
                    y = counts.reshape((-1,) + (1,) * start.ndim) * start
                else:
                    state = self._first_factored(hits, start, table, tail, weights)
                    continue
            elif last:
                y = np.tensordot(table.T, state, axes=(1, 0))
                if tail is not None:
                    y[b_max] += np.tensordot(tail, state, axes=(0, 0))
            if last:  # the last group: Horner's rule over the effective wounds
                acc = y[b_max]
                for b in range(b_max - 1, -1, -1):
                    acc = self._step(acc, weights) + y[b]
                return acc[..., None, :, :]
            out = np.zeros_like(state)
            z = state  # z[j] = T^b state[j + b]
            for b in range(b_max + 1):
                out[: r_max + 1 - b] += table[b:, b].reshape((-1,) + (1,) * (state.ndim - 1)) * z
                if b < b_max:
                    z = self._step(z[1:], weights)
            if tail is not None:  # more than cap effective wounds: wiped out, unchanged by what follows
                out[0] += np.tensordot(tail[b_max:], z, axes=(0, 0))
            state = out
        return state.sum(axis=0)[..., None, :, :]  # no hit can change the state

    def _first_factored(
        self, hits: np.ndarray, start: np.ndarray, table: np.ndarray, tail: np.ndarray | None, weights: np.ndarray
    ) -> np.ndarray:
        """A first (not last) group of ``_resolve_capped`` on ``hits`` x ``start``: ``out[j] = sum_b
        table[j + b, b] hits[j + b] start T^b``, one product of a (hits, counts) matrix with the powers."""
        r_max, b_max = table.shape[0] - 1, table.shape[1] - 1
        powers = [start]
        for _ in range(b_max):
            powers.append(self._step(powers[-1], weights))
        v = np.stack(powers).reshape(b_max + 1, -1)
        j = np.arange(r_max + 1)[:, None]
        b = np.arange(b_max + 1)[None, :]
        rows = np.minimum(j + b, r_max)
        mix = np.where(j + b <= r_max, table[rows, b] * hits[rows], 0.0)  # mix[j, b]
        out = (mix @ v).reshape(r_max + 1, *start.shape)
        if tail is not None:
            out[0] += float(tail[b_max:] @ hits[b_max:]) * powers[-1]
        return out

    def _split(self, state: np.ndarray, packet: Packet, q: float, *, track: bool, last: bool) -> np.ndarray:
        """Take b ~ Binomial(r, q) of the r remaining hits into this group and apply b packets."""
        r_size = state.shape[0]
        binom = binomial_matrix(r_size - 1, q)  # binom[r, b]
        if last:
            # Y_b = sum_r binom[r, b] state[r]; result = sum_b Y_b T^b by Horner's rule.
            y = np.tensordot(binom.T, state, axes=(1, 0))
            acc = y[-1]
            for b in range(r_size - 2, -1, -1):
                acc = self.apply(acc, packet, track=track) + y[b]
            return acc
        out = np.zeros_like(state)
        z = state
        for b in range(r_size):
            # hits r = r' + b, b of them in this group: out[r'] += binom[r, b] * T^b state[r]
            rows = np.arange(b, r_size)
            w = binom[rows, b]
            out[rows - b] += w.reshape((-1,) + (1,) * (state.ndim - 1)) * z[rows]
            if b + 1 < r_size:
                z = self.apply(z, packet, track=track)
        return out


def check_size(shape: tuple[int, ...], groups: list[WoundGroup], u_size: int) -> None:
    """Refuse an allocation whose state tensor or work would exceed ``MAX_BYTES`` or ``MAX_WORK``."""
    r_size = shape[0]
    cells = float(np.prod(shape)) * u_size
    outcomes = max((int(np.count_nonzero(g.packet.probs)) for g in groups), default=1)
    work = 0.0
    for i, _ in enumerate(groups):
        work += cells * outcomes * (r_size if i < len(groups) - 1 else 1)
    if cells * 8 * 3 > MAX_BYTES or work > MAX_WORK:
        raise TooLarge(
            f"attacks: {r_size - 1} hits against {shape[-1]} unit states is too large to compute exactly here "
            f"({cells * 8 * 3 / 2**30:.1f} GiB, {work:.1e} operations); use fewer attacks or models",
            field="attacks",
            value=r_size - 1,
        )


def effective_step(group: WoundGroup) -> tuple[float, Packet] | None:
    """(P(one hit yields a wound that changes the unit's state), that wound's packet given it does), or
    None when the packet has an unsaved wound doing no damage (or damage without an unsaved wound)."""
    probs = group.packet.probs
    if probs[0, 1:].any() or probs[1:, 0].any():
        return None
    changed = float(probs[1:].sum())
    if changed <= 0.0:
        return 0.0, group.packet
    scaled = np.zeros_like(probs)
    scaled[1:] = probs[1:] / changed
    return group.p * changed, Packet(scaled)


CHAIN_STEP_S = 100e-6
"""Seconds of one wound applied in the capped chain's Python loop (a few numpy calls), whatever its size."""
CHAIN_CELL_S = 5e-9
"""Seconds per state x damage value of one wound applied (:meth:`UnitSpace.shift`: slices, sums, adds)."""
CHAIN_PRODUCT_S = 0.2e-9
"""Seconds per multiply-add of the chain's matrix products (BLAS)."""
MAX_CHAIN_SECONDS = 10.0
"""The capped chain's estimated seconds (:func:`capped_seconds`) beyond which it is refused."""


def capped_seconds(
    shape: tuple[int, ...], powers: int, groups: int, *, factored: bool = False, damages: int = 2
) -> float:
    """The capped chain's (``Allocator._resolve_capped``) estimated CPU seconds: its one cost model, which its
    refusal follows. ``shape`` is (R hits + 1, *batch, F flags, S states), ``powers`` = ``B`` the effective
    wounds counted per group (``min(models x wounds, R) + 1``), ``damages`` ``D`` the damage values of one
    wound; ``C = batch x F x S``. Each group applies ``B`` wounds (``B`` loop steps, :data:`CHAIN_STEP_S`):

    - the last group applies them to one tensor of ``C`` (``B x C x D`` cells, :data:`CHAIN_CELL_S`) after its
      counts: ``R x B`` multiply-adds when ``x`` is factored and it is the only group, else ``R x B x C``;
    - a first, factored, not last group applies them to ``start`` (``B x C x D``) and mixes the powers by one
      ``R x B x C`` product (:data:`CHAIN_PRODUCT_S`);
    - any other group applies each to every count of hits left: ``R x B x C x D`` cells.

    Every term grows with the hits and with the models (``R``, ``B``, ``S``), so more attacks or more models
    never cost less and the refusal never falls below a case that runs. A lone group (Brutal, or Murderous
    Strike alone, against multi-wound models) is at most ``R x models x wounds`` times a constant: linear in the
    attacks times the models. Each further group adds a product of ``R x B x C``: the attacks times the models
    squared while the models' wounds are fewer than the attacks.
    """
    r_size, cells = shape[0], float(math.prod(shape[1:]))
    if groups == 0:
        return CHAIN_CELL_S * r_size * cells
    seconds = CHAIN_STEP_S * powers * groups + CHAIN_CELL_S * powers * cells * damages
    if factored and groups == 1:
        return seconds + CHAIN_PRODUCT_S * r_size * powers
    seconds += CHAIN_PRODUCT_S * r_size * powers * cells  # the last group's counts, or the first's mix
    middle = groups - (2 if factored else 1)
    return seconds + max(middle, 0) * CHAIN_CELL_S * r_size * powers * cells * damages


def check_work(shape: tuple[int, ...], powers: int, groups: int, *, factored: bool = False, damages: int = 2) -> None:
    """Refuse a capped allocation (``powers`` steps per group) beyond ``MAX_BYTES`` or
    :data:`MAX_CHAIN_SECONDS` by :func:`capped_seconds`."""
    cells = float(math.prod(shape))
    states = shape[-1]
    seconds = capped_seconds(shape, powers, groups, factored=factored, damages=damages)
    if cells * 8 * 3 > MAX_BYTES or seconds > MAX_CHAIN_SECONDS:
        raise TooLarge(
            f"attacks: {shape[0] - 1} hits against {states} unit states is too large to compute exactly here "
            f"({cells * 8 * 3 / 2**30:.1f} GiB, about {seconds:.0f} s; limit {MAX_CHAIN_SECONDS:.0f} s); "
            "use fewer attacks or models"
        )


def set_trigger(y: np.ndarray, level: int = 1) -> np.ndarray:
    """Raise the Pinning trigger of every state to at least ``level``.

    The flag axis (second to last) has ``2 * T`` entries: index ``pinned * T + t``, where ``t`` is 0 for "no
    unsaved wound from a Pinning weapon yet" and otherwise the index of the highest Shell Shock among the
    Pinning weapons that caused one. Without Pinning the axis has size 1 and nothing moves.
    """
    flags = y.shape[-2]
    if flags == 1:
        return y
    levels = flags // 2
    out = y.copy()
    for pinned in (0, 1):
        base = pinned * levels
        for t in range(level):
            out[..., base + level, :] += out[..., base + t, :]
            out[..., base + t, :] = 0.0
    return out
