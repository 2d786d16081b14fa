"""Brute-force oracle for a whole round of melee: every die of every blow, enumerated.

Written straight from the rules (MECHANICS 2-5 and 9, and the readings in ``praetor_analysis/melee.py``),
sharing no code with the engine: the WS chart, the wound table, saves, allocation and the Initiative steps
are written out again here. One blow is a plain function that asks a ``roll()`` callback for each D6;
every sequence of dice it can ask for is walked depth first, so each leaf is one way the dice can fall.
The blows of one step are every ordered combination of such leaves (wounds pooled, Instant Death first,
then AP 2, then the rest, as the engine allocates them), applied to the victim's (kills, wounds left).
The round walks the Initiative steps over the joint state of both units. Compared with the fast path to
1e-12.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass, field, replace

import numpy as np
import pytest

from praetor_analysis.melee.combat import Party, Side, resolve_combat
from praetor_analysis.profiles.records import Weapon, unit_from_mapping


# --- one blow, die by die ----------------------------------------------------------------------
class _NeedDie(Exception):
    pass


def walk(fn) -> dict:
    """{result: probability} over every sequence of D6 that ``fn(roll)`` may ask for."""
    out: dict = defaultdict(float)

    def rec(prefix: list[int]) -> None:
        it = iter(prefix)

        def roll() -> int:
            try:
                return next(it)
            except StopIteration:
                raise _NeedDie from None

        try:
            res = fn(roll)
        except _NeedDie:
            for face in range(1, 7):
                rec([*prefix, face])
            return
        out[res] += (1 / 6) ** len(prefix)

    rec([])
    return dict(out)


@dataclass
class Fighter:
    """A uniform unit and its melee weapon, in plain numbers (independent of profiles.py)."""

    models: int
    WS: int
    S: int
    T: int
    W: int
    I: int
    A: int
    save: int | None = None
    inv: int | None = None
    fnp: int | None = None
    Ld: int = 7
    w_str: str = "User"  # "User", "x2", "+1" or a number
    ap: int | None = None
    rules: dict = field(default_factory=dict)  # weapon rules: Shred, Rending, Murderous, Brutal, Unwieldy...
    charging: bool = False
    two_weapons: bool = False
    disordered: bool = False
    bulky: int = 1
    unit_type: str = "Infantry"

    def strength(self) -> int:
        s = self.w_str
        if s == "User":
            return self.S
        if s.startswith("x"):
            return min(10, self.S * int(s[1:]))
        if s.startswith("+"):
            return min(10, self.S + int(s[1:]))
        return int(s)


def to_hit(ws_a: int, ws_d: int) -> int:
    if ws_a > 2 * ws_d:  # HH2's chart: more than twice the defender's WS hits on 2+
        return 2
    if ws_a > ws_d:
        return 3
    if ws_d > 2 * ws_a:
        return 5
    return 4


def to_wound(s: int, t: int) -> int:
    d = s - t
    return {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}.get(max(min(d, 2), -4), 7)


def blow_table(att: Fighter, dfn: Fighter) -> dict:
    """Outcomes of one blow: None (no wound) or (priority, damage) with damage 'ID' or unsaved count."""
    r = att.rules
    s = att.strength()
    tw = to_wound(s, dfn.T)
    rend, murd, brutal = r.get("Rending"), r.get("Murderous"), r.get("Brutal", 1)

    def wounds(face: int) -> bool:
        return face != 1 and (face >= tw or (rend is not None and face >= rend))

    def blow(roll):
        if not r.get("Grenade") and roll() < to_hit(att.WS, dfn.WS):  # a grenade's hit is automatic
            return None
        face = roll()
        if not wounds(face) and r.get("Shred"):
            face = roll()
        if not wounds(face):
            return None
        ap = att.ap
        if rend is not None and face >= rend:
            ap = 2 if ap is None else min(ap, 2)
        death = r.get("Instant Death", False) or s >= 2 * dfn.T or (murd is not None and face >= murd)
        prio = 0 if death else (1 if ap is not None and ap <= 2 else 2)
        saves = [
            x
            for x in (dfn.save if (dfn.save is not None and (ap is None or ap > dfn.save)) else None, dfn.inv)
            if x is not None
        ]
        unsaved = 0
        for _ in range(brutal):
            if saves and roll() >= min(saves):
                continue
            if dfn.fnp is not None and not death and roll() >= dfn.fnp:
                continue
            unsaved += 1
        return (prio, "ID" if death and unsaved else unsaved, unsaved)

    return walk(blow)


def allocate(kills: int, left: int, wounds: list, models: int, w: int) -> tuple[int, int]:
    for _, dmg, _ in sorted(wounds, key=lambda x: x[0]):  # stable: attack order inside a priority
        if kills >= models:
            break
        if dmg == "ID":
            kills, left = kills + 1, w
        elif dmg:
            if dmg >= left:
                kills, left = kills + 1, w
            else:
                left -= dmg
    return kills, left


def strike(table: dict, n_attacks: int, kills: int, left: int, victim: Fighter) -> dict:
    """{(kills, left, wounded, unsaved): p} after ``n_attacks`` blows; wounded = any wound (saved or not),
    unsaved = the unsaved wounds caused (each Brutal wound counted, overflow included)."""
    out: dict = defaultdict(float)
    items = list(table.items())
    for combo in itertools.product(items, repeat=n_attacks):
        p = float(np.prod([q for _, q in combo])) if combo else 1.0
        wounds = [o for o, _ in combo if o is not None]
        k, lft = allocate(kills, left, wounds, victim.models, victim.W)
        out[(k, lft, bool(wounds), sum(o[2] for o in wounds))] += p
    return out


def initiative(f: Fighter) -> int:
    i = f.I + f.rules.get("Reach", 0)
    if f.rules.get("Unwieldy") or f.rules.get("Grenade"):  # Krak Grenades: Initiative step 1
        i = 1
    return i


def per_model(f: Fighter) -> int:
    if f.rules.get("Grenade") or f.rules.get("Detonation"):  # one blow a model, whatever the charge or weapons
        return 1
    a = f.A + (1 if f.charging and not f.disordered else 0)
    if f.two_weapons and not f.rules.get("Two-handed"):
        a += 1
    return a


def brute_round(att: Fighter, dfn: Fighter) -> dict:
    """{(ka, la, kd, ld, fa, fd, ua, ud): p} at the end of the round (f = wounded by the other side's
    blows; ua / ud = unsaved wounds caused by the attacker / the defender)."""
    tables = (blow_table(att, dfn), blow_table(dfn, att))
    fighters = (att, dfn)
    ramp = []
    for me, foe in ((att, dfn), (dfn, att)):
        x = me.rules.get("Rampage")
        active = x is not None and foe.models * foe.bulky > me.models * me.bulky and not me.disordered
        ramp.append(dict.fromkeys((1, 2, 3), 1 / 3) if active and x == "D3" else {x if active else 0: 1.0})
    states = {(0, att.W, 0, dfn.W, False, False, 0, 0): 1.0}
    inits = (initiative(att), initiative(dfn))
    for step in sorted(set(inits), reverse=True):
        new: dict = defaultdict(float)
        for (ka, la, kd, ld, fa, fd, ua, ud), p in states.items():
            alive = (att.models - ka, dfn.models - kd)
            results = []
            for side in (0, 1):
                me, foe = fighters[side], fighters[1 - side]
                k, lft, flag = (kd, ld, fd) if side == 0 else (ka, la, fa)
                if inits[side] != step or alive[side] == 0:
                    results.append({(k, lft, flag, 0): 1.0})
                    continue
                per = per_model(me) + (me.rules.get("Reaping", 0) if alive[1 - side] >= 2 else 0)
                acc: dict = defaultdict(float)
                for r, pr in ramp[side].items():
                    for (k2, l2, hurt, u), q in strike(tables[side], alive[side] * (per + r), k, lft, foe).items():
                        acc[(k2, l2, flag or hurt, u)] += pr * q
                results.append(acc)
            for (kd2, ld2, fd2, u1), q1 in results[0].items():
                for (ka2, la2, fa2, u2), q2 in results[1].items():
                    new[(ka2, la2, kd2, ld2, fa2, fd2, ua + u1, ud + u2)] += p * q1 * q2
        states = new
    return states


def summarise(att: Fighter, dfn: Fighter) -> dict:
    states = brute_round(att, dfn)
    joint = np.zeros((att.models + 1, dfn.models + 1))
    wins = [0.0, 0.0, 0.0]
    conc = [0.0, 0.0]
    for (ka, la, kd, ld, fa, fd, ua, ud), p in states.items():
        joint[ka, kd] += p
        # SCENARIO.md: the winner caused more unsaved wounds in the round
        wins[0 if ua > ud else (1 if ud > ua else 2)] += p
        for idx, (flag, k, f, foe) in enumerate(((fa, ka, att, dfn), (fd, kd, dfn, att))):
            if flag and k < f.models and foe.rules.get("Concussive"):
                fail = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > f.Ld) / 36
                conc[idx] += p * fail
    return {"joint": joint, "wins": wins, "concussed": conc}


# --- the same fighters through the engine ---------------------------------------------------------
def to_side(f: Fighter) -> Side:
    r = f.rules
    toks = ["Melee"]
    if r.get("Shred"):
        toks.append("Shred")
    if "Rending" in r:
        toks.append(f"Rending ({r['Rending']}+)")
    if "Murderous" in r:
        toks.append(f"Murderous Strike ({r['Murderous']}+)")
    if "Brutal" in r:
        toks.append(f"Brutal ({r['Brutal']})")
    if r.get("Instant Death"):
        toks.append("Instant Death")
    if r.get("Unwieldy"):
        toks.append("Unwieldy")
    if "Reach" in r:
        toks.append(f"Reach ({r['Reach']})")
    if r.get("Two-handed"):
        toks.append("Two-handed")
    if "Rampage" in r:
        toks.append(f"Rampage ({r['Rampage']})")
    if "Reaping" in r:
        toks.append(f"Reaping Blow ({r['Reaping']})")
    if "Concussive" in r:
        toks.append(f"Concussive ({r['Concussive']})")
    if r.get("Grenade"):
        toks.append("Grenade Attack")
    if r.get("Detonation"):
        toks.append("Detonation")
    weapon = Weapon.from_mapping(
        {"name": "w", "Strength": f.w_str, "AP": f.ap if f.ap is not None else "-", "Type": ", ".join(toks)}
    )
    unit_rules = []
    if f.fnp is not None:
        unit_rules.append(f"Feel No Pain ({f.fnp}+)")
    if f.bulky > 1:
        unit_rules.append(f"Bulky ({f.bulky})")
    unit = unit_from_mapping(
        {
            "models": f.models,
            "Unit Type": f.unit_type,
            "WS": f.WS,
            "S": f.S,
            "T": f.T,
            "W": f.W,
            "I": f.I,
            "A": f.A,
            "Ld": f.Ld,
            "Save": f"{f.save}+" if f.save else "-",
            "Invulnerable": f"{f.inv}+" if f.inv else "-",
            "rules": unit_rules,
            "charging": f.charging,
            "two_weapons": f.two_weapons,
            "disordered": f.disordered,
        },
        field_name="unit",
    )
    return Side(unit, (weapon,))


def F(**kw) -> Fighter:
    base = {"models": 1, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "save": 3}
    base.update(kw)
    return Fighter(**base)


CASES = [
    ("1v1 same I, simultaneous", F(), F()),
    ("1v1 attacker first", F(I=5), F()),
    ("1v1 target first", F(I=3), F(I=5)),
    ("2v2 simultaneous", F(models=2), F(models=2)),
    (
        "2v2 charge, target power fist at I1",
        F(models=2, charging=True),
        F(models=2, W=2, save=2, inv=4, w_str="x2", ap=2, rules={"Unwieldy": True}),
    ),
    ("casualties remove attacks: killers strike first", F(models=2, WS=5, S=6, A=2, I=5, ap=3), F(models=2, A=2, I=2)),
    (
        "W2 brutal rending vs murderous",
        F(models=2, W=2, rules={"Brutal": 2, "Rending": 5}),
        F(models=2, W=2, I=3, rules={"Murderous": 6}),
    ),
    ("reach lets the slower side strike first", F(models=2, I=3, rules={"Reach": 2}), F(models=2, I=4, W=2)),
    (
        "shred, invulnerable, feel no pain",
        F(models=2, rules={"Shred": True}, save=4, fnp=5),
        F(models=1, W=2, save=2, inv=5, A=2, fnp=6),
    ),
    (
        "two weapons and two-handed",
        F(models=1, two_weapons=True, A=1),
        F(models=1, W=2, A=1, two_weapons=True, rules={"Two-handed": True}),
    ),
    ("instant death on W2 and wounds_left carry", F(models=1, A=2, w_str="x2", ap=2), F(models=2, W=2, A=1, I=5)),
    ("rampage D3 when outnumbered", F(models=1, A=1, W=2, rules={"Rampage": "D3"}), F(models=2, I=3)),
    (
        "rampage fixed, not outnumbered thanks to Bulky",
        F(models=1, A=1, W=2, bulky=3, rules={"Rampage": 2}),
        F(models=2, I=3),
    ),
    (
        "rampage lost on a disordered charge",
        F(models=1, A=1, charging=True, disordered=True, rules={"Rampage": 1}),
        F(models=2),
    ),
    ("reaping blow while two enemies stand", F(models=1, W=3, A=1, I=2, rules={"Reaping": 1}), F(models=2, I=4)),
    (
        "concussive, both sides",
        F(models=2, rules={"Concussive": 1}, Ld=8),
        F(models=2, W=2, rules={"Concussive": 2}, Ld=6, I=5),
    ),
    ("WS chart 5+ and 2+", F(models=2, WS=2), F(models=2, WS=5, S=3)),
    (  # Krak Grenades (game system file, Wargear Item): one automatic S6 AP3 hit a model at Initiative 1
        "krak grenades at step 1 against a Dreadnought that strikes first",
        F(models=3, A=2, charging=True, w_str="6", ap=3, rules={"Grenade": True}),
        F(models=1, unit_type="Dreadnought", T=6, W=2, A=2, save=2, w_str="x2", ap=2),
    ),
    (  # Detonation (rules reference p. 118): a single attack whatever the Attacks and the charge
        "meltabombs: one blow a model at step 1 (Unwieldy) against a Dreadnought",
        F(
            models=2,
            A=3,
            charging=True,
            two_weapons=True,
            w_str="8",
            ap=1,
            rules={"Detonation": True, "Unwieldy": True, "Instant Death": True},
        ),
        F(models=1, unit_type="Dreadnought", T=7, W=2, A=1, save=2, inv=5),
    ),
    (
        "krak grenades at step 1 and a Dreadnought of Initiative 1: simultaneous",
        F(models=2, w_str="6", ap=3, rules={"Grenade": True}),
        F(models=1, unit_type="Dreadnought", T=6, W=2, I=1, A=2, save=3, w_str="x2", ap=2),
    ),
    ("WS chart 3+ and 4+", F(models=2, WS=5), F(models=2, WS=3, S=3)),
]


@pytest.mark.parametrize("name,att,dfn", CASES, ids=[c[0] for c in CASES])
def test_round_matches_bruteforce(name: str, att: Fighter, dfn: Fighter) -> None:
    want = summarise(att, dfn)
    got = resolve_combat(to_side(att), to_side(dfn))
    np.testing.assert_allclose(got.joint, want["joint"], atol=1e-12, rtol=0)
    np.testing.assert_allclose([got.attacker_wins, got.target_wins, got.draw], want["wins"], atol=1e-12, rtol=0)
    np.testing.assert_allclose([got.attacker_concussed, got.target_concussed], want["concussed"], atol=1e-12, rtol=0)
    assert abs(got.joint.sum() - 1.0) < 1e-12


def test_bruteforce_walk_counts_every_die() -> None:
    """The enumerator itself: one blow at WS4 vs WS4, S4 vs T4, 3+ save: P(unsaved) = 1/2 * 1/2 * 1/3."""
    t = blow_table(F(), F())
    assert abs(t[(2, 1, 1)] - 1 / 12) < 1e-15
    assert abs(sum(t.values()) - 1.0) < 1e-15


# --- mixed units: several groups per side, each at its own Initiative step ----------------------------
def _value(f: Fighter, foe_body: Fighter) -> float:
    """Expected unsaved wounds of one model's blows (the removal order's measure, as the reading says)."""
    per_blow = sum(q * o[2] for o, q in blow_table(f, foe_body).items() if o is not None)
    return per_blow * per_model(f)


def _order(groups: list[Fighter], foe_groups: list[Fighter], foe_body: Fighter) -> list[int]:
    """Casualties leave first the groups striking at or above every enemy step, then the weakest ones."""
    top = max(initiative(f) for f in foe_groups)
    return sorted(
        range(len(groups)),
        key=lambda g: (
            initiative(groups[g]) < top,
            _value(groups[g], foe_body) if initiative(groups[g]) < top else 0,
            g,
        ),
    )


def _alive(groups: list[Fighter], order: list[int], kills: int) -> list[int]:
    out = [f.models for f in groups]
    for g in order:
        gone = min(kills, out[g])
        out[g] -= gone
        kills -= gone
    return out


def brute_mixed(att: list[Fighter], a_body: Fighter, dfn: list[Fighter], d_body: Fighter) -> dict:
    """The round of two mixed units, written out: each group strikes at its own step with its models alive
    (casualties in the order of ``_order``); a side's groups at one step strike one after the other, with the
    enemy's models at the start of the step for Reaping Blow; the enemy's blows hit the body's statline."""
    sides = (att, dfn)
    bodies = (a_body, d_body)
    orders = (_order(att, dfn, d_body), _order(dfn, att, a_body))
    tables = [[blow_table(f, bodies[1 - s]) for f in sides[s]] for s in (0, 1)]
    ramps = []
    for s in (0, 1):
        me_total, foe = bodies[s].models, bodies[1 - s]
        row = []
        for f in sides[s]:
            x = f.rules.get("Rampage")
            active = x is not None and foe.models * foe.bulky > me_total * f.bulky and not f.disordered
            row.append(dict.fromkeys((1, 2, 3), 1 / 3) if active and x == "D3" else {x if active else 0: 1.0})
        ramps.append(row)
    states = {(0, a_body.W, 0, d_body.W, False, False, 0, 0): 1.0}
    steps = sorted({initiative(f) for side in sides for f in side}, reverse=True)
    for step in steps:
        new: dict = defaultdict(float)
        for (ka, la, kd, ld, fa, fd, ua, ud), p in states.items():
            kills, lefts, flags = (ka, kd), (la, ld), (fa, fd)
            alive = (_alive(att, orders[0], ka), _alive(dfn, orders[1], kd))
            left_models = (a_body.models - ka, d_body.models - kd)
            results = []
            for s in (0, 1):
                foe_body = bodies[1 - s]
                acc: dict = {(kills[1 - s], lefts[1 - s], flags[1 - s], 0): 1.0}
                for g, f in enumerate(sides[s]):
                    if initiative(f) != step or alive[s][g] == 0:
                        continue
                    per = per_model(f) + (f.rules.get("Reaping", 0) if left_models[1 - s] >= 2 else 0)
                    nxt: dict = defaultdict(float)
                    for (k, lft, flag, u), q0 in acc.items():
                        for r, pr in ramps[s][g].items():
                            n = alive[s][g] * (per + r)
                            for (k2, l2, hurt, u2), q in strike(tables[s][g], n, k, lft, foe_body).items():
                                conc = bool(hurt and f.rules.get("Concussive"))
                                nxt[(k2, l2, flag or conc, u + u2)] += q0 * pr * q
                    acc = nxt
                results.append(acc)
            for (kd2, ld2, fd2, u1), q1 in results[0].items():
                for (ka2, la2, fa2, u2), q2 in results[1].items():
                    new[(ka2, la2, kd2, ld2, fa2, fd2, ua + u1, ud + u2)] += p * q1 * q2
        states = new
    joint = np.zeros((a_body.models + 1, d_body.models + 1))
    wins = [0.0, 0.0, 0.0]
    conc = [0.0, 0.0]
    for (ka, _, kd, _, fa, fd, ua, ud), p in states.items():
        joint[ka, kd] += p
        wins[0 if ua > ud else (1 if ud > ua else 2)] += p
        for idx, (flag, k, body) in enumerate(((fa, ka, a_body), (fd, kd, d_body))):
            if flag and k < body.models:
                fail = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > body.Ld) / 36
                conc[idx] += p * fail
    return {"joint": joint, "wins": wins, "concussed": conc}


