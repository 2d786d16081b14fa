"""The dashboard in the 3rd edition, its pure part: the inputs as plain values in, ``praetor calc`` documents with
``"edition": "hh3"`` out, their answers as a table and figures.

:class:`Hh3State` is the shooting tab's inputs (the 3rd edition's catalog weapons, its standard targets, the firers'
BS and models, the targets' cover and Feel No Pain, Snap Shots and Stationary); :func:`hh3_scenarios` its
documents, one per weapon and target, which ``praetor calc`` runs as the dashboard does (:func:`hh3_table`); the
table carries the Tactical Statuses each attack can cause (``p_Pinned``... ``p_Routed``). :func:`hh3_melee_scenario`
is a whole round between two catalog units. :func:`hh3_state_from_setup` reads a saved setup back, refusing on
one line a setup of the 2nd edition. No widget is created here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from praetor_analysis.catalog import frame_rows
from praetor_analysis.errors import PraetorError, ScenarioError

__all__ = [
    "HH3_COVER",
    "HH3_DEFAULT_WEAPONS",
    "HH3_METRICS",
    "Hh3State",
    "cached_calc",
    "chosen_labels",
    "focus_pmf",
    "hh3_attacker",
    "hh3_melee_scenario",
    "hh3_scenarios",
    "hh3_state_from_setup",
    "hh3_table",
    "hh3_weapon_block",
    "hh3_weapon_catalog",
    "statuses_line",
]

HH3_DEFAULT_WEAPONS: tuple[str, ...] = ("Bolter", "Heavy bolter", "Autocannon", "Lascannon", "Meltagun")
"""Weapons chosen when the 3rd edition's shooting tab opens (names in its shipped catalog)."""
HH3_COVER: tuple[str, ...] = ("-", "6+", "5+", "4+")
"""The 3rd edition's cover saves (docs/scenario.md, "Edition 3")."""
STATUSES = ("Pinned", "Suppressed", "Stunned", "Routed")
HH3_METRICS: dict[str, str] = {
    "mean": "expected models removed or hull points",
    "p_any": "P(at least one) (probability)",
    "p_all": "P(whole unit removed / wrecked) (probability)",
    **{f"p_{s}": f"P({s}) (probability)" for s in STATUSES},
}
"""What the heatmap may be coloured by: the means, and the 3rd edition's Tactical Statuses."""
_RANGED = ("R", "FP", "RS", "AP", "D", "Special Rules", "Traits")
_MELEE = ("IM", "AM", "SM", "AP", "D", "Special Rules", "Traits")
#: The firers' statline when no unit is named: a Legionary (the 3rd edition's standard target's), BS and models set.
_LEGIONARY = {"name": "Legionary", "Type": "Infantry", "M": "7", "WS": "4", "BS": "4", "S": "4", "T": "4", "W": "1",
              "I": "4", "A": "1", "LD": "7", "CL": "7", "WP": "7", "IN": "7", "SAV": "3+"}  # fmt: skip


@dataclass(frozen=True)
class Hh3State:
    """The 3rd edition's shooting inputs.

    Attributes:
        weapons: Row labels of the chosen weapons in :func:`hh3_weapon_catalog`.
        targets: Archetype labels of the chosen standard targets.
        bs, models: The firers' Ballistic Skill and how many fire each weapon.
        cover: The targets' cover save (``"-"``: none); ``fnp``: Feel No Pain given to every target not a vehicle.
        snap_shots, stationary: The firers fire Snap Shots; they stood still (Heavy, Ordnance).
        metric: What the heatmap is coloured by (a key of :data:`HH3_METRICS`).
        focus_target, focus_weapon: The pair of the distribution (default: the first chosen).
    """

    weapons: tuple[Any, ...]
    targets: tuple[str, ...]
    bs: int = 4
    models: int = 10
    cover: str = "-"
    fnp: str = "-"
    snap_shots: bool = False
    stationary: bool = False
    metric: str = "mean"
    focus_target: str | None = None
    focus_weapon: Any = None


def hh3_weapon_catalog(weapons: pd.DataFrame | None = None) -> pd.DataFrame:
    """The 3rd edition's distinct weapon profiles (first definition kept, index kept): ranged and melee."""
    if weapons is None:
        from praetor_analysis.catalog import load_weapons

        weapons = load_weapons("hh3")
    key = ["name", *sorted(set(_RANGED) | set(_MELEE))]
    return weapons.drop_duplicates([k for k in key if k in weapons.columns])


def _text(value: Any) -> str:
    text = "" if value is None else str(value).strip()
    return "" if text.lower() == "nan" else text


def hh3_weapon_block(row: Mapping[str, Any]) -> dict[str, Any]:
    """A catalog row as the door's weapon block (ranged or melee, by the row's characteristics)."""
    keys = _MELEE if _text(row.get("IM")) else _RANGED
    block = {"name": _text(row.get("name"))}
    block.update({k: _text(row.get(k)) for k in keys if _text(row.get(k))})
    return block


