"""The hook vocabulary of rule declarations: a frozen record of optional stage functions with fixed signatures.

A declaration (:class:`~praetor_analysis.rules.registry.RuleDecl`) carries one :class:`Hooks`; each field is
the function the rule gives one stage of the attack, or None. The stages ask for their field through a
:class:`Slot` (``WOUND``, ``SAVE``...) and :func:`~praetor_analysis.rules.catalogue.stage_hooks`, the one
iterator over the hooks of a stage. A hook takes what the roll or count was and returns it changed; the
rule's value and variant (``Poisoned (3+)``: 3; ``Armourbane (Melta)``: "Melta") come as arguments.

What a rule does to the chain as a whole (a Pinning test, Gets Hot, Deflagrate's extra hits, a Psychic
check, a marker...) is not a stage function but a fact the resolver reads: a :class:`Role` of the declaration
(``RuleDecl.roles``), asked for with :func:`~praetor_analysis.rules.catalogue.plays`. No code outside
``rules/`` names a rule: it asks for a role or a hook.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Generic, TypeVar

from praetor_analysis.rules.contexts import HitSituation, SaveSituation, WoundSituation
from praetor_analysis.rules.hit import HitRoll
from praetor_analysis.rules.saves import SaveContext
from praetor_analysis.rules.wound import WoundRoll

#: The To Hit roll of the volley, changed (an attacker's unit rule: re-rolls of 1, modifiers).
HitHook = Callable[[HitRoll, int | None, str | None, HitSituation], HitRoll]
#: The To Wound roll of one hit, changed (the weapon's rules as printed, the attacker's, then the target's).
WoundHook = Callable[[WoundRoll, int | None, str | None, WoundSituation], WoundRoll]
#: What the target may roll against one wound, changed (the weapon's rules, then the saving unit's).
SaveHook = Callable[[SaveContext, int | None, str | None, SaveSituation], SaveContext]
#: The pmf of the wounds one unsaved wound does (index = wounds lost), or None where the rule does not act.
DamageHook = Callable[[int | None, str | None, WoundSituation], "tuple[float, ...] | None"]
#: A model's melee attacks from (its Attacks, the charge bonus, the other bonuses, charging, the rule's value).
BlowsHook = Callable[[int, int, int, bool, int | None], int]
#: A number from the rule's value: the bonus to Strength on the charge, the lowest To Hit roll hitting again.
ValueHook = Callable[[int | None], int]
#: The Strength a footnoted Strength (``*``, ``†``) stands for, from the wielder's Strength.
StrengthHook = Callable[[int | None], int]
#: Whether the shots at a target of this Unit Type must be Snap Shots (Skyfire).
SnapsHook = Callable[[str], bool]
#: The Weapon Skill the wielder strikes with, from its own (Cumbersome).
WielderWsHook = Callable[[int], int]


@dataclass(frozen=True)
class CheckBoost:
    """What a passed check gives: the Strength after it (from the Strength before), whether each psyker
    takes its own check (else one for the unit), and whether a failure is Perils of the Warp."""

    strength: Callable[[int], int]
    per_model: bool
    perils: bool


@dataclass(frozen=True)
class Hooks:
    """The stage functions of one rule (None: the rule does nothing in that stage).

    Attributes:
        blows: sets a model's melee attacks (Ungainly, Rage...).
        charge_strength: the bonus to the wielder's Strength on a charge (Furious Charge).
        strength: the Strength a footnoted Strength stands for (Graviton weapons).
        hit: changes the attacker's To Hit roll (unit rules of the attacker).
        hit_again: the lowest To Hit roll whose hit rolls To Hit again (Lightning Blows).
        wound: changes the To Wound roll of one hit.
        save: changes what the target may roll against one wound.
        damage: the damage one unsaved wound does.
        check: what a passed Psychic check before the attack gives (Force and its kin).
        snaps: whether the shots at a target must be Snap Shots (Skyfire).
        wielder_ws: the Weapon Skill the wielder strikes with (Cumbersome).
        multiplied: a target's rule: the pmf of how many unsaved wounds one unsaved wound becomes (Swarm),
            or None where it does not act.
    """

    blows: BlowsHook | None = None
    charge_strength: ValueHook | None = None
    strength: StrengthHook | None = None
    hit: HitHook | None = None
    hit_again: ValueHook | None = None
    wound: WoundHook | None = None
    save: SaveHook | None = None
    damage: DamageHook | None = None
    check: CheckBoost | None = None
    snaps: SnapsHook | None = None
    wielder_ws: WielderWsHook | None = None
    multiplied: DamageHook | None = None


NO_HOOKS = Hooks()

H = TypeVar("H")


@dataclass(frozen=True)
class Slot(Generic[H]):
    """One field of :class:`Hooks`, typed: ``WOUND.of(decl.hooks)`` is the rule's wound hook or None."""

    name: str

    def of(self, hooks: Hooks) -> H | None:
        """This slot's hook in ``hooks``."""
        return getattr(hooks, self.name)


