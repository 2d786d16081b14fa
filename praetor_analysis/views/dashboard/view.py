"""The dashboard's pure part: its inputs as plain values in, tables and figures out.

:class:`DashboardState` and the rows it chooses (:func:`inputs_of`: weapons x targets with the modifiers as
engine rules; the shooting figures are :mod:`praetor_analysis.views.dashboard.shooting_view`'s), :func:`marker_view`,
and :func:`setup_scenarios` / :func:`state_from_scenarios` (the setup as ``praetor calc`` scenarios, saved and
loaded). No widget is created here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from praetor_analysis.markers import MARKER_DIAMETERS
from praetor_analysis.profiles import is_vehicle_type
from praetor_analysis.units import MODIFIER_FIELDS
from praetor_analysis.views.dashboard.modifiers import (
    SITUATION_FIELDS,
    Modifiers,
    modifier_names,
    modifiers_of_attacker,
)
from praetor_analysis.views.figures import plots as F

if TYPE_CHECKING:
    from praetor_analysis.analysis import AttackerProfile

__all__ = [
    "COVER_CHOICES",
    "DEFAULT_SELECTION",
    "FNP_CHOICES",
    "MARKER_CHOICES",
    "DashboardState",
    "MarkerState",
    "adjust_targets",
    "assumptions_of",
    "attacker_for",
    "chosen_targets",
    "chosen_weapons",
    "inputs_of",
    "marker_view",
    "setup_scenarios",
    "state_attacker",
    "state_from_scenarios",
    "weapon_catalog",
    "weapon_label",
]

#: Weapons chosen when the dashboard opens (names in the shipped catalog).
DEFAULT_SELECTION: tuple[str, ...] = (
    "Bolter",
    "Heavy Bolter",
    "Autocannon",
    "Lascannon",
    "Plasma Gun",
    "Volkite Culverin",
)
COVER_CHOICES: tuple[str, ...] = ("-", "6+", "5+", "4+", "3+")
FNP_CHOICES: tuple[str, ...] = ("-", "6+", "5+", "4+", "3+")
_PROFILE_KEY = ["name", "Range", "Strength", "AP", "Type"]
MARKER_CHOICES = {f'{name} ({d:g}")': d for name, d in MARKER_DIAMETERS.items() if name != "Apocalyptic Mega-blast"}
"""The marker choices (one round marker each; the Mega-blast's zones are not offered)."""


# ------------------------------------------------------------------------------------------ pure part
@dataclass(frozen=True)
class DashboardState:
    """Everything the figures depend on (the dashboard's inputs as plain values).

    Attributes:
        weapons: Row labels of the chosen weapons in the weapon catalog.
        targets: Archetype labels of the chosen targets.
        bs: Attacker's Ballistic Skill.
        attacker_models: Models firing each weapon.
        target_models: Models in each target unit (0: the archetype's default).
        cover: Cover save of the targets (``"-"`` for none).
        fnp: Feel No Pain of the targets (``"-"`` for none).
        half_range: Fire at half range (Rapid Fire twice, Melta).
        metric: Column of the heatmap.
        focus_target: Target of the curves and the distribution (default: the first chosen).
        focus_weapon: Weapon of the distribution (default: the first chosen).
        reroll_hits, reroll_wounds: ``"none"``, ``"ones"`` or ``"all"``.
        to_hit, to_wound: -1, 0 or +1.
        charging: The attacker charged (melee).
        furious_charge, preferred_enemy: As :class:`~praetor_analysis.units.modifiers.Modifiers`, whose
            record :attr:`modifiers` makes of these fields and the re-rolls and +/-1 above.
    """

    weapons: tuple[Any, ...]
    targets: tuple[str, ...]
    bs: int = 4
    attacker_models: int = 1
    target_models: int = 0
    cover: str = "-"
    fnp: str = "-"
    half_range: bool = False
    metric: str = "mean"
    focus_target: str | None = None
    focus_weapon: Any = None
    reroll_hits: str = "none"
    reroll_wounds: str = "none"
    to_hit: int = 0
    to_wound: int = 0
    charging: bool = False
    furious_charge: bool = False
    preferred_enemy: bool = False

    @property
    def modifiers(self) -> Modifiers:
        """The modifiers of this state (cover and Feel No Pain apply through :func:`adjust_targets`)."""
        return Modifiers.of(**{n: getattr(self, n) for n in (*MODIFIER_FIELDS, *SITUATION_FIELDS)})


@dataclass(frozen=True)
class MarkerState:
    """Inputs of the marker tab: a grid formation and a blast marker.

    Attributes:
        models, base_mm, gap, columns: The grid (docs/scenario.md ``formation``).
        marker: A key of the marker sizes (``'Blast (3")'``...).
        bs: Firer's BS (subtracted from the scatter); ignored when ``indirect``.
        indirect: Barrage without line of sight (full 2D6 scatter).
        aim: Model the hole is placed over.
    """

    models: int = 10
    base_mm: float = 32.0
    gap: float = 2.0
    columns: int = 5
    marker: str = 'Blast (3")'
    bs: int = 4
    indirect: bool = False
    aim: int = 0


def weapon_catalog(weapons: pd.DataFrame | None = None) -> pd.DataFrame:
    """Distinct ranged and melee profiles of the weapon catalog (first definition kept), index kept."""
    if weapons is None:
        from praetor_analysis.catalog import load_weapons

        weapons = load_weapons()
    return weapons.drop_duplicates(_PROFILE_KEY)


def attacker_for(bs: int, models: int) -> AttackerProfile:
    """The attacker: the comparison's default Legionary with ``BS`` and ``models`` changed."""
    from praetor_analysis.analysis import DEFAULT_ATTACKER

    return replace(DEFAULT_ATTACKER, BS=int(bs), models=int(models))


def adjust_targets(targets: pd.DataFrame, *, models: int = 0, cover: str = "-", fnp: str = "-") -> pd.DataFrame:
    """A copy of target rows with a model count (0 keeps each row's), a Cover save and Feel No Pain.

    Vehicles keep one model; Feel No Pain is added to the ``rules`` column (``;``-separated; a row's own
    rules, such as a Knight's Ion Shield, are kept), which the comparison reads.
    """
    out = targets.copy()
    vehicle = out.get("Unit Type", pd.Series("", index=out.index)).map(is_vehicle_type).astype(bool)
    if models > 0:
        out.loc[~vehicle, "models"] = int(models)
    out["Cover"] = "" if cover in ("", "-") else cover
    rules = out["rules"].fillna("").astype(str) if "rules" in out else pd.Series("", index=out.index)
    if fnp not in ("", "-"):
        extra = f"Feel No Pain ({fnp})"
        with_fnp = rules.where(rules == "", rules + ";") + extra
        rules = with_fnp.where(~vehicle, rules)
    out["rules"] = rules
    return out


def weapon_label(row: Mapping[str, Any]) -> str:
    """The label of a weapon row in the pickers: name (faction) Range S AP."""
    where = f"{row['name']} ({row.get('faction', '')})"
    return f"{where} {row.get('Range', '')} S{row.get('Strength', '')} AP{row.get('AP', '')}"


def chosen_weapons(state: DashboardState, weapons: pd.DataFrame) -> pd.DataFrame:
    """The state's weapon rows (as the catalog prints them: the modifiers travel in the attacker block)."""
    return weapons.loc[[i for i in state.weapons if i in weapons.index]]


def chosen_targets(state: DashboardState, targets: pd.DataFrame) -> pd.DataFrame:
    """The state's target rows with its model count, cover and Feel No Pain."""
    t = targets[targets["archetype"].isin(state.targets)]
    return adjust_targets(t, models=state.target_models, cover=state.cover, fnp=state.fnp)


def state_attacker(state: DashboardState) -> AttackerProfile:
    """The attacker of a state, its modifiers and charging applied."""
    m = state.modifiers
    return replace(attacker_for(state.bs, state.attacker_models), modifiers=m.attacker, charging=m.charging)


def inputs_of(
    state: DashboardState, weapons: pd.DataFrame, targets: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame, AttackerProfile]:
    """The weapon rows, target rows and attacker of a state, modifiers applied."""
    return chosen_weapons(state, weapons), chosen_targets(state, targets), state_attacker(state)


def setup_scenarios(state: DashboardState, weapons: pd.DataFrame, targets: pd.DataFrame) -> list[dict[str, Any]]:
    """The setup as ``praetor calc`` scenarios: one per chosen weapon and target, modifiers applied, each recording
    its edition (``"edition": "hh2"``).

    ``praetor calc`` on the JSON of this list gives the numbers the dashboard shows.
    """
    from praetor_analysis.views.cell_documents import scenario_for

    w, t, attacker = inputs_of(state, weapons, targets)
    return [
        {"edition": "hh2", **scenario_for(wrow, trow, attacker=attacker, half_range=state.half_range)}
        for wrow in w.to_dict("records")
        for trow in t.to_dict("records")
    ]


def _rule_value(rules: Sequence[Any], name: str) -> str:
    for r in rules:
        text = str(r)
        if text.startswith(name + " (") and text.endswith(")"):
            return text[len(name) + 2 : -1]
    return "-"


def state_from_scenarios(text: str, weapons: pd.DataFrame, targets: pd.DataFrame) -> DashboardState:
    """A state from saved scenarios (:func:`setup_scenarios` as JSON): weapons matched in the catalog by
    name, Range, Strength and AP, targets by name; the attacker's BS, models, charging and ``modifiers``;
    half range, cover and Feel No Pain.

    Raises:
        ScenarioError: naming the first field that cannot be read or matched; a setup of the 3rd edition, on one
            line that says to switch.
    """
    from praetor_analysis.errors import ScenarioError
    from praetor_analysis.views.setup_check import check_round_trip, setup_items

    items = setup_items(text, "hh2")
    chosen_w: list[Any] = []
    chosen_t: list[str] = []
    for n, sc in enumerate(items):
        wb, tb = sc.get("weapon"), sc.get("target")
        if not isinstance(wb, Mapping) or not isinstance(tb, Mapping):
            raise ScenarioError(f"scenario[{n}]: needs a weapon and a target object")
        same = weapons[
            (weapons["name"] == wb.get("name"))
            & (weapons["Range"] == wb.get("Range"))
            & (weapons["AP"] == wb.get("AP"))
        ]
        if same.empty:
            raise ScenarioError(f"scenario[{n}].weapon.name: {wb.get('name')!r} is not in the weapon catalog")
        if same.index[0] not in chosen_w:
            chosen_w.append(same.index[0])
        name = tb.get("name")
        if name not in set(targets["archetype"]):
            raise ScenarioError(f"scenario[{n}].target.name: {name!r} is not a target of the dashboard")
        if name not in chosen_t:
            chosen_t.append(str(name))
    first = items[0]
    attacker, target = dict(first.get("attacker", {})), dict(first.get("target", {}))
    rules = target.get("rules", [])
    mine = modifiers_of_attacker(attacker)
    state = DashboardState(
        weapons=tuple(chosen_w),
        targets=tuple(chosen_t),
        bs=int(attacker.get("BS", 4)),
        attacker_models=int(attacker.get("models", 1)),
        cover=str(target.get("Cover") or "-"),
        fnp=_rule_value(rules if isinstance(rules, list) else [], "Feel No Pain"),
        half_range=bool(first.get("half_range", False)),
        reroll_hits=mine.reroll_hits,
        reroll_wounds=mine.reroll_wounds,
        to_hit=mine.to_hit,
        to_wound=mine.to_wound,
        charging=bool(attacker.get("charging", False)),
        preferred_enemy=mine.preferred_enemy,
        furious_charge=mine.furious_charge,
    )
    # the state computes what praetor calc computes from the file, or the load is refused saying what differs
    made = {_setup_key(d): d for d in setup_scenarios(state, weapons, targets)}
    check_round_trip(items, [made.get(_setup_key(d)) for d in items], "scenario")
    return state


def _setup_key(doc: Mapping[str, Any]) -> tuple[Any, ...]:
    """A scenario's weapon (name, Range, AP) and target name: what a loaded setup is matched by."""
    w, t = doc.get("weapon"), doc.get("target")
    w = w if isinstance(w, Mapping) else {}
    return (w.get("name"), w.get("Range"), w.get("AP"), t.get("name") if isinstance(t, Mapping) else None)


def assumptions_of(state: DashboardState) -> Any:
    """The report's :class:`~praetor_analysis.views.report.page.Assumptions` for a state."""
    from praetor_analysis.views.report.page import Assumptions

    return Assumptions(
        attacker=state_attacker(state),
        half_range=state.half_range,
        charging=state.charging,
        modifiers=modifier_names(state.modifiers),
    )


def marker_view(state: MarkerState) -> tuple[go.Figure, go.Figure]:
    """The formation picture and the distribution of models hit by one marker (exact, :mod:`markers`)."""
    from praetor_analysis.markers import Formation, marker_pmf

    formation = Formation.grid(state.models, state.base_mm, state.gap, max(1, state.columns))
    diameter = MARKER_CHOICES.get(state.marker, 3.0)
    aim = min(max(state.aim, 0), max(state.models - 1, 0))
    pmf = marker_pmf(formation, diameter, bs=0 if state.indirect else state.bs, indirect=state.indirect, aim=aim)
    centre = formation.positions[aim] if state.models else np.zeros(2)
    reach = 12.0 if state.indirect else float(max(12 - state.bs, 0))
    picture = F.formation_figure(
        formation.positions,
        formation.base_radius,
        diameter,
        centre,
        F.FormationOptions(title=f"{state.marker} over model {aim}", scatter_max=reach),
    )
    dist = F.distribution_figure(
        pmf, F.DistributionOptions(title=f"Models hit by one {state.marker}", outcome="models hit", unit="models")
    )
    return picture, dist
