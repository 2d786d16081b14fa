"""The dashboard's melee tab: a whole round of combat (both sides strike, ``target_weapon``), pure.

:func:`melee_scenario` builds the ``praetor calc`` scenario from two catalog units and their weapons,
:func:`melee_view` computes it (:func:`praetor_analysis.scenario.calc.calc`) and draws the casualties each
side suffers; nothing is computed in a widget callback.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import plotly.graph_objects as go

from praetor_analysis.errors import counted_noun
from praetor_analysis.views.dashboard.modifiers import Modifiers, apply_modifiers
from praetor_analysis.views.formats import PCT_FMT, colour, escape, number, percent, title_layout

__all__ = ["MeleeState", "MeleeView", "melee_figure", "melee_scenario", "melee_view"]


@dataclass(frozen=True)
class MeleeState:
    """Both sides of a round of combat.

    Attributes:
        attacker, target: Unit statline blocks (``WS``, ``S``, ``T``, ``W``, ``I``, ``A``, ``Save``...).
        weapon, target_weapon: Melee weapon blocks (``Strength``, ``AP``, ``Type``).
        attacker_models, target_models: Models on each side.
        modifiers: The attacker's modifiers (charging, Furious Charge, re-rolls, +/-1...).
    """

    attacker: Mapping[str, Any]
    weapon: Mapping[str, Any]
    target: Mapping[str, Any]
    target_weapon: Mapping[str, Any]
    attacker_models: int = 10
    target_models: int = 10
    modifiers: Modifiers = field(default_factory=Modifiers)


@dataclass(frozen=True)
class MeleeView:
    """The round's figure, a one-line summary, the scenario computed and what the engine did not model."""

    figure: go.Figure
    summary: str
    scenario: dict[str, Any]
    notes: tuple[str, ...] = ()


def melee_scenario(state: MeleeState) -> tuple[dict[str, Any], list[str]]:
    """The ``praetor calc`` scenario of the round (modifiers applied) and the notes of what is not modelled."""
    base = {
        "mode": "melee",
        "attacker": {**dict(state.attacker), "models": int(state.attacker_models)},
        "weapon": dict(state.weapon),
        "target": {**dict(state.target), "models": int(state.target_models)},
        "target_weapon": dict(state.target_weapon),
    }
    return apply_modifiers(base, state.modifiers)


def melee_figure(result: Mapping[str, Any], attacker: str, target: str) -> go.Figure:
    """Bars of P(k models lost) for each side of the round, the combat result in the title."""
    fig = go.Figure()
    sides = (
        (f"defender ({target}) loses", result["casualties"]),
        (f"attacker ({attacker}) loses", result["attacker_casualties"]),
    )
    for i, (name, dist) in enumerate(sides):
        pmf = np.asarray(dist["pmf"], dtype=np.float64)
        fig.add_trace(
            go.Bar(
                x=np.arange(pmf.size),
                y=pmf,
                name=escape(name),
                marker_color=colour(i),
                hovertemplate=f"{escape(name)} %{{x}} models<br>P = %{{y:{PCT_FMT}}}<extra></extra>",
            )
        )
    c = result["combat"]
    title = (
        f"{escape(attacker)} vs {escape(target)}: the attacker wins {percent(c['attacker_wins'])}, "
        f"loses {percent(c['target_wins'])}, draws {percent(c['draw'])}"
    )
    fig.update_layout(
        title=title_layout(title),
        barmode="group",
        xaxis={"title": {"text": "models removed k (models)"}, "dtick": 1},
        yaxis={"title": {"text": "P(k) (probability)"}, "tickformat": ".0%", "rangemode": "tozero"},
        legend={"orientation": "h", "y": -0.25},
        margin={"b": 90},
    )
    return fig


def melee_view(state: MeleeState) -> MeleeView:
    """Compute the round and present it (errors become a figure-less message, never an exception)."""
    from praetor_analysis.errors import PraetorError
    from praetor_analysis.scenario.calc import calc

    scenario, notes = melee_scenario(state)
    a_name = str(state.attacker.get("name", "attacker"))
    t_name = str(state.target.get("name", "target"))
    try:
        result = calc(scenario)
    except PraetorError as exc:
        fig = go.Figure(layout={"title": title_layout(f"Cannot compute this round: {escape(exc)}")})
        return MeleeView(fig, f"Cannot compute this round: {exc}", scenario, tuple(notes))
    notes += [f"not modelled: {r}" for r in result.get("not_modelled", [])]
    summary = (
        f"{a_name} removes {counted_noun(number(result['casualties']['mean']), 'model')} on average, "
        f"loses {number(result['attacker_casualties']['mean'])}; "
        f"applied: {', '.join(result.get('applied', [])) or 'nothing'}"
    )
    return MeleeView(melee_figure(result, a_name, t_name), summary, scenario, tuple(dict.fromkeys(notes)))
