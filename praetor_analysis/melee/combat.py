"""A whole round of combat between two units, exactly (docs/rules.md#melee).

A side is a uniform ``Side`` (N identical models with one statline) or a ``Party``: several groups of
models, each with its own statline, count and profiles, striking at its own Initiative step, and one body
(all the models, one statline) that the enemy's blows strike. A group may offer several profiles (a list,
e.g. the forms of Transmutative armaments); it fights with the best one (below).

The round is a Markov chain over the *joint* state of both units (``melee.round_chain``), ``P[a, d]`` with
``a`` and ``d`` the unit states of ``allocation.UnitSpace`` (models removed, wounds left on the model being
worked on). The Initiative steps are walked from the highest down; at a step every group that strikes
there makes ``models alive x attacks per model`` blows, so a model removed at an earlier step never
strikes. The blows of ``n`` models act on the enemy through one joint transition ``T[s, s', u]`` (from
enemy state ``s`` to ``s'`` having caused ``u`` unsaved wounds: the allocation chain with the unsaved count
tracked), memoised per striker, ``n`` and Reaping Blow across rounds (``melee.strikers``); their hits,
wounds and unsaved marginals, which do not depend on the enemy's state, come from one fresh-state
``chain.resolve``. Strikes at the same step are simultaneous: both sides use the models alive
before the step; a side's groups at one step strike one after the other (wounds carried over). Nothing is
sampled.

Attack counts and Initiative steps per profile are in ``melee.blows``. Readings where the rules leave
room (ours, documented and tested):

- Casualties of a party leave its groups in a fixed order, the owner's: first the groups that strike at or
  above every enemy step (their blows are in before any casualty counts), then the others from the one
  whose model's blows cause the fewest expected unsaved wounds up (ties: the listed order).
- A party's hits, wounds and unsaved are its groups' added as independent: exact when each group strikes
  with a fixed number of models, else listed under ``not_modelled`` (each group's own, under ``groups``, are
  exact, and so are the casualties, wounds caused and the combat's winner).
- Attacks per model: A, +1 on the charge (none after a Disordered Charge), +1 for a second melee weapon
  (``two_weapons``: a pair of the weapon used; or ``Side.second_weapon``) unless either weapon is
  Two-handed; when either is a Specialist Weapon, only when both are (``engine.two_weapons``).
- Reach (X) adds X to Initiative for the weapon used; with the two-weapon bonus, the higher Reach of the
  two weapons (never the sum). Unwieldy fights at Initiative step 1 whatever Reach adds (not Dreadnoughts
  or Monstrous models).
- Rampage (X), on the weapon used or on the unit: when outnumbered at the start of the round (models
  counted with Bulky (X), bare Bulky = 2; a party counts all its models), each model gains X attacks, X
  rolled once for the whole group (``D3`` is one D3 for all its models). No benefit after a Disordered Charge.
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
- Weapon choice: each group fights with the profile that inflicts the most expected casualties in this
  round, then (on a tie) takes the most expected wounds off the enemy's models, given the other groups'
  profiles (best responses, group by group, the attacker's first, starting from every group's first profile;
  measures compared to 12 decimal places, ties go to the first listed). Pass ``attacker_choice`` /
  ``target_choice`` to fix one.
- Pinning: a unit locked in combat never tests, so a Pinning melee weapon changes nothing here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from praetor_analysis.engine import UnitSpace, Volley, classify_rules
from praetor_analysis.errors import ProfileError
from praetor_analysis.melee.blows import Blows, Party, Side, plan_blows
from praetor_analysis.melee.round_chain import Fighters, removal_order, run_chain
from praetor_analysis.melee.strikers import Striker
from praetor_analysis.prob import BoundedMemo, Dist, leadership_pass, probability
from praetor_analysis.profiles import Unit, Weapon, parse_rule
from praetor_analysis.rules import Role, Stage, lookup, unlowered_type


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
    groups: tuple[tuple[Strikes, ...], tuple[Strikes, ...]] | None = field(default=None, compare=False, repr=False)
    """Each group's blows, attacker's then target's, when a side has several groups (else None)."""

    def __post_init__(self) -> None:  # docs/rules.md#what-a-result-reports
        for name in ("attacker_wins", "target_wins", "draw", "attacker_concussed", "target_concussed", "pinned"):
            object.__setattr__(self, name, probability(getattr(self, name)))

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
            **({} if self.groups is None else {"groups": {
                side: [{"weapon": g.weapon.name, "initiative": g.initiative, "attacks": g.attacks.to_dict(),
                        "hits": g.hits.to_dict(), "wounds": g.wounds.to_dict(), "unsaved": g.unsaved.to_dict()}
                       for g in groups]
                for side, groups in zip(("attacker", "target"), self.groups, strict=True)}}),
        }  # fmt: skip


