"""An independent reading of the 3rd-edition contract, die by die, for `test_hh3_independent*.py`.

Written from MECHANICS-HH3 and SCENARIO's Edition 3 section alone, without reading the engine's chain or its
oracle: a second reading of the same text. Each attack die is expanded into its outcome classes (one
``itertools.product`` over its hit, wound, save, mitigation and damage dice, exact ``Fraction``s), then every
combination of the attacks' outcomes (a product over the attacks, so kept to a few dice) is played out wound by
wound on the target unit in the contract's order (unchanged wounds first, then set-aside groups as created), and
the statuses follow from the Checks. Vehicles and whole rounds of melee have their own small enumerations.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import pytest

from praetor_analysis.scenario.calc import calc

D6 = range(1, 7)


SIXTH = Fraction(1, 6)


TOL = 1e-12


# --- Dice, Tests and Checks (section 1) -------------------------------------------------------------------


def check_pass(target: int) -> Fraction:
    """P(a 2D6 Check passes at `target`): total <= t, double 1 passes, double 6 fails, t <= 0 fails unrolled."""
    if target <= 0:
        return Fraction(0)
    good = 0
    for a, b in itertools.product(D6, D6):
        if (a, b) == (1, 1):
            good += 1
        elif (a, b) == (6, 6):
            continue
        elif a + b <= target:
            good += 1
    return Fraction(good, 36)


def bs_row(bs: int, snap: bool) -> tuple[int | None, int | None]:
    """(hit target, crit threshold); None target = no hit possible; target 0 = automatic."""
    if snap:
        table = {1: None, 2: 6, 3: 6, 4: 5, 5: 5, 6: 4, 7: 4, 8: 3, 9: 3, 10: 2}
        return table[min(bs, 10)], None
    if bs >= 10:
        return 0, 1
    return {1: 6, 2: 5, 3: 4, 4: 3, 5: 2, 6: 2, 7: 2, 8: 2, 9: 2}[bs], {6: 6, 7: 5, 8: 4, 9: 3}.get(bs)


WS_TABLE = {
    1: [4, 6, 6, 6, 6, 6, 6, 6, 6, 6],
    2: [2, 4, 5, 6, 6, 6, 6, 6, 6, 6],
    3: [2, 3, 4, 5, 5, 6, 6, 6, 6, 6],
    4: [2, 2, 3, 4, 5, 5, 5, 6, 6, 6],
    5: [2, 2, 3, 3, 4, 5, 5, 5, 5, 6],
    6: [2, 2, 2, 3, 3, 4, 5, 5, 5, 5],
    7: [2, 2, 2, 3, 3, 3, 4, 5, 5, 5],
    8: [2, 2, 2, 2, 3, 3, 3, 4, 5, 5],
    9: [2, 2, 2, 2, 3, 3, 3, 3, 4, 5],
    10: [2, 2, 2, 2, 3, 3, 3, 3, 3, 4],
}


def wound_target(s: int, t: int) -> int | None:
    """Section 5's formula on values capped at 10; None = no wound; 1 = always (T 0)."""
    s, t = min(s, 10), min(t, 10)
    if t == 0:
        return 1
    if s == 0:
        return None
    diff = s - t
    if diff >= 2:
        return 2
    if diff == 1:
        return 3
    if diff == 0:
        return 4
    if diff == -1:
        return 5
    if diff in (-2, -3):
        return 6
    return None


def save_target(sav: int | None, inv: int | None, cover: int | None, ap: int | None) -> int | None:
    """The best save available (the lowest target number), or None."""
    options = []
    if sav is not None and (ap is None or ap > sav):
        options.append(sav)
    for other in (inv, cover):
        if other is not None:
            options.append(other)
    return min(options) if options else None


def passes(roll: int, target: int | None) -> bool:
    """A Test: natural 1 fails, else roll >= target."""
    return target is not None and roll != 1 and roll >= target


# --- One attack die into outcome classes ------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    s: int
    ap: int | None
    d: int | str = 1  # an int or "D3"
    crit: int | None = None  # Critical Hit (X)
    rending: int | None = None
    breaching: int | None = None
    shred: int | None = None
    poisoned: int | None = None
    deflagrate: int | None = None
    melta: bool = False  # Melta (X) in range
    armourbane: bool = False


@dataclass(frozen=True)
class Target:
    t: int = 4
    w: int = 1
    models: int = 1
    sav: int | None = 3
    inv: int | None = None
    cover: int | None = None
    fnp: int | None = None
    ew: int = 0  # Eternal Warrior (X)


