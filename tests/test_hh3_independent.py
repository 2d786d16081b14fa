"""An independent check of `praetor calc` for the 3rd edition, written from the contract alone.

Every expected value below is enumerated die by die here (``itertools.product`` over D6 faces, exact
``Fraction``s) from the rules as the 3rd-edition contract states them, without reading the engine's chain or
its oracle: a second reading of the same text. Each scenario runs through ``praetor_analysis.scenario.calc``
and every field the contract names (`hits`, `critical_hits`, `wounds`, `unsaved`, `damage`, `casualties`,
`statuses`; vehicles `glancing`, `penetrating`, `hull_points`, `wrecked`; rounds `attacker_casualties`,
`combat`) is compared at 1e-12.

How the enumeration works: each attack die is expanded into its own outcome classes (one product over its
hit, wound, save, mitigation and damage dice), then every combination of the attacks' outcomes (a product
over the attacks, so kept to a few dice) is played out wound by wound on the target unit, in the contract's
order (unchanged wounds first, then set-aside groups as created), and the statuses follow from the Checks.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
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


# group ranks: 0 unmodified, 1 critical, 2 rending, 3 breaching only, 4 shred only, 5 breaching and shred
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


NO_STATUS: dict[str, Fraction | None] = {"Pinned": None, "Suppressed": None, "Stunned": None}


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


# (id, document, expected-builder) for the chain of section 2-7 on a unit of identical models
CHAIN_CASES: list[tuple[str, dict[str, Any], Any]] = [
    (
        "bolter_pinning",
        shooting_doc({"FP": 2, "AP": 5, "Special Rules": "Pinning (1)"}, {"models": 2}),
        lambda: shoot_case(Weapon(4, 5), Target(models=2), 2, morale=Morale(pinning=1)),
    ),
    (
        "bs6_crit_band_w2",
        shooting_doc({"FP": 2, "AP": 4}, {"models": 2, "W": 2}, attacker={"BS": 6}),
        lambda: shoot_case(Weapon(4, 4), Target(w=2, models=2), 2, bs=6),
    ),
    (
        "bs8_crit4_w2",
        shooting_doc({"FP": 3, "RS": 5}, {"models": 2, "W": 2}, attacker={"BS": 8}),
        lambda: shoot_case(Weapon(5, None), Target(w=2, models=2), 3, bs=8),
    ),
    (
        "bs10_automatic",
        shooting_doc({"FP": 2, "AP": 4}, {"models": 2, "W": 2}, attacker={"BS": 10}),
        lambda: shoot_case(Weapon(4, 4), Target(w=2, models=2), 2, bs=10),
    ),
    (
        "snap_bs4",
        shooting_doc({"FP": 3}, {"models": 3}, snap_shots=True),
        lambda: shoot_case(Weapon(4, None), Target(models=3), 3, snap=True),
    ),
    (
        "snap_bs1_none",
        shooting_doc({"FP": 2}, {"models": 2}, snap_shots=True, attacker={"BS": 1}),
        lambda: shoot_case(Weapon(4, None), Target(models=2), 2, bs=1, snap=True),
    ),
    (
        "snap_bs7_no_band",
        shooting_doc({"FP": 2, "D": 2}, {"models": 2, "W": 3}, snap_shots=True, attacker={"BS": 7}),
        lambda: shoot_case(Weapon(4, None, 2), Target(w=3, models=2), 2, bs=7, snap=True),
    ),
    (
        "critical_hit_5_w3",
        shooting_doc({"FP": 3, "Special Rules": "Critical Hit (5+)"}, {"models": 2, "W": 3}),
        lambda: shoot_case(Weapon(4, None, crit=5), Target(w=3, models=2), 3),
    ),
    (
        "rending_5_vs_t6",
        shooting_doc({"FP": 3, "RS": 3, "AP": 4, "Special Rules": "Rending (5+)"}, {"models": 3, "T": 6}),
        lambda: shoot_case(Weapon(3, 4, rending=5), Target(t=6, models=3), 3),
    ),
    (
        "breaching_5_vs_2plus",
        shooting_doc({"FP": 3, "Special Rules": "Breaching (5+)"}, {"models": 3, "SAV": "2+", "INV": "5+"}),
        lambda: shoot_case(Weapon(4, None, breaching=5), Target(models=3, sav=2, inv=5), 3),
    ),
    (
        "shred_5_w2_order",
        shooting_doc({"FP": 3, "Special Rules": "Shred (5+)"}, {"models": 2, "W": 2, "SAV": "5+"}),
        lambda: shoot_case(Weapon(4, None, shred=5), Target(w=2, models=2, sav=5), 3),
    ),
    (
        "poisoned_4_vs_t8",
        shooting_doc({"FP": 3, "RS": 3, "Special Rules": "Poisoned (4+)"}, {"models": 3, "T": 8}),
        lambda: shoot_case(Weapon(3, None, poisoned=4), Target(t=8, models=3), 3),
    ),
    (
        "crit_and_shred_stack",
        shooting_doc({"FP": 2, "AP": 3, "Special Rules": "Critical Hit (6+), Shred (6+)"}, {"models": 2, "W": 3}),
        lambda: shoot_case(Weapon(4, 3, crit=6, shred=6), Target(w=3, models=2), 2),
    ),
    (
        "rending_breaching_shred",
        shooting_doc(
            {"FP": 3, "RS": 4, "AP": 4, "D": 1, "Special Rules": "Rending (6+), Breaching (6+), Shred (5+)"},
            {"models": 2, "W": 2, "SAV": "2+"},
        ),
        lambda: shoot_case(Weapon(4, 4, rending=6, breaching=6, shred=5), Target(w=2, models=2, sav=2), 3),
    ),
    (
        "deflagrate_5",
        shooting_doc({"FP": 2, "RS": 5, "AP": 4, "Special Rules": "Deflagrate (5)"}, {"models": 4, "SAV": "4+"}),
        lambda: shoot_case(Weapon(5, 4, deflagrate=5), Target(models=4, sav=4), 2),
    ),
    (
        "heavy_fp_stationary",
        shooting_doc({"FP": 1, "Special Rules": "Heavy (FP)"}, {"models": 2}, stationary=True),
        lambda: shoot_case(Weapon(4, None), Target(models=2), 2),
    ),
    (
        "heavy_rs_stationary",
        shooting_doc({"FP": 2, "RS": 4, "Special Rules": "Heavy (RS)"}, {"models": 2}, stationary=True),
        lambda: shoot_case(Weapon(5, None), Target(models=2), 2),
    ),
    (
        "heavy_d_not_stationary",
        shooting_doc({"FP": 2, "D": 1, "Special Rules": "Heavy (D)"}, {"models": 2, "W": 2}),
        lambda: shoot_case(Weapon(4, None, 1), Target(w=2, models=2), 2),
    ),
    (
        "heavy_ap_stationary",
        shooting_doc({"FP": 2, "AP": 4, "Special Rules": "Heavy (AP)"}, {"models": 2}, stationary=True),
        lambda: shoot_case(Weapon(4, 3), Target(models=2), 2),
    ),
    (
        "ordnance_d_stationary",
        shooting_doc({"FP": 2, "D": 2, "Special Rules": "Ordnance (D)"}, {"models": 2, "W": 5}, stationary=True),
        lambda: shoot_case(Weapon(4, None, 4), Target(w=5, models=2), 2),
    ),
    (
        "d3_damage_w2",
        shooting_doc({"FP": 3, "D": "D3", "AP": 3}, {"models": 2, "W": 2}),
        lambda: shoot_case(Weapon(4, 3, "D3"), Target(w=2, models=2), 3),
    ),
    (
        "cover_5_vs_ap3",
        shooting_doc({"FP": 3, "AP": 3}, {"models": 3, "Cover": "5+"}),
        lambda: shoot_case(Weapon(4, 3), Target(models=3, cover=5), 3),
    ),
    (
        "inv4_ap2",
        shooting_doc({"FP": 3, "AP": 2}, {"models": 3, "SAV": "2+", "INV": "4+"}),
        lambda: shoot_case(Weapon(4, 2), Target(models=3, sav=2, inv=4), 3),
    ),
    (
        "fnp5",
        shooting_doc({"FP": 3, "AP": 3}, {"models": 3, "rules": ["Feel No Pain (5+)"]}),
        lambda: shoot_case(Weapon(4, 3), Target(models=3, fnp=5), 3),
    ),
    (
        "shrouded_best_of_fnp",
        shooting_doc({"FP": 3, "AP": 3}, {"models": 3, "rules": ["Feel No Pain (6+)", "Shrouded (4+)"]}),
        lambda: shoot_case(Weapon(4, 3), Target(models=3, fnp=4), 3),
    ),
    (
        "eternal_warrior_crit",
        shooting_doc(
            {"FP": 2, "D": 2, "Special Rules": "Critical Hit (5+)"},
            {"models": 2, "W": 3, "rules": ["Eternal Warrior (1)"]},
        ),
        lambda: shoot_case(Weapon(4, None, 2, crit=5), Target(w=3, models=2, ew=1), 2),
    ),
    (
        "s12_vs_t9_capped",
        shooting_doc({"FP": 3, "RS": 12}, {"models": 3, "T": 9}),
        lambda: shoot_case(Weapon(12, None), Target(t=9, models=3), 3),
    ),
    (
        "s3_vs_t7_never",
        shooting_doc({"FP": 2, "RS": 3}, {"models": 2, "T": 7}),
        lambda: shoot_case(Weapon(3, None), Target(t=7, models=2), 2),
    ),
    (
        "precision_no_change",
        shooting_doc({"FP": 2, "Special Rules": "Precision (5+)"}, {"models": 2, "W": 2}),
        lambda: shoot_case(Weapon(4, None), Target(w=2, models=2), 2),
    ),
    (
        "given_hits",
        shooting_doc({"FP": 1, "Special Rules": "Blast (3)", "AP": 4}, {"models": 4}, hits=3),
        lambda: shoot_case(Weapon(4, 4), Target(models=4), 3, given_hits=True),
    ),
]


@pytest.mark.parametrize(("doc", "build"), [c[1:] for c in CHAIN_CASES], ids=[c[0] for c in CHAIN_CASES])
def test_chain_against_enumeration(doc: dict[str, Any], build: Any) -> None:
    want, morale = build(), _morale_of(doc)
    res = run(doc)
    assert_result(res, want, expect_statuses(want, morale))


def _morale_of(doc: dict[str, Any]) -> Morale:
    """The status rules named in a chain case's weapon (the X of each)."""
    rules = str(doc["weapon"].get("Special Rules", ""))
    found = {name: int(x) for name, x in re.findall(r"(Pinning|Suppressive|Stun|Panic) \((\d+)\)", rules)}
    return Morale(
        pinning=found.get("Pinning"),
        suppressive=found.get("Suppressive"),
        stun=found.get("Stun"),
        panic=found.get("Panic"),
    )


