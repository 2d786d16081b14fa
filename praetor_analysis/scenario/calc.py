"""The `praetor calc` contract (docs/scenario.md): JSON scenario in, JSON result out.

Fields are added, never renamed. Bad input raises ``ScenarioError`` whose message names the field and
the value; the command line turns it into exit status 2 and one line on standard error.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from praetor_analysis.engine.allocation import TooLarge
from praetor_analysis.engine.batch import resolve_many
from praetor_analysis.engine.chain import resolve_sequence
from praetor_analysis.engine.rule_report import reasons
from praetor_analysis.engine.volley import Volley
from praetor_analysis.errors import ScenarioError
from praetor_analysis.markers.templates import wall_of_death_pmf
from praetor_analysis.prob.convolution import compound
from praetor_analysis.prob.dice import DiceExpr, parse_dice
from praetor_analysis.prob.dist import Dist
from praetor_analysis.prob.memo import BoundedMemo
from praetor_analysis.profiles.records import ProfileError, Unit, Weapon, unit_from_mapping
from praetor_analysis.rules.hit_rules import GETS_HOT, TWIN_LINKED
from praetor_analysis.rules.marker_rules import APOCALYPTIC_BARRAGE, BARRAGE, HELLSTORM, TEMPLATE
from praetor_analysis.rules.placement_rules import WALL_OF_DEATH_D6
from praetor_analysis.scenario.melee_round import handle_scenario
from praetor_analysis.scenario.names import resolve_names

SCENARIO_FIELDS = {
    "mode",
    "attacker",
    "weapon",
    "attacks",
    "snap_shots",
    "target",
    "hits",
    "formation",
    "aim",
    "indirect",
    "edges",
    "target_weapon",
    "half_range",
    "name",
    "firing_units",
    "metric",
}
#: Fields that only mean something beside another one: nothing is silently ignored.
_NEEDS = {"aim": "formation", "edges": "formation", "indirect": "formation"}
_SINGLE_VOLLEY_FIELDS = ("attacker", "weapon", "attacks", "hits", "snap_shots", "mode", "formation", "target_weapon")

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
VOLLEY_FIELDS = {"mode", "attacker", "weapon", "attacks", "snap_shots", "hits", "half_range"}


_PARSED: BoundedMemo[Any] = BoundedMemo(8192)


def parse_cached(kind: str, data: Any, field_name: str, build: Callable[[], Any]) -> Any:
    """Parse a weapon or unit block once: records are immutable, so sweeps reuse them (bounded memo)."""
    if not isinstance(data, Mapping):
        return build()
    try:
        key = (kind, field_name, type(data).__name__, repr(data))  # equal JSON-like blocks share a key
    except RecursionError:
        return build()
    return _PARSED.get(key, build)


def _bool(data: Mapping[str, Any], key: str, prefix: str = "") -> bool:
    v = data.get(key, False)
    if not isinstance(v, bool):
        raise ScenarioError(f"{prefix}{key}: expected true or false, got {v!r}")
    return v


def parse_volley(data: Mapping[str, Any], *, prefix: str = "") -> Volley:
    """Build a Volley from a scenario (or one entry of ``firing_units``)."""
    mode = data.get("mode", "shooting")
    if mode not in {"shooting", "melee"}:
        raise ScenarioError(f'{prefix}mode: expected "shooting" or "melee", got {mode!r}')
    if "weapon" not in data:
        raise ScenarioError(f"{prefix}weapon: required, got nothing")
    wdata, adata = data["weapon"], data.get("attacker", {})
    weapon = parse_cached(
        "weapon", wdata, f"{prefix}weapon", lambda: Weapon.from_mapping(wdata, field_name=f"{prefix}weapon")
    )
    attacker = parse_cached(
        "unit", adata, f"{prefix}attacker", lambda: unit_from_mapping(adata, field_name=f"{prefix}attacker")
    )
    if attacker.models < 1:
        raise ScenarioError(f"{prefix}attacker.models: must be at least 1, got {attacker.models}")
    attacks = hits = None
    try:
        if data.get("attacks") is not None:
            attacks = parse_dice(data["attacks"], field=f"{prefix}attacks")
        if data.get("hits") is not None:
            hits = parse_dice(data["hits"], field=f"{prefix}hits")
    except ValueError as exc:
        raise ScenarioError(str(exc)) from None
    if mode == "melee" and not weapon.is_melee and weapon.type.kind not in {None, "Pistol"}:
        raise ScenarioError(f'{prefix}weapon.Type: {weapon.type.text!r} is not a melee weapon for "mode": "melee"')
    if mode == "shooting" and weapon.is_melee:
        raise ScenarioError(f'{prefix}weapon.Type: {weapon.type.text!r} is a melee weapon; use "mode": "melee"')
    snap = _bool(data, "snap_shots", prefix)
    placement = None
    if snap and hits is None and (weapon.range.template is not None or weapon.has(TEMPLATE) or weapon.has(HELLSTORM)):
        hits = wall_of_death_hits(weapon, attacker.models, attacks)
        snap, placement = False, "wall of death"
    return Volley(
        weapon=weapon,
        attacker=attacker,
        mode=mode,
        attacks=attacks,
        hits=hits,
        snap_shots=snap,
        half_range=_bool(data, "half_range", prefix),
        placement=placement,
    )


def wall_of_death_hits(weapon: Weapon, models: int, attacks: DiceExpr | None) -> Dist:
    """Wall of Death (docs/rules.md#template): each template fired as a snap shot makes D3 automatic hits
    (D6 for a Hellstorm), added up over the templates: ``attacks`` of them, else the weapon's shots per model."""
    hellstorm = weapon.range.template == "Hellstorm" or any(weapon.has(r) for r in WALL_OF_DEATH_D6)
    if attacks is not None:
        templates = attacks.dist
    else:
        per_model = weapon.type.shots.dist if weapon.type.shots is not None else Dist.point(1)
        templates = per_model.power(models)
    return Dist.from_trusted(compound(templates.probabilities, wall_of_death_pmf(hellstorm)))


def parse_target(data: Mapping[str, Any]) -> Unit:
    """Build the target Unit from the scenario's ``target`` block."""
    if "target" not in data:
        raise ScenarioError("target: required, got nothing")
    tdata = data["target"]
    target = parse_cached("unit", tdata, "target", lambda: unit_from_mapping(tdata, field_name="target"))
    if target.models < 1:
        raise ScenarioError(f"target.models: must be at least 1, got {target.models}")
    if not target.is_vehicle:
        for key in ("T", "W"):
            if getattr(target, key) is None:
                raise ScenarioError(f"target.{key}: required for a unit that is not a Vehicle, got None")
        if target.W is not None and target.W < 1:
            raise ScenarioError(f"target.W: must be at least 1, got {target.W}")
    return target


def calc(data: Any) -> dict[str, Any]:
    """Compute one scenario (a mapping in the docs/scenario.md form) into the result mapping; ``reasons``
    says why each rule under ``no_effect`` or ``not_modelled`` is there."""
    result = _calc(data)
    result["reasons"] = reasons(list(result.get("no_effect", ())), list(result.get("not_modelled", ())))
    return result


def _calc(data: Any) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise ScenarioError(f"scenario: expected a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - SCENARIO_FIELDS)
    if unknown:
        raise ScenarioError(f"{unknown[0]}: unknown field (allowed: {', '.join(sorted(SCENARIO_FIELDS))})")
    _check_combination(data)
    data = resolve_names(data)
    if isinstance(data.get("weapon"), list) and "target_weapon" not in data:
        return _best_profile(data)
    try:
        melee_round = handle_scenario(data)
        if melee_round is not None:
            return melee_round
        target = parse_target(data)
        notes: list[str] = []
        if "formation" in data:
            volley, notes = _formation_volley(data, target)
            volleys = [[volley]]
        elif "firing_units" in data:
            units = data["firing_units"]
            if not isinstance(units, list) or not units or not all(isinstance(u, list) and u for u in units):
                raise ScenarioError(
                    f"firing_units: expected a non-empty list of non-empty lists of volleys, got {_short(units)}"
                )
            for i, u in enumerate(units):
                for j, v in enumerate(u):
                    if not isinstance(v, Mapping):
                        raise ScenarioError(f"firing_units[{i}][{j}]: expected a volley object, got {_short(v)}")
            volleys = [
                [parse_volley(v, prefix=f"firing_units[{i}][{j}].") for j, v in enumerate(u)]
                for i, u in enumerate(units)
            ]
        else:
            volleys = [[parse_volley(data)]]
        if target.is_vehicle:
            from praetor_analysis.vehicles.attack import resolve_vehicle_scenario

            result = resolve_vehicle_scenario(target, volleys)
        else:
            result = resolve_sequence(target, volleys).to_dict()
        result["applied"] = list(result["applied"]) + [n for n in notes if not n.startswith("not modelled: ")]
        result["not_modelled"] = list(result["not_modelled"]) + [
            n.removeprefix("not modelled: ") for n in notes if n.startswith("not modelled: ")
        ]
        return result
    except (ProfileError, TooLarge) as exc:
        raise ScenarioError(str(exc)) from None


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, (list, dict)) or len(str(value)) < 80 else type(value).__name__
    return text[:80]


def _check_combination(data: Mapping[str, Any]) -> None:
    """Refuse fields that would be silently ignored in this combination."""
    for key, needs in _NEEDS.items():
        if data.get(key) not in (None, False) and needs not in data:
            raise ScenarioError(f"{key}: only used with {needs!r}, which is missing")
    if "metric" in data and not isinstance(data.get("weapon"), list):
        raise ScenarioError("metric: only used when weapon is a list of profiles (Transmutative armaments)")
    if "target_weapon" in data and data.get("mode") != "melee":
        raise ScenarioError(f'target_weapon: only used with "mode": "melee", got mode {data.get("mode", "shooting")!r}')
    if "firing_units" in data:
        both = [k for k in _SINGLE_VOLLEY_FIELDS if k in data]
        if both:
            raise ScenarioError(f"{both[0]}: give the volleys inside firing_units, not beside it")


def _best_profile(data: Mapping[str, Any]) -> dict[str, Any]:
    """Transmutative armaments: several profiles for one weapon; the best for this target by ``metric``."""
    profiles = data["weapon"]
    metric = data.get("metric", "casualties")
    if metric not in METRICS:
        raise ScenarioError(f"metric: expected one of {', '.join(METRICS)}, got {metric!r}")
    if not profiles:
        raise ScenarioError("weapon: an empty list of profiles")
    results = []
    for i, profile in enumerate(profiles):
        try:
            results.append(calc({**{k: v for k, v in data.items() if k != "metric"}, "weapon": profile}))
        except ScenarioError as exc:
            raise ScenarioError(f"weapon[{i}].{str(exc).removeprefix('weapon.')}") from None
    scores = [METRICS[metric](r) for r in results]
    best = max(range(len(results)), key=lambda i: (scores[i], -i))  # ties: the first listed
    out = dict(results[best])
    out["chosen_profile"] = {
        "index": best,
        "name": profiles[best].get("name", f"profile {best}"),
        "metric": metric,
        "scores": scores,
    }
    return out


def _formation_volley(data: Mapping[str, Any], target: Unit) -> tuple[Volley, list[str]]:
    """A marker or template volley whose hits come from the formation's geometry."""
    from dataclasses import replace

    import numpy as np

    from praetor_analysis.engine.hit_stage import shots_distribution
    from praetor_analysis.markers.attack import (
        hits_from_formation,
        marker_kind,
        mega_blast_joint,
        parse_aim,
        parse_edges,
        parse_formation,
    )
    from praetor_analysis.markers.formation import Formation
    from praetor_analysis.markers.options import MarkerOptions

    if data.get("hits") is not None:
        raise ScenarioError('hits: give either "hits" or "formation", not both')
    volley = parse_volley(data)
    if volley.mode != "shooting":
        raise ScenarioError(f"formation: markers and templates are shooting attacks, got mode {volley.mode!r}")
    shape = parse_formation(data["formation"], target.models)
    if target.is_vehicle and "hull" not in data["formation"]:
        raise ScenarioError("formation.hull: a Vehicle target's formation is its hull [length, width]")
    firer_distance = data["formation"].get("firer_distance", 1.0)
    if not isinstance(firer_distance, (int, float)) or firer_distance < 0:
        raise ScenarioError(f"formation.firer_distance: expected inches >= 0, got {firer_distance!r}")
    bs = volley.attacker.BS
    if bs is None or not 1 <= bs <= 10:
        raise ScenarioError(f"attacker.BS: must be 1..10 to fire a marker, got {bs!r}")
    indirect = _bool(data, "indirect")
    if indirect and not (volley.weapon.has(BARRAGE) or volley.weapon.has(APOCALYPTIC_BARRAGE)):
        raise ScenarioError(f"indirect: only Barrage weapons fire indirectly; {volley.weapon.name!r} has no Barrage")
    shots, _ = shots_distribution(volley)
    aim = parse_aim(data.get("aim"), target.models)
    edges = parse_edges(data.get("edges"))
    options = MarkerOptions(bs=bs, indirect=indirect, twin_linked=volley.weapon.has(TWIN_LINKED), aim=aim, edges=edges)
    if marker_kind(volley.weapon) == "Apocalyptic Mega-blast" and isinstance(shape, Formation):
        joint, ones = mega_blast_joint(shots, shape, options, gets_hot=volley.weapon.has(GETS_HOT))
        total = np.zeros(sum(joint.shape) - 2)
        for (a, b, c), p in np.ndenumerate(joint):
            total[a + b + c] += p
        joint_hits = Dist.from_trusted(total)
        return replace(volley, hits=joint_hits, ones=ones, zone_hits=joint, attacks=None, placement="formation"), []
    hits, ones, notes = hits_from_formation(
        volley.weapon,
        shots,
        shape,
        options,
        firer_distance=float(firer_distance),
        gets_hot=volley.weapon.has(GETS_HOT),
    )
    return replace(volley, hits=hits, ones=ones, attacks=None, placement="formation"), notes


def calc_json(text: str, calc_one: Callable[[Any], Any] | None = None) -> Any:
    """Parse JSON text (one scenario or an array of them) and compute the result(s) with ``calc_one``
    (default :func:`calc`)."""
    calc_one = calc if calc_one is None else calc_one
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"scenario: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
    if isinstance(data, list):
        out = []
        for i, result in enumerate(calc_many(data, calc_one)):
            if isinstance(result, ScenarioError):
                raise ScenarioError(f"[{i}] {result}") from None
            out.append(result)
        return out
    return calc_one(data)


def calc_many(items: Sequence[Any], calc_one: Callable[[Any], Any] | None = None) -> list[Any]:
    """``calc_one`` (default :func:`calc`) of each scenario, or the ScenarioError it raises; the single-volley
    scenarios against units (no field beyond the volley's and the target) are computed together by the
    engine's batch (``engine.batch.resolve_many``), with the same results."""
    calc_one = calc if calc_one is None else calc_one
    out: list[Any] = [None] * len(items)
    batch: list[int] = []
    cells: list[tuple[Volley, Unit]] = []
    for i, item in enumerate(items):
        cell = _batchable(item)
        if cell is not None:
            batch.append(i)
            cells.append(cell)
    for i, result in zip(batch, resolve_many(cells), strict=True):
        if isinstance(result, (ProfileError, TooLarge)):
            out[i] = ScenarioError(str(result))
            continue
        done = result.to_dict()
        done["reasons"] = reasons(list(done.get("no_effect", ())), list(done.get("not_modelled", ())))
        out[i] = done
    for i, item in enumerate(items):
        if out[i] is None:
            try:
                out[i] = calc_one(item)
            except ScenarioError as exc:
                out[i] = exc
    return out


def _batchable(item: Any) -> tuple[Volley, Unit] | None:
    """The (volley, target) of a single-volley scenario against a unit, or None (computed by ``calc``)."""
    if not isinstance(item, Mapping) or set(item) - VOLLEY_FIELDS - {"target", "name"}:
        return None
    if isinstance(item.get("weapon"), list):
        return None
    try:
        data = resolve_names(item)
        target = parse_target(data)
        volley = parse_volley(data)
    except (ScenarioError, ProfileError):
        return None  # calc says so, with its own message
    return None if target.is_vehicle else (volley, target)
