"""The saves and rules a wargear item's own text gives its bearer, read clause by clause: figures only.

Each mention of a save (``a N+ Armour Save``, ``a N+ Invulnerable Save``, ``an Invulnerable Save of N+``,
``..., improved to N+``, ``and N+ in the Assault Phase``) is read with the words that follow it up to the next
mention or the end of the sentence:

- a mention followed by nothing, or by a connector (``,`` ``and`` ``or`` ``–`` ``(`` ``.`` ``but`` ``this``
  ``in addition``...), is granted outright: the bearer has that save always; so is one given "if the model does
  not already have one" (the better of the two saves is kept, which is that); one offered "or" an improvement
  of the save the model has applies, and the improvement is named as conditional;
- a mention, or an improvement (``improved to 3+``), followed by a condition the engine knows at the save
  (``against close combat attacks``, ``against Melee Attacks``, ``in the Assault Phase``, ``against Shooting
  Attacks``, ``during the Shooting phase``...) and then by a connector is a save of one phase: it is returned as
  the typed unit rule that holds against melee attacks only or against shooting attacks only
  (``Invulnerable Save in Melee (3+)``, :data:`~praetor_analysis.rules.save_rules.PHASE_SAVES`), in
  :attr:`WargearReading.rules`, and the save stage takes it where it is better;
- a mention followed by any other words (``against Template hits``, ``against Shooting Attacks which target its
  Front Armour``, ``when ... fighting in a Challenge``) holds only under a condition the engine does not know,
  and so does every other improvement (``increased to 2+``): it is not applied, and named in
  :attr:`WargearReading.conditional` (the fielded unit lists it under ``not_modelled``).

A special rule the text grants outright (``grants the Feel No Pain (5+) special rule``) is returned by name in
:attr:`WargearReading.rules`, for the caller to apply when the engine declares it; other sentences (restrictions
on the bearer, effects on other units) give nothing here.

Used for wargear options of the datasheet tables (:mod:`praetor_analysis.bsdata.datasheets`) and for a roster's
wargear selections (:mod:`praetor_analysis.bsdata.roster`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from praetor_analysis.rules import PHASE_SAVES

__all__ = ["WargearReading", "best_save", "read_wargear", "saves_from_texts"]

_KIND = r"(?P<kind>armou?r|invuln\w*)"
_MENTION = re.compile(
    rf"(?<![\d+(])(?P<v>[2-6])\+\s*{_KIND}\s+sav\w*"  # a 4+ Invulnerable Save
    rf"|\b{_KIND.replace('kind', 'kind2')}\s+save\s+of\s+(?P<v2>[2-6])\+"  # an Invulnerable Save of 3+
    r"|\b(?P<better>improv\w*|increas\w*)\s+to\s+(?P<v3>[2-6])\+"  # improved to 3+
    r"|\band\s+(?P<v4>[2-6])\+(?=\s+(?:in|during|against)\b)",  # ... and 5+ in the Assault Phase
    re.IGNORECASE,
)
_OUTRIGHT = re.compile(
    r"^\s*(?:$|[,.;:–—(\-]|and\b|or\b|but\b|this\b|in addition\b|additionally\b|which\b(?!\s+is\s+increas))",
    re.IGNORECASE,
)
_UNLESS_ONE = re.compile(
    r"^\s*,?\s*if (?:they|it|the model|the bearer) (?:does|do) not already (?:have|possess) one\b", re.I
)
"""A save given "if the model does not already have one": the better of the two saves, as every save is read."""
_MELEE = (
    r"against\s+(?:all\s+|any\s+)?(?:close\s+combat|melee)\s+attacks"
    r"|against\s+any\s+attacks\s+made\s+while\s+engaged\s+in\s+an\s+assault"
    r"|(?:in|during)\s+the\s+assault\s+phase"
    r"|dur?ing\s+both\s+the\s+movement\s+phase\s+and\s+the\s+assault\s+phase"
)
_SHOOTING = (
    r"against\s+(?:all\s+|any\s+)?shooting\s+attacks(?:\s+in\s+any\s+phase)?|(?:in|during)\s+the\s+shooting\s+phase"
)
_PHASE = re.compile(rf"^\s*(?:(?P<melee>{_MELEE})|(?P<shooting>{_SHOOTING}))\b", re.IGNORECASE)
"""The conditions the engine knows at the save: a melee attack or a shooting attack
(docs/rules.md#saves-for-one-phase). A shooting attack is read as one of the Shooting phase and a melee attack as
one of the Assault phase."""
_RULE = re.compile(r"\b(?:the|a)\s+(?P<rule>[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*(?:\s*\(\d\+?\))?)\s+special rule")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class WargearReading:
    """What a wargear text gives its bearer.

    Attributes:
        armour: The best Armour Save granted outright (``"2+"``; ``""`` for none).
        invulnerable: The best Invulnerable Save granted outright.
        rules: Special rules granted outright, as written (``"Feel No Pain (5+)"``), and the saves of one phase
            as their typed rules (``"Invulnerable Save in Melee (3+)"``).
        conditional: The saves that hold only under a condition, one line each (``"3+ Invulnerable Save:
            improved to 3+ against close combat attacks"``): not applied.
    """

    armour: str = ""
    invulnerable: str = ""
    rules: tuple[str, ...] = ()
    conditional: tuple[str, ...] = ()


def best_save(a: str, b: str) -> str:
    """The better of two saves written ``"3+"`` (``""`` for none)."""
    if not a or not b:
        return a or b
    return a if int(a[0]) <= int(b[0]) else b


def _clip(text: str, most: int = 90) -> str:
    text = " ".join(text.split()).strip(" ,;")
    return text if len(text) <= most else text[: most - 3].rstrip() + "..."


def _phase_only(rest: str) -> bool:
    """Whether the words after a condition of one phase add no other condition."""
    if re.match(r"^\s*that\s*$", rest, re.IGNORECASE):
        return True
    return bool(_OUTRIGHT.match(rest)) and not re.match(r"^\s*which\b", rest, re.IGNORECASE)


def _sentence(sentence: str, found: dict[str, str], rules: list[str], conditional: list[str]) -> None:
    mentions = list(_MENTION.finditer(sentence))
    kind = ""
    for i, m in enumerate(mentions):
        end = mentions[i + 1].start() if i + 1 < len(mentions) else len(sentence)
        after = sentence[m.end() : end]
        raw_kind = m.group("kind") or m.group("kind2")
        if raw_kind:
            kind = "armour" if raw_kind.casefold().startswith("arm") else "invulnerable"
        value = f"{m.group('v') or m.group('v2') or m.group('v3') or m.group('v4')}+"
        what = f"{value} {'Armour' if kind == 'armour' else 'Invulnerable'} Save"
        phase = _PHASE.match(after)
        if not kind:
            conditional.append(f"{value} save: {_clip(m.group(0) + after)}")
        elif phase and _phase_only(after[phase.end() :]):
            rules.append(f"{PHASE_SAVES[kind, bool(phase.group('melee'))]} ({value})")
        elif m.group("better") or m.group("v4") or not (_OUTRIGHT.match(after) or _UNLESS_ONE.match(after)):
            conditional.append(f"{what}: {_clip(m.group(0) + after)}")
        else:
            found[kind] = best_save(found.get(kind, ""), value)
            if re.match(r"\s*or\s+(?:increas|improv)", after, re.IGNORECASE):  # "or one step better than its own"
                conditional.append(f"{what}: {_clip(m.group(0) + after)}")
    if re.search(r"\b(against|during|when|whenever|while|if|unless|on any turn|in which)\b", sentence, re.IGNORECASE):
        return  # a rule granted under a condition is not read
    for r in _RULE.finditer(sentence):
        lead = sentence[: r.start()].split()[-4:]
        if any(w.casefold() in ("with", "that", "which", "by", "any") for w in lead):
            continue  # a weapon "with the Two-handed special rule": a restriction, not a grant
        if re.search(r"\b(grants?|gains?|confers?|has|have|provides?)\b", sentence[: r.start()], re.IGNORECASE):
            rules.append(" ".join(r.group("rule").split()))


def read_wargear(texts: Iterable[str]) -> WargearReading:
    """What the texts of one wargear item give its bearer (see the module docstring)."""
    found: dict[str, str] = {}
    rules: list[str] = []
    conditional: list[str] = []
    for text in texts:
        for sentence in _SENTENCE.split(text or ""):
            _sentence(sentence, found, rules, conditional)
    return WargearReading(
        found.get("armour", ""),
        found.get("invulnerable", ""),
        tuple(dict.fromkeys(rules)),
        tuple(dict.fromkeys(conditional)),
    )


def saves_from_texts(texts: Iterable[str]) -> tuple[str, str]:
    """``(armour, invulnerable)``: the best saves the texts grant outright (``"2+"``, ``""`` for none)."""
    reading = read_wargear(texts)
    return reading.armour, reading.invulnerable
