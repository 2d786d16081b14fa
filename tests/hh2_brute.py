"""An independent brute-force reading of MECHANICS.md (2nd edition), written without the engine's code.

Every die is enumerated (``itertools.product`` over D6 faces, ``Fraction`` weights); shots are combined by
enumerating every tuple of per-shot outcomes, then every save die of every wound, then allocation in the
order MECHANICS section 5 gives. Small cases only: this is a test oracle, not a fast path.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction

D6 = range(1, 7)
SIXTH = Fraction(1, 6)

Dist = dict[int, Fraction]


def dice(n: int) -> Iterator[tuple[Fraction, tuple[int, ...]]]:
    """Every roll of n D6 with its probability."""
    p = SIXTH**n
    for faces in itertools.product(D6, repeat=n):
        yield p, faces


def d3_of(face: int) -> int:
    return (face + 1) // 2


def add(dist: Dist, k: int, p: Fraction) -> None:
    dist[k] = dist.get(k, Fraction(0)) + p


def as_pmf(dist: Dist) -> list[float]:
    top = max(k for k, p in dist.items() if p) if any(dist.values()) else 0
    return [float(dist.get(k, 0)) for k in range(top + 1)]


def mean(dist: Dist) -> float:
    return float(sum(k * p for k, p in dist.items()))


# --- section 2: To Hit ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shooter:
    bs: int = 4
    twin_linked: bool = False
    snap: bool = False
    gets_hot: bool = False
    no_hit_roll: bool = False  # markers/templates with given hits: no To Hit roll
    melee_need: int | None = None  # melee: the WS chart's target number


def ws_need(attacker: int, defender: int) -> int:
    """MECHANICS section 2's melee chart (the HH2 four-band default)."""
    if attacker > 2 * defender:
        return 2
    if attacker > defender:
        return 3
    if defender > 2 * attacker:
        return 5
    return 4


def hit_outcomes(sh: Shooter) -> Dist:
    """0 miss, 1 hit; 2 = miss with Gets Hot (a natural 1 that stands), 3 = no roll (always hit)."""
    out: Dist = {}
    bs = 1 if sh.snap else sh.bs
    first = 7 - bs if bs <= 5 else 2
    if sh.melee_need is not None:
        first, bs = sh.melee_need, 0
    for p, (a, b) in dice(2):
        if a >= first:
            add(out, 1, p)
            continue
        if sh.twin_linked:
            final, need = b, first
        elif bs >= 6 and sh.melee_need is None:
            final, need = b, 12 - bs
        else:
            final, need = a, first
        if final >= need and final != 1:
            add(out, 1, p)
        elif final == 1 and sh.gets_hot:
            add(out, 2, p)
        else:
            add(out, 0, p)
    return out


# --- section 3: To Wound -------------------------------------------------------------------------------------


def wound_target(s: int, t: int) -> int | None:
    if s >= t + 2:
        return 2
    if s == t + 1:
        return 3
    if s == t:
        return 4
    if s == t - 1:
        return 5
    if s in (t - 2, t - 3):
        return 6
    return None


@dataclass(frozen=True)
class Wounder:
    s: int
    t: int
    ap: int | None  # None = "-"
    rending: int | None = None
    breaching: int | None = None
    murderous: int | None = None
    poisoned: int | None = None
    fleshbane: bool = False
    shred: bool = False
    instant_death: bool = False
    melee: bool = False
    reroll_success: bool = False  # Dreadnought/Automata/Mechanised against a Poisoned or Fleshbane attack


@dataclass(frozen=True)
class Wound:
    ap: int | None
    instant_death: bool


def wound_outcomes(w: Wounder) -> dict[Wound | None, Fraction]:
    need = wound_target(w.s, w.t)
    if w.fleshbane:
        need = 2
    if w.poisoned is not None:
        need = w.poisoned if need is None else min(need, w.poisoned)
    melee_poison_reroll = w.melee and w.poisoned is not None and w.s > w.t
    out: dict[Wound | None, Fraction] = defaultdict(Fraction)
    for p, (a, b) in dice(2):

        def success(face: int) -> bool:
            if face == 1:
                return False
            if w.rending is not None and face >= w.rending:
                return True
            return need is not None and face >= need

        face = a
        if (not success(a) and (w.shred or melee_poison_reroll)) or (success(a) and w.reroll_success):
            face = b
        if not success(face):
            out[None] += p
            continue
        ap = w.ap
        if (w.rending is not None and face >= w.rending) or (w.breaching is not None and face >= w.breaching):
            ap = 2 if ap is None else min(ap, 2)
        ident = w.instant_death or w.s >= 2 * w.t or (w.murderous is not None and face >= w.murderous)
        out[Wound(ap, ident)] += p
    return dict(out)


