"""A roster of the other edition is refused in one line naming the file, its edition in words, and why."""

from __future__ import annotations

import pytest

from praetor_analysis.bsdata import require_edition


@pytest.mark.parametrize(
    ("edition", "words"),
    [("hh2", "a 2nd-edition (hh2) roster"), ("hh3", "a 3rd-edition (hh3) roster"), ("other", "a other roster")],
)
def test_the_refusal_names_the_file_the_edition_and_the_reason(edition: str, words: str) -> None:
    with pytest.raises(ValueError) as caught:
        require_edition(edition, "wanted", "army.rosz", "read by another command")
    assert str(caught.value) == f"army.rosz: {words}, refused: read by another command"
    assert getattr(caught.value, "field", None) == "edition" and getattr(caught.value, "value", None) == edition


def test_the_wanted_edition_passes() -> None:
    assert require_edition("hh3", "hh3", "army.rosz", "unused") is None
