"""The resolver's entry points for attacks on units with Toughness and Wounds (one resolver, two paths).

``resolve`` is one volley fired at a fresh unit as a batch of one cell of ``engine.batch.resolve_many``, the
vectorised path, which hands what it cannot vectorise (chosen by the declared facts of the volley and the
target) to the exact path of ``engine.exact``; ``resolve_volley`` and ``resolve_sequence`` are that exact
path, for a state carried over between volleys and firing units. No rule is known here.
"""

from __future__ import annotations

from praetor_analysis.engine.batch import resolve
from praetor_analysis.engine.exact import resolve_sequence, resolve_volley
from praetor_analysis.engine.volley import Volley
from praetor_analysis.prob.dist import Dist
from praetor_analysis.profiles.records import Unit

__all__ = ["resolve", "resolve_sequence", "resolve_volley", "unsaved_distribution"]


def unsaved_distribution(volley: Volley, target: Unit) -> Dist:
    """Only the unsaved wounds of a volley: ``resolve(volley, target).unsaved``."""
    return resolve(volley, target).unsaved
