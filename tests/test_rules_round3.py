"""Issue 23's readings of the rules (round three): each against a die-by-die enumeration or a hand-worked value.

Every pinned value names its source: the rule's name and where its text is (the rules reference of the game
system file, or the catalogue that prints it). docs/rules.md describes each reading.
"""

from __future__ import annotations

import itertools
import re
from fractions import Fraction
from typing import Any

import pytest
from oracle import oracle_calc

from praetor_analysis.analysis.compare import compare
from praetor_analysis.catalog import load_targets, load_weapons
from praetor_analysis.engine.batch import resolve_many
from praetor_analysis.engine.chain import resolve
from praetor_analysis.errors import PraetorError
from praetor_analysis.scenario.calc import calc, calc_many, parse_target, parse_volley

SNARE_CANNON = {"name": "Snare Cannon", "Range": '18"', "Strength": "7", "AP": "-", "Type": "Heavy 3, Entangle (2)"}


def _mean(result: dict[str, Any], key: str) -> float:
    return float(result[key]["mean"])


# --- 2. Entangle: nothing on Primarchs, models of 6+ Wounds and Vehicles ---------------------------------
@pytest.mark.parametrize("target", ["Contemptor Dreadnought", "Alpharius"])
def test_entangle_discards_its_hits_on_big_models(target: str) -> None:
    # Entangle (X) (rules reference p. 132): no effect on Primarchs or on models that start the battle with 6
    # or more Wounds; no wound is rolled and the hits are discarded. Three BS 4 shots: 2.0 hits, 0 wounds
    # (the Contemptor has W 6; Alpharius is a Primarch).
    result = calc({"attacker": {"BS": 4}, "weapon": SNARE_CANNON, "target": target})
    assert _mean(result, "hits") == pytest.approx(2.0, abs=1e-12)
    assert _mean(result, "wounds") == 0.0 and _mean(result, "unsaved") == 0.0
    assert "Entangle (2)" in result["no_effect"]
    assert "Primarchs" in result["reasons"]["Entangle (2)"]


def test_entangle_still_wounds_by_strength_below_six_wounds() -> None:
    # S7 against a W5 model of S6: 3+ on the Strength-for-Toughness table, 2.0 hits x 2/3 = 4/3 wounds, all
    # discarded (Entangle (X), rules reference p. 132)
    target = {"name": "W5", "models": 1, "T": 6, "S": 6, "W": 5, "Save": "2+"}
    result = calc({"attacker": {"BS": 4}, "weapon": SNARE_CANNON, "target": target})
    assert _mean(result, "wounds") == pytest.approx(4 / 3, abs=1e-12)
    assert _mean(result, "unsaved") == 0.0 and "Entangle (2)" in result["applied"]


def test_entangle_does_nothing_to_a_rhino() -> None:
    # Entangle (X): no effect on models with the Vehicle Unit Type: no penetration roll is made
    result = calc({"attacker": {"BS": 4}, "weapon": SNARE_CANNON, "target": "Rhino"})
    assert _mean(result, "hits") == pytest.approx(2.0, abs=1e-12)
    for key in ("glancing", "penetrating", "hull_points"):
        assert _mean(result, key) == 0.0, key
    assert result["wrecked"] == 0.0 and "Entangle (2)" in result["no_effect"]


def test_entangle_in_a_batch_reads_the_wounds() -> None:
    # two targets that differ only in W (5 and 6) must not share their per-hit tables
    base = {"attacker": {"BS": 4}, "weapon": SNARE_CANNON, "target": {"name": "t", "T": 6, "S": 6, "Save": "2+"}}
    volley = parse_volley(base)
    targets = [parse_target({**base, "target": {**base["target"], "W": w}}) for w in (5, 6, 5)]
    got = resolve_many([(volley, t) for t in targets])
    for t, r in zip(targets, got, strict=True):
        want = resolve(volley, t)
        assert r.wounds.probabilities == pytest.approx(want.wounds.probabilities, abs=1e-12)  # type: ignore[union-attr]
    assert [r.wounds.mean() for r in got] == pytest.approx([4 / 3, 0.0, 4 / 3], abs=1e-12)  # type: ignore[union-attr]


# --- 12. Footnote Strengths against vehicles ------------------------------------------------------------
def test_graviton_haywire_against_a_rhino_needs_no_strength() -> None:
    # Graviton Gun (Strength '†', Graviton Pulse, Haywire): Haywire replaces the penetration roll with a D6
    # (MECHANICS.md section 8: 1 nothing, 2-5 Glancing, 6 Penetrating), so the footnote's Strength is never read
    result = calc({"attacker": {"BS": 4}, "weapon": "Graviton Gun", "hits": 1, "target": "Rhino"})
    assert _mean(result, "glancing") == pytest.approx(4 / 6, abs=1e-12)
    assert _mean(result, "penetrating") == pytest.approx(1 / 6, abs=1e-12)


def test_graviton_collapse_rolls_four_dice_against_armour() -> None:
    # Graviton Collapse (rules reference p. 119): against an Armour Value, 4D6 for penetration (no Strength).
    # Rhino Front 11: every one of the 6^4 faces counted.
    faces = list(itertools.product(range(1, 7), repeat=4))
    glance = Fraction(sum(sum(f) == 11 for f in faces), len(faces))
    pen = Fraction(sum(sum(f) > 11 for f in faces), len(faces))
    result = calc({"attacker": {"BS": 4}, "weapon": "Grav-Flux Bombard", "hits": 1, "target": "Rhino"})
    assert _mean(result, "glancing") == pytest.approx(float(glance), abs=1e-12)
    assert _mean(result, "penetrating") == pytest.approx(float(pen), abs=1e-12)
    assert "Graviton Collapse" in result["applied"]


@pytest.mark.parametrize("weapon", ["Hydra’s Wail Disruption Array", "Telepathic Hallucinations"])
def test_no_strength_penetrates_nothing(weapon: str) -> None:
    result = calc({"attacker": {"BS": 4, "Ld": 9}, "weapon": weapon, "target": "Rhino"})
    assert _mean(result, "hull_points") == 0.0 and _mean(result, "penetrating") == 0.0
    assert "Strength -" in result["no_effect"] and "no armour penetration" in result["reasons"]["Strength -"]


def test_compare_over_the_catalog_against_vehicles_has_no_footnote_errors() -> None:
    # 68 cells were errors before; only the Ephemera Excrusis is left, whose footnote Strength the data does
    # not give (no rule of the weapon says what '*' is)
    targets = load_targets()
    vehicles = targets[targets["Unit Type"].str.contains("Vehicle")]
    table = compare(load_weapons(), vehicles)
    errors = table[table["error"].notna() & (table["error"] != "")]
    assert set(errors["weapon"]) <= {"Ephemera Excrusis (Cybertheurgic Weapon)"}, errors[["weapon", "error"]]


