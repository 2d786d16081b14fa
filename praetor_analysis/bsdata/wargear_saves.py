"""The saves a wargear item's own text gives its bearer, read strictly: figures only, never the text.

A sentence that grants "a N+ Armour Save" or "a N+ Invulnerable Save" outright gives that save. A save under a
condition (against some attacks, during a phase, in a challenge, when something happens, increasing or
improving another save, instead of another) is not read: it gives nothing here, so a conditional save is never
taken for a plain one. What follows ``, but`` (a restriction on the bearer) does not make the save conditional.

Used for wargear options of the datasheet tables (:mod:`praetor_analysis.bsdata.datasheets`) and for a roster's
wargear selections (:mod:`praetor_analysis.bsdata.roster`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["best_save", "saves_from_texts"]

_SAVE = re.compile(r"(?<![\d+])([2-6])\+\s*(armou?r|invulnerable)\s+save", re.IGNORECASE)
_CONDITION = re.compile(
    r"\b(against|during|when|whenever|while|if|unless|instead|increas\w*|improv\w*|phase|turn|challenge|"
    r"reduc\w*|modif\w*|re-?roll\w*|shooting|melee|assault|close combat|once|first)\b",
    re.IGNORECASE,
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def best_save(a: str, b: str) -> str:
    """The better of two saves written ``"3+"`` (``""`` for none)."""
    if not a or not b:
        return a or b
    return a if int(a[0]) <= int(b[0]) else b


def saves_from_texts(texts: Iterable[str]) -> tuple[str, str]:
    """``(armour, invulnerable)``: the best plain saves the texts grant (``"2+"``, ``""`` for none)."""
    armour = invulnerable = ""
    for text in texts:
        for sentence in _SENTENCE.split(text or ""):
            clause = re.split(r",\s*but\b", sentence, maxsplit=1, flags=re.IGNORECASE)[0]
            found = list(_SAVE.finditer(clause))
            if not found or _CONDITION.search(clause):
                continue
            for m in found:
                value = f"{m.group(1)}+"
                if m.group(2).casefold().startswith("arm"):
                    armour = best_save(armour, value)
                else:
                    invulnerable = best_save(invulnerable, value)
    return armour, invulnerable
