"""Sorting an attack's rules into applied / no effect / not modelled, in one place, from the declarations.

A resolution (the wound chain, the vehicle engine, a whole round of melee) models some stages and knows
that others cannot matter to it. A rule is *applied* when a stage it acts on is modelled (and its
condition holds: Haywire's wound effect needs a Dreadnought or Automata, Armourbane (Melta) half range);
it has *no effect* when every stage it acts on cannot matter here, or its condition fails; otherwise it is
*not modelled*, as is every rule without a declaration or declared without mechanics.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from praetor_analysis.prob import BoundedMemo
from praetor_analysis.rules.catalogue import lookup
from praetor_analysis.rules.contexts import variant_active
from praetor_analysis.rules.registry import Holder, RuleDecl, Stage


class RuleToken(Protocol):
    """What the classifier reads of a parsed rule token."""

    @property
    def name(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def known(self) -> bool: ...
    @property
    def variant(self) -> str | None: ...


_CORE = frozenset({Stage.ATTACKS, Stage.TO_HIT, Stage.TO_WOUND, Stage.AP, Stage.SAVES, Stage.MITIGATION, Stage.DAMAGE})


@dataclass(frozen=True)
class Resolution:
    """The stages one kind of resolution models, and those that cannot matter to it."""

    name: str
    modelled: frozenset[Stage]
    irrelevant: frozenset[Stage]
    vehicle: bool = False
    hit_roll: bool = True  # False when the hits are given or come from markers: no To Hit roll is made


def _placement(modelled: set[Stage], irrelevant: set[Stage], marker_hits: bool, placement: str | None) -> None:
    """Marker hits come from the geometry (``placement`` says how: a formation, Wall of Death), or are given
    (then where the marker lands cannot matter)."""
    if marker_hits:
        modelled.add(Stage.MARKERS)
        (modelled if placement is not None else irrelevant).add(Stage.PLACEMENT)


def wound_chain(*, melee: bool, marker_hits: bool, placement: str | None = None) -> Resolution:
    """A one-way attack on a unit with Toughness and Wounds; in melee the target is locked in combat, so the
    Pinning test's rules (``Stage.MORALE``) cannot matter. Once per distinct arguments (``_CHAINS``: every
    rule list of a batch asks for one of a few)."""
    return _CHAINS.get((melee, marker_hits, placement), lambda: _wound_chain(melee, marker_hits, placement))


_CHAINS: BoundedMemo[Resolution] = BoundedMemo(64)
"""``wound_chain`` by its arguments."""


def _wound_chain(melee: bool, marker_hits: bool, placement: str | None) -> Resolution:
    modelled = set(_CORE)
    # a rule of the whole round (Rampage, Reaping Blow, Concussive, Bulky) acts only when both sides fight
    irrelevant = {Stage.VEHICLES, Stage.ALLOCATION, Stage.INITIATIVE, Stage.ROUND, Stage.ELSEWHERE}
    (modelled if melee else irrelevant).add(Stage.MELEE_ATTACKS)
    (irrelevant if melee else modelled).add(Stage.MORALE)
    _placement(modelled, irrelevant, marker_hits, placement)
    return Resolution("wound chain", frozenset(modelled), frozenset(irrelevant), hit_roll=not marker_hits)


def vehicle_attack(*, marker_hits: bool, placement: str | None = None, melee: bool = False) -> Resolution:
    """A one-way attack on a vehicle (armour penetration and hull points); in melee the blows are modelled."""
    modelled = {Stage.ATTACKS, Stage.TO_HIT, Stage.VEHICLES, Stage.SAVES, Stage.MITIGATION}
    irrelevant = {
        Stage.TO_WOUND, Stage.AP, Stage.DAMAGE, Stage.MORALE, Stage.ALLOCATION, Stage.INITIATIVE,
        Stage.ELSEWHERE, Stage.ROUND,
    }  # fmt: skip
    (modelled if melee else irrelevant).add(Stage.MELEE_ATTACKS)
    _placement(modelled, irrelevant, marker_hits, placement)
    return Resolution("vehicle", frozenset(modelled), frozenset(irrelevant), vehicle=True, hit_roll=not marker_hits)


@dataclass(frozen=True)
class Situation:
    """What a rule's condition may depend on."""

    melee: bool = False
    half_range: bool = False
    target_type: str = "Infantry"
    placement: str | None = None  # how marker hits were made: "formation", "wall of death", or None
    target_fresh_single_wound: bool = False  # every target model has W 1 and none has lost a wound
    charging: bool = False  # a melee attacker that charged (not a Disordered Charge)
    target_name: str = ""  # the target's name (Preferred Enemy (X) reads it)
    target_wounds: int | None = None  # the target's Wounds characteristic (Entangle reads it)

    def target_is(self, words: Iterable[str]) -> bool:
        """True when the target's Unit Type names one of ``words``."""
        low = self.target_type.lower()
        return any(w.lower() in low for w in words)


