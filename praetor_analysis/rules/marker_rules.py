"""Blast markers and templates: hits come from the geometry (or the ``hits`` field), not a To Hit roll.

Their effects on saves (no cover against templates, the Heavy re-roll against blasts and templates) come
with the marker: the save stage reads these declarations.
"""

from __future__ import annotations

from dataclasses import replace

from praetor_analysis.rules.contexts import SaveSituation
from praetor_analysis.rules.hooks import Hooks, Role
from praetor_analysis.rules.registry import Stage, count, declare, marker_size
from praetor_analysis.rules.saves import SaveContext

#: What a blast's or template's save hook reads of the target: is it Heavy (its saves re-rolled).
HEAVY = ("Heavy",)


def _blast_save(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    return replace(c, heavy_reroll=True) if s.target_is(*HEAVY) else c


def _template_save(c: SaveContext, value: int | None, variant: str | None, s: SaveSituation) -> SaveContext:
    # a template has Ignores Cover: no cover save and no Shrouded roll
    return replace(_blast_save(c, value, variant, s), cover_denied=True, shrouded_denied=True)


BLAST = declare(
    "Blast",
    Stage.MARKERS,
    param=marker_size(3),
    hooks=Hooks(save=_blast_save),
    reads_types=HEAVY,
    summary='a 3" marker that scatters',
    roles=(Role.MARKER,),
)
LARGE_BLAST = declare(
    "Large Blast",
    Stage.MARKERS,
    param=marker_size(5),
    hooks=Hooks(save=_blast_save),
    reads_types=HEAVY,
    summary='a 5" marker',
    roles=(Role.MARKER,),
)
MASSIVE_BLAST = declare(
    "Massive Blast",
    Stage.MARKERS,
    param=marker_size(7),
    hooks=Hooks(save=_blast_save),
    reads_types=HEAVY,
    summary='a 7" marker',
    roles=(Role.MARKER,),
)
APOCALYPTIC_BLAST = declare(
    "Apocalyptic Blast",
    Stage.MARKERS,
    param=marker_size(10),
    hooks=Hooks(save=_blast_save),
    reads_types=HEAVY,
    summary='a 10" marker',
    roles=(Role.MARKER,),
)
APOCALYPTIC_MEGA_BLAST = declare(
    "Apocalyptic Mega-blast",
    Stage.MARKERS,
    hooks=Hooks(save=_blast_save),
    reads_types=HEAVY,
    summary='5", 7" and 10" zones, each its own wound pool at its own Strength',
    roles=(
        Role.MARKER,
        Role.SIDE_ARMOUR,
    ),
)
BARRAGE = declare(
    "Barrage",
    Stage.MARKERS,
    hooks=Hooks(save=_blast_save),
    reads_types=HEAVY,
    summary="a blast that may fire indirectly; Side armour on vehicles",
    roles=(
        Role.MARKER,
        Role.BARRAGE,
        Role.SIDE_ARMOUR,
    ),
)
APOCALYPTIC_BARRAGE = declare(
    "Apocalyptic Barrage",
    Stage.MARKERS,
    summary="a clover of markers placed together",
    roles=(Role.MARKER, Role.CLOVER),
)
TEMPLATE = declare(
    "Template",
    Stage.MARKERS,
    hooks=Hooks(save=_template_save),
    reads_types=HEAVY,
    summary="the teardrop template: automatic hits, no cover saves",
    roles=(
        Role.MARKER,
        Role.TEMPLATE,
    ),
)
HELLSTORM = declare(
    "Hellstorm",
    Stage.MARKERS,
    hooks=Hooks(save=_template_save),
    reads_types=HEAVY,
    summary="the large Hellstorm template",
    roles=(
        Role.MARKER,
        Role.TEMPLATE,
        Role.WALL_OF_DEATH_D6,
    ),
)
TORRENT = declare(
    "Torrent",
    Stage.MARKERS,
    param=count(0, 99),
    summary='a template placed up to X" away',
    roles=(
        Role.MARKER,
        Role.PLACED_WITHIN,
    ),
)

#: Every marker and template rule.
MARKERS = (
    BLAST,
    LARGE_BLAST,
    MASSIVE_BLAST,
    APOCALYPTIC_BLAST,
    APOCALYPTIC_MEGA_BLAST,
    BARRAGE,
    APOCALYPTIC_BARRAGE,
    TEMPLATE,
    HELLSTORM,
    TORRENT,
)
