"""Blast hits on a unit of identical models in the 3rd edition, through the edition 3 wound chain, exactly
(docs/rules-hh3.md#markers-and-templates).

Every hit of one marker shares its Hit Test's class, so a marker attack's hits are not independent dice: they
come as a joint distribution of counts per class (:func:`~praetor_analysis.markers.hh3_blast.marker_hits_by_class`).
For each composition (so many plain hits, so many Critical, so many Rending) the wounds are resolved in the
Fire Group's order of set-aside groups (plain wounds first, then the Critical and Rending groups, then the
Breaching and Shred groups of the plain hits; ``largest_damage_first`` as the engine orders it), each wound
applied one at a time to the target's state with excess Damage lost, each group followed by its Deflagrate hits;
the compositions are then mixed by their probabilities. Only the engine's public API is used: a group of ``k``
Unsaved Wounds of a known Damage is applied as ``k`` given hits that always wound and are never saved.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.engine.hh3 import (
    GIVEN_HIT,
    Defence,
    FireGroup,
    HitDie,
    State,
    Strike,
    group_classes,
    resolve_group,
    wound_classes,
)
from praetor_analysis.prob.convolution import convolve_power
from praetor_analysis.prob.dice import binomial_pmf
from praetor_analysis.prob.dist import Dist

__all__ = ["MarkerCounts", "marker_counts", "resolve_marker_hits"]

_ALWAYS = Defence(0, None, None)  # Toughness 0: every hit wounds; no save, no mitigation
_KINDS = {"hit": "hit", "critical": "critical", "rending": "rending"}


def _apply(states: Mapping[State, float], k: int, damage: Dist, wounds: int) -> dict[State, float]:
    """``k`` Unsaved Wounds of ``damage`` each, one at a time (excess on a dying model lost)."""
    if k == 0:
        return dict(states)
    group = FireGroup(Dist.point(k), GIVEN_HIT, Strike(1, None, damage), _ALWAYS)
    return resolve_group(states, group, wounds)


def _trigger(
    states: Mapping[State, float], group: FireGroup, *, hit: bool, wound: bool, wounds: int
) -> dict[State, float]:
    """The status triggers of at least one hit (and one wound), set on every state."""
    out = dict(states)
    if hit and group.on_hit:
        out = resolve_group(out, FireGroup(Dist.point(1), GIVEN_HIT, Strike(None, None, Dist.point(0)),
                                           _ALWAYS, on_hit=group.on_hit), wounds)  # fmt: skip
    if wound and group.on_wound:
        out = resolve_group(out, FireGroup(Dist.point(1), GIVEN_HIT, Strike(1, None, Dist.point(0)),
                                           _ALWAYS, on_wound=group.on_wound), wounds)  # fmt: skip
    return out


@dataclass(frozen=True)
class _Plan:
    """The wound groups of the Fire Group in resolution order, and what one hit of each class becomes."""

    order: tuple[str, ...]
    damage: dict[str, Dist]
    unsaved: dict[str, dict[str, float]]  # class -> group -> P(one hit of the class is an Unsaved Wound there)
    no_wound: dict[str, float]
    deflagrate: float


def _plan(group: FireGroup) -> _Plan:
    order = tuple(g for g, _, _ in group_classes(replace(group, die=HitDie(0.0, 1 / 3, 1 / 3, 1 / 3))).unsaved)
    damage: dict[str, Dist] = {}
    unsaved: dict[str, dict[str, float]] = {}
    no_wound: dict[str, float] = {}
    for cls, kind in _KINDS.items():
        wc = wound_classes(kind, group.strike, group.defence)
        no_wound[cls] = wc.p_no_wound
        unsaved[cls] = {}
        for g in wc.groups:
            unsaved[cls][g.group] = g.p_wound * g.p_unsaved
            damage[g.group] = g.damage
    return _Plan(order, damage, unsaved, no_wound, group_classes(group).p_deflagrate)


def _composition(
    states: Mapping[State, float], counts: Mapping[str, int], group: FireGroup, plan: _Plan, wounds: int
) -> dict[State, float]:
    """The target's states after a fixed number of hits of each class."""
    total = sum(counts.values())
    if total == 0:
        return dict(states)
    # Per class, the hits not yet assigned to a group, and the probability mass still to assign.
    work: dict[tuple[tuple[int, ...], bool, State], float] = defaultdict(float)
    classes = tuple(counts)
    left = tuple(counts[c] for c in classes)
    for s, p in states.items():
        work[(left, False, s)] += p
    # First the hits that do not wound (they decide the "at least one wound" trigger).
    nxt: dict[tuple[tuple[int, ...], bool, State], float] = defaultdict(float)
    for (rem, _, s), p in work.items():
        for split, q in _splits(rem, [plan.no_wound[c] for c in classes]):
            wounded = sum(rem) - sum(split) > 0
            nxt[(tuple(r - k for r, k in zip(rem, split, strict=True)), wounded, s)] += p * q
    work = nxt
    mass = {c: 1.0 - plan.no_wound[c] for c in classes}
    done: dict[tuple[tuple[int, ...], State], float] = defaultdict(float)
    for (rem, wounded, s), p in work.items():
        for s2, q in _trigger({s: 1.0}, group, hit=True, wound=wounded, wounds=wounds).items():
            done[(rem, s2)] += p * q
    for g in plan.order:
        probs = [plan.unsaved[c].get(g, 0.0) for c in classes]
        if not any(probs):
            continue
        cond = [p / mass[c] if mass[c] > 0 else 0.0 for p, c in zip(probs, classes, strict=True)]
        nxt2: dict[tuple[tuple[int, ...], State], float] = defaultdict(float)
        for (rem, s), p in done.items():
            for split, q in _splits(rem, cond):
                k = sum(split)
                rest = tuple(r - x for r, x in zip(rem, split, strict=True))
                after = _apply({s: 1.0}, k, plan.damage[g], wounds)
                if plan.deflagrate > 0.0 and k:
                    after = _deflagrate(after, k, plan.deflagrate, wounds)
                for s2, q2 in after.items():
                    nxt2[(rest, s2)] += p * q * q2
        done = nxt2
        for c, pr in zip(classes, probs, strict=True):
            mass[c] -= pr
    out: dict[State, float] = defaultdict(float)
    for (_, s), p in done.items():
        out[s] += p
    return dict(out)