def to_party(groups: list[Fighter], body: Fighter) -> Party | Side:
    sides = tuple(to_side(f) for f in groups)
    if len(sides) == 1:
        return sides[0]
    return Party(sides, to_side(replace(body, models=sum(f.models for f in groups))).unit)


MIXED = [
    (
        "sergeant with a sword at I4, two fists at I1, the enemy at I4 between them",
        [F(models=2, w_str="x2", ap=2, rules={"Unwieldy": True}), F(models=1, A=2, ap=3, WS=5, Ld=9)],
        [F(models=3, I=4)],
    ),
    (
        "three steps, the enemy striking in the middle, W2 body",
        [F(models=1, I=5, A=1), F(models=1, I=1, A=1, w_str="x2", ap=2), F(models=1, I=2, A=2, rules={"Shred": True})],
        [F(models=2, W=2, I=3, A=1, rules={"Rending": 6})],
    ),
    (
        "both sides mixed, Reaping Blow and Concussive in one group each",
        [F(models=1, I=5, W=2, rules={"Reaping": 1}), F(models=1, I=2, A=1, rules={"Concussive": 1})],
        [F(models=1, I=4, A=1, Ld=8), F(models=2, I=1, A=1, w_str="+1", rules={"Concussive": 2})],
    ),
    (
        "Rampage on one group counts the whole unit",
        [F(models=1, A=1, W=2, rules={"Rampage": "D3"}), F(models=1, I=3, A=1)],
        [F(models=3, I=4)],
    ),
    (
        "defender: a WS5 I5 A2 sergeant with an AP3 sword beside two legionaries, a uniform attacker",
        [F(models=2, I=4, A=1, charging=True)],
        [F(models=2, I=4, A=1), F(models=1, WS=5, I=5, A=2, ap=3)],
    ),
    (
        "defender W2: Rending at I3, an Instant Death fist at I1 (Unwieldy), the attacker at I4 between them",
        [F(models=2, I=4, A=1, S=5, ap=3)],
        [
            F(models=1, W=2, I=3, A=1, rules={"Rending": 5}),
            F(models=1, W=2, I=1, A=1, w_str="x2", ap=2, rules={"Unwieldy": True}),
        ],
    ),
    (
        "defender at three steps against a mixed attacker: WS3, Instant Death, +2 Strength",
        [F(models=1, I=5, A=1, W=2, save=4), F(models=1, I=2, A=1, ap=2)],
        [
            F(models=1, I=4, A=1, WS=3, save=4),
            F(models=1, I=3, A=1, WS=5, rules={"Instant Death": True}),
            F(models=1, I=1, A=2, w_str="+2", ap=4),
        ],
    ),
    (
        "a group wiped out before its step does not strike",
        [F(models=1, I=1, A=2, w_str="x2", ap=1), F(models=1, I=1, A=1, S=6, ap=4)],
        [F(models=2, I=5, A=2, S=5, ap=2, WS=5)],
    ),
]