@dataclass(frozen=True)
class Outcome:
    """What one attack die did: the counts it adds and its wounds to apply (group, damage)."""

    hit: int = 0
    crit: int = 0
    wound: int = 0
    unsaved: int = 0
    shock: int = 0  # a natural 5-6 on the hit die
    applied: tuple[tuple[int, int], ...] = ()  # (group rank, damage) per unsaved wound
    # vehicles
    glance: int = 0
    pen: int = 0


def damage_faces(d: int | str) -> list[tuple[int, Fraction]]:
    if d == "D3":
        return [(f, Fraction(1, 3)) for f in (1, 2, 3)]
    return [(int(d), Fraction(1))]


def final_damage(base: int, *, crit: bool, shred: bool, ew: int, melta: bool = False) -> int:
    value = base * (2 if melta else 1) + int(crit) + int(shred)
    return max(1, value - ew) if ew else value


def hit_classes(bs_target: int | None, crit_band: int | None, wpn: Weapon, ws: tuple[int, int] | None):
    """[(prob, hit, crit, rending, natural_for_shock)] for one hit die."""
    out = []
    if ws is not None:
        target: int | None = WS_TABLE[ws[0]][min(max(ws[1], 1), 10) - 1]
        crit_band = None
    else:
        target = bs_target
    if target == 0:  # automatic: a natural 6 and critical
        return [(Fraction(1), True, True, False, 6)]
    for roll in D6:
        hit = passes(roll, target)
        crit = hit and ((crit_band is not None and roll >= crit_band) or (wpn.crit is not None and roll >= wpn.crit))
        rend = hit and not crit and wpn.rending is not None and roll >= wpn.rending
        out.append((SIXTH, hit, crit, rend, roll))
    return out


def attack_outcomes(
    wpn: Weapon,
    tgt: Target,
    *,
    bs: int = 4,
    snap: bool = False,
    ws: tuple[int, int] | None = None,
    shooting: bool = True,
    given_hit: bool = False,
) -> dict[Outcome, Fraction]:
    bs_target, band = bs_row(bs, snap)
    dist: dict[Outcome, Fraction] = defaultdict(Fraction)
    classes = [(Fraction(1), True, False, False, 0)] if given_hit else hit_classes(bs_target, band, wpn, ws)
    cover = tgt.cover if shooting else None
    for p_hit, hit, crit, rend, natural in classes:
        shock = int(natural >= 5) if not given_hit else 0
        if not hit:
            dist[Outcome(shock=shock)] += p_hit
            continue
        wound_rolls: list[tuple[Fraction, int | None]]
        if crit or rend or wound_target(wpn.s, tgt.t) == 1:
            # automatic, as a natural 6 (T 0: "variable rules count as triggered", section 5)
            wound_rolls = [(Fraction(1), 6)]
        else:
            wound_rolls = [(SIXTH, r) for r in D6]
        for p_w, roll in wound_rolls:
            if crit or rend or wound_target(wpn.s, tgt.t) == 1:
                wounded = True
            else:
                assert roll is not None
                wounded = passes(roll, wound_target(wpn.s, tgt.t)) or (
                    wpn.poisoned is not None and roll >= wpn.poisoned and roll != 1
                )
            if not wounded:
                dist[Outcome(hit=1, crit=int(crit), shock=shock)] += p_hit * p_w
                continue
            breach = wpn.breaching is not None and roll is not None and roll >= wpn.breaching
            shred = wpn.shred is not None and roll is not None and roll >= wpn.shred
            ap = 2 if breach and (wpn.ap is None or wpn.ap > 2) else wpn.ap
            rank = 1 if crit else 2 if rend else 5 if breach and shred else 3 if breach else 4 if shred else 0
            sv = save_target(tgt.sav, tgt.inv, cover, ap)
            for save_roll, fnp_roll in itertools.product(D6, D6):
                p = p_hit * p_w * SIXTH * SIXTH
                saved = passes(save_roll, sv) or passes(fnp_roll, tgt.fnp)
                if saved:
                    dist[Outcome(hit=1, crit=int(crit), wound=1, shock=shock)] += p
                    continue
                for dmg, p_d in damage_faces(wpn.d):
                    dealt = final_damage(dmg, crit=crit, shred=shred, ew=tgt.ew)
                    applied: tuple[tuple[int, int], ...] = ((rank, dealt),)
                    if wpn.deflagrate is not None:  # one S X, AP -, D1 hit per unsaved wound, resolved next
                        for dr, ds, df in itertools.product(D6, D6, D6):
                            q = SIXTH**3
                            stopped = (
                                not passes(dr, wound_target(wpn.deflagrate, tgt.t))
                                or passes(ds, save_target(tgt.sav, tgt.inv, cover, None))
                                or passes(df, tgt.fnp)
                            )
                            if stopped:
                                o = Outcome(1, int(crit), 1, 1, shock, applied)
                            else:  # Damage 1, never below 1 under Eternal Warrior
                                o = Outcome(1, int(crit), 1, 2, shock, (*applied, (rank, 1)))
                            dist[o] += p * p_d * q
                        continue
                    dist[Outcome(1, int(crit), 1, 1, shock, applied)] += p * p_d
    return dict(dist)


