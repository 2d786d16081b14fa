"""Edition 3 vehicles: the chain's fast paths (vehicles/hh3) against the chain they replaced.

``_ref_joint`` and ``_ref_sequence`` are the volley joint and the sequence of volleys as they stood before the
speed work (each set of statuses avoided computed on its own, one repeated-squaring power per number of dice,
the states of the sequence one (hull points, shields, statuses) triple at a time), kept here as the yardstick:
the two must agree at 1e-12 on generated volleys with distributions of dice beyond what the die-by-die oracle
of tests/test_vehicles_hh3.py can enumerate (up to 12 dice, Void Shields, several volleys at several facings).
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from dataclasses import replace

import numpy as np
import pytest

from praetor_analysis.prob import Dist, binomial_pmf, p_at_least
from praetor_analysis.prob.dice import parse_dice
from praetor_analysis.prob.memo import clear_memos
from praetor_analysis.vehicles.hh3 import (
    DieOutcomes,
    HH3Vehicle,
    PenetratingAttack,
    VehicleShot,
    chain,
    resolve_vehicle_sequence_hh3,
    volley_joint,
)

_TABLE_STATUSES = ("Pinned", "Suppressed", "Stunned")


# --------------------------------------------------------------------------- the chain as it stood
# The per-die helpers the speed work left as they were (the die-by-die oracle of tests/test_vehicles_hh3.py checks
# them); what changed is below, as it stood.
_ref_kinds = chain._kinds
_ref_pen_polys = chain._pen_polys
_ref_pad_add = chain._pad_add
_ref_cap = chain._cap
_ref_times = chain._times
_ref_powers = chain._powers


def _ref_hull_poly(
    kinds: list[tuple[float, bool, str]],
    polys: dict[str, np.ndarray],
    n: int,
    shields: int,
    top: int,
    glance: np.ndarray,
    *,
    z_glance: float,
    z_shock: float,
) -> np.ndarray:
    """The hull-point polynomial of ``n`` dice as it stood: the weights of the kinds, then one repeated-squaring
    power (or, with shields, the sum over the penetrating groups' counts: unchanged, now fed the weights)."""
    return chain._hull_poly(chain._weights(kinds, z_glance, z_shock), polys, n, shields, top, glance)


def _ref_joint(dice: Dist | int, die: DieOutcomes, vehicle: HH3Vehicle, attack: PenetratingAttack):
    counts = Dist.point(dice) if isinstance(dice, int) else dice
    top = vehicle.left
    kinds = _ref_kinds(die, vehicle, attack)
    polys = _ref_pen_polys(vehicle, attack)
    glance = np.array([0.0, 1.0]) if vehicle.glance_costs_hp else np.array([1.0])
    shields = vehicle.void_shields if attack.shooting else 0
    table = attack.damage_table and not vehicle.glance_costs_hp
    p_glance = sum(p for p, _, k in kinds if k == "g")
    causes = {s: (table and p_glance > 0.0) or s in attack.shock for s in _TABLE_STATUSES}
    avoid: dict[frozenset[str], np.ndarray] = {}
    for r in range(len(_TABLE_STATUSES) + 1):
        for subset in itertools.combinations(_TABLE_STATUSES, r):
            hit_by = frozenset(subset)
            z_glance = 1.0 - 2.0 * len(hit_by) / 6.0 if table else 1.0
            z_shock = 0.0 if hit_by & set(attack.shock) else 1.0
            total = np.zeros((top + 1, shields + 1))
            for n, q in enumerate(counts.probabilities):
                if q > 0.0:
                    total += q * _ref_hull_poly(
                        kinds, polys, n, shields, top, glance, z_glance=z_glance, z_shock=z_shock
                    )
            avoid[hit_by] = total
    everything = frozenset(_TABLE_STATUSES)
    joint: dict[frozenset[str], np.ndarray] = {}
    for r in range(len(_TABLE_STATUSES) + 1):
        for given in itertools.combinations(_TABLE_STATUSES, r):
            exact = frozenset(given)
            value = np.zeros((top + 1, shields + 1))
            for k in range(len(exact) + 1):
                for part in itertools.combinations(sorted(exact), k):
                    value += (-1) ** (len(exact) - k) * avoid[everything - frozenset(part)]
            joint[exact] = np.clip(value, 0.0, None)
            joint[exact].flags.writeable = False  # memoised: shared by every caller
    per_die = {k: sum(p for p, _, kk in kinds if kk in k) for k in ("g", "uca")}
    tallies = {
        "hits": _ref_binomial_mixture(counts, 1.0 - die.p_hit("none")),
        "critical_hits": _ref_binomial_mixture(counts, die.p_hit("critical")),
        "glancing": _ref_binomial_mixture(counts, per_die["g"]),
        "penetrating": _ref_binomial_mixture(counts, per_die["uca"]),
    }
    return joint, causes, tallies


def _ref_binomial_mixture(counts: Dist, p: float) -> Dist:
    out = np.zeros(counts.max + 1)
    for n, q in enumerate(counts.probabilities):
        if q > 0.0:
            out[: n + 1] += q * binomial_pmf(n, min(max(p, 0.0), 1.0))
    return Dist.from_trusted(out)


def _ref_sequence(shots: list[VehicleShot], vehicle: HH3Vehicle) -> tuple[np.ndarray, dict[str, float], dict]:
    """(hull points lost pmf, P(each status held), the tallies) of ``shots`` in order, one state at a time."""
    states: dict[tuple[int, int, frozenset[str]], float] = {(vehicle.left, vehicle.void_shields, frozenset()): 1.0}
    tallies: dict[str, Dist] = {}
    for shot in shots:
        facing = vehicle if shot.armour is None else replace(vehicle, armour=shot.armour)
        nxt: dict[tuple[int, int, frozenset[str]], float] = defaultdict(float)
        first = None
        for (hp, shields, held), p in states.items():
            if hp == 0:
                nxt[(hp, shields, held)] += p
                continue
            table, _, counts = _ref_joint(
                shot.dice, shot.die, replace(facing, hp_left=hp, void_shields=shields), shot.attack
            )
            first = first or counts
            for given, t in table.items():
                for k, u in zip(*np.nonzero(t > 0.0), strict=True):
                    left = hp - int(k)
                    nxt[(left, shields - int(u), held | given if left else frozenset())] += p * float(t[k, u])
        first = first or _ref_joint(shot.dice, shot.die, replace(facing, hp_left=1, void_shields=0), shot.attack)[2]
        for key, dist in first.items():
            tallies[key] = tallies[key] + dist if key in tallies else dist
        states = dict(nxt)
    lost = np.zeros(vehicle.left + 1)
    held_p: dict[str, float] = defaultdict(float)
    for (hp, _, held), p in states.items():
        lost[vehicle.left - hp] += p
        if hp > 0:
            for s in held:
                held_p[s] += p
    return lost, dict(held_p), tallies


# --------------------------------------------------------------------------- generated cases
def _dice(rng: random.Random) -> Dist | int:
    kind = rng.random()
    if kind < 0.3:
        return rng.randint(0, 12)
    if kind < 0.6:  # a binomial of hits, as a Fire Group's dice
        return Dist.from_trusted(binomial_pmf(rng.randint(1, 12), rng.random()))
    return parse_dice(rng.choice(["D3", "2D3", "D6", "D6+2", "3D3"])).dist


def _die(rng: random.Random) -> DieOutcomes:
    faces = [rng.choice(["none", "hit", "critical"]) for _ in range(6)]
    return rng.choice(
        [
            DieOutcomes.from_faces(faces),  # type: ignore[arg-type]
            DieOutcomes.from_test(rng.randint(2, 6), rng.choice([None, 4, 6])),
            DieOutcomes.marker(DieOutcomes.from_faces(faces), rng.random()),  # type: ignore[arg-type]
            DieOutcomes.certain_hit(),
        ]
    )


def _vehicle(rng: random.Random) -> HH3Vehicle:
    hp = rng.randint(1, 12)
    return HH3Vehicle(
        armour=rng.choice([0, 10, 11, 12, 13, 14]),
        hp=hp,
        hp_left=rng.randint(1, hp),
        invulnerable=rng.choice([None, None, 4, 5]),
        cover=rng.choice([None, 5, 6]),
        feel_no_pain=rng.choice([None, None, 5]),
        shrouded=rng.choice([None, 4]),
        void_shields=rng.choice([0, 0, 0, 1, 2, 3]),
        glance_costs_hp=rng.random() < 0.3,
        explodes=rng.choice([None, 4, 6]),
    )


def _attack(rng: random.Random) -> PenetratingAttack:
    return PenetratingAttack(
        strength=rng.randint(4, 10),
        damage=parse_dice(rng.choice(["1", "2", "D3", "3", "D6"])).dist,
        armourbane=rng.random() < 0.3,
        melta=rng.random() < 0.2,
        armour_breaker=rng.choice([None, None, 4, 6]),
        shooting=rng.random() < 0.7,
        damage_table=rng.random() < 0.85,
        shock=rng.choice([(), (), ("Pinned",), ("Stunned",), ("Suppressed",), ("Pinned", "Stunned", "Suppressed")]),
        critical_vs_vehicle=rng.choice(["damage", "damage", "wasted"]),
        apt_natural_one_fails=rng.random() < 0.8,
    )


@pytest.mark.parametrize("seed", range(80))
def test_volley_joint_matches_the_chain_it_replaced(seed: int) -> None:
    rng = random.Random(9000 + seed)
    dice, die, v, a = _dice(rng), _die(rng), _vehicle(rng), _attack(rng)
    clear_memos()
    got = volley_joint(dice, die, v, a)
    table, causes, tallies = _ref_joint(dice, die, v, a)
    assert got.causes == causes
    assert set(got.table) == set(table)
    for given, want in table.items():
        assert got.table[given].shape == want.shape
        assert np.abs(got.table[given] - want).max(initial=0.0) <= 1e-12, given
    for key, dist in tallies.items():
        assert got.counts[key].isclose(dist, atol=1e-12), key


@pytest.mark.parametrize("seed", range(60))
def test_sequence_matches_the_states_one_by_one(seed: int) -> None:
    rng = random.Random(7000 + seed)
    v = _vehicle(rng)
    shots = [
        VehicleShot(_dice(rng), _die(rng), _attack(rng), rng.choice([None, None, v.armour, 10, 12]))
        for _ in range(rng.randint(1, 4))
    ]
    clear_memos()
    got = resolve_vehicle_sequence_hh3(shots, v)
    lost, held, tallies = _ref_sequence(shots, v)
    assert np.allclose(
        np.pad(got.hull_points.probabilities, (0, lost.size - got.hull_points.probabilities.size)),
        lost,
        atol=1e-12,
        rtol=0,
    )
    assert got.wrecked == pytest.approx(lost[-1], abs=1e-12)
    if v.explodes is not None:
        assert got.explodes == pytest.approx(lost[-1] * p_at_least(v.explodes), abs=1e-12)
    for s in _TABLE_STATUSES:
        assert (got.statuses[s] or 0.0) == pytest.approx(min(held.get(s, 0.0), 1.0), abs=1e-12), s
    for key, dist in tallies.items():
        assert getattr(got, key).isclose(dist, atol=1e-12), key


def test_a_mutation_of_the_inclusion_signs_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The yardstick can fail: two certain hits, S 7 against armour 10 (a glance on a 3), hull points enough never
    to be wrecked, give mass to sets of two statuses, and one wrong sign in the inclusion and exclusion moves it."""
    v, a = HH3Vehicle(armour=10, hp=9), PenetratingAttack(strength=7)
    table, _, _ = _ref_joint(2, DieOutcomes.certain_hit(), v, a)
    two = frozenset({"Pinned", "Stunned"})
    assert float(table[two].sum()) > 0.001
    clear_memos()
    assert np.abs(volley_joint(2, DieOutcomes.certain_hit(), v, a).table[two] - table[two]).max() <= 1e-12
    signs = chain._INCLUSION.copy()
    signs[list(chain.STATUS_SETS).index(two)] *= -1.0
    monkeypatch.setattr(chain, "_INCLUSION", signs)
    clear_memos()
    assert np.abs(volley_joint(2, DieOutcomes.certain_hit(), v, a).table[two] - table[two]).max() > 0.001
    clear_memos()
