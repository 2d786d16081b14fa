"""A fielded unit attacks: every model shoots or fights with the wargear it carries, and says so.

Shooting: each group of identical models fires one ranged weapon per model, the one that takes the
most wounds off this target's models (hull points off a vehicle), unless its Unit Type lets it fire every
weapon (:data:`FIRE_ALL_TYPES`); then each weapon fires, one profile per weapon (``Missile Launcher -
Krak`` or ``- Frag``, whichever does more), a weapon carried twice twice. Grenades are not thrown (one
model of a unit may throw one instead of firing). A blast or template weapon fired at a unit lands on the
target standing in its default formation (:func:`~praetor_analysis.units.formation.default_formation`:
lines of five on the base of its Unit Type, a coherency range apart), and the hits come from that geometry.
All the unit's volleys are one firing unit: wounds and hull points carry over, Pinning is tested once.

Melee: each group fights with its best melee profile for the target (Melee weapons only: a pistol is
not one; Detonation weapons only against the targets they may attack; a model with no melee weapon strikes
unarmed, Strength User, AP -), with +1 Attack on the charge and for a second melee weapon
(:func:`~praetor_analysis.melee.blows.plan_blows`), all groups' blows one sequence in Initiative order
(highest first). With ``target_weapon`` the target fights back: a whole round of
:func:`~praetor_analysis.melee.combat.resolve_combat` in which every group strikes at its own Initiative
step (groups with the same statline and melee weapons as one), the target's blows striking all the models
with the statline of the largest group (a group that differs is named under ``not_modelled``). A fielded
target (``target_unit``) fights back the same way, every group of it with its own statline and wargear at
its own step (:func:`defender_groups`; ``target_chosen`` says what each struck with), the attacker's blows
striking it with the statline it is read with as a target.

Every group of models is accounted for in ``chosen``: ``{"model", "count", "weapon", "initiative"
(melee)}`` for what it fired or struck with (``weapon`` None when it did neither, with ``why``), and
``unused``: ``{weapon: why}`` for each weapon it carried and did not use. The result's ``reasons`` say why
each note of ``not_modelled`` is there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from praetor_analysis.engine import Volley, attack_limit, may_attack, second_weapon_for, set_blows
from praetor_analysis.errors import ProfileError, ScenarioError
from praetor_analysis.melee import Party, Side, plan_blows, resolve_combat
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Unit, Weapon
from praetor_analysis.rules import Role
from praetor_analysis.units.catalog_rows import WeaponRow
from praetor_analysis.units.engine_records import unit_record, weapon_record
from praetor_analysis.units.marker_volley import placed
from praetor_analysis.units.records import FieldedUnit, ModelGroup
from praetor_analysis.units.result import Choice, Outcome, UnitAttackResult
from praetor_analysis.units.volleys import best_volley, firing_units_result, wounds_caused

__all__ = [
    "FIRE_ALL_TYPES",
    "UNARMED",
    "Defender",
    "defender_groups",
    "melee",
    "melee_weapons",
    "shooting",
    "shooting_volleys",
    "wounds_caused",
]

FIRE_ALL_TYPES = ("Dreadnought", "Monstrous", "Mechanised", "Vehicle")
"""Unit Types whose models fire every weapon they carry (words of the Unit Type)."""

UNARMED = WeaponRow("unarmed", "-", "User", "-", "Melee")
"""The profile of a model with no melee weapon."""

#: The melee profiles of wargear that a model's weapons may not carry, used only against a vehicle, Dreadnought,
#: Automata or building (docs/rules.md#grenade-attack): Krak Grenades make one automatic hit instead of the
#: model's attacks (the Strength and AP of their Wargear Item entry in the game system file); Meltabombs are
#: the game system's weapon profile (ba08-9a32-1e47-6448), one attack at Initiative 1 (Detonation, Unwieldy).
GRENADE_PROFILES: Mapping[str, WeaponRow] = {
    "Krak Grenades": WeaponRow("Krak Grenades", "-", "6", "3", "Melee, Grenade Attack"),
    "Meltabombs": WeaponRow(
        "Meltabombs", "-", "8", "1", "Melee, Detonation, Unwieldy, Armourbane (Melee), Instant Death"
    ),
}

_MELEE_STATS = ("WS", "S", "I", "A")
_ROUND_STATS = ("WS", "S", "T", "W", "I", "A")


def _weapons(g: ModelGroup, unused: dict[str, str]) -> list[Weapon]:
    """The group's weapons as records; a profile that cannot be read is named in ``unused``, with why."""
    out = []
    for row in g.rows:
        try:
            out.append(weapon_record(row))
        except (ProfileError, ScenarioError) as exc:
            unused[row.name or "weapon"] = f"its profile could not be read: {exc}"
    return out