# --- section 4: saves and mitigation -------------------------------------------------------------------------


@dataclass(frozen=True)
class Defence:
    save: int | None = None
    invulnerable: int | None = None
    cover: int | None = None
    fnp: int | None = None
    shrouded: int | None = None
    heavy_reroll: bool = False  # Heavy sub-type against Blast/Template
    eternal_warrior: bool = False


def p_unsaved(wound: Wound, d: Defence) -> Fraction:
    """One save die (the best) then one mitigation die (the best allowed)."""
    armour = d.save if d.save is not None and not (wound.ap is not None and wound.ap <= d.save) else None
    best_fail = Fraction(1)
    for target, reroll in ((armour, d.heavy_reroll), (d.invulnerable, False), (d.cover, False)):
        if target is None:
            continue
        fail = Fraction(target - 1, 6)
        if reroll:
            fail = fail * fail
        best_fail = min(best_fail, fail)
    mitigation = [x for x in (d.shrouded,) if x is not None]
    if d.fnp is not None and not wound.instant_death:
        mitigation.append(d.fnp)
    if mitigation:
        best_fail *= Fraction(min(mitigation) - 1, 6)
    return best_fail


# --- section 5: allocation -----------------------------------------------------------------------------------


@dataclass
class Result:
    hits: Dist = field(default_factory=dict)
    wounds: Dist = field(default_factory=dict)
    unsaved: Dist = field(default_factory=dict)
    casualties: Dist = field(default_factory=dict)
    pinned: Fraction = Fraction(0)
    gets_hot: Dist = field(default_factory=dict)
    joint: dict[tuple[int, int, int], Fraction] = field(default_factory=dict)  # (unsaved, casualties, taken)


@dataclass(frozen=True)
class Target:
    models: int
    w: int
    defence: Defence
    ld: int = 7
    pinning_exempt: bool = False
    stubborn: bool = False
    first_left: int | None = None  # wounds left on the model being worked on (a sequence carries it over)


def bernoulli_counts(n: int, q: Fraction) -> Iterator[tuple[Fraction, tuple[bool, ...]]]:
    for bits in itertools.product((True, False), repeat=n):
        p = Fraction(1)
        for b in bits:
            p *= q if b else 1 - q
        yield p, bits


def two_d6_at_most(x: int) -> Fraction:
    return Fraction(sum(1 for a in D6 for b in D6 if a + b <= x), 36) if x >= 2 else Fraction(0)


def attack(
    shots: Iterable[tuple[Fraction, int]],
    shooter: Shooter,
    wounder: Wounder,
    target: Target,
    *,
    brutal: int = 1,
    destroyer: bool = False,
    pinning: bool = False,
    shell_shock: int = 0,
    hits_given: Dist | None = None,
    deflagrate: bool = False,
) -> Result:
    """The whole attack for a distribution of shot counts (small counts only)."""
    res = Result()
    hit_d = hit_outcomes(shooter) if not shooter.no_hit_roll else {1: Fraction(1)}
    if hits_given is not None:
        shots, hit_d = [(p, k) for k, p in hits_given.items()], {1: Fraction(1)}
    wound_d = wound_outcomes(wounder)
    for p_n, n in shots:
        for combo in itertools.product(hit_d.items(), repeat=n):
            p_hits = p_n
            for _, q in combo:
                p_hits *= q
            hits = sum(1 for k, _ in combo if k == 1)
            hot = sum(1 for k, _ in combo if k == 2)
            add(res.hits, hits, p_hits)
            add(res.gets_hot, hot, p_hits)
            for wcombo in itertools.product(wound_d.items(), repeat=hits):
                p_w = p_hits
                for _, q in wcombo:
                    p_w *= q
                wounds = [w for w, _ in wcombo if w is not None]
                add(res.wounds, len(wounds), p_w)
                if deflagrate:
                    _deflagrate(res, p_w, wounds, wound_d, target, pinning, shell_shock)
                else:
                    _allocate(res, p_w, wounds, target, brutal, destroyer, pinning, shell_shock)
    return res


def _order(w: Wound, ew: bool) -> int:
    if w.instant_death and not ew:
        return 0
    return 1 if w.ap is not None and w.ap <= 2 else 2


