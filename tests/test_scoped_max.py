"""``bsdata.datasheets.scoped_max`` on small entries written here (BattleScribe's constraint and modifier
elements): the plain maximum, and one a repeating modifier raises, its increment read as 0 when the data gives
none (kills the mutant of docs/testing.md's "Left" list that read a missing increment as ``None``)."""

from __future__ import annotations

from xml.etree.ElementTree import fromstring

from praetor_analysis.bsdata.datasheets import scoped_max


def _entry(modifier: str) -> str:
    return (
        '<selectionEntry id="e"><constraints><constraint id="c" field="selections" scope="parent" type="max" '
        f'value="1"/></constraints><modifiers>{modifier}</modifiers></selectionEntry>'
    )


def test_a_repeating_increment_is_read_and_a_missing_one_is_zero() -> None:
    repeat = '<repeats><repeat field="selections" childId="model" value="10"/></repeats>'
    full = fromstring(_entry(f'<modifier type="increment" field="c" value="1">{repeat}</modifier>'))
    assert scoped_max(full, "parent") == "1+1/10:model"  # "1 in 10 may exchange"
    bare = fromstring(_entry(f'<modifier type="increment" field="c">{repeat}</modifier>'))
    assert scoped_max(bare, "parent") == "1+0/10:model"
    assert scoped_max(fromstring(_entry("")), "parent") == "1" and scoped_max(fromstring(_entry("")), "roster") == ""