def _is_grenade(w: Weapon) -> bool:
    name = w.name.casefold()
    return "grenade" in name and "launcher" not in name


def _family(w: Weapon) -> str:
    """Profiles of one weapon share the part of the name before `` - `` or `` (``."""
    return w.name.split(" - ")[0].split(" (")[0].strip().casefold()


def _entry(g: ModelGroup, weapon: str | None, unused: dict[str, str], **more: Any) -> Choice:
    return Choice(g.model, g.count, weapon, unused, **more)


def _better(best: str, scores: list[float], i: int, j: int, target: Unit) -> str:
    what = "hull points" if target.is_vehicle else "wounds off the models"
    return f"{best} takes more {what} here ({scores[j]:.3g} against {scores[i]:.3g})" if scores else best


def shooting(unit: FieldedUnit, target: Unit, *, half_range: bool = False) -> UnitAttackResult:
    """The unit's shooting at the target (see the module docstring)."""
    volleys, chosen, applied = _shooting_plan(unit, target, half_range)
    return _finish(unit, target, "shooting", volleys, chosen, [], applied)


def shooting_volleys(unit: FieldedUnit, target: Unit, *, half_range: bool = False) -> tuple[list[Volley], list[Choice]]:
    """The volleys the unit fires at the target (its weapons chosen as :func:`shooting` chooses them, blasts
    and templates over the target's default formation), and ``chosen`` (see the module docstring)."""
    volleys, chosen, _ = _shooting_plan(unit, target, half_range)
    return volleys, chosen


def _shooting_plan(unit: FieldedUnit, target: Unit, half_range: bool) -> tuple[list[Volley], list[Choice], list[str]]:
    volleys: list[Volley] = []
    chosen: list[Choice] = []
    applied: list[str] = []
    for g in unit.groups:
        models = unit.modifiers.apply_unit(unit_record(g.profile, g.count))
        unused: dict[str, str] = {}
        weapons = [unit.modifiers.apply_weapon(w) for w in _weapons(g, unused)]
        ranged = []
        for w in weapons:
            if w.is_melee:
                unused[w.name] = "a melee weapon: it strikes in the melee phase"
            elif _is_grenade(w):
                unused[w.name] = "a grenade: one model of a unit may throw one instead of firing; none is thrown here"
            else:
                ranged.append(w)
        if models.BS is None or not ranged:
            why = "no Ballistic Skill in its statline" if models.BS is None else "no ranged weapon"
            chosen.append(_entry(g, None, unused, why=why))
            continue
        fire_all = any(models.has_type(t) for t in FIRE_ALL_TYPES)
        if fire_all:
            families: dict[str, list[Weapon]] = {}
            for w in ranged:
                families.setdefault(_family(w), []).append(w)
            pools = list(families.values())
            rule = "another profile of the same weapon"
        else:
            pools = [ranged]
            rule = "one weapon per model"
        picks = []
        for pool in pools:
            kinds = list(dict.fromkeys(pool))  # each profile once; a model firing every weapon fires every copy
            laid = [
                placed(Volley(w, models, half_range=half_range), target) for w in kinds
            ]  # markers: default formation
            aimed = [v for v, _ in laid]
            best, scores = best_volley(target, aimed)
            j = aimed.index(best)
            for i, w in enumerate(kinds):
                if i != j and w.name != best.weapon.name:
                    unused[w.name] = f"{rule}: {_better(best.weapon.name, scores, i, j, target)}"
            note = laid[j][1]
            if note:
                applied.append(note)
            copies = pool.count(kinds[j]) if fire_all else 1
            more: dict[str, Any] = {"formation": note} if note else {}
            picks.append((best, {**more, "copies": copies} if copies > 1 else more, copies))
        volleys.extend(v for v, _, copies in picks for _ in range(copies))
        chosen.extend(_entry(g, v.weapon.name, unused if k == 0 else {}, **f) for k, (v, f, _) in enumerate(picks))
    return volleys, chosen, applied


