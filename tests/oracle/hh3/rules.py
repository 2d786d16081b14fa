"""The tables and readings of MECHANICS-HH3.md the oracle needs, written out plainly (no engine import).

Every number here is copied from the contract's tables; each function says which section it follows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

SIXTH = Fraction(1, 6)
FACES = range(1, 7)

# Section 4: the BS table, normal row (need, critical band) and Snap Shot row.  0 = automatic, None = none.
BS_NORMAL = {1: (6, None), 2: (5, None), 3: (4, None), 4: (3, None), 5: (2, None),
             6: (2, 6), 7: (2, 5), 8: (2, 4), 9: (2, 3), 10: (0, None)}  # fmt: skip
BS_SNAP = {1: None, 2: 6, 3: 6, 4: 5, 5: 5, 6: 4, 7: 4, 8: 3, 9: 3, 10: 2}

# Section 10: the Weapon Skill table, WS_TABLE[attacker][defender] (both 1..10).
WS_TABLE = {
    1: [4, 6, 6, 6, 6, 6, 6, 6, 6, 6],
    2: [2, 4, 5, 6, 6, 6, 6, 6, 6, 6],
    3: [2, 3, 4, 5, 5, 6, 6, 6, 6, 6],
    4: [2, 2, 3, 4, 5, 5, 5, 6, 6, 6],
    5: [2, 2, 3, 3, 4, 5, 5, 5, 5, 6],
    6: [2, 2, 2, 3, 3, 4, 5, 5, 5, 5],
    7: [2, 2, 2, 3, 3, 3, 4, 5, 5, 5],
    8: [2, 2, 2, 2, 3, 3, 3, 4, 5, 5],
    9: [2, 2, 2, 2, 3, 3, 3, 3, 4, 5],
    10: [2, 2, 2, 2, 3, 3, 3, 3, 3, 4],
}

# Section 9: the Vehicle Damage Table, one D6 per Glancing Hit.
DAMAGE_TABLE = {1: "Stunned", 2: "Stunned", 3: "Pinned", 4: "Pinned", 5: "Suppressed", 6: "Suppressed"}
STATUSES = ("Pinned", "Suppressed", "Stunned", "Routed")


def ranged_hit(bs: int, snap: bool) -> tuple[int | None, int | None]:
    """(need, critical band) of one ranged Hit Test (section 4): need 0 = automatic hit (and critical),
    None = no hit possible (BS 1 snap, BS 0)."""
    if bs <= 0:
        return None, None
    bs = min(bs, 10)
    if snap:
        return BS_SNAP[bs], None
    return BS_NORMAL[bs]


def melee_hit(ws: int, defender_ws: int) -> int | None:
    """Need of one melee Hit Test (section 10); WS 0 cannot strike, a WS 0 defender counts as 1."""
    if ws <= 0:
        return None
    return WS_TABLE[min(ws, 10)][min(max(defender_ws, 1), 10) - 1]


def wound_need(s: int, t: int) -> int | None:
    """Section 5's formula on the capped values; None = no wound from the table (S 0 included)."""
    if s <= 0:
        return None
    if t <= 0:
        return 1  # every roll succeeds
    d = min(s, 10) - min(t, 10)
    if d >= 2:
        return 2
    return {1: 3, 0: 4, -1: 5, -2: 6, -3: 6}.get(d)


def test_passes(face: int, need: int | None) -> bool:
    """A Test (section 1): the natural face reaches `need`; a natural 1 always fails; None never passes."""
    return need is not None and face != 1 and face >= need


def check_passes(target: int) -> Fraction:
    """P(a 2D6 Check passes) at `target` (section 1), the 36 face pairs counted one by one."""
    if target <= 0:
        return Fraction(0)
    ok = 0
    for a, b in product(FACES, FACES):
        if a == b == 1:
            ok += 1
        elif a == b == 6:
            continue
        elif a + b <= target:
            ok += 1
    return Fraction(ok, 36)


# ------------------------------------------------------------------------------------------- dice
@dataclass(frozen=True)
class Dice:
    n: int  # number of dice
    faces: int  # 3 or 6
    plus: int


def dice(value: object) -> Dice:
    """An integer or a dice expression ("D3", "2D6", "D6+1")."""
    if isinstance(value, bool):
        raise ValueError(f"dice {value!r}")
    if isinstance(value, int):
        return Dice(0, 6, value)
    text = str(value).strip().upper().replace(" ", "")
    if text.lstrip("-").isdigit():
        return Dice(0, 6, int(text))
    m = re.fullmatch(r"(\d*)D(3|6)([+-]\d+)?", text)
    if not m:
        raise ValueError(f"dice {value!r}")
    return Dice(int(m.group(1) or 1), int(m.group(2)), int(m.group(3) or 0))


def dice_dist(expr: Dice) -> dict[int, Fraction]:
    """Distribution of a dice expression: every face of every die (a D3 is a D6 read 1-2, 3-4, 5-6)."""
    out: dict[int, Fraction] = {}
    for faces in product(FACES, repeat=expr.n):
        total = expr.plus + sum((f + 1) // 2 if expr.faces == 3 else f for f in faces)
        out[max(total, 0)] = out.get(max(total, 0), Fraction(0)) + SIXTH**expr.n
    return out


# ------------------------------------------------------------------------------------------- profiles
def number(value: object, field: str) -> int:
    text = str(value).strip().rstrip('"+')
    if not text.lstrip("-").isdigit():
        raise ValueError(f"{field} {value!r}")
    return int(text)


def save_value(value: object) -> int | None:
    """ "3+" -> 3, "-" / None -> None."""
    if value is None or str(value).strip() in ("-", "", "—"):
        return None
    return number(value, "save")


def ap_value(value: object) -> int | None:
    """AP "-" -> None (never stops a save)."""
    if value is None or str(value).strip() in ("-", ""):
        return None
    return number(value, "AP")


def modify(modifier: object, base: int) -> int:
    """Section 0's notation: a letter = unchanged; +N/-N added; xN multiplied; a bare number replaces."""
    text = str(modifier).strip().replace("×", "x")
    if text.upper() in ("I", "A", "S", ""):
        return base
    if text[0] in "+-":
        return max(base + int(text), 0)
    if text[0] in "xX":
        return max(base * int(text[1:]), 0)
    return max(int(text), 0)


def rules_of(*texts: object) -> dict[str, object]:
    """Comma-separated special rules -> {name: value}; "Rending (6+)" -> {"Rending": 6}, "Heavy (FP)" ->
    {"Heavy": "FP"}, "Armourbane" -> {"Armourbane": None}."""
    out: dict[str, object] = {}
    for text in texts:
        items = text if isinstance(text, list) else str(text or "").split(",")
        for item in items:
            item = str(item).strip()
            if item in ("", "-"):
                continue
            m = re.fullmatch(r"(.*?)\s*(?:\((.*)\))?", item)
            assert m
            name, arg = m.group(1).strip(), m.group(2)
            value: object = None
            if arg is not None:
                arg = arg.strip()
                bare = arg.rstrip('+"')
                value = int(bare) if bare.isdigit() else arg
            if name in out and value is not None and out[name] not in (None, value):
                raise ValueError(f"{name} given twice ({out[name]}, {value}): the oracle does not choose")
            if value is not None or name not in out:  # a trait never erases a rule's value (Melta)
                out[name] = value
    return out
