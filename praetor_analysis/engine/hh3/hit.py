"""Edition 3 Hit Tests: the outcome classes of one hit die (miss, hit, critical, rending) with its Precision
and Overload triggers, read from the natural result (docs/rules-hh3.md)."""

from __future__ import annotations

from dataclasses import dataclass

from praetor_analysis.prob import BoundedMemo
from praetor_analysis.rules import AUTOMATIC, TABLES, Hh3Tables

__all__ = ["GIVEN_HIT", "HitDie", "hit_die", "melee_hit_die", "ranged_hit_die"]


@dataclass(frozen=True)
class HitDie:
    """The classes of one hit die; ``miss + hit + critical + rending == 1``.

    Attributes:
        miss: no hit.
        hit: an ordinary hit (a Precision-only hit included: on identical models it changes nothing).
        critical: a Critical Hit (wounds automatically as a natural 6, +1 Damage).
        rending: a Rending hit that is not Critical (wounds automatically as a natural 6, AP and D kept).
        precision: the share of all dice that hit with Precision (reported; no effect on identical models).
        misfire: P(the die is an Overload Misfire), whatever the hit.
        shock: P(the natural result is 5 or 6, hit or miss; an automatic hit counts as a 6), for Shock (X).
    """

    miss: float
    hit: float
    critical: float
    rending: float
    precision: float = 0.0
    misfire: float = 0.0
    shock: float = 0.0

    @property
    def hits(self) -> float:
        """P(any hit)."""
        return self.hit + self.critical + self.rending


GIVEN_HIT = HitDie(0.0, 1.0, 0.0, 0.0)
"""A hit given without a Hit Test (markers' hits): ordinary, no hit-roll rule."""


def hit_die(
    target: int | None,
    *,
    critical_from: int | None = None,
    rending_from: int | None = None,
    precision_from: int | None = None,
    overload: int | None = None,
    calm: bool = False,
) -> HitDie:
    """The classes of one die needing ``target``+ (None: cannot hit, no die rolled; ``AUTOMATIC``: no die
    rolled, the hit counts as a natural 6). A natural 1 always misses; a hit whose natural result reaches
    ``critical_from`` is Critical, else one reaching ``rending_from`` is Rending; ``precision_from`` marks
    Precision hits; a natural result <= ``overload`` is a Misfire (rolled dice only). ``calm``: the die given
    that its natural result is 1 to 4 (no Shock), for the exact Shock (X) split. Memoised (a HitDie is frozen)."""
    key = (target, critical_from, rending_from, precision_from, overload, calm)
    return _DICE.get(key, lambda: _hit_die(target, critical_from, rending_from, precision_from, overload, calm))


_DICE: BoundedMemo[HitDie] = BoundedMemo(1024)


def _hit_die(
    target: int | None,
    critical_from: int | None,
    rending_from: int | None,
    precision_from: int | None,
    overload: int | None,
    calm: bool,
) -> HitDie:
    if target is None:
        return HitDie(1.0, 0.0, 0.0, 0.0)
    faces = (6,) if target <= AUTOMATIC else (1, 2, 3, 4) if calm else (1, 2, 3, 4, 5, 6)
    each = 1.0 / len(faces)
    miss = hit = crit = rend = prec = misfire = shock = 0.0
    for v in faces:
        if v >= 5:
            shock += each
        if overload is not None and target > AUTOMATIC and v <= overload:
            misfire += each
        if v == 1 or v < target:
            miss += each
            continue
        if precision_from is not None and v >= precision_from:
            prec += each
        if critical_from is not None and v >= critical_from:
            crit += each
        elif rending_from is not None and v >= rending_from:
            rend += each
        else:
            hit += each
    return HitDie(miss, hit, crit, rend, prec, misfire, shock)


def ranged_hit_die(
    bs: int,
    *,
    snap: bool,
    critical: int | None = None,
    rending: int | None = None,
    precision: int | None = None,
    overload: int | None = None,
    calm: bool = False,
    tables: Hh3Tables = TABLES,
) -> HitDie:
    """One ranged hit die at ``bs`` (>= 1): the BS table's target and critical band (the lower of the band and
    the weapon's Critical Hit (X) counts); Precision never on Snap Shots; BS 10 (not snap) hits automatically
    as a Critical Hit."""
    target, band = tables.ranged(bs, snap=snap)
    crit_from = min((x for x in (band, critical) if x is not None), default=None)
    return hit_die(
        target,
        critical_from=crit_from,
        rending_from=rending,
        precision_from=None if snap else precision,
        overload=overload,
        calm=calm,
    )


def melee_hit_die(
    ws: int,
    ws_defender: int,
    *,
    critical: int | None = None,
    rending: int | None = None,
    precision: int | None = None,
    calm: bool = False,
    tables: Hh3Tables = TABLES,
) -> HitDie:
    """One melee hit die on the Weapon Skill chart (no critical band; the weapon's rules trigger as in
    shooting)."""
    return hit_die(
        tables.melee(ws, ws_defender),
        critical_from=critical,
        rending_from=rending,
        precision_from=precision,
        calm=calm,
    )
