"""Special rule tokens (Rending (6+), Brutal (2), Blast (3")) -> typed Rule records."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from praetor_analysis.errors import ProfileError, show_value
from praetor_analysis.prob import BoundedMemo
from praetor_analysis.profiles.characteristics import check_text, clean_text
from praetor_analysis.rules import REGISTRY, Role, RuleDecl, Stage, canonical_rule_name, lookup


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


#: A rule named by its declaration or by its canonical name.
RuleRef = str | RuleDecl


def rule_name(rule: RuleRef) -> str:
    """The canonical name of a rule given by declaration or name."""
    return rule if isinstance(rule, str) else rule.name


_RULE_RE = re.compile(r"^(?P<name>[^()]+?)\s*(?:\((?P<arg>[^()]*)\))?\s*(?P<tail>\d+\+?)?\s*$")
_NUMBER_RE = re.compile(r'(\d+)\s*(\+|"|\'\'|in)?')
#: Rule tokens parsed before, by their text and the registry's size (a rule declared since is looked up anew); a
#: refused token is not kept, so its refusal names the field of each call.
_PARSED: BoundedMemo[Rule] = BoundedMemo(4096)


def parse_rule(token: str, *, field_name: str = "rules") -> Rule:
    """Parse one rule token such as ``Rending (6+)``, ``Brutal (2)``, ``Blast (3")`` or ``Fearless``.

    Raises:
        ProfileError: for an impossible value of a known rule (``Rending (9+)``, ``Brutal (0)``).
    """
    if type(token) is not str:  # text by its str(), as before; only text is remembered
        return _parse_rule(token, field_name)
    key = (token, len(REGISTRY))
    found = _PARSED.peek(key)
    if found is None:
        found = _parse_rule(token, field_name)
        _PARSED.put(key, found)
    return found


def _parse_rule(token: object, field_name: str) -> Rule:
    """:func:`parse_rule` without its memo."""
    raw = clean_text(check_text(token, field_name))
    m = _RULE_RE.match(raw)
    if not m:
        return Rule(name=raw, text=raw, known=False)
    name = canonical_rule_name(m.group("name"))
    arg = (m.group("arg") or m.group("tail") or "").strip()
    value: int | None = None
    variant: str | None = None
    if arg:
        num = _NUMBER_RE.fullmatch(arg)
        if num:
            if len(num.group(1)) > 4:
                raise ProfileError(
                    f"{field_name}: {show_value(raw)} has an impossible value {show_value(num.group(1))}"
                )
            value = int(num.group(1))
        else:
            variant = arg
    decl = lookup(name)
    if decl is not None and value is not None:
        p = decl.param
        if p.kind == "roll" and not p.lo <= value <= p.hi:
            raise ProfileError(f"{field_name}: {raw!r} needs a roll of {p.lo}+ to {p.hi}+, got {value}+")
        if p.kind == "count" and not p.lo <= value <= p.hi:
            if value < p.lo and p.lo >= 1:
                raise ProfileError(f"{field_name}: {raw!r} must be {name} ({p.lo}) or more")
            raise ProfileError(f"{field_name}: {raw!r} has an impossible value {value}")
        if p.kind == "inches" and not p.lo <= value <= p.hi:
            sized = next((d.name for d in REGISTRY.values() if d.param.kind == "inches" and d.param.lo == value), None)
            other = f' (the {value}" marker is {sized})' if sized else ""
            raise ProfileError(f'{field_name}: {show_value(raw)}: a {name} is a {p.lo}" marker, got {value}"{other}')
    if decl is not None and value is None and decl.param.default is None and _needs_its_value(decl):
        example = f"{decl.param.hi}+" if decl.param.kind == "roll" else "1"
        raise ProfileError(f"{field_name}: {show_value(raw)} needs its value, such as '{name} ({example})'")
    known = decl is not None
    return Rule(name=name, value=value, variant=variant, text=raw, known=known)


def _needs_its_value(decl: RuleDecl) -> bool:
    """A rule that does nothing without its value (which no default supplies): Rending, Breaching and Murderous
    Strike (the roll that changes a wound's AP or kills) and Shell Shock (the Leadership penalty). Others read
    a bare form on purpose (Rage: +1; Exoshock: 6+)."""
    if decl.param.kind == "roll":
        return bool(decl.stages & {Stage.AP, Stage.DAMAGE})
    return decl.param.kind == "count" and Role.PINNING_PENALTY in decl.roles


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
        if not tok.strip():
            raise ProfileError(f"{field_name}[{i}]: an empty rule name, got {show_value(tok)}")
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
    """Split on commas outside brackets (a ``)`` with none open is text)."""
    out: list[str] = []
    cur: str | None = None
    depth = 0
    for piece in text.split(","):
        cur = piece if cur is None else f"{cur},{piece}"
        if "(" in piece or ")" in piece:
            for ch in piece:
                if ch == "(":
                    depth += 1
                elif ch == ")" and depth:
                    depth -= 1
        if depth == 0:
            out.append(cur.strip())
            cur = None
    if cur is not None:
        out.append(cur.strip())
    return [t for t in out if t]
