"""HH3 melee (MECHANICS-HH3 sections 10 and 13): a whole round against a die-by-die enumeration of every blow,
Combat Initiative and attacks, and the combat's resolution by hand."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import pytest

from praetor_analysis.melee.hh3 import RoundSide, attacks_at_step, combat_initiative, combat_round_hh3, majority


def check_pass(t: int) -> float:
    """The 3rd edition's 2D6 Check, counted die by die: total <= t, double 1 passes, double 6 fails; t <= 0 fails."""
    if t <= 0:
        return 0.0
    ok = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        ok += (a + b <= t or (a == b == 1)) and not (a == b == 6)
    return ok / 36


@dataclass(frozen=True)
class Blows:
    """One side's blows, as the oracle rolls them: every die of one attack."""

    hit: int  # target number on the WS chart
    wound: int | None  # None: cannot wound
    save: int | None
    damage: tuple[int, ...]  # equally likely Damage values (1 fixed: (1,); D3: (1, 2, 3))
    critical: int | None = None  # Critical Hit (X): auto-wound, +1 Damage, resolved after the plain wounds
    fnp: int | None = None


def _attack(b: Blows) -> dict[tuple[int, int], float]:
    """Every die of one attack: hit, wound (unless Critical), save, mitigation, Damage -> (group, damage)."""
    out: dict[tuple[int, int], float] = defaultdict(float)
    for h in range(1, 7):
        if h == 1 or h < b.hit:
            out[(0, 0)] += 1 / 6
            continue
        crit = b.critical is not None and h >= b.critical
        for w in range(1, 7):
            if not crit and (b.wound is None or w == 1 or w < b.wound):
                out[(0, 0)] += 1 / 36
                continue
            for s in range(1, 7):
                saved = b.save is not None and s != 1 and s >= b.save
                for f in range(1, 7):
                    mitigated = b.fnp is not None and f != 1 and f >= b.fnp
                    for d in b.damage:
                        p = 1 / 36 / 36 / len(b.damage)
                        if saved or mitigated:
                            out[(0, 0)] += p
                        else:
                            out[(int(crit), d + crit)] += p
    return dict(out)


def _apply(state: tuple[int, int], wounds: list[tuple[int, int]], w: int) -> tuple[int, int]:
    """Unsaved wounds one at a time, plain ones first then Critical ones; excess on a dying model is lost."""
    m, c = state
    for _, d in sorted(wounds):
        if m == 0 or d == 0:
            continue
        if d >= c:
            m, c = m - 1, w
        else:
            c -= d
    return m, c


def _oracle_strike(b: Blows, n: int, state: tuple[int, int], w: int) -> dict[tuple[int, int], float]:
    one = list(_attack(b).items())
    out: dict[tuple[int, int], float] = defaultdict(float)
    for combo in itertools.product(one, repeat=n):
        p = 1.0
        for _, q in combo:
            p *= q
        out[_apply(state, [k for k, _ in combo], w)] += p
    return dict(out)


@dataclass(frozen=True)
class Fighter:
    models: int
    w: int
    initiative: int
    attacks: int
    blows: Blows
    ld: int = 7
    reaping: int = 0
    weight: int = 1
    bulky: int = 1  # what one model counts for outnumbering


def _oracle_round(a: Fighter, t: Fighter) -> dict:
    """The round rolled out die by die: both sides' strikes at each step from the states before it."""
    joint = {((a.models, a.w), (t.models, t.w)): 1.0}
    for step in sorted({a.initiative, t.initiative}, reverse=True):
        nxt: dict = defaultdict(float)
        for (sa, st), p in joint.items():
            alive = sa[0] > 0 and st[0] > 0
            a_out, t_out = sa[0] * a.bulky < st[0] * t.bulky, st[0] * t.bulky < sa[0] * a.bulky
            na = sa[0] * (a.attacks + (a.reaping if a_out else 0)) if alive and a.initiative == step else 0
            nt = st[0] * (t.attacks + (t.reaping if t_out else 0)) if alive and t.initiative == step else 0
            on_t = _oracle_strike(a.blows, na, st, t.w)
            on_a = _oracle_strike(t.blows, nt, sa, a.w)
            for sa2, pa in on_a.items():
                for st2, pt in on_t.items():
                    nxt[(sa2, st2)] += p * pa * pt
        joint = dict(nxt)
    combat = defaultdict(float)
    routed = defaultdict(float)
    for ((ma, _), (mt, _)), p in joint.items():
        pa = (t.models - mt) + (ma * a.weight > mt * t.weight)
        pt = (a.models - ma) + (mt * t.weight > ma * a.weight)
        if ma == 0 or mt == 0:
            win = "draw" if ma == mt else ("attacker" if ma else "target")
        else:
            win = "draw" if pa == pt else ("attacker" if pa > pt else "target")
        combat[win] += p
        if win == "attacker" and mt:
            routed["target"] += p * (1 - check_pass(t.ld - (pa - pt)))
        if win == "target" and ma:
            routed["attacker"] += p * (1 - check_pass(a.ld - (pt - pa)))
    return {"joint": joint, "combat": combat, "routed": routed}


