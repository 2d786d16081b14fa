"""The `praetor calc` contract (docs/scenario.md): JSON scenario in, JSON result out.

:func:`calc` parses the document into typed records (:mod:`praetor_analysis.scenario.document`), then runs
them: the engine, markers, vehicles and melee see records only. Fields are added, never renamed. Bad
input raises ``ScenarioError`` whose message names the field and the value; the command line turns it into
exit status 2 and one line on standard error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, Protocol

from praetor_analysis.engine import (
    BatchResult,
    Volley,
    VolleyResult,
    locked_in_combat,
    reasons,
    resolve_batch,
)
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.melee import resolve_combat
from praetor_analysis.prob import BoundedMemo, Unkeyed
from praetor_analysis.profiles import Unit
from praetor_analysis.scenario.collector import collector_paused
from praetor_analysis.scenario.document import (
    SCENARIO_FIELDS,
    VOLLEY_FIELDS,
    BestProfile,
    MeleeRound,
    Scenario,
    Shooting,
    known_cell,
    parse_scenario,
    parse_target,
    parse_volley,
    resolve_names,
)
from praetor_analysis.scenario.echo import unit_echo
from praetor_analysis.scenario.hh3 import is_hh3, without_edition
from praetor_analysis.scenario.hh3_door import calc_hh3_stages
from praetor_analysis.scenario.hh3_names import check_hh3_document, has_hh3_names, resolve_hh3_names, unit_attack_hh3
from praetor_analysis.scenario.limits import MAX_SCENARIOS
from praetor_analysis.scenario.unit_calc import (
    add_notes,
    attacker_unit,
    has_fielded_unit,
    is_unit_attacker,
    unit_calc,
)
from praetor_analysis.scenario.work import check_array_work, document_keys
from praetor_analysis.units import MarkerSetup, parse_cached, resolve_shooting, target_of

__all__ = [
    "METRICS",
    "SCENARIO_FIELDS",
    "VOLLEY_FIELDS",
    "ScenarioError",
    "calc",
    "calc_json",
    "calc_many",
    "calc_results",
    "cell_reasons",
    "echoed",
    "parse_cached",
    "parse_target",
    "parse_volley",
    "resolve_names",
    "result_mappings",
    "run",
    "unit_echo_once",
]

#: How a list of profiles (Transmutative armaments) is ranked: the larger the better.
METRICS: dict[str, Callable[[Mapping[str, Any]], float]] = {
    "casualties": lambda r: r["casualties"]["mean"] if "casualties" in r else r["hull_points"]["mean"],
    "unsaved": lambda r: r["unsaved"]["mean"] if "unsaved" in r else r["hull_points"]["mean"],
    "p_any": lambda r: 1.0 - (r["casualties"] if "casualties" in r else r["hull_points"])["pmf"][0],
    "wipe": lambda r: (
        (r["casualties"]["pmf"][-1] if len(r["casualties"]["pmf"]) > 1 else 0.0) if "casualties" in r else r["wrecked"]
    ),
    "hull_points": lambda r: r["hull_points"]["mean"] if "hull_points" in r else r["casualties"]["mean"],
    "wrecked": lambda r: r.get("wrecked", 0.0),
}


def calc(data: Any) -> dict[str, Any]:
    """Compute one scenario (a mapping in the docs/scenario.md form) into the result mapping; ``reasons``
    says why each rule under ``no_effect`` or ``not_modelled`` is there. A datasheet ``attacker`` (no
    ``weapon``) attacks as the unit it fields (:func:`praetor_analysis.scenario.unit_calc.unit_calc`)."""
    if is_hh3(data):  # the edition is chosen here, once (docs/editions.md)
        if has_hh3_names(data):
            unit_result = unit_attack_hh3(data)
            if unit_result is not None:
                return unit_result
            data = resolve_hh3_names(data)
        return calc_hh3_stages(data)
    data = without_edition(data)
    notes: list[tuple[str, str]] = []
    if is_unit_attacker(data):
        result = unit_calc(data)
        hits_given, locked = False, result.get("phase") == "melee"  # a datasheet attacker gives no hits
    else:
        if has_fielded_unit(data):
            block, notes = target_of(data["target"])
            data = {**data, "target": block}
        scenario = parse_scenario(data)
        result = add_notes(run(scenario), notes)
        hits_given, locked = _flags(scenario)
    own = result.pop("reasons", {})
    lists = list(result.get("no_effect", ())), list(result.get("not_modelled", ()))
    result["reasons"] = {**reasons(*lists, hits_given=hits_given, locked=locked), **own}
    return result


def _flags(scenario: Scenario) -> tuple[bool, bool]:
    """(hits given, locked in combat) of a parsed scenario: every volley gives its hits (no To Hit roll is
    made); a melee attack strikes the target (a round of combat is one; ``engine.pinning.locked_in_combat``)."""
    if isinstance(scenario, BestProfile):
        flags = [_flags(choice) for choice in scenario.choices]
        return all(f[0] for f in flags), any(f[1] for f in flags)
    if isinstance(scenario, MeleeRound):
        return False, True
    volleys = [v for unit in scenario.firing_units for v in unit]
    return all(v.hits is not None for v in volleys), locked_in_combat(volleys)


def run(scenario: Scenario) -> dict[str, Any]:
    """The result mapping of a parsed scenario."""
    try:
        if isinstance(scenario, BestProfile):
            return _best_profile(scenario)
        if isinstance(scenario, MeleeRound):
            out = resolve_combat(scenario.attacker, scenario.target).to_dict()
            out["attacker"], out["target"] = unit_echo(scenario.attacker.unit), unit_echo(scenario.target.unit)
            return out
        return echoed(resolve_shooting(scenario).to_dict(), scenario.firing_units, scenario.target, scenario.marker)
    except ScenarioError:
        raise
    except PraetorError as exc:  # the engine's own bounds (TooLarge) and profile checks
        raise ScenarioError(str(exc), field=exc.field, value=exc.value) from None


def echoed(
    result: dict[str, Any],
    firing_units: Sequence[Sequence[Volley]],
    target: Unit,
    marker: MarkerSetup | None = None,
) -> dict[str, Any]:
    """``result`` with the attacker (a list per firing unit of ``firing_units``) and the target it resolved
    (:func:`~praetor_analysis.scenario.echo.unit_echo`)."""
    if len(firing_units) == 1 and len(firing_units[0]) == 1:
        result["attacker"] = unit_echo(firing_units[0][0].attacker)
    else:
        result["attacker"] = [[unit_echo(v.attacker) for v in unit] for unit in firing_units]
    result["target"] = unit_echo(target, marker.echo if marker is not None else None)
    return result


def _best_profile(scenario: BestProfile) -> dict[str, Any]:
    """Transmutative armaments: the best profile for this target by ``metric`` (ties: the first listed)."""
    results = []
    for i, choice in enumerate(scenario.choices):
        try:
            results.append(run(choice))
        except ScenarioError as exc:
            raise ScenarioError(f"weapon[{i}].{str(exc).removeprefix('weapon.')}") from None
    scores = [METRICS[scenario.metric](r) for r in results]
    best = max(range(len(results)), key=lambda i: (scores[i], -i))
    out = dict(results[best])
    out["chosen_profile"] = {
        "index": best,
        "name": scenario.names[best],
        "metric": scenario.metric,
        "scores": scores,
    }
    return out


def calc_json(text: str) -> Any:
    """Parse JSON text (one scenario or an array of them) and compute the result(s) with :func:`calc`.

    Every scenario of an array is parsed (and its cost bounded) before the first is computed (a datasheet
    attacker: its unit fielded), once the array's estimated work is within bounds
    (:func:`~praetor_analysis.scenario.work.check_array_work`); an error names the scenario's index.
    """
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"scenario: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    except ValueError as exc:  # an integer beyond Python's digit limit
        raise ScenarioError(f"scenario: invalid JSON: {exc}") from None
    except RecursionError:
        raise ScenarioError("scenario: JSON nested too deeply") from None
    if not isinstance(data, list):
        return calc(data)
    if len(data) > MAX_SCENARIOS:
        raise ScenarioError(f"scenario: {len(data)} scenarios in one array (limit {MAX_SCENARIOS})")
    data = [_edition_door(i, item) for i, item in enumerate(data)]
    keys = document_keys(data)  # each document keyed once, for every step below
    check_array_work(data, keys)  # every statline scenario parsed (memoised: calc_many parses them again for free)
    checked: set[Hashable] = set()
    for i, (item, key) in enumerate(zip(data, keys, strict=True)):
        if key in checked:  # equal documents are checked once (and computed once by calc_many)
            continue
        checked.add(key)
        try:
            if is_hh3(item):
                check_hh3_document(item)
            elif is_unit_attacker(item):
                attacker_unit(item["attacker"])
            elif has_fielded_unit(item):
                target_of(item["target"])
            else:
                parse_scenario(item, key)  # memoised: calc_many finds it parsed
        except ScenarioError as exc:
            raise ScenarioError(f"[{i}] {exc}", field=exc.field, value=exc.value) from None
    out = []
    with collector_paused():  # see calc_many
        results = calc_results(data, result_mappings, keys)
    for i, result in enumerate(results):
        if isinstance(result, ScenarioError):
            raise ScenarioError(f"[{i}] {result}", field=result.field, value=result.value) from None
        out.append(result)
    return out


def _edition_door(i: int, item: Any) -> Any:
    """An array's item with its edition read (an edition 2 document loses its ``edition`` field)."""
    try:
        return without_edition(item)
    except ScenarioError as exc:
        raise ScenarioError(f"[{i}] {exc}", field=exc.field, value=exc.value) from None


