"""The brute-force reading of MECHANICS.md (2nd edition) in space: vehicles (section 8) and blast markers
scattering over fixed models (section 6). Written from the contract alone, like ``hh2_brute``."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from tests.hh2_brute import D6, Dist, Shooter, add, d3_of, dice, hit_outcomes

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