def _melee_options(weapons: Sequence[Weapon], target: Unit) -> tuple[list[Weapon], dict[str, str]]:
    """The melee profiles a model may fight with (unarmed when none), and why each other weapon is not one."""
    found, unused = [], {}
    for w in weapons:
        if not w.is_melee:
            kind = "a pistol" if w.type.kind == "Pistol" else "a ranged weapon"
            unused[w.name] = f"{kind}: not a Melee weapon, so it does not strike in melee"
        elif _is_grenade(w):
            unused[w.name] = "a grenade: not used in melee"
        elif not may_attack(w, target):
            limit = attack_limit(w)
            who = ", ".join(limit[1]) if limit is not None else "other targets"
            unused[w.name] = f"{limit[0].name if limit else 'its rules'}: it attacks only {who}"
        else:
            found.append(w)
    return found or [weapon_record(UNARMED)], unused


def _grenades(g: ModelGroup, target: Unit) -> list[Weapon]:
    """The grenade profiles the group's wargear gives against the target (none when it may not attack it, or
    when its weapons already carry that profile)."""
    carried = {w.name or "weapon" for w in g.rows}
    out = [
        weapon_record(GRENADE_PROFILES[n])
        for n in dict.fromkeys(g.wargear)
        if n in GRENADE_PROFILES and n not in carried
    ]
    return [w for w in out if may_attack(w, target)]


def _second_weapons(options: Sequence[Weapon], w: Weapon) -> list[Weapon]:
    """The other melee weapons that may give ``w`` the +1 Attack of a second weapon: not a grenade or a
    Detonation weapon, whose rules limit the model to a single blow with them (docs/rules.md#grenade-attack).
    A second copy of ``w`` itself (a pair of lightning claws, a Leviathan's two siege claws) is one of them."""
    rest = list(options)
    del rest[next(i for i, o in enumerate(rest) if o is w)]
    return [replace(o) if o is w else o for o in rest if attack_limit(o) is None]


def melee_weapons(weapons: Sequence[Weapon], enemy: Unit) -> list[Weapon]:
    """The melee profiles a model carrying ``weapons`` may fight ``enemy`` with (unarmed when none)."""
    return _melee_options(list(weapons), enemy)[0]


def _group_blows(unit: Unit, options: list[Weapon], target: Unit) -> list[tuple[Volley, int]]:
    """(volley, Initiative) for each melee profile the group could fight with."""
    out = []
    # a Side is a whole-round fighter and needs T and W (and no Vehicle: a Walker or Knight strikes one way);
    # the attack count and Initiative never read them
    striker = replace(unit, T=unit.T if unit.T is not None else 1, W=unit.W if unit.W is not None else 1)
    if unit.is_vehicle:
        striker = replace(striker, unit_type=str(unit.unit_type).lower().replace("vehicle", "walker"))
    for w in dict.fromkeys(options):  # each profile once (a second copy counts as the second weapon)
        if w.plays(Role.GRENADE_BLOW):  # one hit a model, at Initiative 1
            out.append((Volley(w, unit, mode="melee", attacks=Dist.point(unit.models)), 1))
            continue
        blows = plan_blows(Side(striker, (w,), second_weapon_for(w, _second_weapons(options, w))), w, target)
        # the rules that set a model's attacks (Detonation's one, Rage, Cumbersome...), as a single attack has them
        charge = int(unit.charging and not unit.disordered)
        per_model = set_blows(Volley(w, unit, mode="melee"), charge, blows.attacks - int(unit.A or 0) - charge, [])
        out.append((Volley(w, unit, mode="melee", attacks=Dist.point(per_model * unit.models)), blows.initiative))
    return out


