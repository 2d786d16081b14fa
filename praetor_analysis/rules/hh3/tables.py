"""The 3rd edition's tables, as data: Ballistic Skill (normal and Snap rows, critical bands), the Weapon Skill
chart, the wound formula, cover values and the 2D6 Check.

Every table is a frozen record the caller may replace (``Hh3Tables(bs_normal=...)``); :data:`TABLES` holds the
printed values. A value above 10 reads row or column 10; a value of 0 is handled by the caller (no attack).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

__all__ = [
    "AUTOMATIC",
    "TABLES",
    "Hh3Tables",
    "check_pass",
    "wound_target",
]

AUTOMATIC = 1
"""A hit target number of 1: no die is rolled, the hit is automatic (and counts as a natural 6)."""

# BS 1..10 (index 0 is BS 1). None: no die can hit.
_BS_NORMAL = (6, 5, 4, 3, 2, 2, 2, 2, 2, AUTOMATIC)
_BS_CRITICAL = (None, None, None, None, None, 6, 5, 4, 3, 1)  # the natural result from which a hit is Critical
_BS_SNAP: tuple[int | None, ...] = (None, 6, 6, 5, 5, 4, 4, 3, 3, 2)

# Rows: attacker's WS 1..10; columns: defender's WS 1..10.
_WS_CHART = (
    (4, 6, 6, 6, 6, 6, 6, 6, 6, 6),
    (2, 4, 5, 6, 6, 6, 6, 6, 6, 6),
    (2, 3, 4, 5, 5, 6, 6, 6, 6, 6),
    (2, 2, 3, 4, 5, 5, 5, 6, 6, 6),
    (2, 2, 3, 3, 4, 5, 5, 5, 5, 6),
    (2, 2, 2, 3, 3, 4, 5, 5, 5, 5),
    (2, 2, 2, 3, 3, 3, 4, 5, 5, 5),
    (2, 2, 2, 2, 3, 3, 3, 4, 5, 5),
    (2, 2, 2, 2, 3, 3, 3, 3, 4, 5),
    (2, 2, 2, 2, 3, 3, 3, 3, 3, 4),
)


def _cap(value: int) -> int:
    return min(max(value, 1), 10)


@dataclass(frozen=True)
class Hh3Tables:
    """The hit tables of the 3rd edition; replace a field to play with other values.

    Attributes:
        bs_normal: target number by BS 1..10 (``AUTOMATIC`` = no roll).
        bs_critical: natural result from which a successful hit is Critical, by BS (None: no band).
        bs_snap: Snap Shot target number by BS (None: no Snap Shot can hit).
        ws_chart: melee target number, rows the attacker's WS 1..10, columns the defender's.
    """

    bs_normal: tuple[int, ...] = _BS_NORMAL
    bs_critical: tuple[int | None, ...] = _BS_CRITICAL
    bs_snap: tuple[int | None, ...] = _BS_SNAP
    ws_chart: tuple[tuple[int, ...], ...] = _WS_CHART

    def ranged(self, bs: int, *, snap: bool) -> tuple[int | None, int | None]:
        """(target number, critical band) for a ranged Hit Test at ``bs`` (>= 1); the target is None when no
        die can hit, ``AUTOMATIC`` when no die is rolled; Snap Shots have no critical band."""
        i = _cap(bs) - 1
        if snap:
            return self.bs_snap[i], None
        return self.bs_normal[i], self.bs_critical[i]

    def melee(self, ws_attacker: int, ws_defender: int) -> int:
        """The melee target number (a defender's WS 0 counts as 1)."""
        return self.ws_chart[_cap(ws_attacker) - 1][_cap(ws_defender) - 1]


TABLES = Hh3Tables()
"""The printed tables."""


def wound_target(strength: int, toughness: int) -> int | None:
    """The Wound Test's target number for Strength against Toughness, both read at most 10: S >= T+2: 2+,
    T+1: 3+, T: 4+, T-1: 5+, T-2 or T-3: 6+, lower: None (no wound). Reproduces the printed 10 x 10 table."""
    diff = min(strength, 10) - min(toughness, 10)
    if diff >= 2:
        return 2
    if diff >= -1:
        return 4 - diff
    if diff >= -3:
        return 6
    return None


@cache
def check_pass(target: int) -> float:
    """P(pass) of a 3rd edition Check: 2D6 <= ``target``; two 1s always pass, two 6s always fail; a target
    of 0 or less fails with no dice rolled."""
    if target <= 0:
        return 0.0
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= target)
    if target < 2:
        ways += 1  # double 1
    if target >= 12:
        ways -= 1  # double 6
    return ways / 36.0
