"""Brute-force oracle for the vehicle engine: every die of every hit, enumerated.

The enumerator below is written straight from the rules (MECHANICS 8 and the readings documented in
``praetor_analysis/penetration.py`` and ``vehicles.py``), sharing no code with the engine but ``Dist`` and
the dataclasses. One hit is a plain function that asks a ``roll(sides)`` callback for each die; every
sequence of dice it can ask for is walked depth first, so each leaf is one way the dice can fall, with
probability the product of 1/sides. An attack of n hits (1..3) is every combination of n such leaves,
applied in order to the hull points. Everything is compared with the fast path to 1e-12.
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest

from praetor_analysis.prob.dist import Dist
from praetor_analysis.vehicles.hull_points import resolve_vehicle
from praetor_analysis.vehicles.penetration import PenetratingWeapon, VehicleTarget

# The table written out by hand (MECHANICS 8), independent of damage_table.py.
_AP_MOD = {1: 2, 2: 1, None: -1}


def _table_result(modified: int) -> str:
    if modified <= 3:
        return "Crew Shaken"
    return {4: "Crew Stunned", 5: "Weapon Destroyed", 6: "Immobilised"}.get(modified, "Explodes")


RESULTS = ("Crew Shaken", "Crew Stunned", "Weapon Destroyed", "Immobilised", "Explodes")


class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


def enumerate_dice(process):
    """Every way the dice of ``process(roll)`` can fall: a dict result -> exact probability (Fraction)."""
    out: dict = defaultdict(Fraction)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        used: list[int] = []

        def roll(sides: int) -> int:
            i = len(used)
            if i == len(prefix):
                raise _NeedDie(sides)
            used.append(sides)
            return prefix[i]

        try:
            result = process(roll)
        except _NeedDie as need:
            stack.extend((*prefix, face) for face in range(1, need.sides + 1))
            continue
        prob = Fraction(1)
        for sides in used:
            prob /= sides
        out[result] += prob
    return dict(out)


def _penetration(roll, w: PenetratingWeapon, armour: int, half_range: bool) -> str:
    if w.haywire:
        d = roll(6)
        return "none" if d == 1 else ("pen" if d == 6 else "glance")
    if w.destroyer and not w.destroyer_one_die and not w.collapse:  # three dice, the lowest dropped
        kept = sorted([roll(6), roll(6), roll(6)])[1:]
    elif w.ordnance:
        kept = [max(roll(6), roll(6))]
    else:
        kept = [roll(6)]
    if (w.melta and half_range) or (w.armourbane and not w.melta):
        kept.append(roll(6))
    total = sum(kept) + w.strength
    if w.rending is not None and any(d >= w.rending for d in kept):
        total += roll(3)
    return "none" if total < armour else ("glance" if total == armour else "pen")


def _saved(roll, w: PenetratingWeapon, t: VehicleTarget, facing: str, extra: bool = False) -> bool:
    """One save roll; ``extra``: Exoshock's extra hit, which allows no cover and no Shrouded (as its text)."""
    saves = []
    inv = t.invulnerable.get(facing) if isinstance(t.invulnerable, dict) else t.invulnerable
    if inv is not None:
        saves.append(inv)
    if t.reinforced and not w.is_melee:
        saves.append(5)
    if t.ion_shield and not w.is_melee and facing in ("Front", "Side"):  # shooting only: 4+ Front, 5+ Side
        saves.append(4 if facing == "Front" else 5)
    shooting_cover = not (w.is_melee or w.ignores_cover or w.template or extra)
    if t.cover is not None and shooting_cover and not w.haywire:  # Haywire: no cover
        saves.append(t.cover)
    if saves and roll(6) >= min(saves):
        return True
    if t.shrouded is not None and shooting_cover and not w.no_shrouded and roll(6) >= t.shrouded:  # Night Vision
        return True
    return False


