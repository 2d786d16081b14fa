"""Issue 13's readings of the rules: each against brute-force enumeration of the dice and a pinned value.

Every pinned value names its source: the rule's name and where its text is (the Horus Heresy 2022
rulebook page, as the BattleScribe game system file ``2022 - Horus Heresy.gst`` cites it in its
``<rule>`` elements). docs/rules.md describes each reading.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from oracle import oracle_calc

from praetor_analysis.rules import tables
from praetor_analysis.scenario.calc import calc

TOL = 1e-12


def assert_matches_oracle(
    scenario: dict[str, Any], keys: tuple[str, ...] = ("hits", "wounds", "unsaved", "casualties")
):
    got, want = calc(scenario), oracle_calc(scenario)
    for key in keys:
        a, b = np.zeros(64), np.zeros(64)
        a[: len(got[key]["pmf"])] = got[key]["pmf"]
        b[: len(want[key])] = want[key]
        assert np.max(np.abs(a - b)) <= TOL, f"{key}: engine {got[key]['pmf']} != oracle {want[key]}"
    if "pinned" in want and want["pinned"] is not None:
        assert got["pinned"] == pytest.approx(want["pinned"], abs=TOL)
    return got


def legionaries(models: int = 10, **extra: Any) -> dict[str, Any]:
    return {"name": "Legionaries", "Unit Type": "Infantry", "models": models, "WS": 4, "T": 4, "W": 1, "I": 4,
            "Ld": 7, "Save": "3+", **extra}  # fmt: skip


FLAMER = {"name": "Flamer", "Range": "Template", "Strength": "4", "AP": "5", "Type": "Assault 1"}


# --- Template weapons have Ignores Cover, which denies Shrouded --------------------------------------
@pytest.mark.parametrize("hits", [1, 2, 3, "D3"])
@pytest.mark.parametrize("shrouded", ["Shrouded (5+)", "Shrouded", "Feel No Pain (6+)"])
def test_template_denies_shrouded_by_enumeration(hits, shrouded):
    sc = {"attacker": {"BS": 4, "S": 4}, "weapon": FLAMER, "hits": hits, "target": legionaries(4, rules=[shrouded])}
    assert_matches_oracle(sc)


def test_six_flamer_hits_on_shrouded_legionaries():
    # Template Weapons (rulebook p. 248, gst rule "Template Weapons"): templates have Ignores Cover; Ignores
    # Cover (p. 242) denies Shrouded (X) (p. 247). Six S4 AP5 hits on T4 3+: 6 * 1/2 * 1/3 = 1.0 unsaved,
    # whatever the Shrouded (5+); the old reading gave 6 * 1/2 * 1/3 * 2/3 = 0.67.
    sc = {"attacker": {"BS": 4, "S": 4}, "weapon": FLAMER, "hits": 6, "target": legionaries(rules=["Shrouded (5+)"])}
    assert calc(sc)["unsaved"]["mean"] == pytest.approx(1.0, abs=1e-12)


# --- No Feel No Pain against Instant Death, even when Eternal Warrior makes it one wound -------------
@pytest.mark.parametrize(
    ("strength", "extra_rules"),
    [("8", []), ("4", ["Murderous Strike (5+)"]), ("4", ["Instant Death"]), ("7", []), ("8", ["Brutal (2)"])],
)
@pytest.mark.parametrize("hits", [1, 3])
def test_no_feel_no_pain_against_instant_death_by_enumeration(strength, extra_rules, hits):
    target = legionaries(2, W=3, Save="4+", rules=["Feel No Pain (5+)", "Eternal Warrior"], wounds_taken=1)
    weapon = {
        "name": "gun",
        "Range": '24"',
        "Strength": strength,
        "AP": "4",
        "Type": ", ".join(["Assault 1", *extra_rules]),
    }
    assert_matches_oracle({"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "hits": hits, "target": target})


def test_eternal_warrior_keeps_feel_no_pain_away_from_instant_death():
    # Feel No Pain (X) (rulebook p. 238): not against unsaved Wounds with Instant Death; Eternal Warrior
    # (p. 237) only changes how many Wounds are lost. One S8 AP5 hit on T4 4+ FNP 5+ Eternal Warrior:
    # wound 5/6, save fails 1/2, no FNP: 5/12 (the old reading allowed FNP: 5/18).
    target = legionaries(1, W=3, Save="4+", rules=["Feel No Pain (5+)", "Eternal Warrior"])
    weapon = {"name": "gun", "Range": '24"', "Strength": "8", "AP": "5", "Type": "Assault 1"}
    result = calc({"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "hits": 1, "target": target})
    assert result["unsaved"]["pmf"] == pytest.approx([7 / 12, 5 / 12], abs=1e-15)


# --- Stubborn and Inexorable ignore Shell Shock ----------------------------------------------------
@pytest.mark.parametrize("rule", ["Stubborn", "Inexorable", None])
@pytest.mark.parametrize("shell_shock", ["Shell Shock (1)", "Shell Shock (3)"])
def test_stubborn_ignores_shell_shock_by_enumeration(rule, shell_shock):
    weapon = {"name": "gun", "Range": '24"', "Strength": "4", "AP": "5", "Type": f"Assault 3, Pinning, {shell_shock}"}
    target = legionaries(3, rules=[rule] if rule else [])
    got = assert_matches_oracle({"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "target": target})
    if rule:
        assert f"target: {rule}" in got["applied"]


def test_stubborn_legionaries_take_the_pinning_test_at_their_leadership():
    # Stubborn (rulebook p. 248) and Inexorable (p. 121): negative Leadership modifiers are ignored in Pinning
    # tests, so Shell Shock (X) does nothing. One automatic S4 AP- hit on T4 Sv- Ld7: unsaved 1/2, then the
    # test at Ld 7 fails with 15/36: P(pinned) = 1/2 * 15/36 = 5/24 whatever the Shell Shock (2).
    weapon = {"name": "gun", "Range": '24"', "Strength": "4", "AP": "-", "Type": "Assault 1, Pinning, Shell Shock (2)"}
    for rule in ("Stubborn", "Inexorable"):
        target = legionaries(5, Save="-", rules=[rule])
        result = calc({"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "hits": 1, "target": target})
        assert result["pinned"] == pytest.approx(5 / 24, abs=1e-15)
    plain = calc({"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "hits": 1, "target": legionaries(5, Save="-")})
    assert plain["pinned"] == pytest.approx(1 / 2 * 26 / 36, abs=1e-15)  # Ld 5: 2D6 > 5 with 26/36


# --- HH2's melee chart: 2+ when the attacker's WS is more than twice the defender's ----------------
def _blow(ws_a: int, ws_d: int) -> dict[str, Any]:
    return {
        "mode": "melee",
        "attacker": {"WS": ws_a, "S": 4, "A": 2, "models": 1},
        "weapon": {"name": "sword", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"},
        "target": legionaries(3, WS=ws_d),
    }


@pytest.mark.parametrize("ws_a", range(1, 11))
@pytest.mark.parametrize("ws_d", [1, 2, 3, 4, 5])
def test_melee_chart_by_enumeration(ws_a, ws_d):
    assert_matches_oracle(_blow(ws_a, ws_d))


def test_melee_chart_bands_and_the_three_band_alternative():
    # The Weapon Skill chart of the 2022 rulebook (close combat To Hit): WS more than double the target's hits
    # on 2+. WS 5 against WS 2: two blows hit 5/6 each, mean 5/3 (the three-band chart: 3+, mean 4/3).
    assert calc(_blow(5, 2))["hits"]["mean"] == pytest.approx(5 / 3, abs=1e-15)
    for ws_a, ws_d, hh2, old in [(5, 2, 2, 3), (4, 2, 3, 3), (3, 2, 3, 3), (4, 4, 4, 4), (2, 5, 5, 5), (10, 4, 2, 3)]:
        assert tables.to_hit_melee(ws_a, ws_d) == hh2
        assert tables.to_hit_melee(ws_a, ws_d, chart="three-band") == old
    with pytest.raises(ValueError, match="chart"):
        tables.to_hit_melee(4, 4, chart="hh1")


def test_the_engine_follows_the_selected_chart(monkeypatch):
    monkeypatch.setattr(tables, "MELEE_CHART", "three-band")
    assert calc(_blow(5, 2))["hits"]["mean"] == pytest.approx(4 / 3, abs=1e-15)


# --- Wall of Death: D3 hits per template weapon (D6 per Hellstorm), summed --------------------------
def _enumerate_wall_of_death(templates: int, faces: int) -> list[float]:
    """pmf of the total hits: every face of every template's die, one by one."""
    out = [0.0] * (templates * faces + 1)
    for roll in itertools.product(range(1, faces + 1), repeat=templates):
        out[sum(roll)] += 1.0 / faces**templates
    return out


