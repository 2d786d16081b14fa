"""Marker and template volleys: their hits from the target's formation (given, or the default one).

:func:`marker_hits` lays a volley's markers or templates over a :class:`~praetor_analysis.units.formation.
MarkerSetup` (exact geometry, :mod:`praetor_analysis.markers`); :func:`placed` does it over the default
formation (:func:`default_marker_setup`) for a volley fired without one,
as a datasheet's weapons are (``units.attack``) and a comparison's (``analysis.compare``), so that a
unit's Flamers and Frag missiles hit what ``praetor calc`` says they hit.

The geometry (the distribution of models hit and of Gets Hot's 1s) is memoised on what it reads
(:func:`geometry_key`): the marker kind, a Torrent's reach, Barrage, the shots fired, how the marker is fired
(BS for a marker that scatters, indirect, Twin-linked, aim, edges), Gets Hot, the formation and the firer's
distance; never the weapon's Strength, AP or other rules, nor the target's statline. Weapons and targets
that share those share one computation, in ``calc`` as in a sweep of the whole catalog.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace

import numpy as np

from praetor_analysis.engine import Volley, shots_distribution
from praetor_analysis.errors import PraetorError
from praetor_analysis.markers import (
    Formation,
    MarkerOptions,
    hits_from_formation,
    marker_kind,
    marker_kind_of,
    mega_blast_hits,
)
from praetor_analysis.prob import BoundedMemo, Dist
from praetor_analysis.profiles import Unit, Weapon
from praetor_analysis.rules import Role
from praetor_analysis.units.formation import MarkerSetup, default_formation, default_note
from praetor_analysis.units.limits import check_marker_cost

__all__ = ["default_marker_setup", "geometry_key", "marker_hits", "placed", "placed_notes"]

Geometry = tuple[Dist, Dist, "np.ndarray | None", tuple[str, ...]]
"""(models hit, Gets Hot's 1s, the Mega-blast's joint hits per zone or None, the geometry's notes)."""

_GEOMETRY: BoundedMemo[Geometry] = BoundedMemo(4096)


def marker_options(volley: Volley, setup: MarkerSetup) -> MarkerOptions:
    """How the volley's markers are fired over ``setup``."""
    return MarkerOptions(
        bs=int(volley.attacker.BS or 0),
        indirect=setup.indirect,
        twin_linked=volley.weapon.plays(Role.REROLL_FAILED_HITS),
        aim=setup.aim,
        edges=setup.edges,
    )


def geometry_key(weapon: Weapon, shots: Dist, setup: MarkerSetup, options: MarkerOptions) -> Hashable:
    """Everything the geometry of ``weapon``'s markers over ``setup`` reads, as a hashable key: the marker kind,
    a Torrent's reach, Barrage, the shots (their pmf), the options (BS only for a marker that scatters), Gets
    Hot, the formation (its base centres and radius, or the hull) and the firer's distance (templates)."""
    kind = marker_kind_of(weapon)
    template = kind is not None and kind.shape == "template"
    torrent = weapon.with_role(Role.PLACED_WITHIN)
    shape = setup.shape
    where = (shape.positions.tobytes(), shape.base_radius) if isinstance(shape, Formation) else shape
    return (
        kind,
        torrent.value if torrent is not None else None,
        weapon.plays(Role.BARRAGE),
        shots.probabilities.tobytes(),
        replace(options, bs=0) if template else options,  # a template does not scatter
        weapon.plays(Role.GETS_HOT),
        where,
        setup.firer_distance if template else None,
    )


def _geometry(weapon: Weapon, shots: Dist, setup: MarkerSetup, options: MarkerOptions) -> Geometry:
    gets_hot = weapon.plays(Role.GETS_HOT)
    kind = marker_kind_of(weapon)
    if kind is not None and kind.name == "Apocalyptic Mega-blast" and isinstance(setup.shape, Formation):
        joint, joint_hits, ones = mega_blast_hits(shots, setup.shape, options, gets_hot=gets_hot)
        joint.setflags(write=False)  # shared by every volley of this geometry
        several = weapon.plays(Role.BARRAGE) and shots.max > 1  # Multiple Barrages' placement is for blasts
        note = "not modelled: Multiple Barrages of Mega-blast markers (each marker scatters on its own)"
        return joint_hits, ones, joint, (note,) if several else ()
    hits, ones, notes = hits_from_formation(
        weapon, shots, setup.shape, options, firer_distance=setup.firer_distance, gets_hot=gets_hot
    )
    return hits, ones, None, tuple(notes)


def marker_hits(volley: Volley, setup: MarkerSetup) -> tuple[Volley, list[str]]:
    """The volley with its hits from the formation's geometry (and the notes the geometry gives)."""
    shots, p_pass = shots_distribution(volley)  # the Psychic checks counted: the hits of the geometry keep them
    weapon, options = volley.weapon, marker_options(volley, setup)
    hits, ones, joint, notes = _GEOMETRY.get(
        geometry_key(weapon, shots, setup, options), lambda: _geometry(weapon, shots, setup, options)
    )
    marked = replace(volley, hits=hits, ones=ones, attacks=None, placement="formation", check_pass=p_pass)
    return (marked if joint is None else replace(marked, zone_hits=joint)), list(notes)


def placed(volley: Volley, target: Unit) -> tuple[Volley, str | None]:
    """A marker or template volley without hits laid over the target's default formation, with the note
    that says so; any other volley (or one the default does not apply to) unchanged, with None."""
    laid, notes = placed_notes(volley, target)
    return laid, notes[0] if notes else None


def placed_notes(volley: Volley, target: Unit) -> tuple[Volley, list[str]]:
    """:func:`placed` with every note ``calc`` gives of it: the default formation's first, then the
    geometry's (a ``not modelled: `` one among them); none when the volley is unchanged."""
    setup = default_marker_setup(volley, target)
    if setup is None:
        return volley, []
    laid, notes = marker_hits(volley, setup)
    return laid, [default_note(setup), *notes]


def default_marker_setup(volley: Volley, target: Unit) -> MarkerSetup | None:
    """The default formation (:func:`~praetor_analysis.units.formation.default_formation`) for a marker or
    template volley without hits at a unit that is not a Vehicle; None when it does not apply or is too large
    to compute (the marker rules are then listed as not modelled)."""
    if volley.hits is not None or volley.mode != "shooting" or volley.snap_shots or target.is_vehicle:
        return None
    kind = marker_kind(volley.weapon)
    bs = volley.attacker.BS
    if kind is None or bs is None or not 1 <= bs <= 10:
        return None
    setup = default_formation(target)
    try:
        check_marker_cost(volley, setup, kind)
    except PraetorError:
        return None
    return setup
