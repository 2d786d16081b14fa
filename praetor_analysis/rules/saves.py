"""Saves and damage mitigation (docs/rules.md#saves-and-mitigation), Brutal and Destroyer damage
(docs/rules.md#brutal, docs/rules.md#destroyer).

One save per wound, the best available (armour unless the AP negates it, with the Heavy sub-type's
re-roll against Blast and Template; invulnerable; cover against shooting unless Ignores Cover or a
Template), then at most one damage mitigation roll, the best allowed (Feel No Pain, not against Instant
Death; Shrouded, not against melee, Ignores Cover (so never against templates) or Fearless models).

Eternal Warrior turns an Instant Death wound into one wound, against which Feel No Pain is still not
allowed (the wound keeps Instant Death). Our reading where the rules leave room: a Destroyer weapon's
unsaved wound does D3 damage to the model it is allocated to, the excess lost when that model dies (like
Brutal).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from praetor_analysis.prob import p_at_least
from praetor_analysis.rules.tables import armour_usable
from praetor_analysis.rules.wound import WoundKind


@dataclass(frozen=True)
class SaveContext:
    """What a wound's target may roll: its saves and mitigation, and what the attack denies."""

    armour: int | None = None
    invulnerable: int | None = None
    cover: int | None = None
    feel_no_pain: int | None = None
    shrouded: int | None = None
    heavy_reroll: bool = False  # Heavy sub-type against Blast or Template
    cover_denied: bool = False  # Ignores Cover, Template, or melee
    shrouded_denied: bool = False  # melee, Ignores Cover (templates too), or a Fearless target
    reroll_passed_invulnerable: bool = False  # a passed invulnerable save is rolled again (Sanctic on Daemons)
    invulnerable_worse: int = 0  # the invulnerable save taken is this much worse, 6+ at worst (Curse of Dead Worlds)

    def p_saved(self, kind: WoundKind) -> float:
        """P(the wound is saved) with the best save allowed (a discarded wound counts as saved)."""
        if kind.saves == "discarded":
            return 1.0
        if kind.saves == "none":
            return 0.0
        options = []
        if kind.saves == "all":
            if self.armour is not None and armour_usable(self.armour, kind.ap):
                p = p_at_least(self.armour)
                options.append(p + (1 - p) * p if self.heavy_reroll else p)
            if self.cover is not None and not self.cover_denied:
                options.append(p_at_least(self.cover))
        if self.invulnerable is not None:
            p = p_at_least(min(self.invulnerable + self.invulnerable_worse, 6))
            options.append(p * p if self.reroll_passed_invulnerable else p)
        return max(options, default=0.0)

    def p_mitigated(self, kind: WoundKind) -> float:
        """P(an unsaved wound is ignored by the best damage mitigation roll allowed)."""
        if kind.saves == "none":
            return 0.0
        options = []
        if self.feel_no_pain is not None and not (kind.instant_death or kind.no_feel_no_pain):
            options.append(p_at_least(self.feel_no_pain))
        if self.shrouded is not None and not self.shrouded_denied:
            options.append(p_at_least(self.shrouded))
        return max(options, default=0.0)

    def p_unsaved(self, kind: WoundKind) -> float:
        """P(the wound survives the save and the mitigation roll) (memoised: both are values)."""
        return _p_unsaved(self, kind)


@lru_cache(maxsize=8192)
def _p_unsaved(ctx: SaveContext, kind: WoundKind) -> float:
    return (1.0 - ctx.p_saved(kind)) * (1.0 - ctx.p_mitigated(kind))