@pytest.mark.parametrize("models", [1, 2, 3])
@pytest.mark.parametrize("template", ["Template", "Hellstorm"])
def test_wall_of_death_by_enumeration(models, template):
    weapon = {**FLAMER, "Range": template}
    sc = {
        "attacker": {"BS": 4, "S": 4, "models": models},
        "weapon": weapon,
        "target": legionaries(),
        "snap_shots": True,
    }
    got = calc(sc)
    want = _enumerate_wall_of_death(models, 6 if template == "Hellstorm" else 3)
    assert got["hits"]["pmf"] == pytest.approx(want, abs=TOL)
    # the rest of the chain: the oracle fed the same dice expression of automatic hits
    expr = f"{models}D{6 if template == 'Hellstorm' else 3}"
    assert_matches_oracle({"attacker": {"BS": 4, "S": 4, "models": models}, "weapon": weapon, "hits": expr,
                           "target": legionaries()})  # fmt: skip
    same = {k: v for k, v in sc.items() if k != "snap_shots"} | {"hits": expr}
    assert calc(same)["unsaved"]["pmf"] == pytest.approx(got["unsaved"]["pmf"], abs=TOL)


def test_three_flamers_fire_wall_of_death_for_six_hits():
    # Template Weapons (rulebook p. 248): a Template weapon firing a Snap Shot inflicts D3 Hits (D6 for a
    # Hellstorm); each weapon does. Three flamers: 3D3, mean 6 (the old engine gave one D3, mean 2, while
    # the same flamers as three firing units gave 6). Two Hellstorms: 2D6, mean 7. Two templates given as
    # attacks: 2D3.
    three = {"attacker": {"BS": 4, "S": 4, "models": 3}, "weapon": FLAMER, "target": legionaries(), "snap_shots": True}
    assert calc(three)["hits"]["mean"] == pytest.approx(6.0, abs=1e-12)
    hell = {**three, "attacker": {"BS": 4, "S": 4, "models": 2}, "weapon": {**FLAMER, "Range": "Hellstorm"}}
    assert calc(hell)["hits"]["mean"] == pytest.approx(7.0, abs=1e-12)
    assert calc({**three, "attacks": 2})["hits"]["mean"] == pytest.approx(4.0, abs=1e-12)


