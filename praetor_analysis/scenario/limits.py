"""Cost bounds, checked on the typed records before any work: what a scenario may ask for.

Each limit is a documented constant; a scenario beyond one is refused with a ``ScenarioError`` naming the
field, before anything is allocated or computed. The limits sit far above what a game asks for (a 50-model
Militia blob under a battery of Large Blasts, a whole roster's firing units, a round of melee between two
full units) and well below what would take minutes or gigabytes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from praetor_analysis.engine.hit_stage import shots_distribution
from praetor_analysis.engine.volley import Volley
from praetor_analysis.errors import ScenarioError
from praetor_analysis.markers.formation import Formation
from praetor_analysis.markers.kinds import marker_kind_of
from praetor_analysis.melee.blows import Side
from praetor_analysis.rules.hooks import Role
from praetor_analysis.scenario.formation import MarkerSetup

#: Scenarios in one JSON array (a sweep).
MAX_SCENARIOS = 20_000
#: Volleys in one scenario's ``firing_units``, all firing units together.
MAX_VOLLEYS = 256
#: Profiles in one weapon list (Transmutative armaments).
MAX_PROFILES = 16
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
#: Multiple Barrage of three markers or more: a Hit marker's best spot touching any arrow marker is searched on
#: every arc of every arrow, and that search grows steeply with the pairs. Measured on one core, three indirect
#: Large Blasts over 50 Militia (25 mm) in lines of eight: 1" apart (455 pairs) about 9 s, 0.5" apart (674) 37 s,
#: no gap (1,068, five markers) 9 minutes.
MAX_BARRAGE_TOUCHING_PAIRS = 500
#: Cells of the joint (inner, middle, outer) hit table of an Apocalyptic Mega-blast over a formation,
#: ``(markers x models + 1) ** 3``: one Mega-blast over 50 models is 132,651 (about 250 MB of work space).
MAX_MEGA_BLAST_CELLS = 600_000
#: Estimated cells of a whole round of melee (:func:`melee_cells`): 30 vs 30 models of W2 are 2.8 million.
MAX_MELEE_CELLS = 4_000_000


def check_firing_units(units: list[Any] | tuple[Any, ...]) -> None:
    """Refuse more than :data:`MAX_VOLLEYS` volleys (counted before any is parsed)."""
    total = sum(len(u) for u in units)
    if total > MAX_VOLLEYS:
        raise ScenarioError(
            f"firing_units: {total} volleys in {len(units)} firing units (limit {MAX_VOLLEYS} volleys)",
            field="firing_units",
            value=total,
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
        marker = marker_kind_of(volley.weapon)
        diameter = None if marker is None else marker.diameter
        if diameter is not None and any(k >= 3 for k in counts):
            pairs = touching_pairs(setup.shape, diameter)
            if pairs > MAX_BARRAGE_TOUCHING_PAIRS:
                refuse("Multiple Barrage pairs of models within a marker's reach", pairs, MAX_BARRAGE_TOUCHING_PAIRS)


def touching_pairs(shape: Formation, diameter: float) -> int:
    """Pairs of models whose centres are within ``diameter`` plus a base diameter (one marker hits both)."""
    pos = shape.positions
    gap = np.hypot(*(pos[:, None, :] - pos[None, :, :]).transpose(2, 0, 1))
    return int(np.count_nonzero(np.triu(gap <= diameter + 2 * shape.base_radius, 1)))


def melee_cells(attacker: Side, target: Side) -> int:
    """An upper estimate of the cells a whole round allocates (see :data:`MAX_MELEE_CELLS`)."""
    sizes, blows = [], []
    for side in (attacker, target):
        u = side.unit
        sizes.append((u.models + 1) * int(u.W or 1))
        blows.append(u.models * (int(u.A or 0) + 4))  # charging, a second weapon, Rampage, Reaping Blow
    sa, st = sizes
    ua, ut = blows
    # each side's transition tables (state, state, unsaved) and the joint round table
    return st * st * (ua + 1) + sa * sa * (ut + 1) + sa * st * (ua + ut + 1)


def check_melee_round(attacker: Side, target: Side) -> None:
    """Refuse a whole round of melee beyond :data:`MAX_MELEE_CELLS`."""
    cells = melee_cells(attacker, target)
    if cells > MAX_MELEE_CELLS:
        raise ScenarioError(
            f"target.models: a round between {attacker.unit.models} x W{attacker.unit.W} and "
            f"{target.unit.models} x W{target.unit.W} models needs about {cells:.1e} state cells "
            f"(limit {MAX_MELEE_CELLS:.0e}); use fewer models",
            field="target.models",
            value=target.unit.models,
        )
