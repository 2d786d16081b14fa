"""Formations, scatter, blast markers and templates -> exact hit distributions.

The face of ``markers/``: what callers outside it use, loaded lazily (a name imports only the module that
defines it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from praetor_analysis.lazy import face

#: Public name -> the module that defines it.
_EXPORTS: dict[str, str] = {
    "barrage_hh3": "praetor_analysis.markers.hh3_blast",
    "blast_hh3": "praetor_analysis.markers.hh3_blast",
    "BlastLaw": "praetor_analysis.markers.hh3_blast",
    "DEFAULT_COLUMNS": "praetor_analysis.markers.formation",
    "Edges": "praetor_analysis.markers.formation",
    "Formation": "praetor_analysis.markers.formation",
    "hits_from_formation": "praetor_analysis.markers.attack",
    "Hull": "praetor_analysis.markers.formation",
    "hull_hit_probability": "praetor_analysis.markers.hh3_blast",
    "marker_counts": "praetor_analysis.markers.hh3_units",
    "MARKER_DIAMETERS": "praetor_analysis.markers.kinds",
    "marker_hits_by_class": "praetor_analysis.markers.hh3_blast",
    "marker_kind": "praetor_analysis.markers.kinds",
    "marker_kind_of": "praetor_analysis.markers.kinds",
    "marker_pmf": "praetor_analysis.markers.blasts",
    "MarkerOptions": "praetor_analysis.markers.options",
    "mega_blast_hits": "praetor_analysis.markers.attack",
    "MM_PER_INCH": "praetor_analysis.markers.formation",
    "PRESETS": "praetor_analysis.markers.formation",
    "resolve_marker_hits": "praetor_analysis.markers.hh3_units",
    "template_touched": "praetor_analysis.markers.hh3_blast",
    "wall_of_death_hits": "praetor_analysis.markers.attack",
}

__all__ = [
    "DEFAULT_COLUMNS",
    "MARKER_DIAMETERS",
    "MM_PER_INCH",
    "PRESETS",
    "BlastLaw",
    "Edges",
    "Formation",
    "Hull",
    "MarkerOptions",
    "barrage_hh3",
    "blast_hh3",
    "hits_from_formation",
    "hull_hit_probability",
    "marker_counts",
    "marker_hits_by_class",
    "marker_kind",
    "marker_kind_of",
    "marker_pmf",
    "mega_blast_hits",
    "resolve_marker_hits",
    "template_touched",
    "wall_of_death_hits",
]


if TYPE_CHECKING:  # pragma: no cover - for type checkers and editors
    from praetor_analysis.markers.attack import hits_from_formation, mega_blast_hits, wall_of_death_hits
    from praetor_analysis.markers.blasts import marker_pmf
    from praetor_analysis.markers.formation import DEFAULT_COLUMNS, MM_PER_INCH, PRESETS, Edges, Formation, Hull
    from praetor_analysis.markers.hh3_blast import (
        BlastLaw,
        barrage_hh3,
        blast_hh3,
        hull_hit_probability,
        marker_hits_by_class,
        template_touched,
    )
    from praetor_analysis.markers.hh3_units import marker_counts, resolve_marker_hits
    from praetor_analysis.markers.kinds import MARKER_DIAMETERS, marker_kind, marker_kind_of
    from praetor_analysis.markers.options import MarkerOptions
else:
    __getattr__, __dir__ = face(__name__, _EXPORTS, __all__)
