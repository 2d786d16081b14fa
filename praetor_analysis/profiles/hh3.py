"""Edition 3 profile readers: datasheet text (the HH3 characteristic names BattleScribe prints) into typed
``Hh3Weapon`` and ``Hh3Unit`` records.

Ranged weapons read ``R``, ``FP``, ``RS``, ``AP``, ``D``, ``Special Rules``, ``Traits``; melee weapons ``IM``,
``AM``, ``SM`` in place of ``R``, ``FP``, ``RS``. Units read ``Type``, ``M``, ``WS``, ``BS``, ``S``, ``T``, ``W``,
``I``, ``A``, ``LD``, ``CL``, ``WP``, ``IN``, ``SAV``, ``INV``, ``models``, ``rules`` (a target also ``Cover``). An
edition 2 field (``Strength``, a weapon's ``Type``, ``Save``...) is refused, naming it and the field to use.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from praetor_analysis.errors import PraetorError, ProfileError, show_value
from praetor_analysis.prob import BoundedMemo, DiceExpr, frozen_key, parse_dice
from praetor_analysis.profiles.characteristics import check_text, clean_text, parse_ap, parse_save, parse_stat
from praetor_analysis.rules import DECLARATIONS, RuleRef, parse_rules

__all__ = [
    "HH2_WEAPON_FIELDS",
    "VEHICLE_SUBTYPES",
    "Hh3Unit",
    "Hh3Weapon",
    "Modifier",
    "read_type",
    "read_unit",
    "read_weapon",
    "unit_of_statline",
    "weapon_of_profile",
]

RANGED_FIELDS = frozenset({"name", "R", "FP", "RS", "AP", "D", "Special Rules", "Traits"})
MELEE_FIELDS = frozenset({"name", "IM", "AM", "SM", "AP", "D", "Special Rules", "Traits"})
UNIT_FIELDS = frozenset(
    {"name", "Type", "M", "WS", "BS", "S", "T", "W", "I", "A", "LD", "CL", "WP", "IN", "SAV", "INV", "models", "rules"}
)
TARGET_FIELDS = UNIT_FIELDS | {"Cover"}
HH3_UNIT_FIELDS = UNIT_FIELDS
"""The characteristics of a 3rd-edition unit block (``Type``, ``M``, ``WS``... ``models``, ``rules``)."""
#: Edition 2 names and the edition 3 field to use instead (a weapon's ``Type`` is its Special Rules and Traits).
HH2_WEAPON_FIELDS = {"Range": "R", "Strength": "RS", "Type": "Special Rules and Traits"}
HH2_UNIT_FIELDS = {"Unit Type": "Type", "Ld": "LD", "Save": "SAV", "Invulnerable": "INV", "Move": "M"}
_VEHICLE_FIELDS = ("Front Armour", "Side Armour", "Rear Armour", "HP", "Front", "Rear", "Side")
_STAT_HI = 20  # no upper limit in the rules; the tables read values above 10 as 10
_TRAITS = frozenset({"Assault", "Melta"})  # traits that share a rule's name: a rule only with its (X)


@dataclass(frozen=True)
class Modifier:
    """A melee weapon's IM, AM or SM: ``keep`` (the model's value), ``add`` N, ``mul`` N or ``set`` N."""

    op: str
    n: int = 0

    def apply(self, value: int) -> int:
        """The modified characteristic, never below 0."""
        if self.op == "add":
            return max(value + self.n, 0)
        if self.op == "mul":
            return max(value * self.n, 0)
        if self.op == "set":
            return self.n
        return value

    def __str__(self) -> str:
        return {"keep": "-", "add": f"{self.n:+d}", "mul": f"x{self.n}", "set": str(self.n)}[self.op]


@dataclass(frozen=True)
class Hh3Weapon:
    """One edition 3 weapon profile.

    Attributes:
        name: as printed.
        melee: True for a melee profile (``IM``/``AM``/``SM``).
        range: the longest range in inches (``15-30`` -> 30), None for Template or none given.
        firepower: FP (ranged), a number or dice rolled per weapon; None for melee.
        strength: RS (ranged); None when printed ``-`` (no Wound Test can be made).
        ap: AP number, None for ``-``.
        damage: D, a number or dice rolled per Unsaved Wound; None when printed ``-`` or ``*``.
        im, am, sm: melee modifiers (None for ranged).
        rules: Special Rules (and special rules written in the Traits column).
        traits: the Traits that are not special rules.
    """

    name: str
    melee: bool
    range: int | None
    firepower: DiceExpr | None
    strength: int | None
    ap: int | None
    damage: DiceExpr | None
    im: Modifier | None
    am: Modifier | None
    sm: Modifier | None
    rules: tuple[RuleRef, ...]
    traits: tuple[RuleRef, ...]

    def rule(self, name: str) -> RuleRef | None:
        """The first rule of that canonical name, or None."""
        return next((r for r in self.rules if r.name == name), None)

    def rule_number(self, name: str) -> int | None:
        """The number of the rule ``name`` (``Rending (5+)`` -> 5); the largest when listed twice."""
        values = [r.number(f"weapon.Special Rules.{r.name}") for r in self.rules if r.name == name]
        return max(values) if values else None


@dataclass(frozen=True)
class Hh3Unit:
    """One edition 3 unit of identical models (a target or an attacker).

    Attributes:
        name: as given.
        type: the model type (``Infantry``), and ``subtypes`` those in brackets (``Sergeant``, ``Heavy``).
        ws, bs, s, t, w, i, a, ld, cl, wp, in_: characteristics (None where printed ``-`` or not given).
        sav, inv: armour and invulnerable save target numbers (None: none); ``cover``: a target's cover save.
        models: the number of models.
        rules: the unit's special rules.
    """

    name: str
    type: str
    subtypes: frozenset[str]
    m: int | None
    ws: int | None
    bs: int | None
    s: int | None
    t: int | None
    w: int | None
    i: int | None
    a: int | None
    ld: int | None
    cl: int | None
    wp: int | None
    in_: int | None
    sav: int | None
    inv: int | None
    cover: int | None
    models: int
    rules: tuple[RuleRef, ...]

    def has_type(self, *names: str) -> bool:
        """Whether the type or a sub-type is one of ``names`` (case-insensitive)."""
        mine = {self.type.lower(), *(s.lower() for s in self.subtypes)}
        return any(n.lower() in mine for n in names)

    def rule_number(self, name: str) -> int | None:
        """The number of the unit rule ``name`` (``Feel No Pain (5+)`` -> 5): the best (lowest) when listed twice."""
        values = [r.number(f"rules.{r.name}") for r in self.rules if r.name == name]
        return min(values) if values else None


def _refuse_fields(data: Mapping[str, Any], allowed: frozenset[str], hh2: Mapping[str, str], field: str) -> None:
    for key in data:
        if key in hh2:
            raise ProfileError(
                f"{field}.{key}: an edition 2 field in an edition 3 scenario (use {hh2[key]})", field=f"{field}.{key}"
            )
        if key not in allowed:
            raise ProfileError(
                f"{field}.{key}: unknown field (allowed: {', '.join(sorted(allowed))})", field=f"{field}.{key}"
            )


def _modifier(value: Any, letter: str, field: str) -> Modifier:
    if value is None:
        return Modifier("keep")
    s = clean_text(value).replace(" ", "")
    if s.upper() in {letter, "-", ""}:
        return Modifier("keep")
    m = re.fullmatch(r"([+-]|[xX×])?(\d{1,2})", s)
    if m is None:
        raise ProfileError(f"{field}: expected {letter}, +N, -N, xN or N, got {show_value(value)}", field=field)
    n = int(m.group(2))
    sign = m.group(1)
    if sign is None:
        return Modifier("set", n)
    if sign in "+-":
        return Modifier("add", n if sign == "+" else -n)
    return Modifier("mul", n)


def _dice(value: Any, field: str) -> DiceExpr | None:
    if isinstance(value, str) and value.strip() in {"-", "*", ""}:
        return None
    try:
        return parse_dice(value if not isinstance(value, str) else value.strip(), field=field)
    except PraetorError as exc:
        raise ProfileError(str(exc), field=field, value=value) from None


def _range(value: Any, field: str) -> int | None:
    if value is None:
        return None
    s = clean_text(value).replace('"', "")
    if s.lower() in {"template", "t", "-", ""}:
        return None
    numbers = re.findall(r"\d{1,4}", s)
    if not numbers or not re.fullmatch(r"[<>]?\s*\d{1,4}(\s*-\s*>?\d{1,4})?", s):
        raise ProfileError(f"{field}: expected a range in inches, got {show_value(value)}", field=field)
    return int(numbers[-1])


def _split_traits(rules: tuple[RuleRef, ...], traits: tuple[RuleRef, ...]) -> tuple[tuple[RuleRef, ...], ...]:
    """Special rules written in the Traits column go with the rules."""
    as_rules = tuple(t for t in traits if t.name in DECLARATIONS and (t.value is not None or t.name not in _TRAITS))
    return rules + as_rules, tuple(t for t in traits if t not in as_rules)


_WEAPONS: BoundedMemo[Hh3Weapon] = BoundedMemo(4096)
_UNITS: BoundedMemo[Hh3Unit] = BoundedMemo(4096)


def read_weapon(data: Any, field: str = "weapon") -> Hh3Weapon:
    """An edition 3 weapon from its profile mapping (melee when it has ``IM``, ``AM`` or ``SM``); memoised on the
    block (:func:`~praetor_analysis.prob.frozen_key`; a bad block raises every time, naming ``field``).

    Raises:
        ProfileError: naming the field for an edition 2 or unknown field or an unreadable value.
    """
    if not isinstance(data, Mapping):
        raise ProfileError(f"{field}: expected an object, got {show_value(data)}", field=field)
    key = frozen_key(data)
    if key is None:
        return _read_weapon(data, field)
    hit = _WEAPONS.peek(key)
    if hit is None:
        hit = _read_weapon(data, field)
        _WEAPONS.put(key, hit)
    return hit


def _read_weapon(data: Mapping[str, Any], field: str) -> Hh3Weapon:
    melee = any(k in data for k in ("IM", "AM", "SM"))
    _refuse_fields(data, MELEE_FIELDS if melee else RANGED_FIELDS, HH2_WEAPON_FIELDS, field)
    return weapon_of_profile(
        data.get("name", "weapon"), melee=melee, R=data.get("R"), FP=data.get("FP"), RS=data.get("RS"),
        IM=data.get("IM"), AM=data.get("AM"), SM=data.get("SM"), AP=data.get("AP"), D=data.get("D", 1),
        special_rules=data.get("Special Rules"), traits=data.get("Traits"), field=field,
    )  # fmt: skip


def weapon_of_profile(
    name: object, *, melee: bool, R: object = None, FP: object = None, RS: object = None, IM: object = None,
    AM: object = None, SM: object = None, AP: object = None, D: object = 1, special_rules: object = None,
    traits: object = None, extra: Collection[str] = (), field: str = "weapon",
) -> Hh3Weapon:  # fmt: skip
    """An edition 3 weapon from its characteristics as printed (a typed roster or catalog profile's; None: not
    printed; ``extra``: the names of further characteristics it prints, refused as :func:`read_weapon` refuses
    them): the checks and refusals of :func:`read_weapon`, named under ``field``.

    Raises:
        ProfileError: naming the field for an edition 2 or unknown characteristic, an unreadable value, or FP or
            RS missing from a ranged profile.
    """
    _refuse_fields(dict.fromkeys(extra), MELEE_FIELDS if melee else RANGED_FIELDS, HH2_WEAPON_FIELDS, field)
    name = check_text(name, f"{field}.name")
    ap = parse_ap(AP, f"{field}.AP")
    damage = _dice(D, f"{field}.D")
    rules = parse_rules(special_rules, field=f"{field}.Special Rules")
    kinds = parse_rules(traits, field=f"{field}.Traits")
    rules, kinds = _split_traits(rules, kinds)
    if str("" if R is None else R).strip().lower() in {"template", "t"} and not any(
        r.name == "Template" for r in rules
    ):
        rules = (*rules, RuleRef("Template", None, "Template"))
    if melee:
        return Hh3Weapon(
            name, True, None, None, None, ap, damage,
            _modifier(IM, "I", f"{field}.IM"), _modifier(AM, "A", f"{field}.AM"), _modifier(SM, "S", f"{field}.SM"),
            rules, kinds,
        )  # fmt: skip
    if FP is None or RS is None:
        missing = "FP" if FP is None else "RS"
        raise ProfileError(f"{field}.{missing}: required for a ranged weapon", field=f"{field}.{missing}")
    return Hh3Weapon(
        name, False, _range(R, f"{field}.R"), _dice(FP, f"{field}.FP") or DiceExpr(0, 6, 0),
        parse_stat(RS, f"{field}.RS", hi=_STAT_HI, allow_none=True), ap, damage, None, None, None, rules, kinds,
    )  # fmt: skip


#: Sub-Types only Vehicle models carry: written alone (``Knight``), they are read as ``Vehicle (Knight)``.
VEHICLE_SUBTYPES = ("Knight", "Titan")


def read_type(value: Any, field: str) -> tuple[str, frozenset[str]]:
    """The model type and its Sub-Types (``Infantry (Sergeant, Heavy)`` -> ``Infantry``, ``{Sergeant, Heavy}``);
    the one reading of a ``Type`` for units and vehicles. A Knight or Titan is a Vehicle model for every rule, so
    ``Knight`` alone is read as ``Vehicle (Knight)`` (docs/rules-hh3.md#model-types).

    Raises:
        ProfileError: naming ``field`` for text that is not a type with its bracketed Sub-Types.
    """
    s = check_text(clean_text(value or "Infantry"), field)
    m = re.fullmatch(r"\s*([^()]+?)\s*(?:\(([^()]*)\))?\s*", s)
    if m is None:
        raise ProfileError(
            f"{field}: expected a type like 'Infantry (Sergeant, Heavy)', got {show_value(value)}", field=field
        )
    kind = m.group(1)
    subs = frozenset(p.strip() for p in (m.group(2) or "").split(",") if p.strip())
    alone = next((v for v in VEHICLE_SUBTYPES if v.lower() == kind.lower()), None)
    if alone is not None:
        return "Vehicle", subs | {alone}
    return kind, subs


def read_unit(data: Any, field: str, *, target: bool = False) -> Hh3Unit:
    """An edition 3 unit from its block (``target=True`` also reads ``Cover``; without a ``name``, ``field``
    names it); memoised on the block (:func:`~praetor_analysis.prob.frozen_key`).

    Raises:
        ProfileError: naming the field for an edition 2 or unknown field or an unreadable value.
    """
    if not isinstance(data, Mapping):
        raise ProfileError(f"{field}: expected an object, got {show_value(data)}", field=field)
    text = frozen_key(data)
    if text is None:
        return _read_unit(data, field, target)
    key = (text, target, None if "name" in data else field)
    hit = _UNITS.peek(key)
    if hit is None:
        hit = _read_unit(data, field, target)
        _UNITS.put(key, hit)
    return hit


def _read_unit(data: Mapping[str, Any], field: str, target: bool) -> Hh3Unit:
    vehicle = [k for k in _VEHICLE_FIELDS if k in data]
    if vehicle:
        raise ProfileError(
            f"{field}.{vehicle[0]}: edition 3 vehicles are resolved by the vehicles stage, not wired yet",
            field=f"{field}.{vehicle[0]}",
        )
    _refuse_fields(data, TARGET_FIELDS if target else UNIT_FIELDS, HH2_UNIT_FIELDS, field)
    stats = {k: data.get(k) for k in _STATS}
    return unit_of_statline(
        data.get("name", field),
        data.get("Type"),
        stats,
        models=data.get("models", 1),
        rules=data.get("rules"),
        cover=data.get("Cover"),
        target=target,
        field=field,
    )


_STATS = ("M", "WS", "BS", "S", "T", "W", "I", "A", "LD", "CL", "WP", "IN", "SAV", "INV")
"""The characteristics of a unit's statline, in the order they are read (a refusal names the first bad one)."""


def unit_of_statline(
    name: object, type_: object, stats: Mapping[str, object], *, models: object = 1, rules: object = None,
    cover: object = None, target: bool = False, extra: Collection[str] = (), field: str = "unit",
) -> Hh3Unit:  # fmt: skip
    """An edition 3 unit from its statline as printed (a typed roster or catalog statline's): ``stats`` by the
    characteristic names of :data:`HH3_UNIT_FIELDS` (``WS``, ``SAV``...; a missing or None one is not printed);
    ``cover`` read only for a ``target``; ``extra``: the names of further characteristics it prints, refused as
    :func:`read_unit` refuses them. The checks and refusals of :func:`read_unit`, named under ``field``.

    Raises:
        ProfileError: naming the field for an edition 2 or unknown characteristic or an unreadable value.
    """
    _refuse_fields(dict.fromkeys(extra), TARGET_FIELDS if target else UNIT_FIELDS, HH2_UNIT_FIELDS, field)
    unit_type, subtypes = read_type(type_, f"{field}.Type")

    def stat(key: str, lo: int = 0) -> int | None:
        return parse_stat(stats.get(key), f"{field}.{key}", lo=lo, hi=_STAT_HI, allow_none=True)

    count = parse_stat(models, f"{field}.models", lo=1, hi=1000)
    assert count is not None
    w = stat("W", lo=1)
    refs = parse_rules(rules, field=f"{field}.rules")
    return Hh3Unit(
        check_text(name, f"{field}.name"), unit_type, subtypes, stat("M"), stat("WS"),
        stat("BS"), stat("S"), stat("T"), w, stat("I"), stat("A"), stat("LD"), stat("CL"), stat("WP"), stat("IN"),
        parse_save(stats.get("SAV"), f"{field}.SAV"), parse_save(stats.get("INV"), f"{field}.INV"),
        parse_save(cover, f"{field}.Cover") if target else None, count, refs,
    )  # fmt: skip
