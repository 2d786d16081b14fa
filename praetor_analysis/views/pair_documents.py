"""A matchup's pairs and shots as the ``praetor calc`` documents that compute them: a pair's scenario (the unit's
own block when it came from a list file, else its volleys or a round of its one fighting group), a fire plan's
shot (its units firing in turn at one target) and the blocks they are made of."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from praetor_analysis.analysis import ListUnit, Pair, strikes_one_way
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.units import (
    GRENADE_PROFILES,
    NO_MODIFIERS,
    UNARMED,
    Hh3Target,
    WeaponRow,
    defender_groups,
    melee_weapons,
    shooting_volleys,
    weapon_record,
)

__all__ = ["pair_scenario", "shot_scenario", "target_weapon_blocks", "volley_blocks"]


def target_weapon_blocks(attacker: ListUnit, target: ListUnit) -> list[Mapping[str, Any]] | None:
    """The weapon blocks the target's models fight back with against the attacker when they fight as one
    group (None: it does not fight back; [] when its groups fight each with its own): their profiles, the
    second weapon (the +1 Attack) after the first when they have one (see :func:`_second_block`)."""
    if target.fighter is None or strikes_one_way(attacker) or isinstance(target.target, Hh3Target):
        return None  # a 3rd-edition round's Strike Groups are read by hh3_melee, not as weapon blocks
    defence = defender_groups(target.loadout, target.body, attacker.body)
    if len(defence) != 1:
        return []
    side, group = defence[0].side, defence[0].groups[0]
    by_name = {**{w.name: w for w in group.rows}, **GRENADE_PROFILES, UNARMED.name: UNARMED}
    return [by_name[w.name].to_block() for w in side.weapons]


def _second_block(attacker: ListUnit, target: ListUnit) -> Mapping[str, Any] | None:
    """The block of the second melee weapon of a target fighting back as one group (None: none)."""
    defence = defender_groups(target.loadout, target.body, attacker.body)
    second = defence[0].side.second_weapon if len(defence) == 1 else None
    if second is None:
        return None
    blocks = target_weapon_blocks(attacker, target) or []
    return next(b for b in blocks if str(b.get("name")) == second.name)


def _one_defender(attacker: ListUnit, target: ListUnit) -> bool:
    """Whether the target's models fight back as one group of the statline it is struck with (a calc round
    with its weapon blocks as ``target_weapon`` then gives the pair's result)."""
    defence = defender_groups(target.loadout, target.body, attacker.body)
    if len(defence) != 1 or defence[0].why:
        return False
    return replace(defence[0].side.unit, name="") == replace(target.target, name="")


def volley_blocks(unit: ListUnit, target: ListUnit, *, half_range: bool = False) -> list[dict[str, Any]]:
    """The volleys ``unit`` fires at ``target`` as ``praetor calc`` volley blocks (``attacker``, ``weapon``)."""
    try:
        _, chosen = shooting_volleys(unit.loadout, target.body, half_range=half_range)
    except (ScenarioError, ProfileError):
        return []
    used: set[tuple[int, str]] = set()
    out: list[dict[str, Any]] = []
    for c in chosen:
        for i, g in enumerate(unit.loadout.groups):
            names = [w.name for w in g.rows]
            if g.model == c.model and g.count == c.count and c.weapon in names and (i, c.weapon) not in used:
                used.add((i, c.weapon))
                weapon = g.rows[names.index(c.weapon)]
                attacker = {**g.profile.to_dict(), "models": g.count, **_modifiers(unit)}
                volley = {"attacker": attacker, "weapon": weapon.to_block()}
                block = {**volley, "half_range": True} if half_range else volley
                out.extend(dict(block) for _ in range(c.copies))  # every copy of the weapon fires
                break
    return out


def _modifiers(unit: ListUnit) -> dict[str, Any]:
    """The unit's attacker modifiers as the ``modifiers`` field of its calc attacker blocks (none: nothing)."""
    m = unit.loadout.modifiers
    return {"modifiers": m.to_block()} if m != NO_MODIFIERS else {}


def _melee_blocks(weapons: Sequence[WeaponRow], enemy: ListUnit) -> list[Mapping[str, Any]]:
    chosen = [w.name for w in melee_weapons([weapon_record(w) for w in weapons], enemy.body)]
    by_name = {w.name: w for w in weapons}
    return [by_name.get(n, UNARMED).to_block() for n in dict.fromkeys(chosen)]


def pair_scenario(pair: Pair) -> dict[str, Any] | None:
    """A ``praetor calc`` scenario that gives the pair's result: the unit's own block when it came from a
    JSON list or a roster file (its datasheet block, or ``{"roster", "unit"}``); else, for units made in code,
    shooting as ``firing_units`` of its volleys and a round of melee of a unit whose models fight as one
    group, and None for a melee with several groups striking (each at its Initiative step, which a single calc
    attacker block cannot state) and for a 3rd-edition round where the target strikes back."""
    a, t = pair.attacker, pair.target
    target = dict(t.target_block)
    if isinstance(t.target, Hh3Target):  # the 3rd edition: a roster's unit attacking, one way
        if a.source is None or (pair.phase == "melee" and t.fighter is not None):
            return None  # made in code, or a round of Strike Groups: no calc document states it
        return {"edition": "hh3", "mode": pair.phase, "attacker": dict(a.source), "target": target}
    blocks = target_weapon_blocks(a, t) if pair.phase == "melee" else None
    second = _second_block(a, t) if blocks else None
    if second is not None:
        target["second_weapon"] = dict(second)
    if a.source is not None and (blocks is None or t.source is not None or _one_defender(a, t)):
        attacker = {**a.source, **_modifiers(a)}
        if pair.phase == "melee":
            attacker["charging"] = True
        doc: dict[str, Any] = {"mode": pair.phase, "attacker": attacker, "target": target}
        if pair.half_range and pair.phase == "shooting":
            doc["half_range"] = True
        if blocks is not None and t.source is not None:  # its own models fight back, group by group
            doc["target"], doc["target_weapon"] = dict(t.source), True
        elif blocks is not None:
            doc["target_weapon"] = [dict(b) for b in blocks]
        return doc
    if pair.phase == "shooting":
        volleys = volley_blocks(a, t, half_range=pair.half_range)
        return {"firing_units": [volleys], "target": target} if volleys else None
    if blocks is None or not _one_defender(a, t):
        return None
    fighters = [
        g
        for g in a.loadout.groups
        if all(g.profile.stat(k) not in (None, "", "-") for k in ("WS", "S", "T", "W", "I", "A"))
    ]
    if len(fighters) != 1:
        return None
    g = fighters[0]
    own = _melee_blocks(g.rows, t)
    attacker = {**g.profile.to_dict(), "models": g.count, "charging": True, **_modifiers(a)}
    if len(own) > 1:
        attacker["second_weapon"] = dict(own[1])
    return {"mode": "melee", "attacker": attacker, "weapon": [dict(b) for b in own], "target": target,
            "target_weapon": [dict(b) for b in blocks]}  # fmt: skip


def shot_scenario(units: Sequence[ListUnit], target: ListUnit, *, half_range: bool = False) -> dict[str, Any]:
    """A ``praetor calc`` scenario of ``units`` firing at ``target`` in turn (``firing_units``)."""
    return {
        "firing_units": [b for b in (volley_blocks(u, target, half_range=half_range) for u in units) if b],
        "target": dict(target.target_block),
    }
