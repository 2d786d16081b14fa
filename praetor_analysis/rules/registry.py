"""One declaration per special rule: its name and spellings, its parameter, the stages it acts on.

A :class:`RuleDecl` says what a rule is; the stages of the engine ask the declarations what to do
(``RuleDecl.on_wound``, ``on_save``...), and :mod:`praetor_analysis.rules.classify` sorts the rules of an
attack into applied / no effect / not modelled from the stages alone. Adding a rule is one ``declare``
call in the module of its family (``rules/*_rules.py``) plus its tests; :mod:`praetor_analysis.rules.catalogue`
imports every family and answers look-ups.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from praetor_analysis.rules.hooks import NO_HOOKS, Hooks, Role
from praetor_analysis.rules.target_reads import NO_READS, TargetReads, reads


class Stage(Enum):
    """Where in an attack a rule acts."""

    ATTACKS = "attack count"
    TO_HIT = "to hit"
    TO_WOUND = "to wound"
    AP = "AP"
    SAVES = "saves"
    MITIGATION = "damage mitigation"
    DAMAGE = "damage"
    MARKERS = "markers and templates"
    PLACEMENT = "where a marker, template or beam lands and whom it touches"
    VEHICLES = "vehicles"
    MELEE_ATTACKS = "melee attack count"
    INITIATIVE = "initiative order"
    ROUND = "a whole round of combat"
    MORALE = "morale"
    ALLOCATION = "who is allocated the wound"
    ELSEWHERE = "outside the attack (movement, targeting, later turns)"
    OPTION = "an option the attacker may take (the scenario's options): not computed unless taken"


class Holder(Enum):
    """Who carries a rule: a weapon (its Type line) or a unit (its rules or Unit Type)."""

    WEAPON = "weapon"
    UNIT = "unit"


@dataclass(frozen=True)
class Param:
    """A rule's parameter: ``kind`` is "none", "roll" (X+), "count" (a number), "inches" or "text"."""

    kind: str = "none"
    lo: int = 0
    hi: int = 0
    default: int | None = None


NO_PARAM = Param()


def roll(default: int | None = None) -> Param:
    """An ``(X+)`` parameter, 2+ to 6+."""
    return Param("roll", 2, 6, default)


def count(lo: int = 0, hi: int = 10, default: int | None = None) -> Param:
    """A numeric parameter such as Brutal's ``(2)``."""
    return Param("count", lo, hi, default)


def marker_size(size: int) -> Param:
    """A marker's own size in inches: the only size its rule may print (``Blast (3")``; a 5" marker is the
    Large Blast, not ``Blast (5")``)."""
    return Param("inches", size, size, size)


TEXT = Param("text")


@dataclass(frozen=True)
class RuleOption:
    """What taking an option rule makes of the weapon's profile (the scenario's ``options``;
    ``scenario.options`` rewrites the block).

    Attributes:
        gives: what taking it changes, in our own words.
        adds: rule texts added to the Type.
        choices: for an option with a choice in brackets (Fighting Style), the rule texts each choice adds.
        strength: the Strength it sets, if any (Charged Attacks: ``x3``).
        shots_times: the weapon's shots multiplied by this (Reactor Overload: 2).
        cost: what it costs the attacker, outside these numbers ("" for nothing).
    """

    gives: str
    adds: tuple[str, ...] = ()
    choices: tuple[tuple[str, tuple[str, ...]], ...] = ()
    strength: str | None = None
    shots_times: int = 1
    cost: str = ""


