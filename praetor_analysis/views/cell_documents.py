"""A comparison's cell as the ``praetor calc`` document that computes it: what the dashboard saves as its setup,
and what ``praetor calc`` of the document gives is the cell's row of :func:`~praetor_analysis.analysis.compare`
(the numbers, the lists and the errors)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pandas as pd

from praetor_analysis.analysis import DEFAULT_ATTACKER, AttackerProfile, check_options
from praetor_analysis.errors import PraetorError, as_scenario_error, show_value
from praetor_analysis.profiles import Weapon
from praetor_analysis.units import STRIKING, UnitRow, WeaponRow, parse_weapon_block

__all__ = ["build_scenario", "scenario_for"]


def build_scenario(
    weapon: Mapping[str, Any],
    target: Mapping[str, Any],
    attacker: Mapping[str, Any],
    *,
    attacks: Any = None,
    half_range: bool = False,
    parsed: Weapon | None = None,
) -> tuple[dict[str, Any], list[str], Weapon]:
    """The scenario of one weapon block on one target block, notes for ``not_modelled`` (none: a marker
    weapon is laid over the default formation by ``calc`` itself), the parsed weapon (``parsed``, when given,
    is the weapon block already parsed)."""
    if parsed is None:
        parsed = as_scenario_error(parse_weapon_block)(weapon)  # its error as calc says it
    scenario: dict[str, Any] = {
        "mode": "melee" if parsed.is_melee else "shooting",
        "attacker": dict(attacker) if parsed.is_melee else {k: v for k, v in attacker.items() if k not in STRIKING},
        "weapon": dict(weapon),
        "target": dict(target),
    }
    if half_range and not parsed.is_melee:  # a sweep's options apply where they act
        scenario["half_range"] = True
    if attacks is not None:
        scenario["attacks"] = attacks  # a marker weapon's: the markers (its shots)
    return scenario, [], parsed


def scenario_for(
    weapon_row: Mapping[str, Any] | Any,
    target_row: Mapping[str, Any] | Any,
    *,
    attacker: AttackerProfile | None = None,
    attacks: Any = None,
    half_range: bool = False,
) -> dict[str, Any]:
    """The docs/scenario.md scenario :func:`compare` computes for one weapon row and one target row.

    Args:
        weapon_row: A weapon catalog row (or mapping).
        target_row: A target or unit catalog row (or mapping).
        attacker: The attacker (default :data:`~praetor_analysis.analysis.DEFAULT_ATTACKER`, one Legionary).
        attacks: Shots (or blows, or markers for a marker weapon) instead of the weapon's own count.
        half_range: Rapid Fire and Melta at half range.

    Returns:
        The scenario mapping, ready for :func:`~praetor_analysis.scenario.calc`.
    """
    _check_row(weapon_row, "weapon_row")
    _check_row(target_row, "target_row")
    check_options(attacker, half_range)
    return build_scenario(
        WeaponRow.from_row(weapon_row).to_block(),
        UnitRow.from_row(target_row).to_block(),
        (attacker or DEFAULT_ATTACKER).to_block(),
        attacks=attacks,
        half_range=half_range,
    )[0]


def _check_row(value: Any, field: str) -> None:
    if not isinstance(value, (Mapping, pd.Series)):
        raise PraetorError(f"{field}: expected a catalog row or a mapping, got {show_value(value)}", field=field)