def _not_fighting(vehicle: bool, missing: Sequence[str]) -> str:
    """Why a group does not fight: a vehicle with no WS, S, I and A (a Walker or Knight has them, and strikes
    one way), a vehicle in a whole round (its hull points under the foe's blows are not modelled), or the
    characteristics its statline lacks."""
    if not vehicle:
        return f"no {', '.join(missing)} in its statline"
    if list(missing) == ["T", "W"]:
        return "a vehicle: it strikes one way (a whole round, its hull points under the foe's blows, is not modelled)"
    return "a vehicle: it does not fight"


def melee(
    unit: FieldedUnit,
    target: Unit,
    *,
    target_weapon: Sequence[Weapon] | None = None,
    target_second: Weapon | None = None,
    target_unit: FieldedUnit | None = None,
) -> UnitAttackResult:
    """The unit's blows at the target, or a whole round when ``target_weapon`` fights back, or when the
    target's own models do (``target_unit``: the fielded unit ``target`` reads, every group striking with its
    own statline and wargear at its own Initiative step)."""
    notes: list[tuple[str, str]] = []
    chosen: list[Choice] = []
    fighters = []
    if target_weapon is not None and target_unit is not None:
        raise ScenarioError("target_weapon: the target fights back with the given weapons or its own, not both")
    needed = _MELEE_STATS if target_weapon is None and target_unit is None else _ROUND_STATS
    for g in unit.groups:
        models = unit.modifiers.apply_unit(unit_record(g.profile, g.count))
        missing = [k for k in needed if getattr(models, k) is None]
        unreadable: dict[str, str] = {}
        own = [unit.modifiers.apply_weapon(w) for w in _weapons(g, unreadable)]
        options, unused = _melee_options(own, target)
        options = [*options, *(unit.modifiers.apply_weapon(w) for w in _grenades(g, target))]  # may strike instead
        unused.update(unreadable)
        if models.is_vehicle and not missing and needed is _ROUND_STATS:
            missing = ["T", "W"]  # a Walker or Knight strikes, but a whole round would need its hull points
        if missing:
            why = _not_fighting(models.is_vehicle, missing)
            chosen.append(_entry(g, None, unused, why=why))
            notes.append((f"{g.model}: {why}", "a model the data gives no melee statline does not fight here"))
            continue
        fighters.append((g, models, options, unused))
    if not fighters:
        whys = sorted({e.why for e in chosen if e.why.startswith("a vehicle: it strikes")})
        hint = f" ({whys[0]}; without target_weapon it strikes)" if whys else ""
        raise ScenarioError(f"attacker: {unit.datasheet} has no model that fights in melee{hint}")
    if target_weapon is not None or target_unit is not None:
        back: Sequence[Weapon] | FieldedUnit = target_unit if target_unit is not None else target_weapon or ()
        return _round(unit, target, fighters, chosen, notes, back, target_second)
    strikes: list[tuple[int, Volley, Choice]] = []
    for g, models, options, unused in fighters:
        plans = _group_blows(models, options, target)
        best, scores = best_volley(target, [p[0] for p in plans])
        j = next(i for i, p in enumerate(plans) if p[0] is best)
        for i, p in enumerate(plans):
            if i != j:
                unused[p[0].weapon.name] = f"one weapon per blow: {_better(best.weapon.name, scores, i, j, target)}"
        more: dict[str, Any] = {"struck": True, "initiative": plans[j][1]}
        if best.weapon.name == UNARMED.name:
            more["why"] = "no Melee weapon: it strikes unarmed, Strength User, AP -"
        strikes.append((plans[j][1], best, _entry(g, best.weapon.name, unused, **more)))
    strikes.sort(key=lambda s: -s[0])  # Initiative order, highest first (stable: ties keep the unit's order)
    chosen = [e for _, _, e in strikes] + chosen
    return _finish(unit, target, "melee", [v for _, v, _ in strikes], chosen, notes, [])


