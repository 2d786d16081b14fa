"""To Wound (docs/rules.md#to-wound-table): the wound table, Fleshbane, Poisoned, Rending, Breaching,
Murderous Strike, Shred and other re-rolls, Instant Death, and Haywire against Dreadnoughts/Automata.

The result is a categorical distribution over *wound kinds* for one hit: each kind says how the wound
is saved (its AP and which saves are allowed) and whether it causes Instant Death. Only the die that
stands after a re-roll triggers Rending, Breaching or Murderous Strike.

``reroll_ones`` re-rolls a natural 1 (Preferred Enemy, "Re-roll To Wound 1s"); a die is re-rolled at most
once, so with Shred it adds nothing. ``modifier`` moves the roll needed on the table (or after Poisoned,
Fleshbane): never better than 2+, a need above 6+ never wounds, and a table "-" stays "-". Rending, Breaching,
Murderous Strike and the other rules of a 6 read the natural face of the standing die.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache


@dataclass(frozen=True)
class WoundKind:
    """A class of wound: its AP (None = "-"), Instant Death, and which saves are allowed.

    ``saves``: "all" (armour, invulnerable, cover, mitigation), "invulnerable" (only invulnerable saves and
    damage mitigation: Haywire 2-5), "none" (Haywire 6), or "discarded" (Entangle: never unsaved).
    ``no_feel_no_pain``: an Instant Death wound that Eternal Warrior turned into one wound still allows no
    Feel No Pain (docs/rules.md#feel-no-pain).
    """

    ap: int | None
    instant_death: bool = False
    saves: str = "all"
    no_feel_no_pain: bool = False

    @property
    def priority(self) -> int:
        """Allocation order inside one attack: Instant Death first, then AP 2 (or better), then the rest."""
        if self.instant_death:
            return 0
        if self.ap is not None and self.ap <= 2:
            return 1
        return 2


@dataclass(frozen=True)
class WoundRoll:
    """How one hit rolls To Wound."""

    target: int | None  # D6 target from the table after Fleshbane/Poisoned; None = cannot wound
    reroll_failed: bool = False
    reroll_successful: bool = False  # every wounding die re-rolled (Poisoned/Fleshbane on Dreadnoughts...)
    rending: int | None = None
    breaching: int | None = None
    murderous: int | None = None
    instant_death: bool = False  # from a rule (Instant Death, Force on a Daemon...)
    strength_death: bool = False  # from the Strength: S at least twice T (Battle-Hardened raises T for it)
    ap: int | None = None
    melee: bool = False
    eternal_warrior: bool = False  # the target's: Instant Death becomes one wound, still without Feel No Pain
    haywire: bool = False  # Haywire against a Dreadnought or Automata: a D6 instead (haywire_outcomes)
    fixed_p: float | None = None  # P(the hit wounds) when no D6 face decides (2D6 against S; never)
    six_ap: int | None = None  # a wound roll of 6 is resolved at this AP (the better of it and the others)
    six_unsavable: bool = False  # a wound roll of 6 always wounds and allows no save or mitigation
    discarded: bool = False  # its wounds are discarded: no save is rolled and none is ever unsaved (Entangle)
    auto_p: float = 0.0  # the share of hits that wound without a roll (a To Hit roll of 6: Molecular Dissonance)
    reroll_ones: bool = False  # a natural 1 is re-rolled (once)
    modifier: int = 0  # added to the roll: +1 makes the table's 4+ a 3+

    @property
    def need(self) -> int | None:
        """The D6 roll needed after the modifier (2 at best, 7 = never), None when the table says "-"."""
        return None if self.target is None else min(max(self.target - self.modifier, 2), 7)

    def wounds_on(self, face: int) -> bool:
        """True when a standing die showing ``face`` wounds (a natural 1 always fails)."""
        if face == 1:
            return False
        if self.six_unsavable and face == 6:
            return True
        if self.rending is not None and face >= self.rending:
            return True
        need = self.need
        return need is not None and face >= need

    def kind_of(self, face: int) -> WoundKind:
        """The kind of wound a wounding die showing ``face`` causes."""
        ap = self.ap
        if (self.rending is not None and face >= self.rending) or (
            self.breaching is not None and face >= self.breaching
        ):
            # Resolved at AP 2; in melee the attacker keeps the weapon's AP when it is better (lower).
            ap = 2 if ap is None or not self.melee else min(ap, 2)
        if face == 6 and self.six_ap is not None:
            ap = self.six_ap if ap is None else min(ap, self.six_ap)
        saves = "none" if face == 6 and self.six_unsavable else "all"
        if self.discarded:
            saves = "discarded"
        death = self.instant_death or self.strength_death or (self.murderous is not None and face >= self.murderous)
        if self.eternal_warrior:
            return WoundKind(ap, False, saves, no_feel_no_pain=death)
        return WoundKind(ap, death, saves)

    def outcomes(self) -> dict[WoundKind, float]:
        """P(each wound kind) for one hit; the rest of the mass is "no wound" (memoised: a roll is a value)."""
        if self.auto_p > 0.0:  # those hits wound as the plain wound of the weapon, the others roll
            rolled = replace(self, auto_p=0.0).outcomes()
            # (every hit a six: BS 1 or Snap Shots, no rolled kind is left)
            out = {kind: (1.0 - self.auto_p) * p for kind, p in rolled.items() if self.auto_p < 1.0}
            plain = self.kind_of(0)
            out[plain] = out.get(plain, 0.0) + self.auto_p
            return out
        if self.haywire:
            return haywire_outcomes()
        if self.fixed_p is not None:  # no face decides: the plain wound of the weapon
            return {self.kind_of(0): self.fixed_p} if self.fixed_p > 0 else {}
        return dict(_outcomes(self))

    def _outcomes(self) -> dict[WoundKind, float]:
        standing = [0.0] * 7  # P(the die that stands shows f): a die is re-rolled at most once
        for first in range(1, 7):
            wounded = self.wounds_on(first)
            again_fail = self.reroll_failed or (self.reroll_ones and first == 1)
            if (wounded and self.reroll_successful) or (not wounded and again_fail):
                for again in range(1, 7):
                    standing[again] += 1.0 / 36.0
            else:
                standing[first] += 1.0 / 6.0
        out: dict[WoundKind, float] = {}
        for f in range(2, 7):
            if self.wounds_on(f) and standing[f] > 0:
                k = self.kind_of(f)
                out[k] = out.get(k, 0.0) + standing[f]
        return out


@lru_cache(maxsize=4096)
def _outcomes(roll: WoundRoll) -> tuple[tuple[WoundKind, float], ...]:
    return tuple(roll._outcomes().items())


def haywire_outcomes() -> dict[WoundKind, float]:
    """Haywire against a Dreadnought or Automata: D6 1 nothing, 2-5 a wound (invulnerable saves and
    damage mitigation only), 6 a wound that allows no save or mitigation."""
    return {WoundKind(None, False, "invulnerable"): 4.0 / 6.0, WoundKind(None, False, "none"): 1.0 / 6.0}
