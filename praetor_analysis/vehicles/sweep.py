"""Hull points removed by one volley on a fresh vehicle, nothing else: the vehicle half of the sweep path."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.engine import Volley
from praetor_analysis.errors import PraetorError
from praetor_analysis.prob import BoundedMemo, sum_of_iid
from praetor_analysis.profiles import Unit
from praetor_analysis.rules import RuleReport
from praetor_analysis.vehicles.attack import (
    PenetrationReads,
    VehicleRuleReads,
    classify_vehicle_reads,
    penetration_profile,
    vehicle_hits,
    vehicle_target,
)
from praetor_analysis.vehicles.hull_points import DEFAULT_DAMAGE_TABLE, per_hit_outcome
from praetor_analysis.vehicles.penetration import HitOutcome, PenetratingWeapon, VehicleTarget, resolve_facing


@dataclass(frozen=True)
class HullPointsOnly:
    """What one volley does to a fresh vehicle when its hits only remove hull points.

    Attributes:
        hull_points: pmf of the hull points removed, over 0..hull points left.
        wrecked: P(no hull point left).
        not_modelled: the rules not modelled, as ``calc`` lists them.
    """

    hull_points: np.ndarray
    wrecked: float
    not_modelled: tuple[str, ...]


def hull_points_many(cells: Sequence[tuple[Volley, Unit]]) -> list[HullPointsOnly | PraetorError | None]:
    """``hull_points_only`` of every cell (or the error it raises), once per (volley, statline): a vehicle's
    name changes no number. Target by target, so that the per-hit outcomes of one vehicle statline stay in
    their memo while every weapon is fired at it; the parts of a cell that read less than the whole statline
    (the per-hit outcome, the hull points one hit removes, the rule lists) are shared in ``_Shared``."""
    out: list[HullPointsOnly | PraetorError | None] = [None] * len(cells)
    same: dict[int, object] = {}  # id -> the first equal record (statlines compared without the name)
    by_value: dict[object, object] = {}
    for volley, target in cells:
        if id(volley) not in same:
            same[id(volley)] = by_value.setdefault(volley, volley)
        if id(target) not in same:
            same[id(target)] = by_value.setdefault(replace(target, name=""), target)
    done: dict[tuple[int, int], HullPointsOnly | PraetorError | None] = {}
    shared = _Shared()
    for i in sorted(range(len(cells)), key=lambda i: id(same[id(cells[i][1])])):
        volley, target = cells[i]
        key = (id(same[id(volley)]), id(same[id(target)]))
        if key not in done:
            try:
                done[key] = hull_points_only(volley, target, shared)
            except PraetorError as exc:
                done[key] = exc
        out[i] = done[key]
    return out


class _Shared:
    """What cells of one sweep share, keyed by object identity (the records live as long as the sweep)."""

    def __init__(self) -> None:
        self.targets: dict[int, VehicleTarget] = {}
        self.bares: dict[tuple[int, str], VehicleTarget] = {}
        self.weapons: dict[int, PenetratingWeapon] = {}
        self.per_hit: dict[tuple[int, int], np.ndarray] = {}
        self.rules: dict[tuple[int, int, int], list[str]] = {}
        self.keep: list[object] = []  # the outcomes whose ids key ``per_hit``

    def target(self, target: Unit) -> VehicleTarget:
        if id(target) not in self.targets:
            self.targets[id(target)] = vehicle_target(target)
        return self.targets[id(target)]

    def bare(self, target: Unit, vt: VehicleTarget, weapon: PenetratingWeapon) -> VehicleTarget:
        """What ``hit_outcome`` reads of a vehicle hit on its ``facing`` by a weapon that does not Sunder: the
        armour and saves of that facing, cover, Shrouded, Reinforced, Ion Shield and Slow; no name, no hull
        points (the hull points one hit removes are capped by ``removed_per_hit``, from its sequences).
        Statlines that differ only elsewhere share their per-hit outcome."""
        facing = resolve_facing(weapon, vt)
        key = (id(target), facing)
        if key not in self.bares:
            armour = vt.armour(facing)
            self.bares[key] = VehicleTarget(
                front=armour,
                side=armour,
                rear=armour,
                hp=1,
                facing=vt.facing,
                invulnerable=vt.invulnerable_for(facing),
                cover=vt.cover,
                shrouded=vt.shrouded,
                slow=vt.is_slow,
                reinforced=vt.reinforced,
                ion_shield=vt.ion_shield,
                unit_type="Vehicle",
            )
        return self.bares[key]

    def weapon(self, volley: Volley) -> PenetratingWeapon:
        """``penetrating_weapon`` without its name, once per volley (and across sweeps by what it reads)."""
        if id(volley) not in self.weapons:
            reads = PenetrationReads.of(volley)  # the key is all the profile reads: no field can be left out
            self.weapons[id(volley)] = _WEAPONS.get(reads, lambda: replace(penetration_profile(reads), name=""))
        return self.weapons[id(volley)]

    def removed_per_hit(self, outcome: HitOutcome, top: int) -> np.ndarray:
        """The pmf of the hull points one hit removes from ``top`` (its losses in turn, none once wrecked)."""
        key = (id(outcome), top)
        if key not in self.per_hit:
            self.keep.append(outcome)
            out = np.zeros(top + 1)
            for seq, p in outcome.sequences.items():
                left = top
                for lost, _ in seq:
                    if left > 0:
                        left = max(left - lost, 0)
                out[top - left] += p
            self.per_hit[key] = out
        return self.per_hit[key]

    def not_modelled(self, volley: Volley, target: Unit, outcome: HitOutcome) -> list[str]:
        """``classify_vehicle_rules``' not-modelled list plus the outcome's, once per volley, outcome and target
        record in a sweep, and across sweeps once per :class:`VehicleRuleReads` (what sorting the rules reads)."""
        key = (id(volley), id(outcome), id(target))  # the records themselves, kept alive for the sweep
        if key not in self.rules:
            self.keep.extend((outcome, target))
            # across sweeps by value: all that sorting the rules reads (no field can be left out), and the outcome's
            reads = VehicleRuleReads.of(volley, target, self.weapon(volley))
            self.rules[key] = _RULES.get((reads, outcome.not_modelled), lambda: _not_modelled(reads, outcome))
        return list(self.rules[key])


_WEAPONS: BoundedMemo[PenetratingWeapon] = BoundedMemo(4096)
"""Penetration profiles by what they read (:class:`~praetor_analysis.vehicles.attack.PenetrationReads`)."""
_RULES: BoundedMemo[list[str]] = BoundedMemo(8192)
"""Not-modelled lists by what ``classify_vehicle_rules`` reads, across sweeps (a dashboard's BS change makes
new volleys whose rule lists are the old ones)."""


def _not_modelled(reads: VehicleRuleReads, outcome: HitOutcome) -> list[str]:
    report = RuleReport()
    classify_vehicle_reads(reads, report)
    for x in outcome.not_modelled:
        report.add("not_modelled", x)
    return report.not_modelled


def hull_points_only(volley: Volley, target: Unit, shared: _Shared | None = None) -> HullPointsOnly | None:
    """The hull points one volley removes from a fresh vehicle, with the vehicle engine's own stages (hits,
    per-hit outcome), or None when a hit can do more than remove hull points (the full
    ``resolve_vehicle_scenario`` is needed)."""
    shared = shared or _Shared()
    vt = shared.target(target)
    hits, _ = vehicle_hits(volley, target)
    # the labels change no number: equal profiles share one per-hit outcome
    weapon = shared.weapon(volley)
    if weapon.sunder and not weapon.haywire:  # Sunder's choice reads the hull points left: the whole statline
        outcome, transitions = per_hit_outcome(weapon, replace(vt, name=""), volley.half_range, DEFAULT_DAMAGE_TABLE)
        if transitions.state_dependent:  # hits are not alike (Sunder at few hull points left): the full chain
            return None
    else:
        outcome, _ = per_hit_outcome(weapon, shared.bare(target, vt, weapon), volley.half_range, DEFAULT_DAMAGE_TABLE)
    top = vt.hp
    # hull points one hit removes (capped at the full hull points; a sum capped again equals the chain)
    per_hit = shared.removed_per_hit(outcome, top)
    if abs(per_hit.sum() - 1.0) > 1e-12:
        return None
    total = sum_of_iid(hits.probabilities, per_hit)
    left = vt.left
    removed = np.zeros(left + 1)
    removed[: min(total.size, left + 1)] = total[: left + 1]
    removed[left] += total[left + 1 :].sum()
    wrecked = float(removed[left])
    return HullPointsOnly(removed, wrecked, tuple(shared.not_modelled(volley, target, outcome)))
