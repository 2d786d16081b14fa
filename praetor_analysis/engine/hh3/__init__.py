"""The 3rd edition's engine stages (docs/rules-hh3.md), exact, for units of identical models.

The typed API other stages (vehicles, markers, whole melee rounds) call:

- :func:`ranged_hit_die`, :func:`melee_hit_die`, :func:`hit_die` -> :class:`HitDie`: the classes of one hit
  die (miss, hit, critical, rending; Precision and Overload Misfire shares).
- :class:`Strike` (what a hit carries) and :class:`Defence` (the target's side): :func:`wound_classes` gives
  what one hit of a class becomes (no wound, or a wound of a set-aside group with its save and Damage);
  :func:`p_unsaved` and :func:`damage_dist` are its pieces.
- :class:`FireGroup` (dice count, die, strike, defence, Deflagrate, status triggers, group order) and the
  state machine over :data:`State` ``(models, wounds left on the current model, Pinned, Suppressed, Stunned,
  Routed, models at the attack's start)``: :func:`start`, :func:`resolve_group` (one group, exactly, excess
  Damage lost), :func:`end_attack` (the 25% casualties trigger), :func:`group_counts` (hits, critical hits,
  wounds, unsaved distributions), :func:`losses` (casualties and damage of a final state distribution).
- :func:`statuses` with :class:`CheckValues` (:func:`check_values` of a target): P(each Tactical Status) from a
  final state distribution.
- :class:`Hh3Volley` / :class:`Hh3Context` with :func:`fire_group` (a profile's volley -> FireGroup),
  :func:`one_attack` (a firing unit's volleys told their attack's largest X of each status rule),
  :func:`resolve_hh3` (firing units in sequence -> :class:`Hh3Result`), :func:`misfire_result` (a volley's Overload
  Misfires resolved on its own unit, as every stage reports them).
"""

from praetor_analysis.engine.hh3.attack import MAX_FORCE, MAX_WORK, losses, misfire_result, resolve_hh3
from praetor_analysis.engine.hh3.chain import (
    PINNED,
    ROUTED,
    STATUSES,
    STUNNED,
    SUPPRESSED,
    FireGroup,
    GroupClasses,
    State,
    end_attack,
    group_classes,
    group_counts,
    resolve_group,
    start,
)
from praetor_analysis.engine.hh3.hit import GIVEN_HIT, HitDie, hit_die, melee_hit_die, ranged_hit_die
from praetor_analysis.engine.hh3.report import RuleReport, stationary_verdict, target_report, volley_report
from praetor_analysis.engine.hh3.result import ForceResult, Hh3Result, MisfireResult, mix_results
from praetor_analysis.engine.hh3.statuses import FLYER_IMMUNE, CheckValues, check_values, statuses
from praetor_analysis.engine.hh3.volley import (
    Hh3Context,
    Hh3Volley,
    defence_of,
    fire_group,
    misfire_group,
    one_attack,
    snap_forced,
    strike_of,
)
from praetor_analysis.engine.hh3.wound import (
    GROUPS,
    Defence,
    GroupOutcome,
    Strike,
    WoundClasses,
    breaching_ap,
    damage_dist,
    p_unsaved,
    wound_classes,
)

__all__ = [
    "FLYER_IMMUNE",
    "GIVEN_HIT",
    "GROUPS",
    "MAX_FORCE",
    "MAX_WORK",
    "PINNED",
    "ROUTED",
    "STATUSES",
    "STUNNED",
    "SUPPRESSED",
    "CheckValues",
    "Defence",
    "FireGroup",
    "ForceResult",
    "GroupClasses",
    "GroupOutcome",
    "Hh3Context",
    "Hh3Result",
    "Hh3Volley",
    "HitDie",
    "MisfireResult",
    "RuleReport",
    "State",
    "Strike",
    "WoundClasses",
    "breaching_ap",
    "check_values",
    "damage_dist",
    "defence_of",
    "end_attack",
    "fire_group",
    "group_classes",
    "group_counts",
    "hit_die",
    "losses",
    "melee_hit_die",
    "misfire_group",
    "misfire_result",
    "mix_results",
    "one_attack",
    "p_unsaved",
    "ranged_hit_die",
    "resolve_group",
    "resolve_hh3",
    "snap_forced",
    "start",
    "stationary_verdict",
    "statuses",
    "strike_of",
    "target_report",
    "volley_report",
    "wound_classes",
]
