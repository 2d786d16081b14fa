"""Brute-force oracle of a whole HH3 melee round (MECHANICS-HH3 sections 10 and 13), exact.

Both sides strike in Initiative Steps from the highest Combat Initiative down; within a step every model
alive at its start strikes (simultaneous), casualties are removed at its end.  Each strike is enumerated
die by die by `enumerate.resolve`; the two sides' dice in one step are independent given the step's start.
"""

from __future__ import annotations

from fractions import Fraction

from .enumerate import ONE, St, add, pmf, resolve
from .profiles import strike, unit
from .rules import STATUSES, check_passes, modify


def melee_round(doc: dict) -> dict:
    if doc.get("attacks") is not None:
        raise NotImplementedError("the oracle's whole round reads attacks from the profiles")
    order = (doc.get("options") or {}).get("group_order", "created")
    att = unit(doc["attacker"], melee=True)
    tgt = unit(doc["target"], melee=True)
    if att.vehicle or tgt.vehicle:
        raise NotImplementedError("the oracle's whole round is between units of models")
    w_att, w_tgt = doc["weapon"], doc["target_weapon"]
    sk_att = strike(w_att, att, tgt, doc, melee=True)
    sk_tgt = strike(w_tgt, tgt, att, doc, melee=True)
    per_att = modify(w_att.get("AM", "A"), att.A)  # attacks per model (section 10)
    per_tgt = modify(w_tgt.get("AM", "A"), tgt.A)
    ci_att = modify(w_att.get("IM", "I"), att.I)
    ci_tgt = modify(w_tgt.get("IM", "I"), tgt.I)
    dist: dict = {(St(att.models, att.W), St(tgt.models, tgt.W)): ONE}
    for step in sorted({ci_att, ci_tgt}, reverse=True):
        nxt: dict = {}
        for (a, t), p in dist.items():
            # both sides' strikes from the models alive at the start of the step
            on_tgt = resolve(sk_att, per_att * a.models, tgt, t, order) if ci_att == step else {t: ONE}
            on_att = resolve(sk_tgt, per_tgt * t.models, att, a, order) if ci_tgt == step else {a: ONE}
            for t2, q in on_tgt.items():
                for a2, r in on_att.items():
                    add(nxt, (a2, t2), p * q * r)
        dist = nxt
    combat = {"attacker_wins": Fraction(0), "target_wins": Fraction(0), "draw": Fraction(0)}
    routed = Fraction(0)
    for (a, t), p in dist.items():
        pts_a = tgt.models - t.models + (a.models > t.models)
        pts_t = att.models - a.models + (t.models > a.models)
        if a.models == 0 and t.models == 0:
            combat["draw"] += p
        elif t.models == 0 or (a.models > 0 and pts_a > pts_t):
            combat["attacker_wins"] += p
            if t.models > 0:
                routed += p * (1 - check_passes(tgt.LD - (pts_a - pts_t)))
        elif a.models == 0 or pts_t > pts_a:
            combat["target_wins"] += p
        else:
            combat["draw"] += p
    only_target: dict = {}
    for (_, t), p in dist.items():
        add(only_target, t, p)
    statuses: dict = dict.fromkeys(STATUSES)
    statuses["Routed"] = routed
    return {
        "hits": pmf(only_target, lambda s: s.hits),
        "critical_hits": pmf(only_target, lambda s: s.crits),
        "wounds": pmf(only_target, lambda s: s.wounds),
        "unsaved": pmf(only_target, lambda s: s.unsaved),
        "casualties": pmf(only_target, lambda s: tgt.models - s.models),
        "damage": pmf(only_target, lambda s: s.damage),
        "attacker_casualties": pmf_side(dist, att.models),
        "combat": combat,
        "statuses": statuses,
    }


def pmf_side(dist: dict, models: int) -> list[Fraction]:
    side: dict = {}
    for (a, _), p in dist.items():
        add(side, models - a.models, p)
    top = max((k for k, p in side.items() if p), default=0)
    return [side.get(k, Fraction(0)) for k in range(top + 1)]
