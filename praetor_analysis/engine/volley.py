"""The records of one attack: the volley, the target's running state, and the result."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from praetor_analysis.engine.allocation import (
    UnitSpace,
)
from praetor_analysis.errors import ProfileError
from praetor_analysis.prob import DiceExpr, Dist, probability
from praetor_analysis.profiles import Unit, Weapon
from praetor_analysis.rules import CHARGE_STRENGTH, STRENGTH, stage_hooks

#: Most attacks or hits a Volley may be given as a whole number (the engine bounds them further).
MAX_VOLLEY_COUNT = 100_000


@dataclass(frozen=True)
class Volley:
    """One weapon's attack: the weapon, its wielders, and how many shots or blows (or marker hits)."""

    weapon: Weapon
    attacker: Unit
    mode: str = "shooting"
    attacks: DiceExpr | Dist | None = None
    hits: DiceExpr | Dist | None = None
    snap_shots: bool = False
    half_range: bool = False
    ones: Dist | None = None  # Gets Hot natural 1s already rolled by the marker geometry, if any
    zone_hits: np.ndarray | None = field(default=None, compare=False)  # Mega-blast joint hits per zone
    strength: int | None = None  # the Strength after a check (Force...), resolved by engine/checks.py
    placement: str | None = None  # how the marker hits were made: "formation", "wall of death"
    check_pass: float | None = None  # P(the Psychic checks passed) when ``hits`` already count them (markers)
    taken: tuple[str, ...] = ()  # the options of the weapon taken, as the result lists them (scenario.options)

    def __post_init__(self) -> None:
        """The values' kinds checked: a whole number of attacks or hits is read as that many."""
        if not isinstance(self.weapon, Weapon) or not isinstance(self.attacker, Unit):
            raise TypeError("Volley: weapon must be a Weapon and attacker a Unit")
        if self.mode not in ("shooting", "melee"):
            raise ProfileError(f'mode: expected "shooting" or "melee", got {self.mode!r}', field="mode")
        for name in ("attacks", "hits"):
            value = getattr(self, name)
            if isinstance(value, bool) or not (value is None or isinstance(value, (int, np.integer, DiceExpr, Dist))):
                raise TypeError(f"Volley.{name}: expected a DiceExpr, a Dist or a whole number, got {value!r}")
            if isinstance(value, (int, np.integer)):
                if not 0 <= value <= MAX_VOLLEY_COUNT:
                    raise ProfileError(f"{name}: expected 0..{MAX_VOLLEY_COUNT}, got {value}", field=name, value=value)
                object.__setattr__(self, name, Dist.point(int(value)))
        for name in ("snap_shots", "half_range"):
            if not isinstance(getattr(self, name), bool):
                raise TypeError(f"Volley.{name}: expected True or False, got {getattr(self, name)!r}")


