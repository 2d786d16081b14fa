"""Marker and template volleys: their hits from the target's formation (given, or the default one).

:func:`marker_hits` lays a volley's markers or templates over a :class:`~praetor_analysis.scenario.formation.
MarkerSetup` (exact geometry, :mod:`praetor_analysis.markers`); :func:`placed` does it over the default
formation (:func:`praetor_analysis.scenario.document.default_marker_setup`) for a volley fired without one,
as a datasheet's weapons are (``scenario.unit_attack``), so that a unit's Flamers and Frag missiles hit what
``praetor calc`` says they hit.
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.engine.hit_stage import shots_distribution
from praetor_analysis.engine.volley import Volley
from praetor_analysis.markers.attack import hits_from_formation, marker_kind, mega_blast_hits
from praetor_analysis.markers.formation import Formation
from praetor_analysis.markers.options import MarkerOptions
from praetor_analysis.profiles.records import Unit
from praetor_analysis.rules.hooks import Role
from praetor_analysis.scenario.document import default_marker_setup
from praetor_analysis.scenario.formation import MarkerSetup, default_note

__all__ = ["marker_hits", "placed"]


def marker_hits(volley: Volley, setup: MarkerSetup) -> tuple[Volley, list[str]]:
    """The volley with its hits from the formation's geometry (and the notes the geometry gives)."""
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
    if marker_kind(weapon) == "Apocalyptic Mega-blast" and isinstance(setup.shape, Formation):
        joint, joint_hits, ones = mega_blast_hits(shots, setup.shape, options, gets_hot=gets_hot)
        marked = replace(volley, hits=joint_hits, ones=ones, zone_hits=joint, attacks=None, check_pass=p_pass)
        return replace(marked, placement="formation"), []
    hits, ones, notes = hits_from_formation(
        weapon, shots, setup.shape, options, firer_distance=setup.firer_distance, gets_hot=gets_hot
    )
    return replace(volley, hits=hits, ones=ones, attacks=None, placement="formation", check_pass=p_pass), notes


def placed(volley: Volley, target: Unit) -> tuple[Volley, str | None]:
    """A marker or template volley without hits laid over the target's default formation, with the note
    that says so; any other volley (or one the default does not apply to) unchanged, with None."""
    setup = default_marker_setup(volley, target)
    if setup is None:
        return volley, None
    laid, _ = marker_hits(volley, setup)
    return laid, default_note(setup)