def calc_many(items: Sequence[Any]) -> list[Any]:
    """:func:`calc` of each scenario, or the ScenarioError it raises; the single-volley
    scenarios against units (no field beyond the volley's and the target) are computed together by the
    engine's batch (``engine.batch.resolve_many``), with the same results. Equal documents are computed
    once (as the work estimate counts them) and share one result."""
    with collector_paused():  # many short-lived records and keys: see scenario.collector
        return calc_results(items, result_mappings)  # its locals (the keys) dropped before the collector runs


BatchBuild = Callable[[Sequence[tuple[Volley, Unit]], BatchResult], list[Any]]
"""What a batch's results become: given the cells and the engine's results (``engine.resolve_batch``: arrays
over the cells, or a ``VolleyResult`` or the error of a cell), one value a cell (``result_mappings``: the
contract's mappings)."""


class Documents(Protocol):
    """Documents by index (a list, or rows made when read: ``scenario.frame``)."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int, /) -> Any: ...


def calc_results(items: Documents, build: BatchBuild, keys: Sequence[Hashable] | None = None) -> list[Any]:
    """:func:`calc_many` with the batch's results made by ``build`` (the other scenarios' are ``calc``'s
    mappings, or the ScenarioError each raises); equal documents computed once, sharing one value. ``keys``:
    the documents' keys (``document_keys``), when the caller has them; then an item is read only when its
    document is not found a batch cell by its key (``items`` may make it then)."""
    first: dict[Hashable, int] = {}
    if keys is None:
        keys = document_keys(items if isinstance(items, Sequence) else [items[i] for i in range(len(items))])
    where = [first.setdefault(key, i) for i, key in enumerate(keys)]
    distinct = list(first.values())  # each distinct document's first index, in order
    done: list[Any] = [None] * len(distinct)
    _calc_batch(items, distinct, keys, done, build)
    for j, i in enumerate(distinct):
        if done[j] is None:
            try:
                done[j] = calc(items[i])
            except ScenarioError as exc:
                done[j] = exc
    if len(distinct) == len(items):
        return done
    index = {i: j for j, i in enumerate(distinct)}
    return [done[index[at]] for at in where]


def _calc_batch(
    items: Documents, distinct: Sequence[int], keys: Sequence[Hashable], out: list[Any], build: BatchBuild
) -> None:
    """``out[j]`` for every single-volley scenario against a unit of ``items[distinct[j]]`` (``keys``: the
    documents' keys), computed in one batch, its values built together (``build``)."""
    batch: list[int] = []
    cells: list[tuple[Volley, Unit]] = []
    for j, i in enumerate(distinct):
        cell = _batchable(items, i, keys[i])
        if cell is not None:
            batch.append(j)
            cells.append(cell)
    for j, result in zip(batch, build(cells, resolve_batch(cells)), strict=True):
        out[j] = result


def result_mappings(cells: Sequence[tuple[Volley, Unit]], batch: BatchResult) -> list[Any]:
    """The result mapping of each cell (as ``calc`` gives it: ``echoed`` and its ``reasons``), or the
    ScenarioError of its error. Built together: the vectorised cells' distributions listed from the batch's
    matrices (``BlockResult.to_dicts``), each unit's echo and each set of reasons made once and copied (a caller
    may change its results)."""
    echoes: dict[int, dict[str, Any]] = {}  # by unit record (the cells keep them alive): built once, copied
    why: dict[tuple, dict[str, str]] = {}  # the reasons of equal rule lists: built once, copied
    out: list[Any] = [None] * batch.size
    for block in batch.blocks:
        for i, done, rules in zip(block.cells, block.to_dicts(), block.rules, strict=True):
            out[i] = _echoed_cell(done, cells[i], rules[1], rules[2], echoes, why)
    for i, result in batch.others.items():
        if isinstance(result, PraetorError):
            out[i] = ScenarioError(str(result), field=result.field, value=result.value)
            continue
        assert isinstance(result, VolleyResult)  # full results: casualties_only is not asked for
        out[i] = _echoed_cell(result.to_dict(), cells[i], result.no_effect, result.not_modelled, echoes, why)
    return out


def _echoed_cell(
    done: dict[str, Any],
    cell: tuple[Volley, Unit],
    no_effect: Sequence[str],
    not_modelled: Sequence[str],
    echoes: dict[int, dict[str, Any]],
    why: dict[tuple, dict[str, str]],
) -> dict[str, Any]:
    """A cell's result mapping with its units' echoes and its reasons (copies of the shared ones)."""
    volley, target = cell
    attacker, target_echo = echoes.get(id(volley.attacker)), echoes.get(id(target))
    if attacker is None:
        attacker = unit_echo_once(volley.attacker, echoes)
    if target_echo is None:
        target_echo = unit_echo_once(target, echoes)
    done["attacker"] = {**attacker, "rules": list(attacker["rules"])}
    done["target"] = {**target_echo, "rules": list(target_echo["rules"])}
    done["reasons"] = dict(cell_reasons(volley, no_effect, not_modelled, why))
    return done


def unit_echo_once(unit: Unit, echoes: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """``unit_echo(unit)``, built once per record of a batch (``echoes``: by the record's id; the cells hold the
    records) and shared: a result copies it."""
    found = echoes.get(id(unit))
    if found is None:
        found = echoes[id(unit)] = unit_echo(unit)
    return found


def cell_reasons(
    volley: Volley, no_effect: Sequence[str], not_modelled: Sequence[str], why: dict[tuple, dict[str, str]]
) -> dict[str, str]:
    """The ``reasons`` of a single volley's result (as ``calc`` gives them: its rules of no effect and not
    modelled), built once per set of rule lists, given hits and mode (``why``; the mode says whether the target is
    locked in combat) and shared: a result copies it."""
    key = (tuple(no_effect), tuple(not_modelled), volley.hits is not None, volley.mode)  # mode: whether locked
    found = why.get(key)
    if found is None:
        locked = locked_in_combat((volley,))
        found = why[key] = reasons(list(key[0]), list(key[1]), hits_given=key[2], locked=locked)
    return found


_BATCH_FIELDS = frozenset(VOLLEY_FIELDS | {"target", "name"})
"""The fields of a document the batch computes (a single volley against a unit)."""


_CELLS: BoundedMemo[tuple[tuple[Volley, Unit] | None]] = BoundedMemo(8192)
""":func:`_batchable`'s answer by the document's key, in a 1-tuple (None: computed by ``calc``): a document sent
again is found a cell without its fields read again or its parse looked up."""


def _batchable(items: Documents, i: int, key: Hashable) -> tuple[Volley, Unit] | None:
    """The (volley, target) of ``items[i]`` when it is a single-volley scenario against a unit, or None (computed by
    ``calc``); ``key``: the document's key (``parse_scenario``'s memo and this answer's): the item is read only when
    its answer is not kept."""
    keyed = not isinstance(key, Unkeyed)
    found = _CELLS.peek(key) if keyed else None
    if found is not None:
        return found[0]
    cell = _cell_of(items[i], key)
    if keyed:
        _CELLS.put(key, (cell,))
    return cell


def _cell_of(item: Any, key: Hashable | None) -> tuple[Volley, Unit] | None:
    """:func:`_batchable` of the item itself, read and parsed (a plain document whose volley and target are
    parsed already found from them: ``document.known_cell``)."""
    known = known_cell(item, key)
    if known is not None:
        return known
    if not (type(item) is dict or isinstance(item, Mapping)) or not _BATCH_FIELDS.issuperset(item):
        return None  # an edition 3 document (its ``edition`` field) is computed by ``calc``
    weapon = item.get("weapon")
    if not (type(weapon) is dict or isinstance(weapon, (Mapping, str))):  # none (a datasheet attacker), or a list
        return None
    try:
        scenario = parse_scenario(item, key)
    except ScenarioError:
        return None  # calc says so, with its own message
    if not isinstance(scenario, Shooting) or scenario.target.is_vehicle or scenario.marker is not None:
        return None
    (volley,) = scenario.firing_units[0]
    return volley, scenario.target
