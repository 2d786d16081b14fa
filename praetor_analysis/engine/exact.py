"""The resolver's exact path: hit -> wound -> save -> damage on the target's whole state, volley after volley.

``resolve_volley`` resolves one weapon's attack (shots or blows of identical profile) on the state earlier
volleys left; ``resolve_sequence`` chains several weapons and firing units, carrying the damaged model over
and testing Pinning once per firing unit. It is the path of everything the vectorised cells of
``engine.batch`` do not cover (sequences, a state carried over, Mega-blast zones, several psykers with a
check each, Deflagrate with Brutal, units too large for the split chain), and what the batch's fast path is
tested against (``resolve_exact``). It keeps no shortcut of its own: the state a volley leaves on a fresh unit
as a function of its count of wounds is the batch's (``engine.chain`` asks the batch for a sequence's first
volley). Per-hit outcome tables come from ``rules/`` through the stages; pooling
and allocation from ``allocation``; nothing is sampled.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from praetor_analysis.engine.allocation import Allocator, WoundGroup
from praetor_analysis.engine.checks import check_boost, resolve_checked
from praetor_analysis.engine.hit_stage import hit_stage
from praetor_analysis.engine.pinning import (
    Branches,
    hallucination_test,
    leadership_modifier,
    locked_in_combat,
    mixed,
    pinning_exempt,
    pinning_test,
    shell_shock_of,
    split_on_hits,
)
from praetor_analysis.engine.rule_report import classify_rules, locked_lists
from praetor_analysis.engine.volley import TargetState, Volley, VolleyResult, weapon_strength
from praetor_analysis.engine.wound_stage import extra_hits_volley, gets_hot_unsaved, wound_groups
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import Dist, sum_of_iid, thin
from praetor_analysis.profiles import Unit
from praetor_analysis.rules import Role


# --- resolution ---------------------------------------------------------------------------------
def unsaved_pmf(
    hits: np.ndarray, unsaved_each: np.ndarray, *, deflagrate: bool, extra_each: np.ndarray | None = None
) -> np.ndarray:
    """The unsaved wounds of ``hits`` (a pmf), each with the per-hit pmf ``unsaved_each``; with Deflagrate
    every unsaved wound makes one more hit, resolved with ``extra_each`` (default the same per-hit pmf;
    docs/rules.md#deflagrate)."""
    main = sum_of_iid(hits, unsaved_each)
    extra = unsaved_each if extra_each is None else extra_each
    return sum_of_iid(main, np.concatenate(([0.0], extra))) if deflagrate else main


def extra_hit_groups(
    volley: Volley, target: Unit, strength: int, wounds: int, groups: list[WoundGroup], unsaved_each: np.ndarray
) -> tuple[list[WoundGroup], np.ndarray]:
    """The per-hit groups and unsaved pmf of Deflagrate's extra hits (``extra_hits_volley``): the volley's own
    when they wound and are saved alike."""
    extra_volley = extra_hits_volley(volley)
    if extra_volley is None:
        return groups, unsaved_each
    extra, _, each = wound_groups(extra_volley, target, strength, wounds)
    return extra, each


def resolve_volley(volley: Volley, target: Unit, state: TargetState | None = None) -> VolleyResult:
    """Resolve one weapon's attack on a unit with Toughness and Wounds, exactly.

    Args:
        volley: the weapon, attacker, mode, and optional attack count or marker hits.
        target: the target unit (not a Vehicle).
        state: the target's state left by earlier volleys (a fresh unit when None).

    Returns:
        The distributions of hits, wounds, unsaved wounds and casualties (models removed from the unit so
        far: by this volley when ``state`` is None),
        the new target state, and the rules applied / not modelled. ``pinned`` is left to the sequence.
    """
    if target.is_vehicle:
        raise ProfileError("target.Unit Type: vehicles are resolved by the vehicle engine")
    if volley.zone_hits is not None:
        from praetor_analysis.engine.zones import resolve_zoned_volley

        return resolve_zoned_volley(volley, target, state)
    if check_boost(volley) is not None:  # Force and its kin: the mixture over the Psychic checks
        return resolve_checked(volley, target, state, resolve_volley)
    w = volley.weapon
    if state is None:
        state = TargetState.fresh(target, shell_shocks=(shell_shock_of(w),) if w.plays(Role.PINNING) else None)
    tracks_pinning = w.plays(Role.PINNING) and state.probs.shape[0] > 1  # a state without flags ignores Pinning
    if tracks_pinning and shell_shock_of(w) not in state.shell_shocks[1:]:
        raise ValueError(
            f"state: built without Shell Shock level {shell_shock_of(w)} of {w.name!r}; use resolve_sequence"
        )
    strength = weapon_strength(volley)

    # 1. shots or blows; 2. To Hit
    hits, ones, attack_happens, notes = hit_stage(volley, target)
    perils = None if attack_happens is None else 1.0 - attack_happens

    # 3. To Wound, saves, allocation
    groups: list[WoundGroup]
    if strength is None:
        groups, p_wound, unsaved_each = [], 0.0, np.ones(1)
    else:
        groups, p_wound, unsaved_each = wound_groups(volley, target, strength, state.space.wounds)
    deflagrate = w.plays(Role.EXTRA_HITS)
    extra_groups, extra_each = groups, unsaved_each
    if deflagrate and strength is not None:
        extra_groups, extra_each = extra_hit_groups(volley, target, strength, state.space.wounds, groups, unsaved_each)
    level = state.shell_shocks.index(shell_shock_of(w), 1) if tracks_pinning else 0
    unsaved = unsaved_pmf(hits.probabilities, unsaved_each, deflagrate=deflagrate, extra_each=extra_each)
    alloc = Allocator(state.space, pinning=tracks_pinning, level=level)
    x = hits.probabilities[:, None, None] * state.probs[None]
    max_unsaved = unsaved_each.size - 1
    first = alloc.resolve(
        x, groups, track=deflagrate, u_max=hits.max * max_unsaved, factors=(hits.probabilities, state.probs)
    )
    final = alloc.resolve(first, extra_groups, track=False)[0] if deflagrate else first[0]
    new_state = TargetState(state.space, final, state.shell_shocks)

    # 4. marginals
    wounds = Dist.from_trusted(thin(hits.probabilities, p_wound))
    casualties = new_state.kills()
    gets_hot = None
    if w.plays(Role.GETS_HOT):
        gets_hot = Dist.from_trusted(thin(ones.probabilities, gets_hot_unsaved(volley)))
    applied, no_effect, missing = classify_rules(volley, target, notes)
    return VolleyResult(
        hits=hits,
        wounds=wounds,
        unsaved=Dist.from_trusted(unsaved),
        casualties=casualties,
        pinned=None,
        applied=tuple(applied),
        not_modelled=tuple(missing),
        no_effect=tuple(no_effect),
        gets_hot=gets_hot,
        attack_happens=attack_happens,
        perils=perils,
        state=new_state,
    )


def _hallucinations(volley: Volley, target: Unit, res: VolleyResult) -> VolleyResult:
    """Hallucinations' immediate test is computed for a volley with no wound roll; with a Strength its hits
    and wounds would be joint with the test, which is not computed yet (listed under not_modelled)."""
    if weapon_strength(volley) is None:
        return res
    entries = [e for e in res.applied if e.startswith("Hallucinations")]
    return replace(
        res,
        applied=tuple(e for e in res.applied if e not in entries),
        not_modelled=(*res.not_modelled, *entries),
    )


def resolve_sequence(
    target: Unit, firing_units: Sequence[Sequence[Volley]], first: VolleyResult | None = None
) -> VolleyResult:
    """Several firing units in turn, each a list of volleys, carrying the damaged model over.

    Pinning is tested once after each firing unit that used a Pinning weapon, never when a volley is a melee
    attack: its target is then locked in combat (docs/rules.md#pinning-test).
    The result's hits, wounds and unsaved are totals over all volleys (independent sums); casualties are
    the models removed by the whole sequence. ``first``: the first volley's result on the fresh unit, with
    its state, when the caller has it from the vectorised path (``engine.chain.resolve_sequence``: a sequence
    without Pinning, whose states carry no flags).
    """
    any_pinning = any(
        v.weapon.plays(Role.PINNING) or v.weapon.plays(Role.PINNING_ON_HITS) for unit in firing_units for v in unit
    )
    if first is not None and any_pinning:
        raise ValueError("first: a sequence with Pinning flags resolves its first volley here")
    shocks = sorted({shell_shock_of(v.weapon) for unit in firing_units for v in unit if v.weapon.plays(Role.PINNING)})
    locked = locked_in_combat(v for unit in firing_units for v in unit)
    exempt = pinning_exempt(target, locked=locked)
    state = TargetState.fresh(target, shell_shocks=tuple(shocks) if any_pinning else None)
    totals: dict[str, Dist | None] = {"hits": None, "wounds": None, "unsaved": None}
    applied: list[str] = []
    no_effect: list[str] = []
    missing: list[str] = []
    gets_hot: Dist | None = None
    psychic: tuple[float | None, float | None] = (None, None)
    branches: Branches = {0: (1.0, state)}  # by the Leadership penalty of hits (Vox Silence) so far
    lowered: list[str] = []
    for unit in firing_units:
        pin_here = False
        for volley in unit:
            if first is not None:
                results, first = {0: (1.0, first)}, None
            else:
                results = {pen: (w, resolve_volley(volley, target, st)) for pen, (w, st) in branches.items()}
            res = next(iter(results.values()))[1]  # hits, wounds and unsaved do not depend on the state
            branches = {pen: (w, r.state) for pen, (w, r) in results.items()}  # type: ignore[misc]
            if volley.weapon.plays(Role.PINNING_ON_HITS):
                res = _hallucinations(volley, target, res)
                if "Hallucinations" in res.applied and not exempt:
                    branches = {pen: (w, hallucination_test(st, target, res.hits)) for pen, (w, st) in branches.items()}
            lowering = leadership_modifier(volley.weapon)
            if lowering is not None and any_pinning and not exempt:
                if res.unsaved.probabilities[0] >= 1.0 - 1e-15:  # wounds nothing: its hits are independent
                    branches = split_on_hits(branches, lowering[1], 1.0 - float(res.hits.probabilities[0]))
                    lowered.append(lowering[0])
                else:
                    missing.append(f"{lowering[0]} (its Leadership modifier, from a weapon that also wounds)")
            for key, total in totals.items():
                totals[key] = getattr(res, key) if total is None else total + getattr(res, key)
            for src, dst in ((res.applied, applied), (res.no_effect, no_effect), (res.not_modelled, missing)):
                dst.extend(x for x in src if x not in dst)
            if res.attack_happens is not None:
                psychic = (res.attack_happens, res.perils)
            if res.gets_hot is not None:
                gets_hot = res.gets_hot if gets_hot is None else gets_hot + res.gets_hot
            if volley.weapon.plays(Role.PINNING):
                pin_here = True
        if pin_here and not exempt:
            branches = {pen: (w, pinning_test(st, target, pen)) for pen, (w, st) in branches.items()}
    state = mixed(branches)
    applied.extend(x for x in lowered if x not in applied)
    no_effect = [x for x in no_effect if x not in lowered]
    if locked:  # a shooting volley's Pinning rules do nothing to a target locked in combat
        applied, no_effect = locked_lists(applied, no_effect)
    kills = state.kills()
    pinned: float | None
    if not any_pinning:
        pinned = 0.0
    elif exempt:
        pinned = None
    else:
        pinned = state.p_pinned()
    zero = Dist.point(0)
    return VolleyResult(
        hits=totals["hits"] or zero,
        wounds=totals["wounds"] or zero,
        unsaved=totals["unsaved"] or zero,
        casualties=kills,
        pinned=pinned,
        applied=tuple(applied),
        not_modelled=tuple(missing),
        no_effect=tuple(no_effect),
        gets_hot=gets_hot,
        attack_happens=psychic[0],
        perils=psychic[1],
        state=state,
    )


def resolve_exact(volley: Volley, target: Unit) -> VolleyResult:
    """One volley as a whole firing unit on the exact path: ``resolve_volley`` plus its Pinning test (what
    ``engine.batch.resolve`` computes, the state included)."""
    return resolve_sequence(target, [[volley]])