# --- Morale: Checks and statuses (sections 1 and 14) ---------------------------------------------------------


def test_check_hand_values() -> None:
    # counted by hand: 2D6 <= 7 in 21 ways; at 2 only the double 1 (plus nothing); at 12 all but the double 6
    assert check_pass(7) == Fraction(21, 36)
    assert check_pass(1) == Fraction(1, 36)
    assert check_pass(2) == Fraction(1, 36)
    assert check_pass(12) == Fraction(35, 36)
    assert check_pass(0) == 0


MORALE_CASES: list[tuple[str, dict[str, Any], Weapon, Target, int, Morale]] = [
    (
        "suppressive_stun",
        shooting_doc({"FP": 2, "Special Rules": "Suppressive (2), Stun (1)"}, {"models": 3, "CL": 8}),
        Weapon(4, None),
        Target(models=3),
        2,
        Morale(cl=8, suppressive=2, stun=1),
    ),
    (
        "panic_and_quarter",
        shooting_doc({"FP": 3, "Special Rules": "Panic (1), Pinning (2)"}, {"models": 4, "LD": 8, "CL": 6}),
        Weapon(4, None),
        Target(models=4),
        3,
        Morale(ld=8, cl=6, panic=1, pinning=2),
    ),
    (
        "heavy_subtype_cl",
        shooting_doc(
            {"FP": 2, "AP": 3, "Special Rules": "Pinning (1)"},
            {"models": 5, "Type": "Infantry (Heavy)", "CL": 6, "LD": 6},
        ),
        Weapon(4, 3),
        Target(models=5),
        2,
        Morale(ld=6, cl=6, pinning=1, heavy=True),
    ),
    (
        "quarter_only_w2",
        shooting_doc({"FP": 3, "D": 2, "AP": 4}, {"models": 3, "W": 2, "LD": 5}),
        Weapon(4, 4, 2),
        Target(w=2, models=3),
        3,
        Morale(ld=5),
    ),
]


