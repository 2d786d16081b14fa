"""Which fields act in which kind of scenario; any other field given is refused, naming it and the kind.

A scenario is one of :data:`KINDS`: a single shooting or melee volley, a marker volley on a formation, a
whole round of melee, a sequence of firing units, or a datasheet attacking with its own wargear. Each kind
lists the scenario fields that act in it (:data:`SCENARIO_ACTS`) and, for its attacker and target blocks,
the unit fields that act (:data:`UNIT_ACTS`). A unit's statline (:data:`STATLINE`) is accepted everywhere,
since players paste statlines whole. A field given its neutral value (``false``, ``null``, ``0`` wounds
taken) asks for nothing and is accepted; any other value of a field that does not act is refused on one
line: nothing is answered as if a field given were absent. docs/scenario.md#fields-by-kind is the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from praetor_analysis.errors import ScenarioError, show_value
from praetor_analysis.units import (
    DATASHEET_ACTS,
    STATLINE,
    STRIKING,
    UNIT_ACTS,
    check_unit_fields,
    is_neutral,
    why_unused,
)

__all__ = [
    "DATASHEET_ACTS",
    "KINDS",
    "SCENARIO_ACTS",
    "STATLINE",
    "STRIKING",
    "UNIT_ACTS",
    "check_scenario_fields",
    "check_unit_fields",
    "is_neutral",
]

#: The kinds of scenario, as the refusals name them.
KINDS = ("shooting", "melee", "melee round", "marker", "sequence", "datasheet shooting", "datasheet melee")

#: Scenario fields that act in each kind (``metric`` needs a list of weapon profiles as well).
SCENARIO_ACTS: dict[str, frozenset[str]] = {
    "shooting": frozenset({"name", "mode", "attacker", "weapon", "target", "attacks", "hits", "snap_shots",
                           "half_range", "metric", "options"}),
    "marker": frozenset({"name", "mode", "attacker", "weapon", "target", "attacks", "half_range", "formation",
                         "aim", "indirect", "edges", "options"}),
    "melee": frozenset({"name", "mode", "attacker", "weapon", "target", "attacks", "hits", "metric", "options"}),
    "melee round": frozenset({"name", "mode", "attacker", "weapon", "target", "target_weapon"}),
    "sequence": frozenset({"name", "target", "firing_units"}),
    "datasheet shooting": frozenset({"name", "mode", "attacker", "target", "half_range"}),
    "datasheet melee": frozenset({"name", "mode", "attacker", "target", "target_weapon"}),
}  # fmt: skip


def check_scenario_fields(data: Mapping[str, Any], kind: str, prefix: str = "") -> None:
    """Refuse a scenario field that does not act in ``kind`` (one of :data:`KINDS`); ``prefix`` names a
    volley of ``firing_units``."""
    acts = SCENARIO_ACTS[kind]
    if acts.issuperset(data):  # every field acts: nothing to refuse
        return
    where = f"a {kind} volley" if prefix else f"a {kind} scenario"
    for key in sorted(data, key=str):
        if key not in acts and not is_neutral(key, data[key]):
            raise ScenarioError(
                f"{prefix}{key}: not used in {where} ({why_unused(key)}), got {show_value(data[key])}",
                field=prefix + key,
                value=data[key],
            )