def _allocate(
    res: Result,
    p: Fraction,
    wounds: list[Wound],
    target: Target,
    brutal: int,
    destroyer: bool,
    pinning: bool,
    shell_shock: int,
) -> None:
    ew = target.defence.eternal_warrior
    wounds = sorted(wounds, key=lambda w: _order(w, ew))
    # every wound is X sub-wounds (Brutal), each saved separately
    per_wound = [p_unsaved(w, target.defence) for w in wounds]
    subs = [brutal] * len(wounds)
    flat_q = [q for q, k in zip(per_wound, subs, strict=True) for _ in range(k)]
    for p_s, bits in _bits(flat_q):
        unsaved_tokens: list[tuple[Wound, int]] = []
        i = 0
        for w, k in zip(wounds, subs, strict=True):
            unsaved_tokens.append((w, sum(bits[i : i + k])))
            i += k
        if destroyer:
            _destroyer_branch(res, p * p_s, unsaved_tokens, target, ew, pinning, shell_shock)
        else:
            _finish(res, p * p_s, unsaved_tokens, target, ew, pinning, shell_shock)


def _deflagrate(res, p, wounds, wound_d, target, pinning, shell_shock) -> None:  # type: ignore[no-untyped-def]
    """Deflagrate: one automatic hit per unsaved wound of the attack, wounded and saved again (W1 targets)."""
    d = target.defence
    for p_s, bits in _bits([p_unsaved(w, d) for w in wounds]):
        first = [(w, 1 if bit else 0) for w, bit in zip(wounds, bits, strict=True)]
        extra_hits = sum(bits)
        for wcombo in itertools.product(wound_d.items(), repeat=extra_hits):
            p_w = p * p_s
            for _, q in wcombo:
                p_w *= q
            more = [w for w, _ in wcombo if w is not None]
            for p_t, bits2 in _bits([p_unsaved(w, d) for w in more]):
                second = [(w, 1 if bit else 0) for w, bit in zip(more, bits2, strict=True)]
                _finish(res, p_w * p_t, first + second, target, d.eternal_warrior, pinning, shell_shock)


def master_crafted_hits(bs: int, shots_per_model: int, models: int) -> Dist:
    """Each model's weapon re-rolls one failed To Hit die of its own shots."""
    need = 7 - bs
    one: Dist = {}
    for p, faces in dice(shots_per_model + 1):
        rolls = faces[:shots_per_model]
        hits = sum(1 for f in rolls if f >= need)
        if hits < shots_per_model and faces[-1] >= need:
            hits += 1
        add(one, hits, p)
    total: Dist = {0: Fraction(1)}
    for _ in range(models):
        nxt: Dist = {}
        for a, pa in total.items():
            for k, pb in one.items():
                add(nxt, a + k, pa * pb)
        total = nxt
    return total


def _bits(qs: list[Fraction]) -> Iterator[tuple[Fraction, tuple[bool, ...]]]:
    for bits in itertools.product((True, False), repeat=len(qs)):
        p = Fraction(1)
        for b, q in zip(bits, qs, strict=True):
            p *= q if b else 1 - q
        if p:
            yield p, bits


def _destroyer_branch(res, p, tokens, target, ew, pinning, shell_shock) -> None:  # type: ignore[no-untyped-def]
    """Destroyer: each unsaved wound becomes D3 wounds (one D3 each)."""
    live = [(w, k) for w, k in tokens if k]
    for faces in itertools.product(D6, repeat=len(live)):
        q = SIXTH ** len(live)
        mult = iter(d3_of(f) for f in faces)
        expanded = [(w, k * next(mult) if k else 0) for w, k in tokens]
        _finish(res, p * q, expanded, target, ew, pinning, shell_shock, sum(k for _, k in tokens))


def _finish(res, p, tokens, target, ew, pinning, shell_shock, counted=None) -> None:  # type: ignore[no-untyped-def]
    """Allocation; ``counted`` is the unsaved count when it differs from the wounds dealt (Destroyer's D3)."""
    unsaved = sum(k for _, k in tokens) if counted is None else counted
    add(res.unsaved, unsaved, p)
    models, left = target.models, target.first_left or target.w
    dead = taken = 0
    for w, k in tokens:
        if models == 0 or k == 0:
            continue
        if (w.instant_death and not ew) or k >= left:
            dead += 1
            models -= 1
            taken += left
            left = target.w
        else:
            left -= k
            taken += k
    add(res.casualties, dead, p)
    key = (unsaved, dead, taken)
    res.joint[key] = res.joint.get(key, Fraction(0)) + p
    if pinning and unsaved and models and not target.pinning_exempt:
        ld = target.ld - (0 if target.stubborn else shell_shock)
        res.pinned += p * (1 - two_d6_at_most(ld))