def _side(f: Fighter) -> RoundSide:
    def strike(n: int, enemy: object) -> dict:
        return _oracle_strike(f.blows, n, enemy, ENEMY_W[id(f)])  # type: ignore[arg-type]

    return RoundSide(
        start={(f.models, f.w): 1.0},
        models=lambda s: s[0],  # type: ignore[index]
        initiative=f.initiative,
        attacks=attacks_at_step(f.attacks, None, reaping_blow=f.reaping, counts=(f.bulky, ENEMY_BULKY.get(id(f), 1))),
        strike=strike,
        leadership=f.ld,
        weight=f.weight,
    )


ENEMY_W: dict[int, int] = {}
ENEMY_BULKY: dict[int, int] = {}


def _run(a: Fighter, t: Fighter):  # type: ignore[no-untyped-def]
    ENEMY_W[id(a)], ENEMY_W[id(t)] = t.w, a.w
    return combat_round_hh3(_side(a), _side(t), check_pass)


def _random_fighter(rng: random.Random) -> Fighter:
    return Fighter(
        models=rng.randint(1, 2),
        w=rng.randint(1, 2),
        initiative=rng.randint(1, 4),
        attacks=rng.randint(1, 2),
        blows=Blows(
            hit=rng.randint(2, 6),
            wound=rng.choice([None, 2, 4, 6]),
            save=rng.choice([None, 3, 5]),
            damage=rng.choice([(1,), (2,), (1, 2, 3)]),
            critical=rng.choice([None, None, 6, 5]),
            fnp=rng.choice([None, None, 5]),
        ),
        ld=rng.randint(5, 10),
        reaping=rng.choice([0, 0, 1]),
        weight=rng.choice([1, 1, 2]),
    )


@pytest.mark.parametrize("seed", range(40))
def test_round_matches_the_die_by_die_oracle(seed: int) -> None:
    rng = random.Random(seed)
    a, t = _random_fighter(rng), _random_fighter(rng)
    got = _run(a, t)
    want = _oracle_round(a, t)
    for key in set(want["joint"]) | set(got.final):
        assert got.final.get(key, 0.0) == pytest.approx(want["joint"].get(key, 0.0), abs=1e-12)
    assert got.combat["attacker_wins"] == pytest.approx(want["combat"]["attacker"], abs=1e-12)
    assert got.combat["target_wins"] == pytest.approx(want["combat"]["target"], abs=1e-12)
    assert got.combat["draw"] == pytest.approx(want["combat"]["draw"], abs=1e-12)
    for side in ("attacker", "target"):
        assert got.routed[side] == pytest.approx(want["routed"][side], abs=1e-12)
    assert sum(got.combat.values()) == pytest.approx(1.0, abs=1e-12)


def test_simultaneous_step_and_order_by_hand() -> None:
    # One model each, W1, one attack that always kills (hit 2+ is 5/6, wound 2+ 5/6, no save: 25/36).
    # Same Initiative: both strike; P(both die) = (25/36)^2. Attacker first (I 5 vs 4): the target strikes
    # only if it survived: P(attacker dies) = (11/36) * (25/36).
    kill = Blows(hit=2, wound=2, save=None, damage=(1,))
    p = 25 / 36
    same = _run(Fighter(1, 1, 4, 1, kill), Fighter(1, 1, 4, 1, kill))
    assert same.final[((0, 1), (0, 1))] == pytest.approx(p * p, abs=1e-12)
    assert same.combat["draw"] == pytest.approx(p * p + (1 - p) ** 2, abs=1e-12)
    first = _run(Fighter(1, 1, 5, 1, kill), Fighter(1, 1, 4, 1, kill))
    assert first.attacker_casualties.pmf(1) == pytest.approx((1 - p) * p, abs=1e-12)
    assert first.casualties.pmf(1) == pytest.approx(p, abs=1e-12)