@pytest.mark.parametrize("name,att,dfn", MIXED, ids=[c[0] for c in MIXED])
def test_mixed_round_matches_bruteforce(name: str, att: list[Fighter], dfn: list[Fighter]) -> None:
    a_body = replace(att[0], models=sum(f.models for f in att))
    d_body = replace(dfn[0], models=sum(f.models for f in dfn))
    want = brute_mixed(att, a_body, dfn, d_body)
    got = resolve_combat(to_party(att, att[0]), to_party(dfn, dfn[0]))
    np.testing.assert_allclose(got.joint, want["joint"], atol=1e-12, rtol=0)
    np.testing.assert_allclose([got.attacker_wins, got.target_wins, got.draw], want["wins"], atol=1e-12, rtol=0)
    np.testing.assert_allclose([got.attacker_concussed, got.target_concussed], want["concussed"], atol=1e-12, rtol=0)
    assert abs(got.joint.sum() - 1.0) < 1e-12


def test_a_mixed_defender_hand_worked() -> None:
    # one attacker (WS4 S4 T4 W1 I3 A1, no save) against a Sergeant at I5 and a Legionary at I1 (WS4 S4 A1,
    # T4 W1, no save): every blow hits on 4+ and wounds on 4+, so kills with 1/4.
    #   step 5: the Sergeant kills the attacker with 1/4;
    #   step 3: the attacker, alive with 3/4, kills one defender with 1/4: the Sergeant, his blows being in
    #           (the removal order: a group striking at or above every enemy step goes first);
    #   step 1: the Legionary, always alive, kills the attacker (if alive) with 1/4.
    # joint[att lost, def lost]: [1, 0] = 1/4 + 3/4 x 3/4 x 1/4 = 25/64, [1, 1] = 3/4 x 1/4 x 1/4 = 3/64,
    # [0, 1] = 3/4 x 1/4 x 3/4 = 9/64, [0, 0] = 3/4 x 3/4 x 3/4 = 27/64 (two defenders never fall: 0); the
    # attacker wins 9/64, the target
    # 25/64, a draw 30/64
    att = F(models=1, I=3, save=None)
    dfn = [F(models=1, I=5, save=None), F(models=1, I=1, save=None)]
    got = resolve_combat(to_party([att], att), to_party(dfn, dfn[0]))
    np.testing.assert_allclose(got.joint, [[27 / 64, 9 / 64, 0.0], [25 / 64, 3 / 64, 0.0]], atol=1e-15, rtol=0)
    np.testing.assert_allclose([got.attacker_wins, got.target_wins, got.draw], [9 / 64, 25 / 64, 30 / 64], atol=1e-15)
    assert got.groups is not None and [g.initiative for g in got.groups[1]] == [5, 1]
