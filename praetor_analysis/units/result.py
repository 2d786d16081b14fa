"""What a fielded unit's attack did: a typed :class:`UnitAttackResult`, read by attribute above this floor.

The distributions are :class:`~praetor_analysis.prob.dist.Dist` values taken from the engine's own results
(never rebuilt from a JSON pmf); :attr:`UnitAttackResult.measure` says what :attr:`~UnitAttackResult.removed`
counts (models of a unit, hull points of a vehicle), so no reader guesses it from the keys of a mapping.
:meth:`UnitAttackResult.to_dict` is the result of ``praetor calc`` (docs/scenario.md), built at the door.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from praetor_analysis.engine import VolleyResult
from praetor_analysis.melee import CombatResult
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Unit
from praetor_analysis.vehicles import VehicleAttackResult

__all__ = ["Choice", "EngineResult", "Measure", "Outcome", "UnitAttackResult"]

EngineResult = VolleyResult | VehicleAttackResult | CombatResult | None
"""The engine's typed result behind a unit's attack (None: the unit had nothing to attack with)."""


@dataclass(frozen=True)
class Choice:
    """What one group of a unit's models fired or struck with (``weapon`` None when it did neither, ``why``
    then says so), and why each other weapon it carries was not used (``unused``: weapon -> why).

    ``initiative`` is the step it strikes at (a melee choice: ``struck`` true; None for a model that does not
    fight back); ``formation`` the note of the default formation its blast or template was laid over; ``copies``
    how many of the weapon each model fires (a model that fires every weapon it carries: two heavy flamers)."""

    model: str
    count: int
    weapon: str | None
    unused: Mapping[str, str]
    struck: bool = False
    initiative: int | None = None
    why: str = ""
    formation: str = ""
    copies: int = 1

    def to_dict(self) -> dict[str, Any]:
        """The entry of the result's ``chosen`` (docs/scenario.md#units)."""
        out: dict[str, Any] = {"model": self.model, "count": self.count, "weapon": self.weapon}
        if self.struck:
            out["initiative"] = self.initiative
        if self.why:
            out["why"] = self.why
        if self.formation:
            out["formation"] = self.formation
        if self.copies > 1:
            out["copies"] = self.copies
        out["unused"] = dict(self.unused)
        return out


class Measure(Enum):
    """What a unit's attack removes from its target: models of a unit, hull points of a vehicle."""

    MODELS = "models"
    HULL_POINTS = "hull_points"

    @property
    def column(self) -> str:
        """The result's key (and the tables' ``measure``) of the distribution removed: casualties or hull points."""
        return "casualties" if self is Measure.MODELS else "hull_points"


@dataclass(frozen=True)
class Outcome:
    """What the engine's resolution of some volleys (or of a round of combat) removed from one target.

    Attributes:
        engine: the engine's typed result (None: nothing attacked).
        measure: what ``removed`` counts (:class:`Measure`).
        removed: models removed (hull points off a vehicle).
        wounds: wounds taken off the target's models (the attacker's in a whole round); hull points off a vehicle.
        unsaved: unsaved wounds (penetrating hits off a vehicle).
        wiped: P(every model removed); P(wrecked) for a vehicle.
        returned: the attacker's models removed when the target fights back (None when it does not).
        caused: whether ``wounds`` was read off the target's final state (the result then has ``wounds_caused``).
    """

    engine: EngineResult
    measure: Measure
    removed: Dist
    wounds: Dist
    unsaved: Dist
    wiped: float
    returned: Dist | None = None
    caused: bool = False

    @classmethod
    def of(cls, engine: EngineResult, target: Unit, caused: Dist | None = None) -> Outcome:
        """The outcome of the engine's result against ``target`` (``caused``: the wounds taken off its models,
        read off the final state; else the models removed stand for them)."""
        zero = Dist.point(0)
        if isinstance(engine, VehicleAttackResult):
            return cls(engine, Measure.HULL_POINTS, engine.hull_points, engine.hull_points, engine.penetrating,
                       engine.wrecked)  # fmt: skip
        if engine is None:
            removed, wounds, unsaved, returned = zero, zero, zero, None
        elif isinstance(engine, CombatResult):
            removed, wounds, unsaved = engine.target_casualties, engine.attacker_wounds, engine.attacker_strikes.unsaved
            returned = engine.attacker_casualties
        else:
            removed, unsaved, returned = engine.casualties, engine.unsaved, None
            wounds = caused if caused is not None else removed
        if target.is_vehicle:
            return cls(engine, Measure.HULL_POINTS, removed, wounds, unsaved, 0.0)
        wiped = float(removed.sf(target.models - 1))
        return cls(engine, Measure.MODELS, removed, wounds, unsaved, wiped, returned, caused is not None)

    def to_dict(self) -> dict[str, Any]:
        """The engine's result as ``praetor calc`` gives it, with ``wounds_caused`` when it was read."""
        if self.engine is None:
            zero = Dist.point(0).to_dict()
            empty = {"hits": zero, "applied": [], "not_modelled": [], "no_effect": []}
            if self.measure is Measure.HULL_POINTS:
                return {**empty, "hull_points": zero, "penetrating": zero}
            return {**empty, "wounds": zero, "unsaved": zero, "casualties": zero, "wounds_caused": zero, "pinned": 0.0}
        out = self.engine.to_dict()
        if self.caused:
            out["wounds_caused"] = self.wounds.to_dict()
        return out


