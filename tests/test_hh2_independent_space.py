"""Independent checks of `praetor calc` (2nd edition) in space: vehicles (MECHANICS section 8) and markers
over formations (section 6), against ``tests/hh2_brute_space.py`` (every die enumerated, the scatter direction
integrated exactly by arcs); every field the result returns at 1e-12."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from praetor_analysis.scenario.calc import calc, calc_many
from tests import hh2_brute as b
from tests import hh2_brute_space as bsp
from tests.hh2_docs import (
    DF,
    F1,
    TG,
    WD,
    S,
    assert_close,
    check_case,
    check_many,
    infantry,
    melee,
    merged,
    same_dist,
    same_vehicle,
    shoot,
    unit_case,
    vehicle,
    weapon,
)


def vehicle_cases() -> dict[str, tuple[Any, ...]]:
    """Scenario name -> ("vehicle", document, brute-force expectation, None)."""
    c: dict[str, tuple[Any, ...]] = {}
    # section 8: vehicles
    g = bsp.Gun
    c["lascannon"] = (
        "vehicle",
        shoot(weapon(9, 2, "Heavy 1"), vehicle(12), attacks=2),
        bsp.vehicle_attack(F1(2), S(4), g(9, 2, 12), 3),
        None,
    )
    c["autocannon_glance"] = (
        "vehicle",
        shoot(weapon(7, 4, "Heavy 2"), vehicle(11, hp=2, Cover="5+")),
        bsp.vehicle_attack(F1(2), S(4), g(7, 4, 11, cover=5), 2),
        None,
    )
    c["ap_dash_pen"] = (
        "vehicle",
        shoot(weapon(6, "-", "Assault 2"), vehicle(10, hp=2)),
        bsp.vehicle_attack(F1(2), S(4), g(6, None, 10), 2),
        None,
    )
    c["ap1_ion"] = (
        "vehicle",
        shoot(weapon(9, 1, "Heavy 1"), vehicle(13, hp=3, Invulnerable="4+"), attacks=2),
        bsp.vehicle_attack(F1(2), S(4), g(9, 1, 13, invulnerable=4), 3),
        None,
    )
    c["lance"] = (
        "vehicle",
        shoot(weapon(8, 2, "Heavy 1, Lance"), vehicle(14), attacks=2),
        bsp.vehicle_attack(F1(2), S(4), g(8, 2, 14, lance=True), 3),
        None,
    )
    c["armourbane"] = (
        "vehicle",
        shoot(weapon(8, 1, "Assault 1, Armourbane"), vehicle(14, hp=4)),
        bsp.vehicle_attack(F1(1), S(4), g(8, 1, 14, armourbane=True), 4),
        None,
    )
    c["ordnance"] = (
        "vehicle",
        shoot(weapon(8, 3, "Ordnance 1"), vehicle(13), hits=1),
        bsp.vehicle_attack(F1(1), S(no_hit_roll=True), g(8, 3, 13, ordnance=True), 3),
        None,
    )
    c["rending_vehicle"] = (
        "vehicle",
        shoot(weapon(4, 5, "Assault 2, Rending (6+)"), vehicle(10, hp=2)),
        bsp.vehicle_attack(F1(2), S(4), g(4, 5, 10, rending=6), 2),
        None,
    )
    c["haywire"] = (
        "vehicle",
        shoot(weapon(3, "-", "Assault 2, Haywire"), vehicle(14, hp=3, Invulnerable="5+")),
        bsp.vehicle_attack(F1(2), S(4), g(3, None, 14, haywire=True, invulnerable=5), 3),
        None,
    )
    c["destroyer_vehicle"] = (
        "vehicle",
        shoot(weapon(8, 2, "Heavy 1, Destroyer"), vehicle(14, hp=5, Cover="5+")),
        bsp.vehicle_attack(F1(1), S(4), g(8, 2, 14, destroyer=True, cover=5), 5),
        None,
    )
    c["destroyer_rending"] = (
        "vehicle",
        shoot(weapon(4, 2, "Heavy 1, Destroyer, Rending (6+)"), vehicle(14, hp=4)),
        bsp.vehicle_attack(F1(1), S(4), g(4, 2, 14, destroyer=True, rending=6), 4),
        None,
    )
    c["exoshock"] = (
        "vehicle",
        shoot(weapon(7, 2, "Heavy 2, Exoshock (4+)"), vehicle(11, hp=3, Cover="4+", Invulnerable="5+")),
        bsp.vehicle_attack(F1(2), S(4), g(7, 2, 11, exoshock=4, cover=4, invulnerable=5), 3),
        None,
    )
    c["exoshock_no_save"] = (
        "vehicle",
        shoot(weapon(9, "-", "Heavy 1, Exoshock (5+)"), vehicle(10, hp=4)),
        bsp.vehicle_attack(F1(1), S(4), g(9, None, 10, exoshock=5), 4),
        None,
    )
    return c


CASES_VEHICLE_BASE = vehicle_cases()


def grid(models: int, columns: int, base_mm: float = 32, gap: float = 2) -> list[tuple[float, float]]:
    step = base_mm / 25.4 + gap
    return [((i % columns) * step, (i // columns) * step) for i in range(models)]


def best_aim(positions: list[tuple[float, float]], radius: float, base_mm: float, bs: int) -> dict[int, float]:
    """SCENARIO: without `aim`, the model giving the most expected hits (ties: the lowest index)."""
    best: dict[int, float] = {}
    best_mean = -1.0
    for i in range(len(positions)):
        d = bsp.blast_hits(positions, i, radius, base_mm, bs)
        m = sum(k * p for k, p in d.items())
        if m > best_mean + 1e-12:
            best, best_mean = d, m
    return best


def convolve(a: dict[int, Any], c: dict[int, Any]) -> dict[int, Any]:
    out: dict[int, Any] = {}
    for i, p in a.items():
        for j, q in c.items():
            out[i + j] = out.get(i + j, 0) + p * q
    return out


def blast_doc(kind: str, models: int, columns: int, **kw: Any) -> dict[str, Any]:
    doc = shoot(weapon(4, 5, kind), infantry(models=models, save="4+"))
    doc["formation"] = {"models": models, "base_mm": 32, "gap": 2, "columns": columns}
    doc.update(kw)
    return doc


def marker_cases() -> dict[str, tuple[Any, ...]]:
    sv4 = DF(save=4)
    c: dict[str, tuple[Any, ...]] = {}
    two = bsp.blast_hits(grid(2, 5), 0, 1.5, 32, 4)
    c["blast_two_models"] = unit_case(
        blast_doc('Heavy 1, Blast (3")', 2, 5), b.attack([], S(4), WD(4, 4, 5), TG(2, 1, sv4), hits_given=two)
    )
    five = best_aim(grid(5, 3), 1.5, 32, 4)
    c["blast_auto_aim"] = unit_case(
        blast_doc('Heavy 1, Blast (3")', 5, 3), b.attack([], S(4), WD(4, 4, 5), TG(5, 1, sv4), hits_given=five)
    )
    aimed = bsp.blast_hits(grid(4, 2), 3, 2.5, 32, 4)
    c["large_blast_aimed"] = unit_case(
        blast_doc('Heavy 1, Large Blast (5")', 4, 2, aim={"model": 3}),
        b.attack([], S(4), WD(4, 4, 5), TG(4, 1, sv4), hits_given=aimed),
    )
    one = bsp.blast_hits(grid(3, 3), 1, 1.5, 32, 4)
    c["two_blasts"] = unit_case(
        blast_doc('Heavy 2, Blast (3")', 3, 3, aim={"model": 1}),
        b.attack([], S(4), WD(4, 4, 5), TG(3, 1, sv4), hits_given=convolve(one, one)),
    )
    barrage = bsp.blast_hits(grid(3, 3), 0, 1.5, 32, 0)
    c["barrage_indirect"] = unit_case(
        blast_doc('Heavy 1, Barrage, Blast (3")', 3, 3, aim={"model": 0}, indirect=True),
        b.attack([], S(4), WD(4, 4, 5), TG(3, 1, sv4), hits_given=barrage),
    )
    edge = bsp.blast_hits(grid(3, 3), 1, 1.5, 32, 4, edges=(-20.0, 4.0, -1.0, 30.0))
    c["blast_edges"] = unit_case(
        blast_doc(
            'Heavy 1, Blast (3")', 3, 3, aim={"model": 1}, edges={"xmin": -20, "xmax": 4, "ymin": -1, "ymax": 30}
        ),
        b.attack([], S(4), WD(4, 4, 5), TG(3, 1, sv4), hits_given=edge),
    )
    twin = bsp.blast_hits(grid(4, 2), 0, 1.5, 32, 3, twin_linked=True)
    twin_doc = blast_doc('Heavy 1, Blast (3"), Twin-linked', 4, 2, aim={"model": 0})
    twin_doc["attacker"]["BS"] = 3
    c["blast_twin_linked"] = unit_case(twin_doc, b.attack([], S(4), WD(4, 4, 5), TG(4, 1, sv4), hits_given=twin))
    return c


CASES_MARKERS = marker_cases()


def vehicle_more() -> dict[str, tuple[Any, ...]]:
    g = bsp.Gun
    c: dict[str, tuple[Any, ...]] = {}
    # Sunder: S10 AP1 vs 12, HP3: re-rolling a glance raises E[HP] (65/54 > 1), so glances are re-rolled
    c["sunder_reroll_glance"] = (
        "vehicle",
        shoot(weapon(10, 1, "Heavy 1, Sunder"), vehicle(12, hp=3), hits=1),
        bsp.vehicle_attack(F1(1), S(no_hit_roll=True), g(10, 1, 12, sunder_hp=3), 3),
        None,
    )
    # S8 AP3 vs 12: a glance (1 HP) beats a re-roll (E = 1/2), so it is kept; failures are re-rolled
    c["sunder_keep_glance"] = (
        "vehicle",
        shoot(weapon(8, 3, "Heavy 1, Sunder"), vehicle(12, hp=3), hits=1),
        bsp.vehicle_attack(F1(1), S(no_hit_roll=True), g(8, 3, 12, sunder_hp=3), 3),
        None,
    )
    c["slow_vehicle"] = (
        "vehicle",
        shoot(weapon(9, 1, "Heavy 2"), vehicle(11, hp=3, **{"Unit Type": "Vehicle (Slow)"})),
        bsp.vehicle_attack(F1(2), S(4), g(9, 1, 11, slow=True), 3),
        None,
    )
    c["breaching_vehicle"] = (
        "vehicle",
        shoot(weapon(6, 4, "Assault 2, Breaching (4+)"), vehicle(10, hp=2)),
        bsp.vehicle_attack(F1(2), S(4), g(6, 4, 10), 2),
        None,
    )
    rear = melee(weapon("x2", 2, "Melee"), vehicle(13, hp=3, facing="Rear") | {"Rear": 10, "WS": 4}, A=2)
    c["melee_vehicle_rear"] = ("vehicle", rear, bsp.vehicle_attack(F1(2), S(melee_need=4), g(8, 2, 10), 3), None)
    return c


CASES_VEHICLE = vehicle_more()


@pytest.mark.parametrize(
    ("label", "doc"),
    [
        ("melee", melee(weapon("x2", 2, "Melee"), vehicle(10, Cover="4+") | {"WS": 4}, A=2)),
        ("Ignores Cover", shoot(weapon(7, 4, "Heavy 2, Ignores Cover"), vehicle(11, Cover="4+"))),
        ("Template", shoot(weapon(7, 4, "Assault 1, Template"), vehicle(11, Cover="4+"), hits=2)),
        ("Haywire", shoot(weapon(3, "-", "Assault 2, Haywire"), vehicle(14, Cover="4+"))),
    ],
)
def test_a_denied_cover_save_is_named_on_vehicles(label: str, doc: dict[str, Any]) -> None:
    got = calc(doc)
    assert "target: Cover 4+" in got["no_effect"], (label, got["no_effect"])
    assert "cover" in got["reasons"]["target: Cover 4+"].lower()
    assert_close(calc_many([doc])[0], got, label)


def test_vehicle_cover_denied_matches_brute_force() -> None:
    """The numbers behind the names above: no cover against Ignores Cover, templates, melee or Haywire."""
    same_vehicle(
        calc(shoot(weapon(7, 4, "Heavy 2, Ignores Cover"), vehicle(11, hp=2, Cover="4+"))),
        bsp.vehicle_attack(F1(2), S(4), bsp.Gun(7, 4, 11), 2),
    )
    same_vehicle(
        calc(shoot(weapon(3, "-", "Assault 2, Haywire"), vehicle(14, hp=3, Cover="4+"))),
        bsp.vehicle_attack(F1(2), S(4), bsp.Gun(3, None, 14, haywire=True), 3),
    )
    same_vehicle(
        calc(melee(weapon("x2", 2, "Melee"), vehicle(10, hp=3, Cover="4+") | {"WS": 4}, A=2)),
        bsp.vehicle_attack(F1(2), S(melee_need=4), bsp.Gun(8, 2, 10), 3),
    )


def test_mega_blast_zones_on_one_model() -> None:
    """Section 6: Apocalyptic Mega-blast zones of 5", 7" and 10" (S 10/8/6); the innermost zone touched counts.

    One T5 W2 model: the scatter distance alone decides the zone (2D6 - BS4, the Hit face at 0"): reach is the
    zone's radius plus the 32 mm base's, so 0-3" is the S10 zone (Instant Death), 4" S8, 5" S6, 6"+ a miss.
    """
    doc = shoot(weapon("10/8/6", 2, "Ordnance 1, Apocalyptic Mega-blast"), infantry(models=1, t=5, w=2))
    doc["formation"] = {"models": 1, "base_mm": 32}
    zone_of = {}
    for d in range(0, 9):
        zone_of[d] = 0 if d <= 3 else (1 if d == 4 else (2 if d == 5 else None))
    p_zone = [Fraction(0)] * 3
    p_zone[0] += Fraction(1, 3)
    for a in range(1, 7):
        for c in range(1, 7):
            z = zone_of[max(0, a + c - 4)]
            if z is not None:
                p_zone[z] += Fraction(2, 3) / 36
    wound = [b.wound_target(s, 5) for s in (10, 8, 6)]
    p_w = [Fraction(7 - n, 6) for n in wound if n is not None]
    hit = sum(p_zone)
    wounded = sum(p * q for p, q in zip(p_zone, p_w, strict=True))
    killed = p_zone[0] * p_w[0]  # S10 against T5: Instant Death
    got = calc(doc)
    same_dist(got["hits"], {0: 1 - hit, 1: hit}, "hits")
    same_dist(got["wounds"], {0: 1 - wounded, 1: wounded}, "wounds")
    same_dist(got["unsaved"], {0: 1 - wounded, 1: wounded}, "unsaved")
    same_dist(got["casualties"], {0: 1 - killed, 1: killed}, "casualties")


ALL_CASES = merged(CASES_VEHICLE_BASE, CASES_MARKERS, CASES_VEHICLE)


@pytest.mark.parametrize("name", sorted(ALL_CASES))
def test_calc_matches_brute_force(name: str) -> None:
    """Every field the result returns for the case, against the brute force, at 1e-12."""
    check_case(ALL_CASES[name])


def test_calc_many_matches_calc() -> None:
    check_many(ALL_CASES)


def test_calc_many_matches_calc_for_zones() -> None:
    mega = shoot(weapon("10/8/6", 2, "Ordnance 1, Apocalyptic Mega-blast"), infantry(models=3, t=5, w=2))
    mega["formation"] = {"models": 3, "base_mm": 32, "columns": 3}
    assert_close(calc_many([mega])[0], calc(mega), "mega")
