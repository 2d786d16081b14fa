"""Comparison cells: catalog rows -> typed records (a target Unit, a Volley) -> results, with no scenario
document in between.

:func:`fired` says what a weapon of a comparison fires (a marker weapon's assumed hits, or the attacks asked
for); :func:`cell_results` computes many (target, volley) cells through the sweep path
(:mod:`praetor_analysis.analysis.sweep`), a cell it cannot take through ``scenario.calc.run`` on the same
records: the numbers and lists ``praetor calc`` gives for the cell's scenario
(:func:`~praetor_analysis.analysis.compare.scenario_for`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

from praetor_analysis.analysis.sweep import sweep, sweep_one
from praetor_analysis.engine.volley import Volley
from praetor_analysis.errors import ScenarioError
from praetor_analysis.markers.kinds import marker_kind
from praetor_analysis.profiles.records import ProfileError, Unit, Weapon
from praetor_analysis.rules.hooks import Role
from praetor_analysis.scenario.blocks import is_vehicle_row, target_block, weapon_block
from praetor_analysis.scenario.calc import run
from praetor_analysis.scenario.document import Shooting, parse_weapon_block, target_of_block, volley_of_blocks
from praetor_analysis.scenario.fields import STRIKING

__all__ = [
    "DEFAULT_ATTACKER",
    "MARKER_MODELS",
    "MARKER_MODELS_VEHICLE",
    "attacker_blocks",
    "cell_of_rows",
    "cell_result",
    "cell_results",
    "fired",
    "marker_hits",
    "parsed_once",
]

DEFAULT_ATTACKER: dict[str, Any] = {
    "name": "Legionary",
    "WS": 4,
    "BS": 4,
    "S": 4,
    "T": 4,
    "W": 1,
    "I": 4,
    "A": 1,
    "Ld": 7,
    "Save": "3+",
}
"""The attacker when none is given: a Legionary statline (BS 4, WS 4, S 4, A 1), one model."""

MARKER_MODELS: dict[str, int] = {
    "Blast": 2,  # 3" marker
    "Barrage": 2,  # a Barrage without a Blast size: taken as a 3" marker
    "Large Blast": 3,  # 5"
    "Massive Blast": 4,  # 7"
    "Apocalyptic Blast": 6,  # 10"
    "Apocalyptic Mega-blast": 8,  # 5"/7"/10" zones; all hits at the weapon's first Strength
    "Apocalyptic Barrage": 3,  # per strike (one clover circle, about a 5" marker)
    "Template": 4,  # teardrop template
    "Torrent": 4,  # a teardrop template placed within its range
    "Hellstorm": 6,  # Hellstorm template
}
"""Models of an infantry-like target assumed under one marker, by marker kind (the names of
:data:`~praetor_analysis.markers.kinds.MARKER_KINDS`; capped at the target's models). These stand in for a
formation until the comparison switches to the marker geometry (docs/scenario.md ``formation``); they are typical
counts for a coherent unit on 25-32 mm bases, not rules."""

MARKER_MODELS_VEHICLE = 1
"""Hits on a Vehicle per marker: one (the vehicle is one model)."""


def marker_hits(weapon: Weapon, *, target_models: int, vehicle: bool, markers: Any = None) -> tuple[Any, str] | None:
    """The assumed ``hits`` of a marker weapon (None for other weapons) and a note saying so.

    Args:
        weapon: The parsed weapon.
        target_models: Models in the target unit (caps the hits of one marker).
        vehicle: True for a Vehicle target (one hit per marker).
        markers: Markers fired (an int or dice expression); default the weapon's shot count, or the X of
            ``Apocalyptic Barrage (X)``.

    Returns:
        ``(hits, note)``; ``hits`` is an int, or a dice expression when one model is under each marker.

    Raises:
        ScenarioError: A random number of markers with several models under each (not a dice expression).
    """
    kind = marker_kind(weapon)
    if kind is None:
        return None
    per_marker = MARKER_MODELS_VEHICLE if vehicle else min(MARKER_MODELS[kind], max(target_models, 1))
    if markers is None:
        barrage = weapon.with_role(Role.CLOVER)
        if barrage is not None and barrage.value:
            markers = barrage.value
        elif weapon.type.shots is not None:
            markers = str(weapon.type.shots)
        else:
            markers = 1
    markers_text = str(markers).strip()
    note = f"assumed hits: {per_marker} per {kind} marker x {markers_text}"
    if re.fullmatch(r"\d+", markers_text):
        return int(markers_text) * per_marker, note
    if per_marker == 1:
        return markers_text, note
    raise ScenarioError(
        f"hits: {markers_text} {kind} markers with {per_marker} models under each is not a dice expression; "
        "give a formation instead"
    )


def fired(
    parsed: Weapon, *, target_models: Any, vehicle: bool, attacker_models: Any, attacks: Any, marker: bool = True
) -> tuple[Any, Any, list[str]]:
    """``(hits, attacks, notes)`` of a weapon in a comparison cell: a marker weapon's assumed hits
    (:func:`marker_hits`, times the attacker's models) and the note saying so, else the ``attacks`` asked
    for (``marker`` False: the weapon is known to have no marker or template). The model counts are read
    (as ints) only for a marker weapon."""
    marked = (
        None
        if parsed.is_melee or not marker
        else marker_hits(parsed, target_models=int(target_models), vehicle=vehicle, markers=attacks)
    )
    if marked is None:
        return None, attacks, []
    hits, note = marked
    models = int(attacker_models)
    if models != 1:
        if not isinstance(hits, int):
            raise ScenarioError(f"hits: {models} models firing {hits} markers each is not a dice expression")
        hits *= models
        note += f" x {models} models"
    return hits, None, [note]


K = TypeVar("K", bound=Hashable)
R = TypeVar("R")


def attacker_blocks(attacker: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """The attacker block by mode (default :data:`DEFAULT_ATTACKER`): in shooting without the fields that
    act only in melee (``scenario.fields.STRIKING``), as a comparison applies its options where they act."""
    block = dict(attacker or DEFAULT_ATTACKER)
    return {"melee": block, "shooting": {k: v for k, v in block.items() if k not in STRIKING}}


def cell_of_rows(
    weapon_row: Mapping[str, Any] | Any,
    target_row: Mapping[str, Any] | Any,
    *,
    attacker: Mapping[str, Any] | None = None,
    attacks: Any = None,
    half_range: bool = False,
) -> tuple[Shooting, list[str]]:
    """The records of the scenario :func:`~praetor_analysis.analysis.compare.scenario_for` writes for one
    weapon row at one target row, built from the rows, and the notes for ``not_modelled``.

    Raises:
        ScenarioError: what ``calc`` of that scenario raises while parsing it.
    """
    wblock, tblock = weapon_block(weapon_row), target_block(target_row)
    weapon = parse_weapon_block(wblock)
    mode = "melee" if weapon.is_melee else "shooting"
    blocks = attacker_blocks(attacker)
    hits, shots, notes = fired(
        weapon,
        target_models=tblock["models"],
        vehicle=is_vehicle_row(target_row),
        attacker_models=blocks["melee"].get("models", 1),
        attacks=attacks,
    )
    target = target_of_block(tblock)
    volley = volley_of_blocks(
        wblock, blocks[mode], mode=mode, attacks=shots, hits=hits, half_range=half_range and mode != "melee"
    )
    return Shooting(target, ((volley,),)), notes


def parsed_once(cache: dict[K, R | ScenarioError], key: K, parse: Callable[[], R]) -> R | ScenarioError:
    """``parse()`` once per key (a target per sweep, a volley per weapon, mode, hits and attacks), or the error
    it raised, kept to be raised again for every cell that needs it."""
    if key not in cache:
        try:
            cache[key] = parse()
        except (ScenarioError, ProfileError) as exc:
            cache[key] = ScenarioError(str(exc))
    return cache[key]


def cell_results(cells: Sequence[tuple[Unit | ScenarioError, Volley | ScenarioError]]) -> list[dict[str, Any] | str]:
    """:func:`cell_result` of many (target, volley) cells, those parsed without error computed together by the
    sweep path (:func:`~praetor_analysis.analysis.sweep.sweep`)."""
    out: list[dict[str, Any] | str | None] = [None] * len(cells)
    ready = [(i, t, v) for i, (t, v) in enumerate(cells) if isinstance(t, Unit) and isinstance(v, Volley)]
    try:
        swept: list[dict[str, Any] | ScenarioError | None] = sweep([(v, t) for _, t, v in ready])
    except Exception:  # an engine defect: each cell alone, so that only the cells it concerns say so
        swept = [None] * len(ready)
    for (i, _, _), result in zip(ready, swept, strict=True):
        out[i] = str(result) if isinstance(result, ScenarioError) else result
    return [cell_result(*cells[i]) if found is None else found for i, found in enumerate(out)]


def cell_result(target: Unit | ScenarioError, volley: Volley | ScenarioError) -> dict[str, Any] | str:
    """The calc result of one volley at one target (through the exact sweep path of
    :mod:`~praetor_analysis.analysis.sweep` when it applies, else :func:`~praetor_analysis.scenario.calc.run`
    on the records), or the error message: ScenarioError as is, anything else marked as an engine error."""
    try:
        if isinstance(target, ScenarioError):
            raise target
        if isinstance(volley, ScenarioError):
            raise volley
        return sweep_one(volley, target) or run(Shooting(target, ((volley,),)))
    except ScenarioError as exc:
        return str(exc)
    except Exception as exc:
        return f"engine error: {type(exc).__name__}: {exc}"