def fixed(n: int) -> list[tuple[Fraction, int]]:
    return [(Fraction(1), n)]


def d3_shots(plus: int = 0) -> list[tuple[Fraction, int]]:
    return [(Fraction(1, 3), k + plus) for k in (1, 2, 3)]


def check(fn: Callable[[], Result]) -> Result:
    return fn()


# --- section 8: vehicles -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Gun:
    s: int
    ap: int | None
    armour: int
    rending: int | None = None
    armourbane: bool = False
    ordnance: bool = False
    lance: bool = False
    destroyer: bool = False
    exoshock: int | None = None
    haywire: bool = False
    invulnerable: int | None = None
    cover: int | None = None
    slow: bool = False
    sunder_hp: int | None = None  # Sunder, for one hit on a vehicle with this many hull points


def _damage_mod(ap: int | None) -> int:
    return -1 if ap is None else {1: 2, 2: 1}.get(ap, 0)


def _pen_kind(g: Gun, faces: tuple[int, ...]) -> int:
    """0 nothing, 1 glancing, 2 penetrating, for the penetration dice faces (used in order)."""
    av = min(g.armour, 12) if g.lance else g.armour
    if g.haywire:
        f = faces[0]
        return 0 if f == 1 else (2 if f == 6 else 1)
    if g.destroyer:
        kept = sorted(faces[:3])[1:]
        total, i = g.s + sum(kept), 3
        rend_faces = kept
    elif g.ordnance:
        kept = [max(faces[0], faces[1])]
        total, i = g.s + kept[0], 2
        rend_faces = kept
    else:
        total, i = g.s + faces[0], 1
        rend_faces = [faces[0]]
    if g.armourbane:
        total += faces[i]
        i += 1
    if g.rending is not None and any(f >= g.rending for f in rend_faces):
        total += d3_of(faces[i])
    if total == av:
        return 1
    return 2 if total > av else 0


def _n_pen_dice(g: Gun) -> int:
    if g.haywire:
        return 1
    base = 3 if g.destroyer else (2 if g.ordnance else 1)
    return base + (1 if g.armourbane else 0) + (1 if g.rending is not None else 0)


Events = tuple[tuple[int, int], ...]  # (hull points, Vehicle Damage bitmask) of each hull hit, in order
VehicleDist = dict[tuple[int, int, Events], Fraction]  # (glancing, penetrating, events) per hit


DAMAGE = ("Crew Shaken", "Crew Stunned", "Weapon Destroyed", "Immobilised", "Explodes")


def _damage_bit(roll: int) -> int:
    return 1 << (0 if roll <= 3 else min(roll, 7) - 3)


def _hull_hit(pen: bool, save: int, hp_d3: bool, ap: int | None, slow: bool = False) -> VehicleDist:
    """One Glancing/Penetrating Hit: its save die, Destroyer's D3, the damage die(s) and Explodes' D3.

    Keys are (glancing, penetrating, ((hull points, bitmask of the Vehicle Damage result rolled),)).
    """
    out: VehicleDist = defaultdict(Fraction)
    for p, (sv, hpd3, dmg, dmg2, xd3) in dice(5):
        if sv >= save:
            out[(0, 0, ())] += p
            continue
        hp = d3_of(hpd3) if hp_d3 else 1
        mask = 0
        if pen:
            roll = (min(dmg, dmg2) if slow else dmg) + _damage_mod(ap)
            mask = _damage_bit(roll)
            if roll >= 7:
                hp += d3_of(xd3)
        out[(0 if pen else 1, 1 if pen else 0, ((hp, mask),))] += p
    return dict(out)


def _plus(a: VehicleDist, b: VehicleDist) -> VehicleDist:
    out: VehicleDist = defaultdict(Fraction)
    for ka, pa in a.items():
        for kb, pb in b.items():
            out[(ka[0] + kb[0], ka[1] + kb[1], ka[2] + kb[2])] += pa * pb
    return dict(out)


