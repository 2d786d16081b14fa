"""Several volleys at one HH3 vehicle, in order, its state carried over (docs/rules-hh3.md#vehicles).

The vehicle's state is (hull points left, void shields up, the statuses it holds). Each volley acts on every
state through its joint outcome (:func:`~praetor_analysis.vehicles.hh3.chain.volley_joint`: hull points lost,
shields used, the exact set of statuses given); a status already held has no further effect, and a wrecked
vehicle holds none. The statuses are read at the end: whether the Damage Table is rolled after each volley or
after each firing unit changes nothing, since only the vehicles not wrecked at the end hold statuses. Exact.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.prob import Dist, p_at_least
from praetor_analysis.vehicles.hh3.chain import (
    STATUSES,
    HH3Vehicle,
    HH3VehicleResult,
    PenetratingAttack,
    VolleyJoint,
    volley_joint,
)
from praetor_analysis.vehicles.hh3.dice import DieOutcomes

__all__ = ["VehicleShot", "resolve_vehicle_sequence_hh3"]

_State = tuple[int, int, frozenset[str]]


@dataclass(frozen=True)
class VehicleShot:
    """One volley at the vehicle: its number of dice (or their distribution), one die's outcomes, the attack, and
    the armour value its hits meet (None: the vehicle's ``armour``; melee and indirect fire meet another facing)."""

    dice: Dist | int
    die: DieOutcomes
    attack: PenetratingAttack
    armour: int | None = None


def resolve_vehicle_sequence_hh3(shots: list[VehicleShot], vehicle: HH3Vehicle) -> HH3VehicleResult:
    """The exact outcome of ``shots`` in order on ``vehicle`` (its hull points left and shields carried over)."""
    states: dict[_State, float] = {(vehicle.left, vehicle.void_shields, frozenset()): 1.0}
    causes = dict.fromkeys(("Pinned", "Suppressed", "Stunned"), False)
    tallies: dict[str, Dist] = {}
    for shot in shots:
        memo: dict[tuple[int, int], VolleyJoint] = {}
        facing = vehicle if shot.armour is None else replace(vehicle, armour=shot.armour)
        nxt: dict[_State, float] = defaultdict(float)
        for (hp, shields, held), p in states.items():
            if hp == 0:
                nxt[(hp, shields, held)] += p
                continue
            if (hp, shields) not in memo:
                memo[(hp, shields)] = volley_joint(
                    shot.dice, shot.die, replace(facing, hp_left=hp, void_shields=shields), shot.attack
                )
            joint = memo[(hp, shields)]
            for given, table in joint.table.items():
                for k, u in zip(*np.nonzero(table > 0.0), strict=True):
                    left = hp - int(k)
                    nxt[(left, shields - int(u), held | given if left else frozenset())] += p * float(table[k, u])
        first = next(iter(memo.values()), None) or volley_joint(
            shot.dice, shot.die, replace(facing, hp_left=1, void_shields=0), shot.attack
        )
        for s, can in first.causes.items():
            causes[s] |= can
        for key, dist in first.counts.items():
            tallies[key] = tallies[key] + dist if key in tallies else dist
        states = dict(nxt)
    start = vehicle.left
    lost = np.zeros(start + 1)
    held_p: dict[str, float] = defaultdict(float)
    for (hp, _, held), p in states.items():
        lost[start - hp] += p
        if hp > 0:
            for s in held:
                held_p[s] += p
    hull = Dist.from_trusted(lost)
    wrecked = float(lost[start])
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
