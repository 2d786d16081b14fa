"""Bounds of the edition 3 stages on untrusted documents: the engine's own (models x W, dice x wounds) and those
of the stages' tables, checked before any table is built (docs/rules-hh3.md#limits)."""

from __future__ import annotations

from praetor_analysis.engine import MAX_HIT_POINTS, MAX_WORK
from praetor_analysis.errors import ScenarioError

__all__ = ["MAX_MARKER_JOINT", "MAX_SHIELDED_DICE", "check_marker_joint", "check_shielded", "check_size"]

#: The most entries of a marker attack's joint table of hits per Hit Test class.
MAX_MARKER_JOINT = 1_000_000
#: The most dice of one volley at a vehicle with void shields (the shields' order makes the work cubic in it).
MAX_SHIELDED_DICE = 100


def check_size(dice: int, models: int, wounds: int, *, side: str, field: str) -> None:
    """The engine's bounds: ``models x wounds <= MAX_HIT_POINTS`` and ``dice x models x wounds <= MAX_WORK``."""
    if models * wounds > MAX_HIT_POINTS:
        raise ScenarioError(
            f"{side}.models: {models} models of W {wounds} are beyond the exact edition 3 chain's bound "
            f"(models x W <= {MAX_HIT_POINTS})",
            field=f"{side}.models",
            value=models,
        )
    if dice * models * wounds > MAX_WORK:
        raise ScenarioError(
            f"{field}: {dice} hits or attacks against {models} models of W {wounds} is beyond the exact edition 3 "
            f"chain's bound (dice x wounds <= {MAX_WORK}); split the attack",
            field=field,
            value=dice,
        )


def check_marker_joint(markers: int, models: int, classes: int) -> None:
    """The joint table of a marker attack's hits per class: ``(markers x models + 1) ** classes`` entries."""
    size = (markers * models + 1) ** classes
    if size > MAX_MARKER_JOINT:
        raise ScenarioError(
            f"weapon.FP: {markers} markers over {models} models with {classes} Hit Test classes make a table of "
            f"{size:,} entries, beyond the bound ({MAX_MARKER_JOINT:,}); split the attack",
            field="weapon.FP",
            value=markers,
        )


def check_shielded(dice: int, shields: int) -> None:
    """A volley at a vehicle with void shields: at most :data:`MAX_SHIELDED_DICE` dice."""
    if shields > 0 and dice > MAX_SHIELDED_DICE:
        raise ScenarioError(
            f"attacks: {dice} dice at a vehicle with void shields is beyond the bound ({MAX_SHIELDED_DICE}); "
            "split the attack into firing_units",
            field="attacks",
            value=dice,
        )
