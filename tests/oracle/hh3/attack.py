"""The HH3 oracle's door: one document (a single attack or `firing_units`) -> exact distributions.

Each firing unit is one Shooting Attack; its volleys are Fire Groups resolved in order on the carried state
(enumerate.py).  Statuses (MECHANICS-HH3 section 14): each weapon's Pinning/Panic (a wound from that weapon,
saved or not) and Suppressive/Stun (a hit from it) mark their status as triggered in the attack; at the end
of the attack the triggered status takes the largest X of that rule among the attack's weapons, and the 25%
casualties Check (of the models at the attack's start) triggers Routed at LD; over all attacks one Check per
status with the harshest modifier, Routed first.  Pinned/Suppressed/Stunned are null unless a weapon carries
their rule (or a Shock (X) naming them reaches a Vehicle or Walker unit); Routed is null for vehicles and in
one-way melee; a unit wiped out (or a vehicle wrecked) holds no status.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from .enumerate import GIVEN, St, add, pmf, resolve, resolve_vehicle, roll_each
from .profiles import Unit, dice_count, quarter, strike, unit
from .rules import STATUSES, check_passes, dice, dice_dist

CHECKS = {"Pinning": ("Pinned", "wound"), "Suppressive": ("Suppressed", "hit"), "Stun": ("Stunned", "hit"),
          "Panic": ("Routed", "wound")}  # fmt: skip


def run_volley(dist: dict, v: dict, target: Unit, options: dict, melee: bool):
    """One Fire Group (or one-way Strike Group) from every state of `dist`."""
    attacker = unit(v["attacker"])
    sk = strike(v["weapon"], attacker, target, v, melee=melee)
    counts = dice_count(v["weapon"], attacker, v, melee=melee)
    template_misfires = None
    if v.get("hits") is not None:  # marker hits: no Hit Test at all
        if sk.overload is not None and "Template" in sk.rules:  # section 4: roll the FP dice for Misfires
            fp = dice_count(v["weapon"], attacker, {**v, "attacks": None}, melee=False)
            x = sk.overload
            template_misfires = {}
            for n, p in fp.items():
                for (m,), q in roll_each(n, (0,), lambda c, f: (c[0] + (f <= x),)).items():
                    add(template_misfires, m, p * q)
        sk = replace(sk, hit_need=GIVEN, crit_from=None, rending=None, overload=None, shock=None)
        counts = dice_dist(dice(v["hits"]))
    out: dict[St, Fraction] = {}
    misfired: dict[int, Fraction] = {}
    for start, p in dist.items():
        for n, pn in counts.items():
            if target.vehicle:
                part = resolve_vehicle(
                    sk,
                    n,
                    target,
                    start,
                    "Rear" if melee else target.facing,
                    options.get("apt_natural_one_fails", True),
                    options.get("critical_vs_vehicle") == "wasted",
                )
            else:
                part = resolve(sk, n, target, start, options.get("group_order", "created"))
            for end, q in part.items():
                now = set(end.now)
                for name, (status, flag) in CHECKS.items():
                    got = end.hits > start.hits if flag == "hit" else end.wounds > start.wounds
                    if name in sk.rules and got and not melee and not target.vehicle:
                        now.add(status)
                shocked = end.shocked | {sk.shock} if end.shock and sk.shock in STATUSES else end.shocked
                add(out, replace(end, now=frozenset(now), shock=False, shocked=shocked), p * pn * q)
                add(misfired, end.misfires - start.misfires, p * pn * q)
    if template_misfires is not None:
        misfired = template_misfires
    has_misfires = sk.overload is not None or template_misfires is not None
    firer = misfire_losses(v, attacker, misfired) if has_misfires else None
    return out, sk, firer


def misfire_losses(v: dict, attacker: Unit, misfired: dict) -> dict:
    """Section 4: each Misfire is a hit with the weapon's profile on the firing unit (its majority T, its
    saves), no hit-roll rule, no Check; `hits` is the number of Misfires."""
    firer = unit({**v["attacker"], "Cover": "-"})
    sk = replace(strike(v["weapon"], attacker, firer, v, melee=False), hit_need=GIVEN, shock=None)
    dist: dict = {}
    for m, p in misfired.items():
        for end, q in resolve(sk, m, firer, St(firer.models, firer.W), "created").items():
            add(dist, end, p * q)
    return {
        "hits": pmf(dist, lambda s: s.hits),
        "wounds": pmf(dist, lambda s: s.wounds),
        "unsaved": pmf(dist, lambda s: s.unsaved),
        "casualties": pmf(dist, lambda s: firer.models - s.models),
        "damage": pmf(dist, lambda s: s.damage),
    }


def end_attack(dist: dict, rules: list[dict], target: Unit, melee: bool) -> dict:
    """Close one attack: its triggered statuses take the largest X of their rule; the 25% Check."""
    largest = {}
    for name, (status, _) in CHECKS.items():
        xs = [r[name] or 0 for r in rules if name in r]
        if xs:
            largest[status] = max(xs)
    out: dict = {}
    for st, p in dist.items():
        trig = dict(st.trig)
        for status in st.now:
            trig[status] = max(trig.get(status, largest[status]), largest[status])
        if not melee and not target.vehicle and st.begin - st.models >= quarter(st.begin):
            trig["Routed"] = max(trig.get("Routed", 0), 0)
        add(out, replace(st, trig=tuple(sorted(trig.items())), now=frozenset(), begin=st.models), p)
    return out


def statuses(dist: dict, target: Unit, melee: bool, strikes: list) -> dict:
    out: dict = dict.fromkeys(STATUSES)
    if target.immune:
        return out
    if target.vehicle:
        out.update(Pinned=Fraction(0), Suppressed=Fraction(0), Stunned=Fraction(0))
    else:
        if not melee:
            out["Routed"] = Fraction(0)
            for sk in strikes:
                for name, (status, _) in CHECKS.items():
                    if name in sk.rules:
                        out[status] = Fraction(0)
        for sk in strikes:
            if sk.shock in STATUSES:
                out[sk.shock] = Fraction(0)
    cl = target.CL + (1 if target.heavy_subtype else 0)
    for st, p in dist.items():
        if (target.vehicle and st.hp >= target.HP) or (not target.vehicle and st.models == 0):
            continue
        trig = dict(st.trig)
        p_routed = 1 - check_passes(target.LD - trig["Routed"]) if "Routed" in trig else Fraction(0)
        if out["Routed"] is not None:
            out["Routed"] += p * p_routed
        for status in ("Pinned", "Suppressed", "Stunned"):
            if out[status] is None:
                continue
            keep = check_passes(cl - trig[status]) if status in trig else Fraction(1)
            if status in st.shocked or status in st.table:
                keep = Fraction(0)
            out[status] += p * (1 - p_routed) * (1 - keep)
    return out


def hh3_oracle(doc: dict) -> dict:
    """The distributions of one HH3 document (MECHANICS-HH3 sections 1-10, 13, 14), exact."""
    if doc.get("edition") != "hh3":
        raise ValueError("not an hh3 document")
    melee = doc.get("mode", "shooting") == "melee"
    if melee and doc.get("target_weapon") is not None:
        from .melee import melee_round

        return melee_round(doc)
    options = doc.get("options") or {}
    target = unit(doc["target"], melee=melee)
    shared = {k: v for k, v in doc.items() if k != "firing_units"}
    units = [[{**shared, **v} for v in fu] for fu in doc["firing_units"]] if "firing_units" in doc else [[doc]]
    dist: dict = {St(target.models, target.W, begin=target.models): Fraction(1)}
    strikes = []
    misfires: list[dict] = []  # per volley with Overload: the Misfires and the firer's losses
    for fu in units:
        attack = []
        for v in fu:
            v_melee = v.get("mode", "shooting") == "melee"
            dist, sk, firer = run_volley(dist, v, target, options, v_melee)
            attack.append(sk)
            if firer is not None:
                misfires.append(firer)
        dist = end_attack(dist, [sk.rules for sk in attack], target, melee)
        strikes += attack
    result: dict = {"hits": pmf(dist, lambda s: s.hits), "critical_hits": pmf(dist, lambda s: s.crits)}
    if misfires:
        result["misfires"] = misfires
    if target.vehicle:
        result["glancing"] = pmf(dist, lambda s: s.glancing)
        result["penetrating"] = pmf(dist, lambda s: s.penetrating)
        result["penetrating_unsaved"] = pmf(dist, lambda s: s.pen_unsaved)
        result["hull_points"] = pmf(dist, lambda s: s.hp)
        result["wrecked"] = sum((p for s, p in dist.items() if s.hp >= target.HP), Fraction(0))
    else:
        result["wounds"] = pmf(dist, lambda s: s.wounds)
        result["unsaved"] = pmf(dist, lambda s: s.unsaved)
        result["casualties"] = pmf(dist, lambda s: target.models - s.models)
        result["damage"] = pmf(dist, lambda s: s.damage)
    result["statuses"] = statuses(dist, target, melee, strikes)
    return result