def test_resolution_points_and_the_check_by_hand() -> None:
    # A strike that removes exactly 2 of the target's 3 models; the target strikes with no attacks.
    # Points: attacker 2 kills + 1 (3 models against 1) = 3; target 0: the difference 3, LD 8 -> Check at 5:
    # 2D6 <= 5 in 10 of 36 ways, so P(Routed) = 26/36.
    def strike(n: int, enemy: object) -> dict:
        m, c = enemy  # type: ignore[misc]
        return {(max(m - 2, 0), c): 1.0}

    attacker = RoundSide({(3, 1): 1.0}, lambda s: s[0], 5, lambda own, en: 1, strike, 8)  # type: ignore[index]
    target = RoundSide({(3, 1): 1.0}, lambda s: s[0], 4, lambda own, en: 0, strike, 8)  # type: ignore[index]
    r = combat_round_hh3(attacker, target, check_pass)
    assert r.combat["attacker_wins"] == 1.0
    assert r.attacker_points.pmf(3) == 1.0
    assert r.routed["target"] == pytest.approx(float(Fraction(26, 36)), abs=1e-15)
    assert check_pass(5) == pytest.approx(10 / 36, abs=1e-15)


def test_combat_initiative_and_attacks() -> None:
    class Mod:
        def __init__(self, f):  # type: ignore[no-untyped-def]
            self.f = f

        def apply(self, value: int) -> int:
            return self.f(value)

    assert combat_initiative(4, None) == 4
    assert combat_initiative(4, Mod(lambda v: max(v - 3, 0))) == 1  # a power fist's IM -3
    assert combat_initiative(4, Mod(lambda v: 1)) == 1  # a bare 1 sets it
    assert combat_initiative(4, Mod(lambda v: v + 1), impact=True) == 6
    assert combat_initiative(5, None, status=True) == 1  # any Tactical Status
    attacks = attacks_at_step(2, Mod(lambda v: v + 1), impact=True, reaping_blow=2)
    assert attacks(3, 5) == 6 and attacks(5, 5) == 4
    bulky = attacks_at_step(2, None, reaping_blow=1, counts=(2, 1))  # our models count 2 each (Bulky (2))
    assert bulky(3, 5) == 2 and bulky(2, 5) == 3
    assert majority([4, 4, 5, 5, 3]) == 5 and majority([4, 4, 4, 5]) == 4


# --------------------------------------------------------------------------- through the door and the chain
WS_CHART = {(4, 4): 4, (4, 3): 3, (3, 4): 5, (5, 4): 3, (4, 5): 5, (3, 3): 4}  # MECHANICS-HH3 section 10's table


def _wound_target(s: int, t: int) -> int | None:
    d = s - t
    return 2 if d >= 2 else (4 - d if d >= -1 else (6 if d >= -3 else None))


def _door_case(rng: random.Random) -> tuple[dict, Fighter, Fighter]:
    """A random small round as a scenario, and the same two sides as the oracle rolls them."""
    sides = []
    for _ in range(2):
        sides.append(
            {
                "models": rng.randint(1, 2), "W": rng.randint(1, 2), "WS": rng.choice([3, 4, 5]), "S": rng.randint(3, 5),
                "T": rng.randint(3, 5), "I": rng.randint(1, 5), "A": rng.randint(1, 2), "LD": rng.randint(5, 9),
                "SAV": rng.choice(["3+", "5+", "-"]), "D": rng.choice([1, 2]), "crit": rng.choice([None, 6]),
                "reaping": rng.choice([None, None, 1]), "fnp": rng.choice([None, 5]), "bulky": rng.choice([1, 1, 2]),
            }
        )  # fmt: skip
    a, t = sides
    for x in (a, t):
        x["WS"] = 4 if (a["WS"], t["WS"]) not in WS_CHART or (t["WS"], a["WS"]) not in WS_CHART else x["WS"]

    def unit(x: dict) -> dict:
        rules = ", ".join(
            r for r in (x["fnp"] and f"Feel No Pain ({x['fnp']}+)", x["bulky"] > 1 and f"Bulky ({x['bulky']})") if r
        )
        return {"models": x["models"], "W": x["W"], "WS": x["WS"], "S": x["S"], "T": x["T"], "I": x["I"], "A": x["A"],
                "LD": x["LD"], "CL": 7, "SAV": x["SAV"], "rules": rules}  # fmt: skip

    def weapon(x: dict) -> dict:
        rules = ", ".join(
            r for r in (x["crit"] and f"Critical Hit ({x['crit']}+)", x["reaping"] and "Reaping Blow (1)") if r
        )
        return {"name": "blade", "IM": "I", "AM": "A", "SM": "S", "AP": None, "D": x["D"], "Special Rules": rules}

    def fighter(x: dict, enemy: dict) -> Fighter:
        save = None if enemy["SAV"] == "-" else int(enemy["SAV"][0])
        blows = Blows(
            hit=WS_CHART[(x["WS"], enemy["WS"])],
            wound=_wound_target(x["S"], enemy["T"]),
            save=save,
            damage=(x["D"],),
            critical=x["crit"],
            fnp=enemy["fnp"],
        )
        return Fighter(
            x["models"], x["W"], x["I"], x["A"], blows, ld=x["LD"], reaping=x["reaping"] or 0, bulky=x["bulky"]
        )

    doc = {"edition": "hh3", "mode": "melee", "attacker": unit(a), "weapon": weapon(a), "target": unit(t),
           "target_weapon": weapon(t)}  # fmt: skip
    return doc, fighter(a, t), fighter(t, a)


