"""A whole round of combat between two units, exactly (docs/rules.md#melee).

Both units are *uniform*: N identical models with one statline, all fighting with the same profile. A
side may offer several profiles (a list, e.g. the forms of Transmutative armaments); it fights with the
best one (below). Mixed units are not handled here.

The round is a Markov chain over the *joint* state of both units, ``P[a, d]`` with ``a`` and ``d`` the
unit states of ``allocation.UnitSpace`` (models removed, wounds left on the model being worked on). The
Initiative steps are walked from the highest down; at a step every side that strikes there makes
``models alive x attacks per model`` blows, so a model removed at an earlier step never strikes. The
blows of ``n`` models act on the enemy through one joint transition ``T[s, s', u]`` (from enemy state
``s`` to ``s'`` having caused ``u`` unsaved wounds: the allocation chain with the unsaved count tracked),
cached per ``n`` and per Reaping Blow; their hits, wounds and unsaved marginals, which do not depend on the
enemy's state, come from one fresh-state ``chain.resolve`` per striker. Strikes at the same step
are simultaneous: both use the models alive before the step. Nothing is sampled.

Attack counts and Initiative steps per profile are in ``melee.blows``. Readings where the rules leave
room (ours, documented and tested):

- Attacks per model: A, +1 on the charge (none after a Disordered Charge), +1 for a second melee weapon
  (``two_weapons``: a pair of the weapon used; or ``Side.second_weapon``) unless the weapon used is
  Two-handed; with a Specialist Weapon only when the other weapon is a Specialist Weapon too.
- Reach (X) adds X to Initiative for the weapon used; with the two-weapon bonus, the higher Reach of the
  two weapons (never the sum). Unwieldy fights at Initiative step 1 whatever Reach adds (not Dreadnoughts
  or Monstrous models).
- Rampage (X), on the weapon used or on the unit: when outnumbered at the start of the round (models
  counted with Bulky (X), bare Bulky = 2), each model gains X attacks, X rolled once for the whole side
  (``D3`` is one D3 for all). No benefit after a Disordered Charge.
- Reaping Blow (X) (bare = 1): bases are not modelled; we read "in base contact with more than one enemy
  model" as "the enemy unit has at least two models left at the step this side strikes", the densest
  engagement (a best case for the Reaping side).
- Concussive (X): the rule tests at the end of the combat, so it never changes this round's To Hit (not
  even when it strikes at an earlier step). We report P(the side ends the round concussed): it suffered
  at least one wound (saved or not) from the Concussive blows, still has models, and fails Leadership. A
  Primarch or Gargantuan side is not affected by rules that lower its characteristics: never concussed (the
  rule is then listed under ``no_effect``).
- Who wins the combat (docs/scenario.md): the side that caused more *unsaved* wounds in the round, counted as
  ``unsaved`` is (each of Brutal's wounds separately, overflow on a dying model and wounds after the last
  model included); equal is a draw. The difference of the two counts is carried exactly in the joint
  state. ``wounds_caused`` reports, beside it, the wounds actually taken off models.
- Weapon choice: each side fights with the profile that inflicts the most expected casualties in this
  round given the other side's profile (best responses, attacker first, starting from the target's first
  profile; ties go to the first listed). Pass ``attacker_choice`` / ``target_choice`` to fix one.
- Pinning: a unit locked in combat never tests, so a Pinning melee weapon changes nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from praetor_analysis.engine.allocation import Allocator, UnitSpace
from praetor_analysis.engine.chain import resolve
from praetor_analysis.engine.hit_stage import hit_stage
from praetor_analysis.engine.rule_report import classify_rules
from praetor_analysis.engine.volley import TargetState, Volley, weapon_strength
from praetor_analysis.engine.wound_stage import wound_groups
from praetor_analysis.melee.blows import Blows, Side, plan_blows
from praetor_analysis.prob.dice import leadership_pass
from praetor_analysis.prob.dist import Dist
from praetor_analysis.profiles.records import ProfileError, Unit, Weapon
from praetor_analysis.profiles.rule_tokens import parse_rule
from praetor_analysis.rules.catalogue import lookup, plays
from praetor_analysis.rules.hooks import Role
from praetor_analysis.rules.registry import Stage
from praetor_analysis.rules.unit_types import unlowered_type


# --- results ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Strikes:
    """One side's blows over the round: the weapon, its Initiative step, and exact marginals."""

    weapon: Weapon
    initiative: int
    attacks: Dist
    hits: Dist
    wounds: Dist
    unsaved: Dist


