"""The modifiers a player sets in the dashboard, as scenario fields (pure; no widgets, no figures).

The attacker's modifiers are one typed record, :class:`praetor_analysis.units.modifiers.Modifiers`
(re-rolls, +/-1 to hit and to wound, Preferred Enemy, Furious Charge), carried by the scenario as
``attacker.modifiers`` and applied by the engine's parser to the typed weapon and unit records
(docs/scenario.md). A dashboard setup (:class:`Modifiers` here) holds that record as it is, beside what is not
the attacker's: the targets' cover and Feel No Pain, half range and charging.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from praetor_analysis.profiles import is_vehicle_type
from praetor_analysis.units import MODIFIER_FIELDS, NO_MODIFIERS, REROLL_CHOICES
from praetor_analysis.units import Modifiers as AttackerModifiers

__all__ = [
    "REROLL_CHOICES",
    "SITUATION_FIELDS",
    "AttackerModifiers",
    "Modifiers",
    "apply_modifiers",
    "attacker_with",
    "modifier_names",
    "modifiers_of_attacker",
]


@dataclass(frozen=True)
class Modifiers:
    """The modifiers of a dashboard setup: the attacker's record and the situation's.

    Attributes:
        attacker: The attacker's modifiers (the scenario's ``attacker.modifiers``; checked by that record).
        cover, fnp: The target's cover save and Feel No Pain (``"-"`` for none).
        half_range: Shooting at half range.
        charging: The attacker charged (melee).
    """

    attacker: AttackerModifiers = NO_MODIFIERS
    cover: str = "-"
    fnp: str = "-"
    half_range: bool = False
    charging: bool = False

    @classmethod
    def of(cls, **values: Any) -> Modifiers:
        """From loose fields (a dashboard state's, a test's): the attacker's (``reroll_hits``, ``to_hit``...,
        :data:`~praetor_analysis.units.modifiers.MODIFIER_FIELDS`) make its record, the others
        (:data:`SITUATION_FIELDS`) the situation.

        Raises:
            ScenarioError: A bad value of an attacker's field (a ValueError, naming it).
            TypeError: A field that is neither.
        """
        own = {k: v for k, v in values.items() if k in MODIFIER_FIELDS}
        return cls(AttackerModifiers(**own), **{k: v for k, v in values.items() if k not in MODIFIER_FIELDS})


SITUATION_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Modifiers) if f.name != "attacker")
"""The fields of a setup that are not the attacker's modifiers."""


def modifier_names(m: Modifiers, *, melee: bool = False) -> tuple[str, ...]:
    """The modifiers in force, in words (for the report's Assumptions)."""
    out = list(m.attacker.words(melee=melee))
    if m.cover not in ("", "-"):
        out.append(f"cover {m.cover}")
    if m.fnp not in ("", "-"):
        out.append(f"Feel No Pain ({m.fnp})")
    return tuple(out)


def attacker_with(attacker: Mapping[str, Any], m: Modifiers) -> dict[str, Any]:
    """An attacker block with the modifiers' record (``modifiers``) and ``charging``."""
    out = dict(attacker)
    block = m.attacker.to_block()
    if block:
        out["modifiers"] = block
    else:
        out.pop("modifiers", None)
    if m.charging:
        out["charging"] = True
    return out


def modifiers_of_attacker(attacker: Mapping[str, Any]) -> AttackerModifiers:
    """The attacker's modifiers of a saved scenario (its ``modifiers``; none when absent).

    Raises:
        ScenarioError: A bad ``modifiers`` block.
    """
    return AttackerModifiers.from_block(attacker.get("modifiers", {}))


def apply_modifiers(scenario: Mapping[str, Any], m: Modifiers) -> tuple[dict[str, Any], list[str]]:
    """A ``praetor calc`` scenario with the modifiers applied, and the notes on what is not modelled.

    Args:
        scenario: A scenario (``attacker``, ``weapon``, ``target``..., docs/scenario.md).
        m: The modifiers (the attacker's: in a whole round the target strikes back unmodified).
    """
    out = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in scenario.items()}
    melee = out.get("mode") == "melee"
    attacker = attacker_with(out.get("attacker", {}), m)
    if not melee:
        attacker.pop("charging", None)
    target = dict(out.get("target", {}))
    if m.cover not in ("", "-"):
        target["Cover"] = m.cover
    if m.fnp not in ("", "-") and not is_vehicle_type(target.get("Unit Type")):
        rules = [r for r in target.get("rules", []) if not str(r).startswith("Feel No Pain")]
        target["rules"] = [*rules, f"Feel No Pain ({m.fnp})"]
    if m.half_range and not melee:
        out["half_range"] = True
    out["attacker"], out["target"] = attacker, target
    return out, []