def vehicle_hit(g: Gun) -> VehicleDist:
    """Every die of one hit: penetration, save, Exoshock, damage table, Explodes' D3, Destroyer's D3."""
    out: VehicleDist = defaultdict(Fraction)
    save_cover = min(x for x in (g.invulnerable, g.cover, 7) if x is not None)
    save_inv = g.invulnerable if g.invulnerable is not None else 7
    none: VehicleDist = {(0, 0, ()): Fraction(1)}
    exo: VehicleDist = dict(none)
    if g.exoshock is not None:
        trig = Fraction(7 - g.exoshock, 6)
        extra = _hull_hit(True, save_inv, False, g.ap, g.slow)
        exo = defaultdict(Fraction)
        exo[(0, 0, ())] += 1 - trig
        for k, q in extra.items():
            exo[k] += trig * q
        exo = dict(exo)
    glance = _hull_hit(False, save_cover, g.destroyer, g.ap)
    pen = _plus(_hull_hit(True, save_cover, g.destroyer, g.ap, g.slow), exo)
    by_kind = {0: none, 1: glance, 2: pen}
    kinds: Dist = {}
    for p, faces in dice(_n_pen_dice(g)):
        add(kinds, _pen_kind(g, faces), p)
    if g.sunder_hp is not None:  # one hit on a vehicle with sunder_hp hull points left
        again = dict(kinds)

        def expected(d: VehicleDist) -> Fraction:
            return sum((q * min(g.sunder_hp or 0, sum(e[0] for e in k[2])) for k, q in d.items()), Fraction(0))

        e_again = sum((q * expected(by_kind[k]) for k, q in again.items()), Fraction(0))
        reroll_glance = e_again > expected(glance)
        kinds = {}
        for k, q in again.items():
            if k == 0 or (k == 1 and reroll_glance):
                for k2, q2 in again.items():
                    add(kinds, k2, q * q2)
            else:
                add(kinds, k, q)
    for kind, p in kinds.items():
        for k, q in by_kind[kind].items():
            out[k] += p * q
    return dict(out)


@dataclass
class VehicleResult:
    hits: Dist = field(default_factory=dict)
    glancing: Dist = field(default_factory=dict)
    penetrating: Dist = field(default_factory=dict)
    hull_points: Dist = field(default_factory=dict)
    wrecked: Fraction = Fraction(0)
    damage_results: dict[str, Fraction] = field(default_factory=lambda: dict.fromkeys(DAMAGE, Fraction(0)))


def vehicle_attack(shots: Iterable[tuple[Fraction, int]], shooter: Shooter, g: Gun, hp: int) -> VehicleResult:
    res = VehicleResult()
    hit_d = hit_outcomes(shooter) if not shooter.no_hit_roll else {1: Fraction(1)}
    per_hit = vehicle_hit(g)
    for p_n, n in shots:
        for combo in itertools.product(hit_d.items(), repeat=n):
            p_h = p_n
            for _, q in combo:
                p_h *= q
            hits = sum(1 for k, _ in combo if k == 1)
            add(res.hits, hits, p_h)
            for vc in itertools.product(per_hit.items(), repeat=hits):
                p = p_h
                for _, q in vc:
                    p *= q
                gl = sum(k[0] for k, _ in vc)
                pe = sum(k[1] for k, _ in vc)
                events = [e for k, _ in vc for e in k[2]]
                removed = min(hp, sum(e[0] for e in events))
                add(res.glancing, gl, p)
                add(res.penetrating, pe, p)
                add(res.hull_points, removed, p)
                if removed >= hp:
                    res.wrecked += p
                mask = before = 0
                for e_hp, e_mask in events:  # a wrecked vehicle rolls no further Vehicle Damage
                    if before < hp:
                        mask |= e_mask
                    before += e_hp
                for bit, name in enumerate(DAMAGE):
                    if mask >> bit & 1:
                        res.damage_results[name] += p
    return res


# --- section 9: a whole melee round --------------------------------------------------------------------------


@dataclass
class RoundResult:
    first: Result
    attacker_casualties: Dist
    attacker_wins: Fraction
    target_wins: Fraction
    draw: Fraction


