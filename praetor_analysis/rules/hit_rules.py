"""Rules of the shots and the To Hit roll: Twin-linked, Master-crafted, Gets Hot, Psychic Focus, Skyfire,
Retaliation, Bloodthirsty, Lightning Blows, and the allocation rules that change nothing against a unit of
identical models.

A ``snaps`` hook takes the target's Unit Type and returns True when the shots must be Snap Shots (BS 1).
"""

from __future__ import annotations

from typing import Any

from praetor_analysis.rules.hooks import Hooks, Role
from praetor_analysis.rules.registry import Holder, Stage, declare, roll
from praetor_analysis.rules.wound_rules import TWIN_LINKED_TEMPLATE_HOOK

TWIN_LINKED = declare(
    "Twin-linked",
    Stage.TO_HIT,
    hooks=Hooks(wound=TWIN_LINKED_TEMPLATE_HOOK),
    summary="re-rolls failed To Hit rolls (and the scatter of a blast); a Template re-rolls failed wounds",
    roles=(Role.REROLL_FAILED_HITS,),
)
MASTER_CRAFTED = declare(
    "Master-crafted",
    Stage.TO_HIT,
    summary="each model re-rolls one failed To Hit roll of its own weapon",
    roles=(Role.ONE_REROLL_PER_MODEL,),
)
GETS_HOT = declare(
    "Gets Hot",
    Stage.TO_HIT,
    summary="each standing natural 1 To Hit wounds the firer (reported as gets_hot)",
    roles=(Role.GETS_HOT,),
)
PSYCHIC_FOCUS = declare(
    "Psychic Focus",
    Stage.ATTACKS,
    summary="each psyker passes a Psychic check (Ld test) or does not attack",
    roles=(Role.FOCUS_CHECK,),
)
SNIPER = declare("Sniper", Stage.ALLOCATION, summary="chooses who takes the wound: nothing on identical models")
PRECISION_SHOTS = declare(
    "Precision Shots",
    Stage.ALLOCATION,
    param=roll(),
    spellings=("Precision Shot",),
    summary="chooses who takes the wound: nothing on identical models",
)
PRECISION_STRIKES = declare(
    "Precision Strikes",
    Stage.ALLOCATION,
    param=roll(),
    spellings=("Precision Strike",),
    summary="chooses who takes the wound: nothing on identical models",
)

#: The Unit Type words Skyfire shoots at with its normal Ballistic Skill (docs/rules.md#skyfire).
SKYFIRE_TARGETS = ("Flyer", "Skimmer")


def _skyfire_snaps(unit_type: str) -> bool:
    low = unit_type.lower()
    return not any(w.lower() in low for w in SKYFIRE_TARGETS)


def _shooting(s: Any) -> bool:  # a rules.classify.Situation
    return not s.melee


SKYFIRE = declare(
    "Skyfire",
    Stage.TO_HIT,
    holder=Holder.UNIT,
    sides=("attacker",),
    hooks=Hooks(snaps=_skyfire_snaps),
    on_weapons=True,
    condition=_shooting,
    reads_types=SKYFIRE_TARGETS,
    summary="its normal BS against Flyers and Skimmers, only Snap Shots (BS 1) against any other target; "
    "the weapon's or the firer's",
)


def _damaged_target_possible(s: Any) -> bool:  # a rules.classify.Situation
    return not s.target_fresh_single_wound


RETALIATION = declare(
    "Retaliation",
    Stage.TO_HIT,
    auto_hit=True,
    summary="fired only in a Reaction, and hits automatically (the attack computed is that Reaction)",
)
BLOODTHIRSTY = declare(
    "Bloodthirsty",
    Stage.TO_HIT,
    pending=(Stage.TO_HIT,),
    condition=_damaged_target_possible,
    summary="+1 To Hit while a target model has lost wounds: never against untouched single-wound models",
)
LIGHTNING_BLOWS = declare(
    "Lightning Blows",
    Stage.TO_HIT,
    Stage.ROUND,
    param=roll(6),
    pending=(Stage.ROUND,),
    hooks=Hooks(hit_again=lambda value: value or 6),
    summary="each hit on a To Hit roll of X+ makes one more To Hit roll, which makes no more",
)