# --- Playing a set of attack outcomes out on the unit -------------------------------------------------------


def apply_wounds(models: int, w: int, damaged: int, wounds: list[tuple[int, int]]) -> tuple[int, int, int]:
    """(models left, wounds lost on the damaged model, damage dealt); excess on a dying model is lost."""
    dealt = 0
    for _, dmg in wounds:
        if models == 0:
            break
        left = w - damaged
        take = min(dmg, left)
        dealt += take
        if take == left:
            models, damaged = models - 1, 0
        else:
            damaged += take
    return models, damaged, dealt


@dataclass
class Dists:
    fields: dict[str, dict[int, Fraction]] = field(default_factory=dict)
    statuses: dict[str, Fraction] = field(default_factory=dict)

    def add(self, name: str, value: int, p: Fraction) -> None:
        self.fields.setdefault(name, defaultdict(Fraction))[value] += p


@dataclass(frozen=True)
class Morale:
    ld: int = 7
    cl: int = 7
    pinning: int | None = None
    suppressive: int | None = None
    stun: int | None = None
    panic: int | None = None
    heavy: bool = False


def status_probs(morale: Morale, left: int, start: int, any_hit: bool, any_wound: bool, casualties: int):
    """P(each status) given one outcome of the attack (section 14)."""
    if left == 0:
        return {"Pinned": 0, "Suppressed": 0, "Stunned": 0, "Routed": Fraction(0)}
    routed_mods = []
    if casualties >= math.ceil(start / 4):
        routed_mods.append(0)
    if morale.panic is not None and any_wound:
        routed_mods.append(morale.panic)
    p_routed = 1 - check_pass(morale.ld - max(routed_mods)) if routed_mods else Fraction(0)
    bonus = 1 if morale.heavy else 0
    result = {"Routed": p_routed}
    for name, x, trig in (
        ("Pinned", morale.pinning, any_wound),
        ("Suppressed", morale.suppressive, any_hit),
        ("Stunned", morale.stun, any_hit),
    ):
        result[name] = (1 - p_routed) * (1 - check_pass(morale.cl + bonus - x)) if x is not None and trig else 0
    return result


def _created(wound: tuple[int, int]) -> tuple[int, ...]:
    return (wound[0],)


def _largest_first(wound: tuple[int, int]) -> tuple[int, ...]:
    """Unchanged wounds first, then set-aside groups by their (fixed) Damage, largest first; ties as created."""
    rank, dmg = wound
    return (0, 0, 0) if rank == 0 else (1, -dmg, rank)


def play(
    per_attack: list[dict[Outcome, Fraction]], tgt: Target, morale: Morale | None, *, largest_first: bool = False
) -> Dists:
    out = Dists()
    for combo in itertools.product(*[list(d.items()) for d in per_attack]):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        outs = [o for o, _ in combo]
        wounds = sorted((w for o in outs for w in o.applied), key=_largest_first if largest_first else _created)
        left, _, dealt = apply_wounds(tgt.models, tgt.w, 0, wounds)
        hits = sum(o.hit for o in outs)
        wnds = sum(o.wound for o in outs)
        for name, value in (
            ("hits", hits),
            ("critical_hits", sum(o.crit for o in outs)),
            ("wounds", wnds),
            ("unsaved", sum(o.unsaved for o in outs)),
            ("damage", dealt),
            ("casualties", tgt.models - left),
        ):
            out.add(name, value, p)
        if morale is not None:
            for name, q in status_probs(morale, left, tgt.models, hits > 0, wnds > 0, tgt.models - left).items():
                out.statuses[name] = out.statuses.get(name, Fraction(0)) + p * q
    return out


