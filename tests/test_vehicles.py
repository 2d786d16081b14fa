"""Vehicles: pinned values (each with its source), invariants, the damage table as data, the API."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from praetor_analysis.prob.dice import binomial_pmf
from praetor_analysis.prob.dist import Dist
from praetor_analysis.vehicles.damage_table import (
    DEFAULT_DAMAGE_TABLE,
    VEHICLE_DAMAGE_BANDS,
    DamageBand,
    DamageTable,
    bands_from_csv,
    bands_to_csv,
    load_damage_table,
)
from praetor_analysis.vehicles.hull_points import (
    VehicleVolley,
    gets_hot_on_vehicle,
    resolve_vehicle,
    resolve_vehicle_sequence,
)
from praetor_analysis.vehicles.penetration import PenetratingWeapon, VehicleTarget, hit_outcome

KRAK = PenetratingWeapon(strength=8, ap=3, name="Krak missile")
LASCANNON = PenetratingWeapon(strength=9, ap=2, name="Lascannon")
RHINO = VehicleTarget(front=11, side=11, rear=10, hp=3, name="Rhino")
LAND_RAIDER = VehicleTarget(front=14, side=14, rear=14, hp=5, name="Land Raider")


def _close(a: float, b: float, tol: float = 1e-12) -> bool:
    return abs(a - b) <= tol


# --- pinned values ------------------------------------------------------------------------------------
def test_krak_against_rhino_front():
    # Source: the issue / MECHANICS 8 by hand: D6 + 8 against 11 penetrates on 4+ (1/2), glances on a 3 (1/6).
    roll = hit_outcome(KRAK, RHINO).roll
    assert _close(roll[2], 1 / 2) and _close(roll[1], 1 / 6) and _close(roll[0], 1 / 3)


def test_lascannon_against_land_raider_only_penetrates_on_a_six():
    # Source: the issue: D6 + 9 against 14 penetrates only on a 6 and glances on a 5.
    roll = hit_outcome(LASCANNON, LAND_RAIDER).roll
    assert _close(roll[2], 1 / 6) and _close(roll[1], 1 / 6)


def test_armourbane_lascannon_against_land_raider():
    # Source: the brute-force enumeration in test_vehicles_bruteforce.py (2D6 + 9 against 14):
    # 26/36 of the 36 rolls total 6+, 4/36 total exactly 5.
    roll = hit_outcome(dataclasses.replace(LASCANNON, armourbane=True), LAND_RAIDER).roll
    assert _close(roll[2], 26 / 36) and _close(roll[1], 4 / 36)


def test_rhino_wrecked_by_four_krak_missiles_at_bs4():
    # Source: by hand. Each of 4 shots hits (2/3) and then glances or penetrates (2/3): a hull point with
    # p = 4/9, independently; AP 3 cannot roll Explodes (D6 + 0 <= 6), so every hit removes exactly 1.
    # P(at least 3 of 4) = (4 * 4^3 * 5 + 4^4) / 9^4 = 1536 / 6561 = 512 / 2187.
    result = resolve_vehicle(Dist(binomial_pmf(4, 2 / 3)), KRAK, RHINO)
    assert _close(result.wrecked, 512 / 2187)
    assert result.damage_results["Explodes"] == 0.0
    assert _close(result.hull_points.mean(), 3 - np.dot(np.arange(4), result.state))


def test_lance_counts_armour_above_twelve_as_twelve():
    # Source: MECHANICS 8 by hand: S8 Lance against 14 is D6 + 8 against 12: pen 5+ (1/3), glance 4 (1/6).
    out = hit_outcome(PenetratingWeapon(8, 2, lance=True), LAND_RAIDER)
    assert out.armour == 12 and _close(out.roll[2], 1 / 3) and _close(out.roll[1], 1 / 6)


def test_haywire_replaces_the_roll():
    # Source: MECHANICS 8: 1 nothing, 2-5 Glancing, 6 Penetrating, whatever the Strength and armour.
    out = hit_outcome(PenetratingWeapon(1, None, haywire=True, sunder=True), LAND_RAIDER)
    assert np.allclose(out.roll, [1 / 6, 4 / 6, 1 / 6], atol=1e-15)
    assert "Sunder" in out.not_modelled and "Haywire" in out.applied


def test_ordnance_keeps_the_higher_die():
    # Source: by hand: the higher of two D6 is 6 with 11/36 and 5 with 9/36.
    # S8 against 13: pen on a 6 (11/36), glance on a 5 (9/36).
    out = hit_outcome(PenetratingWeapon(8, 2, ordnance=True), dataclasses.replace(LAND_RAIDER, front=13))
    assert _close(out.roll[2], 11 / 36) and _close(out.roll[1], 9 / 36)


def test_destroyer_rolls_one_die_and_does_d3_hull_points():
    # Source: the rules model (Destroyer: D3 HP per Glancing or Penetrating Hit; penetration D6 + S), by
    # hand, the earlier reading kept as an option. S10 against 12: a 1 does nothing, a 2 glances, 3 to 6
    # penetrate.
    out = hit_outcome(PenetratingWeapon(10, 1, destroyer=True, destroyer_one_die=True), VehicleTarget(12, 12, 12, 6))
    assert _close(out.roll[2], 4 / 6) and _close(out.roll[1], 1 / 6)
    assert {hp for seq in out.sequences for hp, _ in seq} == {1, 2, 3, 4, 5, 6}  # D3, and Explodes' D3 more


def test_destroyer_three_dice_is_the_rules_texts_reading():
    # Source: rules-reference "Destroyer", by hand (the default since MECHANICS 8 was corrected). S10 against 20 (not a real
    # armour, to isolate the top of the roll) penetrates when the two kept dice total 11+. Total 12: at least
    # two 6s, 3 * 5 + 1 = 16 rolls; total 11: one 6, one 5, the third 1-4 (4 * 6 = 24 rolls) or 5 (3 rolls).
    # (16 + 27) / 216. Total 10 (a glance): 6+4 with the third 1-3 (18) or 4 (3), 5+5 with the third 1-4 (12)
    # or 5 (1).
    out = hit_outcome(PenetratingWeapon(10, 1, destroyer=True), VehicleTarget(20, 20, 20, 5))
    assert _close(out.roll[2], 43 / 216) and _close(out.roll[1], 34 / 216)
    # Rending (6+) counts a kept die. S4 against 20: at most 4 + 12 + 3 = 19, nothing.
    rend = hit_outcome(PenetratingWeapon(4, 1, destroyer=True, rending=6), VehicleTarget(20, 20, 20, 5))
    assert _close(rend.roll[2], 0.0) and _close(rend.roll[1], 0.0)
    rend = hit_outcome(PenetratingWeapon(6, 1, destroyer=True, rending=6), VehicleTarget(20, 20, 20, 5))
    # S6: 6 + 6 + 6 = 18 + D3 (19, 20, 21): glance 1/3, pen 1/3 of the 16/216 double sixes; 6 + 5 + 6 = 17 + D3
    # glances on a 3 (1/3) of the 27/216 rolls keeping one 6 and one 5
    assert _close(rend.roll[2], 16 / 216 / 3) and _close(rend.roll[1], 16 / 216 / 3 + 27 / 216 / 3)


def test_sunder_rerolls_a_glance_only_when_it_pays():
    # Source: by hand, expected hull points of one hit (no saves).
    # S7 AP2 against 11: a glance is worth 1; a fresh roll glances 1/6 (1) and pens 1/3, a pen being
    # 1 + P(Explodes: D6 + 1 >= 7 = 1/6) * 2 = 4/3, so 1/6 + 4/9 = 11/18 < 1: keep the glance.
    keep = hit_outcome(PenetratingWeapon(7, 2, sunder=True), RHINO)
    assert not keep.sunder_rerolls_glancing
    # A failed roll (1/2) is re-rolled: P(pen) = 1/3 + 1/2 * 1/3 = 1/2, P(glance) = 1/6 + 1/2 * 1/6 = 1/4.
    assert _close(keep.roll[2], 1 / 2) and _close(keep.roll[1], 1 / 4)
    # S10 AP1 against 11: a glance (a 1) is worth 1; a fresh roll pens 5/6, each 1 + (1/3) * 2 = 5/3,
    # so 25/18 > 1: re-roll. P(pen) = 5/6 + 1/6 * 5/6 = 35/36.
    reroll = hit_outcome(PenetratingWeapon(10, 1, sunder=True), RHINO)
    assert reroll.sunder_rerolls_glancing and _close(reroll.roll[2], 35 / 36)


def test_damage_table_rows():
    # Source: MECHANICS 8 by hand. AP1: D6 + 2, Explodes on 5-6 (1/3). Slow AP1: the lower of 2D6 + 2 is 7+
    # when both dice are 5+: 1/9. AP "-": D6 - 1, Crew Shaken on 1-4 (2/3).
    def p(ap, slow, name):
        return sum(q for q, res, _ in DEFAULT_DAMAGE_TABLE.outcomes(ap, slow=slow) if res == name)

    assert _close(p(1, False, "Explodes"), 1 / 3)
    assert _close(p(1, True, "Explodes"), 1 / 9)
    assert _close(p(None, False, "Crew Shaken"), 2 / 3)
    assert _close(p(4, False, "Immobilised"), 1 / 6)


def test_single_ap1_hit_on_one_hull_point_left():
    # Source: by hand: S10 AP1 against 10 always penetrates; any pen wrecks a 1-HP vehicle, and its table
    # roll counts: Explodes 1/3, Immobilised 1/6, Weapon Destroyed 1/6, Crew Stunned 1/6, Shaken 1/6.
    target = VehicleTarget(10, 10, 10, 3, hp_left=1)
    res = resolve_vehicle(Dist.point(1), PenetratingWeapon(10, 1), target)
    assert _close(res.wrecked, 1.0)
    assert _close(res.damage_results["Explodes"], 1 / 3)
    assert _close(res.damage_results["Crew Shaken"], 1 / 6)
    assert res.hull_points.probabilities.tolist() == [0.0, 1.0]


def test_gets_hot_on_a_vehicle_firer():
    # Source: rules-reference "Gets Hot": a D6 per 1, a Glancing Hit on 1-2: Binomial(n, 1/3).
    out = gets_hot_on_vehicle(Dist.point(3))
    np.testing.assert_allclose(out.probabilities, binomial_pmf(3, 1 / 3), atol=1e-15)
    res = resolve_vehicle(Dist.point(2), dataclasses.replace(KRAK, gets_hot=True), RHINO)
    assert "Gets Hot" in res.not_modelled


def test_exoshock_extra_hit_takes_no_cover_by_the_text():
    # Source: MECHANICS 8 as corrected (the extra hit allows no cover), by hand. S10 AP2 against 10 always
    # pens; cover 2+ saves it but for 1/6; Exoshock (2+) adds an extra hit with 5/6 that no cover saves.
    out = hit_outcome(PenetratingWeapon(10, 2, exoshock=2), VehicleTarget(10, 10, 10, 5, cover=2))
    pmf = out.count_pmf("penetrating")
    assert _close(pmf[2], 1 / 6 * 5 / 6) and _close(pmf[1], 1 / 6 * 1 / 6 + 5 / 6 * 5 / 6)
    assert _close(out.unsaved, 1 / 6) and _close(out.unsaved_exoshock, 1.0)
    # an invulnerable save is still taken (4+ against both), and Destroyer's D3 is not the extra hit's
    out = hit_outcome(
        PenetratingWeapon(10, None, exoshock=2, destroyer=True), VehicleTarget(10, 10, 10, 9, invulnerable=4)
    )
    assert _close(out.unsaved_exoshock, 1 / 2)
    # AP - never Explodes: the mean is D3 (2) x 1/2 + 5/6 x 1/2 x 1
    assert _close(out.expected_hull_points(), 1 + 5 / 12)


def test_exoshock_extra_hit_is_saved_like_any_penetrating_hit():
    # Source: the rules model (cover may be taken against Glancing and Penetrating Hits; Exoshock adds another
    # Penetrating Hit), by hand: the earlier reading, kept as an option. S10 AP2 against 10 always pens; cover
    # 2+ saves a hit but for 1/6; Exoshock (2+) adds an extra hit with 5/6, saved alike.
    target = VehicleTarget(10, 10, 10, 5, cover=2)
    out = hit_outcome(PenetratingWeapon(10, 2, exoshock=2, exoshock_like_any_hit=True), target)
    pmf = out.count_pmf("penetrating")
    # two unsaved: both stand (1/6 x 5/6 x 1/6); one: exactly one of them stands
    assert _close(pmf[2], 1 / 6 * 5 / 6 * 1 / 6)
    assert _close(pmf[1], 1 / 6 * (1 - 5 / 6 * 1 / 6) + 5 / 6 * 5 / 6 * 1 / 6)
    assert _close(out.unsaved, 1 / 6) and _close(out.unsaved_exoshock, 1 / 6)


# --- readings of the rules ------------------------------------------------------------------------------
def test_facings():
    target = VehicleTarget(14, 12, 10, 3, facing="Front")
    assert hit_outcome(KRAK, target).armour == 14
    assert hit_outcome(dataclasses.replace(KRAK, barrage_or_megablast=True), target).armour == 12
    # melee hits use the facing the attacker touches (issue 13 reading 7), no longer always the Rear
    assert hit_outcome(dataclasses.replace(KRAK, is_melee=True), target).armour == 14
    assert (
        hit_outcome(dataclasses.replace(KRAK, is_melee=True), dataclasses.replace(target, facing="Rear")).armour == 10
    )
    assert hit_outcome(KRAK, dataclasses.replace(target, facing="Side")).armour == 12


def test_melta_only_at_half_range():
    melta = PenetratingWeapon(8, 1, melta=True)
    near = hit_outcome(melta, LAND_RAIDER, half_range=True).roll
    far = hit_outcome(melta, LAND_RAIDER, half_range=False).roll
    assert np.allclose(near, hit_outcome(PenetratingWeapon(8, 1, armourbane=True), LAND_RAIDER).roll)
    assert np.allclose(far, hit_outcome(PenetratingWeapon(8, 1), LAND_RAIDER).roll)


def test_template_and_ignores_cover_deny_cover_and_shrouded():
    target = VehicleTarget(11, 11, 10, 3, cover=4, shrouded=5)
    bare = hit_outcome(KRAK, VehicleTarget(11, 11, 10, 3))
    for weapon in (dataclasses.replace(KRAK, template=True), dataclasses.replace(KRAK, ignores_cover=True)):
        assert hit_outcome(weapon, target).sequences == bare.sequences
    covered = hit_outcome(KRAK, target)
    assert _close(covered.unsaved, 1 / 2 * 2 / 3)


def test_reinforced_structure_only_against_shooting():
    target = VehicleTarget(11, 11, 11, 3, reinforced=True)
    assert _close(hit_outcome(KRAK, target).unsaved, 2 / 3)
    assert _close(hit_outcome(dataclasses.replace(KRAK, is_melee=True), target).unsaved, 1.0)


def test_slow_from_unit_type():
    assert VehicleTarget(11, 11, 10, 3, unit_type="Vehicle (Transport, Slow)").is_slow
    assert not VehicleTarget(11, 11, 10, 3, unit_type="Vehicle (Transport)").is_slow


# --- invariants ---------------------------------------------------------------------------------------
weapons = st.builds(
    PenetratingWeapon,
    strength=st.integers(1, 10),
    ap=st.sampled_from([None, 1, 2, 3, 4]),
    rending=st.sampled_from([None, 4, 6]),
    armourbane=st.booleans(),
    ordnance=st.booleans(),
    lance=st.booleans(),
    sunder=st.booleans(),
    haywire=st.booleans(),
    exoshock=st.sampled_from([None, 4]),
    destroyer=st.booleans(),
)
targets = st.builds(
    VehicleTarget,
    front=st.integers(10, 14),
    side=st.integers(10, 14),
    rear=st.integers(10, 14),
    hp=st.integers(1, 6),
    invulnerable=st.sampled_from([None, 5]),
    cover=st.sampled_from([None, 4]),
    shrouded=st.sampled_from([None, 6]),
    slow=st.booleans(),
)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(weapon=weapons, target=targets, n=st.integers(0, 8), p=st.sampled_from([0.5, 2 / 3, 1.0]))
def test_invariants(weapon, target, n, p):
    hits = Dist(binomial_pmf(n, p))
    res = resolve_vehicle(hits, weapon, target)
    for dist in (res.glancing, res.penetrating, res.hull_points):
        assert abs(dist.probabilities.sum() - 1.0) <= 1e-12
    assert abs(res.state.sum() - 1.0) <= 1e-12 and res.state.size == target.hp + 1
    assert _close(res.hull_points.mean(), target.hp - np.dot(np.arange(target.hp + 1), res.state))
    assert res.hull_points.max <= target.hp
    assert _close(res.wrecked, res.hull_points.pmf(target.hp))
    assert _close(sum(res.per_hit.sequences.values()), 1.0)
    for name, q in res.damage_results.items():
        assert -1e-15 <= q <= res.penetrating.at_least(1) + 1e-12, name
    # More hits never lower P(wrecked).
    more = resolve_vehicle(Dist(binomial_pmf(n + 1, p)), weapon, target)
    assert more.wrecked >= res.wrecked - 1e-12
    # Higher armour never raises it.
    if target.facing == "Front" and target.front < 14:
        harder = dataclasses.replace(target, front=target.front + 1)
        assert resolve_vehicle(hits, weapon, harder).wrecked <= res.wrecked + 1e-12
    # A better invulnerable save never raises it.
    safer = dataclasses.replace(target, invulnerable=4)
    assert resolve_vehicle(hits, weapon, safer).wrecked <= res.wrecked + 1e-12


def test_state_carries_over():
    # Two volleys of 2 krak hits are one volley of 4 hits.
    one = resolve_vehicle(Dist.point(4), KRAK, RHINO)
    first, second = resolve_vehicle_sequence([(Dist.point(2), KRAK), VehicleVolley(Dist.point(2), KRAK)], RHINO)
    np.testing.assert_allclose(second.state, one.state, atol=1e-15)
    assert _close(second.wrecked, one.wrecked)
    assert first.state.sum() == pytest.approx(1.0)
    # A start at hp_left is the same as the target's hp_left.
    damaged = dataclasses.replace(RHINO, hp_left=2)
    start = np.array([0.0, 0.0, 1.0])
    a = resolve_vehicle(Dist.point(2), KRAK, damaged)
    b = resolve_vehicle(Dist.point(2), KRAK, RHINO, start)
    np.testing.assert_allclose(a.state, b.state, atol=1e-15)
    assert a.hull_points.isclose(b.hull_points)


def test_large_attack_is_fast_and_normalised():
    target = VehicleTarget(14, 13, 12, 12)
    res = resolve_vehicle(Dist(binomial_pmf(200, 0.5)), PenetratingWeapon(10, 1, destroyer=True, exoshock=4), target)
    assert _close(res.state.sum(), 1.0) and res.wrecked > 0.999


def test_no_hits_changes_nothing():
    res = resolve_vehicle(Dist.point(0), KRAK, RHINO)
    assert res.wrecked == 0.0 and res.hull_points == Dist.point(0)
    assert all(q == 0.0 for q in res.damage_results.values())


# --- the table as data --------------------------------------------------------------------------------
def test_shipped_csv_equals_the_constant():
    assert load_damage_table() == DEFAULT_DAMAGE_TABLE
    assert bands_from_csv(bands_to_csv(VEHICLE_DAMAGE_BANDS)) == VEHICLE_DAMAGE_BANDS


def test_user_table_overrides(tmp_path):
    # A table where 6+ already Explodes: S10 AP4 against 10 pens always; Explodes then on a 6 (1/6).
    text = bands_to_csv(VEHICLE_DAMAGE_BANDS).replace("6,6,Immobilised,0", "6,,Explodes,D3")
    text = text.replace("7,,Explodes,D3\n", "")
    path = tmp_path / "table.csv"
    path.write_text(text, encoding="utf-8")
    table = load_damage_table(path)
    res = resolve_vehicle(Dist.point(1), PenetratingWeapon(10, 4), VehicleTarget(10, 10, 10, 5), table=table)
    assert _close(res.damage_results["Explodes"], 1 / 6) and "Immobilised" not in res.damage_results


def test_table_must_cover_every_roll():
    with pytest.raises(ValueError, match="exactly one band"):
        DamageTable((DamageBand(None, 3, "Crew Shaken"), DamageBand(5, None, "Explodes", "D3")))
    with pytest.raises(ValueError, match="low"):
        bands_from_csv("low,high,result,extra_hull_points\nx,3,Crew Shaken,0\n")


# --- validation and reporting -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("factory", "field"),
    [
        (lambda: PenetratingWeapon(21), "strength"),
        (lambda: PenetratingWeapon(8, 7), "ap"),
        (lambda: PenetratingWeapon(8, rending=9), "rending"),
        (lambda: VehicleTarget(11, 11, 10, 3, facing="Top"), "facing"),
        (lambda: VehicleTarget(11, 11, 10, 3, hp_left=4), "hp_left"),
        (lambda: VehicleTarget(11, 11, 10, 3, invulnerable={"Top": 4}), "invulnerable"),
    ],
)
def test_bad_input_names_the_field(factory, field):
    with pytest.raises(ValueError, match=field):
        factory()


def test_bad_start_and_hits():
    with pytest.raises(ValueError, match="start"):
        resolve_vehicle(Dist.point(1), KRAK, RHINO, np.array([0.0, 0.0, 0.0, 0.0, 1.0]))
    with pytest.raises(ValueError, match="hits"):
        resolve_vehicle(np.array([0.5, 0.2]), KRAK, RHINO)


def test_to_dict_follows_the_scenario_contract():
    out = resolve_vehicle(Dist.point(2), dataclasses.replace(KRAK, rending=6), RHINO).to_dict()
    for key in ("glancing", "penetrating", "hull_points", "wrecked", "applied", "not_modelled"):
        assert key in out
    assert set(out["hull_points"]) == {"pmf", "mean"}
    assert "Rending (6+)" in out["applied"]