@pytest.mark.parametrize("seed", range(25))
def test_door_round_matches_the_die_by_die_oracle(seed: int) -> None:
    from praetor_analysis.scenario.calc import calc

    doc, a, t = _door_case(random.Random(1000 + seed))
    got = calc(doc)
    ENEMY_W[id(a)], ENEMY_W[id(t)] = t.w, a.w
    want = _oracle_round(a, t)
    cas: dict[int, float] = defaultdict(float)
    a_cas: dict[int, float] = defaultdict(float)
    for ((ma, _), (mt, _)), p in want["joint"].items():
        cas[t.models - mt] += p
        a_cas[a.models - ma] += p
    for key, dist in (("casualties", cas), ("attacker_casualties", a_cas)):
        pmf = got[key]["pmf"]
        for k in set(range(len(pmf))) | set(dist):
            assert (pmf[k] if k < len(pmf) else 0.0) == pytest.approx(dist.get(k, 0.0), abs=1e-12), key
    for side, key in (("attacker", "attacker_wins"), ("target", "target_wins"), ("draw", "draw")):
        assert got["combat"][key] == pytest.approx(want["combat"][side], abs=1e-12)
    for side in ("attacker", "target"):
        assert got["routed"][side] == pytest.approx(want["routed"][side], abs=1e-12)


# --------------------------------------------------------------------------- sides of several Strike Groups
@dataclass(frozen=True)
class Group:
    models: int
    initiative: int
    attacks: int
    blows: Blows
    reaping: int = 0


@dataclass(frozen=True)
class Party:
    """A side of several Strike Groups and ``idle`` models that strike in none; casualties leave the idle
    models first, then the groups in ``order``."""

    w: int
    groups: tuple[Group, ...]
    order: tuple[int, ...]
    idle: int = 0
    ld: int = 7

    @property
    def models(self) -> int:
        return self.idle + sum(g.models for g in self.groups)

    def alive(self, m: int) -> list[int]:
        """Models alive in each group, counted one casualty at a time (idle first, then in order)."""
        left = [g.models for g in self.groups]
        idle = self.idle
        for _ in range(self.models - m):
            if idle:
                idle -= 1
                continue
            g = next(i for i in self.order if left[i])
            left[g] -= 1
        return left


def _oracle_party_round(a: Party, t: Party) -> dict:
    """The round of two parties die by die: at each step every group of that Initiative strikes with its models
    alive before the step, a side's groups one after the other on the enemy's state."""
    joint = {((a.models, a.w), (t.models, t.w)): 1.0}
    steps = sorted({g.initiative for g in (*a.groups, *t.groups)}, reverse=True)
    for step in steps:
        nxt: dict = defaultdict(float)
        for (sa, st), p in joint.items():
            outs = []
            for me, foe, mine, theirs in ((a, t, sa, st), (t, a, st, sa)):
                dist = {theirs: 1.0}
                alive = me.alive(mine[0])
                out_n = mine[0] < theirs[0]
                for g, n_alive in zip(me.groups, alive, strict=True):
                    if g.initiative != step or mine[0] == 0 or theirs[0] == 0:
                        continue
                    n = n_alive * (g.attacks + (g.reaping if out_n else 0))
                    new: dict = defaultdict(float)
                    for s, q in dist.items():
                        for s2, r in _oracle_strike(g.blows, n, s, foe.w).items():
                            new[s2] += q * r
                    dist = dict(new)
                outs.append(dist)
            on_t, on_a = outs
            for sa2, pa in on_a.items():
                for st2, pt in on_t.items():
                    nxt[(sa2, st2)] += p * pa * pt
        joint = dict(nxt)
    return joint


