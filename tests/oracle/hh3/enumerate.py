"""Brute-force oracle of MECHANICS-HH3.md: every die of an HH3 attack enumerated face by face, exactly.

Independent of praetor_analysis (never imported).  The Hit Test dice of a group are rolled one after another,
every face of each (`roll_each`: the sums of itertools.product over the 6^n faces, equal running outcomes
merged), then the Wound Test dice of the hits that need one, then each wound's save, mitigation and Damage
dice one wound at a time, carrying the target's state (models left, wounds left on the damaged model)
exactly.  No binomial or convolution shortcut.  replay.py checks this staging on tiny cases against every
die of the attack at once.

Readings where the contract leaves room (one per line, to compare with the engine):
- Set-aside groups (section 7): unmodified wounds first; then Critical, Rending (hit step), then Breaching
  only, Shred only, Breaching and Shred (wound step); `options.group_order: "largest_damage_first"` sorts the
  set-aside groups by their Damage bonus, largest first (ties keep the created order).
- Deflagrate (X): after each group, one hit per Unsaved Wound of that group at S X, AP -, D 1, no rules,
  resolved at once; counted in `unsaved`, `casualties` and `damage`, not in `hits` or `wounds` (SCENARIO's
  HH2 sentence on Deflagrate, carried over).
- `wounds` counts Wound Tests passed whether or not a model is left; `unsaved` counts every wound that fails
  its save and mitigation, rolled even once the unit is gone; `damage` only what models actually lose.
- Damage: D (rolled per unsaved wound) x2 for Ordnance (D), then +1 Heavy (D), +1 Critical, +1 Shred,
  then -X Eternal Warrior, at least 1.
- Vehicles: `penetrating` counts Penetrating Hits before saves (section 16); `penetrating_unsaved` after.
  Armour-breaker's die is rolled for every Penetrating Hit.  A Super-heavy or Flyer loses 1 HP per glance.
- Statuses and sequences: attack.py.  Whole round: melee.py (a side wiped out loses, both wiped out is a
  draw; the target is Routed if it lost and failed its Leadership Check at LD minus the difference).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from .profiles import Strike, Unit
from .rules import DAMAGE_TABLE, FACES, SIXTH, dice_dist, test_passes

ONE = Fraction(1)
GIVEN = -1  # Strike.hit_need of hits that are given, not rolled


@dataclass(frozen=True)
class St:
    """The joint state of one attack; every count field is part of the outcome."""

    models: int
    wleft: int
    hits: int = 0
    crits: int = 0
    wounds: int = 0
    unsaved: int = 0
    damage: int = 0
    misfires: int = 0
    shock: bool = False
    # vehicles
    hp: int = 0  # Hull Points lost (uncapped)
    glancing: int = 0
    penetrating: int = 0
    pen_unsaved: int = 0
    table: frozenset = frozenset()  # statuses rolled on the Vehicle Damage Table
    # statuses (section 14)
    shocked: frozenset = frozenset()  # statuses given by Shock (X), no Check
    now: frozenset = frozenset()  # statuses whose Check the current attack has triggered
    trig: tuple = ()  # (status, harshest modifier) of every Check triggered so far
    begin: int = 0  # models at the start of the current attack (the 25% Check)


def add(out: dict, key, p) -> None:
    out[key] = out.get(key, Fraction(0)) + p


def roll_each(n: int, start: tuple, face) -> dict[tuple, Fraction]:
    """Roll n dice one after another, every face of each (1/6), merging equal running outcomes;
    `face(outcome, natural result) -> outcome`.  The same sums as itertools.product over 6^n faces."""
    dist = {start: ONE}
    for _ in range(n):
        nxt: dict[tuple, Fraction] = {}
        for outcome, p in dist.items():
            for f in FACES:
                add(nxt, face(outcome, f), p * SIXTH)
        dist = nxt
    return dist


# ---------------------------------------------------------------------------------------------- hit step
def hit_dice(sk: Strike, n: int) -> dict[tuple, Fraction]:
    """(normal hits, critical hits, rending hits, misfires, any natural 5-6) over every face of n dice."""
    out: dict[tuple, Fraction] = {}
    if n == 0 or sk.hit_need is None:
        return {(0, 0, 0, 0, False): ONE}
    if sk.hit_need == GIVEN:  # hits given (markers, misfires): no Hit Test, nothing triggers
        return {(n, 0, 0, 0, False): ONE}
    if sk.hit_need == 0:  # automatic: a natural 6 and a Critical Hit for every rule
        mis = n if sk.overload is not None and sk.overload >= 6 else 0
        return {(0, n, 0, mis, True): ONE}

    def face(counts: tuple, f: int) -> tuple:
        normal, crit, rend, mis, shock = counts
        mis += sk.overload is not None and f <= sk.overload
        shock = shock or f >= 5
        if test_passes(f, sk.hit_need):
            if sk.crit_from is not None and f >= sk.crit_from:
                crit += 1
            elif sk.rending is not None and f >= sk.rending:
                rend += 1
            else:
                normal += 1
        return normal, crit, rend, mis, shock

    out = roll_each(n, (0, 0, 0, 0, False), face)
    return out


# ---------------------------------------------------------------------------------------------- wound step
def wound_dice(sk: Strike, n: int, t: int) -> dict[tuple, Fraction]:
    """(plain, breaching only, shred only, breaching and shred) wounds over every face of n Wound Tests."""
    need = sk.wound_need(t)

    def face(counts: tuple, f: int) -> tuple:
        poisoned = sk.poisoned is not None and f != 1 and f >= sk.poisoned
        if not (test_passes(f, need) or poisoned):
            return counts
        b = sk.breaching is not None and f >= sk.breaching
        s = sk.shred is not None and f >= sk.shred
        return tuple(c + (i == 2 * s + b) for i, c in enumerate(counts))

    out = roll_each(n, (0, 0, 0, 0), face)
    return out


@dataclass(frozen=True)
class Group:
    count: int
    ap: int | None
    bonus: int  # Damage +1 per Critical, +1 per Shred
    created: int


def groups_of(sk: Strike, crit: int, rend: int, wounded: tuple, order: str) -> list[Group]:
    """Section 7's set-aside groups; critical and rending hits wound as a natural 6."""
    plain, b_only, s_only, b_and_s = wounded
    six_ap = 2 if sk.breaching is not None else sk.ap
    six_shred = 1 if sk.shred is not None else 0
    made = [
        Group(crit, six_ap, 1 + six_shred, 1),
        Group(rend, six_ap, six_shred, 2),
        Group(b_only, 2, 0, 3),
        Group(s_only, sk.ap, 1, 4),
        Group(b_and_s, 2, 1, 5),
    ]
    if order == "largest_damage_first":
        made.sort(key=lambda g: (-g.bonus, g.created))
    return [Group(plain, sk.ap, 0, 0), *[g for g in made if g.count]]