def mixture(parts: list[tuple[Fraction, Dists]]) -> Dists:
    """The distributions of a weighted mixture of cases (weights summing to 1)."""
    out = Dists()
    for weight, part in parts:
        for name, dist in part.fields.items():
            for value, q in dist.items():
                out.add(name, value, weight * q)
    return out


# --- Comparing with the engine ------------------------------------------------------------------------------


def as_pmf(dist: dict[int, Fraction]) -> list[float]:
    top = max((k for k, v in dist.items() if v), default=0)
    return [float(dist.get(k, 0)) for k in range(top + 1)]


def assert_dist(got: Any, want: dict[int, Fraction], name: str) -> None:
    assert got is not None, name
    pmf = list(got["pmf"])
    exp = as_pmf(want)
    while len(pmf) > len(exp) and abs(pmf[-1]) < TOL:
        pmf.pop()
    assert len(pmf) == len(exp), (name, pmf, exp)
    for g, e in zip(pmf, exp, strict=True):
        assert g == pytest.approx(e, abs=TOL), (name, pmf, exp)
    mean = sum(k * v for k, v in want.items())
    assert got["mean"] == pytest.approx(float(mean), abs=TOL), name


def assert_result(res: dict[str, Any], want: Dists, statuses: dict[str, Fraction | None] | None = None) -> None:
    for name, dist in want.fields.items():
        assert_dist(res[name], dist, name)
    if statuses is not None:
        for name, value in statuses.items():
            got = res["statuses"][name]
            if value is None:
                assert got is None, (name, got)
            else:
                assert got == pytest.approx(float(value), abs=TOL), (name, got, float(value))


# --- Scenario documents -------------------------------------------------------------------------------------


def shooting_doc(weapon: dict[str, Any], target: dict[str, Any], **extra: Any) -> dict[str, Any]:
    base_weapon = {"name": "Gun", "R": 24, "FP": 1, "RS": 4, "AP": "-", "D": 1, "Special Rules": "", "Traits": ""}
    base_target = {
        "name": "Foe",
        "Type": "Infantry",
        "models": 1,
        "WS": 4,
        "T": 4,
        "W": 1,
        "I": 4,
        "LD": 7,
        "CL": 7,
        "SAV": "3+",
        "INV": "-",
    }
    doc = {
        "edition": "hh3",
        "attacker": {"BS": 4, "models": 1},
        "weapon": {**base_weapon, **weapon},
        "target": {**base_target, **target},
    }
    attacker = extra.pop("attacker", {})
    doc["attacker"] = {**doc["attacker"], **attacker}
    doc.update(extra)
    return doc


def run(doc: dict[str, Any]) -> dict[str, Any]:
    return dict(calc(doc))


def expect_statuses(want: Dists, morale: Morale) -> dict[str, Fraction | None]:
    out: dict[str, Fraction | None] = {"Routed": want.statuses["Routed"]}
    for name, x in (("Pinned", morale.pinning), ("Suppressed", morale.suppressive), ("Stunned", morale.stun)):
        out[name] = want.statuses[name] if x is not None else None
    return out


def shoot_case(
    wpn: Weapon,
    tgt: Target,
    attacks: int,
    *,
    bs: int = 4,
    snap: bool = False,
    morale: Morale | None = None,
    given_hits: bool = False,
) -> Dists:
    per = attack_outcomes(wpn, tgt, bs=bs, snap=snap, given_hit=given_hits)
    return play([per] * attacks, tgt, morale or Morale())


# --- Vehicles (section 9) --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class VOutcome:
    hit: int = 0
    crit: int = 0
    glance: int = 0
    pen: int = 0
    shock: int = 0
    damage: int = 0