#: What the enemy's blows read of a model: a group that differs here is struck with the body's statline.
_STRUCK = ("WS", "T", "W", "save", "invulnerable", "unit_type", "rules", "Ld")


def _round(
    unit: FieldedUnit,
    target: Unit,
    fighters: list[tuple[ModelGroup, Unit, list[Weapon], dict[str, str]]],
    chosen: list[Choice],
    notes: list[tuple[str, str]],
    target_weapon: Sequence[Weapon] | FieldedUnit,
    target_second: Weapon | None,
) -> UnitAttackResult:
    """A whole round: every group fights at its own Initiative step (groups with the same statline and melee
    weapons as one); the target's blows strike all of them with the statline of the largest group. The
    target fights back with ``target_weapon``, or, a fielded unit, group by group as the attacker does."""
    order = sorted(range(len(fighters)), key=lambda k: -fighters[k][0].count)  # the largest group first
    merged: dict[tuple[Any, ...], list[int]] = {}
    for k in order:
        _, models, options, _ = fighters[k]
        merged.setdefault((replace(models, models=1), tuple(options)), []).append(k)
    sides = []
    for members in merged.values():
        _, models, options, _ = fighters[members[0]]
        count = sum(fighters[k][0].count for k in members)
        second = second_weapon_for(options[0], _second_weapons(options, options[0]))
        sides.append(Side(replace(models, models=count), tuple(options), second))
    g0, largest = fighters[order[0]][0], fighters[order[0]][1]
    total = sum(f[0].count for f in fighters)
    body = replace(largest, models=total)
    for g, models, _, _ in fighters:
        if any(getattr(models, k) != getattr(largest, k) for k in _STRUCK):
            notes.append(
                (f"attacker: {g.count} {g.model} struck with the statline of {g0.model}",
                 "the target's blows resolve one statline for the whole unit: its largest group's")
            )  # fmt: skip
    party = Party(tuple(sides), body) if len(sides) > 1 else sides[0]
    if isinstance(target_weapon, FieldedUnit):
        defence = defender_groups(target_weapon, target, body)
        foe: Side | Party = Party(tuple(d.side for d in defence), target)
        one = defence[0].side
        if len(defence) == 1 and not defence[0].why and replace(one.unit, name="") == replace(target, name=""):
            foe = Side(target, one.weapons, one.second_weapon)  # one group of the statline it is struck with
        why = "a model the data gives no melee statline does not fight here"
        notes.extend((f"target: {g.count} {g.model}: {d.why}", why) for d in defence if d.why for g in d.groups)
    else:
        defence = []
        foe = Side(target, tuple(target_weapon), target_second)
    result = resolve_combat(party, foe)
    extra: dict[str, Any] = {}
    picks = result.groups[0] if result.groups is not None else (result.attacker_strikes,)
    entries = []
    for (_, members), strikes in zip(merged.items(), picks, strict=True):
        for k in members:
            g, _, _, unused = fighters[k]
            entries.append((k, _entry(g, strikes.weapon.name, unused, struck=True, initiative=strikes.initiative)))
    chosen[:0] = [e for _, e in sorted(entries, key=lambda e: -int(e[1].initiative or 0))]
    if defence:
        back = result.groups[1] if result.groups is not None else (result.target_strikes,)
        rows = [e for d, strikes in zip(defence, back, strict=True) for e in _target_entry(d, strikes)]
        extra["target_chosen"] = [e.to_dict() for e in sorted(rows, key=lambda e: -int(e.initiative or 0))]
    return _label(unit, "melee", Outcome.of(result, target), chosen, notes, [], target, extra)


@dataclass(frozen=True)
class Defender:
    """Models of a fighting-back target that strike as one group: the ``side`` (their statline, count and
    melee profiles) and the unit's groups it stands for, with why each weapon they carry is not a profile."""

    side: Side
    groups: tuple[ModelGroup, ...]
    unused: tuple[dict[str, str], ...]
    why: str = ""