def _matches_oracle(scenario: dict[str, Any], same_as: dict[str, Any]) -> dict[str, Any]:
    """The engine's result for ``scenario`` against the oracle's for ``same_as`` (the rule spelled out in the
    statline: the oracle knows no Skyfire, Cumbersome or Rage), every pmf to 1e-12."""
    got, want = calc(scenario), oracle_calc(same_as)
    for key in ("hits", "wounds", "unsaved", "casualties"):
        a, b = list(got[key]["pmf"]), list(want[key])
        n = max(len(a), len(b))
        a, b = a + [0.0] * (n - len(a)), b + [0.0] * (n - len(b))
        assert a == pytest.approx(b, abs=1e-12), key
    return got


LEGIONARIES = {"name": "Legionaries", "models": 10, "WS": 4, "T": 4, "W": 1, "Ld": 7, "Save": "3+", "S": 4}


# --- 4. Skyfire: only Snap Shots against targets that are not Flyers or Skimmers -------------------------
SKYREAPER = {
    "name": "Skyreaper Battery",
    "Range": '48"',
    "Strength": "7",
    "AP": "4",
    "Type": "Heavy 5, Skyfire, Twin-linked",
}


def test_skyfire_snap_shots_at_ground_targets() -> None:
    # Skyfire (rules reference p. 247): normal BS against Flyers and Skimmers, only Snap Shots otherwise.
    # BS 4 against Legionaries: five twin-linked shots at BS 1, 1 - (5/6)^2 = 11/36 each: 55/36 = 1.528 hits
    sc = {"attacker": {"BS": 4}, "weapon": SKYREAPER, "target": LEGIONARIES}
    plain = {**SKYREAPER, "Type": "Heavy 5, Twin-linked"}
    got = _matches_oracle(sc, {**sc, "weapon": plain, "snap_shots": True})
    assert _mean(got, "hits") == pytest.approx(55 / 36, abs=1e-12)
    assert "Skyfire" in got["applied"]


@pytest.mark.parametrize("unit_type", ["Vehicle (Flyer)", "Vehicle (Skimmer, Fast)"])
def test_skyfire_full_bs_at_flyers_and_skimmers(unit_type: str) -> None:
    # five twin-linked shots at BS 4 (3+): 1 - (1/3)^2 = 8/9 each, 40/9 hits
    target = {"name": "jet", "Unit Type": unit_type, "Front": 10, "Side": 10, "Rear": 10, "HP": 3}
    result = calc({"attacker": {"BS": 4}, "weapon": SKYREAPER, "target": target})
    assert _mean(result, "hits") == pytest.approx(40 / 9, abs=1e-12)


def test_skyfire_as_the_firers_rule_and_in_a_batch() -> None:
    bolter = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Rapid Fire"}
    sc = {"attacker": {"BS": 4, "rules": ["Skyfire"]}, "weapon": bolter, "target": LEGIONARIES}
    got = _matches_oracle(sc, {**sc, "attacker": {"BS": 4}, "snap_shots": True})
    assert "attacker: Skyfire" in got["applied"]
    # one volley against a ground unit and a Flyer in one batch: Snap Shots only against the first
    volley = parse_volley({**sc, "weapon": SKYREAPER, "attacker": {"BS": 4}})
    flyer = {"name": "t", "Unit Type": "Infantry (Flyer)", "T": 4, "W": 1, "Save": "3+"}
    targets = [parse_target(sc), parse_target({**sc, "target": flyer})]
    hits = [r.hits.mean() for r in resolve_many([(volley, t) for t in targets])]  # type: ignore[union-attr]
    assert hits == pytest.approx([55 / 36, 40 / 9], abs=1e-12)


# --- 5. Cumbersome: a single attack at WS 1 -----------------------------------------------------------
def test_cumbersome_strikes_once_at_ws_one() -> None:
    # Cumbersome (rules reference p. 237): one attack at WS 1 whatever the profile and bonuses. Manos Ruinus
    # (Ld 9 Cybertheurgic Focus: 30/36 pass) against a Castellax (WS 3): WS 1 against 3 hits on 5+: 30/36 x
    # 1/3 = 0.278 hits (three attacks at WS 4 on 3+ gave 1.667)
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 3, "Ld": 9, "charging": True},
          "weapon": "Manos Ruinus (Cybertheurgic Weapon)", "target": "Castellax"}  # fmt: skip
    result = calc(sc)
    assert _mean(result, "hits") == pytest.approx(30 / 36 / 3, abs=1e-12)
    assert "Cumbersome: 1 attack" in result["applied"]


def test_cumbersome_by_enumeration() -> None:
    fist = {"name": "fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee, Cumbersome"}
    sc = {"mode": "melee", "attacker": {"WS": 5, "S": 4, "A": 3, "charging": True, "two_weapons": True},
          "weapon": fist, "target": LEGIONARIES}  # fmt: skip
    same = {**sc, "attacker": {"WS": 1, "S": 4, "A": 1}, "weapon": {**fist, "Type": "Melee"}}
    _matches_oracle(sc, same)


# --- 3. Rage (X) as the attacker's unit rule ---------------------------------------------------------
@pytest.mark.parametrize(("rage", "a"), [("Rage (2)", 4), ("Rage", 3), ("Rage (3)", 5)])
def test_rage_as_the_attackers_rule(rage: str, a: int) -> None:
    # Rage (X) (rules reference p. 245): X attacks for charging instead of +1. A2 with Rage (2) charging with
    # a power sword (AP 3, S User) against Legionaries: 4 blows at WS 4 against 4, 4+: 2.0 hits (3 blows: 1.5)
    sword = {"name": "Power Sword", "Range": "-", "Strength": "User", "AP": "3", "Type": "Melee"}
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 2, "charging": True, "rules": [rage]},
          "weapon": sword, "target": LEGIONARIES}  # fmt: skip
    got = _matches_oracle(sc, {**sc, "attacker": {"WS": 4, "S": 4, "A": a}})
    assert _mean(got, "hits") == pytest.approx(a / 2, abs=1e-12)
    assert f"attacker: {rage}" in got["applied"] and not got["not_modelled"]


def test_rage_not_on_a_disordered_charge() -> None:
    sword = {"name": "Power Sword", "Range": "-", "Strength": "User", "AP": "3", "Type": "Melee"}
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 2, "charging": True, "disordered": True,
          "rules": ["Rage (2)"]}, "weapon": sword, "target": LEGIONARIES}  # fmt: skip
    result = calc(sc)
    assert _mean(result, "hits") == pytest.approx(1.0, abs=1e-12) and "attacker: Rage (2)" in result["no_effect"]