def vehicle_outcomes(
    wpn: Weapon, armour: int, *, bs: int = 4, inv: int | None = None, cover: int | None = None, fnp: int | None = None
) -> dict[VOutcome, Fraction]:
    bs_target, band = bs_row(bs, False)
    dist: dict[VOutcome, Fraction] = defaultdict(Fraction)
    for p_hit, hit, crit, _rend, natural in hit_classes(bs_target, band, wpn, None):
        shock = int(natural >= 5)
        if not hit:
            dist[VOutcome(shock=shock)] += p_hit
            continue
        for roll in D6:
            p = p_hit * SIXTH
            total = roll + wpn.s
            if roll == 1 or total < armour or (total == armour and not wpn.armourbane):
                kind = "glance" if roll != 1 and total == armour else "none"
            else:
                kind = "pen"
            if kind != "pen":
                dist[VOutcome(1, int(crit), int(kind == "glance"), 0, shock)] += p
                continue
            sv = save_target(None, inv, cover, None)
            for s_roll, f_roll in itertools.product(D6, D6):
                q = p * SIXTH * SIXTH
                if passes(s_roll, sv) or passes(f_roll, fnp):
                    dist[VOutcome(1, int(crit), 0, 1, shock)] += q
                    continue
                for dmg, p_d in damage_faces(wpn.d):
                    dealt = final_damage(dmg, crit=crit, shred=False, ew=0, melta=wpn.melta)
                    dist[VOutcome(1, int(crit), 0, 1, shock, dealt)] += q * p_d
    return dict(dist)


def vehicle_play(per: dict[VOutcome, Fraction], n: int, hp: int, shock_status: str | None) -> Dists:
    out = Dists()
    glance_keeps = {"Stunned": Fraction(2, 3), "Pinned": Fraction(2, 3), "Suppressed": Fraction(2, 3)}
    for combo in itertools.product(list(per.items()), repeat=n):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        outs = [o for o, _ in combo]
        lost = min(hp, sum(o.damage for o in outs))
        glances = sum(o.glance for o in outs)
        for name, value in (
            ("hits", sum(o.hit for o in outs)),
            ("critical_hits", sum(o.crit for o in outs)),
            ("glancing", glances),
            ("penetrating", sum(o.pen for o in outs)),
            ("hull_points", lost),
        ):
            out.add(name, value, p)
        wrecked = lost >= hp
        out.statuses["wrecked"] = out.statuses.get("wrecked", Fraction(0)) + (p if wrecked else 0)
        shocked = any(o.shock for o in outs)
        for name, keep in glance_keeps.items():
            if wrecked:
                q = Fraction(0)
            elif shock_status == name and shocked:
                q = Fraction(1)
            else:
                q = 1 - keep**glances
            out.statuses[name] = out.statuses.get(name, Fraction(0)) + p * q
    return out


def vehicle_doc(weapon: dict[str, Any], target: dict[str, Any], **extra: Any) -> dict[str, Any]:
    base = {
        "name": "Tank",
        "Type": "Vehicle",
        "M": 10,
        "BS": 4,
        "Front Armour": 10,
        "Side Armour": 10,
        "Rear Armour": 10,
        "HP": 3,
    }
    doc = shooting_doc(weapon, {}, **extra)
    doc["target"] = {**base, **target}
    return doc


# --- Melee (sections 10 and 13) ----------------------------------------------------------------------------------


def melee_weapon(name: str = "Blade", **over: Any) -> dict[str, Any]:
    """A melee profile: the model's own I, A and S, AP -, D 1, no rules, with ``over`` on top."""
    base = {"name": name, "IM": "I", "AM": "A", "SM": "S", "AP": "-", "D": 1, "Special Rules": "", "Traits": ""}
    return {**base, **over}


def melee_vehicle(rear: int) -> dict[str, Any]:
    """A vehicle target block for melee (Front 12, Side 11, ``rear``, HP 3)."""
    return {"name": "Tank", "Type": "Vehicle", "M": 10, "BS": 4, "Front Armour": 12, "Side Armour": 11,
            "Rear Armour": rear, "HP": 3}  # fmt: skip


def melee_doc(weapon: dict[str, Any], target: dict[str, Any], attacker: dict[str, Any], **extra: Any) -> dict[str, Any]:
    base_weapon = melee_weapon()
    base_target = {
        "name": "Foe",
        "Type": "Infantry",
        "models": 2,
        "WS": 4,
        "T": 4,
        "W": 1,
        "I": 4,
        "LD": 7,
        "CL": 7,
        "SAV": "3+",
        "INV": "-",
        "S": 4,
        "A": 1,
        "M": 7,
        "BS": 4,
    }
    base_attacker = {
        "name": "Us",
        "Type": "Infantry",
        "models": 2,
        "WS": 4,
        "BS": 4,
        "S": 4,
        "A": 1,
        "I": 4,
        "T": 4,
        "W": 1,
        "LD": 7,
        "CL": 7,
        "SAV": "3+",
        "INV": "-",
        "M": 7,
    }
    return {
        "edition": "hh3",
        "mode": "melee",
        "attacker": {**base_attacker, **attacker},
        "weapon": {**base_weapon, **weapon},
        "target": {**base_target, **target},
        **extra,
    }


