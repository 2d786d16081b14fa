"""The work an array of scenarios asks for, estimated before any of it is computed (docs/scenario.md#limits).

Each distinct scenario of an array (equal documents are computed once: the parsed blocks and the volleys
are memoised) is given an estimate of its CPU seconds on one core from what it asks for: a statline
scenario from its volleys' shots and the target's states, its marker geometry and its round of melee; a
datasheet attacker from its models, the weapon profiles they carry and its loadout; a roster named by a target
from its bytes, once per file. An array whose estimates
add up to more than :data:`~praetor_analysis.units.limits.MAX_SECONDS` is refused, naming the estimate and
the limit. The constants are CPU times measured on the shared 2-core machine (load 9 to 11), rounded up.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from praetor_analysis.catalog import frame_rows, load_datasheet_models
from praetor_analysis.engine import shots_distribution
from praetor_analysis.errors import PraetorError, ScenarioError
from praetor_analysis.markers import marker_kind
from praetor_analysis.prob import Unkeyed, token_key, token_keys
from praetor_analysis.scenario.document import BestProfile, MeleeRound, Scenario, Shooting, parse_scenario
from praetor_analysis.scenario.hh3 import is_hh3
from praetor_analysis.scenario.hh3_names import check_hh3_document
from praetor_analysis.scenario.limits import melee_cells
from praetor_analysis.scenario.unit_calc import has_fielded_unit, is_unit_attacker
from praetor_analysis.units import LOADOUT_ITEM_S, MAX_SECONDS, datasheet_row, marker_seconds

__all__ = [
    "DATASHEET_S",
    "DATASHEET_WEAPON_S",
    "MELEE_CELL_S",
    "ROSTER_BYTE_S",
    "ROSTER_S",
    "SHOT_STATE_S",
    "STATLINE_S",
    "check_array_work",
    "datasheet_seconds",
    "document_key",
    "document_keys",
    "roster_seconds",
    "scenario_seconds",
]

#: Seconds of one statline scenario's fixed work (parsing, the rule lists, the result): 200 distinct
#: single-volley scenarios took 0.40 to 0.45 ms each.
STATLINE_S = 4.5e-4
#: Seconds per shot x target state (models x Wounds + 1) of one volley, an upper estimate: 900 shots at 100
#: models of W5 took 36 ms (80 ns each), at 50 models 16 ms (71 ns), 1,000 shots at 1,000 W1 models 53 ms.
SHOT_STATE_S = 8e-8
#: Seconds per estimated cell of a whole round of melee (``limits.melee_cells``): 10 against 10 models of W1
#: (29,403 cells) took 58 ms, 20 against 20 of W2 (852,012) 0.66 s, 30 against 30 of W2 (2.8 million) 5.1 s.
MELEE_CELL_S = 2e-6
#: Seconds of one datasheet attacker's fixed work, and per weapon profile its models carry: 150 distinct
#: datasheets at their largest size took 13 ms (median) to 30 ms (99th percentile), +0.9 ms per profile.
DATASHEET_S = 0.02
DATASHEET_WEAPON_S = 0.002
#: Seconds of reading a roster named by a target (``{"roster", "unit"}``), once per file in an array, and per
#: byte of the file: the shipped 61 KB .rosz and 412 KB .ros took 0.16 s and 0.22 s (load 6).
ROSTER_S = 0.2
ROSTER_BYTE_S = 1e-6


def scenario_seconds(scenario: Scenario) -> float:
    """Estimated CPU seconds of one parsed statline scenario."""
    if isinstance(scenario, BestProfile):
        return sum(scenario_seconds(c) for c in scenario.choices)
    if isinstance(scenario, MeleeRound):
        return STATLINE_S + MELEE_CELL_S * melee_cells(scenario.attacker, scenario.target)
    return STATLINE_S + _shooting_seconds(scenario)


def _shooting_seconds(scenario: Shooting) -> float:
    target = scenario.target
    states = target.models * (target.W or 1) + 1
    total = 0.0
    for unit in scenario.firing_units:
        for volley in unit:
            shots, _ = shots_distribution(volley)
            total += SHOT_STATE_S * (shots.max + 1) * states
            if scenario.marker is not None:
                kind = marker_kind(volley.weapon)
                total += marker_seconds(volley, scenario.marker, kind) if kind is not None else 0.0
    return total


@cache
def _profiles_per_sheet() -> dict[tuple[str, str], tuple[int, int]]:
    """(name, faction) -> (weapon profiles over the datasheet's model slots, their most models)."""
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for r in frame_rows(load_datasheet_models()):
        key = (str(r["datasheet"]), str(r["faction"]))
        weapons, models = out.get(key, (0, 0))
        ids = [k for k in str(r["default_weapon_ids"]).split(";") if k]
        out[key] = (weapons + len(ids), models + int(r["max"]))
    return out


def datasheet_seconds(value: Any) -> float:
    """Estimated CPU seconds of a datasheet attacker: its fixed work, its weapon profiles (the unit's own
    counted on every slot) and its loadout items. A name that is refused costs the fixed work (the
    scenario is refused when it is computed)."""
    try:
        sheet = datasheet_row(value)
    except PraetorError:
        return DATASHEET_S
    weapons, _ = _profiles_per_sheet().get((str(sheet["name"]), str(sheet["faction"])), (0, 0))
    unit_weapons = len([k for k in str(sheet["unit_weapon_ids"]).split(";") if k])
    items = value.get("loadout", []) if isinstance(value, Mapping) else []
    n_items = len(items) if isinstance(items, list) else 0
    return DATASHEET_S + DATASHEET_WEAPON_S * (weapons + unit_weapons) + LOADOUT_ITEM_S * n_items


def roster_seconds(value: Any) -> float:
    """Estimated CPU seconds of reading the roster a target block names (its fixed work and its bytes)."""
    path = value.get("roster") if isinstance(value, Mapping) else None
    try:
        size = Path(path).stat().st_size if isinstance(path, str) and path else 0
    except (OSError, ValueError):
        size = 0
    return ROSTER_S + ROSTER_BYTE_S * size


def _roster_once(value: Any, seen: set[str]) -> float:
    """:func:`roster_seconds` of the roster a block names, the first time an array names that file; else 0."""
    if not isinstance(value, Mapping) or "roster" not in value or str(value["roster"]) in seen:
        return 0.0
    seen.add(str(value["roster"]))
    return roster_seconds(value)


def document_key(item: Any) -> Hashable:
    """A key equal for equal documents (:func:`~praetor_analysis.prob.memo.token_key`: their keys in order and
    their values' tokens, equal exactly when the values and their types are); a document without one is its
    own key."""
    key = token_key(item)
    return Unkeyed(id(item)) if key is None else key


def document_keys(items: Sequence[Any]) -> list[Hashable]:
    """:func:`document_key` of each of ``items``, made together (``prob.memo.token_keys``: a block the documents
    share, the very same object, is walked once)."""
    return [Unkeyed(id(item)) if key is None else key for item, key in zip(items, token_keys(items), strict=True)]


def check_array_work(items: Sequence[Any], keys: Sequence[Hashable] | None = None) -> None:
    """Parse every statline scenario of an array (refusing the first bad one, with its index) and refuse the
    array when the estimated seconds of its distinct scenarios exceed ``MAX_SECONDS``; ``keys``: the
    documents' keys (``document_key``), when the caller has them."""
    seen: set[Hashable] = set()
    rosters: set[str] = set()
    total = 0.0
    for i, item in enumerate(items):
        key = document_key(item) if keys is None else keys[i]
        if key in seen:
            continue
        seen.add(key)
        try:
            if is_hh3(item):
                check_hh3_document(item)  # edition 3: small exact chains (MAX_SCENARIOS bounds the array)
            elif is_unit_attacker(item):
                total += _roster_once(item["attacker"], rosters) + datasheet_seconds(item["attacker"])
            elif has_fielded_unit(item):
                target = item["target"]
                roster = isinstance(target, Mapping) and "roster" in target
                total += _roster_once(target, rosters) + (DATASHEET_S if roster else datasheet_seconds(target))
            else:
                total += scenario_seconds(parse_scenario(item, key))
        except ScenarioError as exc:
            raise ScenarioError(f"[{i}] {exc}", field=exc.field, value=exc.value) from None
        except PraetorError as exc:
            raise ScenarioError(f"[{i}] {exc}", field=exc.field, value=exc.value) from None
        if total > MAX_SECONDS:
            raise ScenarioError(
                f"scenario: an array of {len(items)} scenarios whose first {len(seen)} distinct ones are "
                f"estimated at {total:.3g} s of work (limit {MAX_SECONDS:g} s); split it into smaller arrays",
                field="scenario",
                value=len(items),
            )