BLOWS: Slot[BlowsHook] = Slot("blows")
CHARGE_STRENGTH: Slot[ValueHook] = Slot("charge_strength")
STRENGTH: Slot[StrengthHook] = Slot("strength")
HIT: Slot[HitHook] = Slot("hit")
HIT_AGAIN: Slot[ValueHook] = Slot("hit_again")
WOUND: Slot[WoundHook] = Slot("wound")
SAVE: Slot[SaveHook] = Slot("save")
DAMAGE: Slot[DamageHook] = Slot("damage")
CHECK: Slot[CheckBoost] = Slot("check")
SNAPS: Slot[SnapsHook] = Slot("snaps")
WIELDER_WS: Slot[WielderWsHook] = Slot("wielder_ws")
MULTIPLIED: Slot[DamageHook] = Slot("multiplied")

#: The slots of the wound, save and damage stages (what the per-hit tables of a sweep read).
WOUND_STAGE_SLOTS: tuple[Slot, ...] = (WOUND, SAVE, DAMAGE, MULTIPLIED)


class Role(Enum):
    """What a rule does to the attack as a whole, read by the resolver (its value, where it has one, is the
    rule token's)."""

    # the shots and the To Hit roll
    FOCUS_CHECK = "a check (Leadership) before To Hit: no attack on a failure"
    REROLL_FAILED_HITS = "failed To Hit rolls re-rolled (and a blast's scatter)"
    ONE_REROLL_PER_MODEL = "each model re-rolls one failed To Hit roll of its own"
    GETS_HOT = "each standing natural 1 To Hit wounds the firer"
    SAVES_GETS_HOT = "the firer's own roll against the wounds of Gets Hot (a unit rule)"
    NO_SECOND_WEAPON_ATTACK = "no extra melee attack for a second weapon"
    ROUND_MODELLED = "acts in a whole round of combat, which computes it (attack counts, Initiative, tests)"
    SPECIALIST_PAIR = "the extra attack for a second weapon only when both weapons have this rule"
    INITIATIVE_BONUS = "+X Initiative while striking with it (bare: +1)"
    STRIKES_AT_ONE = "strikes at Initiative 1 (not Dreadnoughts or Monstrous models)"
    SINGLE_BLOW = "a model striking with it makes a single attack, whatever its Attacks and bonuses"
    GRENADE_BLOW = "one blow a model at Initiative 1, whatever its Attacks, bonuses and Reach (a grenade in melee)"
    OUTNUMBERED_ATTACKS = "extra attacks (X, a dice expression) when the enemy outnumbers the unit"
    ATTACKS_WHILE_MANY = "X extra attacks while two or more enemy models are left (bare: 1)"
    WS_TEST = "a unit wounded tests Leadership at the end of the round or loses X Weapon Skill"
    COUNTS_AS_MODELS = "each model counts as X models for outnumbering (bare: 2)"
    # the wounds
    TOXIN = "a toxin: toxin-resistant Unit Types re-roll its successful wounds (Poisoned, Fleshbane)"
    WOUNDS_EACH = "each wound allocated becomes X wounds, saved one by one"
    EXTRA_HITS = "each unsaved wound makes one more hit, which makes no more"
    D3_HULL_POINTS = "each penetrating hit on a vehicle removes D3 hull points"
    # Pinning and Leadership
    PINNING = "an unsaved wound makes the unit test for Pinning once the firing unit is done"
    PINNING_PENALTY = "the Pinning test is at -X Leadership"
    PINNING_ON_HITS = "a unit hit takes an immediate Pinning test, each hit adding one to the roll"
    NEVER_PINNED = "the unit takes no Pinning test"
    IGNORES_LEADERSHIP_PENALTIES = "the unit ignores negative Leadership modifiers"
    # markers and templates
    MARKER = "hits come from a marker or template, not a To Hit roll"
    TEMPLATE = "a template (placed, not scattered)"
    BARRAGE = "a blast that may fire indirectly, its shots markers placed together (Side armour on vehicles)"
    CLOVER = "a clover of markers placed together"
    PLACED_WITHIN = "a template whose narrow end is placed up to X inches away"
    WALL_OF_DEATH_D6 = "D6 automatic hits in Wall of Death instead of D3"
    # vehicles: armour penetration
    REND_PENETRATION = "a penetration roll of X+ adds D3"
    EXTRA_PENETRATION_DIE = "an extra penetration D6 (Melta: at half range; Melee, Ranged: in that mode)"
    PENETRATES_AGAIN = "each penetrating hit adds another on a D6 of X+"
    TWO_PENETRATION_DICE = "two penetration dice, the highest kept"
    ARMOUR_AT_MOST_12 = "armour above 12 counts as 12"
    REROLL_PENETRATION = "failed penetration re-rolled, and a glance when a re-roll does better"
    D6_FOR_PENETRATION = "a D6 instead of the penetration roll"
    FOUR_D6_PENETRATION = "4D6 armour penetration, not the Strength"
    HARMLESS_TO_VEHICLES = "its hits do nothing to a vehicle"
    SIDE_ARMOUR = "hits a vehicle on its Side armour"
    NO_COVER = "no cover saves"
    DENIES_SHROUDED = "no Shrouded roll may be made against the unit's attacks (an attacker's rule)"
    MITIGATION_ROLL = "the unit's mitigation roll of X+ (6+ bare) against the wounds or hits it suffers"
    FACING_INVULNERABLE = "an invulnerable save against shooting by facing (4+ Front, 5+ Side)"
