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
:attr:`WargearReading.rules`, for the caller to apply when the engine declares it (and to name when it does not);
one granted under a condition (``when``, ``if``, ``that chooses to Run``...) is named in
:attr:`WargearReading.conditional_rules`; other sentences (restrictions on the bearer, effects on other units) give
nothing here.

:func:`read_described` reads what a model carries whole, each item by its name first (a datasheet's statline in
the catalog, a roster selection's rules): a rule the engine declares as a save rule of its holder (``Adamantium
Will (3+)``) is that rule, its description not read (the description's figures are examples); one whose value the
data leaves open (``Adamantium Will (X+)``) is named as not modelled; a rule whose description grants "an
Invulnerable Save equal to the value listed in brackets" gives the save its name carries (``Æthereal
Invulnerability (4+)``: 4+, its exception for Force weapons named); another rule the engine declares (a weapon's
Curse of Dead Worlds) gives its bearer nothing; an item named as a unit rule the engine declares (Iron Halo) gives
that rule; a Wargear Item's text is read as above; another rule's description is read for its saves only (it
names other rules as examples, not as grants).

Used for wargear options of the datasheet tables (:mod:`praetor_analysis.bsdata.datasheets`) and for a roster's
wargear selections (:mod:`praetor_analysis.bsdata.roster`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from praetor_analysis.bsdata.files import Described
from praetor_analysis.rules import PHASE_SAVES, Holder, Stage, lookup

__all__ = ["Defences", "WargearReading", "best_save", "read_described", "read_wargear", "saves_from_texts"]

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
    r"|(?:in|during)\s+the\s+assault\s+phase|in\s+close\s+combat"
    r"|dur?ing\s+both\s+the\s+movement\s+phase\s+and\s+the\s+assault\s+phase"
)
_SHOOTING = (
    r"against\s+(?:all\s+|any\s+)?shooting\s+attacks(?:\s+in\s+any\s+phase)?|(?:in|during)\s+the\s+shooting\s+phase"
)
_OTHER = r"against\s+all\s+other\s+(?:wounds|attacks|hits)(?:\s+inflicted\s+(?:up)?on\s+(?:him|her|it|them|the\s+\w+))?"
_PHASE = re.compile(rf"^\s*(?:(?P<melee>{_MELEE})|(?P<shooting>{_SHOOTING})|(?P<other>{_OTHER}))\b", re.IGNORECASE)
"""The conditions the engine knows at the save: a melee attack or a shooting attack
(docs/rules.md#saves-for-one-phase). A shooting attack is read as one of the Shooting phase and a melee attack as
one of the Assault phase. A save "against all other wounds" after a save of one phase in the same sentence
(``a 3+ Invulnerable Save against Melee Attacks and a 4+ Invulnerable Save against all other Wounds``) is the
save of the other phase; with no phase before it, it is a condition the engine does not know."""
_CONDITION = re.compile(
    r"\b(?:against|during|when|whenever|while|if|unless|on any turn|in which|chooses to"
    r"|a unit that (?:includes|contains)|(?:with|and) an? \w+ characteristic)\b",
    re.IGNORECASE,
)
"""Words that put a rule granted in the sentence under a condition: a moment, a choice, a characteristic the model
may lack, or the bearer's unit (a narthecium's Feel No Pain for the Infantry of its unit: not the bearer's alone)."""
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
        conditional_rules: The special rules granted only under a condition, one line each (``"Shrouded (5+): A
            model ... that chooses to Run gains the Shrouded (5+) special rule ..."``): not applied.
    """

    armour: str = ""
    invulnerable: str = ""
    rules: tuple[str, ...] = ()
    conditional: tuple[str, ...] = ()
    conditional_rules: tuple[str, ...] = ()


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


def _sentence(
    sentence: str, found: dict[str, str], rules: list[str], conditional: list[str], conditional_rules: list[str]
) -> None:
    mentions = list(_MENTION.finditer(sentence))
    named = re.findall(r"\b(armou?r|invuln\w*)\s+sav", sentence[: mentions[0].start()] if mentions else "", re.I)
    kind = ("armour" if named[-1].casefold().startswith("arm") else "invulnerable") if named else ""  # "this ... Save"
    melee: bool | None = None  # the phase of the last save of one phase in the sentence
    for i, m in enumerate(mentions):
        end = mentions[i + 1].start() if i + 1 < len(mentions) else len(sentence)
        after = sentence[m.end() : end]
        raw_kind = m.group("kind") or m.group("kind2")
        if raw_kind:
            kind = "armour" if raw_kind.casefold().startswith("arm") else "invulnerable"
        value = f"{m.group('v') or m.group('v2') or m.group('v3') or m.group('v4')}+"
        what = f"{value} {'Armour' if kind == 'armour' else 'Invulnerable'} Save"
        phase = _PHASE.match(after)
        in_melee = bool(phase and phase.group("melee"))
        if phase and phase.group("other"):  # "all other wounds": the phase the sentence has not named yet
            phase, in_melee = (None, False) if melee is None else (phase, not melee)
        if not kind:
            conditional.append(f"{value} save: {_clip(m.group(0) + after)}")
        elif phase and _phase_only(after[phase.end() :]):
            rules.append(f"{PHASE_SAVES[kind, in_melee]} ({value})")
            melee = in_melee
        elif m.group("better") or m.group("v4") or not (_OUTRIGHT.match(after) or _UNLESS_ONE.match(after)):
            conditional.append(f"{what}: {_clip(m.group(0) + after)}")
        else:
            found[kind] = best_save(found.get(kind, ""), value)
            if re.match(r"\s*or\s+(?:increas|improv)", after, re.IGNORECASE):  # "or one step better than its own"
                conditional.append(f"{what}: {_clip(m.group(0) + after)}")
    conditioned = _CONDITION.search(sentence)
    for r in _RULE.finditer(sentence):
        lead = [w.casefold() for w in sentence[: r.start()].split()[-4:]]
        granting = bool(lead) and lead[-1] in ("gains", "gain", "grants", "grant", "confers", "provides")
        if not granting and any(w in ("with", "that", "which", "by", "any") for w in lead):
            continue  # a weapon "with the Two-handed special rule", an attack that "has the Blast": not a grant
        if re.search(r"\b(grants?|gains?|confers?|has|have|provides?)\b", sentence[: r.start()], re.IGNORECASE):
            rule = " ".join(r.group("rule").split())
            if conditioned:  # a rule granted under a condition is not applied: named
                conditional_rules.append(f"{rule}: {_clip(sentence)}")
            else:
                rules.append(rule)


def read_wargear(texts: Iterable[str]) -> WargearReading:
    """What the texts of one wargear item give its bearer (see the module docstring)."""
    found: dict[str, str] = {}
    rules: list[str] = []
    conditional: list[str] = []
    conditional_rules: list[str] = []
    for text in texts:
        for sentence in _SENTENCE.split(text or ""):
            _sentence(sentence, found, rules, conditional, conditional_rules)
    return WargearReading(
        found.get("armour", ""),
        found.get("invulnerable", ""),
        tuple(dict.fromkeys(rules)),
        tuple(dict.fromkeys(conditional)),
        tuple(dict.fromkeys(conditional_rules)),
    )


def saves_from_texts(texts: Iterable[str]) -> tuple[str, str]:
    """``(armour, invulnerable)``: the best saves the texts grant outright (``"2+"``, ``""`` for none)."""
    reading = read_wargear(texts)
    return reading.armour, reading.invulnerable


@dataclass(frozen=True)
class Defences:
    """What the rules and wargear a model carries give it (:func:`read_described`).

    Attributes:
        armour: The best Armour Save granted outright (``""`` for none).
        invulnerable: The best Invulnerable Save granted outright.
        rules: The unit rules the engine declares, as written (``"Adamantium Will (3+)"``, ``"Iron Halo"``,
            ``"Invulnerable Save in Melee (3+)"``).
        not_modelled: One line per save held under a condition the engine does not know, and per rule a
            Wargear Item grants that the engine does not model or grants under a condition, figures and names only
            (``"Aquila Imperator: 3+ Invulnerable Save under a condition"``, ``"Jump Pack: Deep Strike, not
            modelled"``), one line per item.
    """

    armour: str = ""
    invulnerable: str = ""
    rules: tuple[str, ...] = ()
    not_modelled: tuple[str, ...] = ()


WARGEAR = "wargear"
"""The kind of a :class:`~praetor_analysis.bsdata.files.Described` Wargear Item (a rule's kind is ``"rule"``)."""


_PLACEHOLDER = re.compile(r"\s*\(X\+?\)\s*$")
"""A rule named with its value left open (``Adamantium Will (X+)``): the data does not give the model's value."""


def _declared(name: str, saves_only: bool) -> str:
    """The rule ``name`` is when the engine declares it as a rule of its holder (of the save stage when
    ``saves_only``), as written (its value kept); ``""`` otherwise."""
    decl = lookup(name)
    if decl is None or decl.holder is not Holder.UNIT or (saves_only and Stage.SAVES not in decl.stages):
        return ""
    return name if "(" in name else decl.name


def _rule(item: Described, rules: list[str], notes: list[str]) -> bool:
    """Read a rule the engine declares by its name (a save rule of its holder joins ``rules``; one whose value the
    data leaves open is named in ``notes``); ``False`` when the engine does not declare it (its text is read)."""
    bare = _PLACEHOLDER.sub("", item.name)
    if lookup(bare) is None:
        return False
    if _declared(bare, saves_only=True):
        if bare == item.name:
            rules.append(_declared(bare, saves_only=True))
        else:
            notes.append(f"{item.name}: no value in the data")
    return True


_NAMED_VALUE = re.compile(r"\((?P<v>[2-6])\+\)\s*$")
_EQUAL_TO_NAME = re.compile(r"invulnerable save equal to the value", re.IGNORECASE)


def _valued_save(item: Described, notes: list[str]) -> str | None:
    """The invulnerable save a rule gives at the value its name carries (``Æthereal Invulnerability (4+)``: a
    description granting "an Invulnerable Save equal to the value listed in brackets"), or None; an exception its
    description makes ("cannot be taken against" some weapons) is named in ``notes``."""
    value = _NAMED_VALUE.search(item.name)
    if value is None or not any(_EQUAL_TO_NAME.search(t) for t in item.texts):
        return None
    if any(re.search(r"cannot be taken against", t, re.IGNORECASE) for t in item.texts):
        notes.append(f"{item.name}: not taken against some weapons, not modelled")
    return f"{value['v']}+"


def read_described(items: Iterable[Described]) -> Defences:
    """What a model's rules and Wargear Items give it, each read by its name first (see the module docstring);
    other profiles (psychic powers, warlord traits, statlines) are not read."""
    armour, invulnerable = "", ""
    rules: list[str] = []
    notes: list[str] = []
    for item in items:
        if item.kind not in ("rule", WARGEAR):
            continue
        if item.kind == "rule":
            if _rule(item, rules, notes):
                continue
            if (named := _valued_save(item, notes)) is not None:
                invulnerable = best_save(invulnerable, named)
                continue
        elif named := _declared(item.name, saves_only=False):
            rules.append(named)
            continue
        reading = read_wargear(item.texts)
        armour, invulnerable = best_save(armour, reading.armour), best_save(invulnerable, reading.invulnerable)
        phased = [r for r in reading.rules if r.split(" (")[0] in PHASE_SAVES.values()]
        granted = [r for r in reading.rules if item.kind == WARGEAR and r not in phased]
        rules += phased + [r for r in granted if _declared(r, False)]
        held = [line.split(":", 1)[0] for line in reading.conditional]
        unknown: list[str] = []
        if item.kind == WARGEAR:  # a rule's description names rules as examples: only a Wargear Item grants them
            held += [line.split(":", 1)[0] for line in reading.conditional_rules]
            unknown = [r for r in granted if not _declared(r, False)]
        if held:
            notes.append(f"{item.name}: {', '.join(dict.fromkeys(held))} under a condition")
        if unknown:
            notes.append(f"{item.name}: {', '.join(unknown)}, not modelled")
    return Defences(armour, invulnerable, tuple(dict.fromkeys(rules)), tuple(dict.fromkeys(notes)))