@dataclass(frozen=True)
class Side:
    models: int
    per_model: int  # attacks per model
    ci: int  # Combat Initiative
    blows: dict[Outcome, Fraction]  # one attack's outcome on the enemy
    w: int


def strike(side: Side, n_models: int) -> dict[tuple[int, int, int, int, tuple[tuple[int, int], ...]], Fraction]:
    """Counts (hits, crits, wounds, unsaved) and the sorted wounds of one Strike Group of n_models."""
    out: dict[Any, Fraction] = defaultdict(Fraction)
    for combo in itertools.product(list(side.blows.items()), repeat=n_models * side.per_model):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        outs = [o for o, _ in combo]
        key = (
            sum(o.hit for o in outs),
            sum(o.crit for o in outs),
            sum(o.wound for o in outs),
            sum(o.unsaved for o in outs),
            tuple(sorted((w for o in outs for w in o.applied), key=lambda g: g[0])),
        )
        out[key] += p
    return dict(out)


def round_play(att: Side, tgt: Side) -> tuple[Dists, dict[str, Fraction]]:
    # state: a_models, a_dmg, t_models, t_dmg, hits, crits, wounds, unsaved, damage dealt by the attacker
    states: dict[tuple[int, ...], Fraction] = {(att.models, 0, tgt.models, 0, 0, 0, 0, 0, 0): Fraction(1)}
    for ci in sorted({att.ci, tgt.ci}, reverse=True):
        nxt: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
        for (am, ad, tm, td, h, c, wd, un, dd), p in states.items():
            a_opts = strike(att, am) if att.ci == ci else {(0, 0, 0, 0, ()): Fraction(1)}
            t_opts = strike(tgt, tm) if tgt.ci == ci else {(0, 0, 0, 0, ()): Fraction(1)}
            for (ah, ac, aw, au, a_w), pa in a_opts.items():
                for (_, _, _, _, t_w), pt in t_opts.items():
                    tm2, td2, dealt = apply_wounds(tm, tgt.w, td, list(a_w))
                    am2, ad2, _ = apply_wounds(am, att.w, ad, list(t_w))
                    nxt[(am2, ad2, tm2, td2, h + ah, c + ac, wd + aw, un + au, dd + dealt)] += p * pa * pt
        states = dict(nxt)
    out = Dists()
    combat = {"attacker_wins": Fraction(0), "target_wins": Fraction(0), "draw": Fraction(0)}
    for (am, _, tm, _, h, c, wd, un, dd), p in states.items():
        for name, value in (
            ("hits", h),
            ("critical_hits", c),
            ("wounds", wd),
            ("unsaved", un),
            ("damage", dd),
            ("casualties", tgt.models - tm),
            ("attacker_casualties", att.models - am),
        ):
            out.add(name, value, p)
        a_crp = (tgt.models - tm) + (1 if am > tm else 0)
        t_crp = (att.models - am) + (1 if tm > am else 0)
        if am == 0 and tm == 0:
            combat["draw"] += p
        elif am == 0:
            combat["target_wins"] += p
        elif tm == 0:
            combat["attacker_wins"] += p
        else:
            key = "attacker_wins" if a_crp > t_crp else "target_wins" if t_crp > a_crp else "draw"
            combat[key] += p
    return out, combat


def vehicle_outcomes_ws(wpn: Weapon, armour: int, *, ws: tuple[int, int]) -> dict[VOutcome, Fraction]:
    """As `vehicle_outcomes`, the Hit Test on the WS chart (no critical band, no cover)."""
    target = WS_TABLE[ws[0]][ws[1] - 1]
    dist: dict[VOutcome, Fraction] = defaultdict(Fraction)
    for hit_roll, pen_roll in itertools.product(D6, D6):
        p = SIXTH * SIXTH
        if not passes(hit_roll, target):
            dist[VOutcome(shock=int(hit_roll >= 5))] += p
            continue
        total = pen_roll + wpn.s
        if pen_roll != 1 and total > armour:
            for dmg, p_d in damage_faces(wpn.d):
                dist[VOutcome(1, 0, 0, 1, int(hit_roll >= 5), dmg)] += p * p_d
        else:
            dist[VOutcome(1, 0, int(pen_roll != 1 and total == armour), 0, int(hit_roll >= 5))] += p
    return dict(dist)
