"""Cost bounds of a unit's attack, checked on the typed records before any work.

A loadout too long to apply, a marker volley whose markers times models (or Multiple Barrage, Mega-blast or
Apocalyptic Barrage geometry) would take too long: refused with a ``ScenarioError`` naming the field, before
anything is allocated or computed. The bounds sit far above what a game asks for and well below what would
take minutes or gigabytes. A marker volley fired over a default formation that is beyond them is resolved
without it (its marker rules then named as not modelled).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from praetor_analysis.engine import Volley, shots_distribution
from praetor_analysis.errors import ScenarioError
from praetor_analysis.markers import Formation, marker_kind_of
from praetor_analysis.rules import Role
from praetor_analysis.units.formation import MarkerSetup

#: Markers x target models of one marker volley (Blast, Template...): the most markers times the models.
MAX_MARKER_WORK = 2_000
#: Markers of one Multiple Barrage (Barrage markers placed against each other, by numerical integration).
MAX_BARRAGE_MARKERS = 50
#: Markers x models of one Multiple Barrage.
MAX_BARRAGE_MARKER_MODELS = 1_000
#: Work of a Multiple Barrage: the sum, over each count ``k >= 2`` of markers that can be fired (every count
#: up to the most with Gets Hot), of ``models**2 + k * models + 200`` (the integration's fixed cost), about 4 ms
#: each on one core: two Barrages over 50 models are 2,800 (about 10 s).
MAX_BARRAGE_WORK = 4_000
#: Pairs of models one marker can hit together (centres within a marker diameter plus a base diameter) under a
#: Multiple Barrage of three markers or more (kept for callers; the bound is now :data:`BARRAGE_TRIPLE_S`).
MAX_BARRAGE_TOUCHING_PAIRS = 500
#: CPU seconds of work one call may ask for, estimated before any work: a Multiple Barrage of three markers or
#: more, an Apocalyptic Barrage, an array of scenarios (docs/scenario.md#limits).
MAX_SECONDS = 10.0
#: Seconds per (triple of models one marker can hit together) x marker, for a Multiple Barrage of three
#: markers or more: a Hit marker's best spot touching any arrow marker is searched on every arc of every
#: arrow, and the search grows with the triples. CPU times measured on one core (load 9 to 11): three indirect
#: Blasts over 35 models (32 mm) in ten columns 1" apart (89 triples) 1.3 s, with no gap (1,332) 20.6 s;
#: three Large Blasts over 20 models in fives 1" apart (288) 3.1 s, over 35 in tens 1" apart (556) 4.2 s;
#: earlier, over 50 Militia (25 mm) in eights 1" apart (1,821) 9 s, 0.5" apart (4,524) 37 s.
BARRAGE_TRIPLE_S = 0.005
#: Seconds per marker x model of an Apocalyptic Barrage (the clover's best rotation per marker), and its fixed
#: cost; measured on one core (load 9 to 11) over 35 models in tens with no gap: 1 marker 1.9 s, 5 markers
#: 2.7 s, 10 markers 3.4 s.
APOCALYPTIC_MARKER_MODEL_S = 0.006
APOCALYPTIC_FIXED_S = 1.5
#: Most items in one datasheet attacker's ``loadout``: each takes about :data:`LOADOUT_ITEM_S` to apply
#: (1,000 ``"Power Fist"`` items took 1.9 s, 5,000 ``{"option", "count"}`` items 12.8 s); a real loadout has a
#: few dozen.
MAX_LOADOUT_ITEMS = 200
LOADOUT_ITEM_S = 0.0025
#: Cells of the joint (inner, middle, outer) hit table of an Apocalyptic Mega-blast over a formation,
#: ``(markers x models + 1) ** 3``: one Mega-blast over 50 models is 132,651 (about 250 MB of work space).
MAX_MEGA_BLAST_CELLS = 600_000


def check_loadout_length(items: list[Any], field: str) -> None:
    """Refuse a loadout of more than :data:`MAX_LOADOUT_ITEMS` items (counted before any is read)."""
    if len(items) > MAX_LOADOUT_ITEMS:
        raise ScenarioError(
            f"{field}: {len(items)} items (limit {MAX_LOADOUT_ITEMS}; about {LOADOUT_ITEM_S * 1000:.1f} ms each)",
            field=field,
            value=len(items),
        )


def check_marker_cost(volley: Volley, setup: MarkerSetup, kind: str) -> None:
    """Refuse a marker volley whose markers x models exceed the bounds above."""
    shots, _ = shots_distribution(volley)  # itself bounded by the engine's MAX_SHOTS
    models = setup.shape.n if isinstance(setup.shape, Formation) else 1
    markers = shots.max
    field = "target.models" if models > markers else ("attacks" if volley.attacks is not None else "weapon.Type")

    def refuse(what: str, amount: float, limit: float) -> None:
        raise ScenarioError(
            f"{field}: up to {markers} markers over {models} models is {what} {amount:.3g} (limit {limit:.3g}); "
            "use fewer shots or models",
            field=field,
            value=markers if field != "target.models" else models,
        )

    if markers * models > MAX_MARKER_WORK:
        refuse("marker-models", markers * models, MAX_MARKER_WORK)
    if kind == "Apocalyptic Mega-blast" and isinstance(setup.shape, Formation):
        cells = (markers * models + 1) ** 3
        if cells > MAX_MEGA_BLAST_CELLS:
            refuse("Mega-blast zone cells", cells, MAX_MEGA_BLAST_CELLS)
    if volley.weapon.plays(Role.BARRAGE) and kind != "Apocalyptic Barrage" and isinstance(setup.shape, Formation):
        if markers > MAX_BARRAGE_MARKERS:
            refuse("Barrage markers", markers, MAX_BARRAGE_MARKERS)
        if markers * models > MAX_BARRAGE_MARKER_MODELS:
            refuse("Barrage marker-models", markers * models, MAX_BARRAGE_MARKER_MODELS)
        # Gets Hot thins the markers fired: every count up to the most can occur
        counts = (
            np.arange(markers + 1) if volley.weapon.plays(Role.GETS_HOT) else np.flatnonzero(shots.probabilities > 0)
        )
        work = float(sum(models**2 + k * models + 200 for k in counts if k >= 2))
        if work > MAX_BARRAGE_WORK:
            refuse("Multiple Barrage work", work, MAX_BARRAGE_WORK)
    seconds = marker_seconds(volley, setup, kind)
    if seconds > MAX_SECONDS:
        refuse(f"{kind} work in estimated CPU seconds", seconds, MAX_SECONDS)


def marker_seconds(volley: Volley, setup: MarkerSetup, kind: str) -> float:
    """Estimated CPU seconds of a marker volley's geometry: a Multiple Barrage of three markers or more
    (:data:`BARRAGE_TRIPLE_S`) or an Apocalyptic Barrage (:data:`APOCALYPTIC_MARKER_MODEL_S`); else 0."""
    if not isinstance(setup.shape, Formation):
        return 0.0
    shots, _ = shots_distribution(volley)
    markers, models = shots.max, setup.shape.n
    if kind == "Apocalyptic Barrage":
        return APOCALYPTIC_FIXED_S + APOCALYPTIC_MARKER_MODEL_S * markers * models
    marker = marker_kind_of(volley.weapon)
    if not volley.weapon.plays(Role.BARRAGE) or marker is None or marker.diameter is None or markers < 3:
        return 0.0
    return BARRAGE_TRIPLE_S * touching_triples(setup.shape, marker.diameter) * markers


def _reach(shape: Formation, diameter: float) -> np.ndarray:
    """Which pairs of models one marker can hit together (centres within ``diameter`` plus a base diameter)."""
    pos = shape.positions
    gap = np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))
    near = gap <= diameter + 2 * shape.base_radius
    np.fill_diagonal(near, False)
    return near


def touching_pairs(shape: Formation, diameter: float) -> int:
    """Pairs of models whose centres are within ``diameter`` plus a base diameter (one marker hits both)."""
    return int(np.count_nonzero(_reach(shape, diameter))) // 2


def touching_triples(shape: Formation, diameter: float) -> int:
    """Triples of models each two of which one marker can hit together (triangles of :func:`touching_pairs`)."""
    near = _reach(shape, diameter).astype(np.int64)
    return int(np.einsum("ij,jk,ki->", near, near, near)) // 6
