"""Attacks per model and Initiative step of one side of a combat (docs/rules.md#melee).

``plan_blows`` reads the charge, a second melee weapon (Two-handed, Specialist Weapon), Reach, Unwieldy,
Rampage (with Bulky) and Reaping Blow for one profile; ``melee.resolve_combat`` walks the round. The
readings where the rules leave room are listed in the ``melee`` module docstring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from praetor_analysis.engine import denial_note, pair_attacks, pair_denial, pair_note
from praetor_analysis.errors import ProfileError, counted_noun
from praetor_analysis.prob import Dist, parse_dice
from praetor_analysis.profiles import Rule, Unit, Weapon
from praetor_analysis.rules import Role, unlowered_type

#: Rules handled by the round itself (attack counts, Initiative, Concussive).


# --- inputs -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Side:
    """One side of a combat: a uniform unit and the melee profiles it may fight with.

    Attributes:
        unit: the models (with their ``charging``, ``disordered``, ``two_weapons`` and ``wounds_taken``).
        weapons: the profiles to choose among (one weapon, or the forms of one weapon).
        second_weapon: the other melee weapon carried, for the +1 Attack and Reach; None means a pair of the
            weapon used when ``unit.two_weapons`` is true, else no second weapon.
    """

    unit: Unit
    weapons: tuple[Weapon, ...]
    second_weapon: Weapon | None = None

    def __post_init__(self) -> None:
        if not self.weapons:
            raise ProfileError("weapon: a side needs at least one melee profile")
        for key in ("WS", "S", "T", "W", "I", "A"):
            if getattr(self.unit, key) is None:
                raise ProfileError(f"{self.unit.name}.{key}: a whole round of melee needs it, got None")
        if self.unit.models < 1:
            raise ProfileError(f"{self.unit.name}.models: must be at least 1, got {self.unit.models}")
        if self.unit.is_vehicle:
            raise ProfileError(f"{self.unit.name}.Unit Type: a whole round of melee with a Vehicle is not modelled")


@dataclass(frozen=True)
class Party:
    """One side of a combat with several groups of models (a mixed unit).

    Attributes:
        groups: each group of identical models as a ``Side`` (its statline, its count as ``unit.models``,
            the profiles it may fight with); every group strikes at its own Initiative step.
        body: all the side's models as the enemy's blows strike them (one statline: T, W, saves, WS to be
            hit, Ld), ``body.models`` the sum of the groups' counts.
    """

    groups: tuple[Side, ...]
    body: Unit

    def __post_init__(self) -> None:
        if not self.groups:
            raise ProfileError("groups: a side needs at least one group of models")
        total = sum(g.unit.models for g in self.groups)
        if total != self.body.models:
            raise ProfileError(
                f"body.models: the groups have {counted_noun(total, 'model')}, the body {self.body.models}"
            )
        Side(self.body, self.groups[0].weapons)  # the body is checked as a side is

    @staticmethod
    def of(side: Side | Party) -> Party:
        """A party of one group (a uniform side) or the party itself."""
        return side if isinstance(side, Party) else Party((side,), side.unit)


@dataclass(frozen=True)
class Blows:
    """How a side strikes with one profile: its Initiative step and attacks per model."""

    weapon: Weapon
    initiative: int
    attacks: int  # per model: A, charge, second weapon
    reaping: int = 0  # extra per model while the enemy has two or more models at the step
    rampage: Dist | None = None  # extra per model, one roll for the whole side (None: not outnumbered)
    concussive: int | None = None
    notes: tuple[str, ...] = ()
    in_effect: Mapping[str, bool] = field(default_factory=dict)  # round rules: changed something or not


def _rule(side: Side, weapon: Weapon, role: Role) -> Rule | None:
    return weapon.with_role(role) or side.unit.with_role(role)


def _model_count(unit: Unit) -> int:
    """Models for outnumbering: Bulky (X) models count X each (bare Bulky: 2)."""
    bulky = unit.with_role(Role.COUNTS_AS_MODELS)
    return unit.models * ((bulky.value or 2) if bulky else 1)


def plan_blows(side: Side, weapon: Weapon, enemy: Unit) -> Blows:
    """Initiative step and attacks per model of ``side`` fighting with ``weapon`` against ``enemy``."""
    u = side.unit
    notes: list[str] = []
    effect: dict[str, bool] = {}
    if weapon.plays(Role.GRENADE_BLOW):  # instead of attacking: one blow at step 1 (docs/rules.md#grenade-attack)
        effect["Grenade Attack"] = True
        note = ("Grenade Attack: one automatic hit a model at Initiative 1",)
        return Blows(weapon, 1, 1, notes=note, in_effect=effect)
    attacks = int(u.A or 0)
    disordered = u.disordered
    if u.charging:
        if disordered:
            notes.append("Disordered Charge (no +1 A)")
        else:
            attacks += 1
            notes.append("charging (+1 A)")
    other = side.second_weapon if side.second_weapon is not None else (weapon if u.two_weapons else None)
    bonus = False
    if other is not None:
        denial = pair_denial(weapon, other)
        if denial is not None:
            notes.append(denial_note(denial))
            effect[denial] = True
        else:
            bonus = True
            extra = pair_attacks(weapon, other)
            attacks += extra
            notes.append(pair_note(extra))
    by_reach = Role.INITIATIVE_BONUS
    reach_rules = [weapon.with_role(by_reach)] + ([other.with_role(by_reach)] if bonus and other is not None else [])
    reach = max(((r.value if r.value is not None else 1) for r in reach_rules if r is not None), default=0)
    initiative = int(u.I or 0) + reach
    effect["Reach"] = reach > 0
    if weapon.plays(Role.STRIKES_AT_ONE):
        exempt = u.has_type("Dreadnought") or u.has_type("Monstrous")
        effect["Unwieldy"] = not exempt
        if not exempt:
            initiative = 1
    rampage = None
    ramp = _rule(side, weapon, Role.OUTNUMBERED_ATTACKS)
    if ramp is not None:
        outnumbered = _model_count(enemy) > _model_count(u)
        active = outnumbered and not disordered
        effect["Rampage"] = active
        effect["Bulky"] = True
        if active:
            expr = ramp.value if ramp.value is not None else (ramp.variant or "1")
            try:
                rampage = parse_dice(expr, field="Rampage").dist
            except ValueError as exc:
                raise ProfileError(f"weapon.Type: {ramp.text!r}: {exc}") from None
    reap = _rule(side, weapon, Role.ATTACKS_WHILE_MANY)
    reaping = 0
    if reap is not None:
        reaping = reap.value if reap.value is not None else 1
        effect["Reaping Blow"] = enemy.models >= 2
    conc = weapon.with_role(Role.WS_TEST)
    concussive = None if conc is None else (conc.value if conc.value is not None else 1)
    if conc is not None:  # a Primarch or Gargantuan enemy is not affected by lowered characteristics
        effect["Concussive"] = unlowered_type(enemy.unit_type) is None
    single = weapon.with_role(Role.SINGLE_BLOW)
    if single is not None:  # Detonation: one blow a model, whatever the Attacks, the charge and the rules above
        attacks, reaping, rampage = 1, 0, None
        effect.update({k: False for k in ("Rampage", "Reaping Blow") if k in effect})
        effect[single.name] = True
        notes.append(f"{single.name}: 1 attack")
    return Blows(weapon, initiative, attacks, reaping, rampage, concussive, tuple(notes), effect)