def _block(row: Mapping[str, Any], models: int | None = None) -> dict[str, Any]:
    """A unit or target row as the door's unit block (its 3rd-edition characteristics, ``models``)."""
    from praetor_analysis.profiles import HH3_UNIT_FIELDS

    block: dict[str, Any] = {"name": _text(row.get("name")) or _text(row.get("archetype"))}
    block.update({k: _text(row[k]) for k in sorted(HH3_UNIT_FIELDS - {"models", "rules"}) if _text(row.get(k))})
    n = models if models is not None else int(float(_text(row.get("models")) or 1))
    block["models"] = n
    return block


def hh3_attacker(state: Hh3State) -> dict[str, Any]:
    """The firers' block: a Legionary with the state's BS and models."""
    return {**_LEGIONARY, "BS": str(int(state.bs)), "models": int(state.models)}


def _target(row: Mapping[str, Any], state: Hh3State) -> dict[str, Any]:
    from praetor_analysis.units import hh3_target_of_row

    _, target = hh3_target_of_row(pd.Series(dict(row)))
    block = target.to_block()
    if state.cover not in ("", "-"):
        block["Cover"] = state.cover
    if state.fnp not in ("", "-") and not target.is_vehicle:
        rules = [r for r in str(block.get("rules", "")).split(",") if r.strip()]
        block["rules"] = ", ".join([*rules, f"Feel No Pain ({state.fnp})"])
    return block


def hh3_scenarios(state: Hh3State, weapons: pd.DataFrame, targets: pd.DataFrame) -> list[dict[str, Any]]:
    """The state as ``praetor calc`` documents (``"edition": "hh3"``): one per chosen weapon and target."""
    w = weapons.loc[[i for i in state.weapons if i in weapons.index]]
    t = targets[targets["archetype"].isin(state.targets)]
    docs = []
    for wrow in frame_rows(w):
        for trow in frame_rows(t):
            doc: dict[str, Any] = {
                "edition": "hh3",
                "name": f"{wrow['name']} vs {trow['archetype']}",
                "attacker": hh3_attacker(state),
                "weapon": hh3_weapon_block(wrow),
                "target": _target(trow, state),
            }
            if state.snap_shots:
                doc["snap_shots"] = True
            if state.stationary:
                doc["stationary"] = True
            docs.append(doc)
    return docs


Calc = Callable[[Mapping[str, Any]], Mapping[str, Any]]


def cached_calc() -> Calc:
    """``praetor calc`` of a document, each document's answer kept (the dashboard asks again on every change)."""
    from praetor_analysis.scenario.calc import calc

    memo: dict[str, Mapping[str, Any]] = {}

    def run(doc: Mapping[str, Any]) -> Mapping[str, Any]:
        key = json.dumps(doc, sort_keys=True)
        if key not in memo:
            memo[key] = calc(dict(doc))
        return memo[key]

    return run


def _row(doc: Mapping[str, Any], weapon_id: Any, label: str, result: Mapping[str, Any] | None, error: str) -> dict:
    target = doc["target"]
    row: dict[str, Any] = {"weapon": label, "weapon_id": str(weapon_id), "target": doc["name"].split(" vs ", 1)[1],
                           "error": error, "not_modelled": "", "measure": "", "pmf": [1.0]}  # fmt: skip
    for col in HH3_METRICS:
        row[col] = float("nan")
    if result is None:
        return row
    key = "hull_points" if "hull_points" in result else "casualties"
    pmf = [float(p) for p in result[key]["pmf"]]
    models = int(target.get("models", 1))
    row.update(measure=key, pmf=pmf, mean=float(result[key]["mean"]), p_any=1.0 - pmf[0])
    row["p_all"] = float(result["wrecked"]) if key == "hull_points" else float(sum(pmf[models:]))
    for s in STATUSES:
        value = result.get("statuses", {}).get(s)
        row[f"p_{s}"] = float("nan") if value is None else float(value)
    row["not_modelled"] = "; ".join(str(x) for x in result.get("not_modelled", []))
    return row


