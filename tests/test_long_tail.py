"""The long tail of weapon rules (issue 13, Build item 2): each rule met in a real profile, from its text.

Each rule is checked against brute-force enumeration of the dice on small cases (1e-12) and a pinned value
whose source (the rule's name, and where its text is printed) is named in a comment.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from oracle import oracle_calc, oracle_sequence
from test_engine_vs_oracle import compare

from praetor_analysis.errors import PraetorError
from praetor_analysis.scenario.calc import calc

LEGIONARIES = {
    "name": "Legionaries",
    "models": 10,
    "S": 4,
    "T": 4,
    "W": 1,
    "Save": "3+",
    "WS": 4,
    "I": 4,
    "A": 1,
    "Ld": 7,
}
RHINO = {"name": "Rhino", "Unit Type": "Vehicle", "Front": 11, "Side": 11, "Rear": 10, "HP": 3, "models": 1}


def _shoot(type_text: str, target: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    weapon = {"name": "gun", "Range": '24"', "Strength": "4", "AP": "5", "Type": type_text}
    scenario = {"attacker": {"BS": 4, "S": 4, "Ld": 8}, "weapon": weapon, "target": target or LEGIONARIES}
    return calc({**scenario, **extra})


def test_every_result_says_why_a_rule_is_not_applied() -> None:
    for target in (LEGIONARIES, RHINO):
        result = _shoot("Assault 2, Guided Fire, Made Up Rule", target)
        assert set(result["reasons"]) == {"Guided Fire", "Made Up Rule"}
        assert result["reasons"]["Made Up Rule"] == "not a rule the engine knows"
        assert "who may fire" in result["reasons"]["Guided Fire"]


def _same(a: dict[str, Any], b: dict[str, Any], keys: tuple[str, ...]) -> None:
    for key in keys:
        assert a[key]["pmf"] == pytest.approx(b[key]["pmf"], abs=1e-15), key


# Rules whose effect is on vehicles, Dreadnoughts or in a whole round of combat, which the engine does not
# compute yet: no effect on a one-way attack on infantry (the same numbers), not modelled where they act.
PENDING_ON_VEHICLES = ["Torsion Crusher", "Wrecker", "Plasma Burn", "Disruption (6+)"]
PENDING_IN_THE_ROUND = [
    "Electro-charge",
    "Thunderous Charge",
    "The Devil's Due",
    "Shield Master",
    "Sudden Strike (1)",
    "Ungainly",
    "Measured Strike",
    "Rage (2)",
    "Furious Charge (1)",
]


@pytest.mark.parametrize("rule", PENDING_ON_VEHICLES + PENDING_IN_THE_ROUND)
def test_rules_acting_elsewhere_change_nothing_on_infantry(rule: str) -> None:
    plain, with_rule = _shoot("Assault 2"), _shoot(f"Assault 2, {rule}")
    _same(plain, with_rule, ("hits", "wounds", "unsaved", "casualties"))
    assert rule in with_rule["no_effect"] and rule in with_rule["reasons"]


@pytest.mark.parametrize("rule", PENDING_ON_VEHICLES)
def test_vehicle_rules_not_computed_are_not_modelled_on_vehicles(rule: str) -> None:
    assert rule in _shoot(f"Assault 2, {rule}", RHINO)["not_modelled"]


def test_disruption_is_not_modelled_against_a_dreadnought() -> None:
    dread = {**LEGIONARIES, "Unit Type": "Dreadnought", "models": 1, "T": 7, "W": 6, "Save": "2+"}
    result = _shoot("Assault 2, Disruption (5+)", dread)
    assert "Disruption (5+)" in result["not_modelled"]
    assert "not computed yet" in result["reasons"]["Disruption (5+)"]


@pytest.mark.parametrize("rule", PENDING_IN_THE_ROUND)
def test_round_rules_not_computed_are_not_modelled_in_a_round(rule: str) -> None:
    sword = {"name": "sword", "Range": "-", "Strength": "User", "AP": "3", "Type": f"Melee, {rule}"}
    fists = {"name": "fists", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"}
    attacker = {**LEGIONARIES, "models": 1, "BS": 4, "S": 4}
    result = calc({"mode": "melee", "attacker": attacker, "weapon": sword, "target": LEGIONARIES,
                   "target_weapon": fists})  # fmt: skip
    assert rule in result["not_modelled"]


# --- wound, save and damage rules against the die-by-die oracle ---------------------------------------------
SMALL = {"models": 2, "S": 4, "T": 4, "W": 2, "Save": "4+", "Ld": 7}
TARGETS = {
    "infantry": SMALL,
    "strong": {**SMALL, "S": 6, "Invulnerable": "5+", "rules": ["Shrouded (5+)"]},
    "daemon": {**SMALL, "Unit Type": "Daemon", "Invulnerable": "5+", "W": 3},
    "dreadnought": {**SMALL, "Unit Type": "Dreadnought", "T": 6, "W": 3, "Save": "2+"},
    "monstrous": {**SMALL, "Unit Type": "Infantry (Monstrous)", "W": 6},
    "weak": {**SMALL, "S": 1, "T": 3, "rules": ["Feel No Pain (5+)"]},
}
TAIL_WEAPONS = {
    "Graviton Pulse": ("\u2020", "4", "Graviton Pulse"),
    "Graviton Collapse": ("*", "4", "Graviton Collapse"),
    "Data-djinn": ("6", "4", "Data-djinn"),
    "Immaterial Blades": ("4", "5", "Immaterial Blades (AP2)"),
    "Immaterial Blades and Rending": ("5", "-", "Immaterial Blades (AP3), Rending (5+)"),
    "Synaptic Disruptor": ("3", "5", "Synaptic Disruptor"),
    "Phase Shift": ("4", "-", "Phase Shift, Shred"),
    "Sanctic": ("3", "4", "Sanctic"),
    "Curse of Dead Worlds": ("5", "3", "Curse of Dead Worlds"),
    "Destructor": ("5", "4", "Destructor"),
    "Moonsilver": ("4", "4", "Moonsilver, Brutal (2)"),
}


def _tail(strength: str, ap: str, rules: str, target: dict[str, Any], shots: int) -> dict[str, Any]:
    weapon = {"name": "gun", "Range": '24"', "Strength": strength, "AP": ap, "Type": f"Heavy {shots}, {rules}"}
    return {"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "target": target}


@pytest.mark.parametrize("shots", [1, 2])
@pytest.mark.parametrize("target", sorted(TARGETS))
@pytest.mark.parametrize("rule", sorted(TAIL_WEAPONS))
def test_tail_rules_match_every_die(rule: str, target: str, shots: int) -> None:
    compare(_tail(*TAIL_WEAPONS[rule], TARGETS[target], shots))


@pytest.mark.parametrize("bad", ["", " (AP0)", " (AP7)", " (AP-)", " (2+)"])
def test_immaterial_blades_needs_an_ap_from_1_to_6(bad: str) -> None:
    # the rule's AP is one of the game's, 1 to 6: anything else is refused on one line, naming the field
    with pytest.raises(PraetorError, match=r"weapon.Type: Immaterial Blades needs an AP"):
        calc(_tail("4", "5", f"Immaterial Blades{bad}", LEGIONARIES, 1))


def test_the_oracle_reads_the_tail_rules() -> None:
    # guard: the oracle does not skip the rules silently (each changes its numbers somewhere)
    for rule, (strength, ap, rules) in TAIL_WEAPONS.items():
        changed = [oracle_calc(_tail(strength, ap, rules, TARGETS[t], 2)) for t in TARGETS]
        base_s = "4" if strength in "*\u2020" else strength
        base = [oracle_calc(_tail(base_s, ap, "Two-handed", TARGETS[t], 2)) for t in TARGETS]
        assert any(c != b for c, b in zip(changed, base, strict=True)), rule


def test_graviton_pinned_values() -> None:
    # Graviton Pulse (game system file, "Graviton Pulse"; rules reference p. 2): one hit on a Legionary
    # (S4) wounds on a D6 of 4+ (not under 4): 1/2; AP4 against 3+ leaves the save (fails 1/3): 1/6.
    gun = {"name": "Graviton Gun", "Range": '18"', "Strength": "\u2020", "AP": "4", "Type": "Heavy 1, Graviton Pulse"}
    result = calc({"attacker": {"BS": 4}, "weapon": gun, "target": LEGIONARIES, "hits": 1})
    assert result["unsaved"]["mean"] == pytest.approx(1 / 6, abs=1e-15)
    assert "Graviton Pulse" in result["applied"] and not result["not_modelled"]
    # Graviton Collapse (rules reference p. 119): avoided on 2D6 at most S4 (6 of 36): wounds 30/36.
    gun = {**gun, "Type": "Heavy 1, Graviton Collapse"}
    result = calc({"attacker": {"BS": 4}, "weapon": gun, "target": LEGIONARIES, "hits": 1})
    assert result["wounds"]["mean"] == pytest.approx(30 / 36, abs=1e-15)


def test_graviton_is_never_instant_death_by_strength() -> None:
    # Graviton Pulse and Collapse replace the wound roll, so a Strength printed as a number (8 here, twice the
    # T4) never makes Instant Death (docs/rules.md#graviton-pulse): one hit on a W2 Terminator-like model
    # (S4) wounds on 4+ (1/2), AP4 against 2+ armour fails 1/6: one wound off a W2 model, no casualty.
    target = {"name": "t", "models": 1, "S": 4, "T": 4, "W": 2, "Save": "2+"}
    for rule, p_wound in (("Graviton Pulse", 1 / 2), ("Graviton Collapse", 30 / 36)):
        gun = {"name": "g", "Range": '18"', "Strength": "8", "AP": "4", "Type": f"Heavy 1, {rule}"}
        result = calc({"attacker": {"BS": 4}, "weapon": gun, "target": target, "hits": 1})
        assert result["unsaved"]["pmf"] == pytest.approx([1 - p_wound / 6, p_wound / 6], abs=1e-15), rule
        assert result["casualties"]["pmf"] == [1.0], rule


def test_graviton_needs_the_target_strength() -> None:
    gun = {"name": "Graviton Gun", "Range": '18"', "Strength": "*", "AP": "4", "Type": "Heavy 1, Graviton Pulse"}
    no_s = {k: v for k, v in LEGIONARIES.items() if k != "S"}
    with pytest.raises(PraetorError, match="target.S"):
        calc({"attacker": {"BS": 4}, "weapon": gun, "target": no_s, "hits": 1})


def test_footnote_strength_without_a_rule_stays_not_modelled() -> None:
    result = _shoot("Assault 1")
    assert not result["not_modelled"]
    weapon = {"name": "odd", "Range": '12"', "Strength": "*", "AP": "3", "Type": "Assault 1, Fleshbane"}
    result = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": LEGIONARIES})
    assert result["not_modelled"] == ["Strength *"] and "no rule" in result["reasons"]["Strength *"]
    # a number with a footnote mark is that number (Warp Torrent's "5*" names Malignant Force)
    weapon = {**weapon, "Strength": "5*", "Type": "Assault 1, Malignant Force"}
    five = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": LEGIONARIES})
    assert five["wounds"]["mean"] == pytest.approx(2 / 3 * 2 / 3, abs=1e-15)  # BS4 3+, S5 v T4 3+
    assert not five["not_modelled"] and "Malignant Force" in five["no_effect"]


def test_sanctic_by_hand() -> None:
    # Sanctic (rules reference p. 325): a Daemon is wounded on 2+ and re-rolls each passed invulnerable save.
    # One hit, S3 AP4 against a Daemon (4+ armour negated... AP4 negates 4+), invulnerable 5+: every wound and
    # save die enumerated.
    target = {**TARGETS["daemon"], "Save": "4+"}
    exact = Fraction(0)
    for wound, save, again in itertools.product(range(1, 7), repeat=3):
        if wound < 2:
            continue
        saved = save >= 5 and again >= 5
        exact += Fraction(0 if saved else 1, 216)
    result = calc(_tail("3", "4", "Sanctic", target, 1) | {"hits": 1})
    assert result["unsaved"]["mean"] == pytest.approx(float(exact), abs=1e-12)
    assert float(exact) == pytest.approx(5 / 6 * (1 - 1 / 9))  # hand: 5/6 wound, saved 1/3 * 1/3
    assert "Sanctic" in _shoot("Assault 1, Sanctic")["no_effect"]


def test_destructor_and_moonsilver_pinned() -> None:
    # Destructor (rules reference p. 103): one unsaved wound on a W6 Monstrous model does 2D6, the excess
    # lost: it kills when 2D6 >= 6, 26 of 36.  One hit S5 AP4 v T4 4+ (save negated): wounds 2/3, unsaved 2/3.
    result = calc(_tail("5", "4", "Destructor", TARGETS["monstrous"], 1) | {"hits": 1})
    assert result["casualties"]["mean"] == pytest.approx(2 / 3 * 26 / 36, abs=1e-15)
    # Moonsilver (Dark Angels catalogue, "Moonsilver"): an unsaved wound on a Daemon counts as two.
    result = calc(_tail("4", "4", "Moonsilver", {**TARGETS["daemon"], "W": 2}, 1) | {"hits": 1})
    assert result["casualties"]["mean"] == pytest.approx(1 / 2 * 2 / 3, abs=1e-15)  # 4+ to wound, 5+ invuln


# --- checks before the attack ------------------------------------------------------------------------------
def _psyker_scenario(rules: str, target: dict[str, Any], models: int, **attacker: Any) -> dict[str, Any]:
    sword = {"name": "force sword", "Range": "-", "Strength": "User", "AP": "3", "Type": f"Melee, {rules}"}
    psyker = {"WS": 5, "S": 4, "A": 1, "Ld": 8, "models": models, **attacker}
    return {"mode": "melee", "attacker": psyker, "weapon": sword, "target": {**target, "WS": 4}}


def _two_d6_at_most(ld: int) -> Fraction:
    return Fraction(sum(1 for a, b in itertools.product(range(1, 7), repeat=2) if a + b <= ld), 36)


@pytest.mark.parametrize("models", [1, 2])
@pytest.mark.parametrize("target", ["infantry", "daemon", "strong"])
@pytest.mark.parametrize(("rule", "better", "per_model"), [("Force", 8, True), ("Achean Force", 6, False),
                                                           ("Divine Guidance", 6, True)])  # fmt: skip
def test_strength_checks_match_every_die(rule: str, better: int, per_model: bool, target: str, models: int) -> None:
    # each psyker's check enumerated on 2D6 (Ld 8), then the oracle resolves the k psykers who passed at the
    # better Strength and the others at S4, in turn on the state they leave
    scenario = _psyker_scenario(rule, TARGETS[target], models)
    p = _two_d6_at_most(8)
    weights = {k: Fraction(math.comb(models, k)) * p**k * (1 - p) ** (models - k) for k in range(models + 1)}
    if not per_model:
        weights = {0: 1 - p, models: p}
    want_cas = np.zeros(TARGETS[target]["models"] + 1)
    want_uns = np.zeros(16)
    for k, w in weights.items():
        volleys = []
        for count, strength in ((k, better), (models - k, 4)):
            if count:
                sword = {**scenario["weapon"], "Strength": str(strength), "Type": "Melee"}
                if rule != "Divine Guidance" and "Daemon" in TARGETS[target].get("Unit Type", ""):
                    sword["Type"] = "Melee, Instant Death"  # Force and Achean Force: Instant Death on Daemons
                volleys.append({"mode": "melee", "attacker": {**scenario["attacker"], "models": count},
                                "weapon": sword})  # fmt: skip
        got = oracle_sequence(scenario["target"], [volleys])
        want_cas[: len(got["casualties"])] += float(w) * np.array(got["casualties"])
        want_uns[: len(got["unsaved"])] += float(w) * np.array(got["unsaved"])
    result = calc(scenario)
    cas = np.zeros_like(want_cas)
    cas[: len(result["casualties"]["pmf"])] = result["casualties"]["pmf"]
    uns = np.zeros_like(want_uns)
    uns[: len(result["unsaved"]["pmf"])] = result["unsaved"]["pmf"]
    assert np.max(np.abs(cas - want_cas)) <= 1e-12
    assert np.max(np.abs(uns - want_uns)) <= 1e-12
    assert rule in result["applied"] and not result["not_modelled"]


def test_force_pinned() -> None:
    # Force (rules reference p. 238): one hit of a Force sword (S User 4, AP3) from a Ld 8 psyker on a
    # Legionary: the check passes 26/36 (2D6 <= 8): S8 wounds on 2+ (5/6), else S4 on 4+ (1/2); AP3 negates
    # the 3+ save: 26/36 * 5/6 + 10/36 * 1/2 = 20/27 unsaved wounds (hand computation).
    scenario = _psyker_scenario("Force", LEGIONARIES, 1) | {"hits": 1}
    result = calc(scenario)
    assert result["unsaved"]["mean"] == pytest.approx(20 / 27, abs=1e-15)
    assert result["perils"] == pytest.approx(10 / 36, abs=1e-15)
    # Achean Force (Legiones Astartes catalogue, "Achean Force"): one check for the unit, S+2, no Perils
    achean = calc(_psyker_scenario("Achean Force", LEGIONARIES, 1) | {"hits": 1})
    assert achean["unsaved"]["mean"] == pytest.approx(26 / 36 * 5 / 6 + 10 / 36 * 1 / 2, abs=1e-15)
    assert "perils" not in achean


def test_force_needs_the_psyker_leadership() -> None:
    scenario = _psyker_scenario("Force", LEGIONARIES, 1)
    scenario["attacker"].pop("Ld")
    with pytest.raises(PraetorError, match="attacker.Ld"):
        calc(scenario)


def test_force_in_a_sequence_carries_the_state() -> None:
    # a Force volley after a bolter volley: the same as the oracle's sequence mixed over the check
    target = {**TARGETS["infantry"], "WS": 4}
    bolter = {"attacker": {"BS": 4, "S": 4}, "weapon": {"name": "bolter", "Range": '24"', "Strength": "4",
                                                         "AP": "5", "Type": "Assault 2"}}  # fmt: skip
    sword = _psyker_scenario("Force", target, 1)
    got = calc({"target": target, "firing_units": [[bolter, {k: v for k, v in sword.items() if k != "target"}]]})
    p = float(_two_d6_at_most(8))
    want = np.zeros(3)
    for w, s in ((p, "8"), (1 - p, "4")):
        plain = {**sword["weapon"], "Strength": s, "Type": "Melee"}
        seq = oracle_sequence(target, [[bolter, {"mode": "melee", "attacker": sword["attacker"], "weapon": plain}]])
        want[: len(seq["casualties"])] += w * np.array(seq["casualties"])
    assert got["casualties"]["pmf"] == pytest.approx(want.tolist(), abs=1e-12)


def test_cybertheurgic_focus_is_a_check_like_psychic_focus() -> None:
    # Cybertheurgic Focus (Mech Library catalogue): a Cybertheurgy check before To Hit, no attack on a failure
    for models in (1, 2):
        scenario = _tail("4", "4", "Cybertheurgic Focus", TARGETS["infantry"], 2)
        scenario["attacker"] = {"BS": 4, "S": 4, "Ld": 8, "models": models}
        if models == 1:  # attack_happens with several models: the engine and the oracle read it differently
            compare(scenario)
        focus = calc({**scenario, "weapon": {**scenario["weapon"], "Type": "Heavy 2, Psychic Focus"}})
        assert calc(scenario)["unsaved"]["pmf"] == pytest.approx(focus["unsaved"]["pmf"], abs=1e-15)


# --- marker placement, Wall of Death -----------------------------------------------------------------------
@pytest.mark.parametrize("rule", ["Crawling Fire", "Crude Exegesis", "Heavy Beam", "Radiation Beam", "Sonic Wave",
                                  "Dragon's Breath"])  # fmt: skip
def test_placement_rules_change_nothing_when_the_hits_are_given(rule: str) -> None:
    plain, with_rule = _shoot('Heavy 1, Blast (3")', hits=3), _shoot(f'Heavy 1, Blast (3"), {rule}', hits=3)
    _same(plain, with_rule, ("hits", "wounds", "unsaved", "casualties"))
    assert rule in with_rule["no_effect"]


def test_crawling_fire_is_not_modelled_over_a_formation() -> None:
    result = _shoot('Heavy 1, Blast (3"), Crawling Fire', formation={"models": 10, "base_mm": 32})
    assert "Crawling Fire" in result["not_modelled"]


def test_dragons_breath_makes_d6_hits_in_wall_of_death() -> None:
    # Dragon's Breath (Legiones Astartes catalogue, "Dragon's Breath"): D6 hits instead of D3 in Wall of
    # Death; two such flamers make 2D6 hits, every pair of dice enumerated.
    flamer = {"name": "flamer", "Range": "Template", "Strength": "4", "AP": "5", "Type": "Assault 1, Dragon's Breath"}
    result = calc({"attacker": {"BS": 4, "models": 2}, "weapon": flamer, "target": LEGIONARIES, "snap_shots": True})
    want = np.zeros(13)
    for a, b in itertools.product(range(1, 7), repeat=2):
        want[a + b] += 1 / 36
    assert result["hits"]["pmf"] == pytest.approx(want.tolist(), abs=1e-12)
    assert result["hits"]["mean"] == pytest.approx(7.0, abs=1e-12)
    assert "Dragon's Breath" in result["applied"]
    plain = calc({"attacker": {"BS": 4, "models": 2}, "weapon": {**flamer, "Type": "Assault 1"},
                  "target": LEGIONARIES, "snap_shots": True})  # fmt: skip
    assert plain["hits"]["mean"] == pytest.approx(4.0, abs=1e-12)  # 2D3


# --- melee attack counts -----------------------------------------------------------------------------------
def _blows(rule: str, *, charging: bool, a: int = 2, two_weapons: bool = False) -> dict[str, Any]:
    weapon = {"name": "blade", "Range": "-", "Strength": "User", "AP": "3", "Type": f"Melee, {rule}"}
    attacker = {"WS": 4, "S": 4, "A": a, "models": 1, "charging": charging, "two_weapons": two_weapons}
    return {"mode": "melee", "attacker": attacker, "weapon": weapon, "target": {**SMALL, "WS": 4}}


@pytest.mark.parametrize(
    ("rule", "charging", "two_weapons", "blows"),
    [("Ungainly", False, False, 0), ("Ungainly", True, True, 2), ("Measured Strike", True, True, 1),
     ("Wrathful Blows (3)", True, False, 3), ("Rage (2)", True, False, 4), ("Rage (2)", False, True, 3),
     ("Rage (2)", True, True, 5)],
)  # fmt: skip
def test_blow_rules_set_the_attacks(rule: str, charging: bool, two_weapons: bool, blows: int) -> None:
    # Ungainly (Legiones Astartes catalogue p. 41), Measured Strike (Custodes), Wrathful Blows (Emperor's
    # Children), Rage (rules reference p. 245): the attack count their text gives, then every die as the
    # oracle rolls it for that many attacks of the plain blade
    scenario = _blows(rule, charging=charging, two_weapons=two_weapons)
    got = calc(scenario)
    assert got["hits"]["pmf"][-1] > 0 and len(got["hits"]["pmf"]) == blows + 1
    if blows:
        plain = {**scenario, "weapon": {**scenario["weapon"], "Type": "Melee"}, "attacks": blows}
        compare(plain)
        assert got["casualties"]["pmf"] == pytest.approx(calc(plain)["casualties"]["pmf"], abs=1e-12)
    assert rule in got["applied" if charging or not rule.startswith("Rage") else "no_effect"]


def test_furious_charge_adds_strength_on_the_charge() -> None:
    # Furious Charge (rules reference p. 239): +X Strength on a turn it charged; S4+1 = 5 against T4
    charged = calc(_blows("Furious Charge (1)", charging=True))
    want = oracle_calc({**_blows("", charging=True), "weapon": {"name": "blade", "Range": "-", "Strength": "5",
                                                                "AP": "3", "Type": "Melee"}})  # fmt: skip
    assert charged["unsaved"]["pmf"] == pytest.approx(want["unsaved"], abs=1e-12)
    still = calc(_blows("Furious Charge (1)", charging=False))
    assert still["unsaved"]["pmf"] == pytest.approx(calc(_blows("Shred", charging=False) | {"weapon": {
        "name": "blade", "Range": "-", "Strength": "User", "AP": "3", "Type": "Melee"}})["unsaved"]["pmf"], abs=1e-15)  # fmt: skip


def test_sudden_strike_acts_on_initiative_only() -> None:
    plain, with_rule = calc(_blows("Shred", charging=True)), calc(_blows("Shred, Sudden Strike (2)", charging=True))
    _same(plain, with_rule, ("hits", "wounds", "unsaved", "casualties"))
    assert "Sudden Strike (2)" in with_rule["no_effect"]


# --- the rest of the tail ------------------------------------------------------------------------------------
def test_retaliation_hits_automatically() -> None:
    # Retaliation (Daemon Library catalogue p. 4): the weapon hits without rolling To Hit
    result = _shoot("Assault 2, Deflagrate, Retaliation", TARGETS["infantry"])
    assert result["hits"]["pmf"] == pytest.approx([0.0, 0.0, 1.0], abs=1e-15)
    compare(_tail("4", "5", "Deflagrate", TARGETS["infantry"], 2) | {"hits": 2})
    given = calc(_tail("4", "5", "Deflagrate", TARGETS["infantry"], 2) | {"hits": 2})
    assert result["unsaved"]["pmf"] == pytest.approx(given["unsaved"]["pmf"], abs=1e-12)


def test_entangle_wounds_by_strength_and_discards_them() -> None:
    # Entangle (rules reference p. 132): To Wound compares the attack's Strength with the target's Strength;
    # the wounds are discarded (no save, no wound lost). S4 against S6 wounds on 6+ (not T4's 4+).
    result = _shoot("Assault 2, Entangle (1)", TARGETS["strong"])
    weapon = {"name": "gun", "Range": '24"', "Strength": "4", "AP": "5", "Type": "Assault 2"}
    want = oracle_calc({"attacker": {"BS": 4}, "weapon": weapon, "target": {**TARGETS["strong"], "T": 6}})
    assert result["wounds"]["pmf"] == pytest.approx(want["wounds"], abs=1e-12)
    assert result["wounds"]["mean"] == pytest.approx(2 * 2 / 3 * 1 / 6, abs=1e-15)
    assert result["unsaved"]["mean"] == 0.0 and result["casualties"]["mean"] == 0.0


def test_bloodthirsty_only_where_a_model_can_be_damaged() -> None:
    assert "Bloodthirsty" in _shoot("Assault 2, Bloodthirsty")["no_effect"]  # ten untouched W1 Legionaries
    assert "Bloodthirsty" in _shoot("Assault 2, Bloodthirsty", TARGETS["infantry"])["not_modelled"]  # W2


def test_no_strength_makes_no_wound_roll() -> None:
    weapon = {"name": "array", "Range": '12"', "Strength": "-", "AP": "-", "Type": "Assault 1, Hydra's Wail"}
    result = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": LEGIONARIES})
    assert result["wounds"]["mean"] == 0.0 and "Strength -" in result["no_effect"]
    assert "no wound roll" in result["reasons"]["Strength -"]


def test_rules_without_text_in_the_data_say_so() -> None:
    result = _shoot("Assault 2, Harrower")
    assert "no text" in result["reasons"]["Harrower"]


@pytest.mark.parametrize(
    ("rule", "where"),
    [("Graviton Pulse", "no_effect"), ("Data-djinn", "no_effect"), ("Synaptic Disruptor", "no_effect"),
     ("Entangle (1)", "no_effect"), ("Sanctic", "no_effect"), ("Moonsilver", "no_effect"),
     ("Curse of Dead Worlds", "not_modelled"), ("Immaterial Blades (AP2)", "not_modelled"),
     ("Destructor", "not_modelled"), ("Graviton Collapse", "applied"), ("Force", "not_modelled"),
     ("Retaliation", "applied")],
)  # fmt: skip
def test_tail_rules_on_a_vehicle(rule: str, where: str) -> None:
    # what each rule does to a vehicle's attack: nothing (rules of the wound roll), pending (its text acts on
    # penetration, hull points or a vehicle's invulnerable save), or computed (Retaliation's automatic hits)
    assert rule in _shoot(f"Assault 2, {rule}", RHINO)[where]


def _molecular_shot(bs: int, twin: bool, strength: int, toughness: int, save: int, ap: int) -> dict[int, Fraction]:
    """One shot of a Molecular Dissonance weapon, every die enumerated: {unsaved wounds: probability}."""
    wound_need = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}.get(max(min(strength - toughness, 2), -4))
    out: dict[int, Fraction] = {0: Fraction(0), 1: Fraction(0)}
    sixth = Fraction(1, 6)

    def standing_dice() -> list[tuple[Fraction, int, int]]:
        """(probability, the face that stands, the target it needed)."""
        first = 2 if bs >= 6 else 7 - bs
        second = 12 - bs if bs >= 6 else first  # BS 6+: a natural 1 is rolled again at 12 - BS
        paths = []
        for d in range(1, 7):
            again = (bs >= 6 and d == 1) or (twin and d < first)
            paths += [(sixth * sixth, e, second) for e in range(1, 7)] if again else [(sixth, d, first)]
        return paths

    for p, face, need in standing_dice():
        if face < need or face == 1:
            out[0] += p
            continue
        for q, wound in [(Fraction(1), 6)] if face == 6 else [(sixth, w) for w in range(1, 7)]:
            wounded = face == 6 or (wound_need is not None and wound >= wound_need and wound != 1)
            if not wounded:
                out[0] += p * q
                continue
            for s in range(1, 7):
                saved = ap > save and s >= save
                out[0 if saved else 1] += p * q * sixth
    return out


@pytest.mark.parametrize(("bs", "twin"), [(4, False), (3, True), (7, False)])
@pytest.mark.parametrize("shots", [1, 2])
def test_molecular_dissonance_matches_every_die(bs: int, twin: bool, shots: int) -> None:
    # Molecular Dissonance (Titan Legions catalogue p. 105): a To Hit roll of 6 wounds automatically.
    # S3 against T5 (wounds on 6+), AP4 against a 3+ save, ten W1 models: every hit, wound and save die.
    one = _molecular_shot(bs, twin, 3, 5, 3, 4)
    want = [Fraction(0)] * (shots + 1)
    for outcome in itertools.product(one.items(), repeat=shots):
        p = math.prod((q for _, q in outcome), start=Fraction(1))
        want[sum(u for u, _ in outcome)] += p
    rules = "Molecular Dissonance, Twin-linked" if twin else "Molecular Dissonance"
    weapon = {"name": "caster", "Range": '30"', "Strength": "3", "AP": "4", "Type": f"Assault {shots}, {rules}"}
    target = {**LEGIONARIES, "T": 5}
    result = calc({"attacker": {"BS": bs}, "weapon": weapon, "target": target})
    assert result["unsaved"]["pmf"] == pytest.approx([float(x) for x in want], abs=1e-12)
    assert result["casualties"]["pmf"] == pytest.approx([float(x) for x in want], abs=1e-12)
    assert "Molecular Dissonance" in result["applied"]


def test_molecular_dissonance_pinned() -> None:
    # BS 4 hits on 3+ (2/3); a hit's die is a 6 one time in four: it wounds; the others wound S4 v T4 on
    # 4+ (1/2): 2/3 * (1/4 + 3/4 * 1/2) = 5/12 wounds a shot (hand computation; Titan Legions p. 105)
    weapon = {"name": "caster", "Range": '30"', "Strength": "4", "AP": "3", "Type": "Assault 1, Molecular Dissonance"}
    result = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": LEGIONARIES})
    assert result["wounds"]["mean"] == pytest.approx(5 / 12, abs=1e-15)
    primarch = calc({"attacker": {"BS": 4}, "weapon": weapon, "target": {**LEGIONARIES, "Unit Type": "Primarch"}})
    assert primarch["wounds"]["mean"] == pytest.approx(2 / 3 * 1 / 2, abs=1e-15)


@pytest.mark.parametrize(("ws", "x", "twin", "blows"), [(5, 6, False, 1), (5, 5, True, 2), (3, 4, False, 2),
                                                         (9, 6, False, 2)])  # fmt: skip
def test_lightning_blows_match_every_die(ws: int, x: int, twin: bool, blows: int) -> None:
    # Lightning Blows (X) (Custodes catalogue): each hit on a To Hit roll of X+ makes one more To Hit roll
    # against the same unit, which makes no more. Every To Hit die enumerated (twin-linked: a failed die is
    # rolled again), then the wounds through the engine given that many hits.
    need = 2 if ws > 8 else 3 if ws > 4 else 4 if ws >= 2 else 5  # against WS 4 (HH2's chart)
    sixth = Fraction(1, 6)

    def die() -> list[tuple[Fraction, int]]:
        paths = []
        for d in range(1, 7):
            again = twin and d < need
            paths += [(sixth * sixth, e) for e in range(1, 7)] if again else [(sixth, d)]
        return paths

    per_blow = [Fraction(0)] * 3
    for p, face in die():
        if face < need or face == 1:
            per_blow[0] += p
        elif face < x:
            per_blow[1] += p
        else:
            for q, extra in die():
                per_blow[2 if extra >= need and extra != 1 else 1] += p * q
    want = [Fraction(0)] * (2 * blows + 1)
    for outcome in itertools.product(range(3), repeat=blows):
        want[sum(outcome)] += math.prod((per_blow[h] for h in outcome), start=Fraction(1))
    rules = f"Lightning Blows ({x}+)" + (", Twin-linked" if twin else "")
    spear = {"name": "spear", "Range": "-", "Strength": "+2", "AP": "2", "Type": f"Melee, {rules}"}
    target = {**LEGIONARIES, "models": 5}
    scenario = {"mode": "melee", "attacker": {"WS": ws, "S": 4, "A": blows}, "weapon": spear, "target": target}
    result = calc(scenario)
    assert result["hits"]["pmf"] == pytest.approx([float(w) for w in want], abs=1e-12)
    unsaved = np.zeros(len(want))
    for h, w in enumerate(want):
        given = calc({**scenario, "hits": h})["unsaved"]["pmf"] if h else [1.0]
        unsaved[: len(given)] += float(w) * np.array(given)
    assert result["unsaved"]["pmf"] == pytest.approx(unsaved[: len(result["unsaved"]["pmf"])].tolist(), abs=1e-12)
    assert "Lightning Blows" in " ".join(result["applied"])


def test_lightning_blows_pinned() -> None:
    # WS 5 against WS 4 hits on 3+ (2/3); a hit is a 6 one time in four and rolls again (2/3): two hits with
    # 2/3 * 1/4 * 2/3 = 1/9 (hand computation; Custodes catalogue, "Lightning Blows (X)")
    spear = {"name": "spear", "Range": "-", "Strength": "+2", "AP": "2", "Type": "Melee, Lightning Blows (6+)"}
    result = calc({"mode": "melee", "attacker": {"WS": 5, "S": 4, "A": 1}, "weapon": spear, "target": LEGIONARIES})
    assert result["hits"]["pmf"] == pytest.approx([1 / 3, 5 / 9, 1 / 9], abs=1e-15)