@pytest.mark.parametrize(
    ("doc", "wpn", "tgt", "n", "morale"), [c[1:] for c in MORALE_CASES], ids=[c[0] for c in MORALE_CASES]
)
def test_statuses_against_enumeration(doc: dict[str, Any], wpn: Weapon, tgt: Target, n: int, morale: Morale) -> None:
    want = shoot_case(wpn, tgt, n, morale=morale)
    res = run(doc)
    assert_result(res, want, expect_statuses(want, morale))


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


VEHICLE_CASES: list[tuple[str, dict[str, Any], Weapon, int, int, dict[str, Any]]] = [
    (
        "s7_vs_av9",
        vehicle_doc({"FP": 3, "RS": 7, "D": 1}, {"Front Armour": 9, "HP": 2}),
        Weapon(7, None),
        3,
        2,
        {"armour": 9},
    ),
    (
        "s7_vs_av8_no_glance",
        vehicle_doc({"FP": 3, "RS": 7, "D": 1}, {"Front Armour": 8, "HP": 2}),
        Weapon(7, None),
        3,
        2,
        {"armour": 8},
    ),
    (
        "side_facing_d2",
        vehicle_doc({"FP": 2, "RS": 8, "D": 2}, {"Side Armour": 10, "HP": 3, "facing": "Side"}),
        Weapon(8, None, 2),
        2,
        3,
        {"armour": 10},
    ),
    (
        "armourbane_s8_av10",
        vehicle_doc({"FP": 3, "RS": 6, "D": 1, "Special Rules": "Armourbane"}, {"Front Armour": 10, "HP": 2}),
        Weapon(6, None, armourbane=True),
        3,
        2,
        {"armour": 10},
    ),
    (
        "melta_in_range",
        vehicle_doc(
            {"R": 12, "FP": 2, "RS": 8, "D": 2, "Special Rules": "Melta (6)"}, {"Front Armour": 12, "HP": 5}, range=6
        ),
        Weapon(8, None, 2, melta=True, armourbane=True),
        2,
        5,
        {"armour": 12},
    ),
    (
        "melta_out_of_range",
        vehicle_doc(
            {"R": 12, "FP": 2, "RS": 8, "D": 2, "Special Rules": "Melta (6)"}, {"Front Armour": 12, "HP": 5}, range=9
        ),
        Weapon(8, None, 2),
        2,
        5,
        {"armour": 12},
    ),
    (
        "bs6_crit_inv5",
        vehicle_doc({"FP": 2, "RS": 9, "D": 1}, {"Front Armour": 11, "HP": 3, "INV": "5+"}, attacker={"BS": 6}),
        Weapon(9, None),
        2,
        3,
        {"armour": 11, "bs": 6, "inv": 5},
    ),
    (
        "rending_no_effect",
        vehicle_doc({"FP": 2, "RS": 7, "Special Rules": "Rending (4+)"}, {"Front Armour": 9, "HP": 2}),
        Weapon(7, None),
        2,
        2,
        {"armour": 9},
    ),
    (
        "cover_and_fnp",
        vehicle_doc(
            {"FP": 2, "RS": 8, "D": "D3"}, {"Front Armour": 10, "HP": 3, "Cover": "5+", "rules": ["Feel No Pain (6+)"]}
        ),
        Weapon(8, None, "D3"),
        2,
        3,
        {"armour": 10, "cover": 5, "fnp": 6},
    ),
]


@pytest.mark.parametrize(
    ("doc", "wpn", "n", "hp", "kw"), [c[1:] for c in VEHICLE_CASES], ids=[c[0] for c in VEHICLE_CASES]
)
def test_vehicle_against_enumeration(doc: dict[str, Any], wpn: Weapon, n: int, hp: int, kw: dict[str, Any]) -> None:
    per = vehicle_outcomes(wpn, **kw)
    want = vehicle_play(per, n, hp, None)
    res = run(doc)
    assert_result(res, want)
    assert res["wrecked"] == pytest.approx(float(want.statuses["wrecked"]), abs=TOL)
    can_glance = any(o.glance and p for o, p in per.items())
    for name in ("Pinned", "Suppressed", "Stunned"):
        if not can_glance:  # nothing in the attack can cause it: `null` (SCENARIO, Edition 3)
            assert res["statuses"][name] is None, name
        else:
            assert res["statuses"][name] == pytest.approx(float(want.statuses[name]), abs=TOL), name
    assert res["statuses"]["Routed"] is None


def test_vehicle_shock() -> None:
    doc = vehicle_doc({"FP": 2, "RS": 6, "Special Rules": "Shock (Pinned)"}, {"Front Armour": 9, "HP": 2})
    want = vehicle_play(vehicle_outcomes(Weapon(6, None), 9), 2, 2, "Pinned")
    res = run(doc)
    assert_result(res, want)
    for name in ("Pinned", "Suppressed", "Stunned"):
        assert res["statuses"][name] == pytest.approx(float(want.statuses[name]), abs=TOL), name


# --- Melee (sections 10 and 13) ----------------------------------------------------------------------------------


def melee_doc(weapon: dict[str, Any], target: dict[str, Any], attacker: dict[str, Any], **extra: Any) -> dict[str, Any]:
    base_weapon = {
        "name": "Blade",
        "IM": "I",
        "AM": "A",
        "SM": "S",
        "AP": "-",
        "D": 1,
        "Special Rules": "",
        "Traits": "",
    }
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


ONE_WAY: list[tuple[str, dict[str, Any], Weapon, Target, int, tuple[int, int]]] = [
    (
        "ws4_vs_ws4_sm1",
        melee_doc({"SM": "+1", "AP": 4}, {"models": 3}, {"A": 2, "models": 1}),
        Weapon(5, 4),
        Target(models=3),
        2,
        (4, 4),
    ),
    (
        "ws5_vs_ws9_am_x2",
        melee_doc({"AM": "x2"}, {"models": 3, "WS": 9}, {"WS": 5, "A": 1, "models": 2}),
        Weapon(4, None),
        Target(models=3),
        4,
        (5, 9),
    ),
    (
        "ws4_vs_ws8_fixed_sm",
        melee_doc(
            {"SM": 8, "AP": 2, "D": 2}, {"models": 2, "WS": 8, "W": 2, "INV": "5+"}, {"WS": 4, "A": 2, "models": 1}
        ),
        Weapon(8, 2, 2),
        Target(w=2, models=2, inv=5),
        2,
        (4, 8),
    ),
    (
        "no_cover_in_melee",
        melee_doc({"AP": 3}, {"models": 3, "Cover": "4+"}, {"A": 3, "models": 1}),
        Weapon(4, 3),
        Target(models=3),
        3,
        (4, 4),
    ),
    (
        "crit_rending_in_melee",
        melee_doc(
            {"Special Rules": "Critical Hit (6+), Rending (5+)", "D": 1}, {"models": 2, "W": 2}, {"A": 3, "models": 1}
        ),
        Weapon(4, None, crit=6, rending=5),
        Target(w=2, models=2),
        3,
        (4, 4),
    ),
    (
        "pinning_no_effect_in_melee",
        melee_doc({"Special Rules": "Pinning (1)"}, {"models": 2}, {"A": 2, "models": 1}),
        Weapon(4, None),
        Target(models=2),
        2,
        (4, 4),
    ),
]


