"""Edition 3 readings settled after the engine met the oracle (docs/rules-hh3.md): one reading of a model's Type
(a Knight is a Vehicle model however written), Flyers never gain a status, the attack's largest X, a whole
round's blows on each side, and the fields a round names when one is missing."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hh3_scenarios import CCW, CHAINSWORD, LEG3, POWER_FIST, TABLE, doc, t, w

import praetor_analysis as pa
from praetor_analysis.engine.hh3 import FLYER_IMMUNE
from praetor_analysis.errors import ProfileError
from praetor_analysis.profiles.hh3 import read_type

TOL = 1e-12


def pmf(value) -> list[float]:
    return value["pmf"] if isinstance(value, dict) else value


def same_pmf(a, b) -> bool:
    x, y = pmf(a), pmf(b)
    n = max(len(x), len(y))
    x, y = [*x, *[0.0] * (n - len(x))], [*y, *[0.0] * (n - len(y))]
    return max(abs(p - q) for p, q in zip(x, y, strict=True)) <= TOL


# --- one reading of the Type -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind", "subtypes"),
    [
        ("Infantry (Sergeant, Heavy)", "Infantry", {"Sergeant", "Heavy"}),
        ("Vehicle (Knight)", "Vehicle", {"Knight"}),
        ("Knight", "Vehicle", {"Knight"}),  # a Knight is a Vehicle model for every rule
        ("knight (Unique)", "Vehicle", {"Knight", "Unique"}),
        ("Titan", "Vehicle", {"Titan"}),
        ("Walker", "Walker", set()),
        (None, "Infantry", set()),
    ],
)
def test_a_type_is_read_once(text, kind, subtypes):
    assert read_type(text, "target.Type") == (kind, frozenset(subtypes))


def test_an_unreadable_type_names_its_field():
    with pytest.raises(ProfileError, match=r"^target\.Type: expected a type"):
        read_type("Infantry ((Heavy", "target.Type")


KNIGHT = {"name": "Knight", "WS": 5, "Front": 12, "Rear": 10, "HP": 3}


def _without_names(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "target"}


@pytest.mark.parametrize(
    "weapon",
    [
        w(CCW, SM="+2", rules="Shock (Suppressed), Armourbane"),
        {"name": "gun", "R": 24, "FP": 2, "RS": 8, "AP": 3, "D": 2, "Special Rules": "Shock (Pinned)", "Traits": ""},
    ],
    ids=["melee", "shooting"],
)
def test_a_bare_knight_is_a_vehicle_knight_for_every_rule(weapon):
    mode = "melee" if "SM" in weapon else "shooting"
    bare = pa.calc(doc(weapon, {**KNIGHT, "Type": "Knight"}, mode=mode, attacker={"A": 2, "models": 2}))
    full = pa.calc(doc(weapon, {**KNIGHT, "Type": "Vehicle (Knight)"}, mode=mode, attacker={"A": 2, "models": 2}))
    assert json.dumps(_without_names(bare), sort_keys=True) == json.dumps(_without_names(full), sort_keys=True)
    status = "Suppressed" if mode == "melee" else "Pinned"
    assert bare["statuses"][status] > 0.5  # Shock reaches it: a natural 5-6 among 2 or 4 dice


# --- Flyers never gain a status ----------------------------------------------------------------------------------
FLYER = {"name": "Flyer", "Type": "Vehicle (Flyer)", "Front Armour": 10, "Side Armour": 10, "Rear Armour": 10, "HP": 2}


def test_a_flyer_gains_no_status_from_shock():
    gun = {"name": "gun", "R": 24, "FP": 3, "RS": 7, "AP": 3, "D": 1, "Traits": "",
           "Special Rules": "Shock (Pinned, Stunned), Pinning (2), Suppressive (1)"}  # fmt: skip
    got = pa.calc(doc(gun, FLYER))
    assert got["statuses"] == dict.fromkeys(("Pinned", "Suppressed", "Stunned", "Routed"))
    assert "Shock (Pinned, Stunned)" in got["no_effect"]
    assert got["reasons"]["Shock (Pinned, Stunned)"] == FLYER_IMMUNE
    # the same gun at a plain vehicle: Shock gives both (P(a natural 5-6 among 3 dice) = 1 - (2/3)^3 = 19/27,
    # less the mass where the vehicle is wrecked)
    plain = pa.calc(doc(gun, {**FLYER, "Type": "Vehicle"}))
    assert 0.0 < plain["statuses"]["Pinned"] <= 19 / 27 + TOL


def test_a_flyer_unit_of_models_makes_no_check():
    # a target read as a unit of models (T, W) with the Flyer Sub-Type: nothing can give it a status
    target = {**LEG3, "Type": "Infantry (Flyer)"}
    gun = {"name": "gun", "R": 24, "FP": 2, "RS": 6, "AP": 4, "D": 1, "Traits": "", "Special Rules": "Pinning (1)"}
    got = pa.calc(doc(gun, target))
    assert got["statuses"] == dict.fromkeys(("Pinned", "Suppressed", "Stunned", "Routed"))
    assert got["reasons"]["statuses"] == FLYER_IMMUNE
    assert "Pinning (1)" in got["no_effect"]


# --- the attack's largest X --------------------------------------------------------------------------------------
def test_separate_attacks_keep_their_own_x():
    # the largest X is read within one firing unit's attack: a Pinning (3) gun in another attack does not lend its
    # X to this one's Pinning (0) Check (the harshest modifier over attacks is still the one Check made)
    base = dict(TABLE)["sequence_largest_x_of_the_attack"]
    one, two = base["firing_units"][0]
    split = {**base, "firing_units": [[one], [two]]}
    together = pa.calc(base)["statuses"]["Pinned"]
    apart = pa.calc(split)["statuses"]["Pinned"]
    assert together > apart + 0.1  # 0.2341 against 0.0900 and a little more from the first attack


# --- a whole round: each side's blows ----------------------------------------------------------------------------
def test_a_round_counts_the_attacks_made_by_hand():
    # Power fist (IM -3: Combat Initiative 1) against a chainsword (I 4), one model each, WS 4 v 4: the chainsword
    # strikes first and removes the fist's only model (W 1) with P = 1/2 hit x 1/2 wound x 1/3 (a 3+ save fails)
    # = 1/12; the fist then makes its one attack with P 11/12, and hits on 4+: hits = [1 - 11/24, 11/24].
    got = pa.calc(doc(POWER_FIST, t(LEG3, models=1), mode="melee", target_weapon=CHAINSWORD))
    assert same_pmf(got["attacks"], [1 / 12, 11 / 12])
    assert same_pmf(got["hits"], [1 - 11 / 24, 11 / 24])
    assert same_pmf(got["target_blows"]["attacks"], [0.0, 1.0])
    assert same_pmf(got["target_blows"]["unsaved"], [1 - 1 / 12, 1 / 12])
    assert Fraction(1, 12) == Fraction(got["attacker_casualties"]["pmf"][1]).limit_denominator(1000)


@pytest.mark.parametrize("name", ["round_fist_v_chainsword", "round_same_initiative", "round_sword_v_fist"])
def test_a_round_seen_from_the_other_side(name):
    # swapping the two units (and their weapons) swaps the blows and the winner: target_blows is the attacker's
    # blows of the swapped round, to 1e-12
    document = json.loads(json.dumps(dict(TABLE)[name]))
    swapped = {**document, "attacker": {k: v for k, v in document["target"].items() if k != "Cover"},
               "target": document["attacker"], "weapon": document["target_weapon"],
               "target_weapon": document["weapon"]}  # fmt: skip
    a, b = pa.calc(document), pa.calc(swapped)
    for key in ("attacks", "hits", "critical_hits", "wounds", "unsaved"):
        assert same_pmf(a["target_blows"][key], b[key]), key
        assert same_pmf(b["target_blows"][key], a[key]), key
    assert abs(a["combat"]["attacker_wins"] - b["combat"]["target_wins"]) <= TOL
    assert same_pmf(a["attacker_casualties"], b["casualties"])


@pytest.mark.parametrize(
    ("side", "key"),
    [("target", "S"), ("target", "I"), ("target", "WS"), ("attacker", "LD"), ("attacker", "A"), ("target", "W")],
)
def test_a_round_names_the_missing_field(side, key):
    document = json.loads(json.dumps(dict(TABLE)["round_sword_v_fist"]))
    del document[side][key]
    with pytest.raises(pa.ScenarioError, match=rf"^{side}\.{key}: required"):
        pa.calc(document)


# --- Overload Misfires: one reading in every stage ---------------------------------------------------------------
def test_a_firer_without_w_has_its_misfires_named_not_modelled():
    plasma = {"name": "plasma", "R": 24, "FP": 2, "RS": 6, "AP": 4, "D": 1, "Special Rules": "Overload (1)",
              "Traits": ""}  # fmt: skip
    attacker = {k: v for k, v in doc(plasma, LEG3)["attacker"].items() if k != "W"}
    got = pa.calc({**doc(plasma, LEG3), "attacker": attacker})
    assert "misfires" not in got
    assert "Overload (1)" in got["not_modelled"]
    with_w = pa.calc(doc(plasma, LEG3))
    assert len(with_w["misfires"]) == 1
    assert same_pmf(with_w["hits"], got["hits"])