# --- 7. A Walker (a vehicle with a Weapon Skill) is hit on the Weapon Skill chart ------------------------
@pytest.mark.parametrize("target", ["Knight Questoris (ion shield)", "Contemptor Dreadnought"])
def test_a_knight_is_hit_on_the_weapon_skill_chart(target: str) -> None:
    # MECHANICS.md section 2 (melee chart): WS 4 against WS 4 hits on 4+; ten models, one attack each: 5.0
    # hits. The catalog's Knight row carries its WS 4; it was dropped from vehicle targets (10.0 automatic)
    sc = {
        "mode": "melee",
        "attacker": {"WS": 4, "S": 4, "A": 1, "models": 10},
        "weapon": "Power Fist",
        "target": target,
    }
    assert _mean(calc(sc), "hits") == pytest.approx(5.0, abs=1e-12)


def test_a_vehicle_without_weapon_skill_is_still_hit_automatically() -> None:
    sc = {
        "mode": "melee",
        "attacker": {"WS": 4, "S": 4, "A": 1, "models": 10},
        "weapon": "Power Fist",
        "target": "Rhino",
    }
    assert _mean(calc(sc), "hits") == pytest.approx(10.0, abs=1e-12)


# --- 10. Unit rules computed: Night Vision, Swarm, Battle-Hardened, Adamantium Will, Malefic Aegis, Marked for Death
BOLTER = {"name": "Bolter", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Assault 2"}


def _unit(rules: list[str], **extra: Any) -> dict[str, Any]:
    return {"name": "unit", "models": 3, "T": 4, "W": 2, "Ld": 7, "Save": "4+", "rules": rules, **extra}


@pytest.mark.parametrize("hits", [1, 3, "D3"])
def test_marked_for_death_rerolls_wound_ones(hits: Any) -> None:
    # Marked for Death (rules reference p. 122): failed To Wound rolls of 1 re-rolled against the marked unit
    sc = {"attacker": {"BS": 4, "rules": ["Marked for Death"]}, "weapon": BOLTER, "hits": hits, "target": _unit([])}
    got = _matches_oracle(sc, {**sc, "attacker": {"BS": 4, "rules": ["Re-roll To Wound 1s"]}})
    assert "attacker: Marked for Death" in got["applied"]


def test_marked_for_death_pinned() -> None:
    # 6 hits S4 on T4: 1/2 + 1/6 x 1/2 = 7/12 a hit, 3.5 wounds
    sc = {"attacker": {"BS": 4, "rules": ["Marked for Death"]}, "weapon": BOLTER, "hits": 6, "target": _unit([])}
    assert _mean(calc(sc), "wounds") == pytest.approx(3.5, abs=1e-12)


@pytest.mark.parametrize("hits", [1, 3])
def test_night_vision_denies_shrouded(hits: int) -> None:
    # Night Vision (rules reference p. 243): no Shrouded roll against the unit's attacks
    sc = {"attacker": {"BS": 4, "rules": ["Night Vision"]}, "weapon": BOLTER, "hits": hits,
          "target": _unit(["Shrouded (4+)"])}  # fmt: skip
    got = _matches_oracle(sc, {**sc, "attacker": {"BS": 4}, "target": _unit([])})
    assert "attacker: Night Vision" in got["applied"]
    # without it the Shrouded roll counts: the sweep must not share tables between the two attackers
    bare = parse_volley({**sc, "attacker": {"BS": 4}})
    seeing = parse_volley(sc)
    target = parse_target(sc)
    got_many = [r.unsaved.mean() for r in resolve_many([(bare, target), (seeing, target)])]  # type: ignore[union-attr]
    assert got_many[0] < got_many[1]


@pytest.mark.parametrize(("rules", "strength"), [(["Battle-Hardened (1)"], "8"), (["Battle-Hardened"], "9"),
                                                 (["Battle-Hardened (2)"], "10"), (["Battle-Hardened (1)"], "10")])  # fmt: skip
@pytest.mark.parametrize("hits", [1, 3])
def test_battle_hardened_by_enumeration(rules: list[str], strength: str, hits: int) -> None:
    # Battle-Hardened (X) (rules reference p. 233): T + X for the Strength's Instant Death only
    weapon = {**BOLTER, "Strength": strength, "AP": "3"}
    sc = {"attacker": {"BS": 4}, "weapon": weapon, "hits": hits, "target": _unit(rules, wounds_taken=1)}
    _matches_oracle(sc, sc)


def test_battle_hardened_pinned() -> None:
    # S8 AP3 on T4 W2 4+: 2+ to wound, no save; without the rule each wound kills (Instant Death), with
    # Battle-Hardened (1) (T 5 for it) it takes two: one hit on a fresh model removes it 0 times in 1
    sc = {"attacker": {"BS": 4}, "weapon": {**BOLTER, "Strength": "8", "AP": "3"}, "hits": 1}
    hard = calc({**sc, "target": _unit(["Battle-Hardened (1)"])})
    plain = calc({**sc, "target": _unit([])})
    assert _mean(plain, "casualties") == pytest.approx(5 / 6, abs=1e-12)
    assert _mean(hard, "casualties") == 0.0 and _mean(hard, "wounds") == pytest.approx(5 / 6, abs=1e-12)


@pytest.mark.parametrize("weapon_type", ['Heavy 1, Blast (3")', "Assault 1"])
@pytest.mark.parametrize("hits", [1, 2, 4])
def test_swarm_by_enumeration(weapon_type: str, hits: int) -> None:
    # Swarm (rules reference p. 248): an unsaved Blast or Template wound (not Instant Death) becomes two
    weapon = {**BOLTER, "Type": weapon_type}
    sc = {"attacker": {"BS": 4}, "weapon": weapon, "hits": hits, "target": _unit(["Swarm"], W=3)}
    _matches_oracle(sc, sc)


def test_swarm_against_a_flamer_pinned() -> None:
    # Flamer (Template, S4 AP5) with 2 hits on one W2 Swarm model, T4, 4+ save: each hit wounds 1/2 and is
    # saved 1/2 (AP5 leaves the 4+); an unsaved wound takes both wounds: P(the model dies) = 1 - (3/4)^2 = 7/16
    flamer = {"name": "Flamer", "Range": "Template", "Strength": "4", "AP": "5", "Type": "Assault 1"}
    result = calc({"attacker": {"BS": 4}, "weapon": flamer, "hits": 2, "target": _unit(["Swarm"], models=1)})
    assert _mean(result, "casualties") == pytest.approx(7 / 16, abs=1e-12)
    assert "target: Swarm" in result["applied"]


@pytest.mark.parametrize(("weapon_type", "want"), [("Assault 2, Psychic Focus", 1.5), ("Assault 2", 3.0)])
def test_adamantium_will_against_psychic_weapons_only(weapon_type: str, want: float) -> None:
    # Adamantium Will (X+) (rules reference p. 231): an invulnerable X+ against Force and Psychic Focus
    # weapons. 6 hits S4 AP2 on T4 (2+ save negated): 3 wounds; a 4+ invulnerable halves them. Ld 12: the
    # Psychic check (2D6 <= 12) always passes
    weapon = {**BOLTER, "AP": "2", "Type": weapon_type}
    sc = {"attacker": {"BS": 4, "Ld": 12}, "weapon": weapon, "hits": 6,
          "target": _unit(["Adamantium Will (4+)"], models=10, W=1, Save="2+")}  # fmt: skip
    assert _mean(calc(sc), "unsaved") == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("hits", [1, 3])
def test_adamantium_will_against_force_is_that_invulnerable_save(hits: int) -> None:
    weapon = {**BOLTER, "AP": "2", "Type": "Assault 2, Force"}
    sc = {"attacker": {"BS": 4, "Ld": 9}, "weapon": weapon, "hits": hits, "target": _unit(["Adamantium Will"])}
    same = calc({**sc, "target": _unit([], Invulnerable="5+")})
    got = calc(sc)
    for key in ("wounds", "unsaved", "casualties"):
        assert got[key]["pmf"] == pytest.approx(same[key]["pmf"], abs=1e-12)


@pytest.mark.parametrize("invulnerable", ["-", "6+", "4+"])
def test_malefic_aegis_is_an_invulnerable_save_that_does_not_stack(invulnerable: str) -> None:
    # Malefic Aegis (X) (rules reference p. 126): an invulnerable X+, the better of it and another
    weapon = {**BOLTER, "AP": "2"}
    sc = {"attacker": {"BS": 4}, "weapon": weapon, "hits": 3,
          "target": _unit(["Malefic Aegis (5+)"], Invulnerable=invulnerable)}  # fmt: skip
    best = "4+" if invulnerable == "4+" else "5+"
    _matches_oracle(sc, {**sc, "target": _unit([], Invulnerable=best)})


# --- 13. Every rule that changed the number is listed with its holder ---------------------------------
def test_the_heavy_sub_type_is_listed_with_its_holder() -> None:
    # Heavy Sub-type (game system file, p. 197): failed armour saves re-rolled against Blast and Template.
    # A Blast S4 AP5 hit on Cataphractii (T4, 2+): wounds 1/2, unsaved 1/6 x 1/6 = 1/36 of those
    blast = {"name": "b", "Range": '24"', "Strength": "4", "AP": "5", "Type": 'Heavy 1, Blast (3")'}
    result = calc({"attacker": {"BS": 4}, "weapon": blast, "hits": 1, "target": "Cataphractii Terminator"})
    assert _mean(result, "unsaved") == pytest.approx(1 / 2 / 36, abs=1e-12)
    assert "target: Heavy (re-rolls failed armour saves against Blast and Template)" in result["applied"]
    plain = calc(
        {"attacker": {"BS": 4}, "weapon": {**blast, "Type": "Heavy 1"}, "hits": 1, "target": "Cataphractii Terminator"}
    )
    assert not any("Heavy (" in x for x in plain["applied"])


def test_toxin_resistance_is_listed_with_its_holder() -> None:
    fleshbane = {"name": "f", "Range": '12"', "Strength": "4", "AP": "5", "Type": "Assault 1, Fleshbane"}
    result = calc({"attacker": {"BS": 4}, "weapon": fleshbane, "hits": 1, "target": "Contemptor Dreadnought"})
    assert "target: Dreadnought (re-rolls successful Poisoned and Fleshbane wounds)" in result["applied"]


# --- 1. The Psychic check with given hits, and over a template formation ---------------------------------
CLEANSING = "Thamaturge's Cleansing"
BRUTES = {"name": "Daemon Brute", "models": 3}


def test_psychic_check_with_given_hits_pinned() -> None:
    # Psychic Focus (MECHANICS.md section 7): a Psychic check (2D6 <= Ld 9: 30/36) before the attack, whose
    # failure loses it. Three given hits: [1/6, 0, 0, 5/6], and every other number 5/6 of the unchecked one
    sc = {"attacker": {"BS": 4, "Ld": 9}, "weapon": CLEANSING, "hits": 3, "target": BRUTES}
    got = calc(sc)
    assert got["hits"]["pmf"] == pytest.approx([1 / 6, 0, 0, 5 / 6], abs=1e-12)
    assert got["attack_happens"] == pytest.approx(5 / 6, abs=1e-12)
    assert got["perils"] == pytest.approx(1 / 6, abs=1e-12)
    plain = calc({**sc, "attacker": {"BS": 4, "Ld": 12}})  # 2D6 <= 12 always passes
    assert _mean(got, "unsaved") == pytest.approx(5 / 6 * _mean(plain, "unsaved"), abs=1e-12)


@pytest.mark.parametrize("models", [1, 2, 3])
@pytest.mark.parametrize("hits", [1, 3, 4, "D3"])
def test_psychic_check_with_given_hits_by_enumeration(models: int, hits: Any) -> None:
    # the oracle deals the given hits round-robin among the psykers, each with a hit taking its own check
    weapon = {"name": "power", "Range": '18"', "Strength": "5", "AP": "4", "Type": "Assault 1, Psychic Focus"}
    sc = {"attacker": {"BS": 4, "Ld": 8, "models": models}, "weapon": weapon, "hits": hits,
          "target": {"name": "t", "models": 4, "T": 4, "W": 1, "Save": "4+"}}  # fmt: skip
    got = _matches_oracle(sc, sc)
    if models == 1:
        assert got["attack_happens"] == pytest.approx(oracle_calc(sc)["attack_happens"], abs=1e-12)


def test_psychic_check_over_a_template_formation_reports_it() -> None:
    # the template's hits are counted with the check (the attack happens 30/36 of the time); the result says so
    sc = {
        "attacker": {"BS": 4, "Ld": 9},
        "weapon": CLEANSING,
        "target": BRUTES,
        "formation": {"models": 3, "base_mm": 40},
    }
    got = calc(sc)
    assert got["attack_happens"] == pytest.approx(5 / 6, abs=1e-12)
    assert got["hits"]["pmf"][0] >= 1 / 6 - 1e-12


def test_telekines_focus_with_given_hits_takes_its_check() -> None:
    sc = {"attacker": {"BS": 4, "Ld": 9}, "weapon": "Telekine's Focus", "hits": 2, "target": BRUTES}
    got = calc(sc)
    assert got["hits"]["pmf"] == pytest.approx([1 / 6, 0, 5 / 6], abs=1e-12)
    assert got["attack_happens"] == pytest.approx(5 / 6, abs=1e-12)


# --- 8. Unit rules in a weapon's Type are refused, naming where they belong ---------------------------------
@pytest.mark.parametrize(
    "rule", ["Re-roll To Hit 1s", "To Hit modifier (+1)", "Feel No Pain (5+)", "Fearless", "Marked for Death"]
)
def test_a_unit_rule_in_a_weapon_type_is_refused(rule: str) -> None:
    sc = {"attacker": {"BS": 4}, "weapon": {**BOLTER, "Type": f"Rapid Fire, {rule}"}, "target": LEGIONARIES}
    with pytest.raises(PraetorError) as err:
        calc(sc)
    assert str(err.value).startswith("weapon.Type:") and "attacker.rules" in str(err.value) and rule in str(err.value)


@pytest.mark.parametrize("rule", ["Skyfire", "Rage (2)", "Furious Charge (1)"])
def test_unit_rules_a_weapon_may_carry_stay(rule: str) -> None:
    sc = {"attacker": {"BS": 4}, "weapon": {**BOLTER, "Type": f"Rapid Fire, {rule}"}, "target": LEGIONARIES}
    result = calc(sc)
    assert rule in result["applied"] + result["no_effect"]


# --- 6. Vox Silence and Hydra's Wail in a firing unit: the Pinning test takes the highest single modifier ---
LEGION_LD7 = {"name": "Legionaries", "models": 10, "T": 4, "W": 1, "Ld": 7, "Save": "3+"}


def _ld_fail(ld: int) -> Fraction:
    """P(2D6 > ld), every pair of faces counted."""
    return Fraction(sum(a + b > ld for a in range(1, 7) for b in range(1, 7)), 36)


def _vox_then_rotor(target: dict[str, Any]) -> dict[str, Any]:
    first = {"attacker": {"BS": 4, "Ld": 9}, "weapon": "Ephemera Exocluo (Cybertheurgic Weapon)"}
    return calc({"target": target, "firing_units": [[first, {"attacker": {"BS": 4}, "weapon": "Rotor Cannon"}]]})


def test_vox_silence_lowers_the_pinning_test_of_its_firing_unit() -> None:
    # Vox Silence (Mech Library, p. 111): a unit hit has -2 Ld, not added to other negative modifiers (the
    # highest single one is used). Ephemera Exocluo (Ld 9 check 30/36; six BS 4 shots, Data-djinn: no wound)
    # then a Rotor Cannon (4 shots S3 AP-, Pinning, Shell Shock (1)) against Legionaries (Ld 7, 3+):
    # P(pinned) = P(an unsaved wound) x [v x P(2D6 > 5) + (1 - v) x P(2D6 > 6)], v = P(a Vox hit)
    p_unsaved = 1 - (1 - Fraction(2, 3) * Fraction(1, 3) * Fraction(1, 3)) ** 4
    v = Fraction(30, 36) * (1 - Fraction(1, 3) ** 6)
    want = p_unsaved * (v * _ld_fail(5) + (1 - v) * _ld_fail(6))
    got = _vox_then_rotor(LEGION_LD7)
    assert got["pinned"] == pytest.approx(float(want), abs=1e-12)  # 0.18519; the Rotor Cannon alone 0.15457
    assert "Vox Silence" in got["applied"] and "Vox Silence" not in got["no_effect"]


def test_vox_silence_is_ignored_by_stubborn() -> None:
    p_unsaved = 1 - (1 - Fraction(2, 27)) ** 4
    got = _vox_then_rotor({**LEGION_LD7, "rules": ["Stubborn"]})
    assert got["pinned"] == pytest.approx(float(p_unsaved * _ld_fail(7)), abs=1e-12)


def test_hydras_wail_and_a_pinning_weapon_without_shell_shock() -> None:
    # Hydra's Wail (Alpha Legion): -1 Ld for a unit hit. Its array (Assault 1, BS 4: 2/3 to hit) then a
    # Pinning bolter with 3 given hits (S4 on T4 4+, 3+ save: 1/6 unsaved each)
    wail = {"attacker": {"BS": 4}, "weapon": "Hydra’s Wail Disruption Array"}
    gun = {"name": "g", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Assault 3, Pinning"}
    got = calc({"target": LEGION_LD7, "firing_units": [[wail, {"attacker": {"BS": 4}, "weapon": gun, "hits": 3}]]})
    p_unsaved = 1 - Fraction(5, 6) ** 3
    v = Fraction(2, 3)
    want = p_unsaved * (v * _ld_fail(6) + (1 - v) * _ld_fail(7))
    assert got["pinned"] == pytest.approx(float(want), abs=1e-12)


# --- 9 (part). Wargear giving invulnerable saves to the models that carry it ---------------------------
@pytest.mark.parametrize(("wargear", "best"), [("Iron Halo", "4+"), ("Refractor Field", "5+")])
@pytest.mark.parametrize("own", ["-", "6+", "3+"])
def test_iron_halo_and_refractor_field_give_invulnerable_saves(wargear: str, best: str, own: str) -> None:
    # Iron Halo and Refractor Field (game system file, Wargear Items, p. 146): a 4+ (5+) invulnerable save
    # that does not stack with another: the better one is used
    weapon = {**BOLTER, "AP": "2"}
    sc = {"attacker": {"BS": 4}, "weapon": weapon, "hits": 3, "target": _unit([wargear], Invulnerable=own)}
    kept = own if own == "3+" else best
    got = _matches_oracle(sc, {**sc, "target": _unit([], Invulnerable=kept)})
    assert f"target: {wargear}" in got["applied"]


# --- 11. Options the attacker may take: the scenario's options, or a weapon list ---------------------------
LAUNCHER = {"name": "launcher", "Range": '48"', "Strength": "5", "AP": "4", "Type": "Heavy 2, Rocket Barrage"}
OPTION_TARGET = {"name": "t", "models": 5, "T": 4, "W": 2, "Ld": 8, "Save": "3+"}


def test_an_option_not_taken_is_not_modelled_with_what_it_would_change() -> None:
    # Rocket Barrage (rules reference p. 124): a model that did not move may give the weapon Rending (4+) and
    # Pinning. Not taken, the result says so under not_modelled, with what taking it would give
    got = calc({"attacker": {"BS": 4}, "hits": 3, "weapon": LAUNCHER, "target": OPTION_TARGET})
    assert "Rocket Barrage" in got["not_modelled"] and "Rocket Barrage" not in got["no_effect"]
    why = got["reasons"]["Rocket Barrage"]
    assert why.startswith("option not taken") and "Rending (4+) and Pinning" in why and '"options"' in why


def test_an_option_is_chosen_through_a_weapon_list() -> None:
    # the profile with the option taken, given beside the printed one, is chosen when it does more
    taken = {**LAUNCHER, "name": "launcher (Rocket Barrage)", "Type": "Heavy 2, Rending (4+), Pinning"}
    sc = {"attacker": {"BS": 4}, "hits": 3, "target": OPTION_TARGET}
    both = calc({**sc, "weapon": [LAUNCHER, taken]})
    assert both["chosen_profile"]["index"] == 1
    want = oracle_calc({**sc, "weapon": taken})
    assert both["unsaved"]["pmf"] == pytest.approx(want["unsaved"], abs=1e-12)


@pytest.mark.parametrize(
    ("printed", "option", "spelled"),
    [
        # Rocket Barrage (rules reference p. 124): Rending (4+) and Pinning
        ("Heavy 2, Rocket Barrage", "Rocket Barrage", "Heavy 2, Rending (4+), Pinning"),
        # Deadly Aim (Alpha Legion catalogue, p. 341): Brutal (2)
        ("Heavy 1, Pinning, Deadly Aim", "Deadly Aim", "Heavy 1, Pinning, Brutal (2)"),
        # Reactor Overload (rules reference p. 106): twice the shots
        ("Heavy 2, Breaching (4+), Reactor Overload", "Reactor Overload", "Heavy 4, Breaching (4+)"),
        ("Assault 3, Reactor Overload", "Reactor Overload", "Assault 6"),
    ],
)
def test_a_shooting_option_taken_by_enumeration(printed: str, option: str, spelled: str) -> None:
    # taken, the attack is the printed profile rewritten as the option says, which the oracle rolls die by die
    weapon = {**LAUNCHER, "Type": printed}
    sc = {"attacker": {"BS": 4, "models": 1}, "weapon": weapon, "target": OPTION_TARGET, "options": [option]}
    got = _matches_oracle(sc, {**sc, "weapon": {**weapon, "Type": spelled}, "options": None})
    assert option not in got["not_modelled"]
    assert any(a.startswith(f"{option}: taken") for a in got["applied"])


def test_reactor_overload_doubles_every_models_shots_and_names_the_cost() -> None:
    # two models, Heavy 2 each: 8 shots taken, against 4; the D3 wounds each firer suffers are named, not counted
    weapon = {**LAUNCHER, "Type": "Heavy 2, Reactor Overload"}
    sc = {"attacker": {"BS": 3, "models": 2}, "weapon": weapon, "target": OPTION_TARGET}
    got = calc({**sc, "options": ["Reactor Overload"]})
    assert _mean(got, "hits") == pytest.approx(8 * 3 / 6, abs=1e-12)
    assert _mean(calc(sc), "hits") == pytest.approx(4 * 3 / 6, abs=1e-12)
    (note,) = [a for a in got["applied"] if a.startswith("Reactor Overload")]
    assert "D3" in note and "not part of these numbers" in note


def test_reactor_overload_over_a_formation_fires_twice_the_markers() -> None:
    # Plasma Blastgun (Ordnance 1, Massive Blast): taken, two markers over the default formation: the same as
    # the printed profile with Ordnance 2 (the markers' own path; the oracle has no geometry)
    sc = {"attacker": {"BS": 4}, "target": {**OPTION_TARGET, "models": 10}}
    blastgun = {"name": "Plasma Blastgun", "faction": "Horus Heresy"}
    got = calc({**sc, "weapon": blastgun, "options": ["Reactor Overload"]})
    row = load_weapons().query("name == 'Plasma Blastgun' and faction == 'Horus Heresy'").iloc[0]
    twice = {"name": "b", "Range": row["Range"], "Strength": str(row["Strength"]), "AP": str(row["AP"]),
             "Type": 'Ordnance 2, Massive Blast (7"), Breaching (4+)'}  # fmt: skip
    want = calc({**sc, "weapon": twice})
    assert got["unsaved"]["pmf"] == pytest.approx(want["unsaved"]["pmf"], abs=1e-12)
    assert got["not_modelled"] == []


@pytest.mark.parametrize(("a", "charging", "blows"), [(4, True, 3), (4, False, 2), (3, False, 2), (1, False, 1)])
def test_charged_attacks_halve_the_attacks_at_strength_x3(a: int, charging: bool, blows: int) -> None:
    # Charged Attacks (Blackshields catalogue): half the attacks, rounded up, Strength x3 (the Terrawat-pattern
    # gauntlet is x2). A4 charging: 5 attacks, halved up to 3; the oracle rolls the spelled-out attack
    weapon = {
        "name": "gauntlet",
        "Range": "-",
        "Strength": "x2",
        "AP": "2",
        "Type": "Melee, Brutal (2), Charged Attacks",
    }
    target = {**OPTION_TARGET, "WS": 4, "T": 5, "W": 3}
    sc = {"mode": "melee", "attacker": {"WS": 5, "S": 3, "A": a, "charging": charging}, "weapon": weapon,
          "target": target, "options": ["Charged Attacks"]}  # fmt: skip
    spelled = {**weapon, "Strength": "x3", "Type": "Melee, Brutal (2)"}
    got = _matches_oracle(sc, {**sc, "weapon": spelled, "attacks": blows, "options": None})
    assert f"Halved Attacks: {blows} attack{'s' if blows > 1 else ''}" in got["applied"] or blows == a + charging


def test_the_terrawat_gauntlet_taking_charged_attacks() -> None:
    # Endryd Haar's gauntlet as printed (S x2) against as taken (S x3, half the attacks): a statline S4 A4 on the
    # charge makes 5 blows at S8 or 3 at S10 (12, read as 10) against T4 Legionaries with Brutal (2)
    sc = {"mode": "melee", "attacker": {"WS": 5, "S": 4, "A": 4, "charging": True},
          "weapon": "Terrawat-pattern Power Gauntlet", "target": {**LEGIONARIES, "models": 5}}  # fmt: skip
    printed, taken = calc(sc), calc({**sc, "options": ["Charged Attacks"]})
    assert _mean(printed, "hits") == pytest.approx(5 * 4 / 6, abs=1e-12)
    assert _mean(taken, "hits") == pytest.approx(3 * 4 / 6, abs=1e-12)
    assert "Charged Attacks" in printed["not_modelled"] and taken["not_modelled"] == []


@pytest.mark.parametrize(
    ("choice", "spelled", "attacks"),
    [("Murderous Strike", "Murderous Strike (4+)", None), ("Rage", None, 8), ("Sudden Strike", None, None)],
)
def test_fighting_style_takes_the_choice_named(choice: str, spelled: str | None, attacks: int | None) -> None:
    # Fighting Style (Raven Guard catalogue, p. 333): Murderous Strike (4+), Rage (4) or Sudden Strike (3) for the
    # phase. A4 charging: Rage (4) gives 4 + 4 = 8 attacks; Sudden Strike only orders a whole round (no effect
    # one way); Murderous Strike the oracle rolls
    weapon = {"name": "panoply", "Range": "-", "Strength": "User", "AP": "2", "Type": "Melee, Shred, Fighting Style"}
    sc = {"mode": "melee", "attacker": {"WS": 7, "S": 6, "A": 4, "charging": True}, "weapon": weapon,
          "target": {**OPTION_TARGET, "WS": 4}, "options": [f"Fighting Style ({choice})"]}  # fmt: skip
    same = {**weapon, "Type": "Melee, Shred" + (f", {spelled}" if spelled else "")}
    got = _matches_oracle(sc, {**sc, "weapon": same, "options": None, **({"attacks": attacks} if attacks else {})})
    assert f"Fighting Style ({choice}): taken" in " ".join(got["applied"])
    assert got["not_modelled"] == []


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ("Rocket Barrage", "options: expected a list"),
        (["Rocket Barrage", "Rocket Barrage"], "options[1]: Rocket Barrage taken twice"),
        (["Deadly Aim"], "options[0]: Deadly Aim is not a rule of the weapon's Type"),
        (["Rending"], "options[0]: not an option the engine takes"),
        (["Rocket Barrage (now)"], "options[0]: Rocket Barrage has no choice to name"),
    ],
)
def test_options_refused_on_one_line(options: Any, message: str) -> None:
    sc = {"attacker": {"BS": 4}, "hits": 3, "weapon": LAUNCHER, "target": OPTION_TARGET, "options": options}
    with pytest.raises(PraetorError, match=re.escape(message)):
        calc(sc)