@dataclass(frozen=True)
class CombatResult:
    """The exact outcome of one round of combat.

    Attributes:
        joint: ``joint[i, j]`` = P(the attacker loses i models and the target loses j).
        attacker_casualties / target_casualties: models each side lost.
        attacker_wounds / target_wounds: wounds each side *caused* (taken off enemy models).
        attacker_wins / target_wins / draw: combat resolution: more unsaved wounds caused (docs/scenario.md).
        attacker_strikes / target_strikes: each side's blows (hits, wounds, unsaved: all its blows).
        attacker_concussed / target_concussed: P(that side ends the round with a failed Concussive test).
        state: the final joint state ``P[a, d]`` over both units' ``UnitSpace`` states.
    """

    joint: np.ndarray
    attacker_casualties: Dist
    target_casualties: Dist
    attacker_wounds: Dist
    target_wounds: Dist
    attacker_wins: float
    target_wins: float
    draw: float
    attacker_strikes: Strikes
    target_strikes: Strikes
    attacker_concussed: float
    target_concussed: float
    applied: tuple[str, ...]
    no_effect: tuple[str, ...]
    not_modelled: tuple[str, ...]
    pinned: float | None = 0.0
    state: np.ndarray | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The docs/scenario.md result form (``mode`` melee with ``target_weapon``)."""
        a, t = self.attacker_strikes, self.target_strikes
        return {
            "hits": a.hits.to_dict(),
            "wounds": a.wounds.to_dict(),
            "unsaved": a.unsaved.to_dict(),
            "casualties": self.target_casualties.to_dict(),
            "pinned": self.pinned,
            "attacker_casualties": self.attacker_casualties.to_dict(),
            "combat": {"attacker_wins": self.attacker_wins, "target_wins": self.target_wins, "draw": self.draw},
            "wounds_caused": {"attacker": self.attacker_wounds.to_dict(), "target": self.target_wounds.to_dict()},
            "casualties_joint": [[float(x) for x in row] for row in self.joint],
            "target_blows": {
                "attacks": t.attacks.to_dict(),
                "hits": t.hits.to_dict(),
                "wounds": t.wounds.to_dict(),
                "unsaved": t.unsaved.to_dict(),
            },
            "attacks": a.attacks.to_dict(),
            "weapons": {"attacker": a.weapon.name, "target": t.weapon.name},
            "initiative": {"attacker": a.initiative, "target": t.initiative},
            "concussed": {"attacker": self.attacker_concussed, "target": self.target_concussed},
            "applied": list(self.applied),
            "not_modelled": list(self.not_modelled),
            "no_effect": list(self.no_effect),
        }


# --- the engine ---------------------------------------------------------------------------------
class _Striker:
    """One side's blows with one profile on the enemy: joint transitions and marginals per (models alive,
    Reaping Blow in effect)."""

    def __init__(self, side: Side, blows: Blows, enemy: Unit) -> None:
        self.side, self.blows, self.enemy = side, blows, enemy
        self.space = TargetState.fresh(enemy).space
        weapon = blows.weapon
        if weapon.plays(Role.PINNING):  # locked in combat: never tests (docs/rules.md#melee)
            pin = (Role.PINNING, Role.PINNING_PENALTY)
            rules = tuple(r for r in weapon.rules if not any(plays(role, [r]) for role in pin))
            weapon = replace(weapon, type=replace(weapon.type, rules=rules))
        self.weapon = weapon
        self._volleys: dict[tuple[int, bool], tuple[float, Any]] = {}
        self._joints: dict[tuple[int, bool], np.ndarray] = {}

    def attacks(self, n: int, reaping_on: bool) -> Dist:
        """Total blows of ``n`` models (Rampage rolled once for all)."""
        per = self.blows.attacks + (self.blows.reaping if reaping_on else 0)
        if self.blows.rampage is None:
            return Dist.point(n * per)
        ramp = self.blows.rampage.probabilities
        out = np.zeros(n * (per + ramp.size - 1) + 1)
        for r, w in enumerate(ramp):
            out[n * (per + r)] += w
        return Dist.from_trusted(out)

    def _key(self, n: int, reaping_on: bool) -> tuple[int, bool]:
        return n, reaping_on and self.blows.reaping > 0

    def volley(self, n: int, reaping_on: bool) -> tuple[float, Any]:
        """(P(no wound at all), the volley's result) for the blows of ``n`` models alive; its hits, wounds
        and unsaved do not depend on the enemy's state, so one fresh-state volley serves every state."""
        key = self._key(n, reaping_on)
        if key not in self._volleys:
            if n == 0:
                self._volleys[key] = (1.0, None)
            else:
                res = resolve(self._make_volley(n, key[1]), self.enemy)
                self._volleys[key] = (float(res.wounds.probabilities[0]), res)
        return self._volleys[key]

    def joint(self, n: int, reaping_on: bool) -> np.ndarray:
        """T[s, s', u]: from enemy state s, the blows of ``n`` models leave state s' having caused u unsaved
        wounds (exact: the allocation chain with the unsaved count tracked)."""
        key = self._key(n, reaping_on)
        if key in self._joints:
            return self._joints[key]
        size = self.space.size
        if n == 0:
            out = np.eye(size)[:, :, None]
        else:
            volley = self._make_volley(n, key[1])
            if self.weapon.plays(Role.EXTRA_HITS):
                raise ProfileError("weapon.Type: Deflagrate in a whole round of melee is not modelled")
            hits, _, _, _ = hit_stage(volley, self.enemy)
            strength = weapon_strength(volley)
            if strength is None:
                groups, unsaved_each = [], np.ones(1)
            else:
                groups, _, unsaved_each = wound_groups(volley, self.enemy, strength, self.space.wounds)
            x = hits.probabilities[:, None, None, None] * np.eye(size)[None, :, None, :]  # (R, start s, F, S)
            u_max = hits.max * (unsaved_each.size - 1)
            res = Allocator(self.space, pinning=False).resolve(x, groups, track=True, u_max=u_max)
            out = res[:, :, 0, :].transpose(0, 2, 1)  # (s, s', u)
        self._joints[key] = out
        return out

    def _make_volley(self, n: int, reaping_on: bool) -> Volley:
        return Volley(self.weapon, replace(self.side.unit, models=n), mode="melee", attacks=self.attacks(n, reaping_on))


def _strike_row(
    striker: _Striker,
    strikes: bool,
    n: int,
    foe_left: int,
    foe_state: int,
    foe_alive: np.ndarray,
    w: float,
    weights: dict[tuple[int, bool], float],
) -> tuple[np.ndarray, float]:
    """One side at one Initiative step: (row[foe state', unsaved caused], w x P(the foe took a wound, saved
    or not, and still has models)); a side that does not strike leaves the foe as it was."""
    if not strikes:
        row = np.zeros((foe_alive.size, 1))
        row[foe_state, 0] = 1.0
        return row, 0.0
    reap = foe_left >= 2
    row = striker.joint(n, reap)[foe_state]
    p0, _ = striker.volley(n, reap)
    key = striker._key(n, reap)
    weights[key] = weights.get(key, 0.0) + w
    hurt = row.sum(axis=1)
    hurt[foe_state] -= p0
    return row, w * float(hurt[foe_alive].sum())


def _damage(space: UnitSpace, start: np.ndarray) -> np.ndarray:
    """Wounds taken off the unit since ``start``, for every state."""
    kills = space.kills_of()
    left = np.tile(np.arange(1, space.wounds + 1), space.models + 1)
    dmg = np.where(kills >= space.models, space.models * space.wounds, kills * space.wounds + space.wounds - left)
    return np.maximum(dmg - int(dmg[int(np.flatnonzero(start)[0])]), 0)  # unreachable states: 0


def _round(att: Side, tgt: Side, ba: Blows, bt: Blows) -> dict[str, Any]:
    """The exact round for fixed profiles: final joint state (attacker state, target state, difference of
    unsaved wounds caused) and per-side marginals."""
    sa_, st_ = _Striker(att, ba, tgt.unit), _Striker(tgt, bt, att.unit)  # sa_ strikes the target
    space_t, space_a = sa_.space, st_.space
    start_a, start_t = TargetState.fresh(att.unit).probs[0], TargetState.fresh(tgt.unit).probs[0]
    alive_a = att.unit.models - space_a.kills_of()
    alive_t = tgt.unit.models - space_t.kills_of()
    # the largest unsaved count each side can cause in the round bounds the difference axis
    top_a = max(sa_.joint(att.unit.models, r).shape[2] - 1 for r in (False, True))
    top_t = max(st_.joint(tgt.unit.models, r).shape[2] - 1 for r in (False, True))
    live_a, live_t = alive_a > 0, alive_t > 0
    width = top_a + top_t + 1  # index = difference + top_t
    p = np.zeros((space_a.size, space_t.size, width))
    p[:, :, top_t] = np.outer(start_a, start_t)
    weights: list[dict[tuple[int, bool], float]] = [{}, {}]
    wounded_alive = [0.0, 0.0]  # P(side suffered a wound from the other's blows and still has models)
    for step in sorted({ba.initiative, bt.initiative}, reverse=True):
        a_strikes, t_strikes = ba.initiative == step, bt.initiative == step
        new = np.zeros_like(p)
        mass = p.sum(axis=2)
        for i, j in zip(*np.nonzero(mass), strict=False):
            w = mass[i, j]
            pd = p[i, j]
            n, m = int(alive_a[i]), int(alive_t[j])
            row_t, hurt = _strike_row(sa_, a_strikes, n, m, j, live_t, w, weights[0])
            wounded_alive[1] += hurt
            row_a, hurt = _strike_row(st_, t_strikes, m, n, i, live_a, w, weights[1])
            wounded_alive[0] += hurt
            # the difference moves by (unsaved by the attacker) - (unsaved by the target)
            for ut in np.flatnonzero(row_a.any(axis=0)):
                for ua in np.flatnonzero(row_t.any(axis=0)):
                    shift = int(ua) - int(ut)
                    block = np.outer(row_a[:, ut], row_t[:, ua])
                    if shift >= 0:
                        new[:, :, shift:] += block[:, :, None] * pd[None, None, : width - shift]
                    else:
                        new[:, :, :shift] += block[:, :, None] * pd[None, None, -shift:]
        p = new
    return {
        "p": p,
        "offset": top_t,
        "weights": weights,
        "wounded_alive": wounded_alive,
        "strikers": (sa_, st_),
        "spaces": (space_a, space_t),
        "starts": (start_a, start_t),
    }


def _strikes(striker: _Striker, weights: dict[tuple[int, bool], float]) -> Strikes:
    """Mix one side's volley marginals over the models alive at its step."""
    keys = sorted(weights)
    ws = np.array([weights[k] for k in keys])
    ws = ws / ws.sum()
    parts: dict[str, list[Dist]] = {"attacks": [], "hits": [], "wounds": [], "unsaved": []}
    for k in keys:
        _, res = striker.volley(*k)
        parts["attacks"].append(striker.attacks(*k))
        for name in ("hits", "wounds", "unsaved"):
            parts[name].append(Dist.point(0) if res is None else getattr(res, name))
    mixed = {name: Dist.mixture(ws, ds) for name, ds in parts.items()}
    return Strikes(striker.blows.weapon, striker.blows.initiative, **mixed)


def _expected_kills(att: Side, tgt: Side, ba: Blows, bt: Blows) -> tuple[float, float]:
    out = _round(att, tgt, ba, bt)
    p, (space_a, space_t) = out["p"].sum(axis=2), out["spaces"]
    return float(p.sum(axis=0) @ space_t.kills_of()), float(p.sum(axis=1) @ space_a.kills_of())


def _choose(
    att: Side, tgt: Side, plans_a: list[Blows], plans_t: list[Blows], fixed_a: int | None, fixed_t: int | None
) -> tuple[int, int]:
    """Best responses on expected casualties inflicted (attacker first; ties: the first listed)."""
    cache: dict[tuple[int, int], tuple[float, float]] = {}

    def value(i: int, j: int) -> tuple[float, float]:
        if (i, j) not in cache:
            cache[(i, j)] = _expected_kills(att, tgt, plans_a[i], plans_t[j])
        return cache[(i, j)]

    i = fixed_a if fixed_a is not None else 0
    j = fixed_t if fixed_t is not None else 0
    if len(plans_a) * len(plans_t) == 1:
        return i, j
    for _ in range(len(plans_a) + len(plans_t) + 2):
        old = (i, j)
        if fixed_a is None:
            i = max(range(len(plans_a)), key=lambda k: (value(k, j)[0], -k))
        if fixed_t is None:
            j = max(range(len(plans_t)), key=lambda k: (value(i, k)[1], -k))
        if (i, j) == old:
            break
    return i, j


_PREFIXES = ("attacker: ", "target: ", "target_weapon: ")


def _round_rule_category(entry: str, ba: Blows, bt: Blows) -> int | None:
    """0 applied / 1 no effect for a rule the round models (attack counts, Initiative, Concussive); 2 (not
    modelled) for a rule acting in the round that it does not compute yet."""
    prefix = next((p for p in _PREFIXES if entry.startswith(p)), "")
    blows = ba if prefix in {"", "attacker: "} else bt
    name = parse_rule(entry[len(prefix) :]).name
    decl = lookup(name)
    if decl is None or Role.ROUND_MODELLED not in decl.roles:
        # a rule acting in the round that the round does not compute yet
        return 2 if decl is not None and decl.pending & {Stage.ROUND, Stage.INITIATIVE} else None
    if name in {"Two-handed", "Specialist Weapon"}:
        return 0
    if name == "Bulky":
        return 0 if ("Rampage" in ba.in_effect or "Rampage" in bt.in_effect) else 1
    return 0 if blows.in_effect.get(name, False) else 1


def _classify(att: Side, tgt: Side, ba: Blows, bt: Blows) -> tuple[list[str], list[str], list[str]]:
    """(applied, no_effect, not_modelled) for both weapons and both units; the target's weapon rules are
    prefixed ``target_weapon:``, unit rules ``attacker:`` / ``target:``."""
    rank: dict[str, int] = {}
    swap = {"attacker: ": "target: ", "target: ": "attacker: "}
    for blows, side, enemy, mine in ((ba, att, tgt, True), (bt, tgt, att, False)):
        volley = Volley(blows.weapon, side.unit, mode="melee", attacks=Dist.point(0))
        for cat, entries in enumerate(classify_rules(volley, enemy.unit, [])):
            for entry in entries:
                if not mine:
                    head = next((p for p in swap if entry.startswith(p)), None)
                    entry = swap[head] + entry[len(head) :] if head else f"target_weapon: {entry}"
                own = _round_rule_category(entry, ba, bt)
                c = cat if own is None else own
                rank[entry] = min(rank.get(entry, c), c)
    lists: tuple[list[str], list[str], list[str]] = ([], [], [])
    for entry, c in rank.items():
        lists[c].append(entry)
    for blows, prefix in ((ba, "attacker: "), (bt, "target: ")):
        lists[0].extend(prefix + n for n in blows.notes)
    return lists


def resolve_combat(
    attacker: Side, target: Side, *, attacker_choice: int | None = None, target_choice: int | None = None
) -> CombatResult:
    """Resolve one whole round of combat between two uniform units, exactly.

    Args:
        attacker: the side named "attacker" (usually the charging unit).
        target: the other side.
        attacker_choice / target_choice: index of the profile each side fights with (None: the best one).

    Returns:
        A ``CombatResult``: the joint distribution of casualties on both sides, wounds caused by each side,
        combat resolution, each side's hits/wounds/unsaved, Concussive tests, and the rules' bookkeeping.
    """
    for choice, side, label in (
        (attacker_choice, attacker, "attacker_choice"),
        (target_choice, target, "target_choice"),
    ):
        if choice is not None and not 0 <= choice < len(side.weapons):
            raise ProfileError(f"{label}: must be 0..{len(side.weapons) - 1}, got {choice}")
    plans_a = [plan_blows(attacker, w, target.unit) for w in attacker.weapons]
    plans_t = [plan_blows(target, w, attacker.unit) for w in target.weapons]
    i, j = _choose(attacker, target, plans_a, plans_t, attacker_choice, target_choice)
    ba, bt = plans_a[i], plans_t[j]
    out = _round(attacker, target, ba, bt)
    p3 = out["p"]
    p = p3.sum(axis=2)
    diff_mass = p3.sum(axis=(0, 1))
    d_values = np.arange(diff_mass.size) - out["offset"]
    space_a, space_t = out["spaces"]
    start_a, start_t = out["starts"]
    ka, kt = space_a.kills_of(), space_t.kills_of()
    joint = np.zeros((space_a.models + 1, space_t.models + 1))
    np.add.at(joint, (ka[:, None].repeat(space_t.size, 1), kt[None, :].repeat(space_a.size, 0)), p)
    dmg_by_a = _damage(space_t, start_t)  # wounds the attacker caused, per target state
    dmg_by_t = _damage(space_a, start_a)
    sa_, st_ = out["strikers"]
    strikes_a, strikes_t = _strikes(sa_, out["weights"][0]), _strikes(st_, out["weights"][1])
    conc = [0.0, 0.0]
    applied, no_effect, missing = _classify(attacker, target, ba, bt)
    for k, (blows, victim) in enumerate(((bt, attacker.unit), (ba, target.unit))):
        if blows.concussive is None:
            continue
        if blows.in_effect["Concussive"]:
            conc[k] = out["wounded_alive"][k] * (1.0 - leadership_pass(victim.Ld if victim.Ld is not None else 0))
        else:
            side, word = ("attacker" if k == 0 else "target"), unlowered_type(victim.unit_type)
            applied.append(f"{side}: not affected by lowered characteristics (from {word}): never concussed")
    applied.append(f"Initiative steps: attacker {ba.initiative}, target {bt.initiative}")
    pinned = None if ba.weapon.plays(Role.PINNING) else 0.0
    return CombatResult(
        joint=joint,
        attacker_casualties=Dist.from_trusted(joint.sum(axis=1)),
        target_casualties=Dist.from_trusted(joint.sum(axis=0)),
        attacker_wounds=Dist.from_trusted(np.bincount(np.broadcast_to(dmg_by_a, p.shape).ravel(), weights=p.ravel())),
        target_wounds=Dist.from_trusted(
            np.bincount(np.broadcast_to(dmg_by_t[:, None], p.shape).ravel(), weights=p.ravel())
        ),
        attacker_wins=float(diff_mass[d_values > 0].sum()),
        target_wins=float(diff_mass[d_values < 0].sum()),
        draw=float(diff_mass[d_values == 0].sum()),
        attacker_strikes=strikes_a,
        target_strikes=strikes_t,
        attacker_concussed=conc[0],
        target_concussed=conc[1],
        applied=tuple(applied),
        no_effect=tuple(no_effect),
        not_modelled=tuple(missing),
        pinned=pinned,
        state=p,
    )


def combat(
    attacker: Unit, weapons: Sequence[Weapon] | Weapon, target: Unit, target_weapons: Sequence[Weapon] | Weapon
) -> CombatResult:
    """Shorthand: ``resolve_combat`` for two units and their profiles (a weapon or a list each)."""
    wa = (weapons,) if isinstance(weapons, Weapon) else tuple(weapons)
    wt = (target_weapons,) if isinstance(target_weapons, Weapon) else tuple(target_weapons)
    return resolve_combat(Side(attacker, wa), Side(target, wt))


__all__ = ["Blows", "CombatResult", "Side", "Strikes", "combat", "plan_blows", "resolve_combat"]
