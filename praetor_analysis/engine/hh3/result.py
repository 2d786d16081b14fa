"""The typed results of an edition 3 attack (docs/rules-hh3.md) and their mixture over chance events decided
before the dice (a Force (X) Willpower Check)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from praetor_analysis.prob import Dist

__all__ = ["ForceResult", "Hh3Result", "MisfireResult", "mix_results"]


@dataclass(frozen=True)
class ForceResult:
    """The Willpower Check of one Force (X) volley: P(pass: X doubled) and P(Perils of the Warp: any double),
    split into Warp Rupture (double 1 or 6) and Stunned (double 2 to 5), on the psyker's unit."""

    firing_unit: int
    volley: int
    weapon: str
    boost: float
    perils: float
    warp_rupture: float
    stunned: float

    def to_dict(self) -> dict[str, object]:
        """The JSON view."""
        return {
            "firing_unit": self.firing_unit, "volley": self.volley, "weapon": self.weapon, "boost": self.boost,
            "perils": self.perils, "warp_rupture": self.warp_rupture, "stunned": self.stunned,
        }  # fmt: skip


@dataclass(frozen=True)
class MisfireResult:
    """The Misfires of one Overload volley, resolved on its own firing unit (a separate result)."""

    firing_unit: int
    volley: int
    weapon: str
    misfires: Dist
    wounds: Dist
    unsaved: Dist
    casualties: Dist
    damage: Dist

    def to_dict(self) -> dict[str, object]:
        """The JSON view."""
        return {
            "firing_unit": self.firing_unit,
            "volley": self.volley,
            "weapon": self.weapon,
            "hits": self.misfires.to_dict(),
            "wounds": self.wounds.to_dict(),
            "unsaved": self.unsaved.to_dict(),
            "casualties": self.casualties.to_dict(),
            "damage": self.damage.to_dict(),
        }


@dataclass(frozen=True)
class Hh3Result:
    """What an edition 3 attack did to a unit (docs/rules-hh3.md).

    Attributes:
        hits, critical_hits, wounds, unsaved: counts over every die (Deflagrate's Unsaved Wounds in ``unsaved``).
        casualties: models removed; damage: wounds the unit lost (excess on a dying model lost).
        statuses: P(each Tactical Status) after the Morale Sub-Phase (None: nothing can cause it).
        misfires: one entry per Overload volley.
        applied, not_modelled, no_effect, reasons: the verdict on every rule.
        phage: P(the survivors lose 1 from each characteristic a Phage (X) weapon names).
    """

    hits: Dist
    critical_hits: Dist
    wounds: Dist
    unsaved: Dist
    casualties: Dist
    damage: Dist
    statuses: tuple[tuple[str, float | None], ...]
    misfires: tuple[MisfireResult, ...]
    applied: tuple[str, ...]
    not_modelled: tuple[str, ...]
    no_effect: tuple[str, ...]
    reasons: tuple[tuple[str, str], ...]
    phage: tuple[tuple[str, float], ...] = ()
    force: tuple[ForceResult, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """The JSON view (the edition 3 keys of docs/scenario.md)."""
        out: dict[str, object] = {
            "edition": "hh3",
            "hits": self.hits.to_dict(),
            "critical_hits": self.critical_hits.to_dict(),
            "wounds": self.wounds.to_dict(),
            "unsaved": self.unsaved.to_dict(),
            "casualties": self.casualties.to_dict(),
            "damage": self.damage.to_dict(),
            "statuses": dict(self.statuses),
        }
        if self.phage:
            out["phage"] = dict(self.phage)
        if self.force:
            out["force"] = [f.to_dict() for f in self.force]
        if self.misfires:
            out["misfires"] = [m.to_dict() for m in self.misfires]
        out.update(
            applied=list(self.applied),
            not_modelled=list(self.not_modelled),
            no_effect=list(self.no_effect),
            reasons=dict(self.reasons),
        )
        return out


def _mix(weights: Sequence[float], dists: Sequence[Dist]) -> Dist:
    return Dist.mixture(list(weights), list(dists))


def _mix_value(weights: Sequence[float], values: Sequence[float | None]) -> float | None:
    if all(v is None for v in values):
        return None
    return sum(w * (0.0 if v is None else v) for w, v in zip(weights, values, strict=True))


def mix_results(weights: Sequence[float], results: Sequence[Hh3Result]) -> Hh3Result:
    """The result of an attack that is ``results[i]`` with probability ``weights[i]`` (the same volleys, so
    the same misfire entries and rule verdicts: those of the first result, merged with the others')."""
    first = results[0]
    statuses = tuple(
        (name, _mix_value(weights, [dict(r.statuses)[name] for r in results])) for name, _ in first.statuses
    )
    misfires = tuple(
        MisfireResult(
            m.firing_unit,
            m.volley,
            m.weapon,
            _mix(weights, [r.misfires[i].misfires for r in results]),
            _mix(weights, [r.misfires[i].wounds for r in results]),
            _mix(weights, [r.misfires[i].unsaved for r in results]),
            _mix(weights, [r.misfires[i].casualties for r in results]),
            _mix(weights, [r.misfires[i].damage for r in results]),
        )
        for i, m in enumerate(first.misfires)
    )
    phage = tuple((k, sum(w * dict(r.phage).get(k, 0.0) for w, r in zip(weights, results, strict=True)))
                  for k in dict.fromkeys(k for r in results for k, _ in r.phage))  # fmt: skip

    def merged(attr: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(x for r in results for x in getattr(r, attr)))

    applied = merged("applied")
    not_modelled = tuple(x for x in merged("not_modelled") if x not in applied)
    no_effect = tuple(x for x in merged("no_effect") if x not in applied and x not in not_modelled)
    reasons = tuple(dict(x for r in results for x in r.reasons).items())
    hits, critical_hits, wounds, unsaved, casualties, damage = (
        _mix(weights, [getattr(r, key) for r in results])
        for key in ("hits", "critical_hits", "wounds", "unsaved", "casualties", "damage")
    )
    return Hh3Result(
        hits, critical_hits, wounds, unsaved, casualties, damage, statuses, misfires, applied, not_modelled,
        no_effect, reasons, phage, first.force,
    )  # fmt: skip
