"""Blocks -> a Volley: a weapon block fired (or struck) by an attacker block, with every check ``praetor calc``
makes of a volley's fields (a document's volley and a comparison's cell built from catalog rows alike)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from praetor_analysis.engine import Volley
from praetor_analysis.errors import PraetorError, ScenarioError, scenario_error_of, show_value
from praetor_analysis.markers import wall_of_death_hits
from praetor_analysis.prob import BoundedMemo, DiceExpr, Dist, frozen_key, parse_dice
from praetor_analysis.profiles import Unit, Weapon
from praetor_analysis.rules import Role
from praetor_analysis.units.block_fields import check_unit_fields
from praetor_analysis.units.block_records import parse_unit_block, parse_weapon_block
from praetor_analysis.units.engine_records import check_weapon_mode
from praetor_analysis.units.modifiers import split_modifiers

__all__ = ["true_or_false", "volley_of_blocks"]


def true_or_false(v: Any, key: str, prefix: str = "") -> bool:
    """``v`` when it is true or false; else refused naming ``prefix + key``."""
    if not isinstance(v, bool):
        raise ScenarioError(f"{prefix}{key}: expected true or false, got {show_value(v)}", field=prefix + key, value=v)
    return v


@dataclass(frozen=True)
class _VolleyParts:
    """What :func:`volley_of_blocks` reads of its blocks and flags, all but the attack count: a volley's records
    (its weapon, its attacker), the hits given, the snap shots flag, the options taken, all checked."""

    weapon: Weapon
    attacker: Unit
    mode: str
    given: DiceExpr | Dist | None
    snap: bool
    half_range: Any  # as given: checked with the volley, after the count's checks
    taken: tuple[str, ...]


_VOLLEYS: BoundedMemo[_VolleyParts] = BoundedMemo(8192)
_COUNTED: BoundedMemo[Volley] = BoundedMemo(8192)


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
    block_keys: tuple[Hashable | None, Hashable | None] = (None, None),
) -> Volley:
    """The Volley of a weapon block fired (or struck) by an attacker block, the volley's fields given as a
    scenario gives them, with the checks ``praetor calc`` makes of them; ``prefix`` names a volley of
    ``firing_units``, ``kind`` (default ``mode``) the kind of scenario whose attacker fields act, ``taken`` the
    options already taken into the weapon block (the scenario's door takes them), ``block_keys`` the blocks'
    keys when the caller has them (the door's tokens, ``prob.token_field``), else their ``frozen_key``s made
    here; one memo holds both, and they are equal only for the same value (a dict's or list's token is an
    ``int``, never a frozen key, which is a ``tuple``; a flag's, number's or text's is the same ``(type, value)``
    pair in both). A project error is raised as a ScenarioError.

    What it reads but the attack count is parsed and checked once per distinct set of sub-documents (their
    keys): another count of them is checked as the count's own checks check it, in their order (every
    other check passed on those sub-documents); a volley that passed them all is made once per count."""
    try:
        return _volley(
            weapon_block, attacker_block, mode, attacks, (hits, snap_shots, half_range), prefix, kind or mode, taken,
            block_keys,
        )  # fmt: skip
    except ScenarioError:
        raise
    except PraetorError as exc:
        raise scenario_error_of(exc) from None


def _volley(
    weapon_block: Any,
    attacker_block: Any,
    mode: str,
    attacks: Any,
    flags: tuple[Any, Any, Any],
    prefix: str,
    kind: str,
    taken: tuple[str, ...],
    block_keys: tuple[Hashable | None, Hashable | None],
) -> Volley:
    """:func:`volley_of_blocks` itself (``flags``: the hits given, snap shots, half range)."""
    weapon_key, attacker_key = block_keys
    if weapon_key is None:
        weapon_key = frozen_key(weapon_block)
    if attacker_key is None:
        attacker_key = frozen_key(attacker_block)
    hits, snap_shots, half_range = flags
    fields = (weapon_key, attacker_key, frozen_key(hits), frozen_key(snap_shots), frozen_key(half_range))
    key = None if None in fields else (fields, mode, prefix, kind, taken)  # None: a value without a key
    count_key = frozen_key(attacks)
    counted = None if key is None or count_key is None else (key, count_key)
    if counted is not None:
        found = _COUNTED.peek(counted)
        if found is not None:
            return found
    parts = _VOLLEYS.peek(key) if key is not None else None
    if parts is None:
        parts, shots = _volley_parts(
            weapon_block, attacker_block, mode, attacks, hits, snap_shots, half_range, prefix, kind, taken
        )
        if key is not None:
            _VOLLEYS.put(key, parts)
    else:
        shots = parse_dice(attacks, field=f"{prefix}attacks") if attacks is not None else None
    volley = _counted_volley(parts, shots, attacks, prefix)
    if counted is not None:
        _COUNTED.put(counted, volley)
    return volley


def _volley_parts(
    weapon_block: Any,
    attacker_block: Any,
    mode: str,
    attacks: Any,
    hits: Any,
    snap_shots: Any,
    half_range: Any,
    prefix: str,
    kind: str,
    taken: tuple[str, ...],
) -> tuple[_VolleyParts, DiceExpr | None]:
    """:func:`volley_of_blocks`' reading and checks, in their order (the count's among them), but the checks that
    read the count with the hits given (:func:`_counted_volley`)."""
    block, modifiers = split_modifiers(attacker_block, f"{prefix}attacker")
    weapon = modifiers.apply_weapon(parse_weapon_block(weapon_block, f"{prefix}weapon"))
    attacker = modifiers.apply_unit(parse_unit_block(block, f"{prefix}attacker"))
    check_unit_fields(block, kind, "attacker", f"{prefix}attacker")
    if attacker.models < 1:
        raise ScenarioError(f"{prefix}attacker.models: must be at least 1, got {attacker.models}")
    shots = parse_dice(attacks, field=f"{prefix}attacks") if attacks is not None else None
    given: DiceExpr | Dist | None = parse_dice(hits, field=f"{prefix}hits") if hits is not None else None
    check_weapon_mode(weapon, mode, prefix)
    snap = true_or_false(snap_shots, "snap_shots", prefix)
    if snap and mode == "melee":
        raise ScenarioError(f"{prefix}snap_shots: not used in melee, got true")
    if given is not None and snap:
        raise ScenarioError(f"{prefix}snap_shots: not used when hits are given (no To Hit roll), got true")
    return _VolleyParts(weapon, attacker, mode, given, snap, half_range, taken), shots


def _counted_volley(parts: _VolleyParts, shots: DiceExpr | None, attacks: Any, prefix: str) -> Volley:
    """The volley of checked parts with its attack count: the checks that read the count with the hits given,
    and a snap-shot template's wall of death."""
    weapon, given, snap = parts.weapon, parts.given, parts.snap
    if given is not None and shots is not None and not weapon.plays(Role.GETS_HOT):
        raise ScenarioError(
            f"{prefix}attacks: not used when hits are given, but for a Gets Hot weapon's dice (one per shot), "
            f"got {show_value(attacks)}",
            field=f"{prefix}attacks",
            value=attacks,
        )
    placement = None
    if snap and given is None and weapon.plays(Role.TEMPLATE):
        given = wall_of_death_hits(weapon, parts.attacker.models, None if shots is None else shots.dist)
        snap, placement = False, "wall of death"
    return Volley(
        weapon=weapon,
        attacker=parts.attacker,
        mode=parts.mode,
        attacks=shots,
        hits=given,
        snap_shots=snap,
        half_range=true_or_false(parts.half_range, "half_range", prefix),
        placement=placement,
        taken=parts.taken,
    )
