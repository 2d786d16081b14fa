"""Re-rolls of 1 and modifiers to the To Hit and To Wound rolls: Preferred Enemy, and the project's own
modifier rules for the dashboard and scenario documents (docs/rules.md#to-hit-and-to-wound-modifiers).

They are unit rules of the attacker. A ``hit`` hook takes the :class:`~praetor_analysis.rules.hit.HitRoll`
of the volley and returns it changed; a ``wound`` hook the :class:`~praetor_analysis.rules.wound.WoundRoll`.
"Re-roll To Hit 1s", "Re-roll To Wound 1s", "To Hit modifier (+1)" and "To Wound modifier (-1)" are names the
project adds for situational modifiers; they are not rules of the game.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from praetor_analysis.errors import ProfileError
from praetor_analysis.rules.contexts import HitSituation, WoundSituation
from praetor_analysis.rules.hit import HitRoll
from praetor_analysis.rules.hooks import Hooks
from praetor_analysis.rules.registry import TEXT, Holder, RuleDecl, Stage, declare
from praetor_analysis.rules.wound import WoundRoll

_MODIFIER_RE = re.compile(r"^\s*([+-])\s*([1-5])\s*$")


def modifier_value(name: str, variant: str | None) -> int:
    """The signed modifier of ``To Hit modifier (+1)``: +1..+5 or -1..-5.

    Raises:
        ProfileError: when the parenthesis is not a signed number from 1 to 5.
    """
    m = _MODIFIER_RE.match(variant or "")
    if not m:
        raise ProfileError(f"attacker.rules: {name} needs a signed modifier such as (+1) or (-1), got {variant!r}")
    return int(m.group(2)) * (1 if m.group(1) == "+" else -1)


def is_preferred_enemy(variant: str | None, target_name: str, unit_type: str) -> bool:
    """Whether the target is a Preferred Enemy: every target without an X; with one, a target whose name or
    Unit Type contains X (case-insensitive)."""
    x = (variant or "").strip().lower()
    return not x or x in target_name.lower() or x in unit_type.lower()


Roll = TypeVar("Roll", HitRoll, WoundRoll)


def _preferred(r: Roll, value: int | None, variant: str | None, s: HitSituation | WoundSituation) -> Roll:
    return replace(r, reroll_ones=True) if is_preferred_enemy(variant, s.target_name, s.unit_type) else r


def _ones(r: Roll, value: int | None, variant: str | None, s: HitSituation | WoundSituation) -> Roll:
    return replace(r, reroll_ones=True)


def _modifier(name: str) -> Callable[..., Any]:
    def hook(r: Roll, value: int | None, variant: str | None, s: HitSituation | WoundSituation) -> Roll:
        return replace(r, modifier=r.modifier + modifier_value(name, variant))

    return hook


def _attacker_rule(name: str, stage: Stage, hooks: Hooks, summary: str, **kw: Any) -> RuleDecl:
    """A unit rule of the attacker acting on one roll."""
    return declare(name, stage, holder=Holder.UNIT, sides=("attacker",), summary=summary, hooks=hooks, **kw)


PREFERRED_ENEMY = declare(
    "Preferred Enemy",
    Stage.TO_HIT,
    Stage.TO_WOUND,
    holder=Holder.UNIT,
    param=TEXT,
    sides=("attacker",),
    hooks=Hooks(hit=_preferred, wound=_preferred),
    reads_fields=("name", "unit_type"),
    acts_on=is_preferred_enemy,
    summary="re-rolls To Hit and To Wound rolls of 1 against its Preferred Enemy (X: name or Unit Type; bare: all)",
)
_ONES = "a project modifier: re-rolls {} rolls of 1 (once per die)"
_MOD = "a project modifier: (+1) or (-1) to the {} roll needed (2+ at best, a natural 1 fails)"
REROLL_HIT_ONES = _attacker_rule("Re-roll To Hit 1s", Stage.TO_HIT, Hooks(hit=_ones), _ONES.format("To Hit"))
REROLL_WOUND_ONES = _attacker_rule("Re-roll To Wound 1s", Stage.TO_WOUND, Hooks(wound=_ones), _ONES.format("To Wound"))
TO_HIT_MODIFIER = _attacker_rule(
    "To Hit modifier", Stage.TO_HIT, Hooks(hit=_modifier("To Hit modifier")), _MOD.format("To Hit"), param=TEXT
)
TO_WOUND_MODIFIER = _attacker_rule(
    "To Wound modifier",
    Stage.TO_WOUND,
    Hooks(wound=_modifier("To Wound modifier")),
    _MOD.format("To Wound"),
    param=TEXT,
)
MARKED_FOR_DEATH = _attacker_rule(
    "Marked for Death",
    Stage.TO_WOUND,
    Hooks(wound=_ones),
    "re-rolls To Wound rolls of 1 against the unit it marked (the target is taken to be that unit)",
)
#: The attacker's rules that change its To Hit or To Wound roll.
MODIFIER_RULES = (PREFERRED_ENEMY, REROLL_HIT_ONES, REROLL_WOUND_ONES, TO_HIT_MODIFIER, TO_WOUND_MODIFIER)