@dataclass
class RuleReport:
    """The three lists of a result, in the order rules were met; each entry once."""

    applied: list[str] = field(default_factory=list)
    no_effect: list[str] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)

    def add(self, category: str, entry: str) -> None:
        """Add ``entry`` to ``category`` ("applied", "no_effect" or "not_modelled") unless it is there."""
        dest: list[str] = getattr(self, category)
        if entry not in dest:
            dest.append(entry)

    def demote(self, entry: str) -> None:
        """Move ``entry`` from ``applied`` to ``no_effect``: a rule the stages would read, whose condition the
        attack takes away (Shrouded against a template); nothing when it is not under ``applied``."""
        if entry in self.applied:
            self.applied.remove(entry)
            self.add("no_effect", entry)

    def lists(self) -> tuple[list[str], list[str], list[str]]:
        """(applied, no_effect, not_modelled)."""
        return self.applied, self.no_effect, self.not_modelled


def acts_here(decl: RuleDecl, variant: str | None, situation: Situation) -> bool:
    """Whether a rule's condition in the wound chain holds: its unit types, and its variant (Melta...)."""
    if decl.wound_targets is not None and not situation.target_is(decl.wound_targets):
        return False
    if decl.condition is not None and not decl.condition(situation):
        return False
    acts_on = decl.acts_on  # a condition on the target that reads the rule's parameter
    if acts_on is not None and not acts_on(variant, situation.target_name, situation.target_type):
        return False
    return not decl.variant_gated or variant_active(variant, melee=situation.melee, half_range=situation.half_range)


def category_of(
    decl: RuleDecl | None,
    token: RuleToken,
    resolution: Resolution,
    situation: Situation,
    *,
    side: str = "weapon",
) -> str:
    """ "applied", "no_effect" or "not_modelled" for one rule token of the weapon or of a unit (``side`` is
    "weapon", "attacker" or "target")."""
    if decl is None or not token.known or not decl.modelled:
        return "not_modelled"
    if side != "weapon":
        if decl.holder is not Holder.UNIT:
            return "not_modelled"  # a weapon rule given to a unit: nothing reads it there
        if side not in decl.sides:
            return "no_effect"
        if not resolution.hit_roll and decl.stages == {Stage.TO_HIT}:
            return "no_effect"  # a unit's To Hit rule (re-rolls, modifiers) when no To Hit roll is made
    acting = decl.stages & resolution.modelled
    if acting:
        # on a vehicle a rule's unit types only restrict what it does besides penetration (Haywire...)
        conditional = not resolution.vehicle or Stage.VEHICLES not in acting
        if conditional and not acts_here(decl, token.variant, situation):
            return "no_effect"
        return "not_modelled" if acting & decl.pending else "applied"
    if decl.stages <= resolution.irrelevant:
        return "no_effect"
    return "not_modelled"


def classify(
    resolution: Resolution,
    situation: Situation,
    weapon_rules: Iterable[RuleToken],
    units: Mapping[str, Iterable[RuleToken]],
    report: RuleReport | None = None,
) -> RuleReport:
    """Sort the weapon's rules, then each unit's (``units`` maps "target"/"attacker" to its rules, entries
    prefixed ``"target: "``...), into ``report`` (a new one when None)."""
    out = report if report is not None else RuleReport()
    for token in weapon_rules:
        out.add(category_of(lookup(token.name), token, resolution, situation), token.text)
    for side, tokens in units.items():
        for token in tokens:
            decl = lookup(token.name)
            out.add(category_of(decl, token, resolution, situation, side=side), f"{side}: {token.text}")
    return out