def _deflagrate(states: Mapping[State, float], k: int, p: float, wounds: int) -> dict[State, float]:
    """One Deflagrate hit per Unsaved Wound: each an Unsaved Wound of Damage 1 with probability ``p``."""
    out: dict[State, float] = defaultdict(float)
    for j, q in enumerate(binomial_pmf(k, min(max(p, 0.0), 1.0)).tolist()):
        if q == 0.0:
            continue
        for s, r in _apply(states, j, Dist.point(1), wounds).items():
            out[s] += q * r
    return dict(out)


def _splits(rem: Sequence[int], probs: Sequence[float]) -> list[tuple[tuple[int, ...], float]]:
    """Every way the remaining hits of each class fall into this step (one binomial per class)."""
    out: list[tuple[tuple[int, ...], float]] = [((), 1.0)]
    for n, p in zip(rem, probs, strict=True):
        pmf = binomial_pmf(n, min(max(p, 0.0), 1.0)).tolist() if n else [1.0]
        out = [((*ks, k), q * pk) for ks, q in out for k, pk in enumerate(pmf) if pk > 0.0]
    return out


def resolve_marker_hits(
    states: Mapping[State, float], classes: Sequence[str], joint: np.ndarray, group: FireGroup, wounds: int
) -> dict[State, float]:
    """The target's states after the marker hits of ``joint`` (axes: ``classes``, of ``hit``, ``critical``,
    ``rending``), the wounds resolved as ``group``'s (its strike, defence, Deflagrate, triggers, group order)."""
    unknown = [c for c in classes if c not in _KINDS]
    if unknown:
        raise ValueError(f"unknown hit class {unknown[0]!r}")
    plan = _plan(group)
    out: dict[State, float] = defaultdict(float)
    for idx in zip(*np.nonzero(joint > 0.0), strict=True):
        p = float(joint[idx])
        counts = {c: int(k) for c, k in zip(classes, idx, strict=True)}
        for s, q in _composition(states, counts, group, plan, wounds).items():
            out[s] += p * q
    return dict(out)


@dataclass(frozen=True)
class MarkerCounts:
    """The counts of a marker attack: hits, critical hits, wounds and Unsaved Wounds (Deflagrate's included)."""

    hits: Dist
    critical_hits: Dist
    wounds: Dist
    unsaved: Dist


def marker_counts(classes: Sequence[str], joint: np.ndarray, group: FireGroup) -> MarkerCounts:
    """The count distributions of the marker hits of ``joint`` (every hit counted, as for dice)."""
    plan = _plan(group)
    df = plan.deflagrate
    size = sum(s - 1 for s in joint.shape) + 1
    hits, crits, wounds = np.zeros(size), np.zeros(size), np.zeros(size)
    unsaved = np.zeros(2 * size)
    for idx in zip(*np.nonzero(joint > 0.0), strict=True):
        p = float(joint[idx])
        counts = {c: int(k) for c, k in zip(classes, idx, strict=True)}
        hits[sum(counts.values())] += p
        crits[counts.get("critical", 0)] += p
        w = np.ones(1)
        u = np.ones(1)
        for c, n in counts.items():
            pw = 1.0 - plan.no_wound[c]
            pu = sum(plan.unsaved[c].values())
            w = np.convolve(w, convolve_power(np.array([1.0 - pw, pw]), n))
            u = np.convolve(u, convolve_power(np.array([1.0 - pu, pu * (1.0 - df), pu * df]), n))
        wounds[: w.size] += p * w
        unsaved[: u.size] += p * u
    return MarkerCounts(*(Dist.from_trusted(a) for a in (hits, crits, wounds, unsaved)))