@pytest.mark.parametrize(("doc", "wpn", "tgt", "n", "ws"), [c[1:] for c in ONE_WAY], ids=[c[0] for c in ONE_WAY])
def test_melee_one_way(doc: dict[str, Any], wpn: Weapon, tgt: Target, n: int, ws: tuple[int, int]) -> None:
    per = attack_outcomes(wpn, tgt, ws=ws, shooting=False)
    want = play([per] * n, tgt, None)
    res = run(doc)
    assert_result(res, want)
    assert all(v is None for v in res["statuses"].values()), res["statuses"]
    if "Pinning" in str(doc["weapon"]["Special Rules"]):
        assert "Pinning (1)" in res["no_effect"]


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


ROUND_CASES = [
    # attacker I 5 strikes first; the target I 4 answers with the models it has left
    (
        "first_strike",
        {"I": 5, "A": 1, "models": 2},
        {"models": 2, "I": 4, "A": 1},
        {"AP": 4},
        {"AP": 5},
        lambda: (
            Side(2, 1, 5, attack_outcomes(Weapon(4, 4), Target(models=2), ws=(4, 4), shooting=False), 1),
            Side(2, 1, 4, attack_outcomes(Weapon(4, 5), Target(models=2), ws=(4, 4), shooting=False), 1),
        ),
    ),
    # equal Initiative: simultaneous blows, both sides may be wiped out (a draw)
    (
        "simultaneous",
        {"I": 4, "A": 1, "models": 1, "W": 2},
        {"models": 1, "I": 4, "A": 2, "W": 2},
        {"AP": 3, "D": 2},
        {"AP": 4},
        lambda: (
            Side(1, 1, 4, attack_outcomes(Weapon(4, 3, 2), Target(w=2, models=1), ws=(4, 4), shooting=False), 2),
            Side(1, 2, 4, attack_outcomes(Weapon(4, 4), Target(w=2, models=1), ws=(4, 4), shooting=False), 2),
        ),
    ),
    # the target's weapon IM -3 makes it strike after an attacker of lower I; SM +2
    (
        "im_minus_3",
        {"I": 3, "A": 1, "models": 2, "WS": 5},
        {"models": 2, "I": 5, "A": 1, "WS": 3},
        {"AP": 5},
        {"IM": "-3", "SM": "+2", "AP": 3},
        lambda: (
            Side(2, 1, 3, attack_outcomes(Weapon(4, 5), Target(models=2), ws=(5, 3), shooting=False), 1),
            Side(2, 1, 2, attack_outcomes(Weapon(6, 3), Target(models=2), ws=(3, 5), shooting=False), 1),
        ),
    ),
]


@pytest.mark.parametrize(
    ("att", "tgt", "aw", "tw", "build"), [c[1:] for c in ROUND_CASES], ids=[c[0] for c in ROUND_CASES]
)
def test_whole_round(
    att: dict[str, Any], tgt: dict[str, Any], aw: dict[str, Any], tw: dict[str, Any], build: Any
) -> None:
    target_weapon = {
        "name": "Answer",
        "IM": "I",
        "AM": "A",
        "SM": "S",
        "AP": "-",
        "D": 1,
        "Special Rules": "",
        "Traits": "",
        **tw,
    }
    doc = melee_doc(aw, tgt, att, target_weapon=target_weapon)
    want, combat = round_play(*build())
    res = run(doc)
    assert_result(res, want)
    for key, value in combat.items():
        assert res["combat"][key] == pytest.approx(float(value), abs=TOL), key


# --- Hit-roll side effects: Shock, Poisoned against Walkers, Overload Misfires (sections 4, 5, 14) --------------


def test_shock_and_poisoned_vs_walkers() -> None:
    """Shock (Pinned) on a natural 5-6, hit or miss, no Check; Routed (casualties) removes it; Poisoned needs a 6."""
    doc = shooting_doc(
        {"FP": 3, "RS": 3, "AP": 4, "Special Rules": "Shock (Pinned), Poisoned (4+)"},
        {"models": 2, "Type": "Walker", "T": 7, "W": 1, "SAV": "4+", "LD": 6},
    )
    tgt = Target(t=7, models=2, sav=4)
    per = attack_outcomes(Weapon(3, 4, poisoned=6), tgt)
    want = Dists()
    pinned = Fraction(0)
    for combo in itertools.product(list(per.items()), repeat=3):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        outs = [o for o, _ in combo]
        left, _, _ = apply_wounds(2, 1, 0, [w for o in outs for w in o.applied])
        for name, value in (
            ("hits", sum(o.hit for o in outs)),
            ("wounds", sum(o.wound for o in outs)),
            ("unsaved", sum(o.unsaved for o in outs)),
            ("casualties", 2 - left),
        ):
            want.add(name, value, p)
        routed = 1 - check_pass(6) if 2 - left >= 1 and left else Fraction(0)
        if left and any(o.shock for o in outs):
            pinned += p * (1 - routed)
    res = run(doc)
    assert_result(res, want)
    assert res["statuses"]["Pinned"] == pytest.approx(float(pinned), abs=TOL)