def hh3_table(state: Hh3State, weapons: pd.DataFrame, targets: pd.DataFrame, calc: Calc | None = None) -> pd.DataFrame:
    """Every chosen weapon against every chosen target through ``praetor calc`` (``calc``: injectable, a cache):
    columns ``weapon``, ``weapon_id``, ``target``, ``measure``, the :data:`HH3_METRICS`, ``pmf``, ``error`` (a
    refused document: its one line) and ``not_modelled``."""
    if calc is None:
        from praetor_analysis.scenario.calc import calc as calc_doc

        calc = calc_doc
    labels = {i: f"{r['name']} R{r.get('R', '')} FP{r.get('FP', '')} RS{r.get('RS', '')} AP{r.get('AP', '')}"
              for i, r in weapons.iterrows()}  # fmt: skip
    chosen = [i for i in state.weapons if i in weapons.index]
    docs = hh3_scenarios(state, weapons, targets)
    per = max(1, len(docs) // max(1, len(chosen)))
    rows = []
    for n, doc in enumerate(docs):
        wid = chosen[n // per]
        try:
            rows.append(_row(doc, wid, labels[wid], calc(doc), ""))
        except PraetorError as exc:
            rows.append(_row(doc, wid, labels[wid], None, str(exc)))
    return pd.DataFrame(rows)


def hh3_melee_scenario(
    attacker: Mapping[str, Any],
    weapon: Mapping[str, Any],
    target: Mapping[str, Any],
    target_weapon: Mapping[str, Any],
    models: tuple[int, int] = (10, 10),
    charging: bool = True,
) -> dict[str, Any]:
    """A whole round of 3rd-edition melee between two catalog unit rows striking with two catalog melee weapons
    (``models``: each side's), as a ``praetor calc`` document."""
    doc: dict[str, Any] = {
        "edition": "hh3",
        "mode": "melee",
        "attacker": _block(attacker, models[0]),
        "weapon": hh3_weapon_block(weapon),
        "target": _block(target, models[1]),
        "target_weapon": hh3_weapon_block(target_weapon),
    }
    if charging:
        doc["charging"] = True
    return doc


def hh3_state_from_setup(text: str, weapons: pd.DataFrame, targets: pd.DataFrame) -> Hh3State:
    """A state from a saved setup (:func:`hh3_scenarios` as JSON): weapons matched in the catalog by their block,
    targets by name, the firers' BS and models, cover, Feel No Pain, Snap Shots and Stationary; what the state
    would compute differently from the file is refused (:func:`~praetor_analysis.views.setup_check.check_round_trip`).

    Raises:
        ScenarioError: one line: a setup of the 2nd edition, or the first field that cannot be read or matched.
    """
    from praetor_analysis.views.setup_check import check_round_trip, setup_items

    items = setup_items(text, "hh3")
    blocks = {
        json.dumps(hh3_weapon_block(r), sort_keys=True): i
        for i, r in zip(weapons.index, frame_rows(weapons), strict=True)
    }
    chosen_w: list[Any] = []
    chosen_t: list[str] = []
    for n, sc in enumerate(items):
        wid = blocks.get(json.dumps(sc.get("weapon"), sort_keys=True))
        if wid is None:
            name = sc.get("weapon", {}).get("name") if isinstance(sc.get("weapon"), Mapping) else sc.get("weapon")
            raise ScenarioError(f"scenario[{n}].weapon: {name!r} is not a weapon of the 3rd edition's catalog")
        target = sc.get("target")
        label = str(sc.get("name", "")).split(" vs ", 1)[-1]
        if not isinstance(target, Mapping) or label not in set(targets["archetype"]):
            raise ScenarioError(f"scenario[{n}].name: {sc.get('name')!r} names no standard target of the 3rd edition")
        chosen_w += [wid] if wid not in chosen_w else []
        chosen_t += [label] if label not in chosen_t else []
    first = items[0]
    attacker, target = dict(first.get("attacker", {})), dict(first["target"])
    fnp = next((r.strip()[len("Feel No Pain (") : -1] for r in str(target.get("rules", "")).split(",")
                if r.strip().startswith("Feel No Pain (")), "-")  # fmt: skip
    try:
        state = Hh3State(
            weapons=tuple(chosen_w),
            targets=tuple(chosen_t),
            bs=int(attacker.get("BS", 4)),
            models=int(attacker.get("models", 10)),
            cover=str(target.get("Cover") or "-"),
            fnp=fnp,
            snap_shots=first.get("snap_shots") is True,
            stationary=first.get("stationary") is True,
        )
    except (TypeError, ValueError) as exc:
        raise ScenarioError(f"scenario[0].attacker: {exc}") from None
    made = {d["name"]: d for d in hh3_scenarios(state, weapons, targets)}
    check_round_trip(items, [made.get(str(d.get("name"))) for d in items], "scenario")
    return state


def focus_pmf(table: pd.DataFrame, target: str | None, weapon: Any) -> tuple[list[float], str, str]:
    """The distribution of the focus pair (``pmf``, its label, its measure); the first row when not found."""
    if table.empty:
        return [1.0], "", "casualties"
    hit = table[(table["target"] == target) & (table["weapon_id"] == str(weapon))]
    row = (hit if len(hit) else table).iloc[0]
    return list(row["pmf"]), f"{row['weapon']} vs {row['target']}", str(row["measure"] or "casualties")


def statuses_line(table: pd.DataFrame) -> str:
    """The Tactical Statuses the chosen attacks can cause, one line (their largest probability each)."""
    parts = []
    for s in STATUSES:
        col = pd.to_numeric(table.get(f"p_{s}", pd.Series(dtype=float)), errors="coerce")
        if col.notna().any():
            parts.append(f"{s} up to {col.max():.1%}")
    return "Tactical Statuses: " + (", ".join(parts) if parts else "none of these attacks can cause one")


def chosen_labels(values: Sequence[Any], options: Sequence[Any]) -> tuple[Any, ...]:
    """The values still offered (a switch of catalog keeps what exists)."""
    offered = {o[1] if isinstance(o, tuple) else o for o in options}
    return tuple(v for v in values if v in offered)