# --- Melee hits on a vehicle use the scenario's facing (default Front) ------------------------------
RHINO = {"name": "Rhino", "Unit Type": "Vehicle (Transport)", "Front": 11, "Side": 11, "Rear": 10, "HP": 3}
FIST = {"name": "Power fist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"}


def _enumerate_penetration(hits: int, strength: int, armour: int) -> tuple[list[float], list[float]]:
    """pmfs of Glancing and Penetrating Hits: every penetration die of every hit (no save)."""
    glancing, penetrating = [0.0] * (hits + 1), [0.0] * (hits + 1)
    for roll in itertools.product(range(1, 7), repeat=hits):
        glancing[sum(1 for d in roll if d + strength == armour)] += 1.0 / 6**hits
        penetrating[sum(1 for d in roll if d + strength > armour)] += 1.0 / 6**hits
    return glancing, penetrating


@pytest.mark.parametrize("facing", [None, "Front", "Side", "Rear"])
def test_melee_hits_on_a_vehicle_use_its_facing_by_enumeration(facing):
    target = {**RHINO, **({"facing": facing} if facing else {})}
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 1}, "weapon": FIST, "hits": 3, "target": target}
    got = calc(sc)
    armour = RHINO[facing or "Front"]
    glancing, penetrating = _enumerate_penetration(3, 8, armour)
    assert got["glancing"]["pmf"] == pytest.approx(glancing, abs=TOL)
    assert got["penetrating"]["pmf"] == pytest.approx(penetrating, abs=TOL)


def test_power_fist_on_a_rhino_front():
    # HH2 resolves close combat hits on a Vehicle against the facing the attacker is in contact with (the
    # Vehicles and Close Combat rules of the 2022 rulebook), not always the Rear. A power fist (S8) on a
    # Rhino's Front 11: D6 + 8 penetrates on 4+ (1/2 per hit), glances on a 3 (1/6); on the Rear 10: 2/3, 1/6.
    sc = {"mode": "melee", "attacker": {"WS": 4, "S": 4, "A": 1}, "weapon": FIST, "hits": 1, "target": RHINO}
    assert calc(sc)["penetrating"]["pmf"] == pytest.approx([1 / 2, 1 / 2], abs=1e-15)
    rear = {**sc, "target": {**RHINO, "facing": "Rear"}}
    assert calc(rear)["penetrating"]["pmf"] == pytest.approx([1 / 3, 2 / 3], abs=1e-15)


# --- Master-crafted: one re-roll per model for its own shots, never pooled --------------------------
def _mc(models: int, bs: int, type_: str, **extra: Any) -> dict[str, Any]:
    return {
        "attacker": {"BS": bs, "S": 4, "Ld": 8, "Save": "3+", "models": models},
        "weapon": {"name": "pistol", "Range": '12"', "Strength": "4", "AP": "5", "Type": type_},
        "target": legionaries(4),
        **extra,
    }


@pytest.mark.parametrize("models", [2, 3])
@pytest.mark.parametrize("bs", [3, 4, 6])
@pytest.mark.parametrize(
    ("type_", "extra"),
    [
        ("Pistol 2, Master-crafted", {}),
        ("Pistol 1, Master-crafted, Gets Hot", {}),
        ("Pistol D3, Master-crafted", {}),
        ("Pistol 1, Master-crafted", {"attacks": 5}),
        ("Pistol 2, Master-crafted, Psychic Focus", {}),
    ],
)
def test_master_crafted_per_model_by_enumeration(models, bs, type_, extra):
    sc = _mc(models, bs, type_, **extra)
    got = assert_matches_oracle(sc)
    if "gets_hot" in got:
        want = oracle_calc(sc)["gets_hot"]
        assert got["gets_hot"]["pmf"] == pytest.approx(
            want + [0.0] * (len(got["gets_hot"]["pmf"]) - len(want)), abs=TOL
        )


