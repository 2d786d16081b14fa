"""Hits against a Vehicle, chained over hull points (docs/rules.md#vehicles).

Each hit of an attack is independent and does what :func:`~praetor_analysis.vehicles.penetration.hit_outcome`
says. The hits land one after another on a Markov chain over the hull points left (0..hp), so the result is
exact for any distribution of the number of hits and any starting hull points; the final hull points
(``state``) carry over to the next weapon or firing unit (:func:`resolve_vehicle_sequence`).

Readings where the rules leave room:

- ``glancing`` and ``penetrating`` count every unsaved hit of the attack, also those after the vehicle is
  wrecked (the penetration rolls of an attack are made together), like ``unsaved`` for other targets;
  ``hull_points`` is capped at the hull points left.
- A damage result counts in ``damage_results`` only when its Penetrating Hit lands on a vehicle with at
  least one hull point left (a result rolled for the hit that removes the last one counts; results for
  hits on a wreck do not).
- Explodes' extra hull points are removed together with the hit's own, capped at what is left.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from praetor_analysis.prob import BoundedMemo, Dist, compound, thin
from praetor_analysis.vehicles.damage_table import DEFAULT_DAMAGE_TABLE, DamageTable
from praetor_analysis.vehicles.penetration import HitKind, HitOutcome, PenetratingWeapon, VehicleTarget, hit_outcome

GETS_HOT_GLANCING = 2.0 / 6.0
"""P(a Gets Hot roll of 1 on a vehicle firer becomes a Glancing Hit): its D6 shows 1 or 2."""


@dataclass(frozen=True)
class VehicleResult:
    """The outcome of one attack against a Vehicle.

    Attributes:
        glancing: unsaved Glancing Hits.
        penetrating: unsaved Penetrating Hits (Exoshock's extra hits included).
        hull_points: hull points removed, capped at the hull points left.
        wrecked: P(the vehicle has no hull points left at the end).
        damage_results: P(at least one) of each damage table result.
        state: pmf of the hull points left afterwards, over 0..hp (read-only).
        per_hit: what one hit does.
        applied: rule names that were applied.
        not_modelled: rule names in the profile that had no effect or are not modelled here.
    """

    glancing: Dist
    penetrating: Dist
    hull_points: Dist
    wrecked: float
    damage_results: dict[str, float]
    state: np.ndarray
    per_hit: HitOutcome
    applied: list[str] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, object]:
        """The docs/scenario.md form of a vehicle result (plus ``damage_results`` and ``hp_left``)."""
        return {
            "glancing": self.glancing.to_dict(),
            "penetrating": self.penetrating.to_dict(),
            "hull_points": self.hull_points.to_dict(),
            "wrecked": self.wrecked,
            "damage_results": dict(self.damage_results),
            "hp_left": Dist.from_trusted(self.state).to_dict(),
            "applied": list(self.applied),
            "not_modelled": list(self.not_modelled),
        }


@dataclass(frozen=True)
class VehicleVolley:
    """One weapon's attack in a sequence: its hits and profile, and whether it is at half range."""

    hits: Dist | np.ndarray
    weapon: PenetratingWeapon
    half_range: bool = False


def _as_pmf(values: Dist | np.ndarray | Sequence[float], name: str) -> np.ndarray:
    arr = values.probabilities if isinstance(values, Dist) else np.asarray(values, dtype=np.float64)
    if arr.ndim != 1 or arr.size == 0 or np.any(arr < -1e-12) or abs(arr.sum() - 1.0) > 1e-9:
        raise ValueError(f"{name}: expected a pmf (non-negative, summing to 1), got {arr!r}")
    return np.clip(arr, 0.0, None)


def _transitions(rows: Sequence[HitOutcome], top: int, flag: str | None) -> np.ndarray:
    """Transition matrix of one hit over hull points left 0..top (``rows[hp]``: the hit's outcome when the
    vehicle has ``hp`` hull points left).

    With ``flag`` the state is ``(hp_left, seen)`` at index ``seen * (top + 1) + hp_left``, ``seen``
    becoming 1 once a ``flag`` result is rolled while the vehicle still stands.
    """
    size = top + 1
    layers = 1 if flag is None else 2
    t = np.zeros((layers * size, layers * size))
    for seen in range(layers):
        for hp in range(size):
            for seq, p in rows[hp].sequences.items():
                left, now = hp, seen
                for lost, result in seq:
                    if left > 0:
                        now = 1 if (flag is not None and result == flag) else now
                        left = max(left - lost, 0)
                t[seen * size + hp, now * size + left] += p
    return t


def _run(counts: np.ndarray, start: np.ndarray, trans: np.ndarray) -> np.ndarray:
    """sum_n counts[n] * start @ trans^n (``start`` may be a matrix of row vectors)."""
    acc = np.zeros_like(start)
    state = start
    for n, w in enumerate(counts):
        if w > 0.0:
            acc += w * state
        if n + 1 < counts.size:
            state = state @ trans
    return acc


class Transitions(dict[str | None, np.ndarray]):
    """Transition matrices of one hit, built on first use: ``[None]`` for hull points, ``[result]`` with the
    flag of a damage result. ``rows[hp]`` is the hit's outcome at ``hp`` hull points left; ``state_dependent``
    is True when they differ (Sunder's choice at few hull points left), so hits are not alike."""

    def __init__(self, rows: Sequence[HitOutcome], top: int) -> None:
        super().__init__()
        self.rows, self._top = tuple(rows), top
        self.state_dependent = any(r.sequences != rows[0].sequences for r in rows)

    def __missing__(self, flag: str | None) -> np.ndarray:
        self[flag] = _transitions(self.rows, self._top, flag)
        return self[flag]

    def count_chain(self, counts: np.ndarray, start: np.ndarray, kind: HitKind) -> np.ndarray:
        """pmf of the unsaved Glancing (``kind`` "glancing") or Penetrating Hits of ``counts`` hits, the
        outcome of each hit read at the hull points left when it lands (exact, state by state)."""
        n_max = counts.size - 1
        state = np.zeros((self._top + 1, 2 * n_max + 1))
        state[:, 0] = start
        out = np.zeros(2 * n_max + 1)
        for n, w in enumerate(counts):
            if w > 0.0:
                out += w * state.sum(axis=0)
            if n == n_max:
                break
            nxt = np.zeros_like(state)
            for hp in range(self._top + 1):
                if not state[hp].any():
                    continue
                for seq, p in self.rows[hp].sequences.items():
                    left = hp
                    for lost, _ in seq:
                        left = max(left - lost, 0) if left > 0 else 0
                    k = sum(1 for _, r in seq if (r is None) == (kind == "glancing"))
                    nxt[left, k:] += p * state[hp, : state.shape[1] - k]
            state = nxt
        return np.trim_zeros(out, "b") if out.any() else np.ones(1)


_PER_HIT: BoundedMemo[tuple[HitOutcome, Transitions]] = BoundedMemo(4096)


def per_hit_outcome(
    weapon: PenetratingWeapon, target: VehicleTarget, half_range: bool, table: DamageTable
) -> tuple[HitOutcome, Transitions]:
    """The per-hit outcome and its hull-point transitions, computed once per (weapon, target, table)."""

    def build() -> tuple[HitOutcome, Transitions]:
        if not weapon.sunder or weapon.haywire:
            outcome = hit_outcome(weapon, target, half_range=half_range, table=table)
            return outcome, Transitions([outcome] * (target.hp + 1), target.hp)
        # Sunder's choice counts the hull points left: one outcome per state (on a wreck nothing is left to
        # gain, so a glance is kept)
        rows = [
            hit_outcome(weapon, target, half_range=half_range, table=table, hp_left=hp) for hp in range(target.hp + 1)
        ]
        return rows[-1], Transitions(rows, target.hp)  # the outcome of a hit on the whole vehicle

    key = (weapon, target, half_range, id(table) if table is DEFAULT_DAMAGE_TABLE else table)
    return _PER_HIT.get(key, build)  # unhashable fields (e.g. invulnerable saves per facing): no memo


def _count_dist(
    counts: np.ndarray, start: np.ndarray, outcome: HitOutcome, transitions: Transitions, kind: HitKind
) -> Dist:
    """Unsaved Glancing or Penetrating Hits of the attack: alike hits compound; otherwise state by state."""
    if transitions.state_dependent:
        return Dist.from_trusted(transitions.count_chain(counts, start, kind))
    return Dist.from_trusted(compound(counts, outcome.count_pmf(kind)))


def resolve_vehicle(
    hits: Dist | np.ndarray,
    weapon: PenetratingWeapon,
    target: VehicleTarget,
    start: Dist | np.ndarray | None = None,
    *,
    half_range: bool = False,
    table: DamageTable = DEFAULT_DAMAGE_TABLE,
) -> VehicleResult:
    """Resolve a number of hits of one weapon against a Vehicle, exactly.

    Args:
        hits: distribution of the number of hits (a Dist or pmf array over 0..n).
        weapon: the weapon profile.
        target: the vehicle (its ``hp_left`` is the start unless ``start`` is given).
        start: pmf of the hull points left before the attack, over 0..k with k <= ``target.hp``
            (e.g. the ``state`` of a previous result).
        half_range: the target is at half the weapon's range or less (Armourbane (Melta)).
        table: the Vehicle Damage table.

    Returns:
        The distributions of unsaved Glancing and Penetrating Hits and of hull points removed, P(wrecked),
        P(at least one) of each damage result, and the hull points left for the next attack.
    """
    counts = _as_pmf(hits, "hits")
    if start is None:
        start_pmf = np.zeros(target.hp + 1)
        start_pmf[target.hp_left] = 1.0
    else:
        start_pmf = _as_pmf(start, "start")
        if start_pmf.size > target.hp + 1:
            raise ValueError(f"start: hull points left go up to {start_pmf.size - 1}, above hp {target.hp}")
        start_pmf = np.concatenate((start_pmf, np.zeros(target.hp + 1 - start_pmf.size)))
    outcome, transitions = per_hit_outcome(weapon, target, half_range, table)
    top = target.hp

    joint = _run(counts, np.diag(start_pmf), transitions[None])  # [hp before, hp after]
    state = joint.sum(axis=0)
    removed = np.zeros(top + 1)
    for before in range(top + 1):
        removed[: before + 1] += joint[before, before::-1]

    flagged_start = np.concatenate((start_pmf, np.zeros(top + 1)))
    damage = {}
    for name in table.results:
        final = _run(counts, flagged_start, transitions[name])
        damage[name] = float(np.clip(final[top + 1 :].sum(), 0.0, 1.0))

    state = np.clip(state, 0.0, None)
    state.flags.writeable = False
    return VehicleResult(
        glancing=_count_dist(counts, start_pmf, outcome, transitions, "glancing"),
        penetrating=_count_dist(counts, start_pmf, outcome, transitions, "penetrating"),
        hull_points=Dist.from_trusted(removed),
        wrecked=float(min(state[0], 1.0)),
        damage_results=damage,
        state=state,
        per_hit=outcome,
        applied=list(outcome.applied),
        not_modelled=list(outcome.not_modelled),
    )


def resolve_vehicle_sequence(
    volleys: Iterable[VehicleVolley | tuple],
    target: VehicleTarget,
    start: Dist | np.ndarray | None = None,
    *,
    table: DamageTable = DEFAULT_DAMAGE_TABLE,
) -> list[VehicleResult]:
    """Resolve several attacks in turn on one vehicle, carrying the hull points left from one to the next.

    Args:
        volleys: :class:`VehicleVolley` records, or tuples ``(hits, weapon)`` / ``(hits, weapon, half_range)``.
        target: the vehicle before the first attack.
        start: pmf of the hull points left before the first attack (default ``target.hp_left``).
        table: the Vehicle Damage table.

    Returns:
        One result per attack; each one's ``wrecked`` and ``state`` include every attack before it.
    """
    results = []
    state = start
    for volley in volleys:
        v = volley if isinstance(volley, VehicleVolley) else VehicleVolley(*volley)
        res = resolve_vehicle(v.hits, v.weapon, target, state, half_range=v.half_range, table=table)
        results.append(res)
        state = res.state
    return results


def gets_hot_on_vehicle(n_ones: Dist | np.ndarray) -> Dist:
    """Glancing Hits a vehicle firer suffers from Gets Hot: a D6 per natural 1 that stands, 1-2 glances.

    Args:
        n_ones: distribution of the natural 1s To Hit that stand (after re-rolls).

    Returns:
        The distribution of Glancing Hits on the firer (before its own saves).
    """
    return Dist.from_trusted(thin(_as_pmf(n_ones, "n_ones"), GETS_HOT_GLANCING))