def test_overload_misfires_on_the_firer() -> None:
    """Overload (2): each natural 1-2 is one hit with the whole profile on the firer (2 models T4 W1 4+)."""
    doc = shooting_doc(
        {"FP": 1, "RS": 5, "AP": 5, "Special Rules": "Overload (2)"},
        {"models": 2},
        attacker={"BS": 4, "models": 3, "T": 4, "W": 1, "SAV": "4+"},
    )
    n_dice = 3
    firer = Target(t=4, models=3, sav=4)
    per_misfire = attack_outcomes(Weapon(5, 5), firer, given_hit=True)
    misfire_hits: dict[int, Fraction] = defaultdict(Fraction)
    want = Dists()
    for rolls in itertools.product(D6, repeat=n_dice):
        k = sum(r <= 2 for r in rolls)
        misfire_hits[k] += SIXTH**n_dice
    for k, pk in misfire_hits.items():
        sub = play([per_misfire] * k, firer, None)
        for name in ("wounds", "unsaved", "casualties", "damage"):
            for value, q in sub.fields.get(name, {0: Fraction(1)}).items():
                want.add(name, value, pk * q)
        want.add("hits", k, pk)
    res = run(doc)
    (entry,) = res["misfires"]
    assert_result(entry, want)
    # the attack itself is unchanged by Overload (the Hit Test is judged normally)
    assert_result(res, shoot_case(Weapon(5, 5), Target(models=2), 3))


# --- Melee bonuses: Reaping Blow, Impact (section 10) ------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "extra", "n"),
    [
        ({"Special Rules": "Reaping Blow (1)"}, {}, 2),  # one model against three: outnumbered, A 1 + 1
        ({"Special Rules": "Impact (AM)"}, {"charging": True}, 2),  # a successful charge: AM + 1
        ({"Special Rules": "Impact (AM)"}, {}, 1),
    ],  # no charge: nothing
    ids=["reaping_blow", "impact_charging", "impact_not_charging"],
)
def test_melee_bonus_attacks(weapon: dict[str, Any], extra: dict[str, Any], n: int) -> None:
    doc = melee_doc(weapon, {"models": 3}, {"A": 1, "models": 1}, **extra)
    want = play(
        [attack_outcomes(Weapon(4, None), Target(models=3), ws=(4, 4), shooting=False)] * n, Target(models=3), None
    )
    assert_result(run(doc), want)


# --- Force (X) (section 15) -----------------------------------------------------------------------------------


def test_force_damage_mixture() -> None:
    """Force (D): a Willpower Check at WP 8 (26/36 by the Check's count) doubles D; the result is the mixture."""
    doc = shooting_doc(
        {"FP": 2, "D": 1, "AP": 4, "Special Rules": "Force (D)", "Traits": "Psychic"},
        {"models": 2, "W": 2},
        attacker={"BS": 4, "models": 1, "WP": 8},
    )
    p_boost = check_pass(8)
    assert p_boost == Fraction(26, 36)
    plain = shoot_case(Weapon(4, 4, 1), Target(w=2, models=2), 2)
    boosted = shoot_case(Weapon(4, 4, 2), Target(w=2, models=2), 2)
    want = Dists()
    for weight, part in ((p_boost, boosted), (1 - p_boost, plain)):
        for name, dist in part.fields.items():
            for value, q in dist.items():
                want.add(name, value, weight * q)
    assert_result(run(doc), want)


# --- Blast (section 8): one marker, one Hit Test, a scatter that always moves ------------------------------------


def test_blast_single_model_scatter() -> None:
    """Blast (3) over one 32 mm model: a hit covers it; a miss moves D6" and still touches it when the distance
    is at most 1.5 + 0.63 (marker radius + base radius), so on a 1 or 2: P(hit) = 4/6 + 2/6 * 2/6."""
    doc = shooting_doc(
        {"FP": 1, "AP": 4, "Special Rules": "Blast (3)"},
        {"models": 1, "W": 1},
        formation={"positions": [[0, 0]], "base_mm": 32},
    )
    p_hit = Fraction(4, 6) + Fraction(2, 6) * Fraction(2, 6)
    res = run(doc)
    assert res["hits"]["pmf"][1] == pytest.approx(float(p_hit), abs=TOL)
    per = attack_outcomes(Weapon(4, 4), Target(), given_hit=True)
    p_unsaved = sum((q for o, q in per.items() if o.unsaved), Fraction(0))
    assert res["casualties"]["mean"] == pytest.approx(float(p_hit * p_unsaved), abs=TOL)


# --- More of section 9: melee against a vehicle, Super-heavy glances, the options, Knights, Explodes -----------


def test_melee_vs_vehicle_rear_ws1() -> None:
    """Melee hits a vehicle on its Rear armour, the vehicle counting as WS 1 (WS 4 hits it on 2+)."""
    doc = melee_doc({"SM": "+2", "D": 2}, {}, {"A": 2, "models": 1, "WS": 4})
    doc["target"] = {
        "name": "Tank",
        "Type": "Vehicle",
        "M": 10,
        "BS": 4,
        "Front Armour": 12,
        "Side Armour": 11,
        "Rear Armour": 7,
        "HP": 3,
    }
    per = vehicle_outcomes_ws(Weapon(6, None, 2), 7, ws=(4, 1))
    want = vehicle_play(per, 2, 3, None)
    res = run(doc)
    assert_result(res, want)
    assert res["wrecked"] == pytest.approx(float(want.statuses["wrecked"]), abs=TOL)


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


def test_super_heavy_glances_cost_hull_points() -> None:
    """A Super-heavy loses 1 HP per Glancing Hit and rolls no Damage Table."""
    doc = vehicle_doc({"FP": 3, "RS": 8, "D": 2}, {"Type": "Vehicle (Super-heavy)", "Front Armour": 10, "HP": 3})
    per = vehicle_outcomes(Weapon(8, None, 2), 10)
    per_sh: dict[VOutcome, Fraction] = defaultdict(Fraction)
    for o, q in per.items():
        per_sh[replace(o, damage=o.damage + o.glance)] += q
    want = vehicle_play(dict(per_sh), 3, 3, None)
    res = run(doc)
    assert_result(res, want)
    assert res["wrecked"] == pytest.approx(float(want.statuses["wrecked"]), abs=TOL)


def test_apt_natural_one_option() -> None:
    """`apt_natural_one_fails: false`: S7 against armour 8 glances on a natural 1."""
    doc = vehicle_doc(
        {"FP": 2, "RS": 7, "D": 1}, {"Front Armour": 8, "HP": 2}, options={"apt_natural_one_fails": False}
    )
    res = run(doc)
    p_glance = Fraction(4, 6) * SIXTH  # a hit (3+), then a natural 1
    assert res["glancing"]["mean"] == pytest.approx(float(2 * p_glance), abs=TOL)


