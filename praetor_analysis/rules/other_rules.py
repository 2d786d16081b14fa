"""Rules known by name that change nothing the engine computes, or that it does not compute yet.

"No effect" rules act outside one attack (movement, firing permissions, later turns). "Not modelled"
rules act on the attack but have no mechanics here yet: every result lists them under ``not_modelled``.
"""

from __future__ import annotations

from praetor_analysis.rules.registry import TEXT, Holder, RuleDecl, Stage, declare, roll


def _elsewhere(name: str, summary: str, **kw: object) -> RuleDecl:
    return declare(name, Stage.ELSEWHERE, summary=summary, **kw)  # type: ignore[arg-type]


ONE_SHOT = _elsewhere("One Shot", "how often the weapon fires in a game")
ONE_USE = _elsewhere("One Use", "how often the weapon fires in a game")
LIMITED_AMMUNITION = _elsewhere("Limited Ammunition", "how often the weapon fires in a game")
GUIDED_FIRE = _elsewhere("Guided Fire", "who may fire it")
BLIND = _elsewhere("Blind", "a test after the attack")
IT_WILL_NOT_DIE = _elsewhere(
    "It Will Not Die", "recovers wounds at the end of a turn", holder=Holder.UNIT, param=roll()
)
PSYKER = _elsewhere("Psyker", "may use psychic powers; Psychic Focus reads the psyker's Leadership", holder=Holder.UNIT)

#: Known by name, not computed yet (each with the stage it would act on).
_NOT_YET: dict[Stage, tuple[str, ...]] = {
    Stage.TO_HIT: ("Precision", "Hatred"),
    Stage.ATTACKS: ("Counter-Attack", "Hammer of Wrath"),
    Stage.ELSEWHERE: ("Relentless", "Slow and Purposeful", "Monster Hunter", "Split Fire"),
}  # fmt: skip
NOT_MODELLED = tuple(
    declare(
        name,
        stage,
        param=TEXT,
        modelled=False,
        summary="known by name; not computed yet",
    )
    for stage, names in _NOT_YET.items()
    for name in names
)
GRAVITON_SINGULARITY = declare(
    "Graviton Singularity",
    Stage.ATTACKS,
    modelled=False,
    summary="a D6 before firing: 1 wounds the firer, 6 adds Vortex, a rule the data gives no text for",
)
PYROMANTIC_DESOLATION = declare(
    "Pyromantic Desolation",
    Stage.MARKERS,
    Stage.ROUND,
    modelled=False,
    summary='in a round, automatic hits on every model under a 3" blast around the wielder: not computed yet',
)
