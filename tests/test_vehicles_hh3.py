"""HH3 vehicles (MECHANICS-HH3 section 9): the chain against a die-by-die enumeration, and pinned hand values."""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest

from praetor_analysis.errors import PraetorError
from praetor_analysis.prob.dice import DiceExpr, parse_dice
from praetor_analysis.prob.dist import Dist
from praetor_analysis.vehicles.hh3 import (
    Armour,
    DieOutcomes,
    HH3Vehicle,
    PenetratingAttack,
    VehicleShot,
    resolve_vehicle_hh3,
    resolve_vehicle_sequence_hh3,
)

TABLE = {1: "Stunned", 2: "Stunned", 3: "Pinned", 4: "Pinned", 5: "Suppressed", 6: "Suppressed"}


# --------------------------------------------------------------------------- the oracle
def _faces(damage: Dist) -> list[tuple[float, int]]:
    """Every roll of a Damage expression as (probability, value), die by die (the expression read back from its
    distribution: a point is a fixed Damage, D3 three equally likely faces)."""
    if damage.max == 0 or damage.pmf(damage.max) == 1.0:
        return [(1.0, damage.max)]
    assert damage.isclose(DiceExpr(1, 3, 0).dist)
    return [(1 / 6, (face + 1) // 2) for face in range(1, 7)]


def _one_die(die: DieOutcomes, v: HH3Vehicle, a: PenetratingAttack) -> dict[tuple, float]:
    """Every die of one attack die's life, rolled one by one: hit outcome, penetration die, Armour-breaker die,
    save die, mitigation die, Damage dice, table die. Returns (natural 5-6, kind, damage if not shielded,
    table status) -> probability."""
    out: dict[tuple, float] = defaultdict(float)
    save = v.invulnerable
    if a.shooting and v.cover is not None:
        save = v.cover if save is None else min(save, v.cover)
    mit = v.feel_no_pain
    if a.shooting and v.shrouded is not None:
        mit = v.shrouded if mit is None else min(mit, v.shrouded)
    bane = a.armourbane or a.melta
    for o in die.outcomes:
        if o.hit == "none" or (o.hit == "critical" and a.critical_vs_vehicle == "wasted"):
            out[(o.shock_face, "n", 0, None)] += o.p
            continue
        for apt in range(1, 7):
            total = apt + a.strength
            if v.armour == 0:
                result = "pen"
            elif apt == 1 and a.apt_natural_one_fails:
                result = "none"
            elif total > v.armour or (total == v.armour and bane):
                result = "pen"
            elif total == v.armour:
                result = "glance"
            else:
                result = "none"
            p1 = o.p / 6
            if result == "none":
                out[(o.shock_face, "n", 0, None)] += p1
                continue
            if result == "glance":
                for t in range(1, 7):
                    status = TABLE[t] if (a.damage_table and not v.glance_costs_hp) else None
                    out[(o.shock_face, "g", 0, status)] += p1 / 6
                continue
            for ab in range(1, 7):
                improved = a.armour_breaker is not None and ab >= a.armour_breaker
                kind = "c" if o.hit == "critical" else ("a" if improved else "u")
                for sv in range(1, 7):
                    saved = save is not None and sv != 1 and sv >= save
                    for fnp in range(1, 7):
                        mitigated = mit is not None and fnp != 1 and fnp >= mit
                        for pd, d in _faces(a.damage):
                            p = p1 / 6 / 6 / 6 * pd
                            if d > 0:
                                d = d * (2 if a.melta else 1) + (o.hit == "critical") + improved
                            dmg = 0 if (saved or mitigated) else d
                            out[(o.shock_face, kind, dmg, None)] += p
    return out


def _oracle(n: int, die: DieOutcomes, v: HH3Vehicle, a: PenetratingAttack) -> dict:
    one = list(_one_die(die, v, a).items())
    hull: dict[int, float] = defaultdict(float)
    status: dict[str, float] = defaultdict(float)
    glancing: dict[int, float] = defaultdict(float)
    penetrating: dict[int, float] = defaultdict(float)
    top = v.left
    for combo in itertools.product(one, repeat=n):
        p = float(np.prod([w for _, w in combo]))
        dice = [k for k, _ in combo]
        shields = v.void_shields if a.shooting else 0
        lost = 0
        for group in ("u", "c", "a"):  # the shields take the groups in order
            for face, kind, dmg, _ in dice:
                if kind != group:
                    continue
                if shields:
                    shields -= 1
                else:
                    lost += dmg
        glances = sum(1 for d in dice if d[1] == "g")
        if v.glance_costs_hp:
            lost += glances
        lost = min(lost, top)
        hull[lost] += p
        glancing[glances] += p
        penetrating[sum(1 for d in dice if d[1] in "uca")] += p
        if lost < top:
            held = {d[3] for d in dice if d[3] is not None}
            if any(d[0] for d in dice):
                held.update(a.shock)
            for s in held:
                status[s] += p
    return {"hull": hull, "status": status, "glancing": glancing, "penetrating": penetrating}


def _as_array(d: dict[int, float], size: int) -> np.ndarray:
    out = np.zeros(size)
    for k, p in d.items():
        out[k] += p
    return out


def _check(n: int, die: DieOutcomes, v: HH3Vehicle, a: PenetratingAttack) -> None:
    got = resolve_vehicle_hh3(n, die, v, a)
    want = _oracle(n, die, v, a)
    size = v.left + 1
    assert np.allclose(
        _as_array(want["hull"], size),
        np.pad(got.hull_points.probabilities, (0, size - got.hull_points.max - 1)),
        atol=1e-12,
        rtol=0,
    )
    assert got.wrecked == pytest.approx(want["hull"][v.left], abs=1e-12)
    for key in ("glancing", "penetrating"):
        dist = getattr(got, key)
        assert np.allclose(_as_array(want[key], n + 1)[: dist.max + 1], dist.probabilities, atol=1e-12, rtol=0)
    for s in ("Stunned", "Pinned", "Suppressed"):
        value = got.statuses[s]
        assert (value or 0.0) == pytest.approx(want["status"][s], abs=1e-12), s
    assert got.statuses["Routed"] is None
    if v.explodes is not None:
        assert got.explodes == pytest.approx(want["hull"][v.left] * (7 - v.explodes) / 6, abs=1e-12)


def _random_case(rng: random.Random) -> tuple[int, DieOutcomes, HH3Vehicle, PenetratingAttack]:
    faces = [rng.choice(["none", "hit", "critical"]) for _ in range(6)]
    die = rng.choice(
        [
            DieOutcomes.from_faces(faces),  # type: ignore[arg-type]
            DieOutcomes.from_test(rng.randint(2, 6), rng.choice([None, 4, 6])),
            DieOutcomes.marker(DieOutcomes.from_faces(faces), rng.random()),  # type: ignore[arg-type]
            DieOutcomes.certain_hit(),
            DieOutcomes.from_faces(faces, automatic=True),  # type: ignore[arg-type]
        ]
    )
    hp = rng.randint(1, 5)
    v = HH3Vehicle(
        armour=rng.choice([0, 10, 11, 12, 13, 14]),
        hp=hp,
        hp_left=rng.randint(1, hp),
        invulnerable=rng.choice([None, None, 4, 5]),
        cover=rng.choice([None, 5, 6]),
        feel_no_pain=rng.choice([None, None, 5]),
        shrouded=rng.choice([None, 4]),
        void_shields=rng.choice([0, 0, 1, 2]),
        glance_costs_hp=rng.random() < 0.3,
        explodes=rng.choice([None, 4, 6]),
    )
    a = PenetratingAttack(
        strength=rng.randint(4, 10),
        damage=parse_dice(rng.choice(["1", "2", "D3", "3"])).dist,
        armourbane=rng.random() < 0.3,
        melta=rng.random() < 0.2,
        armour_breaker=rng.choice([None, None, 4, 6]),
        shooting=rng.random() < 0.7,
        damage_table=rng.random() < 0.85,
        shock=rng.choice([(), (), ("Pinned",), ("Stunned",), ("Suppressed",), ("Pinned", "Stunned", "Suppressed")]),
        critical_vs_vehicle=rng.choice(["damage", "damage", "wasted"]),
        apt_natural_one_fails=rng.random() < 0.8,
    )
    return rng.randint(0, 3), die, v, a


@pytest.mark.parametrize("seed", range(60))
def test_chain_matches_die_by_die_enumeration(seed: int) -> None:
    _check(*_random_case(random.Random(seed)))


def test_void_shields_take_plain_hits_before_critical_ones() -> None:
    # Two hits on 2+ with criticals on 6: shields take the plain Penetrating Hits first, so the order is visible
    # against D1 (critical ones do 2).
    die = DieOutcomes.from_test(2, 6)
    v = HH3Vehicle(armour=10, hp=5, void_shields=1)
    a = PenetratingAttack(strength=10, damage=Dist.point(1))
    _check(3, die, v, a)


# --------------------------------------------------------------------------- pinned hand values
def test_lascannon_against_rhino_front() -> None:
    # Lascannon FP 1, RS 9, D 1 (no Damage dice), BS 4 (3+) against a Rhino's Front 11, HP 3.
    # Hit 4/6. Test D6 + 9 vs 11: a natural 1 fails (10 anyway), a 2 makes 11 = glance, 3..6 penetrate.
    # P(glance) = 4/6 * 1/6 = 1/9; P(pen) = 4/6 * 4/6 = 4/9; P(hull point lost) = 4/9 (no saves).
    # Statuses: a glance rolls the table once, each status 2 faces of 6: P = 1/9 * 1/3 = 1/27.
    r = resolve_vehicle_hh3(1, DieOutcomes.from_test(3), HH3Vehicle(armour=11, hp=3), PenetratingAttack(strength=9))
    assert r.glancing.pmf(1) == pytest.approx(1 / 9, abs=1e-15)
    assert r.penetrating.pmf(1) == pytest.approx(4 / 9, abs=1e-15)
    assert r.hull_points.pmf(1) == pytest.approx(4 / 9, abs=1e-15)
    assert r.wrecked == 0.0
    for s in ("Stunned", "Pinned", "Suppressed"):
        assert r.statuses[s] == pytest.approx(1 / 27, abs=1e-15)


def test_melta_doubles_damage_and_penetrates_on_equal() -> None:
    # Multi-melta RS 8 D 2 within Melta range vs AV 12, HP 4, automatic hit (given): D6 + 8 vs 12.
    # Armourbane: 4 (=12) penetrates too, so faces 4,5,6: P(pen) = 1/2, never a glance. Damage 2 x2 = 4 = wrecked.
    r = resolve_vehicle_hh3(
        1,
        DieOutcomes.certain_hit(),
        HH3Vehicle(armour=12, hp=4),
        PenetratingAttack(strength=8, damage=Dist.point(2), melta=True),
    )
    assert r.glancing.pmf(1) == 0.0
    assert r.wrecked == pytest.approx(0.5, abs=1e-15)
    assert r.statuses["Pinned"] is None  # nothing can glance


def test_natural_one_option() -> None:
    # S 10 vs AV 11: a natural 1 makes 11. Default: a natural 1 fails (P(glance) = 0); option off: 1/6.
    v = HH3Vehicle(armour=11, hp=3)
    on = resolve_vehicle_hh3(1, DieOutcomes.certain_hit(), v, PenetratingAttack(strength=10))
    off = resolve_vehicle_hh3(
        1, DieOutcomes.certain_hit(), v, PenetratingAttack(strength=10, apt_natural_one_fails=False)
    )
    assert on.glancing.pmf(1) == 0.0
    assert off.glancing.pmf(1) == pytest.approx(1 / 6, abs=1e-15)
    assert on.penetrating.pmf(1) == off.penetrating.pmf(1) == pytest.approx(5 / 6, abs=1e-15)


def test_critical_vs_vehicle_reading() -> None:
    # BS 10: automatic Critical Hit. S 8 vs AV 10, D1, HP 2: pens on 3..6 (2/3) with Damage 1+1 = 2 = wrecked.
    # Literal option: the Critical Hit is wasted: nothing happens.
    v = HH3Vehicle(armour=10, hp=2)
    auto = DieOutcomes.from_faces(["none"] * 6, automatic=True)
    assert resolve_vehicle_hh3(1, auto, v, PenetratingAttack(strength=8)).wrecked == pytest.approx(2 / 3, abs=1e-15)
    wasted = resolve_vehicle_hh3(1, auto, v, PenetratingAttack(strength=8, critical_vs_vehicle="wasted"))
    assert wasted.hull_points.max == 0 and wasted.penetrating.max == 0


def test_super_heavy_glance_costs_a_hull_point_and_no_status() -> None:
    # S 9 vs AV 14, two certain hits, HP 2: only a 5 glances (14), a 6 penetrates. Each glance: 1 HP.
    # P(wrecked) = P(both dice in {5, 6}) = (2/6)^2 = 1/9 (D1 each); no table, so no status.
    r = resolve_vehicle_hh3(
        2, DieOutcomes.certain_hit(), HH3Vehicle(armour=14, hp=2, glance_costs_hp=True), PenetratingAttack(strength=9)
    )
    assert r.wrecked == pytest.approx(1 / 9, abs=1e-15)
    assert all(r.statuses[s] is None for s in r.statuses)


def test_shock_from_a_miss() -> None:
    # Shock (Pinned), hits on 6+ only, S 3 vs AV 14 (never penetrates): Pinned exactly when the die shows 5 or 6.
    r = resolve_vehicle_hh3(
        1, DieOutcomes.from_test(6), HH3Vehicle(armour=14, hp=3), PenetratingAttack(strength=3, shock=("Pinned",))
    )
    assert r.statuses["Pinned"] == pytest.approx(1 / 3, abs=1e-15)
    assert r.statuses["Stunned"] is None


def test_armour_facings() -> None:
    knight = Armour(front=12, side=None, rear=11)
    assert knight.for_hit("shooting", "Side") == 11
    assert knight.for_hit("challenge") == 12
    rhino = Armour(front=11, side=11, rear=10)
    assert rhino.for_hit("melee") == 10
    assert rhino.for_hit("indirect", "Front") == 11
    flyer = Armour(front=10, side=10, rear=10, flyer=True)
    assert flyer.for_hit("melee") == 10
    with pytest.raises(PraetorError, match="target.facing"):
        rhino.value("Top")  # type: ignore[arg-type]


def test_dice_count_distribution_mixes() -> None:
    # FP D3 (one weapon): the result is the mixture of 1, 2 and 3 dice.
    die, v, a = DieOutcomes.from_test(4), HH3Vehicle(armour=11, hp=3), PenetratingAttack(strength=9)
    mixed = resolve_vehicle_hh3(parse_dice("D3").dist, die, v, a)
    parts = [resolve_vehicle_hh3(n, die, v, a).hull_points for n in (1, 2, 3)]
    assert mixed.hull_points.isclose(Dist.mixture([1 / 3] * 3, parts))


def test_bad_input_is_refused_naming_the_field() -> None:
    with pytest.raises(PraetorError, match="target.HP"):
        HH3Vehicle(armour=11, hp=0)
    with pytest.raises(PraetorError, match="options.critical_vs_vehicle"):
        PenetratingAttack(strength=4, critical_vs_vehicle="x")  # type: ignore[arg-type]


def test_exact_fraction_of_a_two_dice_status() -> None:
    # Two certain hits, S 7 vs AV 10: 3 glances (10), 4..6 pens (3/6), 1 fails. HP 9 (never wrecked), D1.
    # P(Stunned) = 1 - E[(2/3)^G], G ~ Bin(2, 1/6): (1 - 1/6 + 1/6 * 2/3)^2 = (17/18)^2.
    r = resolve_vehicle_hh3(2, DieOutcomes.certain_hit(), HH3Vehicle(armour=10, hp=9), PenetratingAttack(strength=7))
    assert r.statuses["Stunned"] == pytest.approx(float(1 - Fraction(17, 18) ** 2), abs=1e-15)


# --------------------------------------------------------------------------- several volleys
def _oracle_joint(n: int, die: DieOutcomes, v: HH3Vehicle, a: PenetratingAttack) -> dict:
    """(hull points lost, shields used, statuses given) -> probability, every die rolled one by one."""
    one = list(_one_die(die, v, a).items())
    out: dict[tuple, float] = defaultdict(float)
    for combo in itertools.product(one, repeat=n):
        p = float(np.prod([w for _, w in combo]))
        dice = [k for k, _ in combo]
        shields = v.void_shields if a.shooting else 0
        used = lost = 0
        for group in ("u", "c", "a"):
            for _, kind, dmg, _ in dice:
                if kind == group:
                    if used < shields:
                        used += 1
                    else:
                        lost += dmg
        if v.glance_costs_hp:
            lost += sum(1 for d in dice if d[1] == "g")
        given = {d[3] for d in dice if d[3] is not None}
        if any(d[0] for d in dice):
            given.update(a.shock)
        out[(min(lost, v.left), used, frozenset(given))] += p
    return out


@pytest.mark.parametrize("seed", range(25))
def test_two_volleys_match_the_composed_enumeration(seed: int) -> None:
    rng = random.Random(500 + seed)
    n1, die1, v, a1 = _random_case(rng)
    n2, die2, _, a2 = _random_case(rng)
    n1, n2 = min(n1, 2), min(n2, 2)
    want: dict[tuple, float] = defaultdict(float)
    for (l1, u1, s1), p1 in _oracle_joint(n1, die1, v, a1).items():
        left = v.left - l1
        if left == 0:
            want[(v.left, frozenset())] += p1
            continue
        v2 = HH3Vehicle(**{**v.__dict__, "hp_left": left, "void_shields": v.void_shields - u1})
        for (l2, _, s2), p2 in _oracle_joint(n2, die2, v2, a2).items():
            end = left - l2
            want[(v.left - end, (s1 | s2) if end else frozenset())] += p1 * p2
    got = resolve_vehicle_sequence_hh3([VehicleShot(n1, die1, a1), VehicleShot(n2, die2, a2)], v)
    for k in range(v.left + 1):
        assert got.hull_points.pmf(k) == pytest.approx(sum(p for (lk, _), p in want.items() if lk == k), abs=1e-12)
    for s in ("Pinned", "Suppressed", "Stunned"):
        p_held = sum(p for (_, held), p in want.items() if s in held)
        assert (got.statuses[s] or 0.0) == pytest.approx(p_held, abs=1e-12), s


@pytest.mark.parametrize("seed", range(15))
def test_one_volley_sequence_is_the_single_resolution(seed: int) -> None:
    n, die, v, a = _random_case(random.Random(seed))
    one = resolve_vehicle_hh3(n, die, v, a)
    seq = resolve_vehicle_sequence_hh3([VehicleShot(n, die, a)], v)
    assert seq.hull_points.isclose(one.hull_points)
    assert seq.wrecked == pytest.approx(one.wrecked, abs=1e-12)
    for s in one.statuses:
        assert (seq.statuses[s] is None) == (one.statuses[s] is None)
        assert (seq.statuses[s] or 0.0) == pytest.approx(one.statuses[s] or 0.0, abs=1e-12)