def test_critical_vs_vehicle_options() -> None:
    """BS 10: every hit is Critical; by default +1 Damage if it penetrates, `wasted`: nothing at all."""
    base = vehicle_doc({"FP": 1, "RS": 8, "D": 1}, {"Front Armour": 10, "HP": 3}, attacker={"BS": 10})
    res = run(base)
    # automatic hit; penetrates on 3+ (D6 + 8 > 10), glances on 2: Damage 2
    assert res["hull_points"]["pmf"] == pytest.approx([2 / 6, 0.0, 4 / 6], abs=TOL)
    wasted = run({**base, "options": {"critical_vs_vehicle": "wasted"}})
    assert wasted["hull_points"]["mean"] == pytest.approx(0.0, abs=TOL)


def test_knight_side_reads_rear() -> None:
    """A Knight has Front and Rear only: a hit on its Side uses the Rear value."""
    doc = vehicle_doc(
        {"FP": 2, "RS": 8, "D": 1},
        {},
    )
    doc["target"] = {
        "name": "Knight",
        "Type": "Vehicle (Knight)",
        "M": 8,
        "WS": 4,
        "BS": 4,
        "S": 10,
        "Front": 12,
        "Rear": 9,
        "I": 4,
        "A": 3,
        "HP": 4,
        "facing": "Side",
    }
    want = vehicle_play(vehicle_outcomes(Weapon(8, None), 9), 2, 4, None)
    assert_result(run(doc), want)


def test_explodes() -> None:
    """Explodes (4+): P(wrecked) x 1/2."""
    doc = vehicle_doc({"FP": 2, "RS": 9, "D": 1}, {"Front Armour": 10, "HP": 1, "rules": ["Explodes (4+)"]})
    want = vehicle_play(vehicle_outcomes(Weapon(9, None), 10), 2, 1, None)
    res = run(doc)
    assert res["explodes"] == pytest.approx(float(want.statuses["wrecked"] / 2), abs=TOL)


# --- Deflagrate beside a set-aside group; two firing units carrying the unit's state -----------------------------


def test_deflagrate_with_critical_group_w2() -> None:
    """Unchanged wounds, their Deflagrate hits, then the Critical group (D 2) and its Deflagrate hits, on W 2."""
    doc = shooting_doc(
        {"FP": 2, "RS": 4, "AP": 4, "D": 1, "Special Rules": "Deflagrate (4), Critical Hit (5+)"},
        {"models": 2, "W": 2, "SAV": "4+"},
    )
    tgt = Target(w=2, models=2, sav=4)
    want = shoot_case(Weapon(4, 4, 1, crit=5, deflagrate=4), tgt, 2)
    assert_result(run(doc), want)


def test_two_firing_units_carry_state_and_statuses() -> None:
    """Unit 1 (Pinning (1)) then unit 2 (Panic (2)) at 4 Legionaries of W 2: damage carries over; one Routed
    Check at the harshest modifier (Panic's 2, else 0 from a quarter lost to either unit); Pinned only if not."""
    v1 = {
        "mode": "shooting",
        "attacker": {"BS": 4, "models": 1},
        "weapon": {
            "name": "A",
            "R": 24,
            "FP": 2,
            "RS": 4,
            "AP": 4,
            "D": 1,
            "Special Rules": "Pinning (1)",
            "Traits": "",
        },
    }
    v2 = {
        "mode": "shooting",
        "attacker": {"BS": 4, "models": 1},
        "weapon": {"name": "B", "R": 24, "FP": 1, "RS": 5, "AP": 3, "D": 2, "Special Rules": "Panic (2)", "Traits": ""},
    }
    doc = {
        "edition": "hh3",
        "firing_units": [[v1], [v2]],
        "target": {
            "name": "Foe",
            "Type": "Infantry",
            "models": 4,
            "WS": 4,
            "T": 4,
            "W": 2,
            "I": 4,
            "LD": 8,
            "CL": 7,
            "SAV": "3+",
            "INV": "-",
        },
    }
    tgt = Target(w=2, models=4)
    per1 = attack_outcomes(Weapon(4, 4, 1), tgt)
    per2 = attack_outcomes(Weapon(5, 3, 2), tgt)
    want = Dists()
    pinned = routed = Fraction(0)
    for combo in itertools.product(list(per1.items()), list(per1.items()), list(per2.items())):
        p = Fraction(1)
        for _, q in combo:
            p *= q
        o1, o2 = [o for o, _ in combo[:2]], [combo[2][0]]
        m1, d1, dealt1 = apply_wounds(4, 2, 0, sorted((w for o in o1 for w in o.applied), key=lambda g: g[0]))
        m2, _, dealt2 = apply_wounds(m1, 2, d1, [w for o in o2 for w in o.applied])
        for name, value in (
            ("unsaved", sum(o.unsaved for o in o1 + o2)),
            ("casualties", 4 - m2),
            ("damage", dealt1 + dealt2),
        ):
            want.add(name, value, p)
        if m2 == 0:
            continue
        mods = [0] if (4 - m1 >= 1 or m1 - m2 >= math.ceil(m1 / 4)) else []
        if o2[0].wound:
            mods.append(2)
        p_routed = 1 - check_pass(8 - max(mods)) if mods else Fraction(0)
        routed += p * p_routed
        if any(o.wound for o in o1):
            pinned += p * (1 - p_routed) * (1 - check_pass(7 - 1))
    res = run(doc)
    assert_result(res, want)
    assert res["statuses"]["Routed"] == pytest.approx(float(routed), abs=TOL)
    assert res["statuses"]["Pinned"] == pytest.approx(float(pinned), abs=TOL)


# --- Every field acts, is refused on one line, or is named (SCENARIO, Edition 3) -------------------------------


