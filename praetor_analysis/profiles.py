"""Weapon, attacker and target records, parsed from datasheet text as BattleScribe prints it.

Every characteristic accepts the printed form (``"3+"``, ``"-"``, ``"User"``, ``"x2"``, ``'48"'``) or a
number. Bad values raise ``ProfileError`` naming the field and the value. Rule tokens become typed
``Rule`` records; names the engine does not know are kept and reported, never dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .dice import DiceExpr, parse_dice
from .rules.names import RULE_NAMES, canonical_rule_name


class ProfileError(ValueError):
    """Bad input in a profile: the message names the field and the value."""


# --- characteristics ----------------------------------------------------------------------------
#: Control characters refused in any text read from a profile (tab, newline and carriage return are
#: allowed: BattleScribe Type strings carry rules text after a newline, which the cleaning drops).
_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

#: Longest text accepted for one characteristic, rule list or name (the longest real Type is ~200 chars).
MAX_TEXT_CHARS = 10_000


def _show(value: Any, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters, for one-line error messages."""
    try:
        r = repr(value)
    except RecursionError:
        return f"a {type(value).__name__} nested too deeply"
    return r if len(r) <= limit else r[: limit - 5] + "...'" + f" ({len(r)} characters)"


def check_text(value: Any, field_name: str) -> str:
    """Refuse text with control characters or of absurd length; return it unchanged otherwise."""
    s = str(value)
    if len(s) > MAX_TEXT_CHARS:
        raise ProfileError(f"{field_name}: text of {len(s)} characters is too long (limit {MAX_TEXT_CHARS}), "
                           f"got {_show(value)}")
    bad = _CONTROL_RE.search(s)
    if bad:
        raise ProfileError(f"{field_name}: control character {bad.group()!r} not allowed, got {_show(value)}")
    return s


def _text(value: Any) -> str:
    return str(value).strip().replace("\u2033", '"').replace("\u201d", '"').replace("\u201c", '"')