def test_two_master_crafted_pistols_hit_twice_as_often_as_one():
    # Master-crafted (rulebook p. 243): the bearer re-rolls one failed To Hit roll with that weapon, so
    # each model's re-roll serves only its own shots. Pistol 2 at BS 3: one model hits 2 * 1/2 + P(a miss)
    # * 1/2 = 1 + 3/4 * 1/2 = 1.375; two models 2.75 (the pooled re-rolls gave 2.8125).
    assert calc(_mc(1, 3, "Pistol 2, Master-crafted"))["hits"]["mean"] == pytest.approx(1.375, abs=1e-12)
    assert calc(_mc(2, 3, "Pistol 2, Master-crafted"))["hits"]["mean"] == pytest.approx(2.75, abs=1e-12)


# --- Gets Hot without a To Hit roll: one die per shot, never per model hit --------------------------
@pytest.mark.parametrize(
    ("type_", "models", "hits", "attacks"),
    [
        ('Heavy 1, Blast (3"), Gets Hot', 1, 3, None),
        ('Heavy 1, Blast (3"), Gets Hot', 2, 3, None),
        ('Heavy 2, Blast (3"), Gets Hot', 1, "D6", None),
        ('Heavy D3, Blast (3"), Gets Hot', 1, 4, None),
        ('Heavy 1, Blast (3"), Gets Hot', 1, "D3+1", 3),
        ("Assault 1, Gets Hot", 3, 2, None),
        ('Heavy 2, Blast (3"), Gets Hot, Twin-linked', 1, 4, 2),
        ('Heavy 1, Blast (3"), Gets Hot, Twin-linked', 2, 3, None),
        ("Assault 1, Template, Gets Hot, Twin-linked", 2, 3, None),
        ('Heavy 1, Blast (3"), Gets Hot, Master-crafted', 1, 2, None),
    ],
)
def test_gets_hot_one_die_per_shot_by_enumeration(type_, models, hits, attacks):
    weapon = {"name": "plasma", "Range": '36"', "Strength": "7", "AP": "2", "Type": type_}
    sc = {"attacker": {"BS": 4, "S": 4, "Save": "3+", "models": models}, "weapon": weapon, "hits": hits,
          "target": legionaries(4)} | ({"attacks": attacks} if attacks else {})  # fmt: skip
    got = assert_matches_oracle(sc)
    want = oracle_calc(sc)["gets_hot"]
    assert got["gets_hot"]["pmf"] == pytest.approx(want + [0.0] * (len(got["gets_hot"]["pmf"]) - len(want)), abs=TOL)


def test_a_plasma_blast_loses_all_its_hits_on_a_one():
    # Gets Hot (rulebook p. 239): weapons that do not roll To Hit roll a D6 for each shot before firing; a 1
    # means that shot is not fired and the firer suffers a wound. One Blast shot covering 4 models: all 4
    # hits with 5/6, none with 1/6 (mean 10/3), and one die for the firer (the old reading rolled per hit).
    weapon = {"name": "plasma", "Range": '36"', "Strength": "7", "AP": "2", "Type": 'Heavy 1, Blast (3"), Gets Hot'}
    r = calc({"attacker": {"BS": 4, "S": 4, "Save": "3+"}, "weapon": weapon, "hits": 4, "target": legionaries()})
    assert r["hits"]["pmf"] == pytest.approx([1 / 6, 0, 0, 0, 5 / 6], abs=1e-15)
    assert r["gets_hot"]["pmf"] == pytest.approx([5 / 6, 1 / 6], abs=1e-15)  # AP 2 takes away the firer's 3+


# --- Twin-linked never re-rolls the Gets Hot die of a weapon that does not roll To Hit ---------------
GETS_HOT_FIRER = {"BS": 4, "T": 4, "W": 2, "Save": "3+"}
PLASMA_TEMPLATE = {"name": "PF", "Range": "Template", "Strength": "4", "AP": "3",
                   "Type": "Assault 1, Template, Gets Hot, Twin-linked"}  # fmt: skip
PLASMA_BLAST = {"name": "PB", "Range": '36"', "Strength": "7", "AP": "4",
                "Type": "Heavy 2, Blast, Gets Hot, Twin-linked"}  # fmt: skip
TEN_UNSAVED = {"name": "T", "models": 10, "T": 4, "W": 1, "Save": "-"}


