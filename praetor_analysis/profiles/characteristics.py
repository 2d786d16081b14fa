"""Characteristics as printed on a datasheet (3+, -, User, x2, 48") -> numbers and specs."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from praetor_analysis.errors import ProfileError, show_value

# --- characteristics ----------------------------------------------------------------------------
#: Control characters refused in any text read from a profile (tab, newline and carriage return are
#: allowed: BattleScribe Type strings carry rules text after a newline, which the cleaning drops).
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


#: The characteristics' patterns, compiled once.
_STAT_RE = re.compile(r"-?\d{1,6}")
_LONG_STAT_RE = re.compile(r"-?\d+")
_SAVE_RE = re.compile(r"(\d)\+{0,2}")
_UP_TO_RE = re.compile(r'(?i)up to\s*(\d{1,4})\s*"?')
_MORE_THAN_RE = re.compile(r'(?i)more than\s*(\d{1,4})\s*"?\s*-\s*(\d{1,4})\s*"?')
_RANGE_RE = re.compile(r'(?:(\d{1,4})\s*"?\s*-\s*)?(\d{1,4})\s*"?')
_FOOTNOTED_RE = re.compile(r"(\d{1,2})\s*[*\u2020]")
_DIGITS_RE = re.compile(r"\d+")
_USER_PLUS_RE = re.compile(r"(?i)user\s*([+-])\s*(\d{1,2})")
_TIMES_AFTER_RE = re.compile(r"(\d{1,2})\s*[xX\u00d7]")
_ZONES_RE = re.compile(r"\d+(?:/\d+){1,2}")
_PLUS_RE = re.compile(r"([+-])\s*(\d+)")
_TIMES_RE = re.compile(r"[xX\u00d7]\s*(\d+)")

#: Longest text accepted for one characteristic, rule list or name (the longest real Type is ~200 chars).
MAX_TEXT_CHARS = 10_000


def check_text(value: Any, field_name: str) -> str:
    """Refuse text with control characters or of absurd length; return it unchanged otherwise."""
    s = str(value)
    if len(s) > MAX_TEXT_CHARS:
        raise ProfileError(
            f"{field_name}: text of {len(s)} characters is too long (limit {MAX_TEXT_CHARS}), got {show_value(value)}"
        )
    bad = _CONTROL_RE.search(s)
    if bad:
        raise ProfileError(f"{field_name}: control character {bad.group()!r} not allowed, got {show_value(value)}")
    return s


def clean_text(value: Any) -> str:
    return str(value).strip().replace("\u2033", '"').replace("\u201d", '"').replace("\u201c", '"')


def parse_stat(value: Any, field_name: str, *, lo: int = 0, hi: int = 10, allow_none: bool = False) -> int | None:
    """Parse a plain characteristic (WS, BS, S, T, W, I, A, Ld...) into an int in [lo, hi]."""
    if value is None or (isinstance(value, str) and value.strip() in {"-", ""}):
        if allow_none:
            return None
        raise ProfileError(f"{field_name}: a value is required, got {show_value(value)}")
    if isinstance(value, bool):
        raise ProfileError(f"{field_name}: expected a number, got {show_value(value)}")
    if not isinstance(value, (str, int, float)):
        raise ProfileError(f"{field_name}: expected a number, got {show_value(value)}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    s = clean_text(value)
    if not _STAT_RE.fullmatch(s):
        if _LONG_STAT_RE.fullmatch(s):
            raise ProfileError(f"{field_name}: must be between {lo} and {hi}, got {show_value(value)}")
        raise ProfileError(f"{field_name}: expected a whole number, got {show_value(value)}")
    n = int(s)
    if not lo <= n <= hi:
        raise ProfileError(f"{field_name}: must be between {lo} and {hi}, got {show_value(value)}")
    return n


def parse_number(value: Any, field_name: str, *, lo: float, hi: float, what: str = "a number") -> float:
    """A finite JSON number in [lo, hi] (booleans, text, NaN and infinities refused)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ProfileError(f"{field_name}: expected {what}, got {show_value(value)}")
    if isinstance(value, int) and not -(10**9) <= value <= 10**9:
        raise ProfileError(f"{field_name}: must be between {lo:g} and {hi:g}, got {show_value(value)}")
    x = float(value)
    if not math.isfinite(x):
        raise ProfileError(f"{field_name}: expected a finite number, got {show_value(value)}")
    if not lo <= x <= hi:
        raise ProfileError(f"{field_name}: must be between {lo:g} and {hi:g}, got {show_value(value)}")
    return x