def test_fighting_style_needs_its_choice_and_overload_refuses_given_attacks() -> None:
    panoply = {"name": "p", "Range": "-", "Strength": "User", "AP": "2", "Type": "Melee, Fighting Style"}
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 2}, "weapon": panoply, "target": OPTION_TARGET}
    with pytest.raises(PraetorError, match="Fighting Style needs one of Murderous Strike, Rage, Sudden Strike"):
        calc({**sc, "options": ["Fighting Style"]})
    overload = {**LAUNCHER, "Type": "Heavy 2, Reactor Overload"}
    with pytest.raises(PraetorError, match="attacks: not beside Reactor Overload"):
        calc({"attacker": {"BS": 4}, "attacks": 3, "weapon": overload, "target": OPTION_TARGET,
              "options": ["Reactor Overload"]})  # fmt: skip


def test_options_in_a_batch_and_a_sequence_equal_the_single_attack() -> None:
    sc = {"attacker": {"BS": 4}, "weapon": LAUNCHER, "target": OPTION_TARGET, "options": ["Rocket Barrage"]}
    one = calc(sc)
    (batched,) = calc_many([sc])
    seq = calc({"target": OPTION_TARGET, "firing_units": [[{k: sc[k] for k in ("attacker", "weapon", "options")}]]})
    for other in (batched, seq):
        assert other["unsaved"]["pmf"] == pytest.approx(one["unsaved"]["pmf"], abs=1e-12)
        assert other["pinned"] == pytest.approx(one["pinned"], abs=1e-12)
        assert other["applied"] == one["applied"]