def test_twin_linked_does_not_re_roll_the_gets_hot_die_of_given_hits():
    # MECHANICS.md 2 (Gets Hot; Twin-linked): a weapon that does not roll To Hit rolls a D6 per shot, a 1
    # losing the shot and wounding the firer; that die is not a To Hit roll, so Twin-linked leaves it alone.
    # Hand values: the template's 2 given hits are its one shot: lost with 1/6 (the re-roll gave 1/36);
    # AP 3 takes away the firer's 3+, so gets_hot is the 1s themselves.
    sc = {"attacker": GETS_HOT_FIRER, "weapon": PLASMA_TEMPLATE, "target": TEN_UNSAVED, "hits": 2}
    r = assert_matches_oracle(sc)
    assert r["hits"]["pmf"] == pytest.approx([1 / 6, 0, 5 / 6], abs=TOL)
    assert r["gets_hot"]["pmf"] == pytest.approx([5 / 6, 1 / 6], abs=TOL)
    # The blast: attacks 2, hits 4: 2 hits per shot, each shot lost with 1/6: hits [1/36, 0, 10/36, 0, 25/36];
    # the 1s ~ Bin(2, 1/6); at AP 4 the firer's 3+ save holds 2/3, so a shot wounds him with 1/6 x 1/3 = 1/18:
    # gets_hot ~ Bin(2, 1/18) = [289/324, 34/324, 1/324].
    sc = {"attacker": GETS_HOT_FIRER, "weapon": PLASMA_BLAST, "target": TEN_UNSAVED, "attacks": 2, "hits": 4}
    r = assert_matches_oracle(sc)
    assert r["hits"]["pmf"] == pytest.approx([1 / 36, 0, 10 / 36, 0, 25 / 36], abs=TOL)
    assert r["gets_hot"]["pmf"] == pytest.approx([289 / 324, 34 / 324, 1 / 324], abs=TOL)
    # At AP 2 the save is gone: gets_hot is the 1s, Bin(2, 1/6) = [25/36, 10/36, 1/36].
    ap2 = {**sc, "weapon": {**PLASMA_BLAST, "AP": "2"}}
    assert calc(ap2)["gets_hot"]["pmf"] == pytest.approx([25 / 36, 10 / 36, 1 / 36], abs=TOL)


@pytest.mark.parametrize("weapon", [PLASMA_TEMPLATE, {**PLASMA_BLAST, "AP": "2"}], ids=["template", "blast"])
def test_twin_linked_does_not_re_roll_the_gets_hot_die_of_a_formation(weapon):
    # The marker path (MECHANICS.md 2, as above): with a formation, each marker or template rolls one Gets
    # Hot D6 before it is placed; the 1s are Bin(shots, 1/6) whether the weapon is Twin-linked or not (AP 3
    # and AP 2 take away the firer's 3+ save). A Twin-linked blast still re-rolls its scatter.
    formation = {"models": 10, "base_mm": 32, "gap": 2, "columns": 5}
    sc = {"attacker": GETS_HOT_FIRER, "weapon": weapon, "target": TEN_UNSAVED, "formation": formation}
    r = calc(sc)
    shots = 1 if "Template" in weapon["Type"] else 2
    want = [5 / 6, 1 / 6] if shots == 1 else [25 / 36, 10 / 36, 1 / 36]
    assert r["gets_hot"]["pmf"] == pytest.approx(want, abs=TOL)
    # a lost shot hits nobody: P(no model hit) is at least P(every die shows 1)
    assert r["hits"]["pmf"][0] >= (1 / 6) ** shots - TOL
    untwinned = {**weapon, "Type": weapon["Type"].replace(", Twin-linked", "")}
    assert calc({**sc, "weapon": untwinned})["gets_hot"]["pmf"] == pytest.approx(want, abs=TOL)


# --- Twin-linked Template weapons re-roll failed To Wound and armour penetration rolls -------------
TWIN_FLAMER = {
    "name": "Twin-linked heavy flamer",
    "Range": "Template",
    "Strength": "5",
    "AP": "4",
    "Type": "Assault 1, Twin-linked",
}


@pytest.mark.parametrize("hits", [1, 2, "D3"])
@pytest.mark.parametrize("toughness", [3, 4, 6])
def test_twin_linked_template_re_rolls_wounds_by_enumeration(hits, toughness):
    sc = {"attacker": {"BS": 4, "S": 4}, "weapon": TWIN_FLAMER, "hits": hits, "target": legionaries(3, T=toughness)}
    assert_matches_oracle(sc)


