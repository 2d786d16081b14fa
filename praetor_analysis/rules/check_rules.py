"""Rules that ask the wielder for a Psychic (or Cybertheurgy) check before attacking: Cybertheurgic Focus
(like Psychic Focus: no attack on a failure), Force, Achean Force and Divine Guidance (a better Strength on
a pass).

A ``check`` hook gives the :class:`CheckBoost` of a rule whose check raises the Strength; the engine then
resolves the attack as the mixture of the passed and failed checks (engine/checks.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from praetor_analysis.rules.contexts import WoundSituation
from praetor_analysis.rules.hit_rules import PSYCHIC_FOCUS
from praetor_analysis.rules.registry import RuleDecl, Stage, declare
from praetor_analysis.rules.wound import WoundRoll


@dataclass(frozen=True)
class CheckBoost:
    """What a passed check gives: the Strength after it (from the Strength before), whether each psyker
    takes its own check (else one for the unit), and whether a failure is Perils of the Warp."""

    strength: Callable[[int], int]
    per_model: bool
    perils: bool


def _doubled(s: int) -> int:
    return min(2 * s, 10)


def _plus_two(s: int) -> int:
    return min(s + 2, 10)


def _force_check() -> CheckBoost:
    return CheckBoost(_doubled, per_model=True, perils=True)


def _achean_check() -> CheckBoost:
    return CheckBoost(_plus_two, per_model=False, perils=False)


def _divine_check() -> CheckBoost:
    return CheckBoost(_plus_two, per_model=True, perils=True)


def _force_on_daemons(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, instant_death=True) if s.target_is("Daemon") else r


CYBERTHEURGIC_FOCUS = declare(
    "Cybertheurgic Focus",
    Stage.ATTACKS,
    summary="each wielder passes a Cybertheurgy check (Ld test) or does not attack (reported as perils)",
)
FORCE = declare(
    "Force",
    Stage.TO_WOUND,
    Stage.DAMAGE,
    Stage.VEHICLES,
    Stage.ROUND,
    pending=(Stage.VEHICLES, Stage.ROUND),
    check=_force_check,
    wound=_force_on_daemons,
    reads_types=("Daemon",),
    summary="each psyker takes a Psychic check: a pass doubles the Strength (10 at most), a failure is Perils "
    "and the plain Strength; Instant Death on Daemons",
)
ACHEAN_FORCE = declare(
    "Achean Force",
    Stage.TO_WOUND,
    Stage.DAMAGE,
    Stage.VEHICLES,
    Stage.ROUND,
    pending=(Stage.VEHICLES, Stage.ROUND),
    check=_achean_check,
    wound=_force_on_daemons,
    reads_types=("Daemon",),
    summary="one Psychic check for the unit: a pass gives +2 Strength, a failure nothing; counts as Force "
    "(Instant Death on Daemons)",
)
DIVINE_GUIDANCE = declare(
    "Divine Guidance",
    Stage.TO_WOUND,
    Stage.VEHICLES,
    Stage.ROUND,
    pending=(Stage.VEHICLES, Stage.ROUND),
    check=_divine_check,
    summary="each psyker takes a Psychic check: a pass gives +2 Strength (and Reaping Blow (3) in a round), "
    "a failure is Perils and the plain Strength",
)

#: Checks before To Hit whose failure means the weapon does not attack.
FOCUS_CHECKS: tuple[RuleDecl, ...] = (PSYCHIC_FOCUS, CYBERTHEURGIC_FOCUS)
