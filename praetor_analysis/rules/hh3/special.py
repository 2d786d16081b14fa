"""The 3rd edition's special rules and traits as the engine reads them: parsing a profile's text into rule
references (tolerating the data's slips) and one declaration per rule name saying what the engine does with it.

A declaration's ``kind`` is where the rule acts (``hit``, ``wound``, ``profile``, ``after``, ``status``, ``snap``,
``marker``, ``defence``, ``melee``, ``force``, ``shock``), or ``vehicle`` (acts only against Vehicles: no effect on
other units),
``no_effect`` (no dice change in one attack) or ``not_modelled``; ``reason`` is the sentence the result gives
when the rule lands under ``no_effect`` or ``not_modelled``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from praetor_analysis.errors import ProfileError, show_value

__all__ = [
    "DECLARATIONS",
    "RuleDecl",
    "RuleRef",
    "declaration",
    "parse_rules",
    "split_items",
]


@dataclass(frozen=True)
class RuleRef:
    """One rule of a profile: its canonical ``name``, the text in brackets (``value``, or None) and the text as
    printed (``text``)."""

    name: str
    value: str | None
    text: str

    @property
    def label(self) -> str:
        """The canonical name with its value, ``Breaching (5+)``."""
        return self.name if self.value is None else f"{self.name} ({self.value})"

    def number(self, field: str = "rule") -> int:
        """The value as a whole number (``5+`` -> 5, ``2`` -> 2, ``-1`` -> -1).

        Raises:
            ProfileError: naming ``field`` and the rule when the value is not a number.
        """
        m = re.fullmatch(r"\s*([+-]?\d{1,3})\s*\+?\s*", self.value or "")
        if m is None:
            raise ProfileError(
                f"{field}: {show_value(self.text)} needs a number in brackets", field=field, value=self.text
            )
        return int(m.group(1))

    def characteristics(self) -> tuple[str, ...]:
        """The characteristics a Heavy (X), Ordnance (X) or Impact (X) names (``FP & AP`` -> FP, AP)."""
        return tuple(p.strip().upper() for p in re.split(r"&|,|/|\band\b", self.value or "") if p.strip())


@dataclass(frozen=True)
class RuleDecl:
    """What the engine does with one rule name (see the module docstring)."""

    kind: str
    reason: str = ""


_ACTS = {
    "Critical Hit": "hit",
    "Rending": "hit",
    "Precision": "hit",
    "Overload": "hit",
    "Breaching": "wound",
    "Shred": "wound",
    "Poisoned": "wound",
    "Heavy": "profile",
    "Ordnance": "profile",
    "Impact": "profile",
    "Deflagrate": "after",
    "Phage": "after",
    "Pinning": "status",
    "Suppressive": "status",
    "Stun": "status",
    "Panic": "status",
    "Macro-auspex": "snap",
    "Blast": "marker",
    "Barrage": "marker",
    "Template": "marker",
    "Feel No Pain": "defence",
    "Shrouded": "defence",
    "Eternal Warrior": "defence",
}

_VEHICLE = "acts only against Vehicles (Armour Penetration Tests, hull points)"

DECLARATIONS: dict[str, RuleDecl] = {
    **{name: RuleDecl(kind) for name, kind in _ACTS.items()},
    "Armourbane": RuleDecl("vehicle", _VEHICLE),
    "Melta": RuleDecl("vehicle", _VEHICLE),
    "Armour-breaker": RuleDecl("vehicle", _VEHICLE),
    "Annihilation Cascade": RuleDecl("vehicle", "adds hits per Hull Point lost: acts only against Vehicles"),
    "Shield-breaker": RuleDecl("vehicle", "collapses void shields: acts only against shielded Vehicles"),
    "Shock": RuleDecl("shock", "gives a status on natural 5-6 hit rolls only against Vehicle or Walker models"),
    "Pistol": RuleDecl("no_effect", "lets a model fire two Pistols: give the second as another volley"),
    "Limited": RuleDecl("no_effect", "limits uses per battle; no dice change in one attack"),
    "Combi": RuleDecl("no_effect", "lets a model fire a second Combi profile: give it as another volley"),
    "Skyfire": RuleDecl("no_effect", "lifts forced Snap Shots against Flyers; the target is not a Flyer"),
    "Rapid Tracking": RuleDecl("no_effect", "lets the weapon fire in Intercept reactions; no dice change"),
    "Power Hungry": RuleDecl("no_effect", "forces the firer's other weapons to Snap Shots; no dice change here"),
    "Detonation": RuleDecl("no_effect", "says which targets the weapon may attack; the attack is resolved as asked"),
    "Duellist's Edge": RuleDecl("no_effect", "adds to Focus Rolls in challenges; no dice change in this attack"),
    "Aflame": RuleDecl("no_effect", "acts on the combat's resolution Check, not on the attack's dice"),
    "Minimum Range": RuleDecl("no_effect", "says where the weapon may fire; no dice change"),
    "Assault": RuleDecl("no_effect", "a trait (Volley attacks, Gun Down); no dice change"),
    "Reaping Blow": RuleDecl("melee"),
    "Force": RuleDecl("force"),
    "Psy-Shock": RuleDecl("not_modelled", "Perils of the Warp on Psyker targets: not modelled yet"),
}

_ALIASES = {
    "critical hits": "Critical Hit",
    "poison": "Poisoned",
    "ordinance": "Ordnance",
    "shocked": "Shock",
    "macros-auspex": "Macro-auspex",
    "macro-auspex": "Macro-auspex",
    "duelist's edge": "Duellist's Edge",
    "duellists edge": "Duellist's Edge",
    "duellist's edge": "Duellist's Edge",
    "armour-breaker": "Armour-breaker",
    "armour breaker": "Armour-breaker",
    "feel no pain": "Feel No Pain",
}
_CANONICAL = {name.lower(): name for name in DECLARATIONS}

_NO_EFFECT_TRAIT = RuleDecl("no_effect", "a trait: no rule of its own (named by other rules)")
_PSYCHIC_TRAIT = RuleDecl("no_effect", "a trait: only a Psyker may fire it; no dice change")
_UNKNOWN = RuleDecl("not_modelled", "not read by the edition 3 engine yet")


def declaration(name: str, *, trait: bool = False) -> RuleDecl:
    """The declaration of a canonical rule ``name``; a trait that is not a known rule is ``no_effect``; an
    unknown rule is ``not_modelled``."""
    if trait and name != "Assault":
        return _PSYCHIC_TRAIT if name == "Psychic" else _NO_EFFECT_TRAIT
    return DECLARATIONS.get(name, _UNKNOWN)


def _canonical(name: str) -> str:
    key = " ".join(name.replace("\u2019", "'").split()).lower()
    return _ALIASES.get(key) or _CANONICAL.get(key) or " ".join(name.replace("\u2019", "'").split())


def split_items(text: str) -> list[str]:
    """Split a Special Rules or Traits cell on commas outside brackets, and between a closing bracket and a
    capital letter (a missing comma: ``Shred (4+) Reaping Blow (2)``, or a full stop: ``Heavy (FP). Combi``)."""
    items, depth, start = [], 0, 0
    text = re.sub(r"\)\.?\s+(?=[A-Z])", "),", text.replace("\n", " "))
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif ch == "," and depth == 0:
            items.append(text[start:i])
            start = i + 1
    items.append(text[start:])
    return [s.strip() for s in items if s.strip() and s.strip().lower() not in {"-", "none"}]


_ITEM_RE = re.compile(r"^(?P<name>[^()]+?)\s*(?:\((?P<value>[^()]*)\)?)?\s*$")


def parse_rules(text: object, *, field: str) -> tuple[RuleRef, ...]:
    """The rule references of a Special Rules or Traits cell (a string, or a list of strings).

    Raises:
        ProfileError: naming ``field`` when the cell is neither text nor a list of text, or an item is unreadable.
    """
    if text is None:
        return ()
    if isinstance(text, (list, tuple)):
        parts: list[str] = []
        for item in text:
            if not isinstance(item, str):
                raise ProfileError(f"{field}: expected text, got {show_value(item)}", field=field, value=item)
            parts.extend(split_items(item))
    elif isinstance(text, str):
        parts = split_items(text)
    else:
        raise ProfileError(f"{field}: expected text, got {show_value(text)}", field=field, value=text)
    out = []
    for part in parts:
        m = _ITEM_RE.match(part)
        if m is None or len(part) > 80:
            raise ProfileError(f"{field}: cannot read the rule {show_value(part)}", field=field, value=part)
        value = m.group("value")
        out.append(RuleRef(_canonical(m.group("name")), value.strip() if value is not None else None, part))
    return tuple(out)
