"""Comparison cells: catalog rows -> typed records (a target Unit, a Volley) -> results, with no scenario
document in between.

:func:`laid` lays a marker or template volley over the target's default formation as ``calc`` lays it (the
geometry memoised on what it reads, ``units.marker_volley``); :func:`cell_results` computes many (target,
volley) cells through the sweep path
(:mod:`praetor_analysis.analysis.sweep`), a cell it cannot take through ``units.resolve_shooting`` on the same
records: the numbers and lists ``praetor calc`` gives for the cell's scenario
(:func:`~praetor_analysis.views.cell_documents.scenario_for`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from praetor_analysis.analysis.attacker import DEFAULT_ATTACKER, AttackerProfile
from praetor_analysis.analysis.sweep import CellResult, sweep, sweep_one
from praetor_analysis.engine import Volley
from praetor_analysis.errors import PraetorError, ProfileError, ScenarioError
from praetor_analysis.profiles import Unit
from praetor_analysis.units import (
    Shooting,
    UnitRow,
    WeaponRow,
    default_marker_setup,
    placed_notes,
    resolve_shooting,
    target_unit,
    volley_record,
    weapon_record,
)

__all__ = [
    "cell_of_rows",
    "cell_result",
    "cell_results",
    "laid",
    "parsed_once",
]


def laid(volley: Volley | ScenarioError, target: Unit | ScenarioError) -> tuple[Volley | ScenarioError, list[str]]:
    """A marker or template volley laid over the target's default formation as ``calc`` lays it (a Vehicle,
    or a formation past the limits: unchanged, its marker rules then not modelled), and its notes for
    ``not_modelled``: the ``default formation: ...`` one first, then those the geometry does not model.
    Errors pass through; one the geometry raises is the cell's."""
    if isinstance(volley, ScenarioError) or isinstance(target, ScenarioError):
        return volley, []
    try:
        marked, notes = placed_notes(volley, target)
    except (PraetorError, ProfileError) as exc:
        return ScenarioError(str(exc)), []
    return marked, notes[:1] + [n.removeprefix("not modelled: ") for n in notes[1:] if n.startswith("not modelled: ")]


K = TypeVar("K", bound=Hashable)
R = TypeVar("R")


def cell_of_rows(
    weapon_row: WeaponRow,
    target_row: UnitRow,
    *,
    attacker: AttackerProfile | None = None,
    attacks: Any = None,
    half_range: bool = False,
) -> tuple[Shooting, list[str]]:
    """The records of the scenario :func:`~praetor_analysis.views.cell_documents.scenario_for` writes for one
    weapon row at one target row (catalog row records: ``WeaponRow.from_frame``, ``UnitRow.from_frame``), built
    from the rows, and the notes for ``not_modelled``.

    Raises:
        ScenarioError: what ``calc`` of that scenario raises while parsing it.
    """
    weapon = weapon_record(weapon_row)
    mode = "melee" if weapon.is_melee else "shooting"
    target = target_unit(target_row)
    fired_by = attacker or DEFAULT_ATTACKER
    volley = volley_record(weapon, fired_by.unit(mode=mode), mode=mode, attacks=attacks,
                           half_range=half_range and mode != "melee", modifiers=fired_by.modifiers)  # fmt: skip
    setup = default_marker_setup(volley, target)  # a marker weapon over the default formation, as calc lays it
    return Shooting(target, ((volley,),), setup), []


def parsed_once(cache: dict[K, R | ScenarioError], key: K, parse: Callable[[], R]) -> R | ScenarioError:
    """``parse()`` once per key (a target per sweep, a volley per weapon, mode, hits and attacks), or the error
    it raised, kept to be raised again for every cell that needs it."""
    if key not in cache:
        try:
            cache[key] = parse()
        except (ScenarioError, ProfileError) as exc:
            cache[key] = ScenarioError(str(exc))
    return cache[key]


def cell_results(cells: Sequence[tuple[Unit | ScenarioError, Volley | ScenarioError]]) -> list[CellResult | str]:
    """:func:`cell_result` of many (target, volley) cells, those parsed without error computed together by the
    sweep path (:func:`~praetor_analysis.analysis.sweep.sweep`)."""
    out: list[CellResult | str | None] = [None] * len(cells)
    ready = [(i, t, v) for i, (t, v) in enumerate(cells) if isinstance(t, Unit) and isinstance(v, Volley)]
    try:
        swept: list[CellResult | ScenarioError | None] = sweep([(v, t) for _, t, v in ready])
    except Exception:  # an engine defect: each cell alone, so that only the cells it concerns say so
        swept = [None] * len(ready)
    for (i, _, _), result in zip(ready, swept, strict=True):
        out[i] = str(result) if isinstance(result, ScenarioError) else result
    return [cell_result(*cells[i]) if found is None else found for i, found in enumerate(out)]


def cell_result(target: Unit | ScenarioError, volley: Volley | ScenarioError) -> CellResult | str:
    """What ``calc`` gives for one volley at one target, as a :class:`CellResult` (through the exact sweep path
    of :mod:`~praetor_analysis.analysis.sweep` when it applies, else :func:`~praetor_analysis.units.resolve_shooting`
    on the records), or the error message: ScenarioError as is, anything else marked as an engine error."""
    try:
        if isinstance(target, ScenarioError):
            raise target
        if isinstance(volley, ScenarioError):
            raise volley
        return sweep_one(volley, target) or CellResult.of(resolve_shooting(Shooting(target, ((volley,),))))
    except ScenarioError as exc:
        return str(exc)
    except Exception as exc:
        return f"engine error: {type(exc).__name__}: {exc}"