def melee_round(
    attacker_strike: Callable[[int], Result],
    target_strike: Callable[[int], Result],
    attacker_models: int,
    target_models: int,
    attacker_i: int,
    target_i: int,
    capped: bool = False,
) -> RoundResult:
    """Both sides strike in Initiative order; a side's models killed before its step do not strike.

    ``*_strike(models)`` is that side's attack with ``models`` models left. The score is unsaved wounds, or
    with ``capped`` the wounds taken off the enemy's models.
    """
    nothing = {(0, 0, ()): Fraction(1)}
    first = attacker_strike(attacker_models)
    cas: Dist = {}
    tally = [Fraction(0)] * 3

    def score(mine: tuple[int, int, int], theirs: tuple[int, int, int], p: Fraction) -> None:
        a, t = (mine[2], theirs[2]) if capped else (mine[0], theirs[0])
        tally[0 if a > t else (1 if t > a else 2)] += p

    if attacker_i > target_i:
        for k1, p1 in first.joint.items():
            left = target_models - k1[1]
            for k2, p2 in (target_strike(left).joint if left else nothing).items():
                add(cas, k2[1], p1 * p2)
                score(k1, k2, p1 * p2)
    elif attacker_i < target_i:
        for k2, p2 in target_strike(target_models).joint.items():
            add(cas, k2[1], p2)
            left = attacker_models - k2[1]
            for k1, p1 in (attacker_strike(left).joint if left else nothing).items():
                score(k1, k2, p1 * p2)
    else:
        back = target_strike(target_models)
        for k1, p1 in first.joint.items():
            for k2, p2 in back.joint.items():
                add(cas, k2[1], p1 * p2)
                score(k1, k2, p1 * p2)
    return RoundResult(first, cas, tally[0], tally[1], tally[2])


# --- section 6: one blast marker over fixed models ------------------------------------------------------------


def _scatter_outcomes(
    positions: list[tuple[float, float]],
    aim: int,
    radius: float,
    base_mm: float,
    bs: int,
    edges: tuple[float, float, float, float] | None = None,
) -> list[tuple[float, bool, int]]:
    """(probability, Hit face?, models hit) of one scatter, the direction integrated exactly by arcs."""
    reach = radius + base_mm / 25.4 / 2
    ax, ay = positions[aim]
    rel = [(x - ax, y - ay) for x, y in positions]
    out: list[tuple[float, bool, int]] = []

    def inside(cx: float, cy: float) -> bool:
        if edges is None:
            return True
        xmin, xmax, ymin, ymax = edges
        return xmin <= ax + cx <= xmax and ymin <= ay + cy <= ymax

    def count(cx: float, cy: float) -> int:
        if not inside(cx, cy):
            return 0
        return sum(1 for x, y in rel if math.hypot(x - cx, y - cy) <= reach + 1e-12)

    out.append((2 / 6, True, count(0.0, 0.0)))
    for a, b_ in itertools.product(D6, D6):
        d = max(0, a + b_ - bs)
        weight = 4 / 6 / 36
        if d == 0:
            out.append((weight, False, count(0.0, 0.0)))
            continue
        cuts = {0.0, 2 * math.pi}
        for x, y in rel:
            dist = math.hypot(x, y)
            if dist == 0 or abs(dist - d) > reach or dist + d <= reach:
                continue
            cos_half = (d * d + dist * dist - reach * reach) / (2 * d * dist)
            if -1 < cos_half < 1:
                half, centre = math.acos(cos_half), math.atan2(y, x)
                cuts |= {(centre - half) % (2 * math.pi), (centre + half) % (2 * math.pi)}
        if edges is not None:
            xmin, xmax, ymin, ymax = edges
            for lim in (xmin - ax, xmax - ax):
                if abs(lim) < d:
                    t = math.acos(lim / d)
                    cuts |= {t % (2 * math.pi), (-t) % (2 * math.pi)}
            for lim in (ymin - ay, ymax - ay):
                if abs(lim) < d:
                    t = math.asin(lim / d)
                    cuts |= {t % (2 * math.pi), (math.pi - t) % (2 * math.pi)}
        for lo, hi in itertools.pairwise(sorted(cuts)):
            mid = (lo + hi) / 2
            out.append((weight * (hi - lo) / (2 * math.pi), False, count(d * math.cos(mid), d * math.sin(mid))))
    return out


def blast_hits(
    positions: list[tuple[float, float]],
    aim: int,
    radius: float,
    base_mm: float,
    bs: int,
    edges: tuple[float, float, float, float] | None = None,
    twin_linked: bool = False,
) -> dict[int, float]:
    """Models hit by one scattering marker: Hit face 2/6, else an arrow (uniform direction) at 2D6 - BS.

    Twin-linked: with no Hit rolled, the scatter is re-rolled when its hits are below a fresh scatter's mean.
    """
    once = _scatter_outcomes(positions, aim, radius, base_mm, bs, edges)
    fresh = sum(p * k for p, _, k in once)
    out: dict[int, float] = defaultdict(float)
    for p, hit_face, k in once:
        if twin_linked and not hit_face and k < fresh:
            for p2, _, k2 in once:
                out[k2] += p * p2
        else:
            out[k] += p
    return dict(out)