def _refusal(doc: dict[str, Any]) -> str:
    from praetor_analysis.errors import ScenarioError

    with pytest.raises(ScenarioError) as caught:
        run(doc)
    message = str(caught.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize(
    ("doc", "field_name"),
    [
        (shooting_doc({"FP": 2}, {"models": 2}, charging=True), "charging"),  # a charge changes melee only
        (melee_doc({}, {"models": 2}, {"A": 1, "models": 1}, snap_shots=True), "snap_shots"),  # no BS in melee
        (melee_doc({}, {"models": 2}, {"A": 1, "models": 1}, stationary=True), "stationary"),  # Heavy is ranged
        (shooting_doc({"FP": 2}, {"models": 2}, engaged=1), "engaged"),
    ],
    ids=["charging_in_shooting", "snap_shots_in_melee", "stationary_in_melee", "engaged_in_shooting"],
)
def test_fields_that_cannot_act_are_refused(doc: dict[str, Any], field_name: str) -> None:
    assert field_name in _refusal(doc)


@pytest.mark.parametrize(
    ("doc", "bucket", "name"),
    [
        (melee_doc({}, {"models": 2, "Cover": "5+"}, {"A": 1, "models": 1}), "no_effect", "Cover 5+"),
        (
            shooting_doc({"FP": 2, "Special Rules": "Precision (5+)"}, {"models": 2}, snap_shots=True),
            "no_effect",
            "Precision (5+)",
        ),
        (vehicle_doc({"FP": 2, "RS": 8, "Special Rules": "Melta (6)"}, {}), "no_effect", "Melta (6)"),
        (vehicle_doc({"FP": 2, "RS": 8, "Special Rules": "Rending (6+), Pinning (2)"}, {}), "no_effect", "Pinning (2)"),
        (shooting_doc({"FP": 2}, {"models": 2, "rules": ["Fearless"]}), "not_modelled", "Fearless"),
        (shooting_doc({"FP": 2, "Special Rules": "Precision (5+)"}, {"models": 2}), "applied", "Precision (5+)"),
    ],
    ids=[
        "melee_cover",
        "snap_precision",
        "melta_without_range",
        "pinning_vs_vehicle",
        "unknown_target_rule",
        "precision_applied",
    ],
)
def test_fields_are_named(doc: dict[str, Any], bucket: str, name: str) -> None:
    res = run(doc)
    assert name in res[bucket], res[bucket]
    if bucket != "applied":
        assert res["reasons"][name]


# --- Group order option, dice attacks, a Blast's critical marker, immune targets, a round's Check ------------


@pytest.mark.parametrize("order", ["created", "largest_damage_first"])
def test_group_order_option(order: str) -> None:
    """Breaching (5+), Shred (6+): a natural 5 makes a Breaching-only wound (D 1), a 6 a Breaching-and-Shred one
    (D 2); as created the first come first, largest first the D 2 ones (W 2 models: the orders differ)."""
    doc = shooting_doc(
        {"FP": 3, "Special Rules": "Breaching (5+), Shred (6+)"}, {"models": 2, "W": 2}, options={"group_order": order}
    )
    tgt = Target(w=2, models=2)
    per = attack_outcomes(Weapon(4, None, breaching=5, shred=6), tgt)
    want = play([per] * 3, tgt, Morale(), largest_first=order != "created")
    assert_result(run(doc), want)


def test_attacks_as_dice() -> None:
    """`attacks: "D3"`: the mixture over 1, 2, 3 hit dice, each a third."""
    doc = shooting_doc({"FP": 1, "AP": 4}, {"models": 3}, attacks="D3")
    per = attack_outcomes(Weapon(4, 4), Target(models=3))
    want = Dists()
    for n in (1, 2, 3):
        part = play([per] * n, Target(models=3), Morale())
        for name, dist in part.fields.items():
            for value, q in dist.items():
                want.add(name, value, Fraction(1, 3) * q)
    assert_result(run(doc), want)


def test_blast_critical_marker() -> None:
    """BS 8 (critical on 4+), Blast (3) over one W 2 model: a critical Hit Test makes a Critical hit (auto-wound,
    D 2); a plain hit or a scatter that still touches (after a natural 1: D6 <= 2) is a plain hit (D 1)."""
    doc = shooting_doc(
        {"FP": 1, "Special Rules": "Blast (3)"},
        {"models": 1, "W": 2},
        formation={"positions": [[0, 0]], "base_mm": 32},
        attacker={"BS": 8},
    )
    p_crit, p_plain = Fraction(3, 6), Fraction(2, 6) + Fraction(1, 6) * Fraction(2, 6)
    unsaved = Fraction(2, 6)  # a 3+ save fails on 1-2
    res = run(doc)
    assert res["critical_hits"]["mean"] == pytest.approx(float(p_crit), abs=TOL)
    assert res["casualties"]["mean"] == pytest.approx(float(p_crit * unsaved), abs=TOL)
    assert res["damage"]["mean"] == pytest.approx(
        float(p_crit * unsaved * 2 + p_plain * Fraction(1, 2) * unsaved), abs=TOL
    )


@pytest.mark.parametrize("kind", ["Automata", "Infantry (Automata)"])
def test_automata_statuses_are_null(kind: str) -> None:
    doc = shooting_doc({"FP": 2, "Special Rules": "Pinning (1)"}, {"models": 2, "Type": kind})
    res = run(doc)
    assert all(v is None for v in res["statuses"].values()), res["statuses"]


def test_round_loser_check() -> None:
    """The first_strike round: the side that loses on points (not wiped out) takes a Leadership Check at
    LD 7 minus the difference; failing, it is Routed."""
    att, tgt = ROUND_CASES[0][5]()
    doc = melee_doc(
        {"AP": 4},
        {"models": 2, "I": 4, "A": 1},
        {"I": 5, "A": 1, "models": 2},
        target_weapon={
            "name": "Answer",
            "IM": "I",
            "AM": "A",
            "SM": "S",
            "AP": 5,
            "D": 1,
            "Special Rules": "",
            "Traits": "",
        },
    )
    routed = {"attacker": Fraction(0), "target": Fraction(0)}
    states: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
    for (a_hits, _, _, _, a_w), pa in strike(att, 2).items():
        tm, _, _ = apply_wounds(2, 1, 0, list(a_w))
        for (_, _, _, _, t_w), pt in strike(tgt, tm).items():
            am, _, _ = apply_wounds(2, 1, 0, list(t_w))
            states[(am, tm)] += pa * pt
    for (am, tm), p in states.items():
        if am == 0 or tm == 0:
            continue
        a_crp, t_crp = (2 - tm) + (am > tm), (2 - am) + (tm > am)
        if a_crp > t_crp:
            routed["target"] += p * (1 - check_pass(7 - (a_crp - t_crp)))
        elif t_crp > a_crp:
            routed["attacker"] += p * (1 - check_pass(7 - (t_crp - a_crp)))
    res = run(doc)
    got = res["routed"]
    assert got["target"] == pytest.approx(float(routed["target"]), abs=TOL), got
    assert got["attacker"] == pytest.approx(float(routed["attacker"]), abs=TOL), got


def test_toughness_zero_always_wounded() -> None:
    """T 0: every Wound Test succeeds, natural 1 included, and variable rules count as triggered (section 5):
    every wound is a Breaching one (AP 2), so the 3+ armour save is never taken."""
    doc = shooting_doc({"FP": 2, "AP": 4, "Special Rules": "Breaching (6+)"}, {"models": 2, "T": 0, "SAV": "3+"})
    tgt = Target(t=0, models=2)
    want = shoot_case(Weapon(4, 4, breaching=6), tgt, 2)
    assert want.fields["wounds"] == want.fields["hits"]
    assert_result(run(doc), want)


def test_firepower_dice_rolled_per_weapon() -> None:
    """FP D3 on two models: the sum of two D3 hit dice (2 to 6), each count 1/9, 2/9, 3/9, 2/9, 1/9."""
    doc = shooting_doc({"FP": "D3", "AP": 4}, {"models": 3, "SAV": "-"}, attacker={"BS": 4, "models": 2})
    per = attack_outcomes(Weapon(4, 4), Target(models=3, sav=None))
    want = Dists()
    for a, b in itertools.product((1, 2, 3), repeat=2):
        part = play([per] * (a + b), Target(models=3, sav=None), Morale())
        for name, dist in part.fields.items():
            for value, q in dist.items():
                want.add(name, value, Fraction(1, 9) * q)
    assert_result(run(doc), want)


def test_phage_probability() -> None:
    """Phage (T): P(at least one Unsaved Wound and a model left)."""
    doc = shooting_doc({"FP": 2, "AP": 4, "Special Rules": "Phage (T)"}, {"models": 2, "W": 2})
    tgt = Target(w=2, models=2)
    per = attack_outcomes(Weapon(4, 4), tgt)
    p = Fraction(0)
    for combo in itertools.product(list(per.items()), repeat=2):
        outs = [o for o, _ in combo]
        left, _, _ = apply_wounds(2, 2, 0, [w for o in outs for w in o.applied])
        if left and any(o.unsaved for o in outs):
            p += combo[0][1] * combo[1][1]
    res = run(doc)
    assert res["phage"]["T"] == pytest.approx(float(p), abs=TOL)


def test_void_shields_take_the_first_penetrating_hits() -> None:
    """Void Shields (1): the first Penetrating Hit of the shooting attack does nothing (before its save)."""
    doc = vehicle_doc({"FP": 3, "RS": 9, "D": 1}, {"Front Armour": 10, "HP": 3, "rules": ["Void Shields (1)"]})
    per = vehicle_outcomes(Weapon(9, None), 10)
    want = Dists()
    for combo in itertools.product(list(per.items()), repeat=3):
        p = combo[0][1] * combo[1][1] * combo[2][1]
        outs = [o for o, _ in combo]
        shields, lost = 1, 0
        for o in outs:
            if o.pen and shields:
                shields -= 1
                continue
            lost += o.damage
        want.add("hull_points", min(3, lost), p)
        want.add("penetrating", sum(o.pen for o in outs), p)
        want.add("glancing", sum(o.glance for o in outs), p)
    assert_result(run(doc), want)


def test_shock_in_melee_vs_vehicle() -> None:
    """Shock acts in melee too (section 14): a natural 5-6 Hit Test on the WS chart, beside the Damage Table."""
    doc = melee_doc({"Special Rules": "Shock (Pinned)", "SM": "+4"}, {}, {"A": 2, "models": 1})
    doc["target"] = {
        "name": "Tank",
        "Type": "Vehicle",
        "M": 10,
        "BS": 4,
        "Front Armour": 12,
        "Side Armour": 11,
        "Rear Armour": 10,
        "HP": 3,
    }
    want = vehicle_play(vehicle_outcomes_ws(Weapon(8, None), 10, ws=(4, 1)), 2, 3, "Pinned")
    res = run(doc)
    assert_result(res, want)
    for name in ("Pinned", "Suppressed", "Stunned"):
        assert res["statuses"][name] == pytest.approx(float(want.statuses[name]), abs=TOL), name


@pytest.mark.parametrize(
    ("barrage", "p_hit"),
    [
        (1, Fraction(2, 6) + Fraction(4, 6) * Fraction(2, 6)),  # HIT 2/6 stays; else 1D6" <= 2.13" still touches
        (2, Fraction(2, 6) + Fraction(4, 6) * Fraction(1, 36)),  # 2D6 <= 2 only on a double 1
        (0, Fraction(1)),  # Reading: no distance dice, the marker stays
    ],
)
def test_barrage_indirect_scatter(barrage: int, p_hit: Fraction) -> None:
    """Blast (3), Barrage (X) without line of sight over one 32 mm model: no Hit Test, an Indirect Scatter Roll."""
    doc = shooting_doc(
        {"FP": 1, "Special Rules": f"Blast (3), Barrage ({barrage})"},
        {"models": 1},
        formation={"positions": [[0, 0]], "base_mm": 32},
        indirect=True,
    )
    res = run(doc)
    assert res["hits"]["mean"] == pytest.approx(float(p_hit), abs=TOL)
    assert res["critical_hits"]["mean"] == pytest.approx(0.0, abs=TOL)


def test_template_hits_fp_per_model() -> None:
    """A Template over one model: FP hits, no Hit Test (so no Critical hits), then the chain."""
    doc = shooting_doc(
        {"FP": 2, "AP": 4, "Special Rules": "Template"},
        {"models": 2, "W": 2},
        formation={"positions": [[0, 0]], "base_mm": 32},
    )
    doc["target"]["models"] = 1
    want = shoot_case(Weapon(4, 4), Target(w=2, models=1), 2, given_hits=True)
    assert_result(run(doc), want)


def test_the_cli_gives_the_same_numbers(tmp_path: Any, capsys: Any) -> None:
    """`praetor calc FILE` on a case above (a JSON array of two) equals the enumeration; a refusal exits 2."""
    import json

    from praetor_analysis.cli import main

    docs = [CHAIN_CASES[1][1], VEHICLE_CASES[0][1]]
    path = tmp_path / "docs.json"
    path.write_text(json.dumps(docs))
    assert main(["calc", str(path)]) == 0
    unit, vehicle = json.loads(capsys.readouterr().out)
    assert_result(unit, CHAIN_CASES[1][2]())
    _, _, wpn, n, hp, kw = VEHICLE_CASES[0]
    assert_result(vehicle, vehicle_play(vehicle_outcomes(wpn, **kw), n, hp, None))
    path.write_text(json.dumps({**docs[0], "charging": True}))
    assert main(["calc", str(path)]) == 2
    assert "charging" in capsys.readouterr().err
