"""Which rules of a volley were applied, had no effect, or are not modelled (see ``rules.classify``)."""

from __future__ import annotations

from praetor_analysis.engine.volley import Volley
from praetor_analysis.profiles.records import Unit
from praetor_analysis.rules.classify import RuleReport, Situation, classify, wound_chain


def shot_label(volley: Volley) -> str | None:
    """The weapon's kind and shots as applied (``Heavy 2``, ``Rapid Fire``), or None for a melee weapon."""
    t = volley.weapon.type
    if not t.kind or t.kind == "Melee":
        return None
    return f"{t.kind} {t.shots}" if t.shots and t.kind != "Rapid Fire" else t.kind


def classify_rules(volley: Volley, target: Unit, notes: list[str]) -> tuple[list[str], list[str], list[str]]:
    """(applied, no_effect, not_modelled) for every rule in the weapon, target and attacker, in the wound
    chain; ``notes`` (charging, Snap Shots...) are added to the applied ones."""
    report = RuleReport()
    label = shot_label(volley)
    if label is not None:
        report.add("applied", label)
    if volley.weapon.strength.kind == "unknown":
        report.add("not_modelled", f"Strength {volley.weapon.strength.text}")
    situation = Situation(melee=volley.mode == "melee", half_range=volley.half_range, target_type=target.unit_type)
    resolution = wound_chain(melee=situation.melee, marker_hits=volley.hits is not None)
    classify(
        resolution, situation, volley.weapon.rules, {"target": target.rules, "attacker": volley.attacker.rules}, report
    )
    report.applied.extend(notes)
    return report.lists()