# ---------------------------------------------------------------------------------------------- saves, damage
def wound_fates(
    tg: Unit, ap: int | None, shooting: bool, dmg: dict[int, Fraction], eternal: int
) -> list[tuple[Fraction, bool, int]]:
    """(probability, unsaved, damage) of one wound: its save die, mitigation die and Damage dice."""
    saves = [tg.inv]
    if tg.sav is not None and (ap is None or ap > tg.sav):
        saves.append(tg.sav)
    if shooting:
        saves.append(tg.cover)
    save = min((s for s in saves if s is not None), default=None)
    mits = [tg.rules.get("Feel No Pain")]
    if shooting:
        mits.append(tg.rules.get("Shrouded"))
    mit = min((m for m in mits if isinstance(m, int)), default=None)
    out: list[tuple[Fraction, bool, int]] = []
    for sf in FACES if save is not None else [None]:
        ps = SIXTH if sf is not None else ONE
        if sf is not None and test_passes(sf, save):
            out.append((ps, False, 0))
            continue
        for mf in FACES if mit is not None else [None]:
            pm = SIXTH if mf is not None else ONE
            if mf is not None and test_passes(mf, mit):
                out.append((ps * pm, False, 0))
                continue
            for d, pd in dmg.items():
                d = max(d - eternal, 1) if eternal and d > 0 else d
                out.append((ps * pm * pd, True, d))
    return out


