"""The +1 Attack for two melee weapons, to the letter of MECHANICS section 9: never with Two-handed, with a
Specialist Weapon only when both weapons are; one function decides it (``engine.two_weapons``) for the
one-way attack, the whole round and a datasheet's strikers (docs/rules.md#two-melee-weapons)."""

from __future__ import annotations

import pytest

from praetor_analysis.engine.two_weapons import pair_denial, second_weapon_for
from praetor_analysis.profiles.records import Weapon
from praetor_analysis.scenario.calc import calc, calc_many


def W(kind: str = "Melee", name: str = "w") -> Weapon:
    return Weapon.from_mapping({"name": name, "Strength": "User", "AP": "-", "Type": kind})


PLAIN, TWO_HANDED, SPECIALIST = W(), W("Melee, Two-handed", "th"), W("Melee, Specialist Weapon", "sp")


@pytest.mark.parametrize(
    "used,other,want",
    [
        (PLAIN, PLAIN, None),
        (PLAIN, TWO_HANDED, "Two-handed"),
        (TWO_HANDED, PLAIN, "Two-handed"),
        (TWO_HANDED, TWO_HANDED, "Two-handed"),
        (PLAIN, SPECIALIST, "Specialist Weapon"),
        (SPECIALIST, PLAIN, "Specialist Weapon"),
        (SPECIALIST, SPECIALIST, None),
        (SPECIALIST, W("Melee, Specialist Weapon, Two-handed"), "Two-handed"),
    ],
)
def test_pair_denial_reads_both_weapons(used: Weapon, other: Weapon, want: str | None) -> None:
    assert pair_denial(used, other) == want


def test_second_weapon_for_prefers_a_weapon_that_gives_the_bonus() -> None:
    assert second_weapon_for(PLAIN, [TWO_HANDED, SPECIALIST, W(name="other")]).name == "other"
    assert second_weapon_for(PLAIN, [TWO_HANDED]) is TWO_HANDED  # no bonus: the first, for its note
    assert second_weapon_for(PLAIN, [PLAIN]) is None


def _round(second: str) -> dict:
    return {
        "mode": "melee",
        "attacker": {"models": 2, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, "Save": "-",
                     "second_weapon": {"name": "s", "Strength": "User", "AP": "-", "Type": second}},
        "weapon": {"name": "w", "Strength": "User", "AP": "-", "Type": "Melee"},
        "target": {"models": 2, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 3, "A": 1, "Ld": 7, "Save": "-"},
        "target_weapon": {"name": "t", "Strength": "User", "AP": "-", "Type": "Melee"},
    }  # fmt: skip


@pytest.mark.parametrize("second", ["Melee, Two-handed", "Melee, Specialist Weapon"])
def test_whole_round_second_weapon_denies_the_bonus(second: str) -> None:
    # By hand: no bonus, so the attacker's 2 models strike 2 blows at I4, each unsaved with 1/2 (WS 4 vs 4)
    # x 1/2 (S4 vs T4) = 1/4, no save: unsaved U ~ Bin(2, 1/4) = [9, 6, 1]/16, each a casualty (W 1).
    # The target strikes at I3 with its 2 - U survivors, 1 blow each at 1/4. Attacker wins: U = 1 and the
    # one blow fails (6/16 * 3/4) or U = 2 (1/16): 88/256; draw: U = 0 and both fail (9/16 * 9/16) or U = 1
    # and the blow lands (6/16 * 1/4): 105/256; the target wins with the rest, 63/256.
    for r in (calc(_round(second)), calc_many([_round(second)])[0]):
        assert r["attacks"]["mean"] == 2.0
        assert r["casualties"]["pmf"] == pytest.approx([9 / 16, 6 / 16, 1 / 16], abs=1e-12)
        assert r["combat"]["attacker_wins"] == pytest.approx(88 / 256, abs=1e-12)
        assert r["combat"]["target_wins"] == pytest.approx(63 / 256, abs=1e-12)
        assert r["combat"]["draw"] == pytest.approx(105 / 256, abs=1e-12)
        assert "two melee weapons (+1 A)" not in " ".join(r["applied"])


