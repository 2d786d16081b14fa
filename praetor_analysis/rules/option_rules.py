"""Options the attacker may take, each a change of the weapon's profile: Rocket Barrage, Deadly Aim, Blade
Charge, Fighting Style, Reactor Overload, Charged Attacks (docs/rules.md#options-the-attacker-may-take).

Each is declared at :attr:`~praetor_analysis.rules.registry.Stage.OPTION` with a
:class:`~praetor_analysis.rules.registry.RuleOption` saying what taking it makes of the profile; the scenario's
``options`` takes them (``scenario.options`` rewrites the weapon block) and the engine computes the rewritten
profile. Not taken, the rule is listed under ``not_modelled`` with what taking it would change. ``Halved
Attacks`` is the project's name for the half of Charged Attacks that a profile cannot print.
"""

from __future__ import annotations

from praetor_analysis.rules.hooks import Hooks
from praetor_analysis.rules.registry import RuleDecl, RuleOption, Stage, declare


def _option(name: str, option: RuleOption, **kw: object) -> RuleDecl:
    """An option the attacker may take: computed when the scenario takes it, else not modelled (the reason says
    what taking it would change)."""
    summary = f'option not taken: taking it ("options": ["{name}"]) would give {option.gives}'
    return declare(name, Stage.OPTION, summary=summary, option=option, **kw)  # type: ignore[arg-type]


ROCKET_BARRAGE = _option(
    "Rocket Barrage",
    RuleOption("the weapon Rending (4+) and Pinning (a model that did not move)", adds=("Rending (4+)", "Pinning")),
)
DEADLY_AIM = _option(
    "Deadly Aim",
    RuleOption("the weapon Brutal (2) (a model that did not move; it may not charge that turn)", adds=("Brutal (2)",)),
)
BLADE_CHARGE = _option(
    "Blade Charge",
    RuleOption("the weapon Rending (3+) (one Assault phase a battle)", adds=("Rending (3+)",)),
    spellings=("Blade charge",),
)
FIGHTING_STYLE = _option(
    "Fighting Style",
    RuleOption(
        "one of Murderous Strike (4+), Rage (4) or Sudden Strike (3) for the phase, named in brackets: "
        '"Fighting Style (Rage)"',
        choices=(
            ("Murderous Strike", ("Murderous Strike (4+)",)),
            ("Rage", ("Rage (4)",)),
            ("Sudden Strike", ("Sudden Strike (3)",)),
        ),
    ),
)
REACTOR_OVERLOAD = _option(
    "Reactor Overload",
    RuleOption(
        "twice the weapon's shots",
        shots_times=2,
        cost="each firing model suffers D3 wounds or hull points, no saves or mitigation of any kind (not part "
        "of these numbers)",
    ),
)
CHARGED_ATTACKS = _option(
    "Charged Attacks",
    RuleOption("half the model's attacks (rounded up) at Strength x3", adds=("Halved Attacks",), strength="x3"),
)


def _halved(a: int, charge: int, other: int, charging: bool, value: int | None) -> int:
    return (a + charge + other + 1) // 2


HALVED_ATTACKS = declare(
    "Halved Attacks",
    Stage.MELEE_ATTACKS,
    Stage.ROUND,
    pending=(Stage.ROUND,),
    hooks=Hooks(blows=_halved),
    summary="the project's rule for Charged Attacks taken: half the model's attacks (its A, the charge and a "
    "second weapon), rounded up (in a whole round of combat not computed yet)",
)