# --- 9 (part). A grenade in melee: one automatic hit against vehicles, Dreadnoughts, Automata, buildings ---
KRAK = {"name": "Krak Grenades", "Range": "-", "Strength": "6", "AP": "3", "Type": "Melee, Grenade Attack"}


def test_krak_grenades_against_a_contemptor() -> None:
    # Krak Grenades (game system file, Wargear Item, p. 143): a model engaged with a Dreadnought may make one
    # automatic S6 AP3 hit instead of attacking. Ten Legionaries (A 1, charging: still one each) against a
    # Contemptor (T7, 2+): S6 wounds T7 on 5+, the 2+ save stands at AP3: 10 x 1/3 x 1/6 = 0.556 unsaved
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 1, "models": 10, "charging": True}, "weapon": KRAK,
          "target": "Contemptor Dreadnought"}  # fmt: skip
    got = calc(sc)
    assert _mean(got, "hits") == pytest.approx(10.0, abs=1e-12)
    assert _mean(got, "unsaved") == pytest.approx(10 / 18, abs=1e-12)


def test_a_grenade_attack_on_infantry_does_nothing() -> None:
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 1, "models": 10}, "weapon": KRAK, "target": LEGIONARIES}
    assert _mean(calc(sc), "hits") == 0.0


@pytest.mark.parametrize("models", [1, 3])
def test_a_grenade_attack_on_a_dreadnought_by_enumeration(models: int) -> None:
    # the same as one automatic hit per model, which the oracle rolls die by die
    target = {"name": "d", "Unit Type": "Dreadnought", "models": 1, "WS": 4, "T": 7, "W": 3, "Save": "2+"}
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 2, "models": models}, "weapon": KRAK, "target": target}
    _matches_oracle(sc, {**sc, "mode": "shooting", "weapon": {**KRAK, "Type": "Assault 1"}, "hits": models})


