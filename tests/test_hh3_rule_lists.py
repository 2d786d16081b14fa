"""A 3rd-edition weapon profile's rule lists split at commas outside brackets, nested brackets included, and a
psychic weapon's profile (its type named ``Psychic ...``) marked psychic (``bsdata.hh3_profiles``)."""

from __future__ import annotations

from praetor_analysis.bsdata.hh3_profiles import Hh3WeaponProfile, split_rules


def test_rules_split_outside_nested_brackets() -> None:
    assert split_rules('Breaching (5+), Blast (3"), -, Shred ( [x,  y] ), Z') == (
        "Breaching (5+)",
        'Blast (3")',
        "Shred ( [x, y] )",
        "Z",
    )
    assert split_rules("A ((B, C), D), E") == ("A ((B, C), D)", "E")
    assert split_rules("-") == () == split_rules("")


def test_a_psychic_profile_is_marked_by_its_type() -> None:
    chars = {"AP": "4", "D": "1", "Special Rules": "Force (2), Breaching (6+)"}
    psychic = Hh3WeaponProfile.from_characteristics("Mind Blast", "Psychic Weapon", chars)
    assert psychic.psychic and psychic.special_rules == ("Force (2)", "Breaching (6+)")
    assert not Hh3WeaponProfile.from_characteristics("Sword", "Melee Weapon", chars).psychic