def _after_roll(roll, w, t, facing, result: str):
    """The impacts ((hull points, result or None), ...) once the penetration roll is known."""
    slow = t.slow or "Slow" in t.unit_type
    impacts = []

    def table_roll(hp: int):
        d = min(roll(6), roll(6)) if slow else roll(6)
        name = _table_result(d + _AP_MOD.get(w.ap, 0))
        if name == "Explodes":
            hp += roll(3)
        return (hp, name)

    if result != "none" and not _saved(roll, w, t, facing):
        hp = roll(3) if w.destroyer else 1
        impacts.append(table_roll(hp) if result == "pen" else (hp, None))
    if result == "pen" and w.exoshock is not None and roll(6) >= w.exoshock:
        if w.exoshock_like_any_hit:  # the earlier reading: a Penetrating Hit like any other
            if not _saved(roll, w, t, facing):
                impacts.append(table_roll(roll(3) if w.destroyer else 1))
        elif not _saved(roll, w, t, facing, extra=True):  # the text: no cover, no other rule, 1 hull point
            impacts.append(table_roll(1))
    return tuple(impacts)


def _mean_hp(dist, cap: int | None = None) -> Fraction:
    """Expected hull points, counting at most ``cap`` (the hull points left) when given."""
    return sum(p * min(cap if cap is not None else 10**9, sum(hp for hp, _ in seq)) for seq, p in dist.items())


def one_hit(w: PenetratingWeapon, t: VehicleTarget, half_range: bool = False, cap: int | None = None):
    """Exact distribution of the impacts of one hit, with Sunder's choice made from enumerated means
    (counting only ``cap`` hull points, those the vehicle has left, when given)."""
    facing = "Side" if w.barrage_or_megablast else t.facing  # melee hits too use the facing (HH2)
    armour = {"Front": t.front, "Side": t.side, "Rear": t.rear}[facing]
    if w.lance:
        armour = min(armour, 12)
    sunder = w.sunder and not w.haywire
    reroll_glance = False
    # The dice of the penetration roll and those after it are independent: each part is enumerated die by
    # die (every way its dice fall) and the parts are chained exactly, so Destroyer's three dice and a
    # re-roll multiply their paths instead of nesting them.
    rolls = enumerate_dice(lambda roll: _penetration(roll, w, armour, half_range))
    after = {r: enumerate_dice(lambda roll, r=r: _after_roll(roll, w, t, facing, r)) for r in ("none", "glance", "pen")}

    def chained(results):
        out: dict = defaultdict(Fraction)
        for r, p in results.items():
            for seq, q in after[r].items():
                out[seq] += p * q
        return dict(out)

    if sunder:
        reroll_glance = _mean_hp(chained(rolls), cap) > _mean_hp(after["glance"], cap)
    twin_template = w.twin_linked and w.template and not w.haywire  # re-rolls a failed roll
    final: dict = defaultdict(Fraction)
    for r, p in rolls.items():
        if (sunder or twin_template) and (r == "none" or (sunder and r == "glance" and reroll_glance)):
            for r2, p2 in rolls.items():  # the re-roll: the second result stands
                final[r2] += p * p2
        else:
            final[r] += p
    return chained(final), reroll_glance


