"""Marker and template attacks on a formation: geometry -> exact hit distribution -> wound chain.

The ``formation`` object of a scenario (docs/scenario.md) places the target's models; the weapon's marker
rule picks the marker (Blast 3", Large 5", Massive 7", Apocalyptic 10", the clover of an Apocalyptic
Barrage) or the template. Each shot first rolls for Gets Hot (a 1 loses it), then scatters; the models hit,
summed over shots, feed the wound chain as its hits.

The scenario's ``formation``, ``aim`` and ``edges`` blocks are parsed in ``scenario.formation``; the
functions here take the typed records (a Formation or Hull, and MarkerOptions with the aim and Edges).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Unpack

import numpy as np

from praetor_analysis.errors import ProfileError, counted_noun
from praetor_analysis.markers.barrages import apocalyptic_barrage_pmf, multiple_barrage_pmf
from praetor_analysis.markers.blasts import marker_pmf, mega_blast_pmf
from praetor_analysis.markers.formation import Formation, Hull
from praetor_analysis.markers.kinds import marker_kind, marker_kind_of
from praetor_analysis.markers.options import MarkerFields, MarkerOptions
from praetor_analysis.markers.templates import (
    FLAME_TEMPLATE,
    HELLSTORM_TEMPLATE,
    firer_sides,
    place_template,
    torrent_placement,
    wall_of_death_pmf,
)
from praetor_analysis.prob import Dist, compound
from praetor_analysis.profiles import Weapon
from praetor_analysis.rules import Role, gets_hot_before_firing

__all__ = ["hits_from_formation", "marker_kind", "mega_blast_hits", "mega_blast_joint", "wall_of_death_hits"]


def hits_from_formation(
    weapon: Weapon,
    shots: Dist,
    target: Formation | Hull,
    options: MarkerOptions | None = None,
    *,
    firer_distance: float,
    gets_hot: bool,
    **fields: Unpack[MarkerFields],
) -> tuple[Dist, Dist, list[str]]:
    """(models hit summed over shots, natural 1s of Gets Hot, notes) for a marker or template weapon.

    ``options`` (or its keyword ``fields``): :class:`MarkerOptions`. Twin-linked re-rolls a blast's scatter
    (Multiple Barrages and the Apocalyptic Barrage scatter without it), never the Gets Hot die, which is not
    a To Hit roll.
    """
    options = MarkerOptions.of(options, fields)
    marker = marker_kind_of(weapon)
    if marker is None:
        raise ProfileError(f"formation: weapon {weapon.name!r} has no Blast, Barrage or Template rule")
    kind = marker.name
    notes: list[str] = []
    fired, ones = _fired_and_ones(shots, gets_hot=gets_hot)
    untwinned = replace(options, twin_linked=False)
    if marker.shape == "template":
        if isinstance(target, Hull):
            raise ProfileError("formation.hull: templates against vehicle hulls are not modelled yet")
        shape = HELLSTORM_TEMPLATE if kind == "Hellstorm" else FLAME_TEMPLATE
        torrent = weapon.with_role(Role.PLACED_WITHIN) if kind == "Torrent" else None
        reach = (torrent.value if torrent is not None else None) or 0
        best: tuple[int, str] | None = None  # from whichever side of the unit covers the most (ties: the front)
        for side, firer in firer_sides(target, firer_distance):
            if kind == "Torrent":
                placement = torrent_placement(target, firer, float(reach), shape=shape)
            else:
                placement = place_template(target, firer, shape=shape)
            if best is None or placement.hits > best[0]:
                best = (placement.hits, side)
        assert best is not None
        covered, side = best
        if kind == "Torrent":
            notes.append(f'Torrent ({reach}") placed on a 0.25" grid (a lower bound)')
        per_shot = np.zeros(covered + 1)
        per_shot[covered] = 1.0
        notes.append(f'{kind} covering {counted_noun(covered, "model")} from {firer_distance}" ({side} of the unit)')
        return _sum_shots(fired, lambda k: Dist.from_trusted(per_shot).power(k).probabilities), ones, notes
    if marker.shape == "clover":
        if isinstance(target, Hull):
            raise ProfileError("formation.hull: the Apocalyptic Barrage clover against hulls is not modelled yet")
        notes.append("Apocalyptic Barrage clover (default layout, see markers.CloverLayout)")
        if options.twin_linked:
            notes.append("not modelled: Twin-linked's scatter re-roll for the Apocalyptic Barrage clover")
        return (
            _sum_shots(fired, lambda k: apocalyptic_barrage_pmf(target, k, options=untwinned) if k else np.ones(1)),
            ones,
            notes,
        )
    diameter = marker.diameter
    assert diameter is not None  # every blast kind has one
    if kind == "Apocalyptic Mega-blast" and isinstance(target, Hull):
        notes.append('not modelled: Apocalyptic Mega-blast zones against a hull (one 10" marker at the outer Strength)')
    if weapon.plays(Role.BARRAGE) and shots.max > 1 and isinstance(target, Hull):
        notes.append("not modelled: Multiple Barrages against a hull (each marker scatters on its own)")
    if weapon.plays(Role.BARRAGE) and shots.max > 1 and not isinstance(target, Hull):
        if options.twin_linked:
            notes.append("not modelled: Twin-linked's scatter re-roll for Multiple Barrages")
        bound = [0.0]

        def barrage(k: int) -> np.ndarray:
            if k <= 1:
                return marker_pmf(target, diameter, untwinned, shots=k) if k else np.ones(1)
            res = multiple_barrage_pmf(target, diameter, k, untwinned)
            bound[0] = max(bound[0], float(res.error_bound))
            return np.clip(res.pmf, 0, None) / np.clip(res.pmf, 0, None).sum()

        hits = _sum_shots(fired, barrage)
        notes.append(f"Multiple Barrages by numerical integration (error bound {bound[0]:.1e} per outcome)")
        return hits, ones, notes
    scatter = "2D6 (indirect)" if options.indirect else f"2D6 - BS {options.bs}"
    notes.append(f'{kind} ({diameter:g}") scattering {scatter}')
    return (
        _sum_shots(fired, lambda k: marker_pmf(target, diameter, options, shots=k) if k else np.ones(1)),
        ones,
        notes,
    )


def mega_blast_joint(
    shots: Dist,
    target: Formation,
    options: MarkerOptions | None = None,
    *,
    gets_hot: bool,
    **fields: Unpack[MarkerFields],
) -> tuple[np.ndarray, Dist]:
    """Joint pmf of models hit per Mega-blast zone (inner, middle, outer) over the shots fired, and the
    natural 1s of Gets Hot (``options`` or its keyword ``fields`` as for :func:`hits_from_formation`)."""
    options = MarkerOptions.of(options, fields)
    fired, ones = _fired_and_ones(shots, gets_hot=gets_hot)
    parts = [
        (w, mega_blast_pmf(target, options=options, shots=k) if k else np.ones((1, 1, 1)))
        for k, w in enumerate(fired.probabilities)
        if w > 0
    ]
    size = max(p.shape[0] for _, p in parts)
    out = np.zeros((size, size, size))
    for w, p in parts:
        out[: p.shape[0], : p.shape[1], : p.shape[2]] += w * p
    return out, ones


def mega_blast_hits(
    shots: Dist, target: Formation, options: MarkerOptions, *, gets_hot: bool
) -> tuple[np.ndarray, Dist, Dist]:
    """(the joint pmf of models hit per zone, the models hit over all zones, the natural 1s of Gets Hot) of an
    Apocalyptic Mega-blast (:func:`mega_blast_joint`)."""
    joint, ones = mega_blast_joint(shots, target, options, gets_hot=gets_hot)
    return joint, zone_total(joint), ones


def zone_total(joint: np.ndarray) -> Dist:
    """The pmf of the models hit over every zone, from the joint pmf per zone (index a, b, c: a + b + c hit)."""
    total = np.indices(joint.shape).sum(axis=0)
    return Dist.from_trusted(np.bincount(total.ravel(), weights=joint.ravel(), minlength=sum(joint.shape) - 2))


def wall_of_death_hits(weapon: Weapon, models: int, templates: Dist | None) -> Dist:
    """Wall of Death (docs/rules.md#template): each template fired as a snap shot makes D3 automatic hits
    (D6 for a Hellstorm), added up over the templates: ``templates`` of them (a pmf), else the weapon's shots
    per model for each of ``models``."""
    hellstorm = weapon.plays(Role.WALL_OF_DEATH_D6)
    if templates is None:
        per_model = weapon.type.shots.dist if weapon.type.shots is not None else Dist.point(1)
        templates = per_model.power(models)
    return Dist.from_trusted(compound(templates.probabilities, wall_of_death_pmf(hellstorm)))


def _fired_and_ones(shots: Dist, *, gets_hot: bool) -> tuple[Dist, Dist]:
    """(shots that go on, 1s of the Gets Hot die)."""
    return gets_hot_before_firing(shots) if gets_hot else (shots, Dist.point(0))


def _sum_shots(fired: Dist, hits_of: Any) -> Dist:
    """Mix the hit pmfs of k shots over the distribution of shots fired."""
    parts = [(w, hits_of(k)) for k, w in enumerate(fired.probabilities) if w > 0]
    size = max(p.size for _, p in parts)
    out = np.zeros(size)
    for w, p in parts:
        out[: p.size] += w * p
    return Dist.from_trusted(out)
