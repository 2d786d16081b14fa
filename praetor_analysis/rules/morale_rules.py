"""Rules of Pinning and Leadership tests (Hallucinations' immediate one too), and the unit states that exempt a
unit from them."""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.rules.contexts import SaveSituation
from praetor_analysis.rules.hooks import Hooks, Role
from praetor_analysis.rules.registry import Holder, Stage, count, declare
from praetor_analysis.rules.saves import SaveContext


def _fearless_save(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, shrouded_denied=True)


PINNING = declare(
    "Pinning",
    Stage.MORALE,
    summary="a unit that suffered an unsaved wound from it tests Leadership once the firing unit is done",
    roles=(Role.PINNING,),
)
SHELL_SHOCK = declare(
    "Shell Shock",
    Stage.MORALE,
    param=count(),
    summary="the Pinning test is at -X Leadership",
    roles=(Role.PINNING_PENALTY,),
)
FEARLESS = declare(
    "Fearless",
    Stage.MORALE,
    Stage.MITIGATION,
    holder=Holder.UNIT,
    hooks=Hooks(save=_fearless_save),
    summary="never Pinned; cannot use Shrouded",
    roles=(Role.NEVER_PINNED,),
)
PINNED = declare(
    "Pinned",
    Stage.MORALE,
    holder=Holder.UNIT,
    summary="already Pinned: takes no further test",
    roles=(Role.NEVER_PINNED,),
)
LOCKED_IN_COMBAT = declare(
    "Locked in Combat",
    Stage.MORALE,
    holder=Holder.UNIT,
    spellings=("Locked",),
    summary="takes no Pinning test",
    roles=(Role.NEVER_PINNED,),
)
EMBARKED = declare(
    "Embarked", Stage.MORALE, holder=Holder.UNIT, summary="takes no Pinning test", roles=(Role.NEVER_PINNED,)
)
STUBBORN = declare(
    "Stubborn",
    Stage.MORALE,
    holder=Holder.UNIT,
    summary="ignores negative Leadership modifiers: no Shell Shock",
    roles=(Role.IGNORES_LEADERSHIP_PENALTIES,),
)
INEXORABLE = declare(
    "Inexorable",
    Stage.MORALE,
    holder=Holder.UNIT,
    summary="ignores Leadership modifiers: no Shell Shock",
    roles=(Role.IGNORES_LEADERSHIP_PENALTIES,),
)
HALLUCINATIONS = declare(
    "Hallucinations",
    Stage.MORALE,
    summary="a unit hit takes an immediate Pinning test, each hit adding one to the roll (weapons without a "
    "Strength; with one, not computed yet)",
    roles=(Role.PINNING_ON_HITS,),
)