def attack(w: PenetratingWeapon, t: VehicleTarget, n_hits: int, half_range: bool = False):
    """Brute-force statistics of ``n_hits`` hits: every combination of every hit's dice, each hit's Sunder
    choice made at the hull points left when it lands (a wreck: nothing left to gain, a glance kept)."""
    if w.sunder and not w.haywire:
        per_hp = {hp: one_hit(w, t, half_range, cap=hp)[0] for hp in range(t.hp + 1)}
    else:
        same = one_hit(w, t, half_range)[0]
        per_hp = dict.fromkeys(range(t.hp + 1), same)
    # Exact integer weights over a common denominator: products and sums of ints lose nothing.
    denominator = math.lcm(*(p.denominator for leaves in per_hp.values() for p in leaves.values()))
    leaves_at = {hp: [(seq, int(p * denominator)) for seq, p in leaves.items()] for hp, leaves in per_hp.items()}
    glancing: dict = defaultdict(int)
    penetrating: dict = defaultdict(int)
    removed: dict = defaultdict(int)
    left_pmf: dict = defaultdict(int)
    seen = dict.fromkeys(RESULTS, 0)

    def walk(hp_now: int, todo: int):
        """Every sequence of ``todo`` more hits from ``hp_now`` hull points left: (weight, impacts)."""
        if todo == 0:
            yield 1, ()
            return
        for seq, p in leaves_at[hp_now]:
            left = hp_now
            for lost, _ in seq:
                left = max(left - lost, 0) if left > 0 else 0
            for q, rest in walk(left, todo - 1):
                yield p * q, (seq, *rest)

    for weight, combo in walk(t.hp_left, n_hits):
        hp = t.hp_left
        n_g = n_p = 0
        results = set()
        for seq in combo:
            for lost, name in seq:
                if name is None:
                    n_g += 1
                else:
                    n_p += 1
                if hp > 0:
                    if name is not None:
                        results.add(name)
                    hp = max(hp - lost, 0)
        glancing[n_g] += weight
        penetrating[n_p] += weight
        removed[t.hp_left - hp] += weight
        left_pmf[hp] += weight
        for name in results:
            seen[name] += weight
    total = denominator**n_hits
    glancing, penetrating, removed, left_pmf = (
        {k: float(Fraction(v, total)) for k, v in d.items()} for d in (glancing, penetrating, removed, left_pmf)
    )
    seen = {k: float(Fraction(v, total)) for k, v in seen.items()}
    return {
        "glancing": glancing,
        "penetrating": penetrating,
        "hull_points": removed,
        "state": left_pmf,
        "damage_results": seen,
    }


def _dense(d: dict, size: int) -> np.ndarray:
    out = np.zeros(size)
    for k, p in d.items():
        out[k] += p
    return out


