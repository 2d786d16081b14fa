"""To Hit (docs/rules.md#to-hit-table): BS table with the BS 6+ second roll, snap shots, Twin-linked,
Master-crafted, the melee WS chart, and natural 1s that stand (for Gets Hot).

Master-crafted gives one re-roll of one failed To Hit roll per weapon, i.e. per attacking model, for that
model's own shots: never pooled across a unit (:func:`master_crafted_hits`). A careful player spends it on
a natural 1 first (it both may hit and avoids a Gets Hot wound); with BS 6+ it re-rolls a natural 1 needing
the first target (2+) instead of the BS re-roll. With Twin-linked every failure is already re-rolled, so
Master-crafted adds nothing.

Re-rolls of 1 (``reroll_ones``: Preferred Enemy, "Re-roll To Hit 1s") re-roll a *natural* 1, needing the
first target (at BS 6+ instead of the second roll, which needs more). ``modifier`` moves the roll needed
(docs/rules.md#to-hit-and-to-wound-modifiers): +1 turns 4+ into 3+; the need is never better than 2+ (a
natural 1 always fails) and a need above 6+ cannot hit; at BS 6+ it moves the second roll too. A die is
re-rolled at most once: with Twin-linked, re-rolls of 1 add nothing; Master-crafted re-rolls a failure that
was not re-rolled already.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from praetor_analysis.prob import Dist, binomial_pmf, compound, p_at_least, thin
from praetor_analysis.rules.tables import to_hit_shooting


@dataclass(frozen=True)
class HitRoll:
    """How one shot or blow rolls To Hit: first target, optional second roll for a natural 1 (BS 6+),
    whether every failure is re-rolled (Twin-linked), and Master-crafted re-rolls per attack."""

    first: int
    second: int | None = None
    reroll_failed: bool = False
    master_crafted: int = 0
    reroll_ones: bool = False
    modifier: int = 0

    @classmethod
    def shooting(cls, bs: int, *, snap: bool = False, twin: bool = False, mc: int = 0) -> HitRoll:
        """The roll for a shooting attack at BS ``bs`` (Snap Shots use BS 1)."""
        first, second = to_hit_shooting(1 if snap else bs)
        return cls(first, second, twin, mc)

    @property
    def need_first(self) -> int:
        """The first roll needed after the modifier: 2 at best, 7 (cannot hit) above 6."""
        return modified_need(self.first, self.modifier)

    @property
    def need_second(self) -> int | None:
        """The BS 6+ second roll needed after the modifier, or None."""
        return None if self.second is None else modified_need(self.second, self.modifier)

    @property
    def p_first(self) -> float:
        """P(the first roll hits)."""
        return p_at_least(self.need_first)

    @property
    def p_one_again(self) -> float:
        """P(a natural 1 of the first roll hits when re-rolled): re-rolls of 1 at the first target, else the
        BS 6+ second roll, else 0."""
        if self.reroll_ones:
            return self.p_first
        if self.need_second is not None:
            return p_at_least(self.need_second)
        return 0.0

    def per_shot(self) -> tuple[float, float]:
        """(P(hit), P(a natural 1 stands)) for one shot, Master-crafted aside."""
        p1 = self.p_first
        if self.reroll_failed:  # Twin-linked: re-roll every failure needing the first target
            return p1 + (1 - p1) * p1, (1 - p1) / 6.0
        if self.reroll_ones or self.second is not None:  # a natural 1 is rolled again
            return p1 + self.p_one_again / 6.0, 1.0 / 36.0
        return p1, 1.0 / 6.0


def modified_need(need: int, modifier: int) -> int:
    """The D6 roll needed after a modifier (+1 makes it easier): never below 2+, 7 when above 6+; a need of
    1 (hits automatically, a vehicle in melee that did not move) is no roll and stays."""
    if need <= 1:
        return need
    return min(max(need - modifier, 2), 7)


def share_at_least(roll: HitRoll, x: int) -> float:
    """P(a hit's standing To Hit die shows ``x`` or more), given that it hit: each die that hits stands on a
    face uniform over those that hit it, independently of the other dice (Twin-linked re-rolls at the same
    target); at BS 6+ a natural 1's second roll hits on its own target. Master-crafted's re-roll of a 1 at
    2+ (BS 6+) is counted as the BS re-roll."""
    p_hit, _ = roll.per_shot()
    if p_hit <= 0.0:
        return 0.0

    def faces(target: int) -> float:  # P(one die shows x+ and hits a target)
        return max(0, 7 - max(x, target, 2)) / 6.0

    second = roll.need_second
    if second is not None and not roll.reroll_failed and not roll.reroll_ones:
        return (faces(roll.need_first) + faces(second) / 6.0) / p_hit
    return faces(roll.need_first) / roll.p_first


def hits_again(hits: Dist, share: float, p_hit: float) -> Dist:
    """The hits when each hit on a high enough die (``share`` of them) makes one more To Hit roll that hits
    with ``p_hit`` and makes no more (Lightning Blows)."""
    extra = share * p_hit
    return Dist.from_trusted(compound(hits.probabilities, np.array([0.0, 1.0 - extra, extra])))


def _hits_given_n(roll: HitRoll, n: int) -> np.ndarray:
    """pmf of hits from exactly ``n`` shots, Master-crafted included."""
    p, _ = roll.per_shot()
    mc = roll.master_crafted
    if mc == 0 or roll.reroll_failed or n == 0:
        return binomial_pmf(n, p)
    out = np.zeros(n + 1)
    if roll.reroll_ones:
        # a natural 1 is re-rolled already; Master-crafted re-rolls min(F, mc) of the F other failures
        p1 = roll.p_first
        p_other = max(0.0, 1.0 - p1 - 1.0 / 6.0)
        p_rest_hit = p / (1.0 - p_other) if p_other < 1.0 else 0.0
        for f, w in enumerate(binomial_pmf(n, p_other)):
            extra = np.convolve(binomial_pmf(n - f, p_rest_hit), binomial_pmf(min(f, mc), p1))
            out[: extra.size] += w * extra
        return out
    if roll.second is not None:
        # BS 6+: O natural 1s and F other failures (a modifier of -1 or worse) on the first roll. Master-crafted
        # re-rolls the other failures first (at the first target), then natural 1s at the first target instead
        # of the second roll; the other 1s take the second roll.
        p1, p_bs = roll.p_first, roll.p_one_again
        p_other = max(0.0, 1.0 - p1 - 1.0 / 6.0)
        for o, wo in enumerate(binomial_pmf(n, 1.0 / 6.0)):
            rest = n - o
            for f, wf in enumerate(binomial_pmf(rest, p_other / (5.0 / 6.0))):
                used_other = min(f, mc)
                used_one = min(o, mc - used_other)
                extra = np.convolve(binomial_pmf(used_other + used_one, p1), binomial_pmf(o - used_one, p_bs))
                base = rest - f
                out[base : base + extra.size] += wo * wf * extra
        return out
    p1 = roll.p_first
    fails = binomial_pmf(n, 1 - p1)
    for f, w in enumerate(fails):
        extra = binomial_pmf(min(f, mc), p1)
        out[n - f : n - f + extra.size] += w * extra
    return out


def _ones_given_n(roll: HitRoll, n: int) -> np.ndarray:
    """pmf of natural 1s that stand from exactly ``n`` shots, Master-crafted included."""
    _, q = roll.per_shot()
    mc = roll.master_crafted
    if mc == 0 or roll.reroll_failed or n == 0:
        return binomial_pmf(n, q)
    if roll.reroll_ones or roll.second is not None:
        # A natural 1 is rolled again (standing as 1 with 1/36 per shot); Master-crafted re-rolls min(F, mc)
        # of the F other failures, each showing 1 with 1/6. (At BS 6+ Master-crafted takes a 1 first: the
        # same count of standing 1s, as either re-roll shows 1 with 1/6.)
        p_other = max(0.0, 1.0 - roll.p_first - 1.0 / 6.0)
        out = np.zeros(n + 1)
        for f, w in enumerate(binomial_pmf(n, p_other)):
            extra = np.convolve(binomial_pmf(n - f, (1.0 / 36.0) / (1.0 - p_other)), binomial_pmf(min(f, mc), 1 / 6))
            out[: extra.size] += w * extra
        return out
    # Shots fall into: hit, natural 1, other failure. Re-roll min(F, mc) failures, natural 1s first;
    # each re-rolled die shows a natural 1 with probability 1/6.
    p1 = roll.p_first
    p_one, p_other = 1.0 / 6.0, max(0.0, 1.0 - p1 - 1.0 / 6.0)
    out = np.zeros(n + 1)
    ones_pmf = binomial_pmf(n, p_one)
    for o, wo in enumerate(ones_pmf):
        if wo == 0.0:
            continue
        rest = n - o
        q_other = p_other / (1.0 - p_one) if p_one < 1.0 else 0.0
        for x, wx in enumerate(binomial_pmf(rest, q_other)):
            if wx == 0.0:
                continue
            used = min(o + x, mc)
            kept = o - min(o, used)
            extra = binomial_pmf(used, 1.0 / 6.0)
            out[kept : kept + extra.size] += wo * wx * extra
    return out


def roll_to_hit(attacks: Dist, roll: HitRoll) -> tuple[Dist, Dist]:
    """(hits, natural 1s that stand) from a distribution of shots or blows."""
    p, q = roll.per_shot()
    counts = attacks.probabilities
    if roll.master_crafted == 0 or roll.reroll_failed:
        return Dist.from_trusted(thin(counts, p)), Dist.from_trusted(thin(counts, q))
    hits = np.zeros(counts.size)
    ones = np.zeros(counts.size)
    for n, w in enumerate(counts):
        if w > 0.0:
            h = _hits_given_n(roll, n)
            o = _ones_given_n(roll, n)
            hits[: h.size] += w * h
            ones[: o.size] += w * o
    return Dist.from_trusted(hits), Dist.from_trusted(ones)


def master_crafted_hits(shots: Dist, roll: HitRoll, models: int, *, per_model: bool) -> tuple[Dist, Dist]:
    """(hits, natural 1s that stand) when each of ``models`` models has its own Master-crafted re-roll.

    ``per_model``: ``shots`` is one model's shots (the models are independent and alike); otherwise it is the
    total of the unit, dealt round-robin among the models.
    """
    one = replace(roll, master_crafted=1)
    if per_model:
        each_hits, each_ones = roll_to_hit(shots, one)
        return each_hits.power(models), each_ones.power(models)
    counts = shots.probabilities
    size = counts.size
    hits, ones = np.zeros(size), np.zeros(size)
    for n, w in enumerate(counts):
        if w == 0.0:
            continue
        h, o = np.ones(1), np.ones(1)
        for i in range(models):
            share = n // models + (1 if i < n % models else 0)
            h, o = np.convolve(h, _hits_given_n(one, share)), np.convolve(o, _ones_given_n(one, share))
        hits[: h.size] += w * h
        ones[: o.size] += w * o
    return Dist.from_trusted(hits), Dist.from_trusted(ones)


#: The chance that the Gets Hot D6 of a weapon that does not roll To Hit shows a 1. That die is not a To Hit
#: roll, so no To Hit re-roll (Twin-linked, Master-crafted, re-rolls of 1) touches it (docs/rules.md#gets-hot).
GETS_HOT_ONE = 1.0 / 6.0


def gets_hot_given_hits(hits: Dist, shots: Dist) -> tuple[Dist, Dist]:
    """Gets Hot when the attack's total ``hits`` are given: one D6 per shot, never per hit.

    The hits are dealt round-robin among the shots (``shots`` of them); a shot whose die shows a 1 (never
    re-rolled) is lost with its hits and wounds the firer. Returns (hits that go on, 1s).
    """
    p_one = GETS_HOT_ONE
    h_counts, n_counts = hits.probabilities, shots.probabilities
    kept = np.zeros(h_counts.size)
    for n, wn in enumerate(n_counts):
        if wn == 0.0:
            continue
        for h, wh in enumerate(h_counts):
            if wh == 0.0:
                continue
            if n == 0:
                kept[h] += wn * wh
                continue
            small, big = h // n, h // n + 1
            n_big = h % n
            lost_big, lost_small = binomial_pmf(n_big, p_one), binomial_pmf(n - n_big, p_one)
            for lb, pb in enumerate(lost_big):
                for ls, ps in enumerate(lost_small):
                    kept[h - lb * big - ls * small] += wn * wh * pb * ps
    return Dist.from_trusted(kept), Dist.from_trusted(thin(n_counts, p_one))


def gets_hot_before_firing(hits: Dist) -> tuple[Dist, Dist]:
    """Weapons that do not roll To Hit: each shot first rolls a D6, a 1 losing it and wounding the firer.

    The die is not a To Hit roll, so Twin-linked does not re-roll it. Returns (shots that go on, 1s).
    """
    p_one = GETS_HOT_ONE
    counts = hits.probabilities
    return Dist.from_trusted(thin(counts, 1 - p_one)), Dist.from_trusted(thin(counts, p_one))