def parse_stat(value: Any, field_name: str, *, lo: int = 0, hi: int = 10, allow_none: bool = False) -> int | None:
    """Parse a plain characteristic (WS, BS, S, T, W, I, A, Ld...) into an int in [lo, hi]."""
    if value is None or (isinstance(value, str) and value.strip() in {"-", ""}):
        if allow_none:
            return None
        raise ProfileError(f"{field_name}: a value is required, got {value!r}")
    if isinstance(value, bool):
        raise ProfileError(f"{field_name}: expected a number, got {value!r}")
    if not isinstance(value, (str, int, float)):
        raise ProfileError(f"{field_name}: expected a number, got {_show(value)}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    s = _text(value)
    if not re.fullmatch(r"-?\d{1,6}", s):
        if re.fullmatch(r"-?\d+", s):
            raise ProfileError(f"{field_name}: must be between {lo} and {hi}, got {_show(value)}")
        raise ProfileError(f"{field_name}: expected a whole number, got {_show(value)}")
    n = int(s)
    if not lo <= n <= hi:
        raise ProfileError(f"{field_name}: must be between {lo} and {hi}, got {_show(value)}")
    return n


def parse_save(value: Any, field_name: str) -> int | None:
    """Parse a save such as ``"3+"``, ``3`` or ``"-"`` (no save) into 2..6 or None."""
    if value is None or (isinstance(value, str) and value.strip() in {"-", "", "none", "None"}):
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ProfileError(f"{field_name}: expected a save like '3+', got {_show(value)}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    s = _text(value)
    m = re.fullmatch(r"(\d)\+{0,2}", s)
    if not m:
        raise ProfileError(f"{field_name}: expected a save like '3+' or '-', got {_show(value)}")
    n = int(m.group(1))
    if not 2 <= n <= 6:
        raise ProfileError(f"{field_name}: a save must be 2+ to 6+, got {value!r}")
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
        raise ProfileError(f"Range: expected e.g. '48\"', '12\"-60\"', 'Template' or '-', got {_show(value)}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    s = _text(check_text(value, "Range"))
    if s in {"-", "", "Melee", ".", "=", "Bomb"}:  # '.' and '=' are data typos of '-'; Bomb has no range
        return RangeSpec(text=s or "-")
    m = re.fullmatch(r'(?i)up to\s*(\d{1,4})\s*"?', s)
    if m:
        return RangeSpec(max_in=int(m.group(1)), text=s)
    m = re.fullmatch(r'(?i)more than\s*(\d{1,4})\s*"?\s*-\s*(\d{1,4})\s*"?', s)
    if m:
        return RangeSpec(max_in=int(m.group(2)), min_in=int(m.group(1)), text=s)
    low = s.lower()
    if "hellstorm" in low:
        return RangeSpec(template="Hellstorm", text=s)
    if "template" in low:
        return RangeSpec(template="Template", text=s)
    m = re.fullmatch(r'(?:(\d{1,4})\s*"?\s*-\s*)?(\d{1,4})\s*"?', s)
    if not m:
        raise ProfileError(f"Range: expected e.g. '48\"', '12\"-60\"', 'Template' or '-', got {_show(value)}")
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
        raise ProfileError(f"Strength: expected a number or 'User', got {_show(value)}")
    if isinstance(value, float):
        if not value.is_integer():
            raise ProfileError(f"Strength: expected a whole number, got {_show(value)}")
        value = int(value)
    if isinstance(value, int) and not 1 <= value <= 20:  # a number, not a printed modifier such as "-1"
        raise ProfileError(f"Strength: must be 1..20, got {_show(value)}")
    s = _text(check_text(value, "Strength"))
    low = s.lower()
    if re.fullmatch(r"\d+", s):
        n = int(s) if len(s) <= 6 else 10**6
        if not 1 <= n <= 20:  # Titan weapons print Strengths above 10
            raise ProfileError(f"Strength: must be 1..20, got {_show(value)}")
        return StrengthSpec("fixed", n, s)
    if low in {"user", "u", "as user", "s"}:
        return StrengthSpec("user", 0, s)
    m = re.fullmatch(r"(?i)user\s*([+-])\s*(\d{1,2})", s)  # 'User+4' printed for '+4'
    if m:
        return StrengthSpec("plus", int(m.group(2)) * (1 if m.group(1) == "+" else -1), s)
    m = re.fullmatch(r"(\d{1,2})\s*[xX\u00d7]", s)  # '2x' printed for 'x2'
    if m and 1 <= int(m.group(1)) <= 10:
        return StrengthSpec("times", int(m.group(1)), s)
    if re.fullmatch(r"\d+(?:/\d+){1,2}", s):
        zones = tuple(int(x) for x in s.split("/"))
        if not all(1 <= z <= 10 for z in zones):
            raise ProfileError(f"Strength: zone Strengths must be 1..10, got {value!r}")
        return StrengthSpec("zones", zones[-1], s, zones)
    m = re.fullmatch(r"([+-])\s*(\d+)", s)
    if m:
        if len(m.group(2)) > 2:
            raise ProfileError(f"Strength: a modifier must be -10..+10, got {_show(value)}")
        return StrengthSpec("plus", int(m.group(2)) * (1 if m.group(1) == "+" else -1), s)
    m = re.fullmatch(r"[xX\u00d7]\s*(\d+)", s)
    if m:
        if len(m.group(1)) > 2 or int(m.group(1)) < 1:
            raise ProfileError(f"Strength: a multiplier must be x1..x10, got {_show(value)}")
        return StrengthSpec("times", int(m.group(1)), s)
    if s == "":
        raise ProfileError(f"Strength: a value is required, got {value!r}")
    return StrengthSpec("unknown", 0, s)


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
    "Rending", "Breaching", "Murderous Strike", "Poisoned", "Feel No Pain", "Shrouded", "Exoshock",
    "Precision Shots", "Precision Strikes", "It Will Not Die",
}


#: Rules whose value is a marker size in inches.
_SIZED_RULES = {"Blast", "Large Blast", "Massive Blast", "Apocalyptic Blast"}


def parse_rule(token: str, *, field_name: str = "rules") -> Rule:
    """Parse one rule token such as ``Rending (6+)``, ``Brutal (2)``, ``Blast (3")`` or ``Fearless``.

    Raises:
        ProfileError: for an impossible value of a known rule (``Rending (9+)``, ``Brutal (0)``).
    """
    raw = _text(check_text(token, field_name))
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
                raise ProfileError(f"{field_name}: {_show(raw)} has an impossible value {_show(num.group(1))}")
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
        raise ProfileError(f"{field_name}: {_show(raw)} needs a size of 1 to 20 inches, got {value}")
    return Rule(name=name, value=value, variant=variant, text=raw, known=known)


def parse_rules(items: Iterable[str] | str | None, *, field_name: str = "rules") -> tuple[Rule, ...]:
    """Parse a list of rule tokens (or one comma-separated string)."""
    if items is None:
        return ()
    if isinstance(items, str):
        items = [t for t in _split_tokens(check_text(items, field_name))]
    out = []
    for i, tok in enumerate(items):
        if not isinstance(tok, str):
            raise ProfileError(f"{field_name}[{i}]: expected a rule name, got {_show(tok)}")
        if tok.strip():
            out.append(parse_rule(tok, field_name=field_name))
    return _no_duplicates(tuple(out), field_name)


def _no_duplicates(rules: tuple[Rule, ...], field_name: str) -> tuple[Rule, ...]:
    """Refuse a known rule given twice (``Rending (4+)`` and ``Rending (6+)``): which would apply is unclear."""
    seen: dict[str, Rule] = {}
    for r in rules:
        if r.known and r.name in seen:
            raise ProfileError(f"{field_name}: rule {r.name!r} given twice ({seen[r.name].text!r} and {r.text!r})")
        seen[r.name] = r
    return rules


def _split_tokens(text: str) -> list[str]:
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


_SHOT_KINDS = ("Heavy", "Assault", "Pistol", "Ordnance", "Salvo", "Bomb", "Rapid Fire", "Melee", "Primary Weapon", "Destroyer")
_SHOT_RE = re.compile(
    r"^(?P<kind>Heavy|Assault|Pistol|Ordnance|Salvo|Bomb|Rapid Fire|Melee|Primary Weapon|Destroyer)(?![A-Za-z-])\s*(?P<n>.*)$",
    re.IGNORECASE,
)


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

    def has(self, name: str) -> bool:
        """True when a rule of that canonical name is present (a ``Destroyer N`` kind is the Destroyer rule)."""
        return name in self.names

    @cached_property
    def signature(self) -> tuple:
        """The rules as sorted (name, value, variant) triples, with the Destroyer kind: what the wound and
        save stages read (the shot count aside)."""
        rules = {(r.name, r.value, r.variant) for r in self.rules}
        if self.kind == "Destroyer":
            rules.add(("Destroyer", None, None))
        return tuple(sorted(rules, key=repr))

    def get(self, name: str) -> Rule | None:
        """The first rule of that canonical name, or None."""
        return next((r for r in self.rules if r.name == name), None)


def parse_weapon_type(text: Any) -> WeaponType:
    """Parse a Type line such as ``Heavy 2, Rending (6+), Breaching (4+)``.

    Typos and separators are cleaned first (see ``vocabulary.clean_type``); every correction is kept in
    ``corrections``. Unknown rule names become ``Rule(known=False)``; nothing is dropped.
    """
    from .vocabulary import clean_type

    if text is not None and not isinstance(text, str):
        raise ProfileError(f"Type: expected text such as 'Heavy 2, Rending (6+)', got {_show(text)}")
    raw = "" if text is None else check_text(text, "Type")
    cleaned, fixes = clean_type(raw)
    kind: str | None = None
    shots: DiceExpr | None = None
    rules: list[Rule] = []
    for tok in _split_tokens(cleaned):
        m = _SHOT_RE.match(tok)
        if m and kind is None:
            kind = next(k for k in _SHOT_KINDS if k.lower() == m.group("kind").lower())
            n = m.group("n").strip().strip("()").strip() or None
            if kind == "Melee":
                shots = None
            elif kind == "Destroyer" and n is None:
                rules.append(parse_rule(tok, field_name="Type"))
                kind = None
                continue
            elif n is None:
                shots = DiceExpr(0, 6, 1)
            elif "/" in n:  # Salvo 2/4: the lower number (moving)
                salvo = re.fullmatch(r"(\d{1,4})\s*/\s*(\d{1,4})", n)
                if not salvo:
                    raise ProfileError(f"Type: {_show(tok)} expects shots like 'Salvo 2/4', got {_show(n)}")
                try:
                    shots = parse_dice(int(salvo.group(1)), field="Type")
                except ValueError as exc:
                    raise ProfileError(str(exc)) from None
            else:
                try:
                    shots = parse_dice(n, field="Type")
                except ValueError as exc:
                    raise ProfileError(str(exc)) from None
            continue
        rules.append(parse_rule(tok, field_name="Type"))
    return WeaponType(kind, shots, _no_duplicates(tuple(rules), "Type"), tuple(str(c) for c in fixes), raw)


# --- records ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Weapon:
    """A weapon profile: Range, Strength, AP, Type, as printed and parsed."""

    name: str
    range: RangeSpec
    strength: StrengthSpec
    ap: int | None
    type: WeaponType

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The weapon's special rules (from Type)."""
        return self.type.rules

    def has(self, name: str) -> bool:
        """True when the weapon has the named rule."""
        return self.type.has(name) or (name == "Template" and self.range.template is not None)

    def get(self, name: str) -> Rule | None:
        """The named rule or None."""
        return self.type.get(name)

    @property
    def is_melee(self) -> bool:
        """True for a melee weapon (Type ``Melee`` or Range ``-``)."""
        return self.type.kind == "Melee"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, field_name: str = "weapon") -> Weapon:
        """Build from a SCENARIO.md weapon block (``name``, ``Range``, ``Strength``, ``AP``, ``Type``)."""
        if not isinstance(data, Mapping):
            raise ProfileError(f"{field_name}: expected an object, got {data!r}")
        _reject_unknown(data, {"name", "Range", "Strength", "AP", "Type"}, field_name)
        try:
            name = data.get("name", "weapon")
            if name is None:
                name = "weapon"
            if not isinstance(name, (str, int, float)) or isinstance(name, bool):
                raise ProfileError(f"name: expected text, got {_show(name)}")
            return cls(
                name=check_text(name, "name"),
                range=parse_range(data.get("Range", "-")),
                strength=parse_strength(data.get("Strength", "User")),
                ap=parse_ap(data.get("AP", "-")),
                type=parse_weapon_type(data.get("Type", "")),
            )
        except ProfileError as exc:
            raise ProfileError(f"{field_name}.{exc}") from None


@dataclass(frozen=True)
class Unit:
    """An attacking or target unit of identical models (a statline, a model count and rules)."""

    name: str = "unit"
    unit_type: str = "Infantry"
    models: int = 1
    WS: int | None = 4
    BS: int | None = 4
    S: int | None = 4
    T: int | None = 4
    W: int | None = 1
    I: int | None = 4  # noqa: E741 - the characteristic's name
    A: int | None = 1
    Ld: int | None = 7
    save: int | None = None
    invulnerable: int | None = None
    cover: int | None = None
    rules: tuple[Rule, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    def has(self, name: str) -> bool:
        """True when the unit has the named rule (or sub-type in its Unit Type)."""
        return any(r.name == name for r in self.rules)

    def get(self, name: str) -> Rule | None:
        """The named rule or None."""
        return next((r for r in self.rules if r.name == name), None)

    def has_type(self, word: str) -> bool:
        """True when ``word`` appears in the Unit Type (``Vehicle``, ``Heavy``, ``Dreadnought``...)."""
        return word.lower() in self.unit_type.lower()

    @property
    def is_vehicle(self) -> bool:
        """True for a unit whose Unit Type contains Vehicle."""
        return self.has_type("Vehicle")


_UNIT_FIELDS = {
    "name", "Unit Type", "models", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save", "Invulnerable",
    "Cover", "rules", "Move", "M", "Front", "Side", "Rear", "HP", "facing", "charging", "two_weapons",
    "wounds_taken", "points", "disordered", "moved",
}


def _reject_unknown(data: Mapping[str, Any], allowed: set[str], field_name: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ProfileError(f"{field_name}.{unknown[0]}: unknown field {unknown[0]!r} (allowed: {', '.join(sorted(allowed))})")


def unit_from_mapping(data: Mapping[str, Any], *, field_name: str, defaults: Mapping[str, Any] | None = None) -> Unit:
    """Build a Unit from a SCENARIO.md attacker or target block."""
    if not isinstance(data, Mapping):
        raise ProfileError(f"{field_name}: expected an object, got {data!r}")
    _reject_unknown(data, _UNIT_FIELDS, field_name)
    d = dict(defaults or {})
    d.update(data)

    def stat(key: str, lo: int = 0, hi: int = 10, allow_none: bool = True) -> int | None:
        return parse_stat(d.get(key), f"{field_name}.{key}", lo=lo, hi=hi, allow_none=allow_none)

    models = parse_stat(d.get("models", 1), f"{field_name}.models", lo=0, hi=1000)
    rules = d.get("rules", [])
    if rules is not None and not isinstance(rules, (list, tuple, str)):
        raise ProfileError(f"{field_name}.rules: expected a list of rule names, got {_show(rules)}")
    unit_type = d.get("Unit Type", "Infantry")
    if unit_type is None:
        unit_type = "Infantry"
    if not isinstance(unit_type, str):
        raise ProfileError(f"{field_name}.Unit Type: expected text, got {_show(unit_type)}")
    check_text(unit_type, f"{field_name}.Unit Type")
    name = d.get("name", field_name)
    if name is None:
        name = field_name
    if isinstance(name, bool) or not isinstance(name, (str, int, float)):
        raise ProfileError(f"{field_name}.name: expected text, got {_show(name)}")
    check_text(name, f"{field_name}.name")
    extra = {k: d[k] for k in ("Front", "Side", "Rear", "HP", "facing", "charging", "two_weapons", "wounds_taken", "disordered", "moved") if k in d}
    for flag in ("charging", "two_weapons", "disordered"):
        if flag in extra and not isinstance(extra[flag], bool):
            raise ProfileError(f"{field_name}.{flag}: expected true or false, got {_show(extra[flag])}")
    if "wounds_taken" in extra:
        extra["wounds_taken"] = parse_stat(extra["wounds_taken"], f"{field_name}.wounds_taken", lo=0, hi=30,
                                           allow_none=True) or 0
    if "facing" in extra and extra["facing"] not in {"Front", "Side", "Rear"}:
        raise ProfileError(f"{field_name}.facing: expected Front, Side or Rear, got {_show(extra['facing'])}")
    return Unit(
        name=str(name),
        unit_type=unit_type,
        models=int(models or 0),
        WS=stat("WS", 0, 10),
        BS=stat("BS", 0, 10),
        S=stat("S", 0, 10),
        T=stat("T", 1, 10),
        W=stat("W", 1 if field_name.endswith("target") else 0, 20),
        I=stat("I", 0, 10),
        A=stat("A", 0, 20),
        Ld=stat("Ld", 0, 12),
        save=parse_save(d.get("Save"), f"{field_name}.Save"),
        invulnerable=parse_save(d.get("Invulnerable"), f"{field_name}.Invulnerable"),
        cover=parse_save(d.get("Cover"), f"{field_name}.Cover"),
        rules=parse_rules(rules, field_name=f"{field_name}.rules"),
        extra=extra,
    )