def test_a_tactical_squad_uses_its_krak_grenades_on_a_contemptor() -> None:
    # ten Legionaries (their wargear: Krak Grenades) against a Contemptor: 10 x 1/3 x 1/6 = 0.556 unsaved, each
    # model striking once at Initiative 1; against Legionaries the grenades may not be used
    got = calc({"attacker": {"name": "Tactical Squad"}, "mode": "melee", "target": "Contemptor Dreadnought"})
    assert _mean(got, "unsaved") == pytest.approx(10 / 18, abs=1e-12)
    assert {c["weapon"] for c in got["chosen"]} == {"Krak Grenades"}
    other = calc({"attacker": {"name": "Tactical Squad"}, "mode": "melee", "target": "Legionary (Tactical Squad)"})
    assert "Krak Grenades" not in {c["weapon"] for c in other["chosen"]}


# --- 9 (part). Meltabombs: the game system's weapon profile, used like the grenades ------------------------
MELTABOMBS = {
    "name": "Meltabombs",
    "Range": "-",
    "Strength": "8",
    "AP": "1",
    "Type": "Melee, Detonation, Unwieldy, Armourbane (Melee), Instant Death",
}


def test_meltabombs_profile_is_the_data_s() -> None:
    # the profile a model's wargear gives (units.attack.GRENADE_PROFILES) is the game system file's
    # Meltabombs weapon profile (ba08-9a32-1e47-6448, p. 138), as the shipped catalog holds it
    from praetor_analysis.units.attack import GRENADE_PROFILES

    weapons = load_weapons()
    row = weapons[weapons["profile_id"] == "ba08-9a32-1e47-6448"].iloc[0]
    assert {k: str(row[k]) for k in ("name", "Range", "Strength", "AP", "Type")} == GRENADE_PROFILES[
        "Meltabombs"
    ].to_block()
    assert GRENADE_PROFILES["Meltabombs"].to_block() == MELTABOMBS


