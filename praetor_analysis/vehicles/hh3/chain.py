"""Hits on an HH3 vehicle, exactly: penetration, saves, Damage, hull points and statuses (docs/rules-hh3.md#vehicles).

Each attack die (:class:`~praetor_analysis.vehicles.hh3.dice.DieOutcomes`) ends in one of five *kinds*: nothing,
a Glancing Hit, or a Penetrating Hit of one of three groups, resolved in this order (the groups a Fire Group is
split into): plain, Critical (its Armour-breaker roll inside), and Armour-breaker-improved. A Penetrating Hit then
takes one invulnerable or cover save (cover only when shooting), one Damage Mitigation Test, and removes its
Damage in hull points; the hull points lost are capped at those left (excess lost). Void Shields (X) take the
first X Penetrating Hits of a shooting attack as they are scored (before saves), in group order.

Method. With the number of dice fixed at ``n``, the kinds are a multinomial; the hull points lost are the
product of per-kind polynomials in ``x`` (``x^k``: k hull points), capped at the hull points left. The statuses
come from the same product with weights: a Glancing Hit's table roll avoids a set S of statuses with probability
1 - 2|S|/6, and Shock (X) gives none of S only when no die shows a natural 5 or 6 (if it names one of S), so
P(k hull points, no status of S) is the capped product with the glance weighted so and the 5-6 faces weighted by
0 (a generating function: exact, no enumeration of the glances); the exact set of statuses follows by inclusion
and exclusion over the 8 sets. Without Void Shields the product is one power; with them, a sum over the counts
of the three Penetrating groups (the shields used kept beside the hull points). Nothing is sampled.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from praetor_analysis.errors import PraetorError, show_value
from praetor_analysis.prob import BoundedMemo, Dist, binomial_matrix, p_at_least
from praetor_analysis.vehicles.hh3.dice import DieOutcomes

__all__ = [
    "DAMAGE_TABLE",
    "STATUSES",
    "STATUS_SETS",
    "HH3Vehicle",
    "HH3VehicleResult",
    "PenetratingAttack",
    "Status",
    "VolleyJoint",
    "apt_outcome",
    "resolve_vehicle_hh3",
    "save_passes",
    "volley_joint",
]

Status = Literal["Pinned", "Suppressed", "Stunned", "Routed"]
STATUSES: tuple[Status, ...] = ("Pinned", "Suppressed", "Stunned", "Routed")
#: The Vehicle Damage Table, one D6 per Glancing Hit: faces 1-2, 3-4, 5-6.
DAMAGE_TABLE: tuple[Status, ...] = ("Stunned", "Stunned", "Pinned", "Pinned", "Suppressed", "Suppressed")


@dataclass(frozen=True)
class HH3Vehicle:
    """A vehicle model as the hits meet it.

    Attributes:
        armour: the armour value of the facing hit (see :class:`~praetor_analysis.vehicles.hh3.facing.Armour`).
        hp: its Hull Points; ``hp_left`` those it has left (default all).
        invulnerable, cover: save target numbers (2..6) or None; cover counts only against shooting.
        feel_no_pain, shrouded: Damage Mitigation target numbers or None; Shrouded only against shooting.
        void_shields: shields up (each takes one Penetrating Hit of a shooting attack).
        glance_costs_hp: Super-heavy or Flyer: a Glancing Hit costs 1 hull point and rolls no table.
        explodes: Explodes (X): on being wrecked, a D6 of X or more explodes; None without the rule.
    """

    armour: int
    hp: int
    hp_left: int | None = None
    invulnerable: int | None = None
    cover: int | None = None
    feel_no_pain: int | None = None
    shrouded: int | None = None
    void_shields: int = 0
    glance_costs_hp: bool = False
    explodes: int | None = None

    def __post_init__(self) -> None:
        _whole("target.HP", self.hp, 1, 100)
        _whole("target.armour", self.armour, 0, 20)
        _whole("target.void_shields", self.void_shields, 0, 20)
        _whole("target.hp_left", self.left, 1, self.hp)
        for name in ("invulnerable", "cover", "feel_no_pain", "shrouded", "explodes"):
            value = getattr(self, name)
            if value is not None:
                _whole(f"target.{name}", value, 2, 7)

    @property
    def left(self) -> int:
        """Hull points left before the attack."""
        return self.hp if self.hp_left is None else self.hp_left


@dataclass(frozen=True)
class PenetratingAttack:
    """What the attack's hits bring to the Armour Penetration Test and after.

    Attributes:
        strength: the hits' Strength (RS, or S after SM in melee).
        damage: the distribution of the weapon's Damage (a number, or ``D3``... rolled per hit), Heavy and
            Ordnance already applied.
        armourbane: Armourbane (a roll equal to the armour penetrates; never glances).
        melta: within Melta (X) range: Armourbane, and Penetrating Hits do double Damage.
        armour_breaker: Armour-breaker (X): a Penetrating Hit's D6 of X or more adds 1 Damage.
        shooting: a shooting attack (cover, Shrouded and Void Shields act only then).
        damage_table: Glancing Hits roll the Vehicle Damage Table (False for reactions and Volley Attacks).
        shock: Shock (X): the statuses a natural 5 or 6 on any Hit Test gives (hit or miss; its value may name
            several).
        critical_vs_vehicle: ``"damage"`` (a Critical Hit makes a normal test, +1 Damage if it penetrates) or
            ``"wasted"`` (read literally: a Critical Hit is a wound, which a vehicle discards).
        apt_natural_one_fails: a natural 1 never glances or penetrates (the test's natural-1 rule).
    """

    strength: int
    damage: Dist = field(default_factory=lambda: Dist.point(1))
    armourbane: bool = False
    melta: bool = False
    armour_breaker: int | None = None
    shooting: bool = True
    damage_table: bool = True
    shock: tuple[Status, ...] = ()
    critical_vs_vehicle: Literal["damage", "wasted"] = "damage"
    apt_natural_one_fails: bool = True

    def __post_init__(self) -> None:
        _whole("weapon.strength", self.strength, 0, 40)
        if self.armour_breaker is not None:
            _whole("weapon.Armour-breaker", self.armour_breaker, 2, 7)
        if self.critical_vs_vehicle not in ("damage", "wasted"):
            raise PraetorError(
                f"options.critical_vs_vehicle: expected damage or wasted, got {show_value(self.critical_vs_vehicle)}",
                field="options.critical_vs_vehicle",
                value=self.critical_vs_vehicle,
            )


@dataclass(frozen=True)
class HH3VehicleResult:
    """The attack's outcome on one vehicle (docs/rules-hh3.md#vehicles).

    Attributes:
        hits, critical_hits: hits scored (critical ones among them).
        glancing, penetrating: Glancing and Penetrating Hits scored by the Armour Penetration Tests (before saves).
        hull_points: hull points lost (capped at those left).
        wrecked: P(no hull point left).
        explodes: P(wrecked and Explodes (X) triggers), None without the rule.
        statuses: P(the vehicle holds each status after the attack, not wrecked); None where nothing in the attack
            can cause it (a vehicle is never Routed).
    """

    hits: Dist
    critical_hits: Dist
    glancing: Dist
    penetrating: Dist
    hull_points: Dist
    wrecked: float
    explodes: float | None
    statuses: dict[str, float | None]


def _whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise PraetorError(
            f"{name}: expected a whole number {low}..{high}, got {show_value(value)}", field=name, value=value
        )


# --------------------------------------------------------------------------- one hit
def apt_outcome(strength: int, armour: int, *, armourbane: bool, natural_one_fails: bool) -> tuple[float, float]:
    """(P(Glancing Hit), P(Penetrating Hit)) of one Armour Penetration Test, D6 + S against ``armour``."""
    if armour == 0:
        return 0.0, 1.0
    glance = pen = 0
    for face in range(1, 7):
        if face == 1 and natural_one_fails:
            continue
        total = face + strength
        if total > armour or (total == armour and armourbane):
            pen += 1
        elif total == armour:
            glance += 1
    return glance / 6.0, pen / 6.0


def save_passes(target: int | None) -> float:
    """P(a save or mitigation roll of ``target``+ passes); a natural 1 always fails, None never passes."""
    if target is None:
        return 0.0
    return p_at_least(max(int(target), 2))


def _damage_poly(attack: PenetratingAttack, bonus: int) -> np.ndarray:
    """pmf of one unsaved Penetrating Hit's Damage: (D x2 under Melta) + ``bonus``."""
    base = attack.damage.probabilities
    mult = 2 if attack.melta else 1
    out = np.zeros(mult * (base.size - 1) + bonus + 1)
    for d, p in enumerate(base):
        if p > 0.0 and d > 0:
            out[mult * d + bonus] += p
        elif p > 0.0:
            out[0] += p  # Damage 0 does nothing
    return out


def _kinds(die: DieOutcomes, vehicle: HH3Vehicle, attack: PenetratingAttack) -> list[tuple[float, bool, str]]:
    """(probability, natural 5-6, kind) per way one die ends; kind in n, g, u, c, a."""
    bane = attack.armourbane or attack.melta
    p_g, p_p = apt_outcome(
        attack.strength, vehicle.armour, armourbane=bane, natural_one_fails=attack.apt_natural_one_fails
    )
    p_ab = 0.0 if attack.armour_breaker is None else p_at_least(attack.armour_breaker)
    out: list[tuple[float, bool, str]] = []
    for o in die.outcomes:
        if o.hit == "none" or (o.hit == "critical" and attack.critical_vs_vehicle == "wasted"):
            out.append((o.p, o.shock_face, "n"))
            continue
        out.append((o.p * (1.0 - p_g - p_p), o.shock_face, "n"))
        out.append((o.p * p_g, o.shock_face, "g"))
        if o.hit == "critical":
            out.append((o.p * p_p, o.shock_face, "c"))
        else:
            out.append((o.p * p_p * (1.0 - p_ab), o.shock_face, "u"))
            out.append((o.p * p_p * p_ab, o.shock_face, "a"))
    return out


def _pen_polys(vehicle: HH3Vehicle, attack: PenetratingAttack) -> dict[str, np.ndarray]:
    """Per Penetrating group, the pmf of hull points one such hit removes (0 when saved or mitigated)."""
    save = vehicle.invulnerable
    if attack.shooting and vehicle.cover is not None:
        save = vehicle.cover if save is None else min(save, vehicle.cover)
    mitigation = vehicle.feel_no_pain
    if attack.shooting and vehicle.shrouded is not None:
        mitigation = vehicle.shrouded if mitigation is None else min(mitigation, vehicle.shrouded)
    through = (1.0 - save_passes(save)) * (1.0 - save_passes(mitigation))
    p_ab = 0.0 if attack.armour_breaker is None else p_at_least(attack.armour_breaker)

    def unsaved(dmg: np.ndarray) -> np.ndarray:
        out = through * dmg
        out[0] += 1.0 - through
        return out

    crit = _pad_add((1.0 - p_ab) * _damage_poly(attack, 1), p_ab * _damage_poly(attack, 2))
    return {"u": unsaved(_damage_poly(attack, 0)), "c": unsaved(crit), "a": unsaved(_damage_poly(attack, 1))}


def _pad_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros(max(a.size, b.size))
    out[: a.size] += a
    out[: b.size] += b
    return out


# --------------------------------------------------------------------------- capped polynomials
def _cap(poly: np.ndarray, top: int) -> np.ndarray:
    """``poly`` with every power above ``top`` folded into ``top`` (hull points lost are capped)."""
    if poly.size <= top + 1:
        out = np.zeros(top + 1)
        out[: poly.size] = poly
        return out
    out = poly[: top + 1].copy()
    out[top] += poly[top + 1 :].sum()
    return out


def _times(a: np.ndarray, b: np.ndarray, top: int) -> np.ndarray:
    return _cap(np.convolve(a, b), top)


def _powers(poly: np.ndarray, n: int, top: int) -> list[np.ndarray]:
    out = [_cap(np.ones(1), top)]
    base = _cap(poly, top)
    for _ in range(n):
        out.append(_times(out[-1], base, top))
    return out


def _hull_poly(
    weights: tuple[float, float, float, float, float],
    polys: dict[str, np.ndarray],
    n: int,
    shields: int,
    top: int,
    glance: np.ndarray,
) -> np.ndarray:
    """The capped hull-point polynomial of ``n`` dice, each kind (n, g, u, c, a) weighted by ``weights`` (see
    :func:`_weights`: sub-probabilities when a status is avoided): ``out[k, u]``, k hull points lost and u void
    shields used."""
    w = dict(zip("nguca", weights, strict=True))
    rest = _pad_add(np.array([w["n"]]), w["g"] * glance)
    if shields == 0 or n == 0:
        one = rest
        for kind in "uca":
            one = _pad_add(one, w[kind] * polys[kind])
        out = np.zeros((top + 1, shields + 1))
        out[:, 0] = _cap_power(one, n, top)
        return out
    pu, pc, pa, pr = (_powers(p, n, top) for p in (polys["u"], polys["c"], polys["a"], rest))
    out = np.zeros((top + 1, shields + 1))
    for nu in range(n + 1):
        for nc in range(n - nu + 1):
            for na in range(n - nu - nc + 1):
                m = n - nu - nc - na
                ways = math.comb(n, nu) * math.comb(n - nu, nc) * math.comb(n - nu - nc, na)
                mass = ways * w["u"] ** nu * w["c"] ** nc * w["a"] ** na
                if mass == 0.0:
                    continue
                left = shields  # the shields take plain hits first, then critical, then improved ones
                ku = max(nu - left, 0)
                left = max(left - nu, 0)
                kc = max(nc - left, 0)
                left = max(left - nc, 0)
                ka = max(na - left, 0)
                poly = _times(_times(pu[ku], pc[kc], top), _times(pa[ka], pr[m], top), top)
                out[:, min(nu + nc + na, shields)] += mass * poly
    return out


def _cap_power(poly: np.ndarray, n: int, top: int) -> np.ndarray:
    """``poly ** n`` capped at ``top`` (repeated squaring)."""
    result = _cap(np.ones(1), top)
    base = _cap(poly, top)
    while n:
        if n & 1:
            result = _times(result, base, top)
        n >>= 1
        if n:
            base = _times(base, base, top)
    return result


# --------------------------------------------------------------------------- the attack
def resolve_vehicle_hh3(
    dice: Dist | int, die: DieOutcomes, vehicle: HH3Vehicle, attack: PenetratingAttack
) -> HH3VehicleResult:
    """The exact outcome of ``dice`` independent attack dice (a count or its distribution) on one vehicle."""
    joint = volley_joint(dice, die, vehicle, attack)
    top = vehicle.left
    lost = sum(table.sum(axis=1) for table in joint.table.values())
    hull = Dist.from_trusted(np.asarray(lost))
    wrecked = float(hull.pmf(top))
    statuses: dict[str, float | None] = dict.fromkeys(STATUSES)
    for s, can in joint.causes.items():
        if can:
            held = sum(float(table[:top].sum()) for given, table in joint.table.items() if s in given)
            statuses[s] = min(max(held, 0.0), 1.0)
    return HH3VehicleResult(
        hits=joint.counts["hits"],
        critical_hits=joint.counts["critical_hits"],
        glancing=joint.counts["glancing"],
        penetrating=joint.counts["penetrating"],
        hull_points=hull,
        wrecked=wrecked,
        explodes=None if vehicle.explodes is None else wrecked * p_at_least(vehicle.explodes),
        statuses=statuses,
    )


@dataclass(frozen=True)
class VolleyJoint:
    """One volley's outcome on a vehicle in a given state, jointly.

    Attributes:
        exact: ``exact[i, k, u]`` = P(k hull points lost, u void shields used, the statuses it gives exactly the
            set ``STATUS_SETS[i]``); hull points capped at those left (read-only: the joint is shared).
        causes: per status, whether the volley can give it at all.
        counts: ``hits``, ``critical_hits``, ``glancing``, ``penetrating`` distributions.
    """

    exact: np.ndarray
    causes: dict[str, bool]
    counts: dict[str, Dist]

    @property
    def table(self) -> dict[frozenset[str], np.ndarray]:
        """``table[A][k, u]``: :attr:`exact` by set of statuses."""
        return dict(zip(STATUS_SETS, self.exact, strict=True))


_TABLE_STATUSES: tuple[str, ...] = ("Pinned", "Suppressed", "Stunned")
#: Every set of the statuses a volley gives (the Damage Table's and Shock's), the order of ``VolleyJoint.exact``.
STATUS_SETS: tuple[frozenset[str], ...] = tuple(
    frozenset(subset) for r in range(len(_TABLE_STATUSES) + 1) for subset in itertools.combinations(_TABLE_STATUSES, r)
)


def volley_joint(dice: Dist | int, die: DieOutcomes, vehicle: HH3Vehicle, attack: PenetratingAttack) -> VolleyJoint:
    """The joint outcome of one volley (see :class:`VolleyJoint`). For each set S of statuses, weighting a glance
    by P(its table roll gives none of S) and a natural 5-6 by 0 when Shock gives one of S yields P(k, u, no status
    of S); the exact sets follow by inclusion and exclusion over the 8 subsets. Memoised on the frozen records
    (the result is shared: read it, never change it)."""
    return _JOINTS.get((dice, die, vehicle, attack), lambda: _volley_joint(dice, die, vehicle, attack))


_JOINTS: BoundedMemo[VolleyJoint] = BoundedMemo(2048)


def _volley_joint(dice: Dist | int, die: DieOutcomes, vehicle: HH3Vehicle, attack: PenetratingAttack) -> VolleyJoint:
    counts = Dist.point(dice) if isinstance(dice, int) else dice
    top = vehicle.left
    kinds = _kinds(die, vehicle, attack)
    polys = _pen_polys(vehicle, attack)
    glance = np.array([0.0, 1.0]) if vehicle.glance_costs_hp else np.array([1.0])
    shields = vehicle.void_shields if attack.shooting else 0
    table = attack.damage_table and not vehicle.glance_costs_hp
    p_glance = sum(p for p, _, k in kinds if k == "g")
    causes = {s: (table and p_glance > 0.0) or s in attack.shock for s in _TABLE_STATUSES}
    # Each set S of statuses avoided weighs the dice's kinds; sets of equal weights share one polynomial.
    shock = set(attack.shock)
    zs = [(1.0 - 2.0 * len(hit_by) / 6.0 if table else 1.0, 0.0 if hit_by & shock else 1.0) for hit_by in STATUS_SETS]
    by_z = {z: _weights(kinds, *z) for z in dict.fromkeys(zs)}  # (glance weight, shock weight) -> kind weights
    weights = [by_z[z] for z in zs]
    distinct = list(dict.fromkeys(weights))
    if shields == 0:
        sums = _power_sums(np.array(distinct), polys, glance, counts.probabilities, top)[:, :, None]
    else:
        sums = np.array([_shielded_sum(w, polys, glance, counts, shields, top) for w in distinct])
    avoid = sums[[distinct.index(w) for w in weights]]  # (8 sets, hull points, shields used)
    # The exact sets by inclusion and exclusion over the 8 subsets, as one signed sum.
    exact = np.clip((_INCLUSION @ avoid.reshape(len(STATUS_SETS), -1)).reshape(avoid.shape), 0.0, None)
    exact.flags.writeable = False  # memoised: shared by every caller
    per_die = {k: sum(p for p, _, kk in kinds if kk in k) for k in ("g", "uca")}
    per_hit = [1.0 - die.p_hit("none"), die.p_hit("critical"), per_die["g"], per_die["uca"]]
    names = ("hits", "critical_hits", "glancing", "penetrating")
    tallies = dict(zip(names, _binomial_mixtures(counts, per_hit), strict=True))
    return VolleyJoint(exact, causes, tallies)


def _inclusion() -> np.ndarray:
    """``out[i, j]``: the sign of the table avoiding ``STATUS_SETS[j]`` in the exact set ``STATUS_SETS[i]`` (P(exactly
    E) = sum over parts P of E of (-1)^(|E|-|P|) P(none of everything - P)), 0 where it has no part."""
    everything = frozenset(_TABLE_STATUSES)
    out = np.zeros((len(STATUS_SETS), len(STATUS_SETS)))
    for i, exact in enumerate(STATUS_SETS):
        for j, avoided in enumerate(STATUS_SETS):
            part = everything - avoided
            if part <= exact:
                out[i, j] = (-1.0) ** (len(exact) - len(part))
    return out


_INCLUSION = _inclusion()

_Weights = tuple[float, float, float, float, float]


def _weights(kinds: list[tuple[float, bool, str]], z_glance: float, z_shock: float) -> _Weights:
    """The weight of each kind of die (n, g, u, c, a), glances weighted by ``z_glance`` and dice with a natural 5-6
    by ``z_shock``."""
    w = {"n": 0.0, "g": 0.0, "u": 0.0, "c": 0.0, "a": 0.0}
    for p, face56, kind in kinds:
        w[kind] += p * (z_shock if face56 else 1.0) * (z_glance if kind == "g" else 1.0)
    return (w["n"], w["g"], w["u"], w["c"], w["a"])


def _capped_matrices(base: np.ndarray, top: int) -> np.ndarray:
    """Per row of ``base`` (one die's capped polynomial), the matrix of multiplying by it, powers above ``top``
    folded into ``top``: ``out[p] @ v`` is ``_times(v, base[p], top)``."""
    size = top + 1
    shift = np.subtract.outer(np.arange(size), np.arange(size))  # i - j
    out = np.where(shift >= 0, base[:, np.clip(shift, 0, None)], 0.0)
    tail = np.cumsum(base[:, ::-1], axis=1)[:, ::-1]  # tail[p, d] = sum of base[p, d:]
    out[:, top, :] = tail[:, top - np.arange(size)]
    return out


def _power_sums(
    weights: np.ndarray, polys: dict[str, np.ndarray], glance: np.ndarray, counts: np.ndarray, top: int
) -> np.ndarray:
    """Without Void Shields: per row of ``weights`` (n, g, u, c, a), sum over n of P(n dice) times the capped n-th
    power of one die's polynomial (``out[p, k]``: k hull points lost), every row at once, one power after
    another."""
    one = np.zeros((len(weights), top + 1))
    one[:, 0] = weights[:, 0]
    for column, poly in ((1, glance), (2, polys["u"]), (3, polys["c"]), (4, polys["a"])):
        capped = _cap(poly, top)
        one += weights[:, column, None] * capped[None, :]
    step = _capped_matrices(one, top).transpose(0, 2, 1)  # rows: power @ step[p] is one more die
    power = np.zeros((len(weights), 1, top + 1))
    power[:, 0, 0] = 1.0
    out = counts[0] * power
    for q in counts[1:]:
        power = power @ step
        if q > 0.0:
            out += q * power
    return out[:, 0]


def _shielded_sum(
    w: _Weights, polys: dict[str, np.ndarray], glance: np.ndarray, counts: Dist, shields: int, top: int
) -> np.ndarray:
    """With Void Shields: sum over n of P(n dice) times the capped polynomial of n dice weighted by ``w``
    (``out[k, u]``: k hull points lost, u shields used)."""
    total = np.zeros((top + 1, shields + 1))
    for n, q in enumerate(counts.probabilities):
        if q > 0.0:
            total += q * _hull_poly(w, polys, n, shields, top, glance)
    return total


def _binomial_mixtures(counts: Dist, ps: list[float]) -> list[Dist]:
    """Per p of ``ps``, the number of successes of ``counts`` dice each succeeding with p: sum over n of P(n dice)
    times Binomial(n, p), one product with the binomial matrix of each p."""
    q = counts.probabilities
    rows = np.array([q @ binomial_matrix(q.size - 1, min(max(p, 0.0), 1.0)) for p in ps])
    return Dist.from_trusted_rows(rows)
