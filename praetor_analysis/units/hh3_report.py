"""Correcting the engine's rule verdicts where a door stage resolves a rule differently (docs/rules-hh3.md)."""

from __future__ import annotations

from praetor_analysis.engine import RuleReport

__all__ = ["refile"]

FORCE_NOT_HERE = "the Willpower Check that doubles X is not applied in this stage yet (the attack is resolved plain)"


def refile(report: RuleReport, label: str, verdict: str, reason: str = "") -> None:
    """File ``label`` under ``verdict`` only (``applied``, ``not_modelled`` or ``no_effect``), with ``reason``."""
    for bucket in ("applied", "not_modelled", "no_effect"):
        items = getattr(report, bucket)
        if label in items:
            items.remove(label)
    report.reasons.pop(label, None)
    report.add(verdict, label, reason)