def _group_side(me: Party, foe: Party) -> object:
    from praetor_analysis.melee.hh3 import GroupSide, Striker3

    def striker(g: Group) -> Striker3:
        def strike(n: int, enemy: object) -> dict:
            return _oracle_strike(g.blows, n, enemy, foe.w)  # type: ignore[arg-type]

        return Striker3(g.models, g.initiative, attacks_at_step(g.attacks, None, reaping_blow=g.reaping), strike)

    return GroupSide(
        {(me.models, me.w): 1.0},
        lambda s: s[0],
        tuple(striker(g) for g in me.groups),
        me.order,
        me.ld,  # type: ignore[index]
    )


def _random_party(rng: random.Random) -> Party:
    groups = []
    for _ in range(rng.randint(1, 2)):
        blows = Blows(
            hit=rng.randint(2, 5),
            wound=rng.choice([2, 4, 6]),
            save=rng.choice([None, 4]),
            damage=rng.choice([(1,), (2,)]),
            critical=rng.choice([None, 6]),
        )
        groups.append(Group(rng.randint(1, 2), rng.randint(1, 4), 1, blows, rng.choice([0, 0, 1])))
    order = tuple(rng.sample(range(len(groups)), len(groups)))
    return Party(rng.randint(1, 2), tuple(groups), order, idle=rng.choice([0, 0, 1]), ld=rng.randint(5, 9))


@pytest.mark.parametrize("seed", range(30))
def test_a_round_of_strike_groups_matches_the_die_by_die_oracle(seed: int) -> None:
    """Sides of one or two Strike Groups at their own Initiative (and models that strike in none), casualties
    leaving the groups in order: the chain's final joint state equals the enumeration of every die (1e-12)."""
    from praetor_analysis.melee.hh3 import combat_round_groups

    rng = random.Random(500 + seed)
    a, t = _random_party(rng), _random_party(rng)
    got = combat_round_groups(_group_side(a, t), _group_side(t, a), check_pass)  # type: ignore[arg-type]
    want = _oracle_party_round(a, t)
    for key in set(want) | set(got.final):
        assert got.final.get(key, 0.0) == pytest.approx(want.get(key, 0.0), abs=1e-12), key
    assert sum(got.final.values()) == pytest.approx(1.0, abs=1e-12)
    for made, party in ((got.attacker_groups, a), (got.target_groups, t)):
        assert len(made) == len(party.groups) and all(d.probabilities.sum() == pytest.approx(1.0) for d in made)


def test_the_order_casualties_leave_the_groups_decides_who_strikes() -> None:
    """Two target groups, one striking before the attacker (I 5), one after (I 1); the attacker's blow always
    kills one model (I 3). Removed from the late group first, the late group (1 model) never strikes; removed
    from the early group first, it does: by hand, the attacker's losses differ exactly so."""
    from praetor_analysis.melee.hh3 import GroupSide, Striker3, combat_round_groups

    def kill_one(n: int, enemy: object) -> dict:
        m, c = enemy  # type: ignore[misc]
        return {(max(m - min(n, 1), 0), c): 1.0}

    def strike_attacker(n: int, enemy: object) -> dict:  # each blow removes a model with probability 1/2
        m, c = enemy  # type: ignore[misc]
        out: dict = defaultdict(float)
        for k in range(n + 1):
            out[(max(m - k, 0), c)] += float(Fraction(1, 2**n) * _binom(n, k))
        return dict(out)

    attacker = GroupSide({(3, 1): 1.0}, lambda s: s[0], (Striker3(3, 3, lambda o, e: 1, kill_one),), (0,), 8)  # type: ignore[index]
    early, late = Striker3(1, 5, lambda o, e: 1, strike_attacker), Striker3(1, 1, lambda o, e: 1, strike_attacker)
    for order, late_strikes in (((1, 0), False), ((0, 1), True)):
        target = GroupSide({(2, 1): 1.0}, lambda s: s[0], (early, late), order, 8)  # type: ignore[index]
        r = combat_round_groups(attacker, target, check_pass)
        # the early blow: the attacker loses 0 or 1 (1/2 each); then one target model dies; the late one strikes
        # with its model only when the early one was removed instead
        lost = r.attacker_casualties.mean()
        assert lost == pytest.approx(0.5 + (0.5 if late_strikes else 0.0), abs=1e-12)
        assert r.target_groups[1].mean() == pytest.approx(1.0 if late_strikes else 0.0, abs=1e-12)


def _binom(n: int, k: int) -> int:
    from math import comb

    return comb(n, k)