@dataclass(frozen=True)
class UnitAttackResult:
    """A fielded unit's shooting or melee at one target.

    Attributes:
        datasheet, faction, size, points: the unit as fielded.
        phase: ``"shooting"`` or ``"melee"``.
        outcome: what the attack removed (:class:`Outcome`; its fields are read here too: ``measure``,
            ``removed``, ``wounds``, ``unsaved``, ``wiped``, ``returned``).
        target_models: the target's models (the share removed is of them).
        chosen: what each group of the unit fired or struck with (:class:`Choice`).
        applied, not_modelled: the rule notes; ``reasons`` says why each unit note of ``not_modelled`` is there.
        no_weapon: no model of the unit carries a weapon for the phase (it removes nothing; a rating row has no
            number then, its ``error`` says why).
        extra: fields of the contract's result read by no one but the door (``target_chosen``).
    """

    datasheet: str
    faction: str
    size: int
    points: float
    phase: str
    outcome: Outcome
    target_models: int
    chosen: tuple[Choice, ...]
    applied: tuple[str, ...]
    not_modelled: tuple[str, ...]
    reasons: Mapping[str, str]
    no_weapon: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def measure(self) -> Measure:
        """What :attr:`removed` counts."""
        return self.outcome.measure

    @property
    def removed(self) -> Dist:
        """Models removed (hull points off a vehicle)."""
        return self.outcome.removed

    @property
    def wounds(self) -> Dist:
        """Wounds taken off the target's models (the attacker's in a whole round); hull points off a vehicle."""
        return self.outcome.wounds

    @property
    def unsaved(self) -> Dist:
        """Unsaved wounds (penetrating hits off a vehicle)."""
        return self.outcome.unsaved

    @property
    def wiped(self) -> float:
        """P(every model removed); P(wrecked) for a vehicle."""
        return self.outcome.wiped

    @property
    def returned(self) -> Dist | None:
        """The attacker's models removed when the target fights back (None when it does not)."""
        return self.outcome.returned

    @property
    def wounds_removed(self) -> float:
        """The mean wounds taken off the target's models (hull points off a vehicle)."""
        return self.wounds.mean()

    @property
    def share_removed(self) -> float:
        """The mean share of the target's models removed (so of its points when its models cost alike);
        a vehicle's chance of being wrecked."""
        if self.measure is Measure.HULL_POINTS:
            return self.wiped
        return self.removed.mean() / max(self.target_models, 1)

    def to_dict(self) -> dict[str, Any]:
        """The result as ``praetor calc`` gives it (docs/scenario.md#units)."""
        out = self.outcome.to_dict()
        out.update(self.extra)
        out["applied"] = list(self.applied)
        out["not_modelled"] = list(self.not_modelled)
        out["reasons"] = dict(self.reasons)
        out["wounds_removed"] = self.wounds_removed
        out["share_removed"] = self.share_removed
        return {
            "datasheet": self.datasheet,
            "faction": self.faction,
            "size": self.size,
            "points": self.points,
            "phase": self.phase,
            "chosen": [c.to_dict() for c in self.chosen],
            **out,
        }
