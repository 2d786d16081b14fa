"""One group's blows on an enemy unit: exact joint transitions and marginals, memoised across rounds.

A :class:`Striker` is one group of identical models fighting with one profile (its ``Blows``) against one
enemy unit. ``joint(n, reaping)`` is ``T[s, s', u]``: from enemy state ``s`` the blows of ``n`` models leave
state ``s'`` having caused ``u`` unsaved wounds (the allocation chain with the unsaved count tracked);
``volley(n, reaping)`` the fresh-state volley whose hits, wounds and unsaved marginals do not depend on the
enemy's state. Both depend only on the weapon, the striking models' statline and count, the attacks per
model and the enemy, so they are kept in bounded memos (:mod:`praetor_analysis.prob.memo`) shared by every
round that asks again: many units of a list share statlines and weapons.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import Any

import numpy as np

from praetor_analysis.engine import Allocator, TargetState, UnitSpace, Volley, resolve, weapon_strength, wound_groups
from praetor_analysis.engine.hit_stage import hit_stage
from praetor_analysis.errors import ProfileError
from praetor_analysis.melee.blows import Blows, Side
from praetor_analysis.prob import BoundedMemo, Dist
from praetor_analysis.profiles import Unit, Weapon
from praetor_analysis.rules import Role, plays

__all__ = ["Striker", "round_weapon"]

_JOINTS: BoundedMemo[np.ndarray] = BoundedMemo(4096)
_VOLLEYS: BoundedMemo[tuple[float, Any]] = BoundedMemo(4096)
_ONE: BoundedMemo[Unit] = BoundedMemo(1024)
_STAGES: BoundedMemo[tuple[Dist, list[Any], np.ndarray, int]] = BoundedMemo(4096)


def round_weapon(weapon: Weapon) -> Weapon:
    """The weapon as it strikes in a round: a unit locked in combat never tests Pinning (docs/rules.md#melee)."""
    if not weapon.plays(Role.PINNING):
        return weapon
    pin = (Role.PINNING, Role.PINNING_PENALTY)
    rules = tuple(r for r in weapon.rules if not any(plays(role, [r]) for role in pin))
    return replace(weapon, type=replace(weapon.type, rules=rules))


class Striker:
    """One group's blows with one profile on the enemy: joint transitions and marginals per (models alive,
    Reaping Blow in effect)."""

    def __init__(self, side: Side, blows: Blows, enemy: Unit) -> None:
        self.side, self.blows, self.enemy = side, blows, enemy
        self.space: UnitSpace = TargetState.fresh(enemy).space
        self.weapon = round_weapon(blows.weapon)
        ramp = None if blows.rampage is None else tuple(blows.rampage.probabilities.tolist())
        one = _ONE.get(side.unit, lambda: replace(side.unit, models=1))
        #: What the blows depend on besides the models alive (the memos' key).
        self.base: Hashable = (self.weapon, one, enemy, blows.attacks, blows.reaping, ramp)

    def attacks(self, n: int, reaping_on: bool) -> Dist:
        """Total blows of ``n`` models (Rampage rolled once for the group)."""
        per = self.blows.attacks + (self.blows.reaping if reaping_on else 0)
        if self.blows.rampage is None:
            return Dist.point(n * per)
        ramp = self.blows.rampage.probabilities
        out = np.zeros(n * (per + ramp.size - 1) + 1)
        for r, w in enumerate(ramp):
            out[n * (per + r)] += w
        return Dist.from_trusted(out)

    def key(self, n: int, reaping_on: bool) -> tuple[int, bool]:
        """The (models, Reaping Blow) pair the blows of ``n`` models depend on."""
        return n, reaping_on and self.blows.reaping > 0

    def volley(self, n: int, reaping_on: bool) -> tuple[float, Any]:
        """(P(no wound at all), the volley's result) for the blows of ``n`` models alive; its hits, wounds
        and unsaved do not depend on the enemy's state, so one fresh-state volley serves every state."""
        key = self.key(n, reaping_on)
        if key[0] == 0:
            return 1.0, None

        def build() -> tuple[float, Any]:
            res = resolve(self._make_volley(*key), self.enemy)
            return float(res.wounds.probabilities[0]), res

        return _VOLLEYS.get((self.base, key), build)

    def joint(self, n: int, reaping_on: bool) -> np.ndarray:
        """T[s, s', u]: from enemy state s, the blows of ``n`` models leave state s' having caused u unsaved
        wounds (exact: the allocation chain with the unsaved count tracked). Read only: it is shared."""
        key = self.key(n, reaping_on)
        if key[0] == 0:
            return np.eye(self.space.size)[:, :, None]
        return _JOINTS.get((self.base, key), lambda: self._build_joint(*key))

    def u_max(self, n: int, reaping_on: bool) -> int:
        """The most unsaved wounds the blows of ``n`` models can cause (the last axis of ``joint`` less one)."""
        key = self.key(n, reaping_on)
        if key[0] == 0:
            return 0
        return _STAGES.get((self.base, key), lambda: self._stages(*key))[3]

    def _stages(self, n: int, reaping_on: bool) -> tuple[Dist, list[Any], np.ndarray, int]:
        """(hits, wound groups, unsaved per wound, most unsaved) of the blows of ``n`` models."""
        volley = self._make_volley(n, reaping_on)
        if self.weapon.plays(Role.EXTRA_HITS):
            raise ProfileError("weapon.Type: Deflagrate in a whole round of melee is not modelled")
        hits, _, _, _ = hit_stage(volley, self.enemy)
        strength = weapon_strength(volley)
        groups: list[Any] = []
        unsaved_each = np.ones(1)
        if strength is not None:
            groups, _, unsaved_each = wound_groups(volley, self.enemy, strength, self.space.wounds)
        return hits, groups, unsaved_each, hits.max * (unsaved_each.size - 1)

    def _build_joint(self, n: int, reaping_on: bool) -> np.ndarray:
        size = self.space.size
        hits, groups, _, u_max = _STAGES.get((self.base, (n, reaping_on)), lambda: self._stages(n, reaping_on))
        x = hits.probabilities[:, None, None, None] * np.eye(size)[None, :, None, :]  # (R, start s, F, S)
        res = Allocator(self.space, pinning=False).resolve(x, groups, track=True, u_max=u_max)
        out = np.ascontiguousarray(res[:, :, 0, :].transpose(0, 2, 1))  # (s, s', u)
        out.setflags(write=False)
        return out

    def _make_volley(self, n: int, reaping_on: bool) -> Volley:
        return Volley(self.weapon, replace(self.side.unit, models=n), mode="melee", attacks=self.attacks(n, reaping_on))
