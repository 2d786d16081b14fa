"""Blocks -> a Volley: a weapon block fired (or struck) by an attacker block, with every check ``praetor calc``
makes of a volley's fields (a document's volley and a comparison's cell built from catalog rows alike)."""

from __future__ import annotations

from typing import Any

from praetor_analysis.engine import Volley
from praetor_analysis.errors import ScenarioError, as_scenario_error, show_value
from praetor_analysis.markers import wall_of_death_hits
from praetor_analysis.prob import DiceExpr, Dist, parse_dice
from praetor_analysis.rules import Role
from praetor_analysis.units.block_fields import check_unit_fields
from praetor_analysis.units.block_records import parse_unit_block, parse_weapon_block
from praetor_analysis.units.modifiers import split_modifiers

__all__ = ["true_or_false", "volley_of_blocks"]


def true_or_false(v: Any, key: str, prefix: str = "") -> bool:
    """``v`` when it is true or false; else refused naming ``prefix + key``."""
    if not isinstance(v, bool):
        raise ScenarioError(f"{prefix}{key}: expected true or false, got {show_value(v)}", field=prefix + key, value=v)
    return v


@as_scenario_error
def volley_of_blocks(
    weapon_block: Any,
    attacker_block: Any,
    *,
    mode: str = "shooting",
    attacks: Any = None,
    hits: Any = None,
    snap_shots: Any = False,
    half_range: Any = False,
    prefix: str = "",
    kind: str | None = None,
    taken: tuple[str, ...] = (),
) -> Volley:
    """The Volley of a weapon block fired (or struck) by an attacker block, the volley's fields given as a
    scenario gives them, with the checks ``praetor calc`` makes of them; ``prefix`` names a volley of
    ``firing_units``, ``kind`` (default ``mode``) the kind of scenario whose attacker fields act, ``taken`` the
    options already taken into the weapon block (the scenario's door takes them)."""
    kind = kind or mode
    block, modifiers = split_modifiers(attacker_block, f"{prefix}attacker")
    weapon = modifiers.apply_weapon(parse_weapon_block(weapon_block, f"{prefix}weapon"))
    attacker = modifiers.apply_unit(parse_unit_block(block, f"{prefix}attacker"))
    check_unit_fields(block, kind, "attacker", f"{prefix}attacker")
    if attacker.models < 1:
        raise ScenarioError(f"{prefix}attacker.models: must be at least 1, got {attacker.models}")
    shots = parse_dice(attacks, field=f"{prefix}attacks") if attacks is not None else None
    given: DiceExpr | Dist | None = parse_dice(hits, field=f"{prefix}hits") if hits is not None else None
    if mode == "melee" and not weapon.is_melee and weapon.type.kind not in {None, "Pistol"}:
        raise ScenarioError(f'{prefix}weapon.Type: {weapon.type.text!r} is not a melee weapon for "mode": "melee"')
    if mode == "shooting" and weapon.is_melee:
        raise ScenarioError(f'{prefix}weapon.Type: {weapon.type.text!r} is a melee weapon; use "mode": "melee"')
    if mode == "melee" and weapon.plays(Role.TEMPLATE):
        raise ScenarioError(
            f"{prefix}weapon.Range: a {weapon.range.template} range is fired, never struck with in melee",
            field=f"{prefix}weapon.Range",
            value=weapon.range.template,
        )
    snap = true_or_false(snap_shots, "snap_shots", prefix)
    if snap and mode == "melee":
        raise ScenarioError(f"{prefix}snap_shots: not used in melee, got true")
    if given is not None and snap:
        raise ScenarioError(f"{prefix}snap_shots: not used when hits are given (no To Hit roll), got true")
    if given is not None and shots is not None and not weapon.plays(Role.GETS_HOT):
        raise ScenarioError(
            f"{prefix}attacks: not used when hits are given, but for a Gets Hot weapon's dice (one per shot), "
            f"got {show_value(attacks)}",
            field=f"{prefix}attacks",
            value=attacks,
        )
    placement = None
    if snap and given is None and weapon.plays(Role.TEMPLATE):
        given = wall_of_death_hits(weapon, attacker.models, None if shots is None else shots.dist)  # markers' work
        snap, placement = False, "wall of death"
    return Volley(
        weapon=weapon,
        attacker=attacker,
        mode=mode,
        attacks=shots,
        hits=given,
        snap_shots=snap,
        half_range=true_or_false(half_range, "half_range", prefix),
        placement=placement,
        taken=taken,
    )