def test_meltabombs_strike_once_each_from_a_datasheet() -> None:
    # Pyroclast Squad (Salamanders): four Pyroclasts carry Meltabombs as a weapon, the Warden has them in its
    # wargear only. Detonation (rules reference p. 118): one attack each whatever the Attacks (A 2) and a second
    # weapon; WS 4 against the Contemptor's WS 5 hits on 4+; S8 wounds T7 on 3+, Armourbane (Melee) re-rolls the
    # failures against a Dreadnought (8/9); AP 1 leaves the 5+ invulnerable save (2/3 fail):
    # 5 x 1/2 x 8/9 x 2/3 = 40/27 unsaved (the Pyroclasts struck three times each before)
    got = calc({"attacker": {"name": "Pyroclast Squad"}, "mode": "melee", "target": "Contemptor Dreadnought"})
    assert _mean(got, "hits") == pytest.approx(2.5, abs=1e-12)
    assert _mean(got, "unsaved") == pytest.approx(40 / 27, abs=1e-12)
    assert [(c["model"], c["weapon"], c["initiative"]) for c in got["chosen"]] == [
        ("Pyroclasts", "Meltabombs", 1),
        ("Pyroclast Warden", "Meltabombs", 1),
    ]


def test_meltabombs_by_enumeration_and_not_on_infantry() -> None:
    # the same as one attack a model rolled die by die (Detonation's single attack spelled out)
    target = {"name": "d", "Unit Type": "Dreadnought", "models": 1, "WS": 4, "T": 7, "W": 3, "Save": "2+"}
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 3, "models": 2, "charging": True},
          "weapon": MELTABOMBS, "target": target}  # fmt: skip
    plain = {**MELTABOMBS, "Type": "Melee, Armourbane (Melee), Instant Death"}
    _matches_oracle(sc, {**sc, "weapon": plain, "attacks": 2})
    assert _mean(calc({**sc, "target": LEGIONARIES}), "hits") == 0.0