def parse_save(value: Any, field_name: str) -> int | None:
    """Parse a save such as ``"3+"``, ``3`` or ``"-"`` (no save) into 2..6 or None."""
    if value is None or (isinstance(value, str) and value.strip() in {"-", "", "none", "None"}):
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ProfileError(f"{field_name}: expected a save like '3+', got {show_value(value)}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    s = clean_text(value)
    m = _SAVE_RE.fullmatch(s)
    if not m:
        raise ProfileError(f"{field_name}: expected a save like '3+' or '-', got {show_value(value)}")
    n = int(m.group(1))
    if not 2 <= n <= 6:
        raise ProfileError(f"{field_name}: a save must be 2+ to 6+, got {show_value(value)}")
    return n


def parse_ap(value: Any, field_name: str = "AP") -> int | None:
    """Parse AP: 1..6, or None for ``"-"``."""
    if value is None or (isinstance(value, str) and value.strip() in {"-", ""}):
        return None
    n = parse_stat(value, field_name, lo=1, hi=6)
    return n


@dataclass(frozen=True)
class RangeSpec:
    """A weapon's range: ``max_in`` inches (None for melee), ``min_in``, or a template."""

    max_in: int | None = None
    min_in: int = 0
    template: str | None = None  # "Template" or "Hellstorm"
    text: str = "-"


def parse_range(value: Any) -> RangeSpec:
    """Parse ``48"``, ``12"-60"``, ``Template``, ``Hellstorm`` or ``-``."""
    if value is None:
        return RangeSpec()
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ProfileError(f"Range: expected e.g. '48\"', '12\"-60\"', 'Template' or '-', got {show_value(value)}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    s = clean_text(check_text(value, "Range"))
    if s in {"-", "", "Melee", ".", "=", "Bomb"}:  # '.' and '=' are data typos of '-'; Bomb has no range
        return RangeSpec(text=s or "-")
    m = _UP_TO_RE.fullmatch(s)
    if m:
        return RangeSpec(max_in=int(m.group(1)), text=s)
    m = _MORE_THAN_RE.fullmatch(s)
    if m:
        return RangeSpec(max_in=int(m.group(2)), min_in=int(m.group(1)), text=s)
    low = s.lower()
    if "hellstorm" in low:
        return RangeSpec(template="Hellstorm", text=s)
    if "template" in low:
        return RangeSpec(template="Template", text=s)
    m = _RANGE_RE.fullmatch(s)
    if not m:
        raise ProfileError(f"Range: expected e.g. '48\"', '12\"-60\"', 'Template' or '-', got {show_value(value)}")
    return RangeSpec(max_in=int(m.group(2)), min_in=int(m.group(1) or 0), text=s)


@dataclass(frozen=True)
class StrengthSpec:
    """A weapon Strength: fixed, the user's, +N or xN the user's; ``None`` kind when unusable."""

    kind: str  # "fixed", "user", "plus", "times", "zones", "unknown"
    value: int = 0
    text: str = ""
    zones: tuple[int, ...] = ()  # inner-to-outer Strengths of an Apocalyptic Mega-blast ("10/8/6")

    def resolve(self, user_s: int | None) -> int | None:
        """The Strength against the wielder's S (capped at 10); None when it cannot be resolved.

        A zoned Strength resolves to its outer zone's (the zone most hits fall in); the Mega-blast
        geometry uses every zone's.
        """
        if self.kind in {"fixed", "zones"}:
            return self.value  # a printed Strength stands (Titan weapons exceed 10); only modifiers cap
        if self.kind == "unknown":
            return None
        if user_s is None:
            raise ProfileError(f"attacker.S: Strength {self.text!r} needs the attacker's S, got None")
        if self.kind == "user":
            return min(user_s, 10)
        if self.kind == "plus":
            return max(1, min(user_s + self.value, 10))
        return min(user_s * self.value, 10)


def parse_strength(value: Any) -> StrengthSpec:
    """Parse Strength: ``7``, ``User``, ``+1``, ``-1``, ``x2``; other text (``*``, ``D``) is kept as unknown."""
    if value is None or isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ProfileError(f"Strength: expected a number or 'User', got {show_value(value)}")
    if isinstance(value, float):
        if not value.is_integer():
            raise ProfileError(f"Strength: expected a whole number, got {show_value(value)}")
        value = int(value)
    if isinstance(value, int) and not 1 <= value <= 20:  # a number, not a printed modifier such as "-1"
        raise ProfileError(f"Strength: must be 1..20, got {show_value(value)}")
    s = clean_text(check_text(value, "Strength"))
    low = s.lower()
    footnoted = _FOOTNOTED_RE.fullmatch(s)  # '5*': the number stands, the footnote names a rule
    if footnoted and 1 <= int(footnoted.group(1)) <= 20:
        return StrengthSpec("fixed", int(footnoted.group(1)), s)
    if _DIGITS_RE.fullmatch(s):
        n = int(s) if len(s) <= 6 else 10**6
        if not 1 <= n <= 20:  # Titan weapons print Strengths above 10
            raise ProfileError(f"Strength: must be 1..20, got {show_value(value)}")
        return StrengthSpec("fixed", n, s)
    if low in {"user", "u", "as user", "s"}:
        return StrengthSpec("user", 0, s)
    m = _USER_PLUS_RE.fullmatch(s)  # 'User+4' printed for '+4'
    if m:
        return StrengthSpec("plus", int(m.group(2)) * (1 if m.group(1) == "+" else -1), s)
    m = _TIMES_AFTER_RE.fullmatch(s)  # '2x' printed for 'x2'
    if m and 1 <= int(m.group(1)) <= 10:
        return StrengthSpec("times", int(m.group(1)), s)
    if _ZONES_RE.fullmatch(s):
        zones = tuple(int(x) for x in s.split("/"))
        if not all(1 <= z <= 10 for z in zones):
            raise ProfileError(f"Strength: zone Strengths must be 1..10, got {show_value(value)}")
        return StrengthSpec("zones", zones[-1], s, zones)
    m = _PLUS_RE.fullmatch(s)
    if m:
        if len(m.group(2)) > 2:
            raise ProfileError(f"Strength: a modifier must be -10..+10, got {show_value(value)}")
        return StrengthSpec("plus", int(m.group(2)) * (1 if m.group(1) == "+" else -1), s)
    m = _TIMES_RE.fullmatch(s)
    if m:
        if len(m.group(1)) > 2 or int(m.group(1)) < 1:
            raise ProfileError(f"Strength: a multiplier must be x1..x10, got {show_value(value)}")
        return StrengthSpec("times", int(m.group(1)), s)
    if s == "":
        raise ProfileError(f"Strength: a value is required, got {show_value(value)}")
    return StrengthSpec("unknown", 0, s)