def test_whole_round_two_plain_weapons_keep_the_bonus() -> None:
    # A 1 + 1 for two plain weapons: 4 blows at 1/4 each, so P(no casualty) = (3/4)^4 = 81/256
    r = calc(_round("Melee"))
    assert r["attacks"]["mean"] == 4.0
    assert r["casualties"]["pmf"][0] == pytest.approx(81 / 256, abs=1e-12)


def _one_way(kind: str) -> dict:
    return {
        "mode": "melee",
        "attacker": {"models": 1, "WS": 4, "S": 4, "I": 4, "A": 2, "two_weapons": True},
        "weapon": {"name": "w", "Strength": "User", "AP": "-", "Type": kind},
        "target": {"models": 5, "WS": 4, "T": 4, "W": 1, "Save": "-"},
    }


@pytest.mark.parametrize(
    "kind,blows",
    [("Melee", 3), ("Melee, Two-handed", 2), ("Melee, Specialist Weapon", 3)],  # the last: a pair asserted
)
def test_one_way_two_weapons_is_a_pair_of_the_weapon_used(kind: str, blows: int) -> None:
    # A 2, +1 for the pair unless Two-handed; a Specialist Weapon's pair is two Specialist Weapons
    for r in (calc(_one_way(kind)), calc_many([_one_way(kind)])[0]):
        assert r["hits"]["mean"] == pytest.approx(blows / 2, abs=1e-12)  # WS 4 vs 4: 1/2 a blow


TALONS = W("Melee, Shred, Rending (5+), Specialist Weapon", "Raven's Talons")


def test_a_pair_of_ravens_talons_gives_two_attacks() -> None:
    """The Raven's Talons' profile text (issue 38): a model with two of them gains +2 Attacks instead of +1."""
    from praetor_analysis.engine.two_weapons import pair_attacks, pair_note

    assert pair_denial(TALONS, TALONS) is None and pair_attacks(TALONS, TALONS) == 2
    assert pair_attacks(TALONS, W("Melee, Specialist Weapon", "Raven's Talon")) == 2  # the data's singular entry
    assert pair_attacks(SPECIALIST, TALONS) == pair_attacks(TALONS, SPECIALIST) == 1  # one Talon: the usual +1
    assert pair_denial(TALONS, PLAIN) == "Specialist Weapon"  # a Talon beside a chainsword: none
    assert pair_attacks(PLAIN, PLAIN) == 1
    assert (pair_note(1), pair_note(2)) == ("two melee weapons (+1 A)", "two Raven's Talons (+2 A)")


def test_ravens_talons_strike_with_two_more_attacks_one_way_and_in_a_round() -> None:
    # one way: A 2 + 2 for the pair = 4 blows at WS 4 vs 4 (1/2 each): hits mean 2; a pair of another
    # Specialist Weapon: 3 blows
    block = {**_one_way("Melee, Specialist Weapon"), "weapon": {**_one_way("")["weapon"], "name": "Raven's Talons"}}
    block["weapon"]["Type"] = "Melee, Specialist Weapon"
    for r in (calc(block), calc_many([block])[0]):
        assert r["hits"]["mean"] == pytest.approx(4 / 2, abs=1e-12)
        assert "two Raven's Talons (+2 A)" in r["applied"]
    # a whole round: 2 models of A 1 + 2 = 6 blows, each unsaved at 1/4: P(no casualty) = (3/4)^6
    talons = {"name": "Raven's Talons", "Strength": "User", "AP": "-", "Type": "Melee, Specialist Weapon"}
    scenario = _round("Melee, Specialist Weapon")
    scenario["attacker"] = {**scenario["attacker"], "second_weapon": talons}
    scenario["weapon"] = talons
    r = calc(scenario)
    assert r["attacks"]["mean"] == 6.0
    assert r["casualties"]["pmf"][0] == pytest.approx((3 / 4) ** 6, abs=1e-12)
