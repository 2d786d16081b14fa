"""Which of a weapon's rules a higher-ranked rule that sets the same roll sets aside against a target
(docs/rules.md#rules-that-set-the-same-roll): those are listed under ``no_effect``, not ``applied``.

The test is the hooks' own: a rule of the wound roll is set aside when the weapon's ranked hooks give the
same roll with it and without it for every Strength, Toughness and target Strength (the target's Unit Type,
name and Wounds as given: what the batch's rule-list key holds), the rule itself changes the roll somewhere,
and a rule ranked above it changes the roll; a rule of the damage is set aside when a rule ranked above it
gives the damage first. Only a rule whose every stage that can matter here is that roll's is set aside
(Sanctic's save re-roll still acts).
"""

from __future__ import annotations

from collections.abc import Iterable

from praetor_analysis.engine.volley import Volley, weapon_strength
from praetor_analysis.errors import PraetorError
from praetor_analysis.prob import BoundedMemo
from praetor_analysis.profiles import Rule, Unit
from praetor_analysis.rules import (
    DAMAGE,
    WOUND,
    Resolution,
    Role,
    RuleDecl,
    Stage,
    WoundRoll,
    WoundSituation,
    ranked_hooks,
    to_wound,
)

#: The Strengths, Toughnesses and target Strengths the wound-roll test runs over (the characteristics' range).
GRID = range(1, 11)


def set_aside(volley: Volley, target: Unit, resolution: Resolution) -> dict[str, str]:
    """``{rule text: the rule that sets it aside}`` among the weapon's rules against ``target`` (a fresh copy;
    memoised by what the hooks read: ``_SET_ASIDE``)."""
    w = volley.weapon
    key = (
        tuple(t.text for t in w.stage_rules),
        _strength(volley),
        w.ap,
        volley.mode,
        volley.half_range,
        w.plays(Role.TEMPLATE),
        w.plays(Role.MARKER),
        target.unit_type,
        target.name,
        target.W,
        target.T is None,
        resolution,
    )
    return dict(_SET_ASIDE.get(key, lambda: _found(volley, target, resolution)))


_SET_ASIDE: BoundedMemo[dict[str, str]] = BoundedMemo(1024)
"""``set_aside`` by what its hooks read of the volley and the target (the wound test runs over a grid)."""


def _found(volley: Volley, target: Unit, resolution: Resolution) -> dict[str, str]:
    out = _wound_set_aside(volley, target, resolution)
    out.update(_damage_set_aside(volley, target, resolution))
    return out


def _strength(volley: Volley) -> int | None:
    """The volley's Strength, None when it has none to read (the wound test then runs over every Strength)."""
    try:
        return weapon_strength(volley)
    except PraetorError:  # the engine's own error is raised where the Strength is needed, not here
        return None


def _only(decl: RuleDecl, stage: Stage, resolution: Resolution) -> bool:
    """Whether every stage of ``decl`` that can matter to ``resolution`` is ``stage``."""
    return decl.stages - resolution.irrelevant == {stage}


def _ranks(found: Iterable[tuple[Rule, RuleDecl, object]]) -> int:
    return len({decl.precedence for _, decl, _ in found})


def _wound_set_aside(volley: Volley, target: Unit, resolution: Resolution) -> dict[str, str]:
    w = volley.weapon
    hooks = ranked_hooks(WOUND, w.stage_rules)  # the highest last
    if resolution.vehicle or target.T is None or _ranks(hooks) < 2:
        return {}
    known = _strength(volley)
    strengths = GRID if known is None else (known,)
    melee = volley.mode == "melee"
    acted: set[int] = set()  # the hooks that changed the roll somewhere
    same = {i: True for i, (_, decl, _) in enumerate(hooks) if _only(decl, Stage.TO_WOUND, resolution)}
    for s in strengths:
        for t in GRID:
            for ts in GRID:
                situation = WoundSituation(
                    strength=s,
                    toughness=t,
                    melee=melee,
                    half_range=volley.half_range,
                    template=w.plays(Role.TEMPLATE),
                    unit_type=target.unit_type,
                    target_strength=ts,
                    target_name=target.name,
                    target_wounds=target.W,
                )
                base = WoundRoll(target=to_wound(s, t), strength_death=s >= 2 * t, ap=w.ap, melee=melee)
                full = _rolled(hooks, base, situation, None, acted)
                for i in same:
                    same[i] = same[i] and _rolled(hooks, base, situation, i, None) == full
    out: dict[str, str] = {}
    for i, kept in same.items():
        token, decl, _ = hooks[i]
        above = [j for j in acted if hooks[j][1].precedence > decl.precedence]
        if kept and above and i in acted:  # a rule that does nothing here anyway is not set aside
            out[token.text] = hooks[max(above)][0].text  # the highest-ranked rule that acts
    return out


def _rolled(
    hooks: list, base: WoundRoll, situation: WoundSituation, skip: int | None, acted: set[int] | None
) -> WoundRoll:
    """The roll after the weapon's ranked hooks, ``skip`` left out; ``acted`` collects the hooks that change it."""
    roll = base
    for i, (token, decl, hook) in enumerate(hooks):
        if i == skip or (decl.wound_targets is not None and not situation.target_is(*decl.wound_targets)):
            continue
        after = hook(roll, token.value, token.variant, situation)
        if acted is not None and after != roll:
            acted.add(i)
        roll = after
    return roll


def _damage_set_aside(volley: Volley, target: Unit, resolution: Resolution) -> dict[str, str]:
    w = volley.weapon
    hooks = ranked_hooks(DAMAGE, w.stage_rules, winner_first=True)
    if resolution.vehicle or target.T is None or _ranks(hooks) < 2:
        return {}
    situation = WoundSituation(
        strength=0,
        toughness=0,  # no damage hook reads it (the batch's rule-list key holds no Toughness)
        melee=volley.mode == "melee",
        unit_type=target.unit_type,
        template=w.plays(Role.TEMPLATE),
        blast=w.plays(Role.MARKER),
    )
    giving = [(token, decl) for token, decl, hook in hooks if hook(token.value, token.variant, situation) is not None]
    if not giving:
        return {}
    winner, top = giving[0]
    return {
        token.text: winner.text
        for token, decl in giving[1:]
        if decl.precedence < top.precedence and _only(decl, Stage.DAMAGE, resolution)
    }
