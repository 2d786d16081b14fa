"""Cleaning of weapon ``Type`` strings from BattleScribe data.

The community data spells rule names inconsistently: typos (``Assult``, ``Deflagerate``), case
(``Gets hot``), curly quotes, periods used as separators, rule text pasted after a newline, values
without parentheses (``Brutal 2``), ``Large (5") Blast`` for ``Large Blast (5")``. :func:`clean_type`
returns the canonical string and every correction it made, so nothing is changed silently.

The corrections table is data (``data/token_corrections.csv``: wrong, right, reason), matched against
the rule name of each comma-separated token; canonical rule names and whether they take a value live
in ``data/rule_names.csv`` (derived from the cleaned data by the importer).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from praetor_analysis.prob import BoundedMemo

__all__ = [
    "SHOT_TYPES",
    "Correction",
    "clean_type",
    "rule_name",
    "rule_names",
    "split_type",
    "token_corrections",
]

SHOT_TYPES = ("Assault", "Heavy", "Pistol", "Ordnance", "Rapid Fire", "Salvo", "Bomb", "Melee")
"""Weapon types whose value, if any, is a shot count written without parentheses (``Heavy 2``)."""


@dataclass(frozen=True)
class Correction:
    """One change made while cleaning a Type string.

    Attributes:
        original: The text as found.
        corrected: The text after correction ("" when dropped).
        reason: Why (e.g. ``typo``, ``case``, ``curly quote``).
    """

    original: str
    corrected: str
    reason: str


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files("praetor_analysis.data").joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(io.StringIO(text)))


@cache
def token_corrections() -> tuple[tuple[str, str, str], ...]:
    """The corrections table ``(wrong, right, reason)`` from ``data/token_corrections.csv``."""
    return tuple((r["wrong"], r["right"], r["reason"]) for r in _read_csv("token_corrections.csv"))


@cache
def rule_names() -> dict[str, str]:
    """Canonical rule names found in the data -> value form (``"(X)"``, ``"N"`` or ``""``).

    Empty if ``data/rule_names.csv`` is not there yet (the importer writes it).
    """
    try:
        rows = _read_csv("rule_names.csv")
    except FileNotFoundError:
        return {}
    return {r["name"]: r["value"] for r in rows}


_VALUE = re.compile(r"^(?P<name>.*?)\s*(?P<value>\(.*\)|[0-9]*D?[0-9]+\+?)$")


def rule_name(token: str) -> str:
    """Return the rule name of a token without its value: ``Rending (6+)`` -> ``Rending``."""
    m = _VALUE.match(token)
    return m.group("name") if m and m.group("name") else token


def split_type(text: str) -> list[str]:
    """Split a (cleaned) Type string into its comma-separated tokens."""
    return [t.strip() for t in text.split(",") if t.strip()]


_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2033": '"'}
_PERIOD_RE = re.compile(r"\.(?=\s*(?:[A-Za-z,]|$))")
_SPACE_CLOSE_RE = re.compile(r"\s+\)")
_SPACE_OPEN_RE = re.compile(r"\(\s+")
_SPACES_RE = re.compile(r"\s+")
_COMMA_TIGHT_RE = re.compile(r",(?=[^\s,])")
#: What the line-wide steps change: without any of these, they leave the line as it is (stripped).
_UNTIDY_RE = re.compile(r"[\n\u2018\u2019\u201c\u201d\u2033.]|\(\s|\s\)|\s\s|[^\S ]|,(?=[^\s,])")
_GLUED_VALUE_RE = re.compile(r"^([A-Za-z]{2,})(\d.*)$")
_SIZE_IN_NAME_RE = re.compile(r"^(\w+) (\(.+\)) Blast$")


@dataclass(frozen=True)
class _Tables:
    """The corrections and canonical names arranged for look-ups (built once from the two tables)."""

    joined: tuple[tuple[str, str, str], ...]  # corrections whose wrong text holds a comma, in order
    whole: dict[str, tuple[str, str]]  # a whole token -> (right, reason): the table's first row for it
    names: dict[str, tuple[str, str]]  # a rule name (no comma) -> (right, reason): the first row for it
    folded: dict[str, str]  # a canonical name in lower case -> the first canonical name so spelled


@cache
def _tables() -> _Tables:
    whole: dict[str, tuple[str, str]] = {}
    names: dict[str, tuple[str, str]] = {}
    for wrong, right, reason in token_corrections():
        whole.setdefault(wrong, (right, reason))
        if "," not in wrong:
            names.setdefault(wrong, (right, reason))
    folded: dict[str, str] = {}
    for known in rule_names():
        folded.setdefault(known.lower(), known)
    joined = tuple(row for row in token_corrections() if "," in row[0])
    return _Tables(joined, whole, names, folded)


def clean_type(text: str) -> tuple[str, list[Correction]]:
    """Clean a weapon Type string.

    Args:
        text: The Type characteristic as found in the data.

    Returns:
        The cleaned string (tokens joined by ``", "``) and the corrections made, in order.

    Example:
        >>> clean_type('Assult 2, Large (5") Blast')[0]
        'Assault 2, Large Blast (5")'
    """
    fixes: list[Correction] = []
    s = _clean_line(text, fixes) if _UNTIDY_RE.search(text) else text.strip()
    tables = _tables()
    for wrong, right, reason in tables.joined:
        if wrong in s:
            fixes.append(Correction(wrong, right, reason))
            s = s.replace(wrong, right)
    tokens: list[str] = []
    raw_tokens = s.split(",")
    kept = [raw for raw in raw_tokens if raw.strip()]
    if len(raw_tokens) > 1 and len(kept) < len(raw_tokens):  # say the line, not the empty text dropped from it
        fixes.append(Correction(s, ",".join(kept).strip(), "empty item between commas dropped"))
    for raw in kept:
        tok = raw.strip()
        cleaned = _CLEANED.peek(tok)
        if cleaned is None:
            cleaned = _clean_token(tok, tables)
            _CLEANED.put(tok, cleaned)
        tokens.append(cleaned[0])
        if cleaned[1] is not None:
            fixes.append(cleaned[1])
    return ", ".join(tokens), fixes


def _clean_line(text: str, fixes: list[Correction]) -> str:
    """The line-wide steps of :func:`clean_type` (a line break, curly quotes, periods, spaces, commas)."""
    s = text
    if "\n" in s.strip():
        head, _, tail = s.strip().partition("\n")
        # The dropped text is rules prose: report its size, never carry it around.
        fixes.append(
            Correction(
                head.strip() + "\n...",
                head.strip(),
                f"rule text after newline dropped ({len(tail.strip())} characters)",
            )
        )
        s = head
    for bad, good in _QUOTES.items():
        if bad in s:
            fixes.append(Correction(bad, good, "curly quote"))
            s = s.replace(bad, good)
    if "." in s:
        new = _PERIOD_RE.sub(",", s)
        if new != s:
            fixes.append(Correction(s.strip(), new.strip(), "period used as separator"))
            s = new
    new = _SPACE_OPEN_RE.sub("(", _SPACE_CLOSE_RE.sub(")", s))
    if new != s:
        fixes.append(Correction(s.strip(), new.strip(), "space inside parentheses"))
        s = new
    new = _SPACES_RE.sub(" ", s).strip()
    if new != s.strip():
        fixes.append(Correction(s.strip(), new, "doubled or stray whitespace"))
    s = new
    if _COMMA_TIGHT_RE.search(s):
        fixes.append(Correction(s, _COMMA_TIGHT_RE.sub(", ", s), "missing space after comma"))
    return s


#: Tokens cleaned before: their cleaned text and the correction made, if any (bounded; emptied by ``clear_memos``).
_CLEANED: BoundedMemo[tuple[str, Correction | None]] = BoundedMemo(4096)


def _clean_token(tok: str, tables: _Tables) -> tuple[str, Correction | None]:
    """One token cleaned (its name's typos, case, value's brackets), and the correction made or None."""
    orig = tok
    reasons: list[str] = []
    if tok.startswith("\u2020") or tok.endswith("*"):
        tok = tok.lstrip("\u2020").rstrip("*").strip()
        reasons.append("footnote marker dropped")
    m = _GLUED_VALUE_RE.match(tok)
    if m:
        tok = f"{m.group(1)} {m.group(2)}"
        reasons.append("missing space before value")
    m = _SIZE_IN_NAME_RE.match(tok)
    if m:
        tok = f"{m.group(1)} Blast {m.group(2)}"
        reasons.append("size written inside the name")
    whole = tables.whole.get(tok)
    if whole is not None:
        tok = whole[0]
        reasons.append(whole[1])
    name = rule_name(tok)
    value = tok[len(name) :].strip()
    named = tables.names.get(name)
    if named is not None:
        name = named[0]
        reasons.append(named[1])
    canon = rule_names()
    if name not in canon:
        known = tables.folded.get(name.lower())
        if known is not None:
            name = known
            reasons.append("case")
    if value.startswith("(") and name in SHOT_TYPES:
        value = value[1:-1].strip()
        reasons.append("shot count in parentheses")
    elif value and not value.startswith("(") and (canon.get(name) == "(X)"):
        value = f"({value})"
        reasons.append("value without parentheses")
    tok = f"{name} {value}" if value else name
    return tok, (Correction(orig, tok, "; ".join(reasons) or "normalised") if tok != orig else None)
