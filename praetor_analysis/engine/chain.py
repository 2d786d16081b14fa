"""The resolver of attacks on units with Toughness and Wounds: one resolver, two strategies.

Every caller above the engine asks here. ``resolve_many`` is the vectorised path (``engine.batch``): each cell
one volley fired at a fresh unit, a single volley a batch of one (``resolve``). What it cannot vectorise it
hands to the exact path (``engine.exact``), chosen by the declared facts of the volley and the target, never by
an error. ``resolve_sequence`` resolves firing units in turn on the exact path, the damaged model carried over;
a sequence of one volley is a batch of one, and the first volley of a sequence without Pinning comes from the
vectorised path too. ``resolve_volley`` is the exact path's single step on a state. No rule is known here.
"""

from __future__ import annotations

from collections.abc import Sequence

from praetor_analysis.engine.batch import Casualties, resolve, resolve_many
from praetor_analysis.engine.exact import resolve_sequence as exact_sequence
from praetor_analysis.engine.exact import resolve_volley
from praetor_analysis.engine.volley import Volley, VolleyResult
from praetor_analysis.prob import Dist
from praetor_analysis.profiles import Unit
from praetor_analysis.rules import Role

__all__ = ["Casualties", "resolve", "resolve_many", "resolve_sequence", "resolve_volley", "unsaved_distribution"]

#: The roles that give a sequence's states Pinning flags (``exact.resolve_sequence``).
_FLAGGED = (Role.PINNING, Role.PINNING_ON_HITS)


def resolve_sequence(target: Unit, firing_units: Sequence[Sequence[Volley]]) -> VolleyResult:
    """Several firing units in turn at one unit, each a list of volleys, the damaged model carried over and
    Pinning tested once per firing unit (``exact.resolve_sequence``); the result's ``state`` is the final one."""
    volleys = [v for unit in firing_units for v in unit]
    if len(volleys) == 1:
        return resolve(volleys[0], target, keep_state=True)
    if not volleys or any(v.weapon.plays(role) for v in volleys for role in _FLAGGED):
        return exact_sequence(target, firing_units)
    first = resolve(volleys[0], target, keep_state=True)
    return exact_sequence(target, firing_units, first=first)


def unsaved_distribution(volley: Volley, target: Unit) -> Dist:
    """Only the unsaved wounds of a volley: ``resolve(volley, target).unsaved``."""
    return resolve(volley, target).unsaved