# --- the engine ---------------------------------------------------------------------------------
def _fighters(party: Party, plans: list[Blows], enemy: Unit, foe_steps: list[int]) -> Fighters:
    strikers = [Striker(g, b, enemy) for g, b in zip(party.groups, plans, strict=True)]
    return Fighters(party.body, strikers, removal_order(strikers, foe_steps, _one_model_value))


def _one_model_value(striker: Striker) -> float:
    """Expected unsaved wounds of one model's blows on the enemy (the removal order's measure)."""
    _, res = striker.volley(1, False)
    return 0.0 if res is None else float(res.unsaved.mean())


def _sides(att: Party, tgt: Party, ba: list[Blows], bt: list[Blows]) -> tuple[Fighters, Fighters]:
    steps_a, steps_t = [b.initiative for b in ba], [b.initiative for b in bt]
    return _fighters(att, ba, tgt.body, steps_t), _fighters(tgt, bt, att.body, steps_a)


def _damage(space: UnitSpace, start: np.ndarray) -> np.ndarray:
    """Wounds taken off the unit since ``start``, for every state."""
    kills = space.kills_of()
    left = np.tile(np.arange(1, space.wounds + 1), space.models + 1)
    dmg = np.where(kills >= space.models, space.models * space.wounds, kills * space.wounds + space.wounds - left)
    return np.maximum(dmg - int(dmg[int(np.flatnonzero(start)[0])]), 0)  # unreachable states: 0


def _mixed(striker: Striker, weights: dict[tuple[int, bool], float]) -> dict[str, Dist]:
    """One group's attacks, hits, wounds and unsaved over the round: its volleys mixed over the models alive
    at its step (exact for the group)."""
    keys = sorted(weights)
    ws = np.array([weights[k] for k in keys])
    ws = ws / ws.sum()
    parts: dict[str, list[Dist]] = {"attacks": [], "hits": [], "wounds": [], "unsaved": []}
    for k in keys:
        _, res = striker.volley(*k)
        parts["attacks"].append(striker.attacks(*k))
        for name in ("hits", "wounds", "unsaved"):
            parts[name].append(Dist.point(0) if res is None else getattr(res, name))
    return {name: _mixture(ws, ds) for name, ds in parts.items()}


def _mixture(ws: np.ndarray, dists: list[Dist]) -> Dist:
    out = np.zeros(max(d.max for d in dists) + 1)
    for w, d in zip(ws, dists, strict=True):
        out[: d.max + 1] += w * d.probabilities
    return Dist.from_trusted(out)


def _strikes(side: Fighters, weights: list[dict[tuple[int, bool], float]]) -> tuple[Strikes, list[Strikes], bool]:
    """(the side's blows, each group's, exact): a side of several groups adds its groups' marginals as
    independent, exact when every group strikes with a fixed number of models."""
    groups = []
    for striker, w in zip(side.strikers, weights, strict=True):
        groups.append(Strikes(striker.blows.weapon, striker.blows.initiative, **_mixed(striker, w)))
    if len(groups) == 1:
        return groups[0], groups, True
    total = {name: sum((getattr(g, name) for g in groups[1:]), getattr(groups[0], name))
             for name in ("attacks", "hits", "wounds", "unsaved")}  # fmt: skip
    fixed = all(sum(1 for v in w.values() if v > 0.0) == 1 for w in weights)
    return Strikes(groups[0].weapon, groups[0].initiative, **total), groups, fixed


#: Digits a choice's measures are compared to (differences below are rounding, not a better weapon).
_DIGITS = 12


