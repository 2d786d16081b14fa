"""Tests for praetor_analysis.profiles.vocabulary.clean_type."""

from __future__ import annotations

import pytest

from praetor_analysis.catalog import load_rule_names, load_token_corrections, load_weapons
from praetor_analysis.profiles.vocabulary import Correction, clean_type, rule_name, split_type


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Assult 2", "Assault 2"),
        ("Melee, Two-handed. Deflagerate", "Melee, Two-handed, Deflagrate"),
        ("Melee, Brutual (2)", "Melee, Brutal (2)"),
        ("Ordinance 1, Barrage", "Ordnance 1, Barrage"),
        ("Ordnance1, Barrage", "Ordnance 1, Barrage"),
        ('Heavy 1, Large (5") Blast', 'Heavy 1, Large Blast (5")'),
        ("Heavy 2. Twin-linked", "Heavy 2, Twin-linked"),
        ("Heavy 6., Rending (5+), Sunder", "Heavy 6, Rending (5+), Sunder"),
        (
            "Melee, Shred, Rending (5+), Specialist Weapon\n\nSome pasted rule text.",
            "Melee, Shred, Rending (5+), Specialist Weapon",
        ),
        ("Melee, Unwieldy,  Force", "Melee, Unwieldy, Force"),
        ("Melee, Duellist\u2019s Edge (1)", "Melee, Duellist's Edge (1)"),
        ("Heavy 1, Large Blast (5\u201d)", 'Heavy 1, Large Blast (5")'),
        ("Melee, Gets hot, instant Death", "Melee, Gets Hot, Instant Death"),
        ("Melee, Murderous Strike 4+", "Melee, Murderous Strike (4+)"),
        ("Assault 2D6, Poisoned (4+ ), Concussive ( 3)", "Assault 2D6, Poisoned (4+), Concussive (3)"),
        ("Pistol (1), Lance", "Pistol 1, Lance"),
        ("Assault 1, Pinning, Shell, Shock (3)", "Assault 1, Pinning, Shell Shock (3)"),
        ("Heavy 1, \u2020Graviton Pulse, Graviton Pulse*", "Heavy 1, Graviton Pulse, Graviton Pulse"),
        ("Rampage (t),Breaching (4+)", "Rampage (t), Breaching (4+)"),
        ("Assault D6, Destroyer 1", "Assault D6, Destroyer 1"),
    ],
)
def test_clean_type_examples(raw: str, clean: str) -> None:
    assert clean_type(raw)[0] == clean


def test_clean_strings_are_unchanged() -> None:
    text = 'Ordnance 1, Barrage, Massive Blast (7"), Pinning, Rending (6+)'
    assert clean_type(text) == (text, [])
    assert clean_type("") == ("", [])


def test_corrections_are_reported() -> None:
    cleaned, fixes = clean_type("Assult 2, Melee\nrule text")
    assert cleaned == "Assault 2, Melee"
    assert all(isinstance(f, Correction) for f in fixes)
    assert any(f.reason.startswith("rule text after newline dropped") for f in fixes)
    assert not any("rule text" in f.original for f in fixes)  # the dropped prose is not carried
    assert any(f.original == "Assult 2" and f.corrected == "Assault 2" and f.reason == "typo" for f in fixes)
    with pytest.raises(AttributeError):
        fixes[0].reason = "x"  # type: ignore[misc]  # frozen


def test_cleaning_is_idempotent_on_all_shipped_weapons() -> None:
    for text in load_weapons()["Type_clean"]:
        assert clean_type(text) == (text, []), text


def test_every_cleaned_token_names_a_known_rule() -> None:
    names = set(load_rule_names()["name"])
    for text in load_weapons()["Type_clean"]:
        for tok in split_type(text):
            assert rule_name(tok) in names, tok


def test_known_typos_are_gone_from_cleaned_data() -> None:
    texts = list(load_weapons()["Type_clean"])
    for typo in ["Assult", "Deflagerate", "Brutual", "Ordinance", 'Large (5") Blast', "\u2019", "\u201d", "  ", "\n"]:
        assert not any(typo in text for text in texts), typo


def test_corrections_table_shape() -> None:
    table = load_token_corrections()
    assert list(table.columns) == ["wrong", "right", "reason"]
    assert {"Assult", "Deflagerate", "Brutual", "Ordinance"} <= set(table["wrong"])
    assert not table["wrong"].duplicated().any()
