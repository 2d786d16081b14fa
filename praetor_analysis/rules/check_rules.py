"""Rules that ask the wielder for a Psychic (or Cybertheurgy) check before attacking: Cybertheurgic Focus
(like Psychic Focus: no attack on a failure), Force, Achean Force and Divine Guidance (a better Strength on
a pass).

A ``check`` hook is the :class:`~praetor_analysis.rules.hooks.CheckBoost` of a rule whose check raises the
Strength; the engine then resolves the attack as the mixture of the passed and failed checks (engine/checks.py).
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.rules.contexts import WoundSituation
from praetor_analysis.rules.hooks import CheckBoost, Hooks, Role
from praetor_analysis.rules.registry import Stage, declare
from praetor_analysis.rules.wound import WoundRoll


def _doubled(s: int) -> int:
    return min(2 * s, 10)


def _plus_two(s: int) -> int:
    return min(s + 2, 10)


#: Force: each psyker's check doubles the Strength; a failure is Perils of the Warp.
FORCE_CHECK = CheckBoost(_doubled, per_model=True, perils=True)
#: Achean Force: one check for the unit, +2 Strength, no Perils.
ACHEAN_CHECK = CheckBoost(_plus_two, per_model=False, perils=False)
#: Divine Guidance: each psyker's check gives +2 Strength; a failure is Perils of the Warp.
DIVINE_CHECK = CheckBoost(_plus_two, per_model=True, perils=True)


def _force_on_daemons(r: WoundRoll, value: int | None, variant: str | None, s: WoundSituation) -> WoundRoll:
    return replace(r, instant_death=True) if s.target_is("Daemon") else r


CYBERTHEURGIC_FOCUS = declare(
    "Cybertheurgic Focus",
    Stage.ATTACKS,
    summary="each wielder passes a Cybertheurgy check (Ld test) or does not attack (reported as perils)",
    roles=(Role.FOCUS_CHECK,),
)
FORCE = declare(
    "Force",
    Stage.TO_WOUND,
    Stage.DAMAGE,
    Stage.VEHICLES,
    Stage.ROUND,
    pending=(Stage.VEHICLES, Stage.ROUND),
    hooks=Hooks(check=FORCE_CHECK, wound=_force_on_daemons),
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
    hooks=Hooks(check=ACHEAN_CHECK, wound=_force_on_daemons),
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
    hooks=Hooks(check=DIVINE_CHECK),
    summary="each psyker takes a Psychic check: a pass gives +2 Strength (and Reaping Blow (3) in a round), "
    "a failure is Perils and the plain Strength",
)