def _expected_damage(
    att: Party, tgt: Party, ba: list[Blows], bt: list[Blows]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """(expected wounds taken off the enemy's models, expected casualties inflicted) of each side, the
    attacker's then the target's, rounded to ``_DIGITS`` places."""
    fa, ft = _sides(att, tgt, ba, bt)
    p = run_chain(fa, ft, track=False).p.sum(axis=2)
    on_t, on_a = p.sum(axis=0), p.sum(axis=1)
    return (
        (round(float(on_t @ _damage(ft.space, ft.start)), _DIGITS), round(float(on_t @ ft.space.kills_of()), _DIGITS)),
        (round(float(on_a @ _damage(fa.space, fa.start)), _DIGITS), round(float(on_a @ fa.space.kills_of()), _DIGITS)),
    )


def _choose(
    att: Party,
    tgt: Party,
    plans_a: list[list[Blows]],
    plans_t: list[list[Blows]],
    fixed_a: int | None,
    fixed_t: int | None,
) -> tuple[list[int], list[int]]:
    """Best responses on expected casualties inflicted, then on the expected wounds taken off the enemy's
    models, group by group (the attacker's groups first; ties: the first listed); ``fixed_a`` / ``fixed_t`` fix every
    group of a side to that profile."""
    cache: dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[float, float], tuple[float, float]]] = {}

    def value(ca: list[int], ct: list[int]) -> tuple[tuple[float, float], tuple[float, float]]:
        key = (tuple(ca), tuple(ct))
        if key not in cache:
            cache[key] = _expected_damage(
                att,
                tgt,
                [p[k] for p, k in zip(plans_a, ca, strict=True)],
                [p[k] for p, k in zip(plans_t, ct, strict=True)],
            )
        return cache[key]

    ca = [fixed_a if fixed_a is not None else 0 for _ in plans_a]
    ct = [fixed_t if fixed_t is not None else 0 for _ in plans_t]
    free = [(0, g) for g in range(len(plans_a)) if fixed_a is None and len(plans_a[g]) > 1]
    free += [(1, g) for g in range(len(plans_t)) if fixed_t is None and len(plans_t[g]) > 1]
    if not free:
        return ca, ct
    for _ in range(sum(len(p) for p in (*plans_a, *plans_t)) + 2):
        old = (list(ca), list(ct))
        for side, g in free:
            mine = ca if side == 0 else ct
            options = len((plans_a if side == 0 else plans_t)[g])

            def score(k: int, side: int = side, g: int = g, mine: list[int] = mine) -> tuple[float, float, int]:
                trial = [*mine[:g], k, *mine[g + 1 :]]
                v = value(trial, ct) if side == 0 else value(ca, trial)
                return v[side][1], v[side][0], -k

            mine[g] = max(range(options), key=score)
        if (ca, ct) == old:
            break
    return ca, ct


_RULES: BoundedMemo[Any] = BoundedMemo(4096)
_PREFIXES = ("attacker: ", "target: ", "target_weapon: ")


def _round_rule_category(entry: str, ba: list[Blows], bt: list[Blows]) -> int | None:
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
        return 0 if any("Rampage" in b.in_effect for b in (*ba, *bt)) else 1
    return 0 if any(b.in_effect.get(name, False) for b in blows) else 1


def _classify(att: Party, tgt: Party, ba: list[Blows], bt: list[Blows]) -> tuple[list[str], list[str], list[str]]:
    """(applied, no_effect, not_modelled) for every group's weapon and unit; the target's weapon rules are
    prefixed ``target_weapon:``, unit rules ``attacker:`` / ``target:``."""
    rank: dict[str, int] = {}
    swap = {"attacker: ": "target: ", "target: ": "attacker: "}
    for plans, party, enemy, mine in ((ba, att, tgt, True), (bt, tgt, att, False)):
        for blows, side in zip(plans, party.groups, strict=True):

            def build(
                blows: Blows = blows, side: Side = side, enemy: Party = enemy
            ) -> tuple[list[str], list[str], list[str]]:
                volley = Volley(blows.weapon, side.unit, mode="melee", attacks=Dist.point(0))
                return classify_rules(volley, enemy.body, [])

            for cat, entries in enumerate(_RULES.get((blows.weapon, side.unit, enemy.body), build)):
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
    for plans, prefix in ((ba, "attacker: "), (bt, "target: ")):
        lists[0].extend(dict.fromkeys(prefix + n for b in plans for n in b.notes))
    return lists


def _steps(plans: list[Blows]) -> str:
    return "/".join(str(i) for i in dict.fromkeys(b.initiative for b in plans))


def _plans(party: Party, enemy: Party) -> list[list[Blows]]:
    """Each group's Blows per profile; Rampage counts the whole party's models against the enemy's."""
    out = []
    for g in party.groups:
        whole = g if len(party.groups) == 1 else replace(g, unit=replace(g.unit, models=party.body.models))
        out.append([plan_blows(whole, w, enemy.body) for w in g.weapons])
    return out


