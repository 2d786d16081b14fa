"""Hull points removed by one volley on a fresh vehicle, nothing else: the vehicle half of the sweep path."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from praetor_analysis.engine.volley import Volley
from praetor_analysis.errors import PraetorError
from praetor_analysis.prob.dice import sum_of_iid
from praetor_analysis.profiles.records import Unit
from praetor_analysis.rules.classify import RuleReport
from praetor_analysis.vehicles.attack import classify_vehicle_rules, penetrating_weapon, vehicle_hits, vehicle_target
from praetor_analysis.vehicles.hull_points import DEFAULT_DAMAGE_TABLE, per_hit_outcome


def hull_points_many(cells: Sequence[tuple[Volley, Unit]]) -> list[dict[str, Any] | PraetorError | None]:
    """``hull_points_only`` of every cell (or the error it raises), once per (volley, statline): a vehicle's
    name changes no number. Target by target, so that the per-hit outcomes of one vehicle statline stay in
    their memo while every weapon is fired at it."""
    out: list[dict[str, Any] | PraetorError | None] = [None] * len(cells)
    same: dict[int, object] = {}  # id -> the first equal record (statlines compared without the name)
    by_value: dict[object, object] = {}
    for volley, target in cells:
        for record, value in ((volley, volley), (target, replace(target, name=""))):
            if id(record) not in same:
                same[id(record)] = by_value.setdefault(value, record)
    done: dict[tuple[int, int], dict[str, Any] | PraetorError | None] = {}
    for i in sorted(range(len(cells)), key=lambda i: id(same[id(cells[i][1])])):
        volley, target = cells[i]
        key = (id(same[id(volley)]), id(same[id(target)]))
        if key not in done:
            try:
                done[key] = hull_points_only(volley, target)
            except PraetorError as exc:
                done[key] = exc
        out[i] = done[key]
    return out


def hull_points_only(volley: Volley, target: Unit) -> dict[str, Any] | None:
    """``{"hull_points": {"pmf": array}, "wrecked": p, "pinned": None, "not_modelled": [...]}`` of one volley
    on a fresh vehicle, with the vehicle engine's own stages (hits, per-hit outcome), or None when a hit can
    do more than remove hull points (the full ``resolve_vehicle_scenario`` is needed)."""
    vt = vehicle_target(target)
    hits, _ = vehicle_hits(volley, target)
    # the labels change no number: equal profiles share one per-hit outcome
    weapon = replace(penetrating_weapon(volley), name="")
    outcome, transitions = per_hit_outcome(weapon, replace(vt, name=""), volley.half_range, DEFAULT_DAMAGE_TABLE)
    if transitions.state_dependent:  # hits are not alike (Sunder at few hull points left): the full chain
        return None
    top = vt.hp
    # hull points one hit removes (capped at the full hull points; a sum capped again equals the chain)
    per_hit = transitions[None][top, ::-1][: top + 1]
    if abs(per_hit.sum() - 1.0) > 1e-12:
        return None
    total = sum_of_iid(hits.probabilities, per_hit)
    left = vt.hp_left
    removed = np.zeros(left + 1)
    removed[: min(total.size, left + 1)] = total[: left + 1]
    removed[left] += total[left + 1 :].sum()
    report = RuleReport()
    classify_vehicle_rules(volley, target, report)
    for x in outcome.not_modelled:
        report.add("not_modelled", x)
    wrecked = float(removed[left])
    return {"hull_points": {"pmf": removed}, "wrecked": wrecked, "pinned": None, "not_modelled": report.not_modelled}
