"""Marker and template volleys: their hits from the target's formation (given, or the default one).

:func:`marker_hits` lays a volley's markers or templates over a :class:`~praetor_analysis.scenario.formation.
MarkerSetup` (exact geometry, :mod:`praetor_analysis.markers`); :func:`placed` does it over the default
formation (:func:`praetor_analysis.scenario.document.default_marker_setup`) for a volley fired without one,
as a datasheet's weapons are (``scenario.unit_attack``), so that a unit's Flamers and Frag missiles hit what
``praetor calc`` says they hit. A :class:`GeometryCache` passed to either keeps the hits of one marker kind
over one default formation with the same scatter facts (shots, BS, twin-linked, Gets Hot), so a sweep of many
weapons and targets (``analysis.compare``) lays each distinct case once.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from praetor_analysis.engine.hit_stage import shots_distribution
from praetor_analysis.engine.volley import Volley
from praetor_analysis.markers.attack import hits_from_formation, marker_kind, mega_blast_hits
from praetor_analysis.markers.formation import Formation
from praetor_analysis.markers.options import MarkerOptions
from praetor_analysis.prob.dist import Dist
from praetor_analysis.profiles.records import Unit
from praetor_analysis.rules.hooks import Role
from praetor_analysis.scenario.document import default_marker_setup
from praetor_analysis.scenario.formation import MarkerSetup, default_note

__all__ = ["GeometryCache", "marker_hits", "placed", "placed_with_notes"]

GeometryCache = dict[tuple[Any, ...], Any]
"""Hits of marker geometry by (weapon Range and Type, shots, options, Gets Hot, default formation)."""


def marker_hits(volley: Volley, setup: MarkerSetup, cache: GeometryCache | None = None) -> tuple[Volley, list[str]]:
    """The volley with its hits from the formation's geometry (and the notes the geometry gives); ``cache``
    keeps the geometry of a default formation (one with ``echo["default"]``) for the next volley alike."""
    shots, p_pass = shots_distribution(volley)  # the Psychic checks counted: the hits of the geometry keep them
    weapon = volley.weapon
    options = MarkerOptions(
        bs=int(volley.attacker.BS or 0),
        indirect=setup.indirect,
        twin_linked=weapon.plays(Role.REROLL_FAILED_HITS),
        aim=setup.aim,
        edges=setup.edges,
    )
    gets_hot = weapon.plays(Role.GETS_HOT)
    key: tuple[Any, ...] | None = None
    if cache is not None and setup.echo is not None and setup.echo.get("default"):
        formation = tuple(sorted(setup.echo.items()))
        key = (weapon.range, weapon.type, shots.probabilities.tobytes(), options, gets_hot, formation)
    laid = cache.get(key) if cache is not None and key is not None else None
    if laid is None:
        laid = _geometry(weapon, shots, setup, options, gets_hot)
        if cache is not None and key is not None:
            cache[key] = laid
    hits, ones, joint, notes = laid
    marked = replace(volley, hits=hits, ones=ones, attacks=None, placement="formation", check_pass=p_pass)
    return (marked if joint is None else replace(marked, zone_hits=joint)), list(notes)


def _geometry(
    weapon: Any, shots: Dist, setup: MarkerSetup, options: MarkerOptions, gets_hot: bool
) -> tuple[Dist, Dist, np.ndarray | None, tuple[str, ...]]:
    """(hits, Gets Hot ones, the Mega-blast's joint zone hits or None, notes) of the geometry."""
    if marker_kind(weapon) == "Apocalyptic Mega-blast" and isinstance(setup.shape, Formation):
        joint, joint_hits, ones = mega_blast_hits(shots, setup.shape, options, gets_hot=gets_hot)
        return joint_hits, ones, joint, ()
    hits, ones, notes = hits_from_formation(
        weapon, shots, setup.shape, options, firer_distance=setup.firer_distance, gets_hot=gets_hot
    )
    return hits, ones, None, tuple(notes)


def placed(volley: Volley, target: Unit) -> tuple[Volley, str | None]:
    """A marker or template volley without hits laid over the target's default formation, with the note
    that says so; any other volley (or one the default does not apply to) unchanged, with None."""
    laid, notes = placed_with_notes(volley, target)
    return laid, notes[0] if notes else None


def placed_with_notes(volley: Volley, target: Unit, cache: GeometryCache | None = None) -> tuple[Volley, list[str]]:
    """:func:`placed` with every note ``calc`` gives (the default formation first, then the geometry's: a
    ``not modelled: `` one among them), none when the volley is unchanged; ``cache``: :data:`GeometryCache`."""
    setup = default_marker_setup(volley, target)
    if setup is None:
        return volley, []
    laid, notes = marker_hits(volley, setup, cache)
    return laid, [default_note(setup), *notes]
