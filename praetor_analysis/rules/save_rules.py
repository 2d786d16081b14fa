"""Rules of saves and damage mitigation: Ignores Cover, Feel No Pain, Shrouded, Curse of Dead Worlds.

Each declaration's ``save`` hook takes the :class:`~praetor_analysis.rules.saves.SaveContext` built from
the target's statline and returns it changed.
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.errors import ProfileError
from praetor_analysis.rules.contexts import SaveSituation
from praetor_analysis.rules.hooks import Hooks, Role, SaveHook
from praetor_analysis.rules.registry import Holder, RuleDecl, Stage, declare, roll
from praetor_analysis.rules.saves import SaveContext


def _ignores_cover(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, cover_denied=True, shrouded_denied=True)


def _feel_no_pain(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, feel_no_pain=value or 6)


def _shrouded(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, shrouded=value or 6)


def _night_vision(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, shrouded_denied=True)


#: The weapon rules Adamantium Will saves against (docs/rules.md#adamantium-will).
PSYCHIC_WEAPONS = ("Force", "Psychic Focus")


def _adamantium_will(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    if not any(name in s.weapon_rules for name in PSYCHIC_WEAPONS):
        return c
    return _invulnerable(c, value or 5)


def _invulnerable(c: SaveContext, x: int) -> SaveContext:
    """``c`` with an invulnerable save of ``x``+ where it is better than the one it has (they do not stack)."""
    return replace(c, invulnerable=x if c.invulnerable is None else min(c.invulnerable, x))


def _malefic_aegis(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    if value is None:
        raise ProfileError("target.rules: Malefic Aegis needs its save, such as Malefic Aegis (5+)")
    return _invulnerable(c, value)


def _wargear_save(x: int) -> SaveHook:
    """The save hook of wargear giving a fixed invulnerable save of ``x``+ (an Iron Halo, a refractor field)."""

    def hook(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
        return _invulnerable(c, x)

    return hook


IGNORES_COVER = declare(
    "Ignores Cover",
    Stage.SAVES,
    hooks=Hooks(save=_ignores_cover),
    summary="no cover saves and no Shrouded rolls",
    roles=(Role.NO_COVER,),
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
    roles=(Role.SAVES_GETS_HOT,),
)
SHROUDED = declare(
    "Shrouded",
    Stage.MITIGATION,
    holder=Holder.UNIT,
    param=roll(6),
    hooks=Hooks(save=_shrouded),
    summary="a mitigation roll of X+ (6+ bare); none in melee, against Ignores Cover (templates too), by Fearless "
    "models or against Night Vision",
    roles=(Role.MITIGATION_ROLL,),
)
NIGHT_VISION = declare(
    "Night Vision",
    Stage.MITIGATION,
    holder=Holder.UNIT,
    sides=("attacker",),
    hooks=Hooks(save=_night_vision),
    summary="no Shrouded roll may be made against its attacks (night fighting itself is not modelled)",
    roles=(Role.DENIES_SHROUDED,),
)
ADAMANTIUM_WILL = declare(
    "Adamantium Will",
    Stage.SAVES,
    holder=Holder.UNIT,
    param=roll(5),
    hooks=Hooks(save=_adamantium_will),
    summary="an invulnerable save of X+ (5+ bare) against wounds of Force and Psychic Focus weapons",
)
MALEFIC_AEGIS = declare(
    "Malefic Aegis",
    Stage.SAVES,
    holder=Holder.UNIT,
    param=roll(),
    hooks=Hooks(save=_malefic_aegis),
    summary="an invulnerable save of X+, not added to another: the better one is taken",
)


def _curse_of_dead_worlds(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    # the save actually taken is worsened, whatever gives it (its own, Iron Halo, Malefic Aegis...): applied when
    # the save is rolled, after every rule has offered one (docs/rules.md#wound-and-save-rules-of-the-long-tail)
    return replace(c, invulnerable_worse=1)


CURSE_OF_DEAD_WORLDS = declare(
    "Curse of Dead Worlds",
    Stage.SAVES,
    Stage.VEHICLES,
    pending=(Stage.VEHICLES,),
    hooks=Hooks(save=_curse_of_dead_worlds),
    summary="invulnerable saves against it are one worse, down to 6+ (a vehicle's too: not computed yet)",
)
IRON_HALO = declare(
    "Iron Halo",
    Stage.SAVES,
    holder=Holder.UNIT,
    hooks=Hooks(save=_wargear_save(4)),
    summary="wargear: an invulnerable save of 4+, not added to another (the better one is taken)",
)
REFRACTOR_FIELD = declare(
    "Refractor Field",
    Stage.SAVES,
    holder=Holder.UNIT,
    hooks=Hooks(save=_wargear_save(5)),
    summary="wargear: an invulnerable save of 5+, not added to another (the better one is taken)",
)


def _phase_save(kind: str, melee: bool) -> SaveHook:
    """The save hook of a wargear save that holds in one kind of attack only: an armour or invulnerable save of
    X+ against melee attacks (``melee``) or against shooting attacks, the better one taken
    (docs/rules.md#saves-for-one-phase)."""

    def hook(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
        if value is None:
            raise ProfileError(f"target.rules: a save for one phase needs its value, such as {kind} (3+)")
        if s.melee != melee:
            return c
        if kind.startswith("Armour"):
            return replace(c, armour=value if c.armour is None else min(c.armour, value))
        return _invulnerable(c, value)

    return hook


def _declare_phase_save(name: str, melee: bool, what: str) -> RuleDecl:
    return declare(
        name,
        Stage.SAVES,
        holder=Holder.UNIT,
        param=roll(),
        hooks=Hooks(save=_phase_save(name, melee)),
        condition=(lambda s: s.melee) if melee else (lambda s: not s.melee),  # listed under no_effect otherwise
        summary=f"wargear: {what} of X+ against {'melee' if melee else 'shooting'} attacks only (a save of one "
        "phase), not added to another: the better one is taken",
    )


MELEE_INVULNERABLE = _declare_phase_save("Invulnerable Save in Melee", True, "an invulnerable save")
SHOOTING_INVULNERABLE = _declare_phase_save("Invulnerable Save against Shooting", False, "an invulnerable save")
MELEE_ARMOUR = _declare_phase_save("Armour Save in Melee", True, "an armour save")
SHOOTING_ARMOUR = _declare_phase_save("Armour Save against Shooting", False, "an armour save")
#: The saves of one phase, by (kind, melee): what :mod:`praetor_analysis.bsdata.wargear_saves` writes.
PHASE_SAVES = {
    ("invulnerable", True): MELEE_INVULNERABLE.name,
    ("invulnerable", False): SHOOTING_INVULNERABLE.name,
    ("armour", True): MELEE_ARMOUR.name,
    ("armour", False): SHOOTING_ARMOUR.name,
}