@pytest.mark.parametrize("type_", ["Assault 1, Template, Twin-linked", "Assault 1, Hellstorm, Twin-linked"])
def test_a_template_rule_with_a_range_is_a_template_weapon(type_):
    # MECHANICS.md 2 and 4: a Template (or Hellstorm) weapon is one whatever its Range says; a Twin-linked one
    # re-rolls failed wounds. Printed in the Type beside a Range in inches, the wound stage read only the Range
    # and made no re-roll (the saves and the geometry already read the rule). Hand value: 3 hits, S4 on T4:
    # 4+ re-rolled, 3/4 a hit; no save: wounds ~ Bin(3, 3/4), mean 9/4.
    weapon = {"name": "f", "Range": '8"', "Strength": "4", "AP": "-", "Type": type_}
    sc = {"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "hits": 3, "target": legionaries(3, Save="-")}
    got = assert_matches_oracle(sc)
    assert got["wounds"]["mean"] == pytest.approx(9 / 4, abs=TOL)


@pytest.mark.parametrize("hits", [1, 2])
def test_twin_linked_template_re_rolls_penetration_by_enumeration(hits):
    sc = {"attacker": {"BS": 4, "S": 4}, "weapon": TWIN_FLAMER, "hits": hits, "target": {**RHINO, "facing": "Rear"}}
    got = calc(sc)
    # every die: a penetration die of 1-4 fails against Rear 10 and is rolled again
    glancing, penetrating = [0.0] * (hits + 1), [0.0] * (hits + 1)
    for dice in itertools.product(range(1, 7), repeat=2 * hits):
        rolls = [a if a + 5 >= 10 else b for a, b in zip(dice[::2], dice[1::2], strict=True)]
        glancing[sum(1 for d in rolls if d + 5 == 10)] += 1.0 / 6 ** (2 * hits)
        penetrating[sum(1 for d in rolls if d + 5 > 10)] += 1.0 / 6 ** (2 * hits)
    assert got["glancing"]["pmf"] == pytest.approx(glancing, abs=TOL)
    assert got["penetrating"]["pmf"] == pytest.approx(penetrating, abs=TOL)


def test_twin_linked_heavy_flamer_on_legionaries_and_a_rhino():
    # Twin-linked (rulebook p. 249): Twin-linked Template weapons re-roll failed To Wound rolls and Armour
    # Penetration rolls. One S5 AP4 hit on T4 4+ (AP 4 takes the save): wounds 2/3 + 1/3 * 2/3 = 8/9. On a
    # Rhino's Rear 10: D6 + 5 penetrates on a 6, glances on a 5, fails on 1-4 (re-rolled): 1/6 + 4/6 * 1/6 each.
    r = calc({"attacker": {"BS": 4, "S": 4}, "weapon": TWIN_FLAMER, "hits": 1, "target": legionaries(Save="4+")})
    assert r["unsaved"]["mean"] == pytest.approx(8 / 9, abs=1e-15)
    v = calc({"attacker": {"BS": 4, "S": 4}, "weapon": TWIN_FLAMER, "hits": 1, "target": {**RHINO, "facing": "Rear"}})
    assert v["penetrating"]["mean"] == pytest.approx(10 / 36, abs=1e-15)
    assert v["glancing"]["mean"] == pytest.approx(10 / 36, abs=1e-15)


# --- Haywire on vehicles: invulnerable saves and mitigation only; ion shields against shooting only -
KNIGHT = {"name": "Knight", "Unit Type": "Vehicle (Knight)", "WS": 4, "Front": 13, "Side": 12, "Rear": 12, "HP": 6,
          "rules": ["Ion Shield"]}  # fmt: skip
LASCANNON = {"name": "Lascannon", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1"}
HAYWIRE = {"name": "Haywire blaster", "Range": '24"', "Strength": "3", "AP": "-", "Type": "Assault 1, Haywire"}


def _enumerate_saved_hits(hits: int, roll_result, save: int | None) -> tuple[list[float], list[float]]:
    """pmfs of unsaved Glancing and Penetrating Hits: each hit's roll die and save die, every face."""
    glancing, penetrating = [0.0] * (hits + 1), [0.0] * (hits + 1)
    for dice in itertools.product(range(1, 7), repeat=2 * hits):
        g = p = 0
        for roll, save_die in zip(dice[::2], dice[1::2], strict=True):
            result = roll_result(roll)
            if result and not (save is not None and save_die >= save):
                g, p = g + (result == "glance"), p + (result == "pen")
        glancing[g] += 1.0 / 6 ** (2 * hits)
        penetrating[p] += 1.0 / 6 ** (2 * hits)
    return glancing, penetrating


@pytest.mark.parametrize(("facing", "save"), [("Front", 4), ("Side", 5), ("Rear", None)])
@pytest.mark.parametrize("hits", [1, 2])
def test_ion_shield_by_facing_by_enumeration(facing, save, hits):
    knight = {**KNIGHT, "facing": facing}
    got = calc({"attacker": {"BS": 4, "S": 4}, "weapon": LASCANNON, "hits": hits, "target": knight})
    armour = KNIGHT[facing]
    glancing, penetrating = _enumerate_saved_hits(
        hits, lambda d: "glance" if d + 9 == armour else "pen" if d + 9 > armour else None, save
    )
    assert got["glancing"]["pmf"] == pytest.approx(glancing, abs=TOL)
    assert got["penetrating"]["pmf"] == pytest.approx(penetrating, abs=TOL)
    assert "target: Ion Shield" in got["applied"]


@pytest.mark.parametrize("hits", [1, 2])
def test_haywire_on_a_vehicle_takes_no_cover_by_enumeration(hits):
    rhino = {**RHINO, "Cover": "4+", "Invulnerable": "6+"}
    got = calc({"attacker": {"BS": 4, "S": 4}, "weapon": HAYWIRE, "hits": hits, "target": rhino})
    glancing, penetrating = _enumerate_saved_hits(
        hits, lambda d: None if d == 1 else "pen" if d == 6 else "glance", 6
    )  # the 6+ invulnerable only
    assert got["glancing"]["pmf"] == pytest.approx(glancing, abs=TOL)
    assert got["penetrating"]["pmf"] == pytest.approx(penetrating, abs=TOL)


def test_ion_shield_and_haywire_pinned():
    # Ion Shield (Questoris Knight wargear, BattleScribe "2022 - Mech Library.cat"): an invulnerable save
    # against shooting, 4+ on the Front, 5+ on the Side, none in melee. A lascannon hit on the Front 13:
    # D6 + 9 glances on a 4 (1/6), penetrates on 5-6 (1/3); the shield halves both: 1/12, 1/6.
    front = calc({"attacker": {"BS": 4, "S": 4}, "weapon": LASCANNON, "hits": 1, "target": KNIGHT})
    assert (front["glancing"]["mean"], front["penetrating"]["mean"]) == pytest.approx((1 / 12, 1 / 6), abs=1e-15)
    # In melee the shield does nothing: a chainfist (S x2 of a S5 wielder: 10) on the Front: 1/6 glance, 1/2 pen.
    fist = {"name": "Chainfist", "Range": "-", "Strength": "x2", "AP": "2", "Type": "Melee"}
    melee = calc({"mode": "melee", "attacker": {"WS": 4, "S": 5, "A": 1}, "weapon": fist, "hits": 1, "target": KNIGHT})
    assert (melee["glancing"]["mean"], melee["penetrating"]["mean"]) == pytest.approx((1 / 6, 1 / 2), abs=1e-15)
    # Haywire (the game system file's rule "Haywire"): its results allow only invulnerable saves and damage
    # mitigation, so a Rhino's 4+ cover does nothing: 4/6 glancing, 1/6 penetrating per hit.
    hay = calc({"attacker": {"BS": 4, "S": 4}, "weapon": HAYWIRE, "hits": 1, "target": {**RHINO, "Cover": "4+"}})
    assert (hay["glancing"]["mean"], hay["penetrating"]["mean"]) == pytest.approx((4 / 6, 1 / 6), abs=1e-15)


# --- Sunder keeps a Glancing Hit that already wrecks the vehicle -----------------------------------
SUNDER_LASCANNON = {"name": "Lascannon", "Range": '48"', "Strength": "9", "AP": "2", "Type": "Heavy 1, Sunder"}


def test_sunder_keeps_a_wrecking_glance():
    # Sunder (rulebook p. 247): re-roll failed penetration rolls, and Glancing Hits hoping for a Penetrating
    # Hit, the second result standing; a glance that removes the last hull point is kept. One S9 hit on a
    # Rhino's Front 11 with one hull point left: D6 + 9 fails only on a 1 (re-rolled), glances on a 2, and
    # penetrates on 3+: wrecked = 1 - (1/6)^2 = 35/36 (re-rolling the glance gave 34/36).
    rhino = {**RHINO, "wounds_taken": 2}
    result = calc({"attacker": {"BS": 4, "S": 4}, "weapon": SUNDER_LASCANNON, "hits": 1, "target": rhino})
    assert result["wrecked"] == pytest.approx(35 / 36, abs=1e-15)
    # With all three hull points a glance is re-rolled when that pays: one S9 AP2 hit at full hull points.
    full = calc({"attacker": {"BS": 4, "S": 4}, "weapon": SUNDER_LASCANNON, "hits": 1, "target": RHINO})
    assert full["penetrating"]["mean"] > 4 / 6 + 1 / 6 * 4 / 6  # more than without the glance re-roll


# --- Unit types: Dreadnought, Automata, Mechanised (not Gargantuan) re-roll Poisoned and Fleshbane wounds ---
def _dread(unit_type: str, **extra: Any) -> dict[str, Any]:
    return {"name": "Dread", "Unit Type": unit_type, "models": 1, "WS": 5, "T": 7, "W": 6, "I": 4, "Ld": 8,
            "Save": "2+", **extra}  # fmt: skip


@pytest.mark.parametrize(
    "unit_type",
    ["Dreadnought", "Automata", "Infantry (Mechanised)", "Dreadnought (Heavy)", "Infantry", "Cavalry",
     "Monstrous (Gargantuan)"],
)  # fmt: skip
@pytest.mark.parametrize(
    "rules",
    [["Poisoned (3+)"], ["Fleshbane"], ["Poisoned (2+)", "Shred"], ["Armourbane"], ["Poisoned (4+)", "Rending (6+)"]],
)
@pytest.mark.parametrize("mode", ["shooting", "melee"])
def test_toxin_resistant_types_by_enumeration(unit_type, rules, mode):
    weapon = {"name": "needle", "Range": "-" if mode == "melee" else '18"', "Strength": "8" if mode == "melee" else "4",
              "AP": "-", "Type": ", ".join(["Melee" if mode == "melee" else "Assault 2", *rules])}  # fmt: skip
    sc = {"mode": mode, "attacker": {"BS": 4, "WS": 4, "S": 4, "A": 2}, "weapon": weapon, "target": _dread(unit_type)}
    assert_matches_oracle(sc)


@pytest.mark.parametrize("rule", ["Poisoned (2+)", "Fleshbane"])
def test_gargantuan_does_not_re_roll_toxin_wounds(rule):
    # MECHANICS.md 4b: the Gargantuan sub-type gives Eternal Warrior, Fearless and immunity to lowered
    # characteristics; the successful Poisoned/Fleshbane wound re-roll is Dreadnought, Automata and Mechanised
    # only. Hand value: one BS5 shot (hits on 2+, 5/6), S1 against T6 wounding on 2+ by the rule (5/6), no
    # save: wounds pmf [11/36, 25/36] (with the re-roll it was 1 - 125/216 = 91/216 for none).
    weapon = {"name": "needle", "Range": '18"', "Strength": "1", "AP": "-", "Type": f"Heavy 1, {rule}"}
    target = {"name": "G", "Unit Type": "Monstrous (Gargantuan)", "models": 1, "T": 6, "W": 1, "Save": "-"}
    r = calc({"attacker": {"BS": 5}, "weapon": weapon, "target": target})
    assert r["wounds"]["pmf"] == pytest.approx([11 / 36, 25 / 36], abs=1e-12)
    assert not any("re-rolls successful" in a for a in r["applied"])


def test_poisoned_wounds_a_dreadnought_half_as_often():
    # Dreadnought Unit-type, Automata Unit-type and Mechanised Unit Sub-type (game system file rules of those
    # names): successful wounds from Poisoned or Fleshbane attacks must be re-rolled. One
    # Poisoned (2+) hit on a T7 Dreadnought with no save: 5/6 * 5/6 = 25/36 (the old engine: 5/6).
    weapon = {"name": "needle", "Range": '18"', "Strength": "1", "AP": "2", "Type": "Assault 1, Poisoned (2+)"}
    sc = {"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "hits": 1, "target": _dread("Dreadnought")}
    assert calc(sc)["unsaved"]["mean"] == pytest.approx(25 / 36, abs=1e-15)
    # Mechanised also re-rolls failed Armourbane wounds: S4 on T7 needs 6s: 1/6 + 5/6 * 1/6 = 11/36.
    bane = {**weapon, "Strength": "4", "Type": "Assault 1, Armourbane"}
    mech = {**sc, "weapon": bane, "target": _dread("Infantry (Mechanised)", T=7)}
    assert calc(mech)["wounds"]["mean"] == pytest.approx(11 / 36, abs=1e-15)


# --- Unit types grant rules: Fearless, Eternal Warrior; Cavalry, Monstrous and Daemons never Pinned ---
@pytest.mark.parametrize(
    "unit_type",
    ["Dreadnought", "Automata", "Primarch", "Infantry (Gargantuan)", "Cavalry", "Infantry (Monstrous)", "Daemon",
     "Infantry"],
)  # fmt: skip
@pytest.mark.parametrize("strength", ["4", "8"])
def test_unit_type_rules_by_enumeration(unit_type, strength):
    weapon = {"name": "gun", "Range": '24"', "Strength": strength, "AP": "5", "Type": "Assault 2, Pinning"}
    target = {"name": "unit", "Unit Type": unit_type, "models": 2, "WS": 4, "T": 4, "W": 2, "Ld": 7, "Save": "4+",
              "rules": ["Shrouded (5+)", "Feel No Pain (6+)"]}  # fmt: skip
    got = assert_matches_oracle({"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "target": target})
    if unit_type != "Infantry":
        assert got["pinned"] is None  # exempt: Fearless from the type, or never Pinned


def test_contemptor_and_cavalry_are_never_pinned():
    # Dreadnought Unit-type (Fearless) and Cavalry Sub-type (cannot be Pinned), game system file rules of those
    # names: a Pinning weapon gives pinned = null (exempt) where the engine used to give 3% and 10%.
    weapon = {"name": "gun", "Range": '24"', "Strength": "8", "AP": "4", "Type": "Heavy 3, Pinning"}
    contemptor = _dread("Dreadnought")
    r = calc({"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "target": contemptor})
    assert r["pinned"] is None and "target: Fearless (from Dreadnought)" in r["applied"]
    cavalry = {"name": "Cav", "Unit Type": "Cavalry", "models": 3, "T": 4, "W": 2, "Ld": 8, "Save": "3+"}
    r = calc({"attacker": {"BS": 4, "S": 4}, "weapon": weapon, "target": cavalry})
    assert r["pinned"] is None and "target: Cavalry (never Pinned)" in r["applied"]
    # Primarch Unit-type: Eternal Warrior, so a S10 hit on a T5 Primarch costs one wound, not the model.
    primarch = {"name": "P", "Unit Type": "Primarch", "models": 1, "T": 5, "W": 6, "Ld": 10, "Save": "2+"}
    r = calc({"attacker": {"BS": 4, "S": 4}, "weapon": {**weapon, "Strength": "10", "AP": "1"}, "hits": 1,
              "target": primarch})  # fmt: skip
    assert r["casualties"]["pmf"] == [1.0]
    assert "target: Eternal Warrior (from Primarch)" in r["applied"]