def take(st: St, d: int, W: int) -> St:
    """Damage d on the damaged (or a fresh) model; a casualty's excess is lost (section 7)."""
    if st.models == 0 or d <= 0:
        return st
    if d >= st.wleft:
        return replace(st, models=st.models - 1, wleft=W, damage=st.damage + st.wleft)
    return replace(st, wleft=st.wleft - d, damage=st.damage + d)


def damage_dist(sk: Strike, bonus: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for d, p in dice_dist(sk.damage).items():
        add(out, d * sk.damage_times + sk.damage_plus + bonus, p)
    return out


def run_group(dist: dict, tg: Unit, fates: list, count: int, deflagrate: Strike | None) -> dict:
    """Save and apply `count` wounds one at a time; then the Deflagrate hits of this group."""
    for _ in range(count):
        nxt: dict = {}
        for (st, made), p in dist.items():
            for q, unsaved, d in fates:
                new = take(st, d, tg.W) if unsaved else st
                add(nxt, (replace(new, unsaved=new.unsaved + unsaved), made + unsaved), p * q)
        dist = nxt
    if deflagrate is None:
        return dist
    out: dict = {}
    for (st, made), p in dist.items():
        for (st2, _), q in deflagrate_hits(deflagrate, tg, {(st, 0): ONE}, made).items():
            add(out, (st2, 0), p * q)
    return out


def deflagrate_hits(sk: Strike, tg: Unit, dist: dict, n: int) -> dict:
    """n extra hits at S X, AP -, D 1: each its Wound Test, save, mitigation (section 7)."""
    need = sk.wound_need(tg.T)
    eternal = tg.rules.get("Eternal Warrior") or 0
    fates = wound_fates(tg, None, sk.shooting, {1: ONE}, eternal)
    for _ in range(n):
        nxt: dict = {}
        for key, p in dist.items():
            for f in FACES:
                if not test_passes(f, need):
                    add(nxt, key, p * SIXTH)
                    continue
                for q, unsaved, d in fates:
                    st, made = key
                    new = take(st, d, tg.W) if unsaved else st
                    add(nxt, (replace(new, unsaved=new.unsaved + unsaved), made), p * SIXTH * q)
        dist = nxt
    return dist


def resolve(sk: Strike, n: int, tg: Unit, start: St, order: str) -> dict[St, Fraction]:
    """One group of n attacks against a unit of models (not vehicles), from the state `start`."""
    out: dict[St, Fraction] = {}
    eternal = tg.rules.get("Eternal Warrior") or 0
    defl = None
    if sk.deflagrate is not None:
        defl = replace(sk, strength=sk.deflagrate, ap=None, poisoned=None, breaching=None, shred=None)
    for (normal, crit, rend, mis, shock), p in hit_dice(sk, n).items():
        for wounded, q in wound_dice(sk, normal, tg.T).items():
            st = replace(
                start,
                hits=start.hits + normal + crit + rend,
                crits=start.crits + crit,
                wounds=start.wounds + sum(wounded) + crit + rend,
                misfires=start.misfires + mis,
                shock=start.shock or (shock and sk.shock is not None),
            )
            dist: dict = {(st, 0): p * q}
            for g in groups_of(sk, crit, rend, wounded, order):
                fates = wound_fates(tg, g.ap, sk.shooting, damage_dist(sk, g.bonus), eternal)
                dist = run_group(dist, tg, fates, g.count, defl)
            for (end, _), r in dist.items():
                add(out, end, r)
    return out


# ---------------------------------------------------------------------------------------------- vehicles
def hit_on_vehicle(sk: Strike, tg: Unit, facing: str, critical: bool, apt_one_fails: bool) -> list:
    """(probability, kind, statuses rolled, unsaved, HP) of one hit: APT die, Armour-breaker die, save,
    mitigation, Damage dice, and for a glance its Damage Table die (section 9)."""
    av = tg.armour[facing]
    save = min((s for s in (tg.inv, tg.cover if sk.shooting else None) if s is not None), default=None)
    mits = [tg.rules.get("Feel No Pain"), tg.rules.get("Shrouded") if sk.shooting else None]
    mit = min((m for m in mits if isinstance(m, int)), default=None)
    out: list = []
    for f in FACES:
        total = f + sk.strength
        if (apt_one_fails and f == 1) or total < av:
            out.append((SIXTH, "none", None, False, 0))
        elif total == av and not sk.armourbane:
            if tg.glances_cost_hp:
                out.append((SIXTH, "glance", None, False, 1))
            else:
                for t in FACES:
                    out.append((SIXTH * SIXTH, "glance", DAMAGE_TABLE[t], False, 0))
        else:
            for ab in FACES if sk.armour_breaker is not None else [None]:
                pab = SIXTH if ab is not None else ONE
                plus = 1 if ab is not None and ab >= sk.armour_breaker else 0
                for sf in FACES if save is not None else [None]:
                    ps = SIXTH if sf is not None else ONE
                    if sf is not None and test_passes(sf, save):
                        out.append((SIXTH * pab * ps, "pen", None, False, 0))
                        continue
                    for mf in FACES if mit is not None else [None]:
                        pm = SIXTH if mf is not None else ONE
                        if mf is not None and test_passes(mf, mit):
                            out.append((SIXTH * pab * ps * pm, "pen", None, False, 0))
                            continue
                        for d, pd in dice_dist(sk.damage).items():
                            d = d * sk.damage_times * (2 if sk.melta else 1) + sk.damage_plus + critical + plus
                            out.append((SIXTH * pab * ps * pm * pd, "pen", None, True, d))
    return out


def resolve_vehicle(
    sk: Strike, n: int, tg: Unit, start: St, facing: str, apt_one_fails: bool, crits_wasted: bool
) -> dict[St, Fraction]:
    """One group of n attacks against a vehicle; a Critical Hit is wasted only with that option (section 9)."""
    out: dict[St, Fraction] = {}
    for (normal, crit, rend, mis, shock), p in hit_dice(sk, n).items():
        first = replace(
            start,
            hits=start.hits + normal + crit + rend,
            crits=start.crits + crit,
            misfires=start.misfires + mis,
            shock=start.shock or (shock and sk.shock is not None),
        )
        dist = {first: p}
        for critical in [False] * (normal + rend) + [True] * (0 if crits_wasted else crit):
            fates = hit_on_vehicle(sk, tg, facing, critical, apt_one_fails)
            nxt: dict = {}
            for st, q in dist.items():
                for r, kind, status, unsaved, hp in fates:
                    new = replace(
                        st,
                        glancing=st.glancing + (kind == "glance"),
                        penetrating=st.penetrating + (kind == "pen"),
                        pen_unsaved=st.pen_unsaved + unsaved,
                        hp=min(st.hp + hp, tg.HP),
                        table=st.table | {status} if status else st.table,
                    )
                    add(nxt, new, q * r)
            dist = nxt
        for st, q in dist.items():
            add(out, st, q)
    return out


# ---------------------------------------------------------------------------------------------- results
def pmf(dist: dict, key) -> list[Fraction]:
    m: dict[int, Fraction] = {}
    for st, p in dist.items():
        add(m, key(st), p)
    top = max((k for k, p in m.items() if p), default=0)
    return [m.get(k, Fraction(0)) for k in range(top + 1)]