@dataclass
class TargetState:
    """The running state of a target unit: a tensor over (Pinning flags, unit state).

    With Pinning in play the flag axis has ``2 * len(shell_shocks)`` entries, index ``pinned * T + t``:
    ``t`` = 0 when no Pinning weapon has caused an unsaved wound in the current firing unit, else the index
    in ``shell_shocks`` (ascending, ``shell_shocks[0]`` unused) of the highest Shell Shock among those that did.
    """

    space: UnitSpace
    probs: np.ndarray  # shape (F, S); F = 1 without Pinning
    shell_shocks: tuple[int, ...] = (0,)

    @classmethod
    def fresh(cls, target: Unit, *, shell_shocks: tuple[int, ...] | None = None) -> TargetState:
        """An intact target (its first model may already have lost ``wounds_taken``)."""
        w = target.W or 1
        taken = target.wounds_taken
        if not 0 <= taken < w:
            raise ProfileError(f"target.wounds_taken: must be 0..{w - 1}, got {taken}")
        space = UnitSpace(target.models, w)
        levels = (0, *tuple(shell_shocks)) if shell_shocks is not None else (0,)
        probs = np.zeros((1 if shell_shocks is None else 2 * len(levels), space.size))
        probs[0] = space.start(taken)
        return cls(space, probs, levels)

    def kills(self) -> Dist:
        """Distribution of models removed so far."""
        per_state = self.probs.sum(axis=0)
        return Dist.from_trusted(np.bincount(self.space.kills_of(), weights=per_state, minlength=self.space.models + 1))

    def p_pinned(self) -> float:
        """P(the unit is Pinned)."""
        flags = self.probs.shape[0]
        return float(self.probs[flags // 2 :].sum()) if flags > 1 else 0.0


@dataclass(frozen=True)
class Casualties:
    """What a sweep reads of one cell: the pmf of models removed, P(pinned) and the rules not modelled."""

    casualties: np.ndarray
    pinned: float | None
    not_modelled: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "pinned", probability(self.pinned))


@dataclass(frozen=True)
class VolleyResult:
    """Exact distributions of one volley (or a sequence), with the rules applied and not modelled."""

    hits: Dist
    wounds: Dist
    unsaved: Dist
    casualties: Dist
    pinned: float | None
    applied: tuple[str, ...]
    not_modelled: tuple[str, ...]
    no_effect: tuple[str, ...] = ()
    gets_hot: Dist | None = None
    attack_happens: float | None = None
    perils: float | None = None
    state: TargetState | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("pinned", "attack_happens", "perils"):  # docs/rules.md#what-a-result-reports
            object.__setattr__(self, name, probability(getattr(self, name)))

    @classmethod
    def of_fields(
        cls,
        hits: Dist,
        wounds: Dist,
        unsaved: Dist,
        casualties: Dist,
        pinned: float | None,
        applied: tuple[str, ...],
        not_modelled: tuple[str, ...],
        no_effect: tuple[str, ...],
        gets_hot: Dist | None,
        attack_happens: float | None,
        perils: float | None,
        state: TargetState | None,
    ) -> VolleyResult:
        """``VolleyResult(...)`` of every field, without the frozen dataclass's ``object.__setattr__`` per field
        (a tenth of the time: the batch builds one per cell); the same record (its probabilities clipped to [0, 1]
        as ``__post_init__`` does, no other field checked or changed)."""
        out = object.__new__(cls)
        out.__dict__.update(
            hits=hits,
            wounds=wounds,
            unsaved=unsaved,
            casualties=casualties,
            pinned=probability(pinned),
            applied=applied,
            not_modelled=not_modelled,
            no_effect=no_effect,
            gets_hot=gets_hot,
            attack_happens=probability(attack_happens),
            perils=probability(perils),
            state=state,
        )
        return out

    def to_dict(self, hits: dict[str, object] | None = None) -> dict[str, object]:
        """The docs/scenario.md result form; ``hits``: the hits' mapping, when the caller has it made."""
        out: dict[str, object] = {
            "hits": self.hits.to_dict() if hits is None else hits,
            "wounds": self.wounds.to_dict(),
            "unsaved": self.unsaved.to_dict(),
            "casualties": self.casualties.to_dict(),
            "pinned": self.pinned,
            "applied": list(self.applied),
            "not_modelled": list(self.not_modelled),
            "no_effect": list(self.no_effect),
        }
        if self.gets_hot is not None:
            out["gets_hot"] = self.gets_hot.to_dict()
        if self.attack_happens is not None:
            out["attack_happens"] = self.attack_happens
            out["perils"] = self.perils
        return out


# --- the per-hit outcome table ------------------------------------------------------------------
#: Footnote marks printed for a Strength that a rule of the weapon gives.
FOOTNOTES = ("*", "\u2020")


def weapon_strength(volley: Volley) -> int | None:
    """The volley's Strength; a bare footnote mark (``*``, ``†``) is the Strength the weapon's rule with a
    ``strength`` hook gives (Graviton weapons never read it); None when nothing gives one."""
    if volley.strength is not None:
        return volley.strength
    spec = volley.weapon.strength
    if spec.kind == "unknown" and spec.text in FOOTNOTES:
        for _, _, hook in stage_hooks(STRENGTH, volley.weapon.rules):
            return int(hook(volley.attacker.S))
        return None
    return spec.resolve(_charging_strength(volley))


def _charging_strength(volley: Volley) -> int | None:
    """The wielder's S, with the weapon's or the attacker's bonus on the charge in melee (Furious Charge; the
    unit's rule and the weapon's are not added twice)."""
    a = volley.attacker
    if a.S is None or volley.mode != "melee" or not a.charging or a.disordered:
        return a.S
    bonus = 0
    seen: set[str] = set()
    unit_rules = [t for t, _, _ in stage_hooks(CHARGE_STRENGTH, a.rules, side="attacker")]
    for token, _, hook in stage_hooks(CHARGE_STRENGTH, (*volley.weapon.rules, *unit_rules)):
        if token.name not in seen:
            seen.add(token.name)
            bonus += hook(token.value)
    return a.S + bonus
