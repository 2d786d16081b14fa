"""Reading an HH3 scenario document into the plain records the oracle rolls dice for.

Independent of praetor_analysis.  Each field follows SCENARIO.md's "Edition 3" and MECHANICS-HH3 sections
0, 3, 9 and 10; the readings the oracle takes where the contract leaves room are in enumerate.py's docstring.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from .rules import (
    Dice,
    ap_value,
    dice,
    dice_dist,
    melee_hit,
    modify,
    number,
    ranged_hit,
    rules_of,
    save_value,
    wound_need,
)


@dataclass(frozen=True)
class Unit:
    """One side: a unit of identical models (or a vehicle)."""

    models: int
    W: int
    T: int
    WS: int
    S: int
    I: int
    A: int
    BS: int
    LD: int
    CL: int
    sav: int | None
    inv: int | None
    cover: int | None
    rules: dict
    type: str
    vehicle: bool
    armour: dict  # facing -> armour value
    HP: int
    facing: str

    @property
    def heavy_subtype(self) -> bool:
        return "heavy" in self.type.lower() and not self.vehicle

    @property
    def glances_cost_hp(self) -> bool:
        low = self.type.lower()
        return "super-heavy" in low or "flyer" in low

    @property
    def immune(self) -> bool:
        """Section 14: Flyers never gain a status; Automata pass every Check (a unit entirely of them)."""
        low = self.type.lower()
        return "flyer" in low or "automata" in low

    @property
    def poison_needs_six(self) -> bool:
        low = self.type.lower()
        return any(word in low for word in ("walker", "automata", "artifica"))

    @property
    def shock_able(self) -> bool:
        return self.vehicle or "walker" in self.type.lower()


def unit(block: dict, *, melee: bool = False) -> Unit:
    kind = str(block.get("Type", "Infantry"))
    armour = {}
    for facing in ("Front", "Side", "Rear"):
        for field in (f"{facing} Armour", facing):
            if field in block:
                armour[facing] = number(block[field], field)
                break
    if "Side" not in armour and "Rear" in armour:
        armour["Side"] = armour["Rear"]  # a Knight's side hits use Rear (section 9)
    vehicle = "vehicle" in kind.lower() or "knight" in kind.lower()

    def num(field: str, default: int) -> int:
        return number(block[field], field) if field in block else default

    return Unit(
        models=num("models", 1),
        W=num("W", 1),
        T=num("T", 4),
        WS=1 if vehicle and "WS" not in block else num("WS", 4),  # vehicles count as WS 1
        S=num("S", 4),
        I=num("I", 4),
        A=num("A", 1),
        BS=num("BS", 4),
        LD=num("LD", 7),
        CL=num("CL", 7),
        sav=None if vehicle else save_value(block.get("SAV")),
        inv=save_value(block.get("INV")),
        cover=None if melee else save_value(block.get("Cover")),
        rules=rules_of(block.get("rules") or []),
        type=kind,
        vehicle=vehicle,
        armour=armour,
        HP=num("HP", 0),
        facing=str(block.get("facing", "Front")).title(),
    )


@dataclass(frozen=True)
class Strike:
    """One group of attacks after every modifier: what each die is rolled against."""

    shooting: bool
    hit_need: int | None  # 0 = automatic (and critical), None = cannot hit
    crit_from: int | None  # natural result from which a successful hit is Critical
    rending: int | None
    precision: bool
    overload: int | None
    shock: str | None
    strength: int
    ap: int | None
    damage: Dice
    damage_times: int  # Ordnance (D)
    damage_plus: int  # Heavy (D)
    breaching: int | None
    shred: int | None
    poisoned: int | None
    armourbane: bool
    melta: bool
    armour_breaker: int | None
    deflagrate: int | None
    rules: dict

    def wound_need(self, t: int) -> int | None:
        return wound_need(self.strength, t)


def _x(rules: dict, name: str) -> int | None:
    value = rules.get(name)
    if name not in rules:
        return None
    if isinstance(value, int):
        return value
    raise ValueError(f"{name} ({value})")


def improve_ap(ap: int | None) -> int | None:
    return None if ap is None else max(ap - 1, 2)


def strike(weapon: dict, attacker: Unit, target: Unit, doc: dict, *, melee: bool) -> Strike:
    """The weapon as the attacker uses it against the target (sections 3, 4, 5, 9, 10)."""
    rules = rules_of(weapon.get("Special Rules"), weapon.get("Traits"))
    stationary = bool(doc.get("stationary")) and not melee
    heavy = rules.get("Heavy") if stationary else None
    ordnance = rules.get("Ordnance") if stationary else None
    if melee:
        s = modify(weapon.get("SM", "S"), attacker.S)
        need = melee_hit(attacker.WS, target.WS)  # a vehicle's WS is 1 unless it has one (a Knight)
        band = None
    else:
        s = number(weapon["RS"], "RS")
        need, band = ranged_hit(attacker.BS, bool(doc.get("snap_shots")))
    ap = ap_value(weapon.get("AP"))
    if heavy == "RS":
        s += 1
    if ordnance == "RS":
        s *= 2
    if heavy == "AP":
        ap = improve_ap(ap)
    if ordnance == "AP":
        ap = 2
    crit = _x(rules, "Critical Hit")
    crit_from = min(x for x in (crit, band) if x is not None) if crit or band else None
    snap = bool(doc.get("snap_shots")) and not melee
    poisoned = _x(rules, "Poisoned")
    if poisoned is not None and target.poison_needs_six:
        poisoned = 6
    melta_x = rules.get("Melta")
    in_melta = (
        target.vehicle
        and melta_x is not None
        and doc.get("range") is not None
        and number(doc["range"], "range") <= number(melta_x, "Melta")
    )
    return Strike(
        shooting=not melee,
        hit_need=need,
        crit_from=crit_from,
        rending=None if target.vehicle else _x(rules, "Rending"),
        precision="Precision" in rules and not snap,
        overload=None if melee else _x(rules, "Overload"),
        shock=str(rules["Shock"]) if "Shock" in rules and target.shock_able else None,
        strength=s,
        ap=ap,
        damage=dice(weapon.get("D", 1)),
        damage_times=2 if ordnance == "D" else 1,
        damage_plus=1 if heavy == "D" else 0,
        breaching=None if target.vehicle else _x(rules, "Breaching"),
        shred=None if target.vehicle else _x(rules, "Shred"),
        poisoned=None if target.vehicle else poisoned,
        armourbane="Armourbane" in rules or in_melta,
        melta=in_melta,
        armour_breaker=_x(rules, "Armour-breaker") if target.vehicle else None,
        deflagrate=_x(rules, "Deflagrate"),
        rules=rules,
    )


def dice_count(weapon: dict, attacker: Unit, doc: dict, *, melee: bool) -> dict[int, Fraction]:
    """Distribution of the number of Hit Test dice (section 3; section 10 for melee attacks)."""
    if doc.get("attacks") is not None:
        return dice_dist(dice(doc["attacks"]))
    if melee:
        return {modify(weapon.get("AM", "A"), attacker.A) * attacker.models: Fraction(1)}
    rules = rules_of(weapon.get("Special Rules"), weapon.get("Traits"))
    stationary = bool(doc.get("stationary"))
    per = dice_dist(dice(weapon["FP"]))
    if stationary and rules.get("Heavy") == "FP":
        per = {k + 1: p for k, p in per.items()}
    if stationary and rules.get("Ordnance") == "FP":
        per = {k * 2: p for k, p in per.items()}
    total = {0: Fraction(1)}
    for _ in range(attacker.models):  # each weapon rolls its own FP
        nxt: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in per.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
        total = nxt
    return total


def quarter(models: int) -> int:
    """The 25% casualties threshold (section 14): ceil(N / 4)."""
    return math.ceil(models / 4)
