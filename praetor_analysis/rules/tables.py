"""The game's tables as data the user can override (docs/rules.md#tables).

Each table is a module-level mapping; pass your own to the functions (or replace the constants) where
a band could not be checked against the printed rulebook.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

#: Shooting To Hit: BS -> (first roll target, second roll target for a failed first roll or None).
BS_TABLE: Mapping[int, tuple[int, int | None]] = {
    1: (6, None),
    2: (5, None),
    3: (4, None),
    4: (3, None),
    5: (2, None),
    6: (2, 6),
    7: (2, 5),
    8: (2, 4),
    9: (2, 3),
    10: (2, 2),
}


def to_hit_shooting(bs: int, table: Mapping[int, tuple[int, int | None]] = BS_TABLE) -> tuple[int, int | None]:
    """(first target, second target) for a shooting attack at ``bs`` (1..10)."""
    if bs not in table:
        raise ValueError(f"BS: must be 1..10, got {bs}")
    return table[bs]


def melee_chart_hh2(attacker_ws: int, defender_ws: int) -> int:
    """HH2's Weapon Skill chart: more than twice the defender's WS 2+, better 3+, defender's more than twice
    the attacker's 5+, else 4+."""
    if attacker_ws > 2 * defender_ws:
        return 2
    return melee_chart_three_band(attacker_ws, defender_ws)


def melee_chart_three_band(attacker_ws: int, defender_ws: int) -> int:
    """The older three-band chart: better WS 3+, defender's more than twice the attacker's 5+, else 4+."""
    if attacker_ws > defender_ws:
        return 3
    if defender_ws > 2 * attacker_ws:
        return 5
    return 4


#: The melee To Hit charts by name: (attacker WS, defender WS) -> the D6 target.
MELEE_CHARTS: Mapping[str, Callable[[int, int], int]] = {
    "hh2": melee_chart_hh2,
    "three-band": melee_chart_three_band,
}
#: The chart the engine uses; set it to "three-band" (or add your own to ``MELEE_CHARTS``) to read otherwise.
MELEE_CHART = "hh2"


def to_hit_melee(attacker_ws: int, defender_ws: int, chart: str | None = None) -> int:
    """Melee To Hit target from the named WS chart (default :data:`MELEE_CHART`, HH2's)."""
    name = MELEE_CHART if chart is None else chart
    if name not in MELEE_CHARTS:
        raise ValueError(f"chart: expected one of {', '.join(MELEE_CHARTS)}, got {name!r}")
    return MELEE_CHARTS[name](attacker_ws, defender_ws)


#: To Wound: S - T difference -> target ("None" = cannot wound). Keys clamp at the ends.
WOUND_TABLE: Mapping[int, int | None] = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6, -4: None}


def to_wound(strength: int, toughness: int, table: Mapping[int, int | None] = WOUND_TABLE) -> int | None:
    """The D6 target to wound (2..6) or None when the Strength cannot wound the Toughness."""
    diff = max(min(strength - toughness, max(table)), min(table))
    return table[diff]


def armour_usable(save: int | None, ap: int | None) -> bool:
    """True when an armour save ``save``+ is allowed against AP ``ap`` (AP <= save negates; "-" never does)."""
    if save is None:
        return False
    if ap is None:
        return True
    return ap > save