def _assert_matches(w, t, n_hits, half_range=False):
    truth = attack(w, t, n_hits, half_range)
    fast = resolve_vehicle(Dist.point(n_hits), w, t, half_range=half_range)
    for name in ("glancing", "penetrating", "hull_points"):
        dist: Dist = getattr(fast, name)
        size = max(dist.max + 1, max(truth[name]) + 1)
        got = np.r_[dist.probabilities, np.zeros(size - dist.max - 1)]
        np.testing.assert_allclose(got, _dense(truth[name], size), rtol=0, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(fast.state, _dense(truth["state"], t.hp + 1), rtol=0, atol=1e-12)
    assert abs(fast.wrecked - truth["state"].get(0, 0.0)) <= 1e-12
    for name in RESULTS:
        assert abs(fast.damage_results[name] - truth["damage_results"][name]) <= 1e-12, name


RHINO = VehicleTarget(front=11, side=11, rear=10, hp=3)
LAND_RAIDER = VehicleTarget(front=14, side=14, rear=14, hp=5)
PREDATOR = VehicleTarget(front=13, side=12, rear=10, hp=3, facing="Side")

# One case per rule, then pairs of rules: (id, weapon, target, half_range).
SINGLE = [
    ("plain krak", PenetratingWeapon(8, 3), RHINO, False),
    ("rending", PenetratingWeapon(6, 5, rending=5), RHINO, False),
    ("armourbane", PenetratingWeapon(8, 1, armourbane=True), LAND_RAIDER, False),
    ("melta near", PenetratingWeapon(8, 1, melta=True), LAND_RAIDER, True),
    ("melta far", PenetratingWeapon(8, 1, melta=True), LAND_RAIDER, False),
    ("ordnance", PenetratingWeapon(8, 3, ordnance=True), LAND_RAIDER, False),
    ("lance", PenetratingWeapon(8, 2, lance=True), LAND_RAIDER, False),
    ("sunder", PenetratingWeapon(7, 2, sunder=True), RHINO, False),
    ("sunder AP1", PenetratingWeapon(9, 1, sunder=True), RHINO, False),
    (
        "sunder, one hull point left",
        PenetratingWeapon(9, 2, sunder=True),
        VehicleTarget(11, 11, 10, 3, hp_left=1),
        False,
    ),
    (
        "sunder, two hull points left",
        PenetratingWeapon(9, 1, sunder=True),
        VehicleTarget(11, 11, 10, 3, hp_left=2),
        False,
    ),
    ("haywire", PenetratingWeapon(3, None, haywire=True), LAND_RAIDER, False),
    ("exoshock", PenetratingWeapon(9, 2, exoshock=4), RHINO, False),
    ("sunder, glances kept on a wreck", PenetratingWeapon(9, 2, sunder=True), VehicleTarget(10, 10, 10, 3), False),
    ("destroyer", PenetratingWeapon(10, 1, destroyer=True), LAND_RAIDER, False),
    (
        "destroyer one die (earlier reading)",
        PenetratingWeapon(10, 1, destroyer=True, destroyer_one_die=True),
        LAND_RAIDER,
        False,
    ),
    ("destroyer rending", PenetratingWeapon(8, 4, destroyer=True, rending=6), LAND_RAIDER, False),
    ("destroyer ordnance", PenetratingWeapon(8, 4, destroyer=True, ordnance=True), LAND_RAIDER, False),
    (
        "exoshock like any hit (earlier reading)",
        PenetratingWeapon(9, 2, exoshock=4, exoshock_like_any_hit=True),
        VehicleTarget(11, 11, 10, 3, cover=4),
        False,
    ),
    (
        "exoshock in cover, invulnerable, shrouded",
        PenetratingWeapon(9, 2, exoshock=3),
        VehicleTarget(11, 11, 10, 4, cover=4, shrouded=5, invulnerable=5),
        False,
    ),
    ("barrage", PenetratingWeapon(7, 3, barrage_or_megablast=True), PREDATOR, False),
    (
        "melee",
        PenetratingWeapon(8, 2, is_melee=True),
        VehicleTarget(13, 12, 10, 3, cover=4, shrouded=5, reinforced=True),
        False,
    ),
    ("template", PenetratingWeapon(7, 4, template=True), VehicleTarget(11, 11, 10, 3, cover=4, shrouded=5), False),
    (
        "twin-linked template",
        PenetratingWeapon(5, 4, template=True, twin_linked=True),
        VehicleTarget(11, 11, 10, 3, facing="Rear"),
        False,
    ),
    ("twin-linked, not a template", PenetratingWeapon(7, 4, twin_linked=True), RHINO, False),
    (
        "haywire in cover",
        PenetratingWeapon(3, 2, haywire=True),
        VehicleTarget(11, 11, 10, 3, cover=4, shrouded=5, invulnerable=6),
        False,
    ),
    ("ion shield front", PenetratingWeapon(9, 2), VehicleTarget(13, 12, 12, 6, ion_shield=True, cover=5), False),
    ("ion shield side", PenetratingWeapon(9, 2), VehicleTarget(13, 12, 12, 6, ion_shield=True, facing="Side"), False),
    ("ion shield rear", PenetratingWeapon(9, 2), VehicleTarget(13, 12, 12, 6, ion_shield=True, facing="Rear"), False),
    ("ion shield melee", PenetratingWeapon(10, 2, is_melee=True), VehicleTarget(13, 12, 12, 6, ion_shield=True), False),
    (
        "ignores cover",
        PenetratingWeapon(8, 2, ignores_cover=True),
        VehicleTarget(11, 11, 10, 3, cover=5, invulnerable=6),
        False,
    ),
    (
        "invulnerable by facing",
        PenetratingWeapon(9, 2),
        VehicleTarget(12, 12, 10, 3, facing="Side", invulnerable={"Front": 4, "Side": 5}),
        False,
    ),
    ("cover", PenetratingWeapon(8, 3), VehicleTarget(11, 11, 10, 3, cover=4, invulnerable=5), False),
    ("shrouded", PenetratingWeapon(8, 3), VehicleTarget(11, 11, 10, 3, shrouded=4), False),
    (
        "night vision: no shrouded, cover kept",
        PenetratingWeapon(8, 3, no_shrouded=True),
        VehicleTarget(11, 11, 10, 3, cover=5, shrouded=4),
        False,
    ),
    ("slow", PenetratingWeapon(9, 1), VehicleTarget(12, 12, 10, 4, slow=True), False),
    ("slow sub-type", PenetratingWeapon(9, 1), VehicleTarget(12, 12, 10, 4, unit_type="Vehicle (Slow)"), False),
    ("reinforced", PenetratingWeapon(9, None), VehicleTarget(12, 12, 10, 3, reinforced=True), False),
    ("AP1 explodes", PenetratingWeapon(9, 1), VehicleTarget(10, 10, 10, 4), False),
    ("AP2 damaged", PenetratingWeapon(9, 2), VehicleTarget(10, 10, 10, 4, hp_left=2), False),
    ("gets hot ignored", PenetratingWeapon(7, 2, gets_hot=True), RHINO, False),
]

PAIRS = [
    ("rending+armourbane", PenetratingWeapon(6, 4, rending=6, armourbane=True), LAND_RAIDER, False),
    ("rending+ordnance", PenetratingWeapon(7, 3, rending=5, ordnance=True), PREDATOR, False),
    ("rending+destroyer", PenetratingWeapon(6, 2, rending=6, destroyer=True), LAND_RAIDER, False),
    ("rending+sunder", PenetratingWeapon(5, 4, rending=5, sunder=True), RHINO, False),
    ("rending+lance", PenetratingWeapon(6, 3, rending=4, lance=True), LAND_RAIDER, False),
    ("armourbane+sunder", PenetratingWeapon(5, 1, armourbane=True, sunder=True), LAND_RAIDER, False),
    ("armourbane+lance", PenetratingWeapon(4, 1, armourbane=True, lance=True), LAND_RAIDER, False),
    ("armourbane+exoshock", PenetratingWeapon(7, 2, armourbane=True, exoshock=5), PREDATOR, False),
    ("melta+ordnance near", PenetratingWeapon(8, 1, melta=True, ordnance=True), LAND_RAIDER, True),
    ("ordnance+sunder", PenetratingWeapon(8, 2, ordnance=True, sunder=True), LAND_RAIDER, False),
    ("ordnance+destroyer", PenetratingWeapon(9, 1, ordnance=True, destroyer=True), LAND_RAIDER, False),
    ("sunder+exoshock", PenetratingWeapon(8, 2, sunder=True, exoshock=4), RHINO, False),
    (
        "sunder+destroyer",
        PenetratingWeapon(8, 1, sunder=True, destroyer=True),
        LAND_RAIDER,
        False,
    ),
    ("sunder+shrouded", PenetratingWeapon(8, 1, sunder=True), VehicleTarget(11, 11, 10, 3, shrouded=4), False),
    (
        "exoshock+destroyer",
        PenetratingWeapon(9, 1, exoshock=4, destroyer=True),
        VehicleTarget(12, 12, 10, 4),
        False,
    ),
    (
        "exoshock+cover+shrouded",
        PenetratingWeapon(9, 2, exoshock=3),
        VehicleTarget(11, 11, 10, 3, cover=4, shrouded=5),
        False,
    ),
    ("exoshock+slow", PenetratingWeapon(9, 1, exoshock=4), VehicleTarget(11, 11, 10, 3, slow=True), False),
    ("haywire+exoshock", PenetratingWeapon(3, 2, haywire=True, exoshock=4), RHINO, False),
    ("haywire+destroyer", PenetratingWeapon(3, 1, haywire=True, destroyer=True), LAND_RAIDER, False),
    ("haywire+sunder", PenetratingWeapon(3, 2, haywire=True, sunder=True, rending=4), RHINO, False),
    (
        "haywire+invulnerable",
        PenetratingWeapon(3, None, haywire=True),
        VehicleTarget(12, 12, 10, 3, invulnerable=5),
        False,
    ),
    (
        "lance+barrage",
        PenetratingWeapon(8, 2, lance=True, barrage_or_megablast=True),
        VehicleTarget(14, 13, 12, 4),
        False,
    ),
    ("melee+armourbane", PenetratingWeapon(8, 2, is_melee=True, armourbane=True), LAND_RAIDER, False),
    ("destroyer+explodes", PenetratingWeapon(10, 1, destroyer=True), VehicleTarget(12, 12, 10, 9), False),
    (
        "laser blaster on a knight",
        PenetratingWeapon(10, 2, destroyer=True),
        VehicleTarget(13, 12, 12, 7, ion_shield=True),
        False,
    ),
    (
        "thunderhawk cannon on a land raider",
        PenetratingWeapon(8, 4, destroyer=True, rending=6),
        VehicleTarget(14, 14, 14, 5),
        False,
    ),
    (
        "magna blaze cannon on a land raider",
        PenetratingWeapon(10, 1, destroyer=True, lance=True, exoshock=4),
        VehicleTarget(14, 14, 14, 5),
        False,
    ),
    (
        "template+reinforced",
        PenetratingWeapon(5, 4, template=True),
        VehicleTarget(10, 10, 10, 2, reinforced=True, cover=3),
        False,
    ),
]

CASES = SINGLE + PAIRS


#: Three hits of these take 4.6 to 4.7 CPU-s each to enumerate: the slow tier's (one and two hits stay fast).
HEAVY = {"exoshock+destroyer", "magna blaze cannon on a land raider"}


@pytest.mark.parametrize(
    ("case", "weapon", "target", "half_range", "n_hits"),
    [
        pytest.param(*c, n, marks=pytest.mark.slow, id=f"{n}-{c[0]}") if n == 3 and c[0] in HEAVY
        else pytest.param(*c, n, id=f"{n}-{c[0]}")
        for n in (1, 2, 3)
        for c in CASES
    ],
)  # fmt: skip
def test_fast_path_matches_every_die(case, weapon, target, half_range, n_hits):
    _assert_matches(weapon, target, n_hits, half_range)


@pytest.mark.parametrize(("case", "weapon", "target", "half_range"), CASES, ids=[c[0] for c in CASES])
def test_sunder_choice_matches(case, weapon, target, half_range):
    from praetor_analysis.vehicles.penetration import hit_outcome

    _, reroll = one_hit(weapon, target, half_range)
    assert hit_outcome(weapon, target, half_range=half_range).sunder_rerolls_glancing == reroll
    for hp in range(target.hp + 1):  # the choice at each number of hull points left (none on a wreck)
        _, reroll = one_hit(weapon, target, half_range, cap=hp)
        assert hit_outcome(weapon, target, half_range=half_range, hp_left=hp).sunder_rerolls_glancing == reroll


def test_random_number_of_hits_is_the_mixture():
    # Hits ~ Binomial(3, 2/3), mixed by hand from the brute-force attacks of 0..3 hits.
    w, t = PenetratingWeapon(9, 1, exoshock=5), VehicleTarget(11, 11, 10, 3, shrouded=5)
    weights = [1 / 27, 6 / 27, 12 / 27, 8 / 27]
    fast = resolve_vehicle(Dist(weights), w, t)
    truths = [attack(w, t, n) for n in range(4)]
    wrecked = sum(wt * truth["state"].get(0, 0.0) for wt, truth in zip(weights, truths, strict=False))
    hull = sum(wt * _dense(truth["hull_points"], 4) for wt, truth in zip(weights, truths, strict=False))
    assert abs(fast.wrecked - wrecked) <= 1e-12
    np.testing.assert_allclose(fast.hull_points.probabilities, hull, rtol=0, atol=1e-12)
    for name in RESULTS:
        mixed = sum(wt * truth["damage_results"][name] for wt, truth in zip(weights, truths, strict=False))
        assert abs(fast.damage_results[name] - mixed) <= 1e-12, name


def test_armourbane_lascannon_from_enumeration():
    # Lascannon S9 AP2 with Armourbane against AV 14: 2D6 + 9 against 14, every die enumerated here.
    w = PenetratingWeapon(9, 2, armourbane=True)
    per_hit, _ = one_hit(w, VehicleTarget(14, 14, 14, 5))
    pen = sum(p for seq, p in per_hit.items() if seq and seq[0][1] is not None)
    glance = sum(p for seq, p in per_hit.items() if seq and seq[0][1] is None)
    assert (pen, glance) == (Fraction(26, 36), Fraction(4, 36))
    from praetor_analysis.vehicles.penetration import hit_outcome

    roll = hit_outcome(w, VehicleTarget(14, 14, 14, 5)).roll
    assert abs(roll[2] - 26 / 36) <= 1e-15 and abs(roll[1] - 4 / 36) <= 1e-15
