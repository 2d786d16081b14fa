"""The wargear text reader at its edges: armour saves under a condition named as armour, an "or improves" offer,
a save of one phase before "that", long clauses clipped, and the reading blind to case (issue 38 item 6: each test
kills a mutant of ``bsdata/wargear_saves.py`` that survived the other tests, named in docs/testing.md).

The texts are written here, in the data's manner; what each gives is read by hand in its test."""

from __future__ import annotations

import pytest

from praetor_analysis.bsdata.wargear_saves import read_wargear

TEMPLATE_ONLY = "The bearer has a 2+ Armour Save against Template hits."
OR_IMPROVES = "It has a 4+ Invulnerable Save or improves its own Invulnerable Save by one."
BEFORE_THAT = "It has a 4+ Invulnerable Save against Shooting Attacks that 2+ Armour Save cannot stop."
LONG = ("It has a 4+ Invulnerable Save against Shooting Attacks which target its Front Armour, as long as the "
        "vehicle has not moved in the previous turn and is not engaged in an assault of any sort at all.")  # fmt: skip


def test_an_armour_save_under_a_condition_is_named_as_armour() -> None:
    reading = read_wargear([TEMPLATE_ONLY])  # a condition the engine does not know: not applied, named
    assert (reading.armour, reading.invulnerable) == ("", "")
    assert reading.conditional == ("2+ Armour Save: 2+ Armour Save against Template hits.",)


def test_a_save_offered_or_an_improvement_is_granted_and_the_improvement_named() -> None:
    reading = read_wargear([OR_IMPROVES])  # the 4+ outright; "or improves its own" only for a model that has one
    assert reading.invulnerable == "4+"
    assert reading.conditional == (f"4+ Invulnerable Save: {OR_IMPROVES[9:]}",)


def test_a_save_of_one_phase_before_that_is_the_phases_rule() -> None:
    reading = read_wargear([BEFORE_THAT])  # "against Shooting Attacks" then only "that": the shooting phase's save
    assert reading.rules == ("Invulnerable Save against Shooting (4+)",)
    assert reading.invulnerable == ""


def test_a_long_clause_is_clipped_to_90_characters() -> None:
    (line,) = read_wargear([LONG]).conditional
    what, clause = line.split(": ", 1)
    assert what == "4+ Invulnerable Save"
    assert clause.endswith("...") and len(clause) <= 90 and clause.startswith("4+ Invulnerable Save against Shooting")


@pytest.mark.parametrize("text", [TEMPLATE_ONLY, OR_IMPROVES, BEFORE_THAT, LONG])
def test_the_reading_is_blind_to_case(text: str) -> None:
    lower, upper = read_wargear([text]), read_wargear([text.upper()])
    assert (lower.armour, lower.invulnerable, lower.rules) == (upper.armour, upper.invulnerable, upper.rules)
    assert [c.casefold() for c in lower.conditional] == [c.casefold() for c in upper.conditional]