def defender_groups(unit: FieldedUnit, body: Unit, enemy: Unit) -> list[Defender]:
    """How the models of ``unit`` (read as the target ``body``) fight back against ``enemy``: each group with
    its own statline and its melee profiles (unarmed when none; Krak Grenades and Meltabombs of its wargear
    when they may attack ``enemy``) as the attacker's groups are chosen, groups of the same statline and
    profiles as one, the largest first. A group with no WS, S, I or A in its statline (or a vehicle) makes no
    attack (``why`` says so); the enemy's blows strike every model with ``body``'s statline."""
    merged: dict[tuple[Any, ...], list[tuple[ModelGroup, Unit, tuple[Weapon, ...], dict[str, str], str]]] = {}
    for g in sorted(unit.groups, key=lambda g: -g.count):
        unused: dict[str, str] = {}
        models = unit_record(g.profile, g.count, "target")
        missing = [k for k in _MELEE_STATS if getattr(models, k) is None]
        models = replace(models, **{k: getattr(body, k) for k in _ROUND_STATS if getattr(models, k) is None})
        why = ""
        options: tuple[Weapon, ...]
        if models.is_vehicle or missing or any(getattr(models, k) is None for k in _ROUND_STATS):
            why = "a vehicle: it does not fight" if models.is_vehicle else f"no {', '.join(missing)} in its statline"
            models, options = replace(body, models=g.count, A=0), (weapon_record(UNARMED),)
        else:
            unreadable: dict[str, str] = {}
            found, unused = _melee_options(_weapons(g, unreadable), enemy)
            unused.update(unreadable)
            options = (*found, *_grenades(g, enemy))
        merged.setdefault((replace(models, models=1), options, why), []).append((g, models, options, unused, why))
    out = []
    for members in merged.values():
        _, models, options, _, why = members[0]
        second = second_weapon_for(options[0], _second_weapons(options, options[0]))
        count = sum(m[0].count for m in members)
        side = Side(replace(models, models=count), options, second)
        out.append(Defender(side, tuple(m[0] for m in members), tuple(m[3] for m in members), why))
    return out


def _target_entry(d: Defender, strikes: Any) -> list[Choice]:
    if d.why:
        return [_entry(g, None, u, struck=True, why=d.why) for g, u in zip(d.groups, d.unused, strict=True)]
    return [
        _entry(g, strikes.weapon.name, u, struck=True, initiative=strikes.initiative)
        for g, u in zip(d.groups, d.unused, strict=True)
    ]


def _finish(
    unit: FieldedUnit,
    target: Unit,
    phase: str,
    volleys: list[Volley],
    chosen: list[Choice],
    notes: list[tuple[str, str]],
    applied: list[str],
) -> UnitAttackResult:
    if not volleys:
        notes = [*notes, (f"no weapon for the {phase} phase", "no model carries one that acts")]  # the unit: its label
        return replace(_label(unit, phase, Outcome.of(None, target), chosen, notes, applied, target), no_weapon=True)
    return _label(unit, phase, firing_units_result(target, [volleys]), chosen, notes, applied, target)


def _label(
    unit: FieldedUnit,
    phase: str,
    outcome: Outcome,
    chosen: list[Choice],
    notes: list[tuple[str, str]],
    applied: list[str],
    target: Unit,
    extra: Mapping[str, Any] | None = None,
) -> UnitAttackResult:
    engine = outcome.engine
    notes = [*notes, *((n, "left out when the unit was read") for n in unit.notes)]
    return UnitAttackResult(
        datasheet=unit.datasheet,
        faction=unit.faction,
        size=unit.size,
        points=unit.points,
        phase=phase,
        outcome=outcome,
        target_models=target.models,
        chosen=tuple(chosen),
        applied=tuple(dict.fromkeys([*(engine.applied if engine is not None else ()), *applied, *unit.readings])),
        not_modelled=(*(engine.not_modelled if engine is not None else ()), *(n for n, _ in notes)),
        reasons=dict(notes),
        extra=dict(extra or {}),
    )
