"""Rules of saves and damage mitigation: Ignores Cover, Feel No Pain, Shrouded.

Each declaration's ``save`` hook takes the :class:`~praetor_analysis.rules.saves.SaveContext` built from
the target's statline and returns it changed.
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.rules.contexts import SaveSituation
from praetor_analysis.rules.hooks import Hooks
from praetor_analysis.rules.registry import Holder, Stage, declare, roll
from praetor_analysis.rules.saves import SaveContext


def _ignores_cover(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, cover_denied=True, shrouded_denied=True)


def _feel_no_pain(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, feel_no_pain=value or 6)


def _shrouded(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, shrouded=value or 6)


IGNORES_COVER = declare(
    "Ignores Cover", Stage.SAVES, hooks=Hooks(save=_ignores_cover), summary="no cover saves and no Shrouded rolls"
)
FEEL_NO_PAIN = declare(
    "Feel No Pain",
    Stage.MITIGATION,
    holder=Holder.UNIT,
    param=roll(6),
    spellings=("FNP",),
    sides=("target", "attacker"),
    hooks=Hooks(save=_feel_no_pain),
    summary="a mitigation roll of X+ against each unsaved wound (not Instant Death); the firer's against Gets Hot",
)
SHROUDED = declare(
    "Shrouded",
    Stage.MITIGATION,
    holder=Holder.UNIT,
    param=roll(6),
    hooks=Hooks(save=_shrouded),
    summary="a mitigation roll of X+ (6+ bare), not in melee, against Ignores Cover or by Fearless models",
)