# --- 9 (part). Grenades in a whole round of combat: Initiative 1 -----------------------------------------
DREAD_FIST = {"name": "fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"}


def test_krak_grenades_in_a_whole_round_strike_at_initiative_one() -> None:
    # a Tactical Squad (its 10 models fight a whole round, the Sergeant too) against a Contemptor fighting
    # back: the grenades strike at step 1, after the Contemptor's I4 blows (tests/test_melee_bruteforce.py
    # enumerates the same shape die by die)
    sc = {"attacker": {"name": "Tactical Squad"}, "mode": "melee", "target": "Contemptor Dreadnought",
          "target_weapon": DREAD_FIST}  # fmt: skip
    got = calc(sc)
    assert got["weapons"]["attacker"] == "Krak Grenades"
    assert got["initiative"] == {"attacker": 1, "target": 4}
    assert "Grenade Attack" in got["applied"] and "Grenade Attack" not in got["not_modelled"]
    # at most 10 hits (one a model alive at step 1), 10 x 1/3 x 1/6 = 0.56 unsaved if none fell first
    assert 0.0 < _mean(got, "unsaved") < 10 / 18
    assert 9.0 < _mean(got, "hits") < 10.0


def test_a_grenade_in_a_round_of_statlines_matches_one_way_when_nothing_strikes_back() -> None:
    # the target's blows cannot hurt (Strength 1 does not wound Toughness 5: the wound chart): the round's hits
    # and unsaved are the one-way grenade attack's, ten automatic hits at step 1
    attacker = {"WS": 4, "S": 4, "T": 5, "W": 1, "I": 4, "A": 2, "Save": "3+", "models": 10}
    target = {"name": "d", "Unit Type": "Dreadnought", "models": 1, "WS": 4, "S": 1, "T": 7, "W": 3, "I": 5,
              "A": 1, "Save": "2+"}  # fmt: skip
    weak = {"name": "feather", "Range": "-", "Strength": "1", "AP": "-", "Type": "Melee"}
    got = calc({"mode": "melee", "attacker": attacker, "weapon": KRAK, "target": target, "target_weapon": weak})
    one_way = calc({"mode": "melee", "attacker": attacker, "weapon": KRAK, "target": target})
    assert got["initiative"]["attacker"] == 1
    assert got["unsaved"]["pmf"] == pytest.approx(one_way["unsaved"]["pmf"], abs=1e-12)
    assert _mean(got, "hits") == pytest.approx(10.0, abs=1e-12)


# --- open reading: Curse of Dead Worlds against invulnerable saves that rules give ------------------------
@pytest.mark.parametrize(
    ("rules", "own", "taken"),
    [
        (["Iron Halo"], "-", "5+"),  # Iron Halo's 4+, one worse
        (["Refractor Field"], "-", "6+"),
        (["Iron Halo"], "5+", "5+"),  # the better of 5+ and 4+ is 4+; cursed, 5+
        (["Malefic Aegis (3+)"], "5+", "4+"),
        (["Refractor Field"], "6+", "6+"),  # 5+ is taken; cursed, 6+ (never worse than 6+)
    ],
)
def test_curse_of_dead_worlds_worsens_the_invulnerable_save_taken(rules: list[str], own: str, taken: str) -> None:
    # Curse of Dead Worlds (Dark Angels catalogue): invulnerable saves taken against its hits are one worse, 6+
    # at worst; the save taken is the best one offered, whoever offers it (its own or a rule's), so the curse acts
    # on that one: the same as a weapon without the curse against that one invulnerable save, the rule removed
    weapon = {"name": "Blade", "Range": "-", "Strength": "5", "AP": "2", "Type": "Heavy 2, Curse of Dead Worlds"}
    sc = {"attacker": {"BS": 4}, "weapon": weapon, "hits": 3, "target": _unit(rules, Invulnerable=own)}
    plain = {**weapon, "Type": "Heavy 2"}
    _matches_oracle(sc, {**sc, "weapon": plain, "target": _unit([], Invulnerable=taken)})
    _matches_oracle(sc, sc)  # and the oracle's own reading of the curse with those rules


# --- open reading: Deflagrate's extra hits and Molecular Dissonance ------------------------------------------
def test_deflagrate_extra_hits_do_not_wound_by_molecular_dissonance() -> None:
    # Molecular Dissonance (Titan Legions catalogue, p. 105) wounds on a To Hit roll of 6; Deflagrate (rules
    # reference p. 237) makes automatic hits, with no To Hit roll, so they roll To Wound as printed. By hand: BS 4
    # hits on 3+ (4/6), a hit is a six 1 time in 4 (auto wound), else S4 wounds T4 on 4+: 4/6 x (1/4 + 3/4 x 1/2)
    # = 5/12 unsaved a shot (no save); each makes one extra hit, unsaved on 4+ (1/2): 5/12 x 3/2 = 0.625
    weapon = {
        "name": "w",
        "Range": '24"',
        "Strength": "4",
        "AP": "-",
        "Type": "Heavy 1, Molecular Dissonance, Deflagrate",
    }
    sc = {"attacker": {"BS": 4}, "weapon": weapon, "target": {"name": "t", "models": 5, "T": 4, "W": 1, "Save": "-"}}
    got = calc(sc)
    assert _mean(got, "unsaved") == pytest.approx(0.625, abs=1e-12)  # 0.677 with the sixes' share on the extra hits
    (batched,) = calc_many([sc])
    assert batched["unsaved"]["pmf"] == pytest.approx(got["unsaved"]["pmf"], abs=1e-12)
    _matches_oracle(sc, sc)
