"""Several volleys at one HH3 vehicle, in order, its state carried over (docs/rules-hh3.md#vehicles).

The vehicle's state is (hull points left, void shields up, the statuses it holds). Each volley acts on every
state through its joint outcome (:func:`~praetor_analysis.vehicles.hh3.chain.volley_joint`: hull points lost,
shields used, the exact set of statuses given); a status already held has no further effect, and a wrecked
vehicle holds none. The statuses are read at the end: whether the Damage Table is rolled after each volley or
after each firing unit changes nothing, since only the vehicles not wrecked at the end hold statuses. Exact.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.prob import Dist, p_at_least
from praetor_analysis.vehicles.hh3.chain import (
    STATUS_SETS,
    STATUSES,
    HH3Vehicle,
    HH3VehicleResult,
    PenetratingAttack,
    VolleyJoint,
    volley_joint,
)
from praetor_analysis.vehicles.hh3.dice import DieOutcomes

__all__ = ["VehicleShot", "resolve_vehicle_sequence_hh3"]


@dataclass(frozen=True)
class VehicleShot:
    """One volley at the vehicle: its number of dice (or their distribution), one die's outcomes, the attack, and
    the armour value its hits meet (None: the vehicle's ``armour``; melee and indirect fire meet another facing)."""

    dice: Dist | int
    die: DieOutcomes
    attack: PenetratingAttack
    armour: int | None = None


def resolve_vehicle_sequence_hh3(shots: list[VehicleShot], vehicle: HH3Vehicle) -> HH3VehicleResult:
    """The exact outcome of ``shots`` in order on ``vehicle`` (its hull points left and shields carried over).

    The states are one array ``mass[set of statuses held, hull points left, shields up]`` (the sets in the order
    of ``STATUS_SETS``); a volley moves the mass of each (hull points, shields) pair through its joint table, every
    set held and given at once."""
    start, up = vehicle.left, vehicle.void_shields
    mass = np.zeros((len(STATUS_SETS), start + 1, up + 1))
    mass[0, start, up] = 1.0
    causes = dict.fromkeys(("Pinned", "Suppressed", "Stunned"), False)
    tallies: dict[str, Dist] = {}
    fresh = True  # the vehicle as it began: one state, nothing held (the first volley places its table as it is)
    for shot in shots:
        armour = vehicle.armour if shot.armour is None else shot.armour
        facing = vehicle if armour == vehicle.armour else replace(vehicle, armour=armour)
        nxt = np.zeros_like(mass)
        first: VolleyJoint | None = None
        if fresh:
            first = volley_joint(shot.dice, shot.die, facing, shot.attack)
            table = first.exact[:, ::-1, ::-1]
            kept = slice(up + 1 - table.shape[2], up + 1)
            nxt[:, 1:, kept] = table[:, 1:]
            nxt[0, 0, kept] = table[:, 0].sum(axis=0)
        else:
            nxt[:, 0] = mass[:, 0]  # the wrecked stay wrecked
            live = mass[:, 1:].sum(axis=0)  # which (hull points, shields) pairs of a vehicle not wrecked hold mass
            for hp, shields in zip(*np.nonzero(live), strict=True):
                hp, shields = int(hp) + 1, int(shields)
                same = hp == facing.left and shields == facing.void_shields
                at = facing if same else replace(facing, hp_left=hp, void_shields=shields)
                joint = volley_joint(shot.dice, shot.die, at, shot.attack)
                first = first or joint
                held = mass[:, hp, shields]
                table = joint.exact[:, ::-1, ::-1]  # [given, hull points left after (0..hp), shields up after]
                kept = slice(shields + 1 - table.shape[2], shields + 1)  # one column when the shields do not act
                nxt[:, 1 : hp + 1, kept] += np.einsum("h,hgt,gkw->tkw", held, _UNION, table[:, 1:])
                nxt[0, 0, kept] += held.sum() * table[:, 0].sum(axis=0)
        fresh = False
        if first is None:
            first = volley_joint(shot.dice, shot.die, replace(facing, hp_left=1, void_shields=0), shot.attack)
        for s, can in first.causes.items():
            causes[s] |= can
        for key, dist in first.counts.items():
            tallies[key] = tallies[key] + dist if key in tallies else dist
        mass = nxt
    by_hp = mass.sum(axis=(0, 2))
    lost = by_hp[::-1].copy()
    alive = mass[:, 1:].sum(axis=(1, 2))  # per set held, P(not wrecked)
    hull = Dist.from_trusted(lost)
    wrecked = float(lost[start])
    held_p = {s: float(alive @ _HOLDS[s]) for s in _HOLDS}
    statuses: dict[str, float | None] = {
        s: (min(held_p[s], 1.0) if causes.get(s) else None) if s != "Routed" else None for s in STATUSES
    }
    zero = Dist.point(0)
    return HH3VehicleResult(
        hits=tallies.get("hits", zero),
        critical_hits=tallies.get("critical_hits", zero),
        glancing=tallies.get("glancing", zero),
        penetrating=tallies.get("penetrating", zero),
        hull_points=hull,
        wrecked=wrecked,
        explodes=None if vehicle.explodes is None else wrecked * p_at_least(vehicle.explodes),
        statuses=statuses,
    )


def _union() -> np.ndarray:
    """``out[h, g, t]`` = 1 when the set held ``h`` and the set given ``g`` make ``t`` (indices of STATUS_SETS)."""
    index = {s: i for i, s in enumerate(STATUS_SETS)}
    out = np.zeros((len(STATUS_SETS),) * 3)
    for h, held in enumerate(STATUS_SETS):
        for g, given in enumerate(STATUS_SETS):
            out[h, g, index[held | given]] = 1.0
    return out


_UNION = _union()
#: Per status, which sets of STATUS_SETS hold it (1.0) or not (0.0).
_HOLDS = {s: np.array([1.0 if s in held else 0.0 for held in STATUS_SETS]) for s in ("Pinned", "Suppressed", "Stunned")}
