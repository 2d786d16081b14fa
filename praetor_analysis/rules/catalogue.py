"""Every declared rule, and look-ups by any spelling.

Importing this module imports every family of declarations (``rules/*_rules.py``), so the registry is
complete here; code that only needs one rule imports its family module instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Protocol, TypeVar

from praetor_analysis.rules import (  # noqa: F401  (each family declares its rules on import)
    blow_rules,
    check_rules,
    damage_rules,
    hit_rules,
    marker_rules,
    melee_rules,
    modifier_rules,
    morale_rules,
    option_rules,
    other_rules,
    outside_rules,
    placement_rules,
    save_rules,
    tail_wound_rules,
    vehicle_rules,
    wound_rules,
)
from praetor_analysis.rules.hooks import Role, Slot
from praetor_analysis.rules.registry import REGISTRY, RuleDecl, Stage, canonical_name, fold
from praetor_analysis.rules.target_reads import NO_READS, TargetReads


def lookup(name: str) -> RuleDecl | None:
    """The declaration of a rule by its canonical name or any declared spelling, or None."""
    decl = REGISTRY.get(name)
    if decl is not None:
        return decl
    if len(_SPELLED) > 4096 or _SPELLED_FOR[0] != len(REGISTRY):  # a rule declared since: forget them
        _SPELLED.clear()
        _SPELLED_FOR[0] = len(REGISTRY)
    if name in _SPELLED:
        return _SPELLED[name]
    canonical = canonical_name(fold(name))
    found = _SPELLED[name] = None if canonical is None else REGISTRY[canonical]
    return found


_SPELLED: dict[str, RuleDecl | None] = {}
"""``lookup`` of the names that are not canonical, each folded once (for a registry of ``_SPELLED_FOR[0]``)."""
_SPELLED_FOR = [0]


class Named(Protocol):
    """A rule token: what the look-ups read of it."""

    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)
H = TypeVar("H")


def stage_hooks(slot: Slot[H], tokens: Iterable[T], *, side: str | None = None) -> Iterator[tuple[T, RuleDecl, H]]:
    """The hooks of one stage (``slot``: ``hooks.WOUND``...) among ``tokens``, in order: (token, its declaration,
    its hook) for each declared rule that gives the stage one; with ``side``, only the rules whose copy on that
    side acts (``"attacker"``)."""
    for token in tokens:
        decl = lookup(token.name)
        if decl is None or (side is not None and side not in decl.sides):
            continue
        hook = slot.of(decl.hooks)
        if hook is not None:
            yield token, decl, hook


def ranked_hooks(slot: Slot[H], tokens: Iterable[T], *, winner_first: bool = False) -> list[tuple[T, RuleDecl, H]]:
    """``stage_hooks`` of one weapon's rules ordered by ``RuleDecl.precedence``, the printed order kept among
    equals: the highest last (a hook that overwrites what the others set: the wound roll), or with
    ``winner_first`` first (the first answer is taken: damage). The Type's order of the rules then changes
    nothing where precedences differ."""
    found = list(stage_hooks(slot, tokens))
    if winner_first:
        return sorted(found, key=lambda item: -item[1].precedence)
    return sorted(found, key=lambda item: item[1].precedence)


def with_role(role: Role, tokens: Iterable[T]) -> T | None:
    """The first of ``tokens`` whose declaration plays ``role``, or None."""
    for token in tokens:
        decl = lookup(token.name)
        if decl is not None and role in decl.roles:
            return token
    return None


def roles_of(tokens: Iterable[Named]) -> frozenset[Role]:
    """Every role the declared rules among ``tokens`` play."""
    out: set[Role] = set()
    for token in tokens:
        decl = lookup(token.name)
        if decl is not None:
            out |= decl.roles
    return frozenset(out)


def plays(role: Role, tokens: Iterable[Named]) -> bool:
    """True when one of ``tokens`` is a declared rule that plays ``role``."""
    return with_role(role, tokens) is not None


def reads_of(names: Iterable[str]) -> TargetReads:
    """The union of what the declarations of the named rules read of the target (``RuleDecl.reads``)."""
    out = NO_READS
    for name in names:
        decl = lookup(name)
        if decl is not None:
            out |= decl.reads
    return out


def all_rules() -> tuple[RuleDecl, ...]:
    """Every declared rule, in declaration order."""
    return tuple(REGISTRY.values())


def rules_acting_on(stage: Stage) -> tuple[RuleDecl, ...]:
    """The declared rules that act on ``stage``."""
    return tuple(d for d in REGISTRY.values() if stage in d.stages)


def canonical_rule_name(name: str) -> str:
    """The canonical spelling of a rule name (case, hyphens, quotes, stray marks folded); unknown names are
    returned cleaned but otherwise as given."""
    cleaned = name.replace("\u2019", "'").replace("&apos;", "'").strip(" .*\u2020")
    canonical = canonical_name(fold(cleaned))
    return cleaned if canonical is None else canonical
