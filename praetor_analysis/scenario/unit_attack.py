"""A datasheet attacks as a unit: every model shoots or fights, with the wargear it carries.

Shooting: each group of identical models fires one ranged weapon per model, the one that takes the
most wounds off this target's models (hull points off a vehicle), unless its Unit Type lets it fire every
weapon (:data:`FIRE_ALL_TYPES`); then each weapon fires, one profile per weapon (``Missile Launcher -
Krak`` or ``- Frag``, whichever does more). Grenades are left out of shooting (one model per unit may
throw one). All the unit's volleys are one firing unit of
:func:`~praetor_analysis.engine.chain.resolve_sequence`: wounds and hull points carry over, Pinning is
tested once.

Melee: each group fights with its best melee profile for the target (Melee weapons only: a pistol is
not one; Detonation weapons only against the targets they may attack; a model with no melee weapon strikes unarmed,
Strength User, AP -), with +1 Attack on the charge and for a second melee weapon
(:func:`~praetor_analysis.melee.blows.plan_blows`), all groups' blows one sequence in Initiative
order. With ``target_weapon`` the target fights back: a whole round of
:func:`~praetor_analysis.melee.combat.resolve_combat`, which takes one uniform side, so the largest
group fights it and the others are listed under ``not_modelled``.

Results are the scenario result forms, plus ``datasheet``, ``size``, ``points``, ``phase``,
``chosen`` (which weapon each group used) and ``wounds_caused`` (wounds taken off the target's
models, for multi-wound targets; vehicles report ``hull_points``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from praetor_analysis.engine.batch import Casualties, resolve_many
from praetor_analysis.engine.chain import resolve_sequence, resolve_volley
from praetor_analysis.engine.hit_stage import may_attack
from praetor_analysis.engine.volley import TargetState, Volley
from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError
from praetor_analysis.melee.blows import Side, plan_blows
from praetor_analysis.melee.combat import resolve_combat
from praetor_analysis.prob.dist import Dist
from praetor_analysis.profiles.records import Unit, Weapon, unit_from_mapping
from praetor_analysis.rules.hooks import Role
from praetor_analysis.scenario.document import parse_cached, parse_target, resolve_names
from praetor_analysis.scenario.echo import unit_echo
from praetor_analysis.scenario.fielded import FieldedUnit, fielded_unit
from praetor_analysis.scenario.marker_volley import placed
from praetor_analysis.scenario.names import resolve_weapon
from praetor_analysis.vehicles.attack import resolve_vehicle_scenario
from praetor_analysis.vehicles.sweep import hull_points_many

__all__ = [
    "FIRE_ALL_TYPES",
    "UNARMED",
    "loadout_echo",
    "melee",
    "melee_weapons",
    "resolve_firing_units",
    "shooting",
    "shooting_volleys",
    "unit_calc",
    "wounds_caused",
]

FIRE_ALL_TYPES = ("Dreadnought", "Monstrous", "Mechanised", "Vehicle")
"""Unit Types whose models fire every weapon they carry (words of the Unit Type)."""

UNARMED = {"name": "unarmed", "Range": "-", "Strength": "User", "AP": "-", "Type": "Melee"}
"""The profile of a model with no melee weapon and no pistol."""

_UNIT_FIELDS = {"mode", "attacker", "target", "half_range", "target_weapon", "name"}


def _weapon(block: Mapping[str, Any]) -> Weapon:
    return parse_cached("weapon", block, "weapon", lambda: Weapon.from_mapping(block))


def _unit(block: Mapping[str, Any], models: int, field: str = "attacker") -> Unit:
    data = {**block, "models": models}
    return parse_cached("unit", data, field, lambda: unit_from_mapping(data, field_name=field))


def _is_grenade(w: Weapon) -> bool:
    name = w.name.casefold()
    return "grenade" in name and "launcher" not in name


def _family(w: Weapon) -> str:
    """Profiles of one weapon share the part of the name before `` - `` or `` (``."""
    return w.name.split(" - ")[0].split(" (")[0].strip().casefold()


def _score(result: Mapping[str, Any]) -> tuple[float, float]:
    if "hull_points" in result:
        return float(result["hull_points"]["mean"]), float(result["penetrating"]["mean"])
    return float(result["casualties"]["mean"]), float(result["unsaved"]["mean"])


def _merge(volleys: Sequence[Volley]) -> list[Volley]:
    """Volleys of the same weapon by models of the same shooting or striking characteristics, as one volley.

    Exact: the shots (or blows) of both are independent with the same per-shot outcome, and the chain
    takes a volley's hits in turn, so one volley of the summed models (summed blows in melee) is the
    same as the two in a row. Master-crafted (one re-roll per model) volleys are left apart.
    """
    out: list[Volley] = []
    keys: dict[tuple[Any, ...], int] = {}
    for v in volleys:
        a = v.attacker
        key = (v.weapon, v.mode, v.half_range, a.BS, a.WS, a.S, a.T, a.W, a.save, a.rules,
               a.unit_type.replace("Character, ", "").replace(", Character", "").replace("Character", ""),
               a.charging, a.two_weapons, a.disordered, a.wounds_taken)  # fmt: skip
        if v.weapon.plays(Role.ONE_REROLL_PER_MODEL) or v.hits is not None or key not in keys:
            keys.setdefault(key, len(out))
            out.append(v)
            continue
        i = keys[key]
        first = out[i]
        models = first.attacker.models + a.models
        attacks = None
        if first.attacks is not None or v.attacks is not None:
            if not (isinstance(first.attacks, Dist) and isinstance(v.attacks, Dist)):
                out.append(v)
                continue
            attacks = first.attacks + v.attacks
        out[i] = Volley(first.weapon, replace(first.attacker, models=models), first.mode, attacks, None,
                        first.snap_shots, first.half_range)  # fmt: skip
    return out


def _resolve(target: Unit, volleys: Sequence[Volley]) -> dict[str, Any]:
    """One firing unit's volleys against the target: the scenario result, plus ``wounds_caused``."""
    return resolve_firing_units(target, [volleys])


def _single(target: Unit, volley: Volley) -> tuple[float, float, float]:
    """How much one volley alone does: (wounds taken off the models, or hull points; models removed; range).

    Wounds rather than models come first, so that against multi-wound models a weapon that wounds without
    killing alone (one plasma pistol against Terminators) still counts; the sweep path when every wound
    does one damage to one-wound models or the target is a vehicle.
    """
    if target.is_vehicle or (target.W or 1) == 1:
        pmf = _quick(volley, target)
        if pmf is not None:
            mean = float(pmf @ np.arange(pmf.size))
            return mean, mean, _reach(volley.weapon)
    if target.is_vehicle:
        score = _score(_resolve(target, [volley]))
        return score[0], score[1], _reach(volley.weapon)
    r = resolve_volley(volley, target)
    wounds = wounds_caused(r.state, target).mean() if r.state is not None else r.unsaved.mean()
    return float(wounds), float(r.casualties.mean()), _reach(volley.weapon)


def _quick(volley: Volley, target: Unit) -> np.ndarray | None:
    """The pmf of models removed (hull points off a vehicle) by the batch paths, or None when the full
    result is needed (a vehicle hit that does more than remove hull points)."""
    if target.is_vehicle:
        found = hull_points_many([(volley, target)])[0]
        if isinstance(found, PraetorError):
            raise ScenarioError(str(found))
        return None if found is None else np.asarray(found["hull_points"]["pmf"])
    result = resolve_many([(volley, target)], casualties_only=True)[0]
    if not isinstance(result, Casualties):
        raise ScenarioError(str(result))
    return np.asarray(result.casualties)


def _reach(w: Weapon) -> float:
    """Longest range in inches (a tie-break: the weapon that reaches further), 0 for melee."""
    return float(w.range.max_in or 0)


def wounds_caused(state: TargetState, target: Unit) -> Dist:
    """Wounds taken off the target's models (overflow on a dying model not counted), from its final state."""
    space = state.space
    kills = space.kills_of()
    left = np.tile(np.arange(1, space.wounds + 1), space.models + 1)
    lost = np.where(kills >= space.models, space.models * space.wounds, kills * space.wounds + space.wounds - left)
    taken = target.wounds_taken
    weights = state.probs.sum(axis=0)
    return Dist.from_trusted(np.bincount(np.maximum(lost - taken, 0), weights=weights))


def _best(target: Unit, volleys: list[Volley]) -> Volley:
    if len(volleys) == 1:
        return volleys[0]
    scores = [_single(target, v) for v in volleys]
    return volleys[max(range(len(volleys)), key=lambda i: (scores[i], -i))]


def shooting(loadout: FieldedUnit, target: Unit, *, half_range: bool = False) -> dict[str, Any]:
    """The unit's shooting at the target (see the module docstring)."""
    volleys, chosen = shooting_volleys(loadout, target, half_range=half_range)
    out = _finish(loadout, target, "shooting", volleys, chosen, [])
    laid = list(dict.fromkeys(c["formation"] for c in chosen if "formation" in c))
    out["applied"] = [*out.get("applied", []), *laid]
    return out


def shooting_volleys(
    loadout: FieldedUnit, target: Unit, *, half_range: bool = False
) -> tuple[list[Volley], list[dict[str, Any]]]:
    """The volleys the unit fires at the target (its weapons chosen as :func:`shooting` chooses them), and
    ``chosen``: which weapon each group of models fires."""
    volleys: list[Volley] = []
    chosen: list[dict[str, Any]] = []
    for g in loadout.groups:
        unit = _unit(g.statline, g.count)
        ranged = [w for w in map(_weapon, g.weapons) if not w.is_melee and not _is_grenade(w)]
        if not ranged or unit.BS is None:
            continue
        laid = {w: placed(Volley(w, unit, half_range=half_range), target) for w in ranged}  # markers: default formation
        if any(unit.has_type(t) for t in FIRE_ALL_TYPES):
            families: dict[str, list[Weapon]] = {}
            for w in ranged:
                families.setdefault(_family(w), []).append(w)
            picks = [_best(target, [laid[w][0] for w in ws]) for ws in families.values()]
        else:
            picks = [_best(target, [laid[w][0] for w in ranged])]
        volleys.extend(picks)
        for v in picks:
            note = laid[v.weapon][1]
            chosen.append(
                {"model": g.model, "count": g.count, "weapon": v.weapon.name, **({"formation": note} if note else {})}
            )
    return volleys, chosen


def resolve_firing_units(target: Unit, firing_units: Sequence[Sequence[Volley]]) -> dict[str, Any]:
    """Several units' volleys in turn at one target, the damaged model (or hull points) carried over and
    Pinning tested per unit: the scenario result of ``firing_units``, plus ``wounds_caused``."""
    units = [_merge(u) for u in firing_units if u]
    if not units:
        raise ScenarioError("firing_units: no volley to resolve")
    if target.is_vehicle:
        return resolve_vehicle_scenario(target, units)
    res = resolve_sequence(target, units)
    out = res.to_dict()
    if res.state is not None:
        out["wounds_caused"] = wounds_caused(res.state, target).to_dict()
    return out


def melee_weapons(weapons: Sequence[Mapping[str, Any]], enemy: Unit) -> list[Weapon]:
    """The melee profiles a model carrying ``weapons`` (blocks) may fight ``enemy`` with (unarmed when none)."""
    return _melee_options(weapons, enemy)


def _melee_options(weapons: Sequence[Mapping[str, Any]], target: Unit) -> list[Weapon]:
    """The melee profiles a model may fight with: its Melee weapons (Detonation ones only where they may attack)."""
    found = [w for w in map(_weapon, weapons) if w.is_melee and not _is_grenade(w) and may_attack(w, target)]
    return found or [_weapon(UNARMED)]


def _group_blows(unit: Unit, options: list[Weapon], target: Unit) -> list[tuple[Volley, int, Weapon]]:
    """(volley, Initiative, weapon) for each melee profile the group could fight with."""
    out = []
    for w in options:
        others = [o for o in options if o is not w]
        second = others[0] if others else None
        blows = plan_blows(Side(unit, (w,), second), w, target)
        volley = Volley(w, unit, mode="melee", attacks=Dist.point(blows.attacks * unit.models))
        out.append((volley, blows.initiative, w))
    return out


def melee(
    loadout: FieldedUnit,
    target: Unit,
    *,
    target_weapon: Sequence[Weapon] | None = None,
    target_second: Weapon | None = None,
) -> dict[str, Any]:
    """The unit's blows at the target, or a whole round when ``target_weapon`` fights back."""
    notes: list[str] = []
    fighters = []
    for g in loadout.groups:
        unit = _unit(g.statline, g.count)
        if unit.is_vehicle or any(getattr(unit, k) is None for k in ("WS", "S", "T", "W", "I", "A")):
            notes.append(f"{g.model}: no melee statline")
            continue
        fighters.append((g, unit, _melee_options(g.weapons, target)))
    if not fighters:
        raise ScenarioError(f"attacker: {loadout.datasheet} has no model that fights in melee")
    if target_weapon is not None:
        g, unit, options = max(fighters, key=lambda f: f[0].count)
        others = [f"{f[0].count} {f[0].model}" for f in fighters if f[0] is not g]
        if others:
            notes.append(
                f"whole round with a mixed unit: only the {g.count} {g.model} fight ({', '.join(others)} left out)"
            )
        second = None if len(options) < 2 else options[1]
        result = resolve_combat(Side(unit, tuple(options), second), Side(target, tuple(target_weapon), target_second))
        out = result.to_dict()
        chosen = [{"model": g.model, "count": g.count, "weapon": out["weapons"]["attacker"]}]
        return _label(loadout, "melee", out, chosen, notes)
    volleys: list[tuple[int, Volley]] = []
    chosen = []
    for g, unit, options in fighters:
        plans = _group_blows(unit, options, target)
        best = _best(target, [p[0] for p in plans])
        init = next(p[1] for p in plans if p[0] is best)
        volleys.append((init, best))
        chosen.append({"model": g.model, "count": g.count, "weapon": best.weapon.name, "initiative": init})
    ordered = [v for _, v in sorted(volleys, key=lambda iv: -iv[0])]
    return _finish(loadout, target, "melee", ordered, chosen, notes)


def _finish(
    loadout: FieldedUnit,
    target: Unit,
    phase: str,
    volleys: list[Volley],
    chosen: list[dict[str, Any]],
    notes: list[str],
) -> dict[str, Any]:
    if not volleys:
        zero = Dist.point(0).to_dict()
        empty = {"hits": zero, "applied": [], "not_modelled": [], "no_effect": []}
        out = {**empty, "hull_points": zero, "penetrating": zero} if target.is_vehicle else {
            **empty, "wounds": zero, "unsaved": zero, "casualties": zero, "wounds_caused": zero, "pinned": 0.0
        }  # fmt: skip
        notes = [*notes, f"{loadout.datasheet}: no weapon for the {phase} phase"]
    else:
        out = _resolve(target, volleys)
    return _label(loadout, phase, out, chosen, notes)


def _label(
    loadout: FieldedUnit, phase: str, out: dict[str, Any], chosen: list[dict[str, Any]], notes: list[str]
) -> dict[str, Any]:
    out = dict(out)
    out["not_modelled"] = list(out.get("not_modelled", [])) + notes
    return {
        "datasheet": loadout.datasheet,
        "faction": loadout.faction,
        "size": loadout.size,
        "points": loadout.points,
        "phase": phase,
        "chosen": chosen,
        **out,
    }


def unit_calc(data: Mapping[str, Any]) -> dict[str, Any]:
    """A scenario whose ``attacker`` is a datasheet: the unit shoots (``mode`` shooting) or fights.

    Fields: ``attacker`` (the datasheet block), ``target``, ``mode``, ``half_range``, ``target_weapon``
    (melee: the target fights back; ``target.second_weapon`` as in a round of melee).

    Raises:
        ScenarioError: A field that is not used with a datasheet attacker, or any bad value.
    """
    unknown = sorted(set(data) - _UNIT_FIELDS)
    if unknown:
        raise ScenarioError(
            f"{unknown[0]}: not used with a datasheet attacker (its wargear attacks; change it with attacker.loadout)"
        )
    mode = data.get("mode", "shooting")
    if mode not in ("shooting", "melee"):
        raise ScenarioError(f'mode: expected "shooting" or "melee", got {mode!r}')
    if "target_weapon" in data and mode != "melee":
        raise ScenarioError(f'target_weapon: only used with "mode": "melee", got mode {mode!r}')
    loadout = fielded_unit(data["attacker"])
    resolved = resolve_names({k: v for k, v in data.items() if k != "attacker"})
    result = _unit_calc(data, mode, loadout, resolved)
    result["attacker"] = loadout_echo(loadout)
    return result


def loadout_echo(loadout: FieldedUnit) -> dict[str, Any]:
    """The result's ``attacker`` for a fielded unit: its name, faction, size and points, and each group of models
    (:func:`~praetor_analysis.scenario.echo.unit_echo` of its statline, with ``model`` and ``weapons``)."""
    groups = [
        {"model": g.model, **unit_echo(_unit(g.statline, g.count)), "weapons": [str(w.get("name")) for w in g.weapons]}
        for g in loadout.groups
    ]
    return {"name": loadout.datasheet, "faction": loadout.faction, "models": loadout.size, "points": loadout.points,
            "groups": groups}  # fmt: skip


def _unit_calc(data: Mapping[str, Any], mode: str, loadout: FieldedUnit, resolved: Mapping[str, Any]) -> dict[str, Any]:
    try:
        tblock = dict(resolved["target"]) if isinstance(resolved.get("target"), Mapping) else resolved.get("target")
        second = tblock.pop("second_weapon", None) if isinstance(tblock, dict) else None
        target = parse_target({"target": tblock} if tblock is not None else {})
        if mode == "shooting":
            half = data.get("half_range", False)
            if not isinstance(half, bool):
                raise ScenarioError(f"half_range: expected true or false, got {half!r}")
            return {**shooting(loadout, target, half_range=half), "target": unit_echo(target)}
        if "target_weapon" not in data:
            return {**melee(loadout, target), "target": unit_echo(target)}
        tw = resolved["target_weapon"]
        weapons = [Weapon.from_mapping(w, field_name="target_weapon") for w in (tw if isinstance(tw, list) else [tw])]
        second_w = None if second is None else Weapon.from_mapping(resolve_weapon(second, "target.second_weapon"))
        result = melee(loadout, target, target_weapon=weapons, target_second=second_w)
        return {**result, "target": unit_echo(target)}
    except ProfileError as exc:
        raise ScenarioError(str(exc)) from None
