"""Special rule tokens (Rending (6+), Brutal (2), Blast (3")) -> typed Rule records."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from praetor_analysis.errors import ProfileError, show_value
from praetor_analysis.profiles.characteristics import check_text, clean_text
from praetor_analysis.rules.names import RULE_NAMES, canonical_rule_name


# --- rules --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rule:
    """One special rule token: canonical ``name``, numeric ``value`` (X of ``(X+)``, inches of a marker)
    or None, a ``variant`` (``Melta`` in ``Armourbane (Melta)``), and the ``text`` as printed."""

    name: str
    value: int | None = None
    variant: str | None = None
    text: str = ""
    known: bool = True

    def __str__(self) -> str:
        return self.text or self.name


_RULE_RE = re.compile(r"^(?P<name>[^()]+?)\s*(?:\((?P<arg>[^()]*)\))?\s*(?P<tail>\d+\+?)?\s*$")


#: Rules whose value is a D6 target "X+" that must lie in 2..6.
_ROLL_TARGET_RULES = {
    "Rending",
    "Breaching",
    "Murderous Strike",
    "Poisoned",
    "Feel No Pain",
    "Shrouded",
    "Exoshock",
    "Precision Shots",
    "Precision Strikes",
    "It Will Not Die",
}


#: Rules whose value is a marker size in inches.
_SIZED_RULES = {"Blast", "Large Blast", "Massive Blast", "Apocalyptic Blast"}


def parse_rule(token: str, *, field_name: str = "rules") -> Rule:
    """Parse one rule token such as ``Rending (6+)``, ``Brutal (2)``, ``Blast (3")`` or ``Fearless``.

    Raises:
        ProfileError: for an impossible value of a known rule (``Rending (9+)``, ``Brutal (0)``).
    """
    raw = clean_text(check_text(token, field_name))
    m = _RULE_RE.match(raw)
    if not m:
        return Rule(name=raw, text=raw, known=False)
    name = canonical_rule_name(m.group("name"))
    arg = (m.group("arg") or m.group("tail") or "").strip()
    value: int | None = None
    variant: str | None = None
    if arg:
        num = re.fullmatch(r'(\d+)\s*(\+|"|\'\'|in)?', arg)
        if num:
            if len(num.group(1)) > 4:
                raise ProfileError(
                    f"{field_name}: {show_value(raw)} has an impossible value {show_value(num.group(1))}"
                )
            value = int(num.group(1))
        else:
            variant = arg
    known = name in RULE_NAMES
    if known and name in _ROLL_TARGET_RULES and value is not None and not 2 <= value <= 6:
        raise ProfileError(f"{field_name}: {raw!r} needs a roll of 2+ to 6+, got {value}+")
    if known and name in {"Brutal", "Shell Shock", "Concussive", "Reach", "Rampage", "Reaping Blow"}:
        if value is not None and not 0 <= value <= 10:
            raise ProfileError(f"{field_name}: {raw!r} has an impossible value {value}")
        if name == "Brutal" and value is not None and value < 1:
            raise ProfileError(f"{field_name}: {raw!r} must be Brutal (1) or more")
    if known and name in _SIZED_RULES and value is not None and not 1 <= value <= 20:
        raise ProfileError(f"{field_name}: {show_value(raw)} needs a size of 1 to 20 inches, got {value}")
    return Rule(name=name, value=value, variant=variant, text=raw, known=known)


def parse_rules(items: Iterable[str] | str | None, *, field_name: str = "rules") -> tuple[Rule, ...]:
    """Parse a list of rule tokens (or one comma-separated string)."""
    if items is None:
        return ()
    if isinstance(items, str):
        items = list(split_tokens(check_text(items, field_name)))
    out = []
    for i, tok in enumerate(items):
        if not isinstance(tok, str):
            raise ProfileError(f"{field_name}[{i}]: expected a rule name, got {show_value(tok)}")
        if tok.strip():
            out.append(parse_rule(tok, field_name=field_name))
    return no_duplicate_rules(tuple(out), field_name)


def no_duplicate_rules(rules: tuple[Rule, ...], field_name: str) -> tuple[Rule, ...]:
    """Refuse a known rule given twice (``Rending (4+)`` and ``Rending (6+)``): which would apply is unclear."""
    seen: dict[str, Rule] = {}
    for r in rules:
        if r.known and r.name in seen:
            raise ProfileError(f"{field_name}: rule {r.name!r} given twice ({seen[r.name].text!r} and {r.text!r})")
        seen[r.name] = r
    return rules


def split_tokens(text: str) -> list[str]:
    """Split on commas outside brackets."""
    out, depth, cur = [], 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return [t for t in out if t]
