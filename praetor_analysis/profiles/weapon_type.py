"""A weapon's Type line (Heavy 2, Rending (6+)) -> its kind, shots and rules."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from praetor_analysis.errors import ProfileError, show_value
from praetor_analysis.prob import BoundedMemo, DiceExpr, parse_dice
from praetor_analysis.profiles.characteristics import check_text
from praetor_analysis.profiles.rule_tokens import Rule, RuleRef, no_duplicate_rules, parse_rule, rule_name, split_tokens
from praetor_analysis.profiles.vocabulary import clean_type

_SHOT_KINDS = (
    "Heavy",
    "Assault",
    "Pistol",
    "Ordnance",
    "Salvo",
    "Bomb",
    "Rapid Fire",
    "Melee",
    "Primary Weapon",
    "Destroyer",
)


_SHOT_RE = re.compile(
    r"^(?P<kind>Heavy|Assault|Pistol|Ordnance|Salvo|Bomb|Rapid Fire|Melee|Primary Weapon|Destroyer)"
    r"(?![A-Za-z-])\s*(?P<n>.*)$",
    re.IGNORECASE,
)
_KIND_OF = {k.lower(): k for k in _SHOT_KINDS}
_SALVO_RE = re.compile(r"(\d{1,4})\s*/\s*(\d{1,4})")


@dataclass(frozen=True)
class WeaponType:
    """A parsed Type line: the shooting kind (``Heavy``, ``Melee``...), its shots, rules, corrections."""

    kind: str | None
    shots: DiceExpr | None
    rules: tuple[Rule, ...]
    corrections: tuple[str, ...] = ()
    text: str = ""

    @cached_property
    def names(self) -> frozenset[str]:
        """The canonical names of the rules (a ``Destroyer N`` kind counts as the Destroyer rule)."""
        return frozenset(r.name for r in self.rules) | ({"Destroyer"} if self.kind == "Destroyer" else set())

    def has(self, rule: RuleRef) -> bool:
        """True when the rule is present (a ``Destroyer N`` kind is the Destroyer rule)."""
        return rule_name(rule) in self.names

    @cached_property
    def signature(self) -> tuple:
        """The rules as sorted (name, value, variant) triples, with the Destroyer kind: what the wound and
        save stages read (the shot count aside)."""
        rules = {(r.name, r.value, r.variant) for r in self.rules}
        if self.kind == "Destroyer":
            rules.add(("Destroyer", None, None))
        return tuple(sorted(rules, key=repr))

    def get(self, rule: RuleRef) -> Rule | None:
        """The first token of the rule, or None."""
        name = rule_name(rule)
        return next((r for r in self.rules if r.name == name), None)


def parse_weapon_type(text: Any) -> WeaponType:
    """Parse a Type line such as ``Heavy 2, Rending (6+), Breaching (4+)``.

    Typos and separators are cleaned first (see ``vocabulary.clean_type``); every correction is kept in
    ``corrections``. Unknown rule names become ``Rule(known=False)``; nothing is dropped.
    """
    if text is not None and not isinstance(text, str):
        raise ProfileError(f"Type: expected text such as 'Heavy 2, Rending (6+)', got {show_value(text)}")
    raw = "" if text is None else check_text(text, "Type")
    cleaned, fixes = clean_type(raw)
    kind: str | None = None
    shots: DiceExpr | None = None
    rules: list[Rule] = []
    for tok in split_tokens(cleaned):
        if kind is None:
            shot = _SHOTS.peek(tok)
            if shot is None:
                shot = _shot_token(tok)
                _SHOTS.put(tok, shot)
            if shot is not _NOT_A_SHOT:
                kind, shots, rule = shot
                if rule is not None:
                    rules.append(rule)
                continue
        rules.append(parse_rule(tok, field_name="Type"))
    return WeaponType(kind, shots, no_duplicate_rules(tuple(rules), "Type"), tuple(str(c) for c in fixes), raw)


#: What a token is as a Type's shots: (kind, shots, the rule it is instead), by its text (bounded; emptied by
#: ``clear_memos``); a refused token is not kept.
_SHOTS: BoundedMemo[tuple[str | None, DiceExpr | None, Rule | None]] = BoundedMemo(1024)
_NOT_A_SHOT: tuple[str | None, DiceExpr | None, Rule | None] = (None, None, None)


def _shot_token(tok: str) -> tuple[str | None, DiceExpr | None, Rule | None]:
    """A token read as a Type's shots (``Heavy 2``, ``Salvo 2/4``, ``Melee``): its kind and shots, or
    ``(None, None, rule)`` for a bare ``Destroyer`` (the rule), or :data:`_NOT_A_SHOT`."""
    m = _SHOT_RE.match(tok)
    if not m:
        return _NOT_A_SHOT
    kind = _KIND_OF.get(m.group("kind").lower())
    if kind is None:  # matched only by Unicode case folding ('Aſſault': a long s): no kind, an unknown token
        return _NOT_A_SHOT
    n = m.group("n").strip().strip("()").strip() or None
    if kind == "Melee":
        return kind, None, None
    if kind == "Destroyer" and n is None:
        return None, None, parse_rule(tok, field_name="Type")
    if n is None:
        return kind, DiceExpr(0, 6, 1), None
    if "/" in n:  # Salvo 2/4: the lower number (moving)
        salvo = _SALVO_RE.fullmatch(n)
        if not salvo:
            raise ProfileError(f"Type: {show_value(tok)} expects shots like 'Salvo 2/4', got {show_value(n)}")
        try:
            return kind, parse_dice(int(salvo.group(1)), field="Type"), None
        except ValueError as exc:
            raise ProfileError(str(exc)) from None
    try:
        return kind, parse_dice(n, field="Type"), None
    except ValueError as exc:
        raise ProfileError(str(exc)) from None