@dataclass(frozen=True)
class RuleDecl:
    """What a special rule is, once.

    Attributes:
        name: canonical spelling.
        stages: where it acts.
        holder: a weapon rule or a unit rule.
        param: its parameter.
        spellings: other spellings met in the data (folded to ``name``).
        sides: for unit rules, which side's copy acts: ``{"target"}`` (default), ``{"attacker"}``, both.
        modelled: False for a rule the engine knows by name but does not compute yet.
        wound_targets: unit types on which its To Wound effect acts (None: any unit).
        pending: stages it acts on that the engine does not compute yet (a resolution that models one of
            them lists the rule under ``not_modelled``; elsewhere it is classified as usual).
        summary: one line, in our own words, of what the engine does with it (or why it changes nothing).
        reads: what of the target its wound, save and damage hooks read beyond Toughness, saves and cover
            (the words of ``wound_targets`` included; :mod:`praetor_analysis.rules.target_reads`).
        hooks: its stage functions (:class:`~praetor_analysis.rules.hooks.Hooks`).
        auto_hit: every shot or blow hits without a roll (Retaliation).
        reads_hit_six: its wound hook reads the To Hit die of the hit (``WoundSituation.hit_six``).
        variant_gated: it acts only in the mode its variant names (``(Melta)`` at half range...).
        condition: when it acts in the wound chain, from the situation (a ``rules.classify.Situation``).
        acts_on: when it acts, from its variant, the target's name and Unit Type (Preferred Enemy (X)).
        roles: what it does to the attack as a whole (:class:`~praetor_analysis.rules.hooks.Role`).
        only_targets: the Unit Type words of the only targets it may attack (Detonation); None: any.
        leadership: the Leadership modifier it gives a unit it hits (Vox Silence -2); 0: none.
        on_weapons: a unit rule that a weapon's Type may also carry, acting for the wielder (Skyfire, Rage);
            any other unit rule in a Type is refused.
        option: for an option the attacker may take (``Stage.OPTION``), what taking it makes of the profile.
        precedence: where two of a weapon's rules set the same thing in one stage (the wound roll's target
            number, an unsaved wound's damage), the higher wins whatever order the Type lists them in
            (``catalogue.ranked_hooks``; docs/rules.md#rules-that-set-the-same-roll).
    """

    name: str
    stages: frozenset[Stage]
    holder: Holder = Holder.WEAPON
    param: Param = NO_PARAM
    spellings: tuple[str, ...] = ()
    sides: frozenset[str] = frozenset({"target"})
    modelled: bool = True
    wound_targets: frozenset[str] | None = None
    pending: frozenset[Stage] = frozenset()
    summary: str = ""
    reads: TargetReads = NO_READS
    hooks: Hooks = field(default=NO_HOOKS, compare=False, hash=False)
    auto_hit: bool = False
    reads_hit_six: bool = False
    variant_gated: bool = False
    condition: Callable[[Any], bool] | None = field(default=None, compare=False, hash=False)
    acts_on: Callable[[str | None, str, str], bool] | None = field(default=None, compare=False, hash=False)
    roles: frozenset[Role] = frozenset()
    only_targets: tuple[str, ...] | None = None
    leadership: int = 0
    on_weapons: bool = False
    option: RuleOption | None = None
    precedence: int = 0

    def __str__(self) -> str:
        return self.name


_NOT_A_LETTER = re.compile(r"[^a-z]")


def fold(name: str) -> str:
    """The look-up key of a rule name: letters only, lower case."""
    return _NOT_A_LETTER.sub("", name.lower())


REGISTRY: dict[str, RuleDecl] = {}
_SPELLINGS: dict[str, str] = {}


def declare(
    name: str,
    *stages: Stage,
    holder: Holder = Holder.WEAPON,
    param: Param = NO_PARAM,
    spellings: tuple[str, ...] = (),
    sides: tuple[str, ...] = ("target",),
    modelled: bool = True,
    wound_targets: tuple[str, ...] | None = None,
    pending: tuple[Stage, ...] = (),
    summary: str = "",
    reads_types: tuple[str, ...] = (),
    reads_fields: tuple[str, ...] = (),
    hooks: Hooks = NO_HOOKS,
    auto_hit: bool = False,
    reads_hit_six: bool = False,
    variant_gated: bool = False,
    condition: Callable[[Any], bool] | None = None,
    acts_on: Callable[[str | None, str, str], bool] | None = None,
    roles: tuple[Role, ...] = (),
    only_targets: tuple[str, ...] | None = None,
    leadership: int = 0,
    on_weapons: bool = False,
    option: RuleOption | None = None,
    precedence: int = 0,
) -> RuleDecl:
    """Declare a rule once; a second declaration of the same name is a programming error. ``reads_types``: the
    Unit Type words its stage hooks test; ``reads_fields``: the other target fields they read (``S``,
    ``name``, ``unit_type``); ``hooks``: its stage functions."""
    if fold(name) in _SPELLINGS:
        raise RuntimeError(f"rule {name!r} declared twice")
    if not set(pending) <= set(stages):
        raise RuntimeError(f"rule {name!r}: pending stages must be among its stages")
    decl = RuleDecl(
        name=name,
        stages=frozenset(stages),
        holder=holder,
        param=param,
        spellings=spellings,
        sides=frozenset(sides),
        modelled=modelled,
        wound_targets=None if wound_targets is None else frozenset(wound_targets),
        pending=frozenset(pending),
        summary=summary,
        reads=reads((*reads_types, *(wound_targets or ())), reads_fields),
        hooks=hooks,
        auto_hit=auto_hit,
        reads_hit_six=reads_hit_six,
        variant_gated=variant_gated,
        condition=condition,
        acts_on=acts_on,
        roles=frozenset(roles),
        only_targets=only_targets,
        leadership=leadership,
        on_weapons=on_weapons,
        option=option,
        precedence=precedence,
    )
    REGISTRY[name] = decl
    for spelling in (name, *spellings):
        _SPELLINGS[fold(spelling)] = name
    return decl


def canonical_name(key: str) -> str | None:
    """The canonical name for a folded key (see :func:`fold`), or None when no rule has that spelling."""
    return _SPELLINGS.get(key)