def resolve_combat(
    attacker: Side | Party,
    target: Side | Party,
    *,
    attacker_choice: int | None = None,
    target_choice: int | None = None,
) -> CombatResult:
    """Resolve one whole round of combat between two units, exactly.

    Args:
        attacker: the side named "attacker" (usually the charging unit): a uniform ``Side`` or a ``Party``
            of several groups.
        target: the other side.
        attacker_choice / target_choice: index of the profile each side fights with (None: the best one;
            with a party, every group's).

    Returns:
        A ``CombatResult``: the joint distribution of casualties on both sides, wounds caused by each side,
        combat resolution, each side's hits/wounds/unsaved, Concussive tests, and the rules' bookkeeping.
    """
    att, tgt = Party.of(attacker), Party.of(target)
    for choice, party, label in ((attacker_choice, att, "attacker_choice"), (target_choice, tgt, "target_choice")):
        most = min(len(g.weapons) for g in party.groups)
        if choice is not None and not 0 <= choice < most:
            raise ProfileError(f"{label}: must be 0..{most - 1}, got {choice}")
    plans_a, plans_t = _plans(att, tgt), _plans(tgt, att)
    ca, ct = _choose(att, tgt, plans_a, plans_t, attacker_choice, target_choice)
    ba = [p[k] for p, k in zip(plans_a, ca, strict=True)]
    bt = [p[k] for p, k in zip(plans_t, ct, strict=True)]
    fa, ft = _sides(att, tgt, ba, bt)
    chain = run_chain(fa, ft, track=True)
    p3 = chain.p
    p = p3.sum(axis=2)
    diff_mass = p3.sum(axis=(0, 1))
    d_values = np.arange(diff_mass.size) - chain.offset
    space_a, space_t = fa.space, ft.space
    ka, kt = space_a.kills_of(), space_t.kills_of()
    joint = np.zeros((space_a.models + 1, space_t.models + 1))
    np.add.at(joint, (ka[:, None].repeat(space_t.size, 1), kt[None, :].repeat(space_a.size, 0)), p)
    dmg_by_a = _damage(space_t, ft.start)  # wounds the attacker caused, per target state
    dmg_by_t = _damage(space_a, fa.start)
    strikes_a, groups_a, exact_a = _strikes(fa, chain.weights[0])
    strikes_t, groups_t, exact_t = _strikes(ft, chain.weights[1])
    applied, no_effect, missing = _classify(att, tgt, ba, bt)
    conc = [0.0, 0.0]
    for k, (plans, victim) in enumerate(((bt, fa), (ba, ft))):
        hitting = [g for g, b in enumerate(plans) if b.concussive is not None and b.in_effect["Concussive"]]
        if hitting:
            conc[k] = _wounded_alive(fa, ft, k, hitting, p) * (
                1.0 - leadership_pass(victim.body.Ld if victim.body.Ld is not None else 0)
            )
        elif any(b.concussive is not None for b in plans):
            side, word = ("attacker" if k == 0 else "target"), unlowered_type(victim.body.unit_type)
            applied.append(f"{side}: not affected by lowered characteristics (from {word}): never concussed")
    applied.append(f"Initiative steps: attacker {_steps(ba)}, target {_steps(bt)}")
    for exact, label in ((exact_a, "attacker"), (exact_t, "target")):
        if not exact:
            missing.append(
                f"{label}: hits, wounds and unsaved of its groups added as independent (each group's own are exact)"
            )
    pinned = None if any(b.weapon.plays(Role.PINNING) for b in ba) else 0.0
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
        groups=(tuple(groups_a), tuple(groups_t)) if len(groups_a) + len(groups_t) > 2 else None,
    )


def _wounded_alive(fa: Fighters, ft: Fighters, victim: int, hitting: list[int], p: np.ndarray) -> float:
    """P(the victim side suffered at least one wound, saved or not, from the enemy's Concussive groups
    ``hitting`` and still has models at the end): P(it has models) less the same over a pass where those
    groups' blows are kept only when they wound nothing."""
    foe = (ft, fa)[victim]
    quiet = {id(foe.strikers[g]) for g in hitting}

    def trans(s: Striker, n: int, r: bool) -> np.ndarray:
        if id(s) not in quiet:
            return s.joint(n, r)
        p0, _ = s.volley(n, r)
        return p0 * np.eye(s.space.size)[:, :, None]

    none = run_chain(fa, ft, track=False, trans=trans).p[:, :, 0]
    live = (fa, ft)[victim].left > 0
    if victim == 0:
        return float(p[live].sum() - none[live].sum())
    return float(p[:, live].sum() - none[:, live].sum())


def combat(
    attacker: Unit, weapons: Sequence[Weapon] | Weapon, target: Unit, target_weapons: Sequence[Weapon] | Weapon
) -> CombatResult:
    """Shorthand: ``resolve_combat`` for two units and their profiles (a weapon or a list each)."""
    wa = (weapons,) if isinstance(weapons, Weapon) else tuple(weapons)
    wt = (target_weapons,) if isinstance(target_weapons, Weapon) else tuple(target_weapons)
    return resolve_combat(Side(attacker, wa), Side(target, wt))


__all__ = ["Blows", "CombatResult", "Party", "Side", "Strikes", "combat", "plan_blows", "resolve_combat"]
